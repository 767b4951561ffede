"""An `export.dir` outside the run is the run's own only while its marker proves it (written for that folder, by that
run): a copied or planted marker, another run's export and a symbolic link are refused when the run sets up, before
the model loads; `--overwrite` moves such a folder whole to `.bsl-replaced/`; a rerun of the run drops only the
files its marker lists with the sha256 they still have; no staging copy is left behind."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from one_line import one_line_error
from tests.training.test_trainer_utils import tiny_config, write_dataset

from bsl_pipeline.pipeline.base.ownership import MARKER_NAME, REPLACED_DIR, OwnershipError, marker_problem

DEAD_PID = 2**22 + 12345  # above any pid Linux gives: no process has it


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    return write_dataset(tmp_path_factory.mktemp("export_dir_data") / "ds", 32, method="noise", seed=0)


def _train(model, data, out, export, extra=()):
    from bsl_pipeline.training.trainer import train

    config = tiny_config(model, [data], out, overrides=["train.max_steps=2", "export.enabled=true",
                                                         f"export.dir={export}", *extra])
    return train(config, disable_progress=True)


def _bsl_train(model, data, out, export, *extra) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "train", "--manifest", str(data), "--output-dir",
                           str(out), "--no-progress", "-o", f"model.name_or_path={model}", "-o", "train.max_steps=2",
                           "-o", "train.batch_size=8", "-o", "objective.bsl.predictor_warmup_steps=0",
                           "-o", f"export.dir={export}", *extra], capture_output=True, text=True, check=False)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _aside(parent: Path, name: str) -> list[Path]:
    """The folders `name` set aside under `parent/.bsl-replaced/<time>/`."""
    return sorted((parent / REPLACED_DIR).glob(f"*/{name}"))


def _files(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): _sha(p) for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_copied_export_is_refused_in_one_line_and_overwrite_sets_it_aside_whole(tiny_bert_dir, dataset, tmp_path):
    exp = tmp_path / "exp"
    _train(tiny_bert_dir, dataset, tmp_path / "runs" / "a", exp / "a")
    copy = exp / "copy"
    shutil.copytree(exp / "a", copy, symlinks=True)  # cp -a: the marker comes along
    with (copy / "README.md").open("a") as fh:
        fh.write("MY NOTES\n")
    (copy / "notes.txt").write_text("mine")
    before = _files(copy)

    proc = _bsl_train(tiny_bert_dir, dataset, tmp_path / "runs" / "b", copy, "-o", "train.seed=5")
    one_line_error(proc, f"export.dir {copy} looks like a bsl export, but its marker was written for {exp / 'a'} "
                         f"(copied or moved here)", "--overwrite", "nothing is deleted")
    assert _files(copy) == before  # nothing touched
    assert not (tmp_path / "runs" / "b").exists()  # refused at set-up: nothing trained

    _train(tiny_bert_dir, dataset, tmp_path / "runs" / "b", copy, ["train.overwrite=true", "train.seed=5"])
    (kept,) = _aside(exp, "copy")
    assert _files(kept) == before  # the whole folder, the weights and the edited README included
    assert (kept / "README.md").read_text().endswith("MY NOTES\n")
    marker = json.loads((copy / MARKER_NAME).read_text())
    assert marker_problem(copy, marker) is None and marker["run"]["path"] == str((tmp_path / "runs" / "b").resolve())


@pytest.mark.parametrize("marker, problem", [
    ({"tool": "bsl", "kind": "sentence-transformers-export"}, "looks like a bsl export, but its marker holds no claim id"),
    # a marker with an id and this folder's path, that no run of this folder wrote
    ({"tool": "bsl", "kind": "sentence-transformers-export", "id": "0" * 32, "path": "HERE"},
     "holds the export of another run"),
    ({"tool": "bsl", "kind": "dataset", "id": "0" * 32, "path": "HERE"}, "holds a bsl dataset, not a bsl export"),
])
def test_a_planted_marker_proves_nothing(tiny_bert_dir, dataset, tmp_path, marker, problem):
    planted = tmp_path / "exp" / "planted"
    planted.mkdir(parents=True)
    (planted / "model.safetensors").write_text("precious weights")
    (planted / "README.md").write_text("my readme")
    marker = {k: str(planted.resolve()) if v == "HERE" else v for k, v in marker.items()}
    (planted / MARKER_NAME).write_text(json.dumps(marker))
    before = _files(planted)
    with pytest.raises(OwnershipError, match=f"export.dir {planted} {problem}"):
        _train(tiny_bert_dir, dataset, tmp_path / "run", planted)
    assert _files(planted) == before and not (tmp_path / "run").exists()

    _train(tiny_bert_dir, dataset, tmp_path / "run", planted, ["train.overwrite=true"])
    (kept,) = _aside(planted.parent, "planted")
    assert _files(kept) == before
    assert (planted / "modules.json").is_file()


def test_a_rerun_of_the_run_drops_only_its_listed_files_and_another_run_is_refused(tiny_bert_dir, dataset, tmp_path):
    exp, run_a = tmp_path / "exp" / "a", tmp_path / "runs" / "a"
    _train(tiny_bert_dir, dataset, run_a, exp)
    marker = json.loads((exp / MARKER_NAME).read_text())
    listed = {name: sha for name, sha in _files(exp).items() if name != MARKER_NAME}
    assert marker["files"] == listed and "model.safetensors" in listed
    # A rerun of the finished run has nothing to do; it leaves the export as it is.
    assert _train(tiny_bert_dir, dataset, run_a, exp, ["train.resume=auto"]).already_finished
    assert json.loads((exp / MARKER_NAME).read_text()) == marker

    with (exp / "README.md").open("a") as fh:
        fh.write("MY NOTES\n")
    (exp / "notes.txt").write_text("mine")
    old_weights = _sha(exp / "model.safetensors")
    assert _train(tiny_bert_dir, dataset, run_a, exp, ["train.resume=auto", "train.max_steps=3"]).step == 3
    (kept,) = _aside(exp.parent, "a")
    # the weights and the other files it wrote are dropped; the edited README and the user's file are kept
    assert sorted(_files(kept)) == ["README.md", "notes.txt"]
    assert (kept / "README.md").read_text().endswith("MY NOTES\n") and (kept / "notes.txt").read_text() == "mine"
    assert _sha(exp / "model.safetensors") != old_weights and not (exp / "notes.txt").exists()

    # Another run exporting into run a's export.dir: refused at set-up, as the run directory of another run is.
    before = _files(exp)
    with pytest.raises(OwnershipError, match=rf"export.dir {exp} holds the export of another run \({run_a.resolve()}\)"):
        _train(tiny_bert_dir, dataset, tmp_path / "runs" / "b", exp)
    assert _files(exp) == before and not (tmp_path / "runs" / "b").exists()
    _train(tiny_bert_dir, dataset, tmp_path / "runs" / "b", exp, ["train.overwrite=true"])
    assert [_files(p) for p in _aside(exp.parent, "a")][-1] == before  # run a's export, whole


def test_a_symlinked_export_dir_is_refused_at_set_up_in_one_line(tiny_bert_dir, dataset, tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    link = tmp_path / "exp" / "linked"
    link.parent.mkdir()
    link.symlink_to(target, target_is_directory=True)
    proc = _bsl_train(tiny_bert_dir, dataset, tmp_path / "run", link)
    one_line_error(proc, f"export.dir {link} is a symbolic link", "leaves the link alone")
    assert not (tmp_path / "run").exists()  # before training, not after it
    assert sorted(p.name for p in link.parent.iterdir()) == ["linked"] and list(target.iterdir()) == []
    with pytest.raises(OwnershipError, match="is a symbolic link"):
        _train(tiny_bert_dir, dataset, tmp_path / "run", link, ["train.overwrite=true"])
    assert link.is_symlink() and list(target.iterdir()) == []


def test_a_failed_export_leaves_no_staging_copy_and_a_killed_runs_leftover_is_cleared(tiny_bert_dir, dataset, tmp_path,
                                                                                      monkeypatch):
    from bsl_pipeline.training import export as export_module

    exp = tmp_path / "exp" / "model"
    exp.parent.mkdir()
    leftover = exp.parent / f".model.staging-{DEAD_PID}-abcd1234"  # a run killed while it staged this export
    leftover.mkdir()
    (leftover / "model.safetensors").write_text("a half-written export")
    other = exp.parent / f".model.v2.staging-{DEAD_PID}-abcd1234"  # the leftover of another folder, model.v2
    other.mkdir()

    def broken_card(*_args, **_kwargs):
        raise OSError("No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(export_module, "model_card", broken_card)
        with pytest.raises(OSError, match="No space left"):
            _train(tiny_bert_dir, dataset, tmp_path / "run", exp)
    assert sorted(p.name for p in exp.parent.iterdir()) == [other.name]  # neither its own staging nor the killed one's
    # The run's final/ is there; its rerun writes the export.
    result = _train(tiny_bert_dir, dataset, tmp_path / "run", exp, ["train.resume=auto"])
    assert result.export_dir == exp and (exp / "modules.json").is_file()
    assert sorted(p.name for p in exp.parent.iterdir()) == [other.name, "model"]
    assert os.listdir(exp.parent / other.name) == []
