"""Line-by-line decoding that names the file and line of invalid UTF-8, or counts replacements.

Compressed files (gzip, bzip2, xz: recognised by their first bytes, not their name) are decompressed while
streaming; a zstd file is refused with a clear message (the standard library cannot read it).

Memory per line is bounded: a line longer than MAX_LINE_BYTES (far more than any sentence the corpus settings
keep, `corpus.max_chars` being at most MAX_VIEW_CHARS characters) is never held whole. It is read through in
blocks and yielded as a `LongLine`: its first TRUNCATED_KEEP_BYTES bytes and a note of its length, which readers
turn into a `too_long_chars` reject (`too_long_record`), so the rejects keep a trace of it, not the line.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from bsl_pipeline.pipeline.base.errors import InputError

ENCODING_ERRORS = ("strict", "replace")


def encoding_errors_problem(choice: str) -> str | None:
    """What is wrong with an `encoding_errors` value (None: nothing); the config field's check and the reader's."""
    return None if choice in ENCODING_ERRORS else f"encoding_errors must be one of {ENCODING_ERRORS}, got {choice!r}"
MAX_LINE_BYTES = 1 << 20
TRUNCATED_KEEP_BYTES = 1024
TOO_LONG = "too_long_chars"  # the reason `pipeline.corpus.chunks` gives a line longer than corpus.max_chars


class LongLine(str):
    """The kept start of a line longer than MAX_LINE_BYTES, with a note of its full length in bytes."""

    length: int

    def __new__(cls, head: bytes, length: int) -> LongLine:
        text = head.decode("utf-8", errors="replace").rstrip("\ufffd")
        line = super().__new__(cls, f"{text} [... truncated: a line of {length} bytes]")
        line.length = length
        return line


def too_long_record(path: Path, lineno: int, line: LongLine, **fields):
    """The reject a LongLine becomes, whatever the format (it cannot be parsed: only its start was kept)."""
    from bsl_pipeline.pipeline.corpus.readers.records import RawRecord

    return RawRecord(text=str(line), file=str(path), line=lineno, error=TOO_LONG, **fields)
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz")
_BZIP2_BLOCK = b"\x31\x41\x59\x26\x53\x59"


def compression(path: Path) -> str | None:
    """'gzip', 'bzip2', 'xz' or 'zstd' when the file starts like such a stream, else None."""
    with open(path, "rb") as fh:
        magic = fh.read(10)
    if magic.startswith(b"\x1f\x8b"):
        return "gzip"
    if magic.startswith(b"\xfd7zXZ\x00"):
        return "xz"
    if magic[:3] == b"BZh" and magic[3:4].isdigit() and magic[4:10] == _BZIP2_BLOCK:
        return "bzip2"
    if magic.startswith(b"\x28\xb5\x2f\xfd"):
        return "zstd"
    return None


def open_binary(path: Path) -> BinaryIO:
    """The file's bytes, decompressed when it is a gzip/bzip2/xz stream."""
    kind = compression(path)
    if kind == "zstd":
        raise InputError(f"{path}: zstd-compressed corpus: unsupported (decompress it first, e.g. `zstd -d`; "
                         f"gzip, bzip2 and xz are read directly)")
    opener = {"gzip": gzip.open, "bzip2": bz2.open, "xz": lzma.open}.get(kind, open)
    return opener(path, "rb")


def _bounded_lines(fh: BinaryIO) -> Iterator[bytes | tuple[bytes, int]]:
    """Lines of at most MAX_LINE_BYTES bytes; a longer one as (its first TRUNCATED_KEEP_BYTES bytes, its length),
    read through in blocks of MAX_LINE_BYTES."""
    while True:
        raw = fh.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        if len(raw) <= MAX_LINE_BYTES or raw.endswith(b"\n"):
            yield raw
            continue
        head, length = raw[:TRUNCATED_KEEP_BYTES], len(raw)
        while raw and not raw.endswith(b"\n"):
            raw = fh.readline(MAX_LINE_BYTES)
            length += len(raw)
        yield head, length - (1 if raw.endswith(b"\n") else 0)


def _raw_lines(path: Path) -> Iterator[tuple[int, bytes | tuple[bytes, int]]]:
    lineno = 0
    try:
        with open_binary(path) as fh:
            for lineno, raw in enumerate(_bounded_lines(fh), 1):
                yield lineno, raw
    except (EOFError, zlib.error, lzma.LZMAError, OSError) as exc:
        if isinstance(exc, OSError) and not isinstance(exc, gzip.BadGzipFile) and compression(path) is None:
            raise  # a plain file's read error is not about compression
        raise InputError(f"{path}:{lineno + 1}: damaged compressed data ({exc})") from None


# The byte-order marks of UTF-16 little- and big-endian text (what Windows tools often write as "Unicode").
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def decoded_lines(path: Path, encoding_errors: str = "strict") -> Iterator[tuple[int, str, int]]:
    """Yield (line number, text without the line ending, replaced characters) streaming from disk; a line longer
    than MAX_LINE_BYTES comes as a `LongLine` (readers make it a `too_long_record`)."""
    if encoding_errors not in ENCODING_ERRORS:
        raise InputError(encoding_errors_problem(encoding_errors))
    for lineno, raw in _raw_lines(path):
        if isinstance(raw, tuple):
            yield lineno, LongLine(*raw), 0
            continue
        if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        raw = raw.rstrip(b"\r\n")
        try:
            yield lineno, raw.decode("utf-8"), 0
        except UnicodeDecodeError as exc:
            if lineno == 1 and raw.startswith(UTF16_BOMS):
                raise InputError(f"{path}: UTF-16 text (it starts with a UTF-16 byte-order mark); corpora are read "
                                 f"as UTF-8: convert it first, e.g. `iconv -f UTF-16 -t UTF-8 {path} > "
                                 f"{Path(path).stem}.utf8.txt`") from None
            if encoding_errors == "strict":
                raise InputError(
                    f"{path}:{lineno}: invalid UTF-8 at byte {exc.start} of the line "
                    f"({raw[max(0, exc.start - 10):exc.start + 10]!r}); fix the file or rerun with "
                    f"-o corpus.encoding_errors=replace to replace and count such bytes"
                ) from None
            text = raw.decode("utf-8", errors="replace")
            yield lineno, text, text.count("\ufffd") - raw.decode("utf-8", errors="ignore").count("\ufffd")
