"""Readers for the SentEval transfer tasks (MR, CR, SUBJ, MPQA, SST-2, TREC, MRPC, SICK-E) and STS 2017.

Layout inside the data dir (what `bsl data fetch` writes, `evaluation.public_data`):

    senteval/mr/all.tsv, cr/all.tsv, subj/all.tsv, mpqa/all.tsv     header `label<TAB>sentence`
    senteval/sst2/{train,dev,test}.tsv, senteval/trec/{train,test}.tsv     header `label<TAB>sentence`
    senteval/mrpc/{train,test}.tsv                                  header `label<TAB>sentence1<TAB>sentence2`
    sick/SICK_train.txt, SICK_trial.txt, SICK_test_annotated.txt    SemEval-2014 SICK (entailment_judgment column)
    sts/sts17/STS.input.<pair>.txt + STS.gs.<pair>.txt              one SemEval-style file pair per language pair

Labels are written as words (`pos`, `neg`, `DESC`, `ENTAILMENT`, ...); a task's classes are the labels of its
training rows in sorted order, and a test label the training rows never show is an error (a classifier cannot
predict it). Sentences are kept exactly as in the files, as for the STS sets.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.base.provenance import sha256_file_cached
from bsl_pipeline.evaluation.data import (
    SICK_FILES,
    SICK_FOLDER,
    STS_FOLDER,
    _read_lines,
    load_sts_subset,
    read_sick_rows,
)

#: Bump when the same files would yield different rows (changes the embedding cache keys).
TRANSFER_LOADER_VERSION = "1"

TRANSFER_FOLDER = "senteval"

#: STS 2017 language pairs of the BSL paper's Table 3, as the paper names them, and the file each is read from
#: (the hub copy, mteb/sts17-crosslingual-sts, names the English-second pairs es-en, fr-en, it-en, nl-en).
STS17_PAIRS: tuple[str, ...] = ("en-en", "ar-ar", "es-es", "en-ar", "en-es", "en-tr", "en-de", "en-fr")
STS17_FILE_NAMES: dict[str, str] = {"en-es": "es-en", "en-fr": "fr-en", "en-it": "it-en", "en-nl": "nl-en"}
STS17_YEAR = "sts17"
STS17_FOLDER = f"{STS_FOLDER}/{STS17_YEAR}"


@dataclass(frozen=True)
class LabeledSplit:
    """One split of a transfer task: sentences (or sentence pairs) with their label words."""

    sentences1: tuple[str, ...]
    labels: tuple[str, ...]
    sentences2: tuple[str, ...] | None = None
    source: Path | None = None

    def __len__(self) -> int:
        return len(self.labels)

    def texts(self) -> list[str]:
        return list(self.sentences1) + list(self.sentences2 or ())


@dataclass(frozen=True)
class TransferTask:
    """Everything one transfer task needs; `key` identifies the content (loader version + sha256 of every file),
    `protocol` how it is scored (evaluation.tasks)."""

    name: str
    splits: dict[str, LabeledSplit]
    protocol: str
    key: str = ""
    classes: tuple[str, ...] = field(default=())

    @property
    def is_pair_task(self) -> bool:
        """Its rows are sentence pairs (MRPC, SICK-E)."""
        return next(iter(self.splits.values())).sentences2 is not None

    def sentences(self) -> list[str]:
        """Every sentence of every split, in split order (first sentences, then second sentences)."""
        return [s for split in self.splits.values() for s in split.texts()]


def _content_key(task: str, files: Sequence[Path]) -> str:
    h = hashlib.sha256(f"bsl-transfer-loader:{TRANSFER_LOADER_VERSION}:{task}".encode())
    for f in files:
        h.update(b"\0" + sha256_file_cached(f).encode())
    return h.hexdigest()


def _read_table(path: Path, columns: Sequence[str]) -> tuple[list[list[str]], list[int]]:
    """Rows of a TAB-separated file whose header is exactly `columns`; returns (rows, 1-based line numbers)."""
    lines = _read_lines(path)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise InputError(f"{path}:1: empty file, expected the header {'<TAB>'.join(columns)}")
    header = lines[0].split("\t")
    if header != list(columns):
        raise InputError(f"{path}:1: expected the header {'<TAB>'.join(columns)}, found {'<TAB>'.join(header)}")
    rows, numbers = [], []
    for idx, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != len(columns):
            raise InputError(f"{path}:{idx}: expected {len(columns)} tab-separated fields "
                             f"({', '.join(columns)}), found {len(fields)}")
        for name, value in zip(columns, fields):
            if not value.strip():
                raise InputError(f"{path}:{idx}: {name} is empty")
        rows.append(fields)
        numbers.append(idx)
    if not rows:
        raise InputError(f"{path}: no rows after the header")
    return rows, numbers


def load_labeled_split(path: Path, pairs: bool) -> LabeledSplit:
    columns = ("label", "sentence1", "sentence2") if pairs else ("label", "sentence")
    rows, _ = _read_table(path, columns)
    labels = tuple(r[0] for r in rows)
    s1 = tuple(r[1] for r in rows)
    s2 = tuple(r[2] for r in rows) if pairs else None
    return LabeledSplit(s1, labels, s2, path)


def load_sick_entailment(data_dir: str | Path, split: str) -> LabeledSplit:
    """SICK's sentence_A / sentence_B / entailment_judgment (ENTAILMENT, NEUTRAL, CONTRADICTION) of one split
    (train, trial or test), the columns SentEval's SICKEntailment reads."""
    path = Path(data_dir) / SICK_FOLDER / SICK_FILES[split]
    s1, s2, labels = [], [], []
    rows = read_sick_rows(path, ("sentence_A", "sentence_B", "entailment_judgment"),
                          hint="SICK-E needs the SemEval-2014 SICK files (docs/guide/data.md)")
    for idx, fields, (col_a, col_b, col_label) in rows:
        label = fields[col_label].strip()
        if label not in ("ENTAILMENT", "NEUTRAL", "CONTRADICTION"):
            raise InputError(f"{path}:{idx}: entailment_judgment {label!r} is not ENTAILMENT, NEUTRAL or "
                             f"CONTRADICTION")
        for col, name in ((col_a, "sentence_A"), (col_b, "sentence_B")):
            if not fields[col].strip():
                raise InputError(f"{path}:{idx}: {name} is empty")
        s1.append(fields[col_a])
        s2.append(fields[col_b])
        labels.append(label)
    if not labels:
        raise InputError(f"{path}: no sentence pairs after the header")
    return LabeledSplit(tuple(s1), tuple(labels), tuple(s2), path)


def read_sick_entailment_splits(data_dir: str | Path) -> dict[str, LabeledSplit]:
    """SICK-E's train, dev (SICK's trial) and test splits."""
    return {name: load_sick_entailment(data_dir, split)
            for name, split in (("train", "train"), ("dev", "trial"), ("test", "test"))}


def read_senteval_splits(data_dir: str | Path, task: str, splits: Sequence[str],
                         pairs: bool) -> dict[str, LabeledSplit]:
    """`senteval/<task>/<split>.tsv` for each of `splits` (see the module docstring for the layout)."""
    folder = Path(data_dir) / TRANSFER_FOLDER / task
    out = {}
    for split in splits:
        path = folder / f"{split}.tsv"
        if not path.is_file():
            raise InputError(f"{path}: {task} file not found; run `bsl data fetch --sets {task}` or supply it "
                             f"(docs/guide/evaluation.md#transfer-tasks-senteval-and-sts-2017)")
        out[split] = load_labeled_split(path, pairs)
    return out


def transfer_task(task: str, protocol: str, splits: dict[str, LabeledSplit]) -> TransferTask:
    """The checked task: its classes are the training rows' labels, and no other split has a label they lack."""
    train = splits["train"] if "train" in splits else splits["all"]
    classes = tuple(sorted(set(train.labels)))
    if len(classes) < 2:
        raise InputError(f"{train.source}: {task} needs at least two classes, found {list(classes)}")
    for split in splits.values():
        unseen = sorted(set(split.labels) - set(classes))
        if unseen:
            raise InputError(f"{split.source}: label(s) {', '.join(unseen)} never occur in the training rows "
                             f"({', '.join(classes)})")
    files = [s.source for s in splits.values() if s.source is not None]
    return TransferTask(task, splits, protocol, _content_key(task, files), classes)


def sts17_file_name(pair: str) -> str:
    return STS17_FILE_NAMES.get(pair, pair)


def load_sts17(data_dir: str | Path, pairs: Sequence[str] = STS17_PAIRS):
    """`{pair: PairSet}` for the STS 2017 language pairs asked for (scores 0-5, as the SemEval files)."""
    out = {}
    folder = Path(data_dir) / STS17_FOLDER
    for pair in pairs:
        if not (folder / f"STS.input.{sts17_file_name(pair)}.txt").is_file():
            raise InputError(f"{folder / f'STS.input.{sts17_file_name(pair)}.txt'}: STS 2017 file of {pair} not "
                             f"found; run `bsl data fetch --sets sts17` or supply the SemEval-2017 files")
        ps = load_sts_subset(data_dir, STS17_YEAR, sts17_file_name(pair))
        out[pair] = ps
    return out


def parse_sts17_pairs(pairs: Sequence[str] | str | None) -> tuple[str, ...]:
    """"en-en,en-es" or a list -> validated pair names (the paper's spelling; "es-en"/"fr-en" accepted)."""
    if pairs is None:
        return STS17_PAIRS
    items = [p.strip().lower() for p in (pairs.split(",") if isinstance(pairs, str) else pairs) if p.strip()]
    reverse = {v: k for k, v in STS17_FILE_NAMES.items()}
    items = [reverse.get(p, p) for p in items]
    known = set(STS17_PAIRS) | {"ko-ko", "en-it", "en-nl"}
    unknown = [p for p in items if p not in known]
    if unknown:
        raise InputError(f"unknown STS17 language pair(s) {', '.join(unknown)}; expected some of "
                         f"{','.join(sorted(known))}")
    return tuple(items) or STS17_PAIRS
