"""The one rule for the processes a command starts (pipeline/base/processes.py), run for real with the installed `bsl`
command: no code from the working directory runs in them (a planted `uvicorn.py`, `prefect.py`, `dask.py` or
`distributed.py` would leave a marker file), and they stop with the command: SIGTERM ends `bsl flow augment` with
one line and exit code 143 and its temporary Prefect server is gone (by PID); SIGKILL of the command leaves no
server either (the kernel's parent-death signal)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.end_to_end.test_command_failures import SLOW_BSL, _corpus, _env

from bsl_pipeline.cli.failures import interrupt_line
from bsl_pipeline.pipeline.base.processes import TERMINATED_EXIT_CODE, die_with_parent, python_command

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; parent-death signal")

PLANTED = ("uvicorn", "prefect", "dask", "distributed")


def _bsl() -> list[str]:
    """The installed console script (its own directory, not the working directory, is first on its sys.path)."""
    script = Path(sys.executable).with_name("bsl")
    assert script.is_file(), f"{script}: the package's `bsl` script is not installed"
    return [str(script)]


def _plant(directory: Path) -> None:
    for name in PLANTED:
        (directory / f"{name}.py").write_text(
            f"import pathlib\npathlib.Path({str(directory / (name + '.imported'))!r}).write_text('imported')\n"
            f"raise SystemExit('the planted {name}.py was imported')\n")


def _markers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.glob("*.imported"))


def _children(pid: int) -> dict[int, str]:
    """PID -> command line of the processes whose parent is `pid`."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found[int(entry.name)] = cmdline
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie that nobody reaped is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _wait_gone(pid: int, limit_s: float = 60.0) -> bool:
    deadline = time.monotonic() + limit_s
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    return not _alive(pid)


def test_no_code_from_the_working_directory_runs_in_the_servers_and_workers_a_command_starts(tmp_path):
    """`bsl flow augment` with its temporary Prefect server (`python -m uvicorn`, whose migrations also put "."
    on the path), and with Dask worker processes (spawned interpreters), run in a directory holding planted
    modules: both finish, and no planted module was imported."""
    work = tmp_path / "work"
    work.mkdir()
    _plant(work)
    corpus = _corpus(tmp_path, 20)
    env = _env(PREFECT_HOME=str(tmp_path / "prefect-home"))
    for name, extra in (("thread", []), ("dask", ["--runner", "dask", "--workers", "1"])):
        out = subprocess.run([*_bsl(), "flow", "augment", str(corpus), "--out", str(tmp_path / f"ds-{name}"),
                              "--methods", "noise", *extra], cwd=work, env=env, capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 0, out.stdout + out.stderr
        assert "20 pairs" in out.stdout.strip().splitlines()[-1], out.stdout
        assert _markers(work) == [], f"{name}: {_markers(work)}\n{out.stderr[-3000:]}"


def test_a_local_dask_cluster_keeps_its_scratch_space_private_and_off_a_shared_temporary_folder(tmp_path):
    """Dask puts a worker's scratch folder (by default `$TMPDIR/dask-scratch-space`, reused when it exists and is
    writable) first on the path of the cluster's processes; in a shared /tmp another user may have made that folder
    and planted modules in it. `bsl flow augment --runner dask` gives its local cluster a private folder of its own:
    the shared one is left as it was, none of its modules is imported, and the private one is gone afterwards."""
    shared_tmp = tmp_path / "tmp"
    scratch = shared_tmp / "dask-scratch-space"
    scratch.mkdir(parents=True)
    scratch.chmod(0o777)
    _plant(scratch)
    before = sorted(p.name for p in scratch.iterdir())
    corpus = _corpus(tmp_path, 20)
    env = _env(PREFECT_HOME=str(tmp_path / "prefect-home"), TMPDIR=str(shared_tmp))
    out = subprocess.run([*_bsl(), "flow", "augment", str(corpus), "--out", str(tmp_path / "ds"), "--methods", "noise",
                          "--runner", "dask", "--workers", "1"], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "20 pairs" in out.stdout.strip().splitlines()[-1], out.stdout
    assert sorted(p.name for p in scratch.iterdir()) == before, "the shared scratch folder was used"
    assert _markers(scratch) == []
    assert not [p.name for p in shared_tmp.iterdir() if p.name.startswith("bsl-dask-")], "a private folder was left"


def test_python_command_leaves_the_working_directory_off_sys_path(tmp_path):
    _plant(tmp_path)
    code = "import sys, importlib.util; print(importlib.util.find_spec('uvicorn').origin)"
    origin = subprocess.run(python_command("-c", code), cwd=tmp_path, capture_output=True, text=True, check=True)
    assert origin.stdout.strip() != str(tmp_path / "uvicorn.py")
    # the same interpreter without -P imports the planted file: the check above can fail
    planted = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert planted.stdout.strip() == str(tmp_path / "uvicorn.py")


def test_a_child_started_with_die_with_parent_ends_when_its_parent_is_killed(tmp_path):
    """A parent that starts `sleep` with the parent-death signal, then is SIGKILLed: the sleep ends too."""
    parent = subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys, time\n"
                               "from bsl_pipeline.pipeline.base.processes import die_with_parent\n"
                               "child = subprocess.Popen(['sleep', '600'], preexec_fn=die_with_parent())\n"
                               "print(child.pid, flush=True)\n"
                               "time.sleep(600)\n"], stdout=subprocess.PIPE, text=True)
    try:
        child = int(parent.stdout.readline())
        assert _alive(child)
        parent.kill()
        parent.wait()
        assert _wait_gone(child), "the child outlived its SIGKILLed parent"
    finally:
        if parent.poll() is None:
            parent.kill()
    assert die_with_parent() is not None


def _start_flow(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.Popen, int, list[str]]:
    """`bsl flow augment` (slow augmenter, temporary server) until its flow run has begun; returns the process,
    its server's PID and the lines read so far."""
    corpus = _corpus(tmp_path)
    argv = [sys.executable, "-c", SLOW_BSL, "flow", "augment", str(corpus), "--out", str(tmp_path / "ds"),
            "--methods", "slow", "-F", "augment.corpus.chunk_size=5", "-F", "augment.corpus.min_words=1",
            "-F", "tasks.max_in_flight=2"]
    proc = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    lines: list[str] = []
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        if "Beginning flow run" in line:
            break
    servers = [pid for pid, cmd in _children(proc.pid).items() if "uvicorn" in cmd]
    assert len(servers) == 1, (_children(proc.pid), lines)
    return proc, servers[0], lines


def test_sigterm_ends_flow_augment_with_one_line_and_stops_its_temporary_server(tmp_path):
    env = _env(PREFECT_HOME=str(tmp_path / "prefect-home"))
    proc, server, lines = _start_flow(tmp_path, env)
    try:
        time.sleep(2.0)  # tasks are running
        proc.send_signal(signal.SIGTERM)  # the command alone, as `kill PID` or `timeout` sends it
        out, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        if _alive(server):
            os.kill(server, signal.SIGKILL)
    lines += out.splitlines()
    text = "\n".join(lines)
    assert proc.returncode == TERMINATED_EXIT_CODE, text
    assert lines[-1] == interrupt_line("flow", "augment", terminated=True), text
    assert lines[-1] == "interrupted (terminated); rerun the same command to resume"
    assert "Traceback" not in text, text
    assert _wait_gone(server, 10), "the temporary server outlived the terminated command"


def test_sigkill_of_flow_augment_leaves_no_temporary_server(tmp_path):
    env = _env(PREFECT_HOME=str(tmp_path / "prefect-home"))
    proc, server, _ = _start_flow(tmp_path, env)
    try:
        proc.kill()  # the command alone: nothing of it runs any more, its server must notice by itself
        proc.wait()
        assert _wait_gone(server), "the temporary server outlived its SIGKILLed command"
    finally:
        if _alive(server):
            os.kill(server, signal.SIGKILL)


# `bsl` with two test-only augmenters that print a line per batch and sleep $SLOW_S seconds in it.
BATCH_HOOK = """
import os, sys, time
from bsl_pipeline.pipeline.augment.augmenters import REGISTRY
from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter, ViewPair

class Reversed(Augmenter):
    name = "reversed"
    default_batch_size = 5

    def augment_batch(self, records, seed):
        print("test hook: batch", flush=True)
        time.sleep(float(os.environ.get("SLOW_S", "0")))
        return [ViewPair(r.text, " ".join(reversed(r.text.split(" ")))) for r in records]

class Upper(Reversed):
    name = "upper"

    def augment_batch(self, records, seed):
        pairs = super().augment_batch(records, seed)
        return [ViewPair(p.view1, p.view1.upper()) for p in pairs]

REGISTRY["reversed"] = "__main__:Reversed"
REGISTRY["upper"] = "__main__:Upper"
from bsl_pipeline.cli.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _pairs(dataset: Path) -> list[tuple[str, str, str, str]]:
    import pyarrow.parquet as pq

    rows = []
    for shard in sorted((dataset / "data").glob("*.parquet")):
        table = pq.read_table(shard, columns=["method", "source", "view1", "view2"]).to_pylist()
        rows += [(r["method"], r["source"], r["view1"], r["view2"]) for r in table]
    return sorted(rows)


def test_ctrl_c_with_hundreds_of_queued_tasks_stops_within_a_batch_and_the_rerun_equals_an_uninterrupted_run(tmp_path):
    """200 (chunk, method) tasks of 6 batches each, all queued at once (tasks.max_in_flight=0), 2 threads: after
    the SIGINT each running task stops at its next batch and no queued task starts; the rerun completes the
    dataset, equal to an uninterrupted run's."""
    corpus = _corpus(tmp_path, 3000)
    env = _env(PREFECT_HOME=str(tmp_path / "prefect-home"))

    def argv(out: str) -> list[str]:
        return [sys.executable, "-c", BATCH_HOOK, "flow", "augment", str(corpus), "--out", str(tmp_path / out),
                "--methods", "reversed,upper", "--workers", "2", "-F", "augment.corpus.chunk_size=30",
                "-F", "augment.corpus.min_words=1", "-F", "tasks.max_in_flight=0"]

    proc = subprocess.Popen(argv("ds"), cwd=tmp_path, env={**env, "SLOW_S": "0.3"}, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: list[str] = []
    batches_after = 0
    sent = False
    try:
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("test hook: batch"):
                if sent:
                    batches_after += 1
                elif sum(x.startswith("test hook") for x in lines) == 3:
                    os.killpg(proc.pid, signal.SIGINT)
                    sent = True
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = "\n".join(lines)
    assert proc.returncode == 130, text
    assert lines[-1] == interrupt_line("flow", "augment"), text
    # Each of the 2 threads may finish the batch it was in (and one that started as the signal came); without
    # the cancellation the running tasks finish their 6 batches and the queued ones keep starting.
    assert batches_after <= 4, f"{batches_after} batches after Ctrl-C:\n{text}"
    assert "Traceback" not in text, text

    rerun = subprocess.run(argv("ds"), cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    whole = subprocess.run(argv("whole"), cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert whole.returncode == 0, whole.stdout + whole.stderr
    assert "6000 pairs" in rerun.stdout.strip().splitlines()[-1], rerun.stdout
    assert _pairs(tmp_path / "ds") == _pairs(tmp_path / "whole")
