"""CSV/TSV with a header: a text column, or a sentence-pair NLI layout.

NLI layouts recognised from the header: `premise,hypothesis,label` (CSV), GLUE/SNLI/MNLI TSV and SNLI/MNLI .txt
(`sentence1`, `sentence2`, `gold_label` or `label`, tab-separated). TSV is split on tabs only, never on quotes:
STS/GLUE files contain unbalanced quotes.
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterator
from pathlib import Path

from pipeline.errors import InputError
from pipeline.readers.decoding import decoded_lines
from pipeline.readers.nli_labels import normalize_label
from pipeline.readers.records import RawRecord

_PAIR_COLUMNS = (("premise", "hypothesis"), ("sentence1", "sentence2"))
_LABEL_COLUMNS = ("gold_label", "label")

csv.field_size_limit(sys.maxsize)  # a 100k-character line is data, not an error


def _rows(path: Path, delimiter: str, encoding_errors: str) -> Iterator[tuple[int, list[str], int]]:
    lines = decoded_lines(path, encoding_errors)
    if delimiter == "\t":
        for lineno, line, replaced in lines:
            yield lineno, line.replace("\x00", "").split("\t"), replaced
        return
    # csv needs the physical line number of a row that may span lines; track it from the line iterator.
    state = {"lineno": 0, "replaced": 0}

    def feed() -> Iterator[str]:
        for lineno, line, replaced in lines:
            state["lineno"], state["replaced"] = lineno, state["replaced"] + replaced
            yield line.replace("\x00", "") + "\n"

    reader = csv.reader(feed(), delimiter=delimiter)
    start = 1
    try:
        for row in reader:
            yield start, row, state["replaced"]
            state["replaced"] = 0
            start = state["lineno"] + 1
    except csv.Error as exc:
        raise InputError(f"{path}:{state['lineno']}: malformed CSV ({exc})") from None


def read_delimited(path: Path, delimiter: str, field: str = "text", encoding_errors: str = "strict",
                   on_bad_line: str = "error") -> Iterator[RawRecord]:
    rows = _rows(path, delimiter, encoding_errors)
    try:
        _, header, _ = next(rows)
    except StopIteration:
        return
    header = [h.strip() for h in header]
    index = {name: i for i, name in enumerate(header)}
    pair = next((cols for cols in _PAIR_COLUMNS if all(c in index for c in cols)), None)
    if pair is not None and field not in index:
        label_col = next((c for c in _LABEL_COLUMNS if c in index), None)
        needed = [index[pair[0]], index[pair[1]]] + ([index[label_col]] if label_col else [])
    elif field in index:
        label_col = None
        needed = [index[field]]
    else:
        raise InputError(f"{path}:1: no column {field!r} in the header {header}; choose one with "
                         f"-o corpus.field=NAME (or give an NLI file with premise/hypothesis/label columns)")
    width = max(needed) + 1
    for lineno, row, replaced in rows:
        if len(row) == 1 and not row[0].strip():
            yield RawRecord(text="", file=str(path), line=lineno)
            continue
        if len(row) < width:
            if on_bad_line == "error":
                raise InputError(f"{path}:{lineno}: expected at least {width} columns, found {len(row)}")
            yield RawRecord(text=delimiter.join(row), file=str(path), line=lineno, error="missing_column")
            continue
        if pair is not None and field not in index:
            label = normalize_label(row[index[label_col]]) if label_col else None
            yield RawRecord(text=row[index[pair[0]]], text_b=row[index[pair[1]]], label=label, file=str(path),
                            line=lineno, replacements=replaced)
        else:
            yield RawRecord(text=row[index[field]], file=str(path), line=lineno, replacements=replaced)
