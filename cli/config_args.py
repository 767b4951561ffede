"""How every `bsl` command is declared (`add_command`) and takes its configuration: `--config FILE`,
`-o KEY=VALUE` and `--print-config`.

One precedence rule for every command, later wins:

    dataclass defaults  <-  --config YAML file  <-  dedicated flags (--seed, --output-dir, ...)  <-  -o KEY=VALUE

A command declares its dedicated flags as a mapping from the flag's argparse dest to the config key it sets; the
flags given on the command line become `key=value` overrides placed before the user's `-o`, so an explicit `-o`
always wins and a flag is only a shorter way to write one.

    TRAIN_FLAGS = {"output_dir": "train.output_dir", "resume": "train.resume"}
    config = resolve_config(TrainConfig, args, TRAIN_FLAGS)
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from bsl_pipeline.pipeline.base.config import field_default, load_config, to_dict

T = TypeVar("T")

PRECEDENCE = "defaults <- --config YAML <- dedicated flags <- -o KEY=VALUE"


def key_default(cls: type, key: str) -> Any:
    """The default of config key `key` (dotted) of dataclass `cls`: what a flag's help shows, so that no default is
    written twice."""
    import dataclasses
    import typing

    node: Any = cls
    *parents, name = key.split(".")
    for part in parents:
        node = typing.get_type_hints(node)[part]
    return to_dict(field_default({f.name: f for f in dataclasses.fields(node)}[name]))


def flag_help(text: str, cls: type, key: str) -> str:
    """`text (KEY; default: VALUE)` for a dedicated flag that sets config `key` of `cls`."""
    default = key_default(cls, key)
    shown = "none" if default is None else default
    return f"{text} ({key}; default: {shown})"


@dataclass(frozen=True)
class FlagTarget:
    """A dedicated flag that sets config `keys` to `convert(flag value)` (a constant for on/off flags)."""

    keys: tuple[str, ...]
    convert: Callable[[Any], Any]


def to_value(*keys: str, convert: Callable[[Any], Any] = lambda value: value) -> FlagTarget:
    """The flag's value (optionally converted) goes to every key in `keys`."""
    return FlagTarget(tuple(keys), convert)


def to_constant(key: str, value: Any) -> FlagTarget:
    """An on/off flag (store_true): when given, `key` is set to `value`."""
    return FlagTarget((key,), lambda _flag: value)


# flag dest -> a config key, or a FlagTarget for several keys or a converted value
FlagMap = Mapping[str, "str | FlagTarget"]

# --progress / --no-progress (`add_progress_flags`) as a config's `progress` key.
PROGRESS_FLAG = to_value("progress", convert=lambda value: value == "on")


def add_command(subparsers: Any, name: str, run: Callable[[argparse.Namespace], int], help: str,
                description: str = "", epilog: str = "") -> argparse.ArgumentParser:
    """Declare `bsl NAME` (or a nested command): `help` is its line in the parent's --help, `description` and
    `epilog` are printed as written (wrapped in the source; key lists and examples keep their layout), and
    `run(args)` returns the exit code. Returns the command's parser, for its arguments."""
    parser = subparsers.add_parser(name, help=help, description=description or None, epilog=epilog or None,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.set_defaults(func=run)
    return parser


def add_config_arguments(parser: argparse.ArgumentParser, what: str = "config", *, config_file: bool = True,
                         example: str = "key.sub=value", overrides_dest: str = "overrides",
                         not_needed: tuple[str, ...] = (), config_help: str | None = None) -> None:
    """Declare --config/-c FILE, -o/--set KEY=VALUE (repeatable) and --print-config on a command's parser.
    `not_needed`: the dests of the command's positionals that the config does not need, which --print-config may
    go without (`loosen_for_print_config`); `config_help`: --config's help where the file is more than `what`."""
    parser.not_needed_to_print_config = not_needed
    if config_file:
        parser.add_argument("--config", "-c", metavar="FILE",
                            help=config_help or f"{what} YAML file (same keys as --print-config shows)")
    parser.add_argument("-o", "--set", dest=overrides_dest, action="append", default=[], metavar="KEY=VALUE",
                        help=f"override a key of the {what}, repeatable: -o {example} (YAML value syntax); "
                             "wins over the YAML file and the dedicated flags")
    parser.add_argument("--print-config", action="store_true", help=f"print the resolved {what} as YAML and exit")


def loosen_for_print_config(parser: argparse.ArgumentParser) -> None:
    """Make the positionals a command declared `not_needed` optional on its parser, for a `--print-config` run:
    the config is printed (and checked) without them."""
    for action in parser._actions:
        if not action.option_strings and action.dest in getattr(parser, "not_needed_to_print_config", ()):
            action.required = False
            action.nargs = {"+": "*", None: "?"}.get(action.nargs, action.nargs)


def add_progress_flags(parser: argparse.ArgumentParser, *, in_config: bool = False) -> None:
    """The one set of progress switches of every command that draws bars: --progress, and --no-progress with its
    short form -q/--quiet (the same on every such command); read them with `disable_progress(args)` or, for a
    config's `progress` key, `PROGRESS_FLAG`. `in_config`: the command's config has that key (the help names it
    only then). BSL_NO_PROGRESS=1 hides every bar whatever the flags say."""
    key = PROGRESS_FLAG.keys[0]
    sets, hides = (f"; same as -o {key}=true", f" (same as -o {key}=false)") if in_config else ("", "")
    parser.add_argument("--progress", dest="progress", action="store_const", const="on", default=None,
                        help=f"show progress bars (the default{sets})")
    parser.add_argument("--no-progress", "--quiet", "-q", dest="progress", action="store_const", const="off",
                        help=f"hide progress bars{hides}; BSL_NO_PROGRESS=1 hides every bar of every command")


def disable_progress(args: argparse.Namespace) -> bool | None:
    """The `disable_progress` argument of a library call: True for --no-progress, None when neither flag is given
    (BSL_NO_PROGRESS decides, `pipeline.base.progress.progress_disabled`)."""
    return {"off": True, "on": False}.get(getattr(args, "progress", None))


def _given(value: Any) -> bool:
    return value is not None and value is not False and value != []


def flag_overrides(args: argparse.Namespace, flags: FlagMap) -> list[str]:
    """The dedicated flags given on the command line, as `key=value` overrides (values JSON-encoded, which YAML
    reads back exactly, so a name like `yes` or `1.0` stays a string)."""
    overrides = []
    for dest, target in flags.items():
        value = getattr(args, dest, None)
        if not _given(value):
            continue
        target = target if isinstance(target, FlagTarget) else to_value(target)
        overrides += [f"{key}={json.dumps(target.convert(value))}" for key in target.keys]
    return overrides


def command_overrides(args: argparse.Namespace, flags: FlagMap | None = None, *,
                      overrides_dest: str = "overrides") -> list[str]:
    """Dedicated flags first, then the user's -o overrides (so -o wins)."""
    return flag_overrides(args, flags or {}) + list(getattr(args, overrides_dest, None) or [])


def resolve_config(cls: type[T], args: argparse.Namespace, flags: FlagMap | None = None) -> T:
    """defaults <- --config YAML <- dedicated flags <- -o, type-checked into `cls`."""
    return load_config(cls, getattr(args, "config", None), command_overrides(args, flags))


def print_config(config: Any) -> None:
    """Write a resolved config (a dataclass, or a mapping of them) to stdout as YAML."""
    import yaml

    print(yaml.safe_dump(to_dict(config), sort_keys=False), end="")
