"""Plain text: one sentence per line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from bsl_pipeline.pipeline.corpus.readers.decoding import LongLine, decoded_lines, too_long_record
from bsl_pipeline.pipeline.corpus.readers.records import RawRecord


def read_text(path: Path, encoding_errors: str = "strict") -> Iterator[RawRecord]:
    for lineno, text, replaced in decoded_lines(path, encoding_errors):
        if isinstance(text, LongLine):
            yield too_long_record(path, lineno, text)
            continue
        yield RawRecord(text=text, file=str(path), line=lineno, replacements=replaced)
