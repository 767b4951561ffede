"""`bsl` as a program: its console script and `python -m bsl_pipeline.cli` start here.

Ctrl-C and SIGTERM are handled from the first line: this module imports nothing heavy, so the handling is in place
before the command table (`cli/cli.py`) and the stages it imports load, which takes a second or more. An interrupt
that comes before the command has started ends as one during it does: the one line, exit code 130 (143 for
SIGTERM), never a traceback; nothing was written, so nothing is cleaned up. One that comes after the command
has finished, while the process exits, ends it at once with the command's exit code.
"""

from __future__ import annotations

import sys

from bsl_pipeline.pipeline.base.processes import (
    TERMINATED_EXIT_CODE,
    Terminated,
    end_without_teardown,
    exit_at_once_if_interrupted,
    exit_at_once_if_interrupted_again,
    sigterm_as_interrupt,
)

# The hint after an interrupt that came before the command started.
NOT_STARTED = "the command had not started; rerun it"


def _command(argv: list[str]) -> tuple[str | None, str | None]:
    """The command and, under `flow`, its flow, as the command line names them (no parser needed)."""
    words = [a for a in argv if not a.startswith("-")]
    return (words[0] if words else None), (words[1] if len(words) > 1 else None)


def interrupted_before_start(exc: KeyboardInterrupt, argv: list[str] | None, program: bool) -> int:
    """Print the interrupt's one line for a command that had not started (`argv`: its arguments, None for the
    program's own) and return its exit code; `program`: the process ends here, and a second interrupt while it does
    exits at once."""
    from bsl_pipeline.cli.failures import interrupt_line

    terminated = isinstance(exc, Terminated)
    code = TERMINATED_EXIT_CODE if terminated else 130
    if program:
        exit_at_once_if_interrupted_again(code)
    command, flow_command = _command(sys.argv[1:] if argv is None else list(argv))
    print(interrupt_line(command, flow_command, terminated=terminated, hint=NOT_STARTED), file=sys.stderr)
    return code


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
