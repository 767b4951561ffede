"""Where the tool keeps per-user caches: one rule for every stage."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def user_cache_root(env: Mapping[str, str] = os.environ) -> Path:
    """`$XDG_CACHE_HOME`, or `~/.cache` when it is unset or empty (the XDG base-directory rule)."""
    return Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser()
