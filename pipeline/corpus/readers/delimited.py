"""CSV/TSV: a text column, several text columns read as separate sentences, or a sentence-pair NLI layout.

NLI layouts recognised from the header: `premise,hypothesis,label` (CSV), GLUE/SNLI/MNLI TSV and SNLI/MNLI .txt
(`sentence1`, `sentence2`, `gold_label` or `label`, tab-separated). `columns` takes several columns of each row as
sentences of their own (both sentences of an STS or SICK pair); a file without a header (`header=False`, e.g. STS-B's
sts-*.csv) names them by 0-based position. TSV is split on tabs only, never on quotes: STS/GLUE files contain
unbalanced quotes. CSV is parsed strictly: a quote left open at the end of the file, or text after a closing quote,
is a bad line (`unterminated_quote`, `malformed_csv`) named by the line the row starts on.
"""

from __future__ import annotations

import csv
import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.corpus.readers.decoding import TOO_LONG, LongLine, decoded_lines, too_long_record
from bsl_pipeline.pipeline.corpus.readers.nli_labels import normalize_label
from bsl_pipeline.pipeline.corpus.readers.records import DEFAULT_FIELD, RawRecord

_PAIR_COLUMNS = (("premise", "hypothesis"), ("sentence1", "sentence2"))
_LABEL_COLUMNS = ("gold_label", "label")

csv.field_size_limit(sys.maxsize)  # a 100k-character line is data, not an error


Row = tuple[int, list[str], int, str | None]


def _rows(path: Path, delimiter: str, encoding_errors: str) -> Iterator[Row]:
    """(first line, fields, replaced characters, problem); for a bad row `problem` says why and `fields` holds just
    the text of its first line."""
    lines = decoded_lines(path, encoding_errors)
    if delimiter == "\t":
        for lineno, line, replaced in lines:
            if isinstance(line, LongLine):
                yield lineno, [line], 0, TOO_LONG
            else:
                yield lineno, line.replace("\x00", "").split("\t"), replaced, None
        return
    yield from _csv_rows(lines, delimiter)


def _csv_rows(lines: Iterator[tuple[int, str, int]], delimiter: str) -> Iterator[Row]:
    """CSV rows with the line each starts on. A quoted field may span lines, but one still open at the end of the
    file is a bad row on the line it opened; parsing then resumes on the next line, so nothing is swallowed."""
    pending: Iterator[tuple[int, str, int]] = iter(lines)
    while True:
        consumed: list[tuple[int, str, int]] = []  # the physical lines of the row being parsed

        def feed() -> Iterator[str]:
            for item in pending:
                consumed.append(item)
                # Only the start of a too-long line was kept: fed without quotes, so it cannot open a field.
                text = item[1].replace('"', "") if isinstance(item[1], LongLine) else item[1]
                yield text.replace("\x00", "") + "\n"

        reader = csv.reader(feed(), delimiter=delimiter, strict=True)
        try:
            for row in reader:
                long = next((line for _, line, _ in consumed if isinstance(line, LongLine)), None)
                if long is not None:
                    yield consumed[0][0], [long], 0, TOO_LONG
                else:
                    yield consumed[0][0], row, sum(r for _, _, r in consumed), None
                consumed.clear()
            return
        except csv.Error as exc:
            at_end = "unexpected end of data" in str(exc)
            yield consumed[0][0], [consumed[0][1]], 0, ("unterminated_quote" if at_end else f"malformed_csv:{exc}")
            # An unterminated quote ran to the end of the file: read again from the line after the one it opened.
            pending = itertools.chain(consumed[1:], pending) if at_end else pending


def _column_index(path: Path, header: list[str] | None, columns: list[str]) -> dict[str, int]:
    """Column name -> position: from the header, or the 0-based numbers in `columns` when there is none."""
    if header is not None:
        return {name: i for i, name in enumerate(header)}
    bad = [c for c in columns if not c.isdigit()]
    if not columns or bad:
        raise InputError(f"{path}: a file without a header needs its text columns as 0-based numbers "
                         f"(-o corpus.columns=[5,6]); got {columns or 'none'}")
    return {c: int(c) for c in columns}


def read_delimited(path: Path, delimiter: str, field: str = DEFAULT_FIELD, encoding_errors: str = "strict",
                   on_bad_line: str = "error", columns: list[str] | None = None,
                   header: bool = True) -> Iterator[RawRecord]:
    """Records of a CSV/TSV file: `columns` (several, each row yielding one record per column) or else `field`,
    or an NLI pair layout recognised from the header."""
    columns = [str(c) for c in columns or []]
    rows = _rows(path, delimiter, encoding_errors)
    names = None
    if header:
        try:
            _, names, _, problem = next(rows)
        except StopIteration:
            return
        if problem is not None:
            raise InputError(f"{path}:1: the header line is not valid CSV ({problem})")
        names = [h.strip() for h in names]
    index = _column_index(path, names, columns)
    texts = columns or [field]
    # A sentence-pair layout is read only when no text column was chosen (`field` left at its default and absent)
    pair = None if columns or field != DEFAULT_FIELD or field in index else next(
        (cols for cols in _PAIR_COLUMNS if all(c in index for c in cols)), None)
    if pair is not None:
        label_col = next((c for c in _LABEL_COLUMNS if c in index), None)
        needed = [index[pair[0]], index[pair[1]]] + ([index[label_col]] if label_col else [])
    elif all(c in index for c in texts):
        label_col = None
        needed = [index[c] for c in texts]
    else:
        missing = [c for c in texts if c not in index]
        raise InputError(f"{path}:1: no column {', '.join(map(repr, missing))} in the header {names}; choose with "
                         f"-o corpus.field=NAME or -o corpus.columns=[A,B] (or give an NLI file with "
                         f"premise/hypothesis/label columns)")
    width = max(needed) + 1
    for lineno, row, replaced, problem in rows:
        if problem == TOO_LONG:
            yield too_long_record(path, lineno, row[0])
            continue
        if problem is not None:
            reason, _, detail = problem.partition(":")
            if on_bad_line == "error":
                what = ("unterminated quoted field (the quote opened on this line is never closed)"
                        if reason == "unterminated_quote" else f"malformed CSV ({detail})")
                raise InputError(f"{path}:{lineno}: {what}")
            yield RawRecord(text=row[0], file=str(path), line=lineno, error=reason)
            continue
        if len(row) == 1 and not row[0].strip():
            yield RawRecord(text="", file=str(path), line=lineno)
            continue
        if len(row) < width:
            if on_bad_line == "error":
                raise InputError(f"{path}:{lineno}: expected at least {width} columns, found {len(row)}")
            yield RawRecord(text=delimiter.join(row), file=str(path), line=lineno, error="missing_column")
            continue
        if pair is not None:
            label = normalize_label(row[index[label_col]]) if label_col else None
            yield RawRecord(text=row[index[pair[0]]], text_b=row[index[pair[1]]], label=label, file=str(path),
                            line=lineno, replacements=replaced)
        else:
            for position in needed:
                yield RawRecord(text=row[position], file=str(path), line=lineno, replacements=replaced)
