"""The journey, step two, run for real with the installed `bsl`: every `bsl flow` command applies --api-url and
--prefect-home before Prefect loads (no internal warning, a closed port named before any work), and the train
flow runs no code from the working directory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from prefect_server import free_port
from test_processes import _bsl, _markers, _plant
from test_trainer_utils import write_dataset
from test_user_journey import _env

TINY_TRAIN = ("-o", "model.max_length=32", "-o", "train.batch_size=8", "-o", "train.max_steps=2", "-o",
              "train.device=cpu", "-o", "train.tensorboard=false", "-o", "eval.at_end=false", "-o",
              "objective.bsl.predictor_warmup_steps=0")


def test_flow_commands_name_a_closed_api_url_before_any_work(tmp_path, tiny_bert_dir):
    dataset = write_dataset(tmp_path / "ds")
    url = f"http://127.0.0.1:{free_port()}/api"  # a closed port
    commands = {
        "train": ["flow", "train", "-m", str(dataset), "--output-dir", str(tmp_path / "run"), "-o",
                  f"model.name_or_path={tiny_bert_dir}", *TINY_TRAIN, "--api-url", url],
        "evaluate": ["flow", "evaluate", str(tiny_bert_dir), "--data-dir", str(tmp_path), "--api-url", url],
    }
    for name, argv in commands.items():
        out = subprocess.run([*_bsl(), *argv], cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=120)
        lines = out.stderr.strip().splitlines()
        assert out.returncode == 1 and len(lines) == 1, f"{name}: {out.stderr}"
        assert f"Prefect server not reachable at {url}" in lines[0], f"{name}: {lines[0]}"
        assert "RuntimeWarning" not in out.stderr + out.stdout
    assert not (tmp_path / "run").exists()


def test_flow_train_uses_prefect_home_and_imports_nothing_from_the_working_directory(tmp_path, tiny_bert_dir):
    dataset = write_dataset(tmp_path / "ds")
    work = tmp_path / "work"
    work.mkdir()
    _plant(work)
    home = tmp_path / "prefect-home"
    out = subprocess.run([*_bsl(), "flow", "train", "-m", str(dataset), "--output-dir", str(tmp_path / "run"), "-o",
                          f"model.name_or_path={tiny_bert_dir}", *TINY_TRAIN, "--prefect-home", str(home)],
                         cwd=work, env=_env(PREFECT_HOME=str(tmp_path / "not-this-one")), capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "trained to step 2/2" in out.stdout, out.stdout
    assert (home / "prefect.db").is_file() and not (tmp_path / "not-this-one").exists()
    assert "RuntimeWarning" not in out.stderr
    assert _markers(work) == []
