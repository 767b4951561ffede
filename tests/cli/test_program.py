"""`bsl` as a program (cli/program.py): an interrupt at any moment ends in one line and 130 (143 for SIGTERM), run
for real. The signal is sent by the process itself at a chosen point (a test hook), never after a delay: while the
command table imports (before any command starts), and while the process exits after the command finished."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bsl_pipeline.cli.failures import NOT_STARTED, interrupt_line
from small_corpus import write_corpus
from tests.end_to_end.test_command_failures import _env

# `bsl` with a test hook: the process sends itself SIGNAL while the command table (cli/cli.py) imports a command
# module, which takes most of a second on a real run; nothing else is changed.
WHILE_IMPORTING = """
import os, signal, sys

class SignalWhileImporting:
    def find_spec(self, name, path=None, target=None):
        if name == "bsl_pipeline.cli.commands.dataset":
            os.kill(os.getpid(), signal.{signal})
        return None

sys.meta_path.insert(0, SignalWhileImporting())
from bsl_pipeline.cli.program import main
sys.exit(main())
"""

# `bsl` with a test hook: the process sends itself SIGINT from an exit callback, after the command has finished.
WHILE_EXITING = """
import atexit, os, signal, sys, time
from bsl_pipeline.cli.program import main

def interrupt():
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)  # the signal is handled here
    print("test hook: still running", flush=True)

atexit.register(interrupt)
sys.exit(main())
"""


def _bsl(hook: str, tmp_path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", hook, *args], cwd=tmp_path, env=_env(), capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("name, code, terminated", [("SIGINT", 130, False), ("SIGTERM", 143, True)])
def test_an_interrupt_before_the_command_started_is_one_line(tmp_path, name, code, terminated):
    corpus = write_corpus(tmp_path)
    proc = _bsl(WHILE_IMPORTING.replace("{signal}", name), tmp_path, "augment", str(corpus), "--out", "ds",
                "--methods", "noise")
    assert proc.returncode == code, proc.stderr
    assert proc.stderr.splitlines() == [interrupt_line("augment", terminated=terminated, hint=NOT_STARTED)]
    assert proc.stdout == "" and not (tmp_path / "ds").exists()


def test_an_interrupt_after_the_command_finished_ends_the_process_with_its_exit_code(tmp_path):
    corpus = write_corpus(tmp_path)
    proc = _bsl(WHILE_EXITING, tmp_path, "augment", str(corpus), "--out", "ds", "--methods", "noise", "-o",
                "registry_dir=")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("wrote ") and "test hook" not in proc.stdout, proc.stdout
    assert "Traceback" not in proc.stderr and "KeyboardInterrupt" not in proc.stderr, proc.stderr


def test_an_interrupt_while_the_arguments_are_read_is_one_line(monkeypatch, capsys):
    import bsl_pipeline.cli.cli as cli

    def interrupted(*_args, **_kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["flow", "augment", "corpus", "--out", "ds"]) == 130
    assert capsys.readouterr().err.splitlines() == [interrupt_line("flow", "augment", hint=NOT_STARTED)]


def test_a_closed_stdout_at_start_ends_without_a_traceback(tmp_path):
    """Started with its standard output closed (`bsl recipes >&-`, where Python sets sys.stdout to None), the
    program ends with the command's code and no 'Exception ignored' from its end-of-run flush."""
    import os

    proc = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "recipes"], cwd=tmp_path, env=_env(),
                          stderr=subprocess.PIPE, text=True, timeout=300, preexec_fn=lambda: os.close(1))
    assert proc.returncode == 0, proc.stderr
    assert "Exception ignored" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
