"""Corpus readers: every supported format streams `RawRecord`s, never holding a corpus in memory.

Formats (`format=`): text, jsonl, csv, tsv, parquet, datasets, senteval, parallel, or `auto` (by extension and
header; `parallel` is only ever chosen explicitly):
- `*.txt` plain text, unless its header is SNLI/MNLI's tab-separated `gold_label ... sentence1 sentence2 ...`
- `*.jsonl`/`*.json` JSON Lines (a field, or SNLI/MNLI's sentence1/sentence2/gold_label)
- `*.csv` CSV with a header (a column, or premise,hypothesis,label); `*.tsv` GLUE-style TSV
- `*.parquet` Parquet; a directory with `dataset_info.json` + `state.json` is a `datasets` save_to_disk dir
- `s1.<split>` / `s2.<split>` / `labels.<split>` SentEval NLI triples
- `parallel`: aligned sentence pairs (Moses `corpus.en` + `corpus.de` with `languages=[en, de]`, two-column TSV,
  Tatoeba's sentence-pair TSV), read by `parallel.read_parallel`
Line-based files may be gzip/bzip2/xz-compressed (`corpus.txt.gz`): detected from their first bytes, the format
from the name without `.gz`/`.bz2`/`.xz`. A directory that is not a `datasets` dir is read file by file in sorted
order (hidden files skipped). A FIFO is refused: a corpus is read more than once (records, then checksums).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from pathlib import Path

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.corpus.readers.columnar import (
    is_datasets_dir,
    read_datasets_dir,
    read_parquet,
)
from bsl_pipeline.pipeline.corpus.readers.decoding import COMPRESSED_SUFFIXES, open_binary
from bsl_pipeline.pipeline.corpus.readers.delimited import read_delimited
from bsl_pipeline.pipeline.corpus.readers.jsonl import read_jsonl
from bsl_pipeline.pipeline.corpus.readers.nli_labels import NLI_LABELS, normalize_label
from bsl_pipeline.pipeline.corpus.readers.parallel import (
    companion_files,
    is_moses_partner,
    read_parallel,
)
from bsl_pipeline.pipeline.corpus.readers.plain_text import read_text
from bsl_pipeline.pipeline.corpus.readers.records import DEFAULT_FIELD, RawRecord
from bsl_pipeline.pipeline.corpus.readers.senteval import read_senteval

log = logging.getLogger(__name__)

FORMATS = ("auto", "text", "jsonl", "csv", "tsv", "parquet", "datasets", "senteval", "parallel")
ON_BAD_LINE = ("error", "keep")


def format_problem(format: str) -> str | None:
    """What is wrong with a `corpus.format` value (None: nothing); the config field's check and `read_file`'s."""
    return None if format in FORMATS else f"unknown corpus format {format!r}; choose one of {', '.join(FORMATS)}"


def on_bad_line_problem(choice: str) -> str | None:
    return None if choice in ON_BAD_LINE else f"on_bad_line must be 'error' or 'keep', got {choice!r}"
_SENTEVAL_STEMS = ("s1", "s2", "labels")


def _first_line(path: Path) -> bytes:
    with open_binary(path) as fh:
        return fh.readline(65536)


def detect_format(path: Path) -> str:
    if is_datasets_dir(path):
        return "datasets"
    name = path.name.lower()
    if name.endswith(COMPRESSED_SUFFIXES):  # corpus.txt.gz: the format is the name's without .gz
        name = name.rsplit(".", 1)[0]
    stem = name.split(".", 1)[0]
    if stem in _SENTEVAL_STEMS and "." in name and not name.endswith((".txt", ".csv", ".tsv", ".jsonl")):
        return "senteval"
    suffix = Path(name).suffix
    if suffix in (".jsonl", ".json", ".ndjson"):
        return "jsonl"
    if suffix == ".csv":
        return "csv"
    if suffix == ".tsv":
        return "tsv"
    if suffix == ".parquet":
        return "parquet"
    if suffix == ".txt" and path.is_file():
        header = _first_line(path).split(b"\t")
        if b"sentence1" in [h.strip() for h in header] and len(header) > 2:
            return "tsv"  # SNLI/MNLI .txt distribution: tab-separated with a header
    return "text"


def corpus_files(path: str | Path, format: str = "auto", languages: Sequence[str] = ()) -> list[Path]:
    """The files a corpus path stands for, in a stable order; SentEval triples count once (their s1 file), and so
    do Moses pairs of a parallel corpus (their `.<languages[0]>` file)."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"corpus not found: {path}")
    if path.is_fifo():
        raise InputError(f"{path} is a FIFO (named pipe), not a file or directory: a corpus is read more than once "
                         f"(records, then checksums); save the stream to a file first")
    if not (path.is_file() or path.is_dir()):
        raise InputError(f"{path} is not a regular file or directory")
    if path.is_file() or is_datasets_dir(path):
        return [path]
    files = []
    real_root = path.resolve()
    for f in sorted(p for p in path.rglob("*") if p.is_file()):
        rel = f.relative_to(path)
        if any(part.startswith(".") for part in rel.parts):
            continue
        if not f.resolve().is_relative_to(real_root):  # directories symlinked out are not followed either
            raise InputError(f"{f}: a symlink to {f.resolve()}, outside the corpus directory {path}; copy that "
                             f"file into the directory, or pass it as the corpus itself")
        stem = f.name.split(".", 1)[0]
        if stem in ("s2", "labels") and f.with_name("s1." + f.name.split(".", 1)[-1]).is_file():
            continue
        if is_datasets_dir(f.parent) and f.parent != path:
            continue
        if format == "parallel" and is_moses_partner(f, languages):
            continue
        files.append(f)
    _warn_directory_links_out(path, real_root)
    if not files:
        raise InputError(f"corpus directory {path} contains no files")
    return files


def _warn_directory_links_out(path: Path, real_root: Path) -> None:
    """Directory symlinks are not followed (a file symlinked out is refused): say which ones point out of the
    corpus, since what they hold is not read."""
    links = sorted(p for p in path.rglob("*") if p.is_symlink() and p.is_dir()
                   and not any(part.startswith(".") for part in p.relative_to(path).parts)
                   and not p.resolve().is_relative_to(real_root))
    if links:
        shown = ", ".join(f"{p.relative_to(path)} -> {p.resolve()}" for p in links[:5])
        more = f" and {len(links) - 5} more" if len(links) > 5 else ""
        log.warning("warning: %s: %d directory symlink(s) pointing outside the corpus directory not read: %s%s; "
                    "copy their files into the directory to read them", path, len(links), shown, more)


def read_file(path: Path, format: str = "auto", field: str = DEFAULT_FIELD, encoding_errors: str = "strict",
              on_bad_line: str = "error", columns: list[str] | None = None,
              header: bool = True, languages: Sequence[str] = ()) -> Iterator[RawRecord]:
    """`columns` / `header=False` apply to CSV/TSV only (several text columns per row; a file without a header);
    `languages` and `columns` (the two sides) to parallel corpora."""
    problem = format_problem(format) or on_bad_line_problem(on_bad_line)
    if problem:
        raise InputError(problem)
    fmt = detect_format(path) if format == "auto" else format
    if languages and fmt != "parallel":
        raise InputError(f"{path}: corpus.languages applies to parallel corpora (-o corpus.format=parallel); this one "
                         f"reads as {fmt}")
    if fmt == "parallel":
        return read_parallel(path, languages, columns or [], encoding_errors, on_bad_line)
    if (columns or not header) and fmt not in ("csv", "tsv"):
        raise InputError(f"{path}: corpus.columns and corpus.header apply to CSV/TSV files; this one reads as {fmt} "
                         f"(set -o corpus.format=tsv or csv if it is one)")
    if fmt == "text":
        return read_text(path, encoding_errors)
    if fmt == "jsonl":
        return read_jsonl(path, field, encoding_errors, on_bad_line)
    if fmt in ("csv", "tsv"):
        return read_delimited(path, "," if fmt == "csv" else "\t", field, encoding_errors, on_bad_line, columns,
                              header)
    if fmt == "parquet":
        return read_parquet(path, field)
    if fmt == "datasets":
        return read_datasets_dir(path, field)
    return read_senteval(path, encoding_errors)


def read_records(path: str | Path, *, format: str = "auto", field: str = DEFAULT_FIELD, encoding_errors: str = "strict",
                 on_bad_line: str = "error", columns: list[str] | None = None,
                 header: bool = True, languages: Sequence[str] = ()) -> Iterator[RawRecord]:
    """Stream the records of a file or directory corpus."""
    for f in corpus_files(path, format, languages):
        yield from read_file(f, format, field, encoding_errors, on_bad_line, columns, header, languages)


__all__ = ["FORMATS", "NLI_LABELS", "RawRecord", "companion_files", "corpus_files", "detect_format",
           "normalize_label", "read_file", "read_records"]
