"""A clone without ../shared beside it: the tests still collect (data tests are skipped, naming the reason and the
fix, and fail under CI=true), and the demo trains and says that the evaluation was skipped."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bsl_pipeline.flows.main_job import MainJobConfig, _evaluation_tasks
from bsl_pipeline.evaluation.data_dir import DataDir

REPO = Path(__file__).resolve().parents[2]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("BSL_DATA_DIR", "BSL_SHARED_DATA", "CI",
                                                               "PYTEST_XDIST_WORKER", "PYTEST_CURRENT_TEST")}
    return {**env, **extra}


def _pytest(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)


def test_without_the_reference_files_data_tests_skip_with_the_fix_and_fail_in_ci(tmp_path):
    test = "tests/pipeline/corpus/test_readers.py::test_nli_csv_and_senteval_from_shared_data"
    env = _env(BSL_SHARED_DATA=str(tmp_path / "empty"), PYTHONPATH=str(REPO))
    proc = _pytest(["-q", "-rs", test], env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 skipped" in proc.stdout
    assert f"public data files not found at {tmp_path / 'empty'}: point BSL_SHARED_DATA at" in proc.stdout
    proc = _pytest(["-q", test], {**env, "CI": "true"})
    assert proc.returncode == 1 and "1 error" in proc.stdout and "(CI must run every data test)" in proc.stdout
    proc = _pytest(["-q", "--collect-only", "tests"], env)
    assert proc.returncode == 0 and "error" not in proc.stdout.lower().splitlines()[-1], proc.stdout[-2000:]


def test_evaluation_note_names_the_command_and_what_is_missing(tmp_path):
    cfg = MainJobConfig()
    assert _evaluation_tasks(cfg, DataDir(tmp_path, "BSL_DATA_DIR")) == (
        [], f"evaluation skipped: run `bsl data fetch --to {tmp_path}` ({tmp_path} (from BSL_DATA_DIR) has no "
            f"sts12, sts13, sts14, sts15, sts16, stsb, sickr)")
    (tmp_path / "stsbenchmark").mkdir()
    tasks, note = _evaluation_tasks(cfg, DataDir(tmp_path, "data cache"))
    assert tasks == ["stsb"] and note.startswith("not evaluated: sts12, sts13, sts14, sts15, sts16, sickr: run "
                                                 "`bsl data fetch` (")
    cfg.evaluate = False
    assert _evaluation_tasks(cfg, DataDir(tmp_path, "data cache")) == ([], "evaluation skipped: evaluate=false")


@pytest.mark.slow
def test_demo_in_a_clone_without_data_trains_and_says_evaluation_was_skipped(tmp_path, tiny_bert_dir):
    clone = tmp_path / "parent" / "repo"  # ../shared does not exist beside it
    # The clone's code, importable under the installed names from PYTHONPATH (ahead of the editable install).
    (clone / "bsl_pipeline").mkdir(parents=True)
    (clone / "bsl_pipeline" / "__init__.py").write_text("")
    for name, module in (("cli", "cli"), ("pipeline", "pipeline"), ("training", "training"),
                         ("evaluation", "evaluation"), ("flows", "flows")):
        shutil.copytree(REPO / name, clone / "bsl_pipeline" / module, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "configs", clone / "configs")
    corpus = tmp_path / "sentences.txt"
    corpus.write_text("".join(f"The {w} number {i} walks slowly into the old house today.\n" for i, w in
                              enumerate(["dog", "cat", "man", "woman", "child", "car"] * 4)), encoding="utf-8")
    out = tmp_path / "out"
    env = _env(PYTHONPATH=str(clone), XDG_CACHE_HOME=str(tmp_path / "empty-cache"))
    proc = subprocess.run(
        [sys.executable, "-m", "bsl_pipeline.cli", "demo", "-c", "configs/demo.yaml", "--out", str(out), "-o", f"corpus={corpus}",
         "-o", "use_prefect=false", "-o", "progress=false", "-o", f"training.model.name_or_path={tiny_bert_dir}",
         "-o", "training.train.max_steps=2", "-o", "training.train.batch_size=4",
         "-o", "training.objective.bsl.predictor_warmup_steps=1"],
        cwd=clone, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    expected = (f"evaluation skipped: run `bsl data fetch` (no evaluation data found: no --data-dir, BSL_DATA_DIR "
                f"unset, {tmp_path / 'empty-cache' / 'bsl' / 'data'} empty, no ../shared/data)")
    assert expected in proc.stdout.splitlines()
    assert expected in (out / "report.html").read_text(encoding="utf-8")
    job = json.loads((out / "job.json").read_text())
    assert job["results"] is None and job["evaluation_note"] == expected and job["training"]["step"] == 2
    assert [s["step"] for s in job["steps"]] == ["corpus", "augment corpus", "train", "report"]
