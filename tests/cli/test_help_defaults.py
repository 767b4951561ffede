"""No default is written by hand in help text: a flag that sets a config key shows the field's own default
(`flag_help`), an argparse-only option shows argparse's (`%(default)s`), so the two can never disagree."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bsl_pipeline.cli.cli import build_parser
from bsl_pipeline.cli.config_args import flag_help, key_default
from bsl_pipeline.flows.main_job import MainJobConfig
from bsl_pipeline.evaluation.config import EvaluationConfig

REPO = Path(__file__).resolve().parents[2]
# "default 64", "(default: 0.5)", "defaults to 10": a number typed into a help string.
TYPED_DEFAULT = re.compile(r"default(?:s to|:)?\s+-?\d", re.IGNORECASE)


def typed_defaults(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and TYPED_DEFAULT.search(node.value):
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: {node.value[:80]!r}")
    return found


def test_no_help_string_of_the_command_types_a_number_as_its_default():
    assert typed_defaults(REPO / "cli") == []


def test_the_check_sees_a_typed_default(tmp_path, monkeypatch):
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "x.py").write_text('p.add_argument("--n", help="pairs to show (default 10)")\n')
    monkeypatch.setattr(f"{__name__}.REPO", tmp_path)
    assert typed_defaults(tmp_path / "cli") == ["cli/x.py:1: 'pairs to show (default 10)'"]


def test_flag_help_shows_the_fields_default_nested_keys_included():
    assert flag_help("sentences per pass", EvaluationConfig, "batch_size") == (
        f"sentences per pass (batch_size; default: {EvaluationConfig().batch_size})")
    assert key_default(MainJobConfig, "out_dir") == MainJobConfig().out_dir
    assert flag_help("x", EvaluationConfig, "max_length").endswith("default: none)")


def test_the_commands_help_shows_what_the_config_holds():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    evaluate = sub.choices["evaluate"].format_help()
    assert f"default: {EvaluationConfig().batch_size}" in evaluate
    demo = " ".join(sub.choices["demo"].format_help().split())
    assert f"(out_dir; default: {MainJobConfig().out_dir})" in demo
    inspect = " ".join(sub.choices["inspect"].format_help().split())
    assert "sample seed (default 0)" in inspect  # argparse's own default, formatted by argparse


def test_every_flag_that_takes_a_dataset_says_a_url_goes_and_readers_say_how_to_reach_a_store():
    def subcommands(parser):
        return next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices

    commands = subcommands(build_parser())
    parsers = {**commands, **{f"flow {n}": p for n, p in subcommands(commands["flow"]).items()}}
    for name, dest in (("augment", "out"), ("flow augment", "out"), ("train", "manifest"),
                       ("flow train", "manifest"), ("verify", "dataset"), ("inspect", "dataset")):
        (action,) = [a for a in parsers[name]._actions if a.dest == dest]
        assert "URL such as s3://bucket/prefix" in action.help or "or URL (s3://bucket/prefix)" in action.help, \
            (name, action.help)
    for name in ("verify", "inspect"):
        text = parsers[name].format_help()
        assert "AWS_ENDPOINT_URL=http://HOST:9000" in text and "docs/guide/storage.md" in text, name
    augment = " ".join(parsers["augment"].format_help().split())
    assert "e.g. storage.options.anon=true" in augment and " options.anon" not in augment


def _commands_with_progress_flags() -> dict[tuple[str, ...], object]:
    """Every (sub)command of `bsl` that takes --no-progress, by its words: ("augment",), ("flow", "augment"), ..."""
    import argparse

    found: dict[tuple[str, ...], object] = {}

    def walk(parser, words):
        options = {o: a for a in parser._actions for o in a.option_strings}
        if "--no-progress" in options:
            found[words] = parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, (*words, name))

    walk(build_parser(), ())
    return found


def test_every_command_with_progress_bars_takes_the_same_switches_and_names_a_config_key_only_where_it_has_one(
        capsys):
    from bsl_pipeline.cli.cli import main

    commands = _commands_with_progress_flags()
    assert {("augment",), ("verify",), ("train",), ("evaluate",), ("flow", "augment"), ("demo",),
            ("data", "fetch")} <= set(commands)
    for words, parser in commands.items():
        options = {o: a for a in parser._actions for o in a.option_strings}
        # -q/--quiet is --no-progress wherever there are bars to hide.
        assert options["-q"] is options["--quiet"] is options["--no-progress"], words
        names_key = "-o progress=false" in options["--no-progress"].help
        assert names_key == ("-o progress=true" in options["--progress"].help), words
        if "--print-config" not in options:
            assert not names_key, words  # no config, no key to name
            continue
        # What the help says is what the config takes: the key is accepted exactly where the help names it.
        code = main([*words, "-o", "progress=false", "--print-config"])
        err = capsys.readouterr().err
        assert (code == 0) == names_key, f"{words}: {code} {err}"
        if not names_key:
            assert "unknown config key" in err and "progress" in err, err
