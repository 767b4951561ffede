"""The one switch for progress bars, shared by every stage."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator


def progress_disabled(disable: bool | None = False) -> bool:
    """True when a bar should stay hidden: the caller asked for that, or `BSL_NO_PROGRESS` is set to anything but
    "" or "0" (so `BSL_NO_PROGRESS=1` quiets every stage of a job, including ones started by a flow)."""
    return bool(disable) or os.environ.get("BSL_NO_PROGRESS", "") not in ("", "0")


@contextlib.contextmanager
def transformers_bars_hidden() -> Iterator[None]:
    """Hide transformers' own bars ("Loading weights", "Writing model shards") in the block, whatever the progress
    choice, and restore transformers' setting after it. Every model load and save goes through it: a load is one
    step of work that draws its own bar (the augmentation job's, the trainer's, evaluation's encoding), which a bar
    per load would bury; with --no-progress nothing may draw one."""
    from transformers.utils import logging as hf_logging

    was_enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_enabled:
            hf_logging.enable_progress_bar()
