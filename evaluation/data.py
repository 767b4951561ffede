"""Loaders for the STS evaluation sets: SemEval STS 2012-2016, STS Benchmark and SICK-Relatedness.

Everything is read from a data directory given by the caller, laid out as in the shared data folder:

    <data_dir>/sts/sts12/STS.input.<subset>.txt + STS.gs.<subset>.txt     (likewise sts13 ... sts16; or one
                                                                           pooled pair, see `is_pooled_year`)
    <data_dir>/stsbenchmark/sts-{train,dev,test}.csv
    <data_dir>/sick/SICK_train.txt, SICK_trial.txt, SICK_test_annotated.txt

Sentences are returned exactly as written in the files (no tokenisation, no whitespace clean-up): the model's own
tokenizer sees the raw text, as sentence-transformers' evaluator does. Files are split on "\\n" only (a trailing
"\\r" is dropped): `str.splitlines()` would also split on form feeds and Unicode separators that can occur inside a
sentence and shift every later pair against its gold score.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.base.provenance import sha256_file_cached
from bsl_pipeline.evaluation.data_dir import POOLED_STS_SUBSET

#: Bump when the same files would yield different pairs (changes the embedding cache keys).
LOADER_VERSION = "1"

#: The subsets of each STS year, in SentEval's order. STS13's SMT subset is licensed by the LDC and never
#: redistributed, so STS13 has three subsets (1500 pairs), as in every SentEval-based paper.
STS_SUBSETS: dict[str, tuple[str, ...]] = {
    "sts12": ("MSRpar", "MSRvid", "SMTeuroparl", "surprise.OnWN", "surprise.SMTnews"),
    "sts13": ("FNWN", "headlines", "OnWN"),
    "sts14": ("deft-forum", "deft-news", "headlines", "images", "OnWN", "tweet-news"),
    "sts15": ("answers-forums", "answers-students", "belief", "headlines", "images"),
    "sts16": ("answer-answer", "headlines", "plagiarism", "postediting", "question-question"),
}
#: The folders of the sets inside the data dir (one year's files in sts/<year>/).
STS_FOLDER = "sts"
STSB_FOLDER = "stsbenchmark"
SICK_FOLDER = "sick"
STSB_SPLITS = ("train", "dev", "test")
SICK_FILES = {"train": "SICK_train.txt", "trial": "SICK_trial.txt", "test": "SICK_test_annotated.txt"}
# SentEval and most papers call SICK's trial split "dev".
_SICK_ALIASES = {"dev": "trial"}


@dataclass(frozen=True)
class PairSet:
    """Gold-scored sentence pairs from one evaluation file (or input+gold file pair).

    `key` identifies the content (loader version + sha256 of every source file): the embedding cache uses it, so
    editing a data file can never serve stale embeddings.
    """

    task: str
    subset: str
    sentences1: tuple[str, ...]
    sentences2: tuple[str, ...]
    scores: tuple[float, ...]
    sources: tuple[Path, ...] = field(default=())
    key: str = ""

    def __len__(self) -> int:
        return len(self.scores)

    @property
    def name(self) -> str:
        return f"{self.task}/{self.subset}"


def _content_key(files: Sequence[Path]) -> str:
    h = hashlib.sha256(f"bsl-eval-loader:{LOADER_VERSION}".encode())
    for f in files:
        h.update(b"\0" + sha256_file_cached(f).encode())
    return h.hexdigest()


def _read_lines(path: Path) -> list[str]:
    """The file's lines (1-based line i is element i-1), UTF-8, LF or CRLF, without the final empty line."""
    if not path.is_file():
        raise InputError(f"{path}: evaluation file not found")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_no = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{path}:{line_no}: not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _drop_trailing_blank(lines: list[str]) -> list[str]:
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    return lines[:end]


def _parse_score(text: str, path: Path, line_no: int, low: float, high: float) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{path}:{line_no}: gold score {text.strip()!r} is not a number") from None
    if not math.isfinite(value) or not low <= value <= high:
        raise InputError(f"{path}:{line_no}: gold score {value:g} is outside [{low:g}, {high:g}]")
    return value


def _check_sentence(text: str, path: Path, line_no: int, column: str) -> str:
    if not text.strip():
        raise InputError(f"{path}:{line_no}: {column} is empty")
    return text


def sts_year_dir(data_dir: str | Path, year: str) -> Path:
    return Path(data_dir) / STS_FOLDER / year


def load_sts_subset(data_dir: str | Path, year: str, subset: str) -> PairSet:
    """One SemEval STS subset: `STS.input.<subset>.txt` (sent1 TAB sent2 [TAB notes...]) aligned line by line with
    `STS.gs.<subset>.txt` (one score in [0, 5] per line). Pairs whose gold line is empty were never scored by the
    organisers and are skipped (SentEval does the same; STS15/16 inputs contain many such pairs)."""
    folder = sts_year_dir(data_dir, year)
    input_path = folder / f"STS.input.{subset}.txt"
    gold_path = folder / f"STS.gs.{subset}.txt"
    inputs = _read_lines(input_path)
    golds = _read_lines(gold_path)
    for idx in range(len(inputs), len(golds)):
        if golds[idx].strip():
            raise InputError(f"{gold_path}:{idx + 1}: gold score without a sentence pair "
                             f"({input_path.name} has only {len(inputs)} lines)")
    s1: list[str] = []
    s2: list[str] = []
    scores: list[float] = []
    for idx, line in enumerate(inputs):
        line_no = idx + 1
        fields = line.split("\t")
        if len(fields) < 2:
            raise InputError(f"{input_path}:{line_no}: expected sentence1<TAB>sentence2, found {len(fields)} "
                             f"tab-separated field(s)")
        if idx >= len(golds):
            # A gold file shorter than its input would silently drop the tail (or misalign after an edit).
            raise InputError(f"{gold_path}:{line_no}: missing gold line for {input_path.name} line {line_no} "
                             f"(gold file has {len(golds)} lines, input has {len(inputs)}); "
                             f"an unscored pair must still have an empty line")
        gold = golds[idx].strip()
        if not gold:
            continue
        scores.append(_parse_score(gold, gold_path, line_no, 0.0, 5.0))
        s1.append(_check_sentence(fields[0], input_path, line_no, "sentence1"))
        s2.append(_check_sentence(fields[1], input_path, line_no, "sentence2"))
    if not scores:
        raise InputError(f"{gold_path}: no gold-scored pairs")
    files = (input_path, gold_path)
    return PairSet(year, subset, tuple(s1), tuple(s2), tuple(scores), files, _content_key(files))


def is_pooled_year(data_dir: str | Path, year: str) -> bool:
    """True when the year folder holds one pooled file pair (`bsl data fetch` from a hub copy without per-subset
    breakdown) and none of SentEval's subset files."""
    folder = sts_year_dir(data_dir, year)
    return (folder / f"STS.input.{POOLED_STS_SUBSET}.txt").is_file() and \
        not any((folder / f"STS.input.{subset}.txt").exists() for subset in STS_SUBSETS[year])


def load_sts_year(data_dir: str | Path, year: str) -> dict[str, PairSet]:
    """All subsets of one STS year (`sts12` ... `sts16`), in SentEval's order. Every subset must be present: a
    year with a missing subset is not comparable with published numbers. A pooled year (`is_pooled_year`) gives
    one pair set named "pooled"."""
    if year not in STS_SUBSETS:
        raise InputError(f"unknown STS year {year!r}; expected one of {', '.join(STS_SUBSETS)}")
    if is_pooled_year(data_dir, year):
        return {POOLED_STS_SUBSET: load_sts_subset(data_dir, year, POOLED_STS_SUBSET)}
    return {subset: load_sts_subset(data_dir, year, subset) for subset in STS_SUBSETS[year]}


def load_stsb(data_dir: str | Path, split: str = "test") -> PairSet:
    """STS Benchmark `sts-<split>.csv`: TAB-separated, no header, genre/file/year/id/score/sentence1/sentence2 and
    sometimes two licence notes. Sentences contain quote characters, so the line is split on tabs, never parsed
    with CSV quoting (which would merge lines)."""
    if split not in STSB_SPLITS:
        raise InputError(f"unknown STS-B split {split!r}; expected one of {', '.join(STSB_SPLITS)}")
    path = Path(data_dir) / STSB_FOLDER / f"sts-{split}.csv"
    s1: list[str] = []
    s2: list[str] = []
    scores: list[float] = []
    for idx, line in enumerate(_drop_trailing_blank(_read_lines(path))):
        line_no = idx + 1
        fields = line.split("\t")
        if len(fields) < 7:
            raise InputError(f"{path}:{line_no}: expected at least 7 tab-separated fields "
                             f"(genre, file, year, id, score, sentence1, sentence2), found {len(fields)}")
        scores.append(_parse_score(fields[4], path, line_no, 0.0, 5.0))
        s1.append(_check_sentence(fields[5], path, line_no, "sentence1 (column 6)"))
        s2.append(_check_sentence(fields[6], path, line_no, "sentence2 (column 7)"))
    if not scores:
        raise InputError(f"{path}: no sentence pairs")
    return PairSet("stsb", split, tuple(s1), tuple(s2), tuple(scores), (path,), _content_key((path,)))


def load_stsb_dev(data_dir: str | Path) -> PairSet:
    """The STS-B dev pairs, for the trainer's periodic checks (load once, pass to `evaluate_stsb_dev`)."""
    return load_stsb(data_dir, "dev")


def read_sick_rows(path: Path, needed: tuple[str, ...], hint: str = ""):
    """Yield (line number, fields, indices of `needed`) for each data row of a SICK file: TAB-separated with a
    header naming the columns; a missing column or a row of another width is an error naming file and line."""
    lines = _drop_trailing_blank(_read_lines(path))
    if not lines:
        raise InputError(f"{path}:1: empty file, expected a header line")
    header = lines[0].split("\t")
    missing = [c for c in needed if c not in header]
    if missing:
        raise InputError(f"{path}:1: header lacks column(s) {', '.join(missing)} (found: {', '.join(header)})"
                         + (f"; {hint}" if hint else ""))
    columns = tuple(header.index(c) for c in needed)
    for line_no, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != len(header):
            raise InputError(f"{path}:{line_no}: expected {len(header)} tab-separated fields as in the header, "
                             f"found {len(fields)}")
        yield line_no, fields, columns


def load_sick(data_dir: str | Path, split: str = "test") -> PairSet:
    """SICK (SemEval-2014 task 1) relatedness pairs: TAB-separated with a header naming the columns
    (pair_ID, sentence_A, sentence_B, relatedness_score, entailment_judgment); scores lie in [1, 5].
    `split` is train, trial (alias dev) or test."""
    split = _SICK_ALIASES.get(split, split)
    if split not in SICK_FILES:
        raise InputError(f"unknown SICK split {split!r}; expected one of train, trial (dev), test")
    path = Path(data_dir) / SICK_FOLDER / SICK_FILES[split]
    s1: list[str] = []
    s2: list[str] = []
    scores: list[float] = []
    for line_no, fields, (col_a, col_b, col_score) in read_sick_rows(path, ("sentence_A", "sentence_B",
                                                                          "relatedness_score")):
        scores.append(_parse_score(fields[col_score], path, line_no, 1.0, 5.0))
        s1.append(_check_sentence(fields[col_a], path, line_no, "sentence_A"))
        s2.append(_check_sentence(fields[col_b], path, line_no, "sentence_B"))
    if not scores:
        raise InputError(f"{path}: no sentence pairs after the header")
    return PairSet("sickr", split, tuple(s1), tuple(s2), tuple(scores), (path,), _content_key((path,)))
