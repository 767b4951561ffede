"""`pipeline.dataset.store`: what verifying a dataset reads besides its manifest and shards is read as untrusted
input (a marker's fields name paths anyone who can write the directory chose)."""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path

import pytest

from bsl_pipeline.pipeline.base.ownership import MARKER_NAME
from bsl_pipeline.pipeline.dataset.manifest import write_manifest
from one_line import one_line_error
from small_corpus import DOG_LINES, augmented_dataset, copy_dataset_files, noise_dataset, run_bsl, write_corpus


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


@pytest.fixture
def corpus(tmp_path):
    return write_corpus(tmp_path)


@pytest.mark.parametrize("spelling", ["{path}", "./{path}", "data//{path_in_data}"])
def test_verify_refuses_a_shard_listed_twice(tmp_path, corpus, spelling):
    from bsl_pipeline.pipeline.base.errors import VerificationError
    from bsl_pipeline.pipeline.dataset.card import write_dataset_card
    from bsl_pipeline.pipeline.dataset.store import load_manifest, verify_dataset

    ds = augmented_dataset(tmp_path, corpus)
    manifest = json.loads((ds / "manifest.json").read_text())
    first = next(s for s in manifest["shards"] if s["kind"] == "pairs")
    manifest["shards"].append({**first, "path": spelling.format(path=first["path"],
                                                                  path_in_data=first["path"].split("/", 1)[1])})
    manifest.pop("checksum")
    write_manifest(manifest, ds / "manifest.json")
    write_dataset_card(ds, load_manifest(ds))  # the card names the shards as the manifest does, twice
    with pytest.raises(VerificationError, match=rf"shards\[\d+\] lists {ds / first['path']} again \(first as "
                                                r"shards\[0\]\); a reader would read its rows twice"):
        verify_dataset(ds)
    one_line_error(run_bsl("verify", str(ds)), f"lists {ds / first['path']} again (first as shards[0])")


def test_another_datasets_signed_files_copied_over_fail_verify(tmp_path, monkeypatch):
    from bsl_pipeline.pipeline.base.errors import VerificationError
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    monkeypatch.setenv("BSL_MANIFEST_KEY", "team-secret")
    a = noise_dataset(tmp_path, "a", DOG_LINES)
    b = noise_dataset(tmp_path, "b", [line.replace("dog", "cat") for line in DOG_LINES])
    assert a.dataset_id != b.dataset_id and a.version == b.version == 1
    copy_dataset_files(tmp_path / "a", tmp_path / "b")
    with pytest.raises(VerificationError, match=f"manifest is of dataset {a.dataset_id}.*records dataset "
                                                f"{b.dataset_id}: another dataset's files were copied here"):
        verify_dataset(tmp_path / "b")


def test_an_older_signed_write_put_back_fails_verify(tmp_path, monkeypatch):
    from bsl_pipeline.pipeline.base.errors import VerificationError
    from bsl_pipeline.pipeline.base.ownership import MARKER_NAME
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    monkeypatch.setenv("BSL_MANIFEST_KEY", "team-secret")
    first = noise_dataset(tmp_path, "b", DOG_LINES)
    shutil.copytree(tmp_path / "b", tmp_path / "b-v1", ignore=shutil.ignore_patterns(".work", ".bsl-*"))
    second = noise_dataset(tmp_path, "b", DOG_LINES[:3])
    assert (second.dataset_id, second.version) == (first.dataset_id, 2)
    registered = json.loads((tmp_path / "registry" / "datasets" / "b.json").read_text())
    assert (registered["dataset_id"], registered["version"]) == (first.dataset_id, 2)
    verify_dataset(tmp_path / "b")
    copy_dataset_files(tmp_path / "b-v1", tmp_path / "b")
    with pytest.raises(VerificationError, match=r"version 1 of dataset .*records version 2: an older write was "
                                                r"put back \(rollback\)"):
        verify_dataset(tmp_path / "b")
    # The marker rolled back too: the registry entry still records version 2.
    marker = tmp_path / "b" / MARKER_NAME
    marker.write_text(json.dumps({**json.loads(marker.read_text()), "version": 1}))
    with pytest.raises(VerificationError, match=r"b\.json records version 2"):
        verify_dataset(tmp_path / "b")
    # A rerun writes version 3 over whatever is there, and verifies.
    assert noise_dataset(tmp_path, "b", DOG_LINES).version == 3
    verify_dataset(tmp_path / "b")
