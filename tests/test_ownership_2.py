"""A command writes only what it owns; what it replaces goes to `.bsl-replaced/<time>/`, never to rmtree. Each test
is one finding of a review of the tool's writes (publishing, `bsl data fetch`, reruns, the writing commands)."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment
from bsl_pipeline.pipeline.base.ownership import REPLACED_DIR
from bsl_pipeline.pipeline.base.publish import publish_directory, remove_stale_staging, staging_dir
from bsl_pipeline.pipeline.dataset.store import verify_dataset

SENTENCES = [f"Sentence number {i} talks about the {w} in the park." for i, w in
             enumerate(["dog", "cat", "tree", "child", "ball", "car", "house", "woman", "man", "game"] * 3)]


@pytest.fixture
def corpus(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    path = folder / "corpus.txt"
    path.write_text("\n".join(SENTENCES) + "\n", encoding="utf-8")
    return path


def _config(tmp_path, **kw) -> AugmentConfig:
    kw.setdefault("methods", ["noise"])
    kw.setdefault("registry_dir", str(tmp_path / "registry"))
    cfg = AugmentConfig(progress=False, **kw)
    cfg.corpus.chunk_size = 8
    return cfg


def _bsl(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], capture_output=True, text=True,
                          check=False, env={**os.environ, "BSL_NO_PROGRESS": "1"}, cwd=cwd)


def _one_line_error(proc: subprocess.CompletedProcess, *needles: str) -> None:
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    for needle in needles:
        assert needle in proc.stderr, (needle, proc.stderr)


def _replaced(directory: Path) -> list[Path]:
    """Every file kept under `directory/.bsl-replaced/`."""
    return sorted(p for p in (directory / REPLACED_DIR).rglob("*") if p.is_file())


# -- 1: publishing sets aside what it did not write ----------------------------------------------------------------
def test_publish_sets_aside_a_users_file_in_the_replaced_directory(tmp_path):
    target = tmp_path / "out" / "data"
    target.mkdir(parents=True)
    (target / "shard.parquet").write_text("old shard")
    (target / "sub").mkdir()
    (target / "sub" / "notes.txt").write_text("mine")
    staging = staging_dir(target)
    (staging / "shard.parquet").write_text("new shard")
    assert publish_directory(staging, target)
    assert (target / "shard.parquet").read_text() == "new shard" and not (target / "sub").exists()
    # default: the new copy has shard.parquet (the tool's file, dropped); the user's notes are kept
    (kept,) = _replaced(tmp_path / "out")
    assert kept.read_text() == "mine" and kept.relative_to(tmp_path / "out" / REPLACED_DIR).parts[1:] == \
        ("data", "sub", "notes.txt")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [REPLACED_DIR, "data"]  # no retired leftovers

    staging = staging_dir(target)
    assert publish_directory(staging, target, discard=lambda relative, path: False)
    assert sorted(p.read_text() for p in _replaced(tmp_path / "out")) == ["mine", "new shard"]


def test_a_retired_copy_left_by_a_killed_publisher_is_set_aside_not_deleted(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    retired = tmp_path / f".data.old-{int(dead.stdout)}-abcdef12"
    retired.mkdir()
    (retired / "user.csv").write_text("x")
    staging = tmp_path / f".data.staging-{int(dead.stdout)}-abcdef12"
    staging.mkdir()
    remove_stale_staging(tmp_path, "data")
    assert not retired.exists() and not staging.exists()
    assert [p.read_text() for p in _replaced(tmp_path)] == ["x"]


def test_rerun_keeps_a_users_file_in_data_and_rejects_and_drops_only_listed_shards(tmp_path, corpus):
    out = tmp_path / "ds"
    first = run_augment(corpus, out, _config(tmp_path))
    (out / "data" / "my-notes.txt").write_text("mine")
    (out / "rejects" / "extra.parquet").write_text("also mine")
    edited = out / first.shards_of("pairs")[0].path
    edited.write_bytes(edited.read_bytes() + b"edited")
    run_augment(corpus, out, _config(tmp_path, seed=1))  # the documented rerun (other settings)
    kept = {p.relative_to(out / REPLACED_DIR).as_posix().split("/", 1)[1]: p for p in _replaced(out)}
    assert set(kept) == {"data/my-notes.txt", "rejects/extra.parquet", edited.relative_to(out).as_posix()}
    assert kept["data/my-notes.txt"].read_text() == "mine" and kept[edited.relative_to(out).as_posix()] \
        .read_bytes().endswith(b"edited")
    verify_dataset(out, progress=False)  # the new dataset is whole, the user's files are out of data/


# -- 2: bsl data fetch ----------------------------------------------------------------------------------------------
def _fetch(mirror: Path, to: Path, sets: list[str], **kw):
    from bsl_pipeline.training.evaluation.public_data import DataFetchConfig, fetch_public_sets

    cfg = DataFetchConfig(to=str(to), mirror=str(mirror), progress=False, sets=sets, **kw)
    return fetch_public_sets(cfg, log=lambda _: None)


def test_refetch_after_an_edit_or_an_added_file_sets_them_aside(hub_mirror, tmp_path):
    data = tmp_path / "data"
    _fetch(hub_mirror, data, ["sickr"])
    (sick,) = list((data / "sick").iterdir())
    original = sick.read_bytes()
    sick.write_bytes(original + b"my extra line\n")
    (data / "sick" / "my-split.txt").write_text("mine")
    (result,) = _fetch(hub_mirror, data, ["sickr"])
    assert result.status == "fetched" and sick.read_bytes() == original
    assert any(".bsl-replaced" in w for w in result.warnings), result.warnings
    kept = {p.name: p for p in _replaced(data)}
    assert kept["my-split.txt"].read_text() == "mine" and kept[sick.name].read_bytes().endswith(b"my extra line\n")
    # an untouched refetch (--force) drops only the files it wrote: nothing more is set aside
    (result,) = _fetch(hub_mirror, data, ["sickr"], force=True)
    assert len(_replaced(data)) == 2 and not any(".bsl-replaced" in w for w in result.warnings)


def test_force_sets_a_hand_supplied_folder_aside(hub_mirror, shared_data, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(shared_data / "sick", data / "sick")
    supplied = sorted(p.name for p in (data / "sick").iterdir())
    (result,) = _fetch(hub_mirror, data, ["sickr"], force=True)
    assert result.status == "fetched"
    assert sorted(p.name for p in _replaced(data)) == supplied


# -- 3: a rerun with other methods says what it replaces -------------------------------------------------------------
def test_a_rerun_with_other_methods_says_what_it_replaces_and_sets_the_old_shards_aside(tmp_path, corpus, caplog):
    out = tmp_path / "ds"
    first = run_augment(corpus, out, _config(tmp_path, methods=["noise", "span-mask"]))
    old = {s.path for s in first.shards}
    with caplog.at_level(logging.WARNING):
        second = run_augment(corpus, out, _config(tmp_path, methods=["noise"]))
    lines = [r.getMessage() for r in caplog.records if "now holds" in r.getMessage()]
    assert len(lines) == 1, caplog.text
    assert (f"held methods noise,span-mask ({first.stats.pairs} pairs: noise "
            f"{first.stats.per_method['noise'].pairs}, span-mask {first.stats.per_method['span-mask'].pairs})"
            in lines[0]) and f"now holds noise ({second.stats.pairs} pairs" in lines[0]
    kept = {p.relative_to(out / REPLACED_DIR).as_posix().split("/", 1)[1] for p in _replaced(out)}
    assert kept == old
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        run_augment(corpus, out, _config(tmp_path, methods=["noise"], seed=3))  # same methods: no word
    assert "now holds" not in caplog.text and len(_replaced(out)) == len(old)


def test_pruning_checkpoints_keeps_a_file_the_trainer_did_not_write(tmp_path):
    from bsl_pipeline.training.checkpoint_files import CHECKPOINT_JSON, STATE_FILE, prune_checkpoints

    checkpoints = tmp_path / "checkpoints"
    for step in (1, 2):
        folder = checkpoints / f"step-{step}"
        (folder / "encoder").mkdir(parents=True)
        (folder / STATE_FILE).write_text("state")
        (folder / CHECKPOINT_JSON).write_text(json.dumps({"step": step}))
    (checkpoints / "step-1" / "my-eval.txt").write_text("mine")
    prune_checkpoints(checkpoints, keep=1)
    assert sorted(p.name for p in checkpoints.iterdir()) == [REPLACED_DIR, "step-2"]
    assert [p.relative_to(checkpoints / REPLACED_DIR).parts[1:] for p in _replaced(checkpoints)] == \
        [("step-1", "my-eval.txt")]
