"""The one switch for progress bars, shared by every stage."""

from __future__ import annotations

import os


def progress_disabled(disable: bool | None = False) -> bool:
    """True when a bar should stay hidden: the caller asked for that, or `BSL_NO_PROGRESS` is set to anything but
    "" or "0" (so `BSL_NO_PROGRESS=1` quiets every stage of a job, including ones started by a flow)."""
    return bool(disable) or os.environ.get("BSL_NO_PROGRESS", "") not in ("", "0")
