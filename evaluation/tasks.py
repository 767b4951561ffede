"""The evaluation tasks, one record each, in report order: everything the evaluation stage, the reports and
`bsl data fetch` know about a task is its `EvalTask` in `TASKS`.

A record names the task, its column title, its folder inside the data dir, its loader, how it is scored (its
protocol, which also says which table it is reported in) and, when `bsl data fetch` can get it, its public source.
Adding an STS-style task is one record here plus its loader (a function returning `{split: PairSet}`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Union

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.evaluation.data import (
    SICK_FOLDER,
    STS_FOLDER,
    STSB_FOLDER,
    PairSet,
    load_sick,
    load_stsb,
    load_sts_year,
)
from bsl_pipeline.evaluation.data_dir import POOLED_STS_SUBSET
from bsl_pipeline.evaluation.transfer_data import (
    STS17_FOLDER,
    TRANSFER_FOLDER,
    TransferTask,
    load_sts17,
    parse_sts17_pairs,
    read_senteval_splits,
    read_sick_entailment_splits,
    transfer_task,
)

#: How a task is scored, and so which table reports it.
#: STS-style (cosine Spearman x100 against gold scores; the STS table, the BSL paper's Table 1):
#:   "sts-year"  a SemEval year: one pair set per subset, reported as the configured aggregate over them;
#:   "sts-test"  its "test" split (further splits, such as STS-B dev, appear in the details only).
#: "sts-pairs": one column per language pair (STS 2017, Table 3).
#: SentEval transfer tasks (test accuracy of a logistic regression on frozen embeddings, Table 2; see
#: evaluation.transfer): "cv" = 10-fold cross-validation over one pooled set, the penalty chosen by an
#: inner cross-validation; "kfold" = a train/test split, the penalty chosen by k-fold cross-validation on train;
#: "dev" = train/dev/test, the penalty chosen on dev.
TRANSFER_PROTOCOLS = ("cv", "kfold", "dev")
TABLES = {"sts-year": "sts", "sts-test": "sts", "sts-pairs": "sts17", **{p: "transfer" for p in TRANSFER_PROTOCOLS}}

TaskData = Union[dict[str, PairSet], TransferTask]


@dataclass(frozen=True)
class LoadOptions:
    """What a run asks of the loaders beyond the task names."""

    include_stsb_dev: bool = True
    sts17_pairs: Sequence[str] | str | None = None


@dataclass(frozen=True)
class HubSource:
    """Where `bsl data fetch` reads a set (evaluation.public_data): a Hugging Face hub dataset at a pinned
    revision, and what it becomes. `splits` pairs the split name used in our file names with the hub split it is
    read from (a hub split "a+b" is the concatenation of hub splits a and b); `reference_rows` is the pair count of
    each split in the reference files (SentEval's data, the official NLI releases)."""

    hub_id: str
    revision: str
    kind: str  # sts-year | stsb | sick | nli | classification | pair-classification | sts-crosslingual
    splits: tuple[tuple[str, str], ...]
    reference_rows: tuple[int, ...]
    note: str = ""
    config: str | None = None  # the hub dataset's config name, where it has several


@dataclass(frozen=True)
class EvalTask:
    """One evaluation task. `load(data_dir, task, options)` reads and checks its files: `{subset or split or
    language pair: PairSet}` for the STS-style protocols, a `TransferTask` for the transfer ones."""

    name: str
    title: str                                    # its column header, as the paper prints it
    folder: str                                   # inside the data dir
    load: Callable[[Path, EvalTask, LoadOptions], TaskData]
    protocol: str                                 # see TABLES
    source: HubSource | None = None               # what `bsl data fetch` reads it from; None: supplied by hand
    aliases: tuple[str, ...] = ()                 # further names `parse_tasks` accepts

    @property
    def table(self) -> str:
        """The score table it is reported in: "sts" (Table 1), "sts17" (Table 3) or "transfer" (Table 2)."""
        return TABLES[self.protocol]


def _year(data_dir: Path, task: EvalTask, options: LoadOptions) -> TaskData:
    return load_sts_year(data_dir, task.name)


def _stsb(data_dir: Path, task: EvalTask, options: LoadOptions) -> TaskData:
    out = {"test": load_stsb(data_dir, "test")}
    if options.include_stsb_dev:
        out["dev"] = load_stsb(data_dir, "dev")
    return out


def _sick_relatedness(data_dir: Path, task: EvalTask, options: LoadOptions) -> TaskData:
    return {"test": load_sick(data_dir, "test")}


def _sts17(data_dir: Path, task: EvalTask, options: LoadOptions) -> TaskData:
    return load_sts17(data_dir, parse_sts17_pairs(options.sts17_pairs))


def _senteval(*splits: str, pairs: bool = False) -> Callable[[Path, EvalTask, LoadOptions], TaskData]:
    """The loader of a task read from `senteval/<task>/<split>.tsv`."""

    def load(data_dir: Path, task: EvalTask, options: LoadOptions) -> TaskData:
        return transfer_task(task.name, task.protocol, read_senteval_splits(data_dir, task.name, splits, pairs))

    return load


def _sick_entailment(data_dir: Path, task: EvalTask, options: LoadOptions) -> TaskData:
    return transfer_task(task.name, task.protocol, read_sick_entailment_splits(data_dir))


POOLED_NOTE = ("the hub copy has no per-subset column: the year is written as one pooled file pair, so only the "
               "'all' STS aggregate (the default) can be computed from it")


def _sts_year_task(year: str, revision: str, rows: int) -> EvalTask:
    return EvalTask(year, year.upper(), f"{STS_FOLDER}/{year}", _year, "sts-year",
                    HubSource(f"mteb/{year}-sts", revision, "sts-year", ((POOLED_STS_SUBSET, "test"),), (rows,),
                              POOLED_NOTE))


def _transfer_task(name: str, title: str, protocol: str, load, source: HubSource | None,
                   aliases: tuple[str, ...] = ()) -> EvalTask:
    return EvalTask(name, title, f"{TRANSFER_FOLDER}/{name}", load, protocol, source, aliases)


#: Every task, in report order. Hub revisions are the ones MTEB pins (STS, SICK-R) or recent commits; see
#: evaluation.public_data for what each hub copy holds.
TASKS: tuple[EvalTask, ...] = (
    # SemEval STS 2012-2016. STS13's SMT subset is licensed by the LDC and never redistributed.
    _sts_year_task("sts12", "a0d554a64d88156834ff5ae9920b964011b16384", 3108),
    _sts_year_task("sts13", "7e90230a92c190f1bf69ae9002b8cea547a64cca", 1500),
    _sts_year_task("sts14", "6031580fec1f6af667f0bd2da0a551cf4f0b2375", 3750),
    _sts_year_task("sts15", "ae752c7c21bf194d8b67fd573edf7ae58183cbe3", 3000),
    _sts_year_task("sts16", "4d8694f8f0e0100860b497b999b3dbed754a0513", 1186),
    EvalTask("stsb", "STS-B", STSB_FOLDER, _stsb, "sts-test",
             HubSource("mteb/stsbenchmark-sts", "b0fddb56ed78048fa8b90373c8a3cfc37b684831", "stsb",
                       (("train", "train"), ("dev", "validation"), ("test", "test")), (5749, 1500, 1379)),
             aliases=("sts-b",)),
    EvalTask("sickr", "SICK-R", SICK_FOLDER, _sick_relatedness, "sts-test",
             HubSource("mteb/sickr-sts", "20a6d6f312dd54037fe07a32d58e5e168867909d", "sick", (("test", "test"),),
                       (4927,), "MTEB's SICK-R is not SemEval-2014's 4,927-pair test split; for paper-comparable "
                                "SICK-R numbers supply sick/SICK_test_annotated.txt by hand"),
             aliases=("sick", "sick-r")),
    EvalTask("sts17", "STS17", STS17_FOLDER, _sts17, "sts-pairs",
             HubSource("mteb/sts17-crosslingual-sts", "faeb762787bd10488a50c8b5be4a3b82e411949c", "sts-crosslingual",
                       (("test", "test"),), (5346,),
                       "one file pair per language pair (STS.input.<pair>.txt); the hub names the English-second "
                       "pairs es-en, fr-en, it-en, nl-en")),
    _transfer_task("mr", "MR", "cv", _senteval("all"),
                   HubSource("cornell-movie-review-data/rotten_tomatoes", "b6059de032aed3fea5bfadcbef8d375559c6bfd9",
                             "classification", (("all", "train+validation+test"),), (10662,))),
    _transfer_task("cr", "CR", "cv", _senteval("all"),
                   HubSource("SetFit/SentEval-CR", "main", "classification", (("all", "train+test"),), (3775,))),
    _transfer_task("subj", "SUBJ", "cv", _senteval("all"),
                   HubSource("SetFit/subj", "2eba632847a64707391116d7e9b3cd72c700c5e6", "classification",
                             (("all", "train+test"),), (10000,))),
    _transfer_task("mpqa", "MPQA", "cv", _senteval("all"),
                   HubSource("jxm/mpqa", "main", "classification", (("all", "train+test"),), (10606,),
                             "jxm/mpqa holds 10,603 of SentEval's 10,606 MPQA phrases")),
    _transfer_task("sst2", "SST-2", "dev", _senteval("train", "dev", "test"),
                   HubSource("SetFit/sst2", "main", "classification",
                             (("train", "train"), ("dev", "validation"), ("test", "test")), (6920, 872, 1821)),
                   aliases=("sst-2",)),
    _transfer_task("trec", "TREC", "kfold", _senteval("train", "test"),
                   HubSource("CogComp/trec", "refs/convert/parquet", "classification",
                             (("train", "train"), ("test", "test")), (5452, 500))),
    _transfer_task("mrpc", "MRPC", "kfold", _senteval("train", "test", pairs=True),
                   HubSource("nyu-mll/glue", "main", "pair-classification",
                             (("train", "train+validation"), ("test", "test")), (4076, 1725), config="mrpc")),
    # SICK-E reads SICK's entailment column from sick/ (SICK-R's folder); the hub copy of SICK-R lacks it.
    EvalTask("sicke", "SICK-E", SICK_FOLDER, _sick_entailment, "dev", aliases=("sick-e",)),
)
TASKS_BY_NAME: dict[str, EvalTask] = {t.name: t for t in TASKS}

#: The seven columns of the paper's Table 1, in its order.
ALL_TASKS: tuple[str, ...] = tuple(t.name for t in TASKS if t.table == "sts")
#: The SentEval transfer tasks (Table 2), in report order.
TRANSFER_TASKS: tuple[str, ...] = tuple(t.name for t in TASKS if t.table == "transfer")


def known_tasks() -> tuple[str, ...]:
    """Every task name `parse_tasks` accepts, in report order."""
    return tuple(TASKS_BY_NAME)


def task(name: str) -> EvalTask:
    """The record of one task, or an error listing the known ones."""
    if name not in TASKS_BY_NAME:
        raise InputError(f"unknown evaluation task {name!r}; expected one of {', '.join(TASKS_BY_NAME)}")
    return TASKS_BY_NAME[name]


def parse_tasks(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """`"sts12,stsb"` or a list -> validated task names in report order; None/empty/"all" -> Table 1's seven;
    "transfer" stands for the eight SentEval transfer tasks."""
    if text is None:
        return ALL_TASKS
    items = [t.strip().lower() for t in (text.split(",") if isinstance(text, str) else text) if t.strip()]
    if not items or items == ["all"]:
        return ALL_TASKS
    aliases = {alias: t.name for t in TASKS for alias in t.aliases} | {"sts": "all"}
    expanded: list[str] = []
    for t in (aliases.get(t, t) for t in items):
        expanded += list(ALL_TASKS) if t == "all" else list(TRANSFER_TASKS) if t == "transfer" else [t]
    known = known_tasks()
    unknown = [t for t in expanded if t not in known]
    if unknown:
        raise InputError(f"unknown task(s) {', '.join(unknown)}; expected a comma-separated subset of "
                         f"{','.join(known)} (or all, transfer)")
    return tuple(t for t in known if t in expanded)


def load_task(data_dir: str | Path, name: str, options: LoadOptions = LoadOptions()) -> TaskData:
    """Read and check every file one task needs (the record's loader)."""
    record = task(name)
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        raise InputError(f"{data_dir}: evaluation data directory not found")
    return record.load(data_dir, record, options)


def missing_tasks(data_dir: str | Path, tasks: Sequence[str]) -> list[str]:
    """The tasks among `tasks` whose folder is absent from `data_dir`."""
    root = Path(data_dir)
    return [t for t in tasks if not (root / task(t).folder).is_dir()]
