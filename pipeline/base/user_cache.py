"""Where the tool keeps per-user caches, and the per-user key that seals what it puts there.

A cache directory is untrusted input: a repository can ship a `.bsl_cache/`, a CI job can restore `~/.cache` from
another run, and anyone can recompute a plain sha256. So every cache entry whose content decides a result (cached
embeddings, ONNX exports) carries a seal: an HMAC-SHA256, under a key only this user holds, of the entry's content
and of what it was computed from. The key lives outside every cache, in the per-user configuration directory
(`$XDG_CONFIG_HOME/bsl-pipeline/cache.key`, else `~/.config/...`), created on first use with mode 0600. An entry
without a valid seal (planted, edited, or sealed by another user or machine) is not used: it is rebuilt, with a
one-line warning.
"""

from __future__ import annotations

import hmac
import os
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.fingerprint import keyed_digest

CACHE_KEY_NAME = "cache.key"


def user_cache_root(env: Mapping[str, str] = os.environ) -> Path:
    """`$XDG_CACHE_HOME`, or `~/.cache` when it is unset or empty (the XDG base-directory rule)."""
    return Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser()


def user_config_root(env: Mapping[str, str] = os.environ) -> Path:
    """`$XDG_CONFIG_HOME`, or `~/.config` when it is unset or empty: never inside a cache directory."""
    return Path(env.get("XDG_CONFIG_HOME") or Path.home() / ".config").expanduser()


def cache_key_path(env: Mapping[str, str] = os.environ) -> Path:
    return user_config_root(env) / "bsl-pipeline" / CACHE_KEY_NAME


def user_cache_key(env: Mapping[str, str] = os.environ) -> str:
    """This user's cache key (64 hex digits), created with mode 0600 on first use. A key file that others may
    write, or that is not a plain file, is refused: whoever can write it can forge seals."""
    path = cache_key_path(env)
    try:
        info = path.lstat()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first: use theirs
            return user_cache_key(env)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(secrets.token_hex(32) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        info = path.lstat()
    if not stat.S_ISREG(info.st_mode) or info.st_mode & 0o022 or (hasattr(os, "getuid")
                                                                    and info.st_uid != os.getuid()):
        raise BSLError(f"cache key {path} must be a plain file owned by you and writable only by you "
                       f"(chmod 600 {path}, or delete it to make a new key: caches are then rebuilt)")
    key = path.read_text(encoding="ascii", errors="replace").strip()
    if len(key) < 32:
        # A partly written key (a crash between create and write) would seal with a guessable key: replace it.
        path.unlink()
        return user_cache_key(env)
    return key


def seal(value: Any, env: Mapping[str, str] = os.environ) -> str:
    """HMAC-SHA256 under this user's cache key of the canonical JSON of `value`."""
    return keyed_digest(value, user_cache_key(env))


def seal_matches(value: Any, recorded: Any, env: Mapping[str, str] = os.environ) -> bool:
    """Whether `recorded` is this user's seal of `value` (False for anything that is not a string)."""
    return isinstance(recorded, str) and hmac.compare_digest(recorded, seal(value, env))
