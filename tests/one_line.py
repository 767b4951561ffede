"""The check that a command failed as a user should see it: exit status 1, one line on stderr, no traceback."""

from __future__ import annotations

import subprocess


def one_line_error(proc: subprocess.CompletedProcess, *needles: str) -> None:
    """`proc` exited 1 with exactly one line on stderr, no traceback, holding each of `needles`."""
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    for needle in needles:
        assert needle in proc.stderr, (needle, proc.stderr)
