"""A marker proves ownership only for the directory it was written for: a dataset copied with `cp -a` (marker
included), or a planted marker, does not make `bsl augment` adopt the directory; a dataset this tool wrote there is
written again as before."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bsl_pipeline.pipeline.base.ownership import MARKER_NAME, OwnershipError, claim_directory, marker_problem


def _augment(corpus: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "augment", str(corpus), "--out", str(out),
                           "--methods", "noise", "-o", "progress=false", *extra], capture_output=True, text=True,
                          timeout=300, cwd=corpus.parent)  # the registry (data_manifests/) lands beside the corpus


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "corpus.txt"
    path.write_text("".join(f"Sentence number {i} about a small dog.\n" for i in range(20)), encoding="utf-8")
    return path


def test_a_marker_names_its_directory_and_a_claim_id(tmp_path):
    out = claim_directory(tmp_path / "ds", "dataset")
    marker = json.loads((out / MARKER_NAME).read_text())
    assert len(marker["id"]) == 32 and marker["path"] == str(out.resolve())
    assert marker_problem(out, marker) is None
    assert "copied or moved" in marker_problem(tmp_path / "elsewhere", marker)
    assert "no claim id" in marker_problem(out, {"tool": "bsl", "kind": "dataset"})


def test_a_copied_dataset_is_not_adopted_and_its_files_stay(tmp_path, corpus):
    original = tmp_path / "ds"
    assert _augment(corpus, original).returncode == 0
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-a", str(original), str(copy)], check=True)
    (copy / "README.md").write_text("my notes about this copy\n")
    proc = _augment(corpus, copy)
    assert proc.returncode != 0 and "copied or moved here" in proc.stderr and "--overwrite" in proc.stderr
    assert (copy / "README.md").read_text() == "my notes about this copy\n"
    assert _augment(corpus, original).returncode == 0  # the original is still its own


def test_a_planted_marker_is_not_adopted(tmp_path, corpus):
    victim = tmp_path / "mine"
    (victim / "data").mkdir(parents=True)
    (victim / "data" / "notes.parquet").write_bytes(b"user bytes")
    (victim / MARKER_NAME).write_text(json.dumps({"tool": "bsl", "kind": "dataset", "created": "x"}))
    proc = _augment(corpus, victim)
    assert proc.returncode != 0 and "no claim id" in proc.stderr
    assert (victim / "data" / "notes.parquet").read_bytes() == b"user bytes"
    with pytest.raises(OwnershipError, match="no claim id"):
        claim_directory(victim, "dataset")
    assert _augment(corpus, victim, "--overwrite").returncode == 0  # adopted on request: the old data set aside
    aside = list((victim / ".bsl-replaced").rglob("notes.parquet"))
    assert len(aside) == 1 and aside[0].read_bytes() == b"user bytes"


def test_a_dataset_from_before_claim_ids_is_recognised_by_its_manifest(tmp_path, corpus):
    out = tmp_path / "ds"
    assert _augment(corpus, out).returncode == 0
    marker = json.loads((out / MARKER_NAME).read_text())
    old = {k: v for k, v in marker.items() if k not in ("id", "path")}
    (out / MARKER_NAME).write_text(json.dumps(old))
    assert _augment(corpus, out).returncode == 0
    assert "id" in json.loads((out / MARKER_NAME).read_text())


def test_the_check_before_work_refuses_what_the_claim_refuses(tmp_path):
    from bsl_pipeline.pipeline.base.ownership import check_claimable

    out = claim_directory(tmp_path / "ds", "dataset")
    check_claimable(out, "dataset")  # its own marker: fine
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-a", str(out), str(copy)], check=True)
    with pytest.raises(OwnershipError, match="copied or moved here"):
        check_claimable(copy, "dataset")
    check_claimable(copy, "dataset", overwrite=True)
    assert json.loads((copy / MARKER_NAME).read_text())["path"] == str(out.resolve())  # nothing written
