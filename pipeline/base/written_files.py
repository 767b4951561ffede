"""Which single files outside its own marked directories the tool wrote: proof, never a guess.

A command that writes a file the user names (`bsl evaluate --json/--markdown/--plot`, `bsl inspect --html`,
`bsl review --export-avoid`) records it here once written: its absolute path (folder resolved), size, sha256 and
the command. A later run rewrites that file without `--overwrite` only while the registry holds it with the same
command and the file still has the recorded size and sha256 (`recorded_by`); anything else, a file that merely
looks like the tool's output, one the tool wrote and someone edited since, a file at a path reached through another
link, is the user's: refused without `--overwrite`, set aside with it (`pipeline.base.ownership.claim_file`).

The registry is `written-files.json` in the per-user configuration directory (`$XDG_CONFIG_HOME/bsl-pipeline/`, else
`~/.config/bsl-pipeline/`), beside the cache key and outside every cache and output, so that nothing a dataset, a
repository or a restored cache ships can vouch for a file. Like the key, it must be a plain file owned by the user
and writable by nobody else. Updates take an exclusive `flock` on `written-files.lock` and replace the file
atomically; it keeps the newest MAX_ENTRIES entries and forgets files that are gone.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.atomic import write_json_atomic
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.provenance import sha256_file
from bsl_pipeline.pipeline.base.user_cache import user_config_root

REGISTRY_NAME = "written-files.json"
FORMAT = 1
MAX_ENTRIES = 10_000
MAX_REGISTRY_BYTES = 16 << 20


def registry_path(env: Mapping[str, str] = os.environ) -> Path:
    return user_config_root(env) / "bsl-pipeline" / REGISTRY_NAME


def file_key(path: str | Path) -> str:
    """The registry's name for `path`: absolute, its folder resolved (the file itself is never a link)."""
    path = Path(path).expanduser().absolute()
    return str(Path(os.path.realpath(path.parent)) / path.name)


def _read(registry: Path) -> dict[str, dict[str, Any]]:
    """The registry's entries; {} when there is none. A registry that is not a plain file of this user writable
    only by them is refused (whoever can write it could vouch for any file)."""
    try:
        info = registry.lstat()
    except FileNotFoundError:
        return {}
    if (not stat.S_ISREG(info.st_mode) or info.st_mode & 0o022 or info.st_size > MAX_REGISTRY_BYTES
            or (hasattr(os, "getuid") and info.st_uid != os.getuid())):
        raise BSLError(f"{registry}: the record of files bsl wrote must be a plain file owned by you, writable only "
                       f"by you and under {MAX_REGISTRY_BYTES >> 20} MiB (chmod 600 it, or delete it: files bsl "
                       f"wrote earlier are then refused without --overwrite)")
    try:
        data = json.loads(registry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # a registry that does not parse vouches for nothing
    files = data.get("files") if isinstance(data, dict) and data.get("format") == FORMAT else None
    if not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, dict)}


def _entry_matches(entry: dict[str, Any] | None, path: Path, command: str) -> bool:
    if not entry or entry.get("command") != command:
        return False
    try:
        info = path.lstat()
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode) or info.st_size != entry.get("size"):
        return False
    try:
        return sha256_file(path) == entry.get("sha256")
    except OSError:
        return False


def recorded_by(command: str, env: Mapping[str, str] = os.environ) -> Callable[[Path], bool]:
    """An `ours` for `claim_file`: `command` wrote this very file (the registry holds its path with that command,
    and it still has the recorded size and sha256)."""

    def ours(path: Path) -> bool:
        return _entry_matches(_read(registry_path(env)).get(file_key(path)), Path(path), command)

    return ours


def record_written(path: str | Path, command: str, env: Mapping[str, str] = os.environ) -> None:
    """Record that `command` has just written the plain file `path` (its size and sha256 now)."""
    path = Path(path)
    info = path.lstat()
    if not stat.S_ISREG(info.st_mode):
        raise BSLError(f"{path}: not a plain file after writing it (replaced meanwhile?)")
    entry = {"command": command, "size": info.st_size, "sha256": sha256_file(path),
             "written": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    registry = registry_path(env)
    registry.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(registry.with_name("written-files.lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        files = _read(registry)
        files.pop(file_key(path), None)
        files[file_key(path)] = entry  # newest last
        kept = [(k, v) for k, v in files.items() if os.path.lexists(k)][-MAX_ENTRIES:]
        write_json_atomic(registry, {"format": FORMAT, "files": dict(kept)})
        os.chmod(registry, 0o600)
    finally:
        os.close(fd)
