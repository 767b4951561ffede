"""Ctrl-C on the commands that end through the shared handler in cli/cli.py, run for real: a SIGINT to the command's
process group (what a terminal sends) while `bsl train` trains, while `bsl evaluate` encodes and while `bsl schedule`
serves. Each ends within seconds with one line and exit code 130, no traceback; `bsl train --resume` then ends
where an uninterrupted run ends, and the served deployments are paused. docs/results/journey.md has the rows."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import torch
from tests.training.test_trainer_utils import write_dataset
from tests.end_to_end.test_command_failures import _env, _run

from bsl_pipeline.cli.failures import interrupt_line
from bsl_pipeline.training.checkpoint_files import load_objective_state

# `bsl` with a test hook: slow steps or batches (so that a SIGINT lands in the middle of the work), and a line on
# stdout each time the work reaches the point the test waits for. Nothing else is changed.
SLOW_TRAIN = """
import sys, time
from bsl_pipeline.training.trainer import Trainer

train_step, log = Trainer.train_step, Trainer._log

def slow_step(self):
    time.sleep(0.3)
    return train_step(self)

def logged(self, window, seconds):
    row = log(self, window, seconds)
    print(f"test hook: logged step {row['step']}", flush=True)
    return row

Trainer.train_step, Trainer._log = slow_step, logged
from bsl_pipeline.cli.cli import main
sys.exit(main(sys.argv[1:]))
"""

SLOW_ENCODE = """
import sys, time
from bsl_pipeline.training.encoder import TransformerEncoder

encode_batch = TransformerEncoder._encode_batch

def slow_batch(self, texts):
    print("test hook: encoding a batch", flush=True)
    time.sleep(0.3)
    return encode_batch(self, texts)

TransformerEncoder._encode_batch = slow_batch
from bsl_pipeline.cli.cli import main
sys.exit(main(sys.argv[1:]))
"""

HOOK = "test hook:"


def _after(lines: list[str], marker: str) -> list[str]:
    """The command's own lines from the first `marker` line on (the hook's lines left out)."""
    first = next(i for i, line in enumerate(lines) if marker in line)
    return [line for line in lines[first:] if not line.startswith(HOOK)]


def _losses(run: Path) -> dict[int, str]:
    with open(run / "metrics.csv", newline="", encoding="utf-8") as f:
        return {int(row["step"]): row["loss"] for row in csv.DictReader(f)}


def test_ctrl_c_on_train_ends_in_seconds_and_resume_ends_where_an_uninterrupted_run_ends(tmp_path, tiny_bert_dir):
    data = write_dataset(tmp_path / "ds", 64, method="noise", seed=0)
    settings = ["-m", str(data), "-o", f"model.name_or_path={tiny_bert_dir}", "-o", "model.max_length=32",
                "-o", "train.max_steps=8", "-o", "train.batch_size=4", "-o", "train.save_every=1",
                "-o", "train.log_every=1", "-o", "objective.bsl.predictor_warmup_steps=0", "-o", "train.seed=3"]
    run = tmp_path / "run"
    # Step 1 was saved before step 2 is logged: the SIGINT comes while step 2 is saved or step 3 trains.
    seconds, lines, code = _run([sys.executable, "-c", SLOW_TRAIN, "train", "--output-dir", str(run), *settings],
                                tmp_path, _env(), timeout=240, sigint_after=f"{HOOK} logged step 2")
    text = "\n".join(lines)
    assert code == 130, text
    assert seconds < 10, f"{seconds:.1f} s from Ctrl-C to exit:\n{text}"
    # The line names the checkpoint --resume continues from: the last one saved (step 1, or 2 when it was saved).
    saved = sorted((run / "checkpoints").iterdir())
    step = int(saved[-1].name.removeprefix("step-"))
    assert _after(lines, "logged step 2") == [
        f"interrupted; rerun with --resume to continue from step {step} ({saved[-1]})"], text
    assert step in (1, 2) and "Traceback" not in text
    assert not (run / "final").exists() and (run / "checkpoints" / "step-00000001").is_dir()

    _, lines, code = _run([sys.executable, "-m", "bsl_pipeline.cli", "train", "--output-dir", str(run), "--resume",
                           *settings], tmp_path, _env(), timeout=240)
    assert code == 0, "\n".join(lines)
    whole = tmp_path / "whole"
    _, lines, code = _run([sys.executable, "-m", "bsl_pipeline.cli", "train", "--output-dir", str(whole), *settings],
                          tmp_path, _env(), timeout=240)
    assert code == 0, "\n".join(lines)
    # The same losses step by step and the same weights (online, target, predictor) and data position at the end.
    assert _losses(run) == _losses(whole) and sorted(_losses(run)) == list(range(1, 9))
    resumed, uninterrupted = load_objective_state(run / "final"), load_objective_state(whole / "final")
    assert resumed.keys() == uninterrupted.keys()
    assert all(torch.equal(value, uninterrupted[name]) for name, value in resumed.items())
    states = [torch.load(r / "final" / "trainer_state.pt", weights_only=True) for r in (run, whole)]
    assert states[0]["step"] == states[1]["step"] == 8 and states[0]["data"] == states[1]["data"]
    # The completed run removed its periodic checkpoints, in both (final/ supersedes them).
    assert not (whole / "checkpoints").exists()
    assert not (run / "checkpoints").exists(), list((run / "checkpoints").rglob("*"))


# `bsl train` run as the program (main() reads sys.argv), with slow steps and a slow atexit callback registered
# during the run: the cleanup after the first Ctrl-C takes long enough for a second one to land in it.
SLOW_TRAIN_SLOW_EXIT = SLOW_TRAIN.replace("sys.exit(main(sys.argv[1:]))", "") + """
import atexit

def cleanup():
    print("test hook: cleaning up", flush=True)
    time.sleep(60)
    print("test hook: cleaned up", flush=True)

hooked_step = Trainer.train_step

def registering_step(self):
    if self.state.step == 0:
        atexit.register(cleanup)
    return hooked_step(self)

Trainer.train_step = registering_step
from bsl_pipeline.cli.program import main as program  # the console script's entry point, as a user runs `bsl`
sys.exit(program())
"""


def test_ctrl_c_on_a_run_that_saved_nothing_says_so_and_a_second_ctrl_c_exits_at_once(tmp_path, tiny_bert_dir):
    data = write_dataset(tmp_path / "ds", 64, method="noise", seed=0)
    run = tmp_path / "run"
    argv = [sys.executable, "-c", SLOW_TRAIN_SLOW_EXIT, "train", "-m", str(data), "--output-dir", str(run), "-o",
            f"model.name_or_path={tiny_bert_dir}", "-o", "model.max_length=32", "-o", "train.max_steps=6", "-o",
            "train.batch_size=4", "-o", "train.log_every=1", "-o", "objective.bsl.predictor_warmup_steps=0",
            "-o", "eval.at_end=false", "-o", "train.tensorboard=false"]
    # The progress bar drawn (BSL_NO_PROGRESS unset): its line must end before the interrupt's line.
    env = _env(BSL_NO_PROGRESS="")
    proc = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    out = b""
    try:
        for marker in (b"test hook: logged step 2\n", b"test hook: cleaning up\n"):
            while marker not in out:
                chunk = proc.stdout.read1(65536)
                assert chunk, out.decode(errors="replace")
                out += chunk
            os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C while training, then again during the cleanup
        out += proc.stdout.read()
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = out.decode(errors="replace")
    lines = text.split("\n")
    assert code == 130, text
    # The bar's line ended: the interrupt's line is a line of its own (no bar drawn before it with \r).
    hint = next(line for line in lines if "interrupted; " in line)
    assert hint == (f"interrupted; no checkpoint was saved in {run} (train.save_every=0 saves none before the end):"
                    f" rerun the same command to start over from step 0"), repr(hint)
    # The second Ctrl-C ended the cleanup at once, with one line: the rest of the cleanup never ran.
    assert lines[lines.index(hint) + 1:] == ["test hook: cleaning up", "interrupted again; exiting without cleanup",
                                             ""], text
    assert "Traceback" not in text and "Exception ignored" not in text
    assert not (run / "checkpoints").exists() and not (run / "final").exists()
    # What the line says is true: the same command starts over, and runs to the end.
    _, lines, code = _run([sys.executable, "-m", "bsl_pipeline.cli", *argv[3:]], tmp_path, _env(), timeout=240)
    assert code == 0, "\n".join(lines)
    assert any(line.startswith("training finished at step 6/6") for line in lines), lines


def test_ctrl_c_on_evaluate_while_encoding_is_one_line(tmp_path, tiny_bert_dir, shared_data):
    argv = [sys.executable, "-c", SLOW_ENCODE, "evaluate", str(tiny_bert_dir), "--tasks", "stsb", "--data-dir",
            str(shared_data), "--cache-dir", str(tmp_path / "emb")]
    seconds, lines, code = _run(argv, tmp_path, _env(XDG_CACHE_HOME=str(tmp_path / "xdg")), timeout=240,
                                sigint_after=f"{HOOK} encoding a batch", delay_s=0.5)
    text = "\n".join(lines)
    assert code == 130, text
    assert seconds < 10, f"{seconds:.1f} s from Ctrl-C to exit:\n{text}"
    assert _after(lines, "encoding a batch") == [interrupt_line("evaluate")], text
    assert "Traceback" not in text


@pytest.mark.parametrize("name, code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_ctrl_c_or_sigterm_on_schedule_while_serving_is_one_line_and_pauses_the_deployments(tmp_path, name, code):
    """SIGTERM (what systemd sends to stop a service) ends it as Ctrl-C does, with its own exit code."""
    from prefect_server import LocalPrefectServer

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text("the dog runs in the park today\nthe cat sat on a big red mat\n")
    schedule = tmp_path / "schedule.yaml"
    schedule.write_text(f"""
deployments:
  - name: journey-serve
    flow: augment
    cron: "0 3 * * *"
    timezone: UTC
    augment:
      corpus: {corpus}
      out_dir: {tmp_path / "out"}
      augment: {{methods: [noise], registry_dir: "", progress: false}}
      runner: {{kind: thread, max_workers: 1}}
""")

    def deployment(server):
        found = httpx.post(f"{server.api_url}/deployments/filter",
                           json={"deployments": {"name": {"any_": ["journey-serve"]}}}, timeout=10).json()
        return found[0] if found else None

    with LocalPrefectServer(tmp_path / "prefect-home") as server:
        proc = subprocess.Popen([sys.executable, "-m", "bsl_pipeline.cli", "schedule", str(schedule), "--api-url",
                                 server.api_url], cwd=tmp_path, env=_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
        try:
            deadline = time.monotonic() + 120
            while (found := deployment(server)) is None and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.5)
            assert found is not None and not found["paused"], proc.poll()
            time.sleep(2.0)  # serving: polling for scheduled runs
            os.killpg(proc.pid, getattr(signal, name))
            sent = time.monotonic()
            out, _ = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        seconds = time.monotonic() - sent
        lines = out.strip().splitlines()
        assert proc.returncode == code, out
        assert seconds < 10, f"{seconds:.1f} s from {name} to exit:\n{out}"
        # The serving header, the deployment, then the one line of the interrupt.
        assert lines[0].startswith("serving") and "journey-serve" in lines[1], out
        assert lines[2:] == [interrupt_line("schedule", terminated=name == "SIGTERM")], out
        assert deployment(server)["paused"]  # the schedules do not fire while nothing serves them


def test_ctrl_c_while_a_checkpoint_is_written_takes_effect_once_it_is_written():
    from bsl_pipeline.training.checkpoint import interrupt_after_writing

    written = []
    try:
        with interrupt_after_writing():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            written.append("all of it")
    except KeyboardInterrupt:
        written.append("then interrupted")
    assert written == ["all of it", "then interrupted"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
