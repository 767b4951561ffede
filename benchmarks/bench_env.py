"""What a benchmark sets before it imports torch or transformers: offline hubs, no tokenizer threads, no progress
bars, and the repository and tests/ (tiny model builders) importable."""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def prepare(single_thread: bool = False) -> Path:
    """Set the environment (one CPU thread when asked: tiny models run much faster so); returns the repo root."""
    if single_thread:
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        os.environ.setdefault("MKL_NUM_THREADS", "1")
    for name, value in (("HF_HUB_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "1"), ("TOKENIZERS_PARALLELISM", "false"),
                        ("BSL_NO_PROGRESS", "1")):
        os.environ.setdefault(name, value)
    for path in (REPO / "tests", REPO):
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))
    return REPO
