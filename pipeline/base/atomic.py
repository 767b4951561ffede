"""Atomic writes: a reader never sees a half-written file under its final name.

Files get the mode a plain `open(path, "w")` would give (0666 less the umask), not mkstemp's private 0600: a
dataset's manifest and card have the same mode as its shards, and a user's umask decides who may read them.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def _umask() -> int:
    """The process umask, read without changing it where the OS allows (os.umask can only set it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def new_file_mode() -> int:
    """The mode `open(path, "w")` gives a new file in this process."""
    return 0o666 & ~_umask()


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temp path in the same directory; on success it is fsynced and renamed onto `path`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, new_file_mode())
        with open(tmp_path, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp_path, path)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def write_text_atomic(path: str | Path, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def json_text(data: Any) -> str:
    """How the tool writes a JSON file, on disk or on an object store (`pipeline.base.storage`)."""
    return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def write_json_atomic(path: str | Path, data: Any) -> None:
    write_text_atomic(path, json_text(data))


def write_parquet_to(table, sink: Any) -> None:
    """How the tool writes a Parquet file (`sink`: a path or a binary buffer), on disk or on an object store."""
    import pyarrow.parquet as pq

    pq.write_table(table, sink, compression="zstd")


def write_parquet_atomic(table, path: str | Path) -> None:
    with atomic_path(path) as tmp:
        write_parquet_to(table, tmp)
