"""The commands as a user lives them, run for real in subprocesses: Ctrl-C (a real SIGINT to the command's process
group, as a terminal sends it, after the work has started), an unreachable Prefect server (a closed port), model
paths that must never reach the hub, `bsl schedule --check` on missing paths, and failed commands that must leave
nothing behind. Each asserts the time to exit, the lines printed and the exit code."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from prefect_server import free_port

REPO_ROOT = Path(__file__).resolve().parents[2]
INTERRUPT_PREFIX = "interrupted; rerun the same command"

# `bsl` with a test-only augmenter registered: 0.4 s per batch, so a SIGINT lands in the middle of the work.
SLOW_BSL = """
import sys, time
from bsl_pipeline.pipeline.augment.augmenters import REGISTRY
from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter, ViewPair

class Slow(Augmenter):
    name = "slow"
    default_batch_size = 5

    def augment_batch(self, records, seed):
        time.sleep(0.4)
        return [ViewPair(r.text, " ".join(reversed(r.text.split(" ")))) for r in records]

REGISTRY["slow"] = "__main__:Slow"
from bsl_pipeline.cli.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "DO_NOT_TRACK": "1", "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
           "HF_HUB_OFFLINE": "1", "BSL_NO_PROGRESS": "1", **extra}
    env.pop("PREFECT_API_URL", None)
    return env


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = 120,
         sigint_after: str | None = None, delay_s: float = 0.0) -> tuple[float, list[str], int]:
    """Run `argv` in its own process group; with `sigint_after`, SIGINT the group `delay_s` after a line containing
    that text appears. Returns (seconds from the SIGINT, or from the start, to exit; output lines; exit code)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    lines: list[str] = []
    sent = None
    try:
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if sigint_after and sent is None and sigint_after in line:
                time.sleep(delay_s)
                os.killpg(proc.pid, signal.SIGINT)
                sent = time.monotonic()
            if time.monotonic() - start > timeout:
                break
        code = proc.wait(timeout=max(1.0, timeout - (time.monotonic() - start)))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    if sigint_after:
        assert sent is not None, f"never saw {sigint_after!r}:\n" + "\n".join(lines)
    return time.monotonic() - (sent or start), lines, code


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _bsl(*args: str) -> list[str]:
    return [sys.executable, "-m", "bsl_pipeline.cli", *args]


def _corpus(tmp_path: Path, n: int = 60) -> Path:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("".join(f"Sentence number {i} talks about the weather near the river.\n" for i in range(n)))
    return corpus


# -- 1. Ctrl-C -------------------------------------------------------------------------------------------------------
def test_ctrl_c_on_flow_augment_with_a_temporary_server_ends_in_seconds_and_the_rerun_resumes(tmp_path):
    corpus = _corpus(tmp_path)
    env = _env(PREFECT_HOME=str(tmp_path / "prefect-home"))
    argv = [sys.executable, "-c", SLOW_BSL, "flow", "augment", str(corpus), "--out", str(tmp_path / "ds"),
            "--methods", "slow", "-F", "augment.corpus.chunk_size=5", "-F", "augment.corpus.min_words=1",
            "-F", "tasks.max_in_flight=2"]
    seconds, lines, code = _run(argv, tmp_path, env, timeout=240, sigint_after="Beginning flow run", delay_s=3.0)
    text = "\n".join(lines)
    assert code == 130, text
    assert seconds < 20, f"{seconds:.1f} s from Ctrl-C to exit:\n{text}"
    assert lines[-1].startswith(INTERRUPT_PREFIX), text
    assert "Traceback" not in text and "ConnectError" not in text and "Error logging to API" not in text, text
    # The temporary server stopped with the flow: nothing of the command's process group is left.
    rerun_s, lines, code = _run(argv, tmp_path, env, timeout=240)
    assert code == 0, "\n".join(lines)
    assert "60 pairs" in lines[-1], lines[-1]


def test_ctrl_c_on_augment_prints_one_line(tmp_path):
    corpus = _corpus(tmp_path)
    argv = [sys.executable, "-c", SLOW_BSL, "augment", str(corpus), "--out", str(tmp_path / "ds"), "--methods",
            "slow", "-o", "corpus.chunk_size=5", "-o", "corpus.min_words=1"]
    # The slow augmenter sleeps in its first batch right after start-up; the progress bar is off, so wait on time.
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    while not (tmp_path / "ds" / ".bsl-lock").exists() and time.monotonic() - start < 60:
        time.sleep(0.05)
    time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGINT)
    sent = time.monotonic()
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130, out
    assert time.monotonic() - sent < 10
    assert out.strip().splitlines() == ["interrupted; rerun the same command to resume"], out


# -- 2. an unreachable Prefect server ----------------------------------------------------------------------------------
def test_an_unreachable_prefect_server_is_one_line_naming_the_url_and_the_fix(tmp_path):
    corpus = _corpus(tmp_path, 10)
    url = f"http://127.0.0.1:{free_port()}/api"  # a closed port
    seconds, lines, code = _run(_bsl("flow", "augment", str(corpus), "--out", str(tmp_path / "ds"), "--methods",
                                     "noise", "--api-url", url), tmp_path, _env())
    assert code == 1 and len(lines) == 1, lines
    assert f"Prefect server not reachable at {url}" in lines[0] and "prefect server start" in lines[0]
    assert seconds < 20
    assert not (tmp_path / "ds").exists()

    schedule = tmp_path / "schedule.yaml"
    schedule.write_text(f"prefect: {{api_url: '{url}'}}\ndeployments:\n  - name: nightly\n    flow: augment\n"
                        f"    augment: {{corpus: {corpus}, out_dir: {tmp_path / 'ds'}, "
                        f"augment: {{methods: [noise]}}}}\n")
    seconds, lines, code = _run(_bsl("schedule", str(schedule)), tmp_path, _env())
    assert code == 1, lines
    assert [line for line in lines if "error" in line] == [lines[-1]] and len(lines) <= 3, lines
    # Where the URL was given, and the fix there: not "unset PREFECT_API_URL", which is not set.
    assert lines[-1] == (f"bsl schedule: error: Prefect server not reachable at {url} (given by prefect.api_url in "
                         f"{schedule}): start it with `prefect server start`, or fix prefect.api_url in {schedule}")
    assert "Traceback" not in "\n".join(lines)
    assert seconds < 30
    seconds, lines, code = _run(_bsl("schedule", str(schedule), "--api-url", url), tmp_path, _env())
    assert code == 1 and lines[-1].endswith(f"{url} (given by --api-url): start it with `prefect server start`, "
                                            f"or give --api-url a running server's API"), lines
    schedule.write_text(schedule.read_text().split("\n", 1)[1])  # no prefect.api_url
    seconds, lines, code = _run(_bsl("schedule", str(schedule)), tmp_path, {**_env(), "PREFECT_API_URL": url})
    assert code == 1 and lines[-1].endswith(f"{url} (given by PREFECT_API_URL): start it with `prefect server "
                                            f"start`, or point PREFECT_API_URL at a running server"), lines


def test_schedule_refuses_to_serve_without_a_running_server(tmp_path):
    """A temporary server would fire no schedules, take no triggered run and end with the command: under a process
    supervisor the service must fail, not serve nothing."""
    corpus = _corpus(tmp_path, 10)
    schedule = tmp_path / "schedule.yaml"
    schedule.write_text(f"deployments:\n  - name: nightly\n    flow: augment\n    cron: '0 2 * * *'\n"
                        f"    augment: {{corpus: {corpus}, out_dir: {tmp_path / 'ds'}, "
                        f"augment: {{methods: [noise]}}}}\n")
    seconds, lines, code = _run(_bsl("schedule", str(schedule)), tmp_path,
                                _env(PREFECT_HOME=str(tmp_path / "prefect-home")))
    assert code == 1, lines
    assert lines == ["bsl schedule: error: bsl schedule needs a running Prefect server: start one (`prefect server "
                     "start --host 127.0.0.1`) and give its API with --api-url, the file's prefect.api_url or "
                     "PREFECT_API_URL (e.g. http://127.0.0.1:4200/api); a temporary server would fire no schedules "
                     "and end with this command"], lines
    assert not (tmp_path / "ds").exists()
    seconds, lines, code = _run(_bsl("schedule", str(schedule), "--check"), tmp_path,
                                _env(PREFECT_HOME=str(tmp_path / "prefect-home")))
    assert code == 0 and lines[-1] == "bsl-augment/nightly: cron '0 2 * * *' (UTC)", lines  # checking needs none


def test_flow_refusals_come_before_any_server_or_flow_run(tmp_path):
    corpus = _corpus(tmp_path, 10)
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("the user's file\n")
    seconds, lines, code = _run(_bsl("flow", "augment", str(corpus), "--out", str(foreign), "--methods", "noise"),
                                tmp_path, _env(PREFECT_HOME=str(tmp_path / "ph")))
    assert code == 1 and len(lines) == 1 and "not created by bsl" in lines[0], lines
    assert seconds < 15
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]
    from tiny_models import build_tiny_bert

    model = build_tiny_bert(tmp_path / "model")
    seconds, lines, code = _run(_bsl("flow", "train", "-m", "NOT_A_DATASET", "--output-dir", str(tmp_path / "run"),
                                     "-o", f"model.name_or_path={model}"), tmp_path, _env())
    assert code == 1 and len(lines) == 1 and "no manifest at NOT_A_DATASET" in lines[0], lines
    assert not (tmp_path / "run").exists()


def test_an_existing_dask_cluster_without_a_prefect_api_is_refused_before_any_server(tmp_path):
    """Its workers would report to this command's temporary server, on this machine's loopback and gone after the
    run (later runs' task runs lost): one line saying what to set, before a server, a flow run or the cluster."""
    address = f"tcp://127.0.0.1:{free_port()}"  # nothing listens there: the refusal must not need the cluster
    seconds, lines, code = _run(_bsl("flow", "augment", str(_corpus(tmp_path, 10)), "--out", str(tmp_path / "out"),
                                     "--methods", "noise", "--runner", "dask", "--dask-address", address),
                                tmp_path, _env(PREFECT_HOME=str(tmp_path / "ph")))
    assert code == 1 and len(lines) == 1, lines
    assert f"--dask-address {address}:" in lines[0] and "set PREFECT_API_URL (or --api-url)" in lines[0], lines
    assert not (tmp_path / "out").exists() and list((tmp_path / "ph").iterdir()) == []  # no server, no database


# -- 3. model paths never reach the hub --------------------------------------------------------------------------------
def test_model_paths_that_do_not_exist_fail_at_once_without_the_hub(tmp_path, shared_data):
    (tmp_path / "runs").mkdir()
    env = _env(HF_ENDPOINT=f"http://127.0.0.1:{free_port()}")  # a hub that cannot be reached
    env.pop("HF_HUB_OFFLINE")
    env.pop("TRANSFORMERS_OFFLINE", None)
    for model, expected in (("runs/nonexist", "model directory runs/nonexist not found"),
                            ("./no-such-model", "model directory no-such-model not found"),
                            ("someorg/some-model", "cannot be reached")):
        seconds, lines, code = _run(_bsl("evaluate", model, "--tasks", "stsb", "--data-dir", str(shared_data)),
                                    tmp_path, env)
        assert code == 1 and len(lines) == 1 and expected in lines[0], lines
        assert seconds < 15, seconds
    seconds, lines, code = _run(_bsl("evaluate", "someorg/some-model", "--tasks", "stsb", "--data-dir",
                                     str(shared_data)), tmp_path, _env())
    assert code == 1 and len(lines) == 1 and "hub is offline" in lines[0], lines
    dataset = tmp_path / "ds"
    dataset.mkdir()
    (dataset / "manifest.json").write_text("{}")
    seconds, lines, code = _run(_bsl("evaluate", str(dataset), "--tasks", "stsb", "--data-dir", str(shared_data)),
                                tmp_path, _env())
    assert code == 1 and len(lines) == 1, lines
    assert "is a directory but not a model" in lines[0] and "dataset directory" in lines[0]
    seconds, lines, code = _run(_bsl("train", "-m", str(dataset), "--output-dir", str(tmp_path / "run"), "-o",
                                     "model.name_or_path=./no-such-model"), tmp_path, _env())
    assert code == 1 and len(lines) == 1 and "no-such-model not found" in lines[0], lines
    assert not (tmp_path / "run").exists()


# -- 4. bsl schedule --check -------------------------------------------------------------------------------------------
def test_schedule_check_warns_of_missing_data_and_names_a_missing_model(tmp_path, shared_data):
    corpus = _corpus(tmp_path, 10)
    example = REPO_ROOT / "configs" / "schedule.example.yaml"
    # The data a deployment reads when it runs may appear later (the example's corpus directory, a dataset no
    # deployment of the file writes): a warning each, and the shipped example checks clean.
    _, lines, code = _run(_bsl("schedule", str(example), "--check"), tmp_path, _env(BSL_DATA_DIR=str(shared_data)))
    assert code == 0 and lines[-2:] == ["bsl-augment/nightly-corpus: cron '0 2 * * *' (UTC)",
                                        "bsl-train/nightly-bsl: cron '0 4 * * *' (UTC)"], lines  # the bundled encoder
    assert [line.split(" - ", 1)[-1] for line in lines if "WARNING" in line] == [
        "deployment 'nightly-corpus' (augment): corpus data/corpus/ does not exist yet; it must exist when the "
        "deployment runs"], lines  # the dataset the train deployment reads is the augment deployment's
    other = tmp_path / "other.yaml"
    other.write_text(example.read_text(encoding="utf-8").replace("manifests: [out/datasets/nightly]",
                                                                 "manifests: [out/datasets/wiki]"))
    (tmp_path / "data" / "corpus").mkdir(parents=True)
    _, lines, code = _run(_bsl("schedule", str(other), "--check"), tmp_path, _env(BSL_DATA_DIR=str(shared_data)))
    assert code == 0 and [line.split(" - ", 1)[-1] for line in lines if "WARNING" in line] == [
        "deployment 'nightly-bsl' (train): dataset out/datasets/wiki does not exist yet; it must exist when the "
        "deployment runs (no augment deployment of this file writes it)"], lines
    # Bad values stay errors, naming the deployment.
    other.write_text(example.read_text(encoding="utf-8").replace("methods: [synonyms, noise]",
                                                                 "methods: [synonyms, bogus]"))
    _, lines, code = _run(_bsl("schedule", str(other), "--check"), tmp_path, _env(BSL_DATA_DIR=str(shared_data)))
    assert code == 1 and lines[-1].startswith("bsl schedule: error: deployment 'nightly-corpus' (augment): unknown "
                                              "method 'bogus'"), lines
    named = tmp_path / "named.yaml"
    named.write_text((REPO_ROOT / "configs" / "schedule.example.yaml").read_text(encoding="utf-8").replace(
        'train: {output_dir: "runs/nightly-bsl/{date}"', 'model: {name_or_path: /models/all-MiniLM-L6-v2}\n'
        '        train: {output_dir: "runs/nightly-bsl/{date}"'))
    _, lines, code = _run(_bsl("schedule", str(named), "--check"), tmp_path, _env(BSL_DATA_DIR=str(shared_data)))
    assert code == 1 and "/models/all-MiniLM-L6-v2 not found" in lines[-1], lines
    assert "nightly-bsl" in lines[-1]
    good = tmp_path / "good.yaml"
    good.write_text(f"deployments:\n  - name: n\n    flow: augment\n    augment: {{corpus: {corpus}, out_dir: "
                    f"{tmp_path / 'out'}, augment: {{methods: [noise]}}}}\n")
    _, lines, code = _run(_bsl("schedule", str(good), "--check"), tmp_path, _env())
    assert code == 0 and lines == ["bsl-augment/n: on demand"], lines


# -- 5. failed commands leave nothing behind ---------------------------------------------------------------------------
def test_a_failed_command_removes_the_output_it_created_and_nothing_else(tmp_path):
    _, lines, code = _run(_bsl("augment", "corpsu.txt", "--out", "ds/m1", "--methods", "noise"), tmp_path, _env())
    assert code == 1 and lines == [f"bsl augment: error: corpus not found: {tmp_path / 'corpsu.txt'}"], lines
    assert not (tmp_path / "ds").exists()
    _, lines, code = _run(_bsl("train", "-m", "not-a-dataset", "--output-dir", "runs/m7", "-o",
                               "model.name_or_path=x"), tmp_path, _env())
    assert code == 1 and len(lines) == 1 and "bsl train: error:" in lines[0], lines
    assert not (tmp_path / "runs").exists()
    kept = tmp_path / "existing"
    kept.mkdir()
    _run(_bsl("augment", str(_corpus(tmp_path, 5)), "--out", str(kept), "--methods", "no-such-method"), tmp_path,
         _env())
    _run(_bsl("train", "-m", "not-a-dataset", "--output-dir", str(kept), "-o", "model.name_or_path=x"), tmp_path,
         _env())
    assert kept.is_dir() and list(kept.iterdir()) == []
