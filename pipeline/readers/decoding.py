"""Line-by-line decoding that names the file and line of invalid UTF-8, or counts replacements."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from pipeline.errors import InputError

ENCODING_ERRORS = ("strict", "replace")


def decoded_lines(path: Path, encoding_errors: str = "strict") -> Iterator[tuple[int, str, int]]:
    """Yield (line number, text without the line ending, replaced characters) streaming from disk."""
    if encoding_errors not in ENCODING_ERRORS:
        raise InputError(f"encoding_errors must be one of {ENCODING_ERRORS}, got {encoding_errors!r}")
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
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
