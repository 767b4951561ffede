"""One rule for replacing a directory as a whole: build it under a private staging name beside the target, then
swap it in with renames, so that a reader sees the old directory or the new one, never a mix.

Staging and retired names carry the process id and a random suffix: two processes publishing beside each other
never share (or delete) each other's staging directory. Renames stay on one file system because staging lives in
the target's parent.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable
from pathlib import Path

from bsl_pipeline.pipeline.base.ownership import process_alive


def _private_name(target: Path, role: str) -> Path:
    return target.with_name(f".{target.name}.{role}-{os.getpid()}-{uuid.uuid4().hex[:8]}")


def staging_dir(target: Path) -> Path:
    """A new, empty directory beside `target` that only this call's caller uses."""
    path = _private_name(Path(target), "staging")
    path.mkdir(parents=True)
    return path


def publish_directory(staging: Path, target: Path,
                      keep_existing: Callable[[Path], bool] | None = None) -> bool:
    """Move `staging` into place as `target`, replacing what was there. Returns True when `staging` was published.

    `keep_existing(target)` is asked when `target` exists: True keeps it and discards `staging` (another process
    already published an equivalent copy)."""
    staging, target = Path(staging), Path(target)
    if target.exists() and keep_existing is not None and keep_existing(target):
        shutil.rmtree(staging, ignore_errors=True)
        return False
    retired = None
    if target.exists():
        retired = _private_name(target, "old")
        try:
            os.rename(target, retired)
        except FileNotFoundError:  # another process retired it first
            retired = None
    try:
        os.rename(staging, target)
    except OSError:
        # Another publisher won the race between our retire and our rename: keep theirs if the caller accepts it.
        if keep_existing is not None and target.exists() and keep_existing(target):
            shutil.rmtree(staging, ignore_errors=True)
            published = False
        else:
            raise
    else:
        published = True
    if retired is not None:
        shutil.rmtree(retired, ignore_errors=True)
    return published


def remove_stale_staging(parent: Path, name: str) -> None:
    """Delete staging/retired leftovers of `name` in `parent` whose process is gone (after a kill)."""
    for leftover in Path(parent).glob(f".{name}.*-*-*"):
        role_pid = leftover.name[len(name) + 2:].split("-")
        if len(role_pid) < 3 or role_pid[0] not in {"staging", "old"} or not role_pid[1].isdigit():
            continue
        if not process_alive(int(role_pid[1])):
            shutil.rmtree(leftover, ignore_errors=True)
