"""`bsl`: the command line, on top of every stage.

All argparse, printing and exit codes live in cli/: one command module per command group under cli/commands/,
each with `register(subparsers)`, calling the library functions of pipeline/, training/ and flows/ and printing
their typed results. This module is the entry point and the subcommand table: it imports the command modules
statically (a stage that fails to import fails `bsl`, it does not silently lose its command) and runs the chosen
one. Command modules import their heavy dependencies inside the commands, so `bsl --help` stays fast.
"""

from __future__ import annotations

import argparse
import sys

from bsl_pipeline.cli.commands import data, dataset, demo, evaluate, flow, review, train
from bsl_pipeline.cli.config_args import PRECEDENCE, loosen_for_print_config
from bsl_pipeline.cli.failures import debug_requested, describe_failure, interrupt_line, interrupted_before_start
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.ownership import remove_unused_claims
from bsl_pipeline.pipeline.base.processes import (
    TERMINATED_EXIT_CODE,
    Terminated,
    end_without_teardown,
    exit_at_once_if_interrupted_again,
    isolated_child_interpreters,
    sigterm_as_interrupt,
)

# The subcommand table, in the order the commands appear in `bsl --help`: dataset (augment, verify, inspect,
# corpus-manifest, corpus, methods), data (fetch), train, evaluate, flow (flow, schedule), demo.
COMMAND_MODULES = (dataset, review, data, train, evaluate, flow, demo)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bsl",
        description="Make sentence view pairs (back-translation, synonyms, masked-LM infill, NLI entailment, ...), "
                    "write them as verified Parquet shards, and train/evaluate BSL sentence encoders on them.",
        epilog="Every stage is configured by YAML (--config) plus -o key=value overrides; `bsl <command> "
               "--print-config` shows all keys. Precedence (later wins): " + PRECEDENCE + ". The bundled encoder "
               "(all-MiniLM-L6-v2, no download): `bsl models`. Docs: README.md.")
    parser.add_argument("--debug", action="store_true",
                        help="show the full traceback when a command fails (also BSL_DEBUG=1)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(subparsers)
    return parser


def _chosen_parser(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.ArgumentParser:
    """The parser of the (sub)command `argv` names: `bsl flow augment ...` -> the `flow augment` parser."""
    chosen = parser
    for token in argv:
        actions = [a for a in chosen._actions if isinstance(a, argparse._SubParsersAction)]
        if actions and token in actions[0].choices:
            chosen = actions[0].choices[token]
    return chosen


def _suggestion(parser: argparse.ArgumentParser, token: str) -> str:
    """'; did you mean --out?' for an unknown option close to one of the parser's (a longer spelling of one, or a
    near miss), '' when none is."""
    import difflib

    name = token.split("=", 1)[0]
    options = [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
    close = [o for o in options if name.startswith(o) or o.startswith(name)]
    close = close or difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close and name.startswith("-") else ""


def parse_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """parse_args, except that an argument the command does not know is reported by that command's parser (its
    usage, and the option it probably meant), not by the top-level one (which names no command's options), and that
    `--print-config` needs no positional the command's config does not need."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--print-config" in argv:
        loosen_for_print_config(_chosen_parser(parser, argv))
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        sub = _chosen_parser(parser, argv)
        named = [u.split("=", 1)[0] for u in unknown if u.startswith("-")] or unknown  # not the values after them
        noun = "argument" if len(named) == 1 else "arguments"
        sub.error(f"unrecognized {noun} {' '.join(named)}{_suggestion(sub, named[0])}")
    return args


def _shown(message: object) -> str:
    """An error line as the terminal shows it: a message may quote a dataset's or a file's text."""
    from bsl_pipeline.pipeline.base.storage import shown
    from bsl_pipeline.pipeline.base.text import terminal_safe

    return terminal_safe(shown(str(message)))


def _terminated(exc: BaseException) -> bool:
    """The interrupt came from SIGTERM (`Terminated`, possibly re-raised by a library as a plain interrupt)."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, Terminated):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def _rerun_hint(args: argparse.Namespace) -> str | None:
    """The command's own hint after Ctrl-C (`args.rerun_hint`: a text, or a function that reads what the run left
    behind), None for the shared one; a hint that cannot be worked out gives way to the shared one."""
    hint = getattr(args, "rerun_hint", None)
    if not callable(hint):
        return hint
    try:
        return hint()
    except Exception:  # noqa: BLE001 - the interrupt's line must still be printed
        return None


def main(argv: list[str] | None = None) -> int:
    """Run `bsl` with `argv` (None: the program's own arguments, run as the program: then, after Ctrl-C, the
    process ends without the interpreter's teardown and a second Ctrl-C exits at once)."""
    program = argv is None
    if program:
        end_without_teardown()
    try:
        parser = build_parser()
        args = parse_arguments(parser, argv)
    except KeyboardInterrupt as exc:
        return interrupted_before_start(exc, argv, program)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    debug = args.debug or debug_requested()
    failed = True
    try:
        # SIGTERM ends the command as Ctrl-C does (what it started is stopped), and the servers and workers it
        # starts import nothing from the working directory.
        with sigterm_as_interrupt(), isolated_child_interpreters():
            code = int(args.func(args) or 0)
        failed = code != 0
        return code
    except BSLError as exc:
        if debug:
            raise
        print(f"bsl {args.command}: error: {_shown(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:
        failed = False  # what it wrote is what the rerun resumes from
        if debug:
            raise
        terminated = _terminated(exc)
        code = TERMINATED_EXIT_CODE if terminated else 130
        if program:
            exit_at_once_if_interrupted_again(code)
        print(interrupt_line(args.command, getattr(args, "flow_command", None), terminated=terminated,
                             hint=_rerun_hint(args)), file=sys.stderr)
        return code
    except BrokenPipeError:
        failed = False
        return 0
    except Exception as exc:  # noqa: BLE001 - one line (the traceback with --debug), as for the tool's own errors
        if debug:
            raise
        print(f"bsl {args.command}: error: {_shown(describe_failure(exc))}", file=sys.stderr)
        return 1
    finally:
        if failed:
            remove_unused_claims()


if __name__ == "__main__":
    sys.exit(main())
