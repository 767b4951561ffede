"""`pipeline.dataset.store`: what verifying a dataset reads besides its manifest and shards is read as untrusted
input (a marker's fields name paths anyone who can write the directory chose)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from bsl_pipeline.pipeline.base.ownership import MARKER_NAME


def _dataset(tmp_path: Path):
    from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("".join(f"Sentence number {i} talks about the dog in the park today.\n" for i in range(4)),
                      encoding="utf-8")
    cfg = AugmentConfig(registry_dir=str(tmp_path / "registry"), progress=False, methods=["noise"])
    run_augment(corpus, tmp_path / "ds", cfg)
    return tmp_path / "ds"


def _verify_in_thread(path: Path) -> BaseException | None:
    """verify_dataset(path) in a thread; fails the test if it has not returned within 20 s (it hangs)."""
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            verify_dataset(path)
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(20)
    assert outcome, "verify_dataset did not return: it waits on what the marker names"
    return outcome[0]


@pytest.mark.parametrize("planted", ["fifo", "dev_zero"])
def test_a_marker_naming_a_fifo_or_device_as_its_registry_entry_never_hangs_verify(tmp_path, planted):
    ds = _dataset(tmp_path)
    if planted == "fifo":
        target = tmp_path / "pipe"
        os.mkfifo(target)
    else:
        target = Path("/dev/zero")  # read to its end, it would fill the memory
    marker = ds / MARKER_NAME
    marker.write_text(json.dumps({**json.loads(marker.read_text()), "registry": str(target)}))
    assert _verify_in_thread(ds) is None  # nothing to compare with there: the dataset verifies as before
