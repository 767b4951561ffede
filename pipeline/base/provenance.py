"""Where code and files come from: git commit of this checkout, sha256 of files."""

from __future__ import annotations

import functools
import hashlib
import subprocess
from pathlib import Path

from bsl_pipeline import pipeline


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """`<package version>+g<commit>[.dirty]` when run from a git checkout, else the package version."""
    root = Path(pipeline.__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"], capture_output=True,
                                text=True, timeout=5, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return pipeline.__version__
    return f"{pipeline.__version__}+g{commit}{'.dirty' if dirty else ''}"


def sha256_file(path: str | Path, chunk_size: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk_size):
            h.update(block)
    return h.hexdigest()


@functools.lru_cache(maxsize=256)
def _sha256_cached(path: str, size: int, mtime_ns: int) -> str:
    return sha256_file(path)


def sha256_file_cached(path: str | Path) -> str:
    """sha256 memoised on (path, size, mtime): model checkpoints are hashed once per process."""
    p = Path(path).resolve()
    st = p.stat()
    return _sha256_cached(str(p), st.st_size, st.st_mtime_ns)


def sha256_dir(path: str | Path, patterns: tuple[str, ...] = ("*",)) -> dict[str, str]:
    """file name -> sha256 for the files of a model directory (not recursive)."""
    root = Path(path)
    out = {}
    for pattern in patterns:
        for f in sorted(root.glob(pattern)):
            if f.is_file():
                out[f.name] = sha256_file_cached(f)
    return out
