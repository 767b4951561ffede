"""`bsl` as a program: its console script and `python -m bsl_pipeline.cli` start here.

Ctrl-C and SIGTERM are handled from the first line: this module imports nothing heavy, so the handling is in place
before the command table (`cli/cli.py`) and the stages it imports load, which takes a second or more. An interrupt
that comes before the command has started ends as one during it does: the one line, exit code 130 (143 for
SIGTERM), never a traceback; nothing was written, so nothing is cleaned up. One that comes after the command
has finished, while the process exits, ends it at once with the command's exit code.
"""

from __future__ import annotations

from bsl_pipeline.cli.failures import interrupted_before_start
from bsl_pipeline.pipeline.base.processes import end_without_teardown, exit_at_once_if_interrupted, sigterm_as_interrupt


def main() -> int:
    """Run `bsl` with the program's arguments (`cli.cli.main`), Ctrl-C and SIGTERM handled from the start."""
    end_without_teardown()
    with sigterm_as_interrupt():
        try:
            from bsl_pipeline.cli.cli import main as run
        except KeyboardInterrupt as exc:
            return interrupted_before_start(exc, None, program=True)
        code = run()
    exit_at_once_if_interrupted(code)
    return code
