"""`bsl data fetch`: the public STS / SICK / NLI sets, loaded with `datasets.load_dataset` from their usual Hugging
Face hub datasets (or from a local directory holding those datasets in the hub's file layout) and written in the
layout the evaluation stage reads (see `evaluation.data_dir`), one folder per set.

Each set is written into a temporary folder beside its place and swapped in whole; its manifest
(`<data dir>/data_manifests/<set>.json`: source id, revision, every file's sha256 and rows, rows dropped by reason)
is written just before the swap. A rerun skips every set whose manifest matches the requested source and whose
files still have the recorded checksums, and redoes the rest. A set folder without a manifest was supplied by hand
and is kept unless `force` is set; it stands for the set only when it holds every file the loaders read
(`missing_files`), else the result names what it lacks. What a refetch replaces is dropped only where the manifest
lists it with its sha256; anything else (a hand-supplied folder, a file added or edited) moves to
`.bsl-replaced/<time>/` beside it. In a folder that other tasks read too (`shares_folder`: SICK-E reads the SICK
files a user puts in sick/, SICK-R's folder) the fetch replaces only the files it writes, one by one, and leaves
the others where they are.

What the hub copies carry, and where they differ from the reference files the paper's numbers come from:
  - STS12-16 (`mteb/sts1X-sts`): the gold-scored test pairs (scores 0-5) but no per-subset column, so a fetched
    year is one pooled file pair: SentEval's "all" aggregate (the default) is exact, mean/wmean are unavailable.
  - SICK-R (`mteb/sickr-sts`): MTEB's SICK-R, which is not SemEval-2014's 4,927-pair test split (the fetch prints
    the row count it got); for paper-comparable SICK-R numbers supply sick/SICK_test_annotated.txt by hand.
  - SNLI / MultiNLI: the official releases (MNLI 1.0 labels), pairs without a gold label dropped.
  - SentEval transfer tasks (`senteval/<task>/<split>.tsv`, header `label<TAB>sentence`, or
    `label<TAB>sentence1<TAB>sentence2` for MRPC; labels as words). Checked against the hub's dataset cards and
    file listings, not recalled:
      mr    cornell-movie-review-data/rotten_tomatoes (text, ClassLabel label neg/pos; train+validation+test =
            8530+1066+1066 = SentEval's 10,662 sentences, pooled for 10-fold CV)
      cr    SetFit/SentEval-CR (train.jsonl + test.jsonl, pooled; the repo also holds SentEval's custrev.pos/neg)
      subj  SetFit/subj (train.jsonl 8000 + test.jsonl 2000 = SentEval's 10,000, pooled)
      mpqa  jxm/mpqa (sentence, label; train 8603 + test 2000 pooled = 10,603 where SentEval has 10,606; its
            256-row dev split is drawn from train and left out)
      sst2  SetFit/sst2 (text, label, label_text; 6920/872/1821 = SentEval's sentence-level binary SST, not GLUE's
            67k-phrase SST-2)
      trec  CogComp/trec at refs/convert/parquet (the main branch is a loading script, which datasets 5 does not
            run; text, ClassLabel coarse_label ABBR/ENTY/DESC/HUM/LOC/NUM = SentEval's 6 classes; 5452/500)
      mrpc  nyu-mll/glue, config mrpc (sentence1, sentence2, ClassLabel label; GLUE's train+validation =
            3668+408 = SentEval's 4,076 training pairs; test 1,725 with its real labels)
  - STS 2017 (`sts/sts17/STS.input.<pair>.txt` + `STS.gs.<pair>.txt`): mteb/sts17-crosslingual-sts at the
    revision MTEB pins (one default config, split test, columns sentence1, sentence2, score 0-5 and lang; 11
    language pairs, 250 pairs each except ko-ko 2,846).
"""

from __future__ import annotations

import csv
import math
import os
import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.atomic import write_json_atomic
from bsl_pipeline.pipeline.base.errors import BSLError, InputError
from bsl_pipeline.pipeline.base.ownership import (
    REPLACED_DIR,
    entry_kind,
    read_json_file,
    replaced_folder,
    require_record_or_nothing,
)
from bsl_pipeline.pipeline.base.progress import progress_disabled
from bsl_pipeline.pipeline.base.provenance import code_version, sha256_file
from bsl_pipeline.pipeline.base.publish import (
    listed_files,
    publish_directory,
    remove_stale_staging,
    require_folder,
    staging_dir,
)
from bsl_pipeline.evaluation.data import SICK_FILES, STS_SUBSETS
from bsl_pipeline.evaluation.data_dir import POOLED_STS_SUBSET, default_data_dir
from bsl_pipeline.evaluation.tasks import TASKS, HubSource
from bsl_pipeline.evaluation.transfer_data import STS17_PAIRS, sts17_file_name

LAYOUT_VERSION = 1
NLI_LABELS = ("entailment", "neutral", "contradiction")
_MAX_DROPPED_ROWS_LISTED = 20


class FetchError(BSLError):
    """A public set could not be loaded (offline, unknown revision, missing split or column)."""


@dataclass(frozen=True, kw_only=True)
class PublicSet(HubSource):
    """One public set: where it comes from (`HubSource`), its name and the folder it becomes in the data dir."""

    name: str
    folder: str


#: The sets `bsl data fetch` knows, by name: the evaluation tasks' public sources (evaluation.tasks; the
#: STS table's first), and the NLI sets that training data can be made from.
_TASK_SETS = [PublicSet(**vars(t.source), name=t.name, folder=t.folder) for t in TASKS if t.source is not None]
_NLI_SETS = [
    PublicSet("stanfordnlp/snli", "cdb5c3d5eed6ead6e5a341c8e56e669bb666725b", "nli",
              (("train", "train"), ("dev", "validation"), ("test", "test")), (549367, 9842, 9824),
              name="snli", folder="nli/snli"),
    PublicSet("nyu-mll/multi_nli", "da70db2af9d09693783c3320c4249840212ee221", "nli",
              (("train", "train"), ("dev_matched", "validation_matched"),
               ("dev_mismatched", "validation_mismatched")), (392702, 9815, 9832), name="mnli", folder="nli/mnli"),
]
_STS_TABLE = {t.name for t in TASKS if t.table == "sts"}
PUBLIC_SETS: dict[str, PublicSet] = {s.name: s for s in (
    [s for s in _TASK_SETS if s.name in _STS_TABLE] + _NLI_SETS + [s for s in _TASK_SETS if s.name not in _STS_TABLE])}
#: Names that stand for several sets in `--sets`.
SET_GROUPS: dict[str, tuple[str, ...]] = {
    "transfer": tuple(t.name for t in TASKS if t.table == "transfer" and t.source is not None)}


def _unknown_revision_keys(revisions: dict[str, str]) -> str | None:
    """A key of `revisions` that names no set (a typo would leave that set at its pinned revision, unsaid)."""
    unknown = sorted(set(revisions) - set(PUBLIC_SETS)) if isinstance(revisions, dict) else []
    if unknown:
        return f"unknown set(s) {', '.join(unknown)}; valid keys: {', '.join(PUBLIC_SETS)}"
    return None


@dataclass
class DataFetchConfig:
    """Settings of `bsl data fetch`."""

    to: str = field(default="", metadata={"help": "data dir to fill; '' = the data cache (~/.cache/bsl/data)"})
    sets: list[str] = field(default_factory=lambda: list(PUBLIC_SETS), metadata={
        "help": "sets to fetch: " + ", ".join(PUBLIC_SETS)})
    mirror: str = field(default="", metadata={
        "help": "local dir holding the hub datasets as <mirror>/<owner>/<name>/ (parquet or jsonl files in the "
                "hub's layout); '' = the Hugging Face hub"})
    force: bool = field(default=False, metadata={
        "help": "refetch complete sets and replace folders supplied by hand"})
    revisions: dict[str, str] = field(default_factory=dict, metadata={
        "help": "per-set hub revision instead of the pinned one, e.g. {snli: main} (keys: set names)",
        "check": _unknown_revision_keys})
    progress: bool = field(default=True, metadata={"help": "show the datasets library's progress bars"})


@dataclass(frozen=True)
class FetchResult:
    name: str
    status: str  # fetched | complete | kept (supplied by hand, every file there) | incomplete (kept, files missing)
    folder: Path
    rows: dict[str, int]
    warnings: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()  # incomplete: the files the set needs that its folder lacks


# ---------------------------------------------------------------------------------------------------------------
# Reading a hub dataset


@dataclass(frozen=True)
class Source:
    """Where a set is read from: the hub (`local_dir` None) or a local copy in the hub's file layout."""

    set: PublicSet
    revision: str | None
    local_dir: Path | None

    @property
    def label(self) -> str:
        if self.local_dir is not None:
            return str(self.local_dir)
        return f"{self.set.hub_id}@{self.revision}"

    def describe(self) -> dict[str, Any]:
        return {"id": self.set.hub_id, "revision": self.revision,
                "local_dir": None if self.local_dir is None else str(self.local_dir)}


def source_for(spec: PublicSet, cfg: DataFetchConfig) -> Source:
    if cfg.mirror:
        return Source(spec, None, Path(cfg.mirror).expanduser().resolve() / spec.hub_id)
    return Source(spec, cfg.revisions.get(spec.name, spec.revision), None)


def supply_by_hand(spec: PublicSet, data_dir: Path) -> str:
    return f"to supply it by hand, put {_hand_files(spec)} in {data_dir / spec.folder} (docs/guide/data.md)"


def _offline_reason(exc: Exception) -> str:
    reason = f"{type(exc).__name__}: {(str(exc).strip().splitlines() or [''])[0]}"
    offline = [v for v in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE") if os.environ.get(v, "") not in ("", "0")]
    return reason + (f"; {'/'.join(offline)} is set" if offline else "")


def load_hub_splits(source: Source, data_dir: Path, cache_dir: Path | None) -> dict[str, Any]:
    """`{hub split: datasets.Dataset}` for every split the set needs, or a FetchError in one line."""
    import datasets

    spec = source.set
    if source.local_dir is not None and not source.local_dir.is_dir():
        raise FetchError(f"{spec.name}: {source.local_dir} not found (a local mirror holds <owner>/<name>/ per "
                         f"hub dataset); {supply_by_hand(spec, data_dir)}")
    path = str(source.local_dir) if source.local_dir is not None else spec.hub_id
    try:
        loaded = datasets.load_dataset(path, spec.config, revision=source.revision,
                                       cache_dir=None if cache_dir is None else str(cache_dir))
    except Exception as exc:  # noqa: BLE001 - network, hub and format errors all end the same way
        raise FetchError(f"{spec.name}: cannot load {source.label} ({_offline_reason(exc)}); "
                         f"{supply_by_hand(spec, data_dir)}") from None
    missing = [part for _, hub in spec.splits for part in hub.split("+") if part not in loaded]
    if missing:
        raise FetchError(f"{spec.name}: {source.label} has no split {', '.join(missing)} (it has "
                         f"{', '.join(loaded)}); {supply_by_hand(spec, data_dir)}")
    out = {}
    for _, hub in spec.splits:
        parts = [loaded[part] for part in hub.split("+")]
        # Pooled splits (SentEval cross-validates over all of MR/CR/SUBJ/MPQA; its MRPC train = GLUE train+dev).
        out[hub] = parts[0] if len(parts) == 1 else datasets.concatenate_datasets(parts)
    return out


def _column(ds, names: Sequence[str], where: str) -> list:
    for name in names:
        if name in ds.column_names:
            return ds.data.table.column(name).to_pylist()
    raise FetchError(f"{where}: no column {' / '.join(names)} (it has {', '.join(ds.column_names)})")


def _optional_column(ds, names: Sequence[str]) -> list | None:
    for name in names:
        if name in ds.column_names:
            return ds.data.table.column(name).to_pylist()
    return None


def _label_names(ds) -> tuple[str, ...]:
    feature = ds.features.get("label")
    names = getattr(feature, "names", None)
    return tuple(names) if names else NLI_LABELS


# ---------------------------------------------------------------------------------------------------------------
# Writing our layout


@dataclass
class SplitRows:
    """What one split became: the rows written and the rows dropped (by reason, with the first row numbers)."""

    read: int = 0
    written: int = 0
    dropped: Counter = field(default_factory=Counter)
    dropped_rows: dict[str, list[int]] = field(default_factory=dict)

    def drop(self, reason: str, row: int) -> None:
        self.dropped[reason] += 1
        listed = self.dropped_rows.setdefault(reason, [])
        if len(listed) < _MAX_DROPPED_ROWS_LISTED:
            listed.append(row)

    def to_dict(self) -> dict[str, Any]:
        return {"rows_read": self.read, "rows_written": self.written, "dropped": dict(self.dropped),
                "dropped_rows": self.dropped_rows}


def _sentence_problem(text: Any) -> str | None:
    if not isinstance(text, str) or not text.strip():
        return "empty sentence"
    if "\t" in text or "\n" in text or "\r" in text:
        return "tab or line break inside a sentence (the files are tab- and line-separated)"
    return None


def _label_problem(label: str) -> str | None:
    """A label word (a ClassLabel's name as the hub copy spells it) that would split or add a row."""
    if any(c in label for c in "\t\n\r"):
        return "tab or line break inside the label (the files are tab- and line-separated)"
    return None


def _score_text(value: Any, low: float, high: float, where: str) -> str | None:
    """The score as the shortest text that parses back to the same float; None when the row has no score."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    score = float(value)
    if not math.isfinite(score) or not low <= score <= high:
        raise FetchError(f"{where}: score {value!r} is outside [{low:g}, {high:g}]: not the expected scale")
    return repr(score)


def _scores(ds, where: str) -> list:
    """The score column as Python floats; float32 columns go through their shortest decimal text, so 4.4 stays
    4.4 rather than becoming 4.400000095367432."""
    import pyarrow as pa
    import pyarrow.compute as pc

    for name in ("score", "relatedness_score"):
        if name in ds.column_names:
            column = ds.data.table.column(name)
            if pa.types.is_float32(column.type):
                return [None if v is None else float(v) for v in pc.cast(column, pa.string()).to_pylist()]
            return column.to_pylist()
    raise FetchError(f"{where}: no column score / relatedness_score (it has {', '.join(ds.column_names)})")


def scored_pairs(ds, where: str, low: float, high: float, rows: SplitRows):
    """(row index, sentence1, sentence2, score text) for every usable row; the others are dropped by reason."""
    s1 = _column(ds, ("sentence1", "sentence_A"), where)
    s2 = _column(ds, ("sentence2", "sentence_B"), where)
    scores = _scores(ds, where)
    rows.read = len(scores)
    for i, (a, b, value) in enumerate(zip(s1, s2, scores)):
        problem = _sentence_problem(a) or _sentence_problem(b)
        score = _score_text(value, low, high, f"{where} row {i}")
        if problem or score is None:
            rows.drop(problem or "no score", i)
            continue
        rows.written += 1
        yield i, a, b, score


def _write_lines(path: Path, lines) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for line in lines:
            fh.write(line + "\n")


def write_sts_year(ds, folder: Path, split: str, where: str) -> tuple[list[str], SplitRows]:
    """STS.input.<split>.txt (sentence1 TAB sentence2) + STS.gs.<split>.txt (score), line-aligned."""
    rows = SplitRows()
    pairs = list(scored_pairs(ds, where, 0.0, 5.0, rows))
    names = [f"STS.input.{split}.txt", f"STS.gs.{split}.txt"]
    _write_lines(folder / names[0], (f"{a}\t{b}" for _, a, b, _ in pairs))
    _write_lines(folder / names[1], (score for *_, score in pairs))
    return names, rows


def _field(values: list | None, i: int) -> str:
    text = "-" if values is None or values[i] is None else str(values[i])
    return " ".join(text.split()) or "-"


def write_stsb(ds, folder: Path, split: str, where: str) -> tuple[list[str], SplitRows]:
    """sts-<split>.csv: genre, file, year, id, score, sentence1, sentence2, TAB-separated, no header ("-" where
    the hub copy lacks the metadata column)."""
    rows = SplitRows()
    meta = [_optional_column(ds, (name,)) for name in ("genre", "dataset", "year", "sid")]
    name = f"sts-{split}.csv"
    _write_lines(folder / name, ("\t".join([*(_field(m, i) for m in meta), score, a, b])
                                 for i, a, b, score in scored_pairs(ds, where, 0.0, 5.0, rows)))
    return [name], rows


def write_sick(ds, folder: Path, split: str, where: str) -> tuple[list[str], SplitRows]:
    """SICK_<split>.txt with the header pair_ID, sentence_A, sentence_B, relatedness_score (scores 1-5)."""
    rows = SplitRows()
    ids = _optional_column(ds, ("pair_ID", "id"))
    name = SICK_FILES[split]
    lines = (f"{_field(ids, i) if ids is not None else i + 1}\t{a}\t{b}\t{score}"
             for i, a, b, score in scored_pairs(ds, where, 1.0, 5.0, rows))
    _write_lines(folder / name, ["pair_ID\tsentence_A\tsentence_B\trelatedness_score", *lines])
    return [name], rows


def write_nli(ds, folder: Path, split: str, where: str) -> tuple[list[str], SplitRows]:
    """<split>.csv with the header premise,hypothesis,label (label words); pairs without a gold label dropped."""
    rows = SplitRows()
    premises = _column(ds, ("premise",), where)
    hypotheses = _column(ds, ("hypothesis",), where)
    labels = _column(ds, ("label",), where)
    names = _label_names(ds)
    rows.read = len(labels)
    name = f"{split}.csv"
    with open(folder / name, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["premise", "hypothesis", "label"])
        for i, (p, h, label) in enumerate(zip(premises, hypotheses, labels)):
            word = names[label] if isinstance(label, int) and 0 <= label < len(names) else label
            empty = not isinstance(p, str) or not p.strip() or not isinstance(h, str) or not h.strip()
            problem = "no gold label" if word not in NLI_LABELS else "empty sentence" if empty else None
            if problem:
                rows.drop(problem, i)
                continue
            writer.writerow([p, h, word])
            rows.written += 1
    return [name], rows


def _label_words(ds, names: Sequence[str], where: str) -> list:
    """The label column as words: a ClassLabel's names, else the `label_text` column, else the value as text;
    None where the row has no label (-1 / null)."""
    for name in names:
        if name not in ds.column_names:
            continue
        values = ds.data.table.column(name).to_pylist()
        feature_names = getattr(ds.features.get(name), "names", None)
        texts = _optional_column(ds, ("label_text",)) if name == "label" and not feature_names else None
        out = []
        for i, v in enumerate(values):
            if v is None or (isinstance(v, int) and v < 0):
                out.append(None)
            elif feature_names:
                out.append(feature_names[v] if isinstance(v, int) and v < len(feature_names) else None)
            elif texts is not None and isinstance(texts[i], str) and texts[i].strip():
                out.append(" ".join(texts[i].split()))
            else:
                out.append(" ".join(str(v).split()) or None)
        return out
    raise FetchError(f"{where}: no column {' / '.join(names)} (it has {', '.join(ds.column_names)})")


def _write_labeled_tsv(folder: Path, split: str, columns: tuple[str, ...], labels: list,
                       sentences: list[list]) -> tuple[list[str], SplitRows]:
    """<split>.tsv with the header `label` + `columns`, one row per labelled example whose sentences are usable."""
    rows = SplitRows()
    rows.read = len(labels)
    name = f"{split}.tsv"
    lines = ["\t".join(("label",) + columns)]
    for i, (label, *texts) in enumerate(zip(labels, *sentences)):
        problem = next(filter(None, map(_sentence_problem, texts)), None) or (
            None if label else "no gold label") or _label_problem(label)
        if problem:
            rows.drop(problem, i)
            continue
        lines.append("\t".join([label, *texts]))
        rows.written += 1
    _write_lines(folder / name, lines)
    return [name], rows


def write_classification(ds, folder: Path, split: str, where: str) -> tuple[list[str], SplitRows]:
    """<split>.tsv with the header label, sentence (SentEval's single-sentence tasks)."""
    texts = _column(ds, ("text", "sentence"), where)
    labels = _label_words(ds, ("label", "coarse_label"), where)
    return _write_labeled_tsv(folder, split, ("sentence",), labels, [texts])


def write_pair_classification(ds, folder: Path, split: str, where: str) -> tuple[list[str], SplitRows]:
    """<split>.tsv with the header label, sentence1, sentence2 (MRPC)."""
    s1 = _column(ds, ("sentence1", "sentence_A"), where)
    s2 = _column(ds, ("sentence2", "sentence_B"), where)
    labels = _label_words(ds, ("label",), where)
    return _write_labeled_tsv(folder, split, ("sentence1", "sentence2"), labels, [s1, s2])


def write_sts_crosslingual(ds, folder: Path, split: str, where: str) -> tuple[list[str], SplitRows]:
    """One SemEval-style file pair per language pair (the `lang` column): STS.input.<lang>.txt + STS.gs.<lang>.txt."""
    rows = SplitRows()
    langs = _column(ds, ("lang",), where)
    s1 = _column(ds, ("sentence1",), where)
    s2 = _column(ds, ("sentence2",), where)
    scores = _scores(ds, where)
    rows.read = len(scores)
    by_lang: dict[str, list[tuple[str, str, str]]] = {}
    for i, (lang, a, b, value) in enumerate(zip(langs, s1, s2, scores)):
        if not isinstance(lang, str) or not lang.replace("-", "").isalpha():
            raise FetchError(f"{where} row {i}: lang {lang!r} is not a language pair such as en-de")
        problem = _sentence_problem(a) or _sentence_problem(b)
        score = _score_text(value, 0.0, 5.0, f"{where} row {i}")
        if problem or score is None:
            rows.drop(problem or "no score", i)
            continue
        by_lang.setdefault(lang, []).append((a, b, score))
        rows.written += 1
    names = []
    for lang, pairs in sorted(by_lang.items()):
        names += [f"STS.input.{lang}.txt", f"STS.gs.{lang}.txt"]
        _write_lines(folder / names[-2], (f"{a}\t{b}" for a, b, _ in pairs))
        _write_lines(folder / names[-1], (score for *_, score in pairs))
    return names, rows


WRITERS: dict[str, Callable[[Any, Path, str, str], tuple[list[str], SplitRows]]] = {
    "sts-year": write_sts_year, "stsb": write_stsb, "sick": write_sick, "nli": write_nli,
    "classification": write_classification, "pair-classification": write_pair_classification,
    "sts-crosslingual": write_sts_crosslingual,
}


def _hand_files(spec: PublicSet) -> str:
    """What to put in a set's folder by hand (the reference files, in the layout the loaders read)."""
    if spec.kind == "sts-year":
        return "the SemEval files STS.input.<subset>.txt + STS.gs.<subset>.txt"
    if spec.kind == "stsb":
        return "sts-train.csv, sts-dev.csv, sts-test.csv (the STS Benchmark release)"
    if spec.kind == "sick":
        return "SICK_test_annotated.txt (the SemEval-2014 release)"
    if spec.kind == "sts-crosslingual":
        return "STS.input.<pair>.txt + STS.gs.<pair>.txt per language pair (the SemEval-2017 files)"
    if spec.kind == "classification":
        return ", ".join(f"{split}.tsv (label<TAB>sentence, with that header)" for split, _ in spec.splits)
    if spec.kind == "pair-classification":
        return ", ".join(f"{split}.tsv (label<TAB>sentence1<TAB>sentence2, with that header)"
                         for split, _ in spec.splits)
    return ", ".join(f"{split}.csv (premise,hypothesis,label)" for split, _ in spec.splits)


def missing_files(spec: PublicSet, folder: Path) -> list[str]:
    """The files (names inside `folder`) that the data dir's readers read for this set and `folder` lacks: the
    evaluation stage's loaders, and `bsl corpus sts-sick-train`, which reads STS-B's and SICK's train splits. A
    folder supplied by hand counts as the set only when this is empty. An STS year is complete as the fetch's
    pooled file pair or as every one of its SemEval subsets."""
    def pair(subset: str) -> list[str]:
        return [f"STS.input.{subset}.txt", f"STS.gs.{subset}.txt"]

    if spec.kind == "sts-year":
        pooled = pair(POOLED_STS_SUBSET)
        if all((folder / name).is_file() for name in pooled):
            return []
        needed = [name for subset in STS_SUBSETS[spec.name] for name in pair(subset)]
    elif spec.kind == "sts-crosslingual":
        needed = [name for p in STS17_PAIRS for name in pair(sts17_file_name(p))]
    elif spec.kind == "stsb":
        needed = [f"sts-{split}.csv" for split, _ in spec.splits]
    elif spec.kind == "sick":
        needed = [SICK_FILES[split] for split, _ in spec.splits]
    elif spec.kind in ("classification", "pair-classification"):
        needed = [f"{split}.tsv" for split, _ in spec.splits]
    else:
        needed = [f"{split}.csv" for split, _ in spec.splits]
    return [name for name in needed if not (folder / name).is_file()]


def shares_folder(spec: PublicSet) -> bool:
    """Whether another evaluation task reads files of this set's folder that the fetch does not write (SICK-E
    reads SICK_train/trial/test from sick/, SICK-R's folder): a refetch there replaces only its own files."""
    return any(t.folder == spec.folder and t.name != spec.name for t in TASKS)


# ---------------------------------------------------------------------------------------------------------------
# Manifests, completeness, the swap


def manifest_path(data_dir: Path, name: str) -> Path:
    return data_dir / "data_manifests" / f"{name}.json"


# A fetch manifest lists a set's few files: far larger is not one the tool wrote.
MAX_FETCH_MANIFEST_BYTES = 16 << 20
PUBLIC_SET_KIND = "public_set"


def read_fetch_manifest(path: Path) -> Any:
    """The JSON at `path`, read as untrusted input: a plain file of bounded size, never through a link, a FIFO or
    a device (`read_json_file`)."""
    return read_json_file(path, MAX_FETCH_MANIFEST_BYTES)


def _inside(root: Path, relative: str) -> Path | None:
    """`root/relative` when it stays inside `root` (manifests are untrusted input), else None."""
    path = (root / relative).resolve()
    return path if path.is_relative_to(root.resolve()) else None


def is_complete(data_dir: Path, source: Source) -> bool:
    """The set's manifest names this source and layout, and every file it lists has the recorded sha256."""
    path = manifest_path(data_dir, source.set.name)
    try:
        manifest = read_fetch_manifest(path)
    except (OSError, ValueError, RecursionError):
        return False
    if not isinstance(manifest, dict) or manifest.get("layout_version") != LAYOUT_VERSION or \
            manifest.get("source") != source.describe() or not manifest.get("files"):
        return False
    for entry in manifest["files"]:
        file = _inside(data_dir, str(entry.get("path", "")))
        if file is None or not file.is_file() or sha256_file(file) != entry.get("sha256"):
            return False
    return True


def describe_set(source: Source, folder: Path, data_dir: Path, written: dict[str, tuple[list[str], SplitRows]],
                 staging: Path) -> dict[str, Any]:
    """The manifest of a freshly written set (`staging` holds the files that will move to `folder`)."""
    spec = source.set
    files, splits = [], {}
    for (split, hub_split), reference in zip(spec.splits, spec.reference_rows):
        names, rows = written[split]
        splits[split] = {"hub_split": hub_split, "reference_rows": reference, **rows.to_dict()}
        for name in names:
            f = staging / name
            files.append({"path": (folder / name).relative_to(data_dir).as_posix(), "sha256": sha256_file(f),
                          "bytes": f.stat().st_size, "rows": rows.written})
    return {"kind": PUBLIC_SET_KIND, "name": spec.name, "layout_version": LAYOUT_VERSION,
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"), "code_version": code_version(),
            "source": source.describe(), "folder": spec.folder, "splits": splits, "files": files,
            "notes": [spec.note] if spec.note else []}


def _row_warnings(spec: PublicSet, written: dict[str, tuple[list[str], SplitRows]]) -> list[str]:
    out = []
    for (split, _), reference in zip(spec.splits, spec.reference_rows):
        rows = written[split][1]
        if rows.written != reference:
            out.append(f"{spec.name} {split}: {rows.written} pairs where the reference files have {reference}"
                       + (f" ({dict(rows.dropped)} dropped)" if rows.dropped else ""))
    if out and spec.note:
        out.append(f"{spec.name}: {spec.note}")
    return out


def fetch_set(spec: PublicSet, data_dir: Path, cfg: DataFetchConfig) -> FetchResult:
    """Load one set and write it into `data_dir` (or skip it when complete or supplied by hand)."""
    source = source_for(spec, cfg)
    folder = data_dir / spec.folder
    if not cfg.force and is_complete(data_dir, source):
        return FetchResult(spec.name, "complete", folder, _recorded_rows(data_dir, spec.name))
    if not cfg.force and folder.exists() and not manifest_path(data_dir, spec.name).exists():
        return _hand_made(spec, folder)
    require_record_or_nothing(manifest_path(data_dir, spec.name), PUBLIC_SET_KIND, MAX_FETCH_MANIFEST_BYTES,
                              "a fetch manifest", "move it away, or fetch into another data dir")
    folder.parent.mkdir(parents=True, exist_ok=True)
    fetched_before = _fetched_files(data_dir, spec.name, folder)
    remove_stale_staging(folder.parent, folder.name, fetched_before)
    staging = staging_dir(folder)
    try:
        cache = staging / ".hf-cache" if source.local_dir is not None else None
        hub_splits = load_hub_splits(source, data_dir, cache)
        written = {split: WRITERS[spec.kind](hub_splits[hub], staging, split, f"{source.label} split {hub}")
                   for split, hub in spec.splits}
        if cache is not None:
            shutil.rmtree(cache, ignore_errors=True)
        write_json_atomic(manifest_path(data_dir, spec.name),
                          describe_set(source, folder, data_dir, written, staging))
        kept: list[Path] = []
        if shares_folder(spec) and require_folder(folder, "the folder of the set"):
            kept += filter(None, [_publish_files(staging, folder, fetched_before)])
        else:
            publish_directory(staging, folder, discard=fetched_before, on_set_aside=kept.append)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    rows = {split: rows.written for split, (_, rows) in written.items()}
    what = ("the files of that name that the fetch did not write (or that were edited)" if shares_folder(spec)
            else f"files in {folder} that the fetch did not write (or that were edited)")
    notes = [f"{spec.name}: {what} are kept in {where}" for where in kept]
    return FetchResult(spec.name, "fetched", folder, rows, tuple(_row_warnings(spec, written) + notes))


def _hand_made(spec: PublicSet, folder: Path) -> FetchResult:
    """A set folder without a fetch manifest (supplied by hand): kept as it is. It counts as the set only when
    it holds every file the set needs; otherwise the result names the missing ones."""
    missing = missing_files(spec, folder)
    aside = folder.parent / REPLACED_DIR
    force = ("rerun with --force to fetch the set (" + (
        f"a file it writes that is already there is moved to {aside}/, the others stay" if shares_folder(spec)
        else f"what the folder holds is moved to {aside}/") + "; nothing is deleted)")
    if not missing:
        return FetchResult(spec.name, "kept", folder, {},
                           (f"{spec.name}: kept {folder}: supplied by hand (no fetch manifest), it holds every "
                            f"file the set needs; to use the hub copy instead, {force}",))
    return FetchResult(spec.name, "incomplete", folder, {},
                       (f"{spec.name}: {folder} has no fetch manifest (supplied by hand?) and lacks "
                        f"{', '.join(missing)}, so the set is not there; the folder is kept as it is: add the "
                        f"missing files, or {force}",), tuple(missing))


def _publish_files(staging: Path, folder: Path, discard: Callable[[str, Path], bool]) -> Path | None:
    """Move the files of `staging` into the existing `folder` one by one, leaving its other files where they are
    (a folder other tasks read too, `shares_folder`). A file of the same name is set aside into
    `<parent>/.bsl-replaced/<time>/<folder name>/` unless `discard` vouches for it (the fetch wrote it). Returns
    that folder, None when nothing was set aside."""
    names = sorted(p.name for p in staging.iterdir())
    replaced = [n for n in names if entry_kind(folder / n) is not None
                and not (entry_kind(folder / n) == "a plain file" and discard(n, folder / n))]
    kept = replaced_folder(folder.parent) / folder.name if replaced else None
    if kept is not None:
        kept.mkdir()
        for name in replaced:
            os.replace(folder / name, kept / name)
    for name in names:
        os.replace(staging / name, folder / name)
    return kept


def _fetched_files(data_dir: Path, name: str, folder: Path) -> Callable[[str, Path], bool]:
    """What a refetch may drop of the folder it replaces: the files the set's fetch manifest lists with the
    sha256 they still have. Anything else there (a file added or edited by hand, a folder supplied by hand) is
    set aside in `.bsl-replaced/<time>/` beside the folder, never deleted."""
    try:
        manifest = read_fetch_manifest(manifest_path(data_dir, name))
        listed = {str(e["path"]): str(e["sha256"]) for e in manifest["files"]}
    except (OSError, ValueError, TypeError, KeyError, RecursionError):
        listed = {}
    try:
        prefix = folder.relative_to(data_dir).as_posix()
    except ValueError:
        prefix = None
    return listed_files(listed, prefix)


def _recorded_rows(data_dir: Path, name: str) -> dict[str, int]:
    splits = read_fetch_manifest(manifest_path(data_dir, name)).get("splits")
    if not isinstance(splits, dict):
        return {}
    return {split: info["rows_written"] for split, info in splits.items()
            if isinstance(info, dict) and isinstance(info.get("rows_written"), int)}


def parse_sets(names: Sequence[str] | str | None) -> list[PublicSet]:
    """Set names (a list or "sts12,stsb"; "all" or empty = every set) -> their specs, in the registry's order."""
    if isinstance(names, str):
        names = [n for n in names.split(",")]
    wanted = [n.strip().lower() for n in names or () if n.strip()]
    if not wanted or wanted == ["all"]:
        return list(PUBLIC_SETS.values())
    wanted = [name for n in wanted for name in SET_GROUPS.get(n, (n,))]
    unknown = [n for n in wanted if n not in PUBLIC_SETS]
    if unknown:
        raise InputError(f"unknown set(s) {', '.join(unknown)}; expected a comma-separated subset of "
                         f"{','.join(PUBLIC_SETS)} (or all, transfer)")
    return [spec for name, spec in PUBLIC_SETS.items() if name in wanted]


def target_dir(cfg: DataFetchConfig) -> Path:
    """The data dir a fetch fills: `cfg.to` (a local folder), else the data cache."""
    from bsl_pipeline.pipeline.base.ownership import local_only

    local_only(cfg.to, "--to")
    return Path(cfg.to).expanduser() if cfg.to else default_data_dir()


def check_settings(cfg: DataFetchConfig) -> tuple[Path, list[PublicSet]]:
    """What a fetch refuses in its settings before anything is read or written (`bsl data fetch --print-config`
    checks them with it too): the data dir (`target_dir`) and the sets (`parse_sets`). Returns both."""
    return target_dir(cfg), parse_sets(cfg.sets)


def fetch_public_sets(cfg: DataFetchConfig, log: Callable[[str], None] = print) -> list[FetchResult]:
    """Fetch every set of `cfg.sets` into `cfg.to` (default: the data cache), one at a time; the first set that
    cannot be loaded stops the run with a FetchError (the sets before it stay complete)."""
    data_dir, specs = check_settings(cfg)
    if progress_disabled(not cfg.progress):
        import datasets

        datasets.disable_progress_bars()
    created = [d for d in (data_dir, *data_dir.parents) if not d.exists()]
    _make_data_dir(data_dir)
    results = []
    try:
        for spec in specs:
            results.append(_fetch_and_log(spec, data_dir, cfg, log))
    except BaseException:
        for folder in created:  # deepest first; only folders this call made, and only while still empty
            try:
                folder.rmdir()
            except OSError:
                break
        raise
    return results


def _make_data_dir(data_dir: Path) -> None:
    """The data dir, made when missing; a path that is not a folder, or one that cannot be made or written, is
    an error naming it (before anything is fetched)."""
    kind = entry_kind(data_dir)
    if kind not in (None, "a folder") and not (kind == "a symbolic link" and data_dir.is_dir()):
        raise InputError(f"{data_dir} is {kind}, not a folder: give a data dir to fill (a folder, new or existing)")
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{data_dir}: cannot make the data dir ({exc.strerror or exc}): give a folder you can "
                         f"write") from None
    if not os.access(data_dir, os.W_OK | os.X_OK):
        raise InputError(f"{data_dir}: the data dir is not writable: give a folder you can write (or fix its "
                         f"permissions)")


def _fetch_and_log(spec: PublicSet, data_dir: Path, cfg: DataFetchConfig, log: Callable[[str], None]) -> FetchResult:
    result = fetch_set(spec, data_dir, cfg)
    rows = ", ".join(f"{split} {n}" for split, n in result.rows.items())
    status = {"fetched": "fetched into", "complete": "already complete in", "kept": "kept",
              "incomplete": "incomplete, kept"}[result.status]
    log(f"{spec.name}: {status} {result.folder}" + (f" ({rows})" if rows else ""))
    for warning in result.warnings:
        log(f"  warning: {warning}")
    return result
