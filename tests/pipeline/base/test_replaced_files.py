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

from bsl_pipeline.pipeline.augment.job import run_augment
from bsl_pipeline.pipeline.base.ownership import REPLACED_DIR
from bsl_pipeline.pipeline.base.publish import publish_directory, remove_stale_staging, staging_dir
from bsl_pipeline.pipeline.dataset.store import verify_dataset
from one_line import one_line_error
from small_corpus import augment_config, write_corpus



@pytest.fixture
def corpus(tmp_path):
    return write_corpus(tmp_path)


_config = augment_config


def _bsl(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], capture_output=True, text=True,
                          check=False, env={**os.environ, "BSL_NO_PROGRESS": "1"}, cwd=cwd)


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
    from bsl_pipeline.evaluation.public_data import DataFetchConfig, fetch_public_sets

    cfg = DataFetchConfig(to=str(to), mirror=str(mirror), progress=False, sets=sets, **kw)
    return fetch_public_sets(cfg, log=lambda _: None)


def test_refetch_after_an_edit_or_an_added_file_sets_them_aside(hub_mirror, tmp_path):
    data = tmp_path / "data"
    _fetch(hub_mirror, data, ["sts16"])
    gold = data / "sts" / "sts16" / "STS.gs.pooled.txt"
    original = gold.read_bytes()
    gold.write_bytes(original + b"4.0\n")
    (data / "sts" / "sts16" / "my-split.txt").write_text("mine")
    (result,) = _fetch(hub_mirror, data, ["sts16"])
    assert result.status == "fetched" and gold.read_bytes() == original
    assert any(".bsl-replaced" in w for w in result.warnings), result.warnings
    kept = {p.name: p for p in _replaced(data / "sts")}
    assert kept["my-split.txt"].read_text() == "mine" and kept[gold.name].read_bytes().endswith(b"4.0\n")
    assert not (data / "sts" / "sts16" / "my-split.txt").exists()
    # an untouched refetch (--force) drops only the files it wrote: nothing more is set aside
    (result,) = _fetch(hub_mirror, data, ["sts16"], force=True)
    assert len(_replaced(data / "sts")) == 2 and not any(".bsl-replaced" in w for w in result.warnings)


def test_force_sets_a_hand_supplied_folder_aside(hub_mirror, shared_data, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(shared_data / "sts" / "sts13", data / "sts" / "sts13")
    supplied = sorted(p.name for p in (data / "sts" / "sts13").iterdir())
    (result,) = _fetch(hub_mirror, data, ["sts13"], force=True)
    assert result.status == "fetched"
    assert sorted(p.name for p in _replaced(data / "sts")) == supplied


def test_force_in_sick_sets_aside_only_the_file_the_fetch_writes(hub_mirror, shared_data, tmp_path):
    """sick/ is also SICK-E's folder (the SICK files a user puts there): a refetch of SICK-R replaces its own file
    and nothing else, so an added or edited file of another name stays where it is."""
    data = tmp_path / "data"
    shutil.copytree(shared_data / "sick", data / "sick")
    (result,) = _fetch(hub_mirror, data, ["sickr"], force=True)
    assert result.status == "fetched" and [p.name for p in _replaced(data)] == ["SICK_test_annotated.txt"]
    (data / "sick" / "my-split.txt").write_text("mine")
    fetched = data / "sick" / "SICK_test_annotated.txt"
    fetched.write_bytes(fetched.read_bytes() + b"my extra line\n")
    (result,) = _fetch(hub_mirror, data, ["sickr"])
    assert result.status == "fetched" and any(".bsl-replaced" in w for w in result.warnings), result.warnings
    assert (data / "sick" / "my-split.txt").read_text() == "mine" and (data / "sick" / "SICK_train.txt").is_file()
    assert sorted(p.read_bytes().endswith(b"my extra line\n") for p in _replaced(data)) == [False, True]


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


_KILLED_WHILE_PRUNING = """
import os, shutil, signal, sys
from pathlib import Path
from bsl_pipeline.training.checkpoint_files import prune_checkpoints

def killed(path, *args, **kwargs):  # one file of the dropped checkpoint goes, then the process dies
    next(p for p in sorted(Path(path).rglob("*")) if p.is_file()).unlink()
    os.kill(os.getpid(), signal.SIGKILL)

shutil.rmtree = killed
prune_checkpoints(Path(sys.argv[1]), keep=1)
"""


def test_a_kill_while_pruning_leaves_no_checkpoint_short_of_files_and_the_next_prune_sorts_the_leftovers(tmp_path):
    from bsl_pipeline.training.checkpoint_files import CHECKPOINT_JSON, STATE_FILE, list_checkpoints, prune_checkpoints

    checkpoints = tmp_path / "checkpoints"
    for step in (1, 2):
        folder = checkpoints / f"step-{step}"
        (folder / "encoder").mkdir(parents=True)
        (folder / "encoder" / "model.safetensors").write_text("weights")
        (folder / STATE_FILE).write_text("state")
        (folder / CHECKPOINT_JSON).write_text(json.dumps({"step": step}))
    killed = subprocess.run([sys.executable, "-c", _KILLED_WHILE_PRUNING, str(checkpoints)], check=False)
    assert killed.returncode == -9
    names = sorted(p.name for p in checkpoints.iterdir())
    assert "step-1" not in names and names[-1] == "step-2" and names[0].startswith(".step-1.old-")
    assert [step for step, _ in list_checkpoints(checkpoints)] == [2]
    leftover = checkpoints / names[0]
    (leftover / "notes.txt").write_text("mine")  # a file of the user's in the checkpoint that was being dropped
    saving = checkpoints / f".step-3.staging-{killed_pid(leftover)}-abcd1234"  # a save the same kill cut short
    (saving / "encoder").mkdir(parents=True)
    prune_checkpoints(checkpoints, keep=1)
    assert sorted(p.name for p in checkpoints.iterdir()) == [REPLACED_DIR, "step-2"]
    assert [(p.parts[-2:], p.read_text()) for p in _replaced(checkpoints)] == [(("step-1", "notes.txt"), "mine")]


def killed_pid(leftover: Path) -> int:
    """The process id in a leftover's name (`.step-1.old-<pid>-<suffix>`)."""
    return int(leftover.name.rsplit("-", 2)[1])


# -- 4: every writing command claims its output ----------------------------------------------------------------------
def test_demo_refuses_an_out_dir_it_did_not_create_before_any_work(tmp_path):
    from bsl_pipeline.flows.main_job import MainJobConfig, _claim_out_dir

    out = tmp_path / "mine"
    out.mkdir()
    for name in ("report.html", "job.json", "sts_results.json"):
        (out / name).write_text(f"my {name}")
    proc = _bsl("demo", "--out", str(out), "-o", "evaluate=false")
    one_line_error(proc, str(out), "not created by bsl", "--overwrite")
    assert {p.name: p.read_text() for p in out.iterdir()} == {n: f"my {n}" for n in
                                                              ("report.html", "job.json", "sts_results.json")}
    _claim_out_dir(MainJobConfig(out_dir=str(out), overwrite=True), None, [])
    assert sorted(p.name for p in _replaced(out)) == ["job.json", "report.html", "sts_results.json"]
    assert [p.read_text() for p in _replaced(out) if p.name == "report.html"] == ["my report.html"]
    _claim_out_dir(MainJobConfig(out_dir=str(out)), None, [])  # now marked: a rerun needs no flag


def test_inspect_html_never_writes_over_the_dataset_or_the_corpus_nor_a_users_file(tmp_path, corpus):
    out = tmp_path / "ds"
    run_augment(corpus, out, _config(tmp_path))
    manifest = (out / "manifest.json").read_bytes()
    for target in (out / "manifest.json", out / "page.html", corpus):
        proc = _bsl("inspect", str(out), "--html", str(target), "--overwrite")
        one_line_error(proc, "overlap")
    assert (out / "manifest.json").read_bytes() == manifest and not (out / "page.html").exists()
    page = tmp_path / "page.html"
    page.write_text("my page")
    one_line_error(_bsl("inspect", str(out), "--html", str(page)), str(page), "exists", "--overwrite")
    assert page.read_text() == "my page"
    assert _bsl("inspect", str(out), "--html", str(page), "--overwrite").returncode == 0
    assert [p.read_text() for p in _replaced(tmp_path)] == ["my page"]
    proc = _bsl("inspect", str(out), "--html", str(page), "-n", "3")  # its own page: rewritten without a flag
    assert proc.returncode == 0, proc.stderr
    assert len(_replaced(tmp_path)) == 1


def test_evaluate_outputs_are_claimed(tiny_bert_dir, shared_data, tmp_path):
    from bsl_pipeline.cli.cli import main

    outputs = {"--json": tmp_path / "r.json", "--markdown": tmp_path / "r.md", "--plot": tmp_path / "r.png"}

    def evaluate(*extra: str) -> int:
        args = ["evaluate", str(tiny_bert_dir), "--data-dir", str(shared_data), "--tasks", "stsb",
                "--no-stsb-dev", "--no-cache", "--no-progress", "--batch-size", "64"]
        return main(args + [x for flag, path in outputs.items() for x in (flag, str(path))] + list(extra))

    for path in outputs.values():
        path.write_text(f"my {path.name}")
    assert evaluate() == 1  # refused before any model loads
    assert [p.read_text() for p in outputs.values()] == ["my r.json", "my r.md", "my r.png"]
    assert evaluate("--overwrite") == 0
    assert sorted(p.read_text() for p in _replaced(tmp_path)) == ["my r.json", "my r.md", "my r.png"]
    assert evaluate() == 0  # its own outputs are recognised and rewritten
    assert len(_replaced(tmp_path)) == 3
    assert main(["evaluate", str(tiny_bert_dir), "--json", str(tiny_bert_dir / "config.json")]) == 1  # an input


# -- 5: the dataset card, the registry, export.dir, the lock file ----------------------------------------------------
def test_a_hand_edited_card_is_kept_on_a_rerun_and_said(tmp_path, corpus, caplog):
    out = tmp_path / "ds"
    run_augment(corpus, out, _config(tmp_path))
    with caplog.at_level(logging.WARNING):
        run_augment(corpus, out, _config(tmp_path))  # its own card: replaced without a word
    assert "card" not in caplog.text and not (out / REPLACED_DIR).exists()
    card = (out / "README.md").read_text()
    (out / "README.md").write_text(card + "\nMy notes on this dataset.\n")
    with caplog.at_level(logging.WARNING):
        run_augment(corpus, out, _config(tmp_path))  # an incremental rerun
    (kept,) = _replaced(out)
    assert kept.name == "README.md" and kept.read_text().endswith("My notes on this dataset.\n")
    assert "edited by hand" in caplog.text and str(kept) in caplog.text
    from bsl_pipeline.pipeline.dataset.card import dataset_card
    from bsl_pipeline.pipeline.dataset.store import load_manifest

    # the tool's own card for this run (its "Created" time is this run's, a second later than the first's at times)
    assert (out / "README.md").read_text() == dataset_card(load_manifest(out))


def test_a_card_an_older_template_wrote_is_the_tools_own_on_a_rerun(tmp_path, corpus, caplog, monkeypatch):
    """The manifest records the sha256 of the card written with it: a card an older template wrote (here another
    coverage note) is the tool's and replaced without a word after the template changed; a hand edit of it is
    still kept and said. A manifest without that record (older bsl) falls back to rendering the card again."""
    from bsl_pipeline.pipeline.dataset import card as card_module
    from bsl_pipeline.pipeline.dataset.manifest import write_manifest
    from bsl_pipeline.pipeline.dataset.store import load_manifest

    out = tmp_path / "ds"
    with monkeypatch.context() as patch:
        patch.setattr(card_module, "COVERAGE_NOTE", "coverage: what an older template said")
        run_augment(corpus, out, _config(tmp_path))
    old_card = (out / "README.md").read_text()
    assert "Coverage: what an older template said." in old_card and load_manifest(out).card_sha256
    with caplog.at_level(logging.WARNING):
        run_augment(corpus, out, _config(tmp_path))  # the template is today's again
    assert "card" not in caplog.text and not (out / REPLACED_DIR).exists()
    assert (out / "README.md").read_text() == card_module.dataset_card(load_manifest(out)) != old_card

    (out / "README.md").write_text(old_card + "\nMy notes.\n")
    with caplog.at_level(logging.WARNING):
        run_augment(corpus, out, _config(tmp_path))
    (kept,) = _replaced(out)
    assert kept.read_text().endswith("My notes.\n") and "edited by hand" in caplog.text

    caplog.clear()
    data = json.loads((out / "manifest.json").read_text())  # a manifest from before the record
    del data["card_sha256"]
    write_manifest(data, out / "manifest.json")
    with caplog.at_level(logging.WARNING):
        run_augment(corpus, out, _config(tmp_path))  # today's card, rendered again: the tool's
    assert "card" not in caplog.text and len(_replaced(out)) == 1


def test_the_registry_is_never_the_corpus_a_symlink_or_another_datasets_name(tmp_path, corpus):
    from bsl_pipeline.pipeline.base.ownership import OwnershipError

    # run from inside the corpus directory with the default (relative) registry_dir
    proc = _bsl("augment", ".", "--out", str(tmp_path / "ds"), "--methods", "noise", cwd=corpus.parent)
    one_line_error(proc, "registry_dir", "overlap")
    assert sorted(p.name for p in corpus.parent.iterdir()) == ["corpus.txt"]
    real = tmp_path / "elsewhere"
    (real / "datasets").mkdir(parents=True)
    (tmp_path / "linked").symlink_to(real, target_is_directory=True)
    with pytest.raises(OwnershipError, match="symlink"):
        run_augment(corpus, tmp_path / "ds", _config(tmp_path, registry_dir=str(tmp_path / "linked")))
    assert list((real / "datasets").iterdir()) == []
    run_augment(corpus, tmp_path / "a" / "ds", _config(tmp_path))
    with pytest.raises(OwnershipError, match=r"registers .*a/ds under the name 'ds'.*--name"):
        run_augment(corpus, tmp_path / "b" / "ds", _config(tmp_path))
    m = run_augment(corpus, tmp_path / "b" / "ds", _config(tmp_path, name="ds-b"))
    assert m.name == "ds-b" and (tmp_path / "registry" / "datasets" / "ds-b.json").is_file()


def test_export_dir_over_the_base_model_or_the_run_is_refused(tmp_path, tiny_bert_dir):
    from bsl_pipeline.pipeline.base.ownership import OwnershipError
    from bsl_pipeline.training.config import TrainConfig
    from bsl_pipeline.training.run_directory import claim_run_directory

    for export_dir in (tiny_bert_dir, tmp_path / "run", tmp_path / "run" / "model"):
        config = TrainConfig()
        config.model.name_or_path = str(tiny_bert_dir)
        config.train.output_dir = str(tmp_path / "run")
        config.export.dir = str(export_dir)
        config.train.overwrite = True
        with pytest.raises(OwnershipError, match="export.dir"):
            claim_run_directory(config.train, _main_rank(), sources=config.data.sources,
                                model_path=config.model.name_or_path, export=config.export)
    assert not (tmp_path / "run").exists()


def _main_rank():
    from bsl_pipeline.training.distributed import DistInfo

    return DistInfo(rank=0, world_size=1, local_rank=0)


@pytest.mark.parametrize("content", ["dir", b"\xff\xfe{not utf-8", json.dumps({"pid": 10 ** 30, "host": "H"})])
def test_a_strange_lock_file_gives_one_clear_line(tmp_path, content):
    import socket

    from bsl_pipeline.pipeline.base.ownership import LOCK_NAME, LockedError, WriterLock

    lock = tmp_path / LOCK_NAME
    if content == "dir":
        lock.mkdir()
        with pytest.raises(LockedError, match="not a bsl lock file"):
            WriterLock(tmp_path).acquire()
        assert lock.is_dir()
        return
    if isinstance(content, str):
        lock.write_bytes(content.replace('"H"', json.dumps(socket.gethostname())).encode())
        with WriterLock(tmp_path):  # a pid no process can have: a stale lock, taken over
            assert json.loads(lock.read_text())["pid"] == os.getpid()
        return
    lock.write_bytes(content)
    with pytest.raises(LockedError, match="unreadable lock file"):
        WriterLock(tmp_path).acquire()
