"""Line-by-line decoding that names the file and line of invalid UTF-8, or counts replacements.

Compressed files (gzip, bzip2, xz: recognised by their first bytes, not their name) are decompressed while
streaming; a zstd file is refused with a clear message (the standard library cannot read it).
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


def _raw_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    lineno = 0
    try:
        with open_binary(path) as fh:
            for lineno, raw in enumerate(fh, 1):
                yield lineno, raw
    except (EOFError, zlib.error, lzma.LZMAError, OSError) as exc:
        if isinstance(exc, OSError) and not isinstance(exc, gzip.BadGzipFile) and compression(path) is None:
            raise  # a plain file's read error is not about compression
        raise InputError(f"{path}:{lineno + 1}: damaged compressed data ({exc})") from None


def decoded_lines(path: Path, encoding_errors: str = "strict") -> Iterator[tuple[int, str, int]]:
    """Yield (line number, text without the line ending, replaced characters) streaming from disk."""
    if encoding_errors not in ENCODING_ERRORS:
        raise InputError(f"encoding_errors must be one of {ENCODING_ERRORS}, got {encoding_errors!r}")
    for lineno, raw in _raw_lines(path):
        if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        raw = raw.rstrip(b"\r\n")
        try:
            yield lineno, raw.decode("utf-8"), 0
        except UnicodeDecodeError as exc:
            if encoding_errors == "strict":
                raise InputError(
                    f"{path}:{lineno}: invalid UTF-8 at byte {exc.start} of the line "
                    f"({raw[max(0, exc.start - 10):exc.start + 10]!r}); fix the file or rerun with "
                    f"-o corpus.encoding_errors=replace to replace and count such bytes"
                ) from None
            text = raw.decode("utf-8", errors="replace")
            yield lineno, text, text.count("\ufffd") - raw.decode("utf-8", errors="ignore").count("\ufffd")
