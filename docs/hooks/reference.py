"""The configuration and CLI references (docs/reference/configuration.md, cli.md) and the views guide's table of
rewrite rules: generated from the code and committed, so that they read on a code host too. Regenerate them after
changing a config field, a command or a rewrite rule's cases:

    python docs/hooks/reference.py          # rewrites the pages; tests/project/test_docs.py fails while they differ

The configuration reference walks the config dataclasses (the same fields and metadata that feed `--help` and
`--print-config`: pipeline/base/config.py); the CLI reference prints every `bsl` subcommand's argparse help.
Classes are found through entry points that stay put (the command line's parser, the main job's and the schedule
file's type hints, the augmenter registry), so moving a module does not lose its section.
tests/project/test_docs.py imports this module for its checks.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bsl_pipeline.pipeline.base.config import field_default

CONFIG_PAGE = "reference/configuration.md"
CLI_PAGE = "reference/cli.md"


@dataclass
class Row:
    key: str
    type: str
    default: str
    range: str
    help: str
    section: bool = False  # a nested dataclass field (its keys follow), not a leaf


@dataclass
class Section:
    anchor: str
    title: str
    command: str  # how a user sets these keys
    cls: type
    prefix: str = ""
    intro: str = ""
    rows: list[Row] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------------- discovery

def _hint(cls: type, name: str) -> type:
    return typing.get_type_hints(cls)[name]


def augmenter_configs() -> dict[str, type]:
    """Method name -> its augmenter's `config_class`, through the registry."""
    from bsl_pipeline.pipeline.augment import augmenters as registry

    return {name: registry.augmenter_class(name).config_class for name in registry.available_methods()}


def config_sections() -> list[Section]:
    """Every config class a user sets, in the order of the reference page."""
    from bsl_pipeline.flows.main_job import MainJobConfig as main_job
    from bsl_pipeline.flows.schedule import ScheduleConfig as schedule
    from bsl_pipeline.pipeline.augment.job import AugmentConfig as augment
    from bsl_pipeline.evaluation.public_data import DataFetchConfig

    deployment = typing.get_args(_hint(schedule, "deployments"))[0]
    sections = [
        Section("demo", "The main job (`bsl demo`, `make demo`)", "bsl demo -o KEY=VALUE", main_job,
                intro="`configs/demo.yaml` holds these defaults. `training.*` and `evaluation.*` take every key of "
                      "[`bsl train`](#train) and [`bsl evaluate`](#evaluate); the rows below list the keys whose "
                      "demo default differs from theirs."),
        Section("augment", "Augmentation (`bsl augment`)", "bsl augment -o KEY=VALUE", augment,
                intro="Also the `augment:` section of `bsl flow augment` and of a schedule file. Each method's own "
                      "settings go under `method_params.<method>.*`: see [Augmentation methods](#methods)."),
    ]
    for name, cls in augmenter_configs().items():
        sections.append(Section(f"method-{name}", f"Method `{name}`", f"bsl augment -o method_params.{name}.KEY=VALUE",
                                cls, prefix=f"method_params.{name}."))
    sections += [
        Section("train", "Training (`bsl train`)", "bsl train -o KEY=VALUE", _hint(main_job, "training")),
        Section("evaluate", "Evaluation (`bsl evaluate`)", "bsl evaluate -o KEY=VALUE", _hint(main_job, "evaluation")),
        Section("data-fetch", "Public data (`bsl data fetch`)", "bsl data fetch -o KEY=VALUE", DataFetchConfig),
        Section("flow-augment", "Augmentation flow (`bsl flow augment -F`)", "bsl flow augment -F KEY=VALUE",
                _hint(deployment, "augment")),
        Section("flow-train", "Training flow (`bsl flow train -F`)", "bsl flow train -F KEY=VALUE",
                _hint(deployment, "train")),
        Section("flow-evaluate", "Evaluation flow (`bsl flow evaluate`)", "a schedule file's `evaluate:` section",
                _hint(deployment, "evaluate")),
        Section("schedule", "Schedule file (`bsl schedule FILE`)", "bsl schedule FILE -o KEY=VALUE", schedule,
                intro="`deployments[]` is a list; each entry's `augment:`, `train:` and `evaluate:` sections are the "
                      "flow settings above."),
    ]
    documented = {s.cls: s for s in sections}
    for s in sections:
        s.rows = config_rows(s.cls, s.prefix, documented={c: d for c, d in documented.items() if c is not s.cls})
    return sections


# ---------------------------------------------------------------------------------------------------- rows

def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(tp))
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_type_name(a) for a in typing.get_args(tp))
    if origin is not None:
        args = ", ".join(_type_name(a) for a in typing.get_args(tp))
        return f"{getattr(origin, '__name__', str(origin))}[{args}]"
    if tp is type(None):
        return "None"
    if tp is typing.Any:
        return "any"
    return getattr(tp, "__name__", str(tp).replace("typing.", ""))


def _yaml(value: Any) -> str:
    if dataclasses.is_dataclass(value):
        value = dataclasses.asdict(value)
    if value == "":
        return "''"
    text = yaml.safe_dump(value, default_flow_style=True, width=10_000, sort_keys=False).strip()
    return text.removesuffix("\n...").removesuffix("...").strip()


def _nested(tp: Any) -> tuple[str, type] | None:
    """('' | '.<name>' | '[]', dataclass) when a field's type holds a dataclass to walk into."""
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return "", tp
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        for arg in args:
            if arg is not type(None) and _nested(arg):
                return _nested(arg)
    if origin in (list, tuple) and args and dataclasses.is_dataclass(args[0]):
        return "[]", args[0]
    if origin is dict and len(args) == 2 and dataclasses.is_dataclass(args[1]):
        return ".<name>", args[1]
    return None


def _class_doc(cls: type) -> str:
    """The first paragraph of a class's own docstring ('' for the signature @dataclass writes when there is none)."""
    doc = (cls.__doc__ or "").strip()
    if doc.startswith(f"{cls.__name__}("):
        return ""
    return " ".join(doc.split("\n\n")[0].split())


def _default(f: dataclasses.Field, instance: Any) -> Any:
    return getattr(instance, f.name) if instance is not None else field_default(f)


def config_rows(cls: type, prefix: str = "", instance: Any = None,
                documented: dict[type, Section] | None = None) -> list[Row]:
    """One row per field, nested dataclasses walked (their own keys under `<field>.`). A nested class that has a
    section of its own (in `documented`) lists only the keys whose default differs from that class's."""
    documented = documented or {}
    rows: list[Row] = []
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        tp, key = hints[f.name], f"{prefix}{f.name}"
        default = _default(f, instance)
        help_text = f.metadata.get("help", "")
        allowed = str(f.metadata["range"]) if "range" in f.metadata else ""
        nested = _nested(tp)
        if nested:
            tail, sub = nested
            doc = help_text or _class_doc(sub)
            if sub in documented:
                target = documented[sub]
                doc = (doc + " " if doc else "") + f"Every key of [{sub.__name__}](#{target.anchor})."
            rows.append(Row(f"{key}{tail}.*", sub.__name__, "", "", doc, section=True))
            sub_instance = default if (tail == "" and dataclasses.is_dataclass(default)) else None
            sub_rows = config_rows(sub, f"{key}{tail}.", sub_instance, documented)
            if sub in documented:
                own = {r.key.removeprefix(f"{key}{tail}."): r.default for r in config_rows(sub)}
                sub_rows = [r for r in sub_rows
                            if not r.section and own.get(r.key.removeprefix(f"{key}{tail}.")) != r.default]
            rows.extend(sub_rows)
            continue
        shown = "(required)" if default is dataclasses.MISSING else _yaml(default)
        rows.append(Row(key, _type_name(tp), shown, allowed, help_text))
    return rows


def missing_help(sections: list[Section]) -> list[str]:
    """Keys of leaf fields without help text."""
    return [f"{s.cls.__module__}.{s.cls.__name__}: {r.key}" for s in sections for r in s.rows
            if not r.section and not r.help.strip()]


# ---------------------------------------------------------------------------------------------------- pages

def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


_PLAIN = str.maketrans({"<": "&lt;", ">": "&gt;", "*": "\\*", "{": "&#123;", "}": "&#125;"})


def _text_cell(text: str) -> str:
    """Help text as a table cell, shown as written: outside code spans, `<placeholder>` words are escaped (Markdown
    would take them for HTML tags and drop them: "'<mask>' for RoBERTa"), and so are `*` (emphasis: "m*target +
    (1-m)*online") and braces (attribute lists: "e.g. {snli: main}")."""
    parts = re.split(r"(`[^`]*`)", text)
    return _cell("".join(p if p.startswith("`") else p.translate(_PLAIN) for p in parts))


def _code(text: str) -> str:
    if not text:
        return ""
    ticks = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{_cell(text)}{pad}{ticks}"


def _key_cell(key: str) -> str:
    """The key as inline code that may wrap after each dot (<wbr> adds no text)."""
    escaped = (key.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "&#124;")
               .replace("*", "&#42;"))
    return "<code>" + escaped.replace(".", ".<wbr>") + "</code>"


def render_config_page(sections: list[Section]) -> str:
    out = ["# Configuration reference", "",
           "Generated from the config dataclasses (`python docs/hooks/reference.py`): the same fields, defaults, "
           "ranges and help that `--help` and `--print-config` show. How settings combine, later wins:", "",
           "```text",
           "dataclass defaults  <-  --config YAML  <-  dedicated flags (--seed, --output-dir, ...)  <-  -o KEY=VALUE",
           "```", "",
           "`-o` takes dotted keys and YAML values, repeatable: `bsl demo -o training.train.max_steps=300 -o "
           "corpus=my.txt`. `bsl COMMAND --print-config` prints every key with its resolved value. A value outside "
           "its range stops with the key and the range; an unknown key is an error.", ""]
    out.append("| section | set with |")
    out.append("|---|---|")
    for s in sections:
        out.append(f"| [{s.title}](#{s.anchor}) | `{s.command}` |")
    out.append("")
    methods_heading_done = False
    for s in sections:
        if s.anchor.startswith("method-") and not methods_heading_done:
            out += ["## Augmentation methods { #methods }", "",
                    "Each method's settings, under `method_params.<method>.` in the augmentation config "
                    "(`bsl methods` lists them too).", ""]
            methods_heading_done = True
        level = "###" if s.anchor.startswith("method-") else "##"
        out += [f"{level} {s.title} {{ #{s.anchor} }}", "",
                f"`{s.cls.__module__}.{s.cls.__qualname__}`; set with `{s.command}`.", ""]
        if s.intro:
            out += [s.intro, ""]
        if not s.rows:
            out += ["No settings.", ""]
            continue
        out += ["| key | type | default | range | help |", "|---|---|---|---|---|"]
        for r in s.rows:
            key = _key_cell(r.key)
            key = f"<strong>{key}</strong>" if r.section else key
            out.append(f"| {key} | {_text_cell(r.type)} | {_code(r.default)} | {_text_cell(r.range)} | "
                       f"{_text_cell(r.help)} |")
        out.append("")
    return "\n".join(out)


def build_cli_parser() -> argparse.ArgumentParser:
    from bsl_pipeline.cli.cli import build_parser

    return build_parser()


def cli_commands(parser: argparse.ArgumentParser | None = None, prefix: str = "bsl") -> list[tuple[str, str, str]]:
    """(full command, its one-line help, its --help text) for `bsl` and every subcommand, depth first."""
    parser = parser or build_cli_parser()
    found = [(prefix, "", parser.format_help())]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                rows = cli_commands(sub, f"{prefix} {name}")
                rows[0] = (rows[0][0], helps.get(name, ""), rows[0][2])
                found += rows
    return found


def render_cli_page(commands: list[tuple[str, str, str]]) -> str:
    out = ["# Command-line reference", "",
           "Generated from the `bsl` command's argparse parsers (`cli/cli.py`; `python docs/hooks/reference.py`): "
           "each command's `--help`, as printed in an 100-column terminal.", "", "| command | what it does |",
           "|---|---|"]
    for name, line, _ in commands[1:]:
        out.append(f"| [`{name}`](#{name.replace(' ', '-')}) | {_text_cell(line)} |")
    out.append("")
    for name, _, text in commands:
        out += [f"## `{name}` {{ #{name.replace(' ', '-')} }}", "", "```text", text.rstrip(), "```", ""]
    return "\n".join(out)


def _cli_text() -> str:
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        return render_cli_page(cli_commands())
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old


# ---------------------------------------------------------------------------------------------------- the pages

RULES_PAGE = "guide/views.md"
RULES_START = "<!-- rewrite rules table: generated from the rules' cases by `python docs/hooks/reference.py` -->"
RULES_END = "<!-- end of the rewrite rules table -->"


def views_guide(text: str) -> str:
    """The views guide with its table of rewrite rules (between RULES_START and RULES_END) made anew from the rules'
    cases (pipeline/augment/rewrite_rules/cases/<family>.json), so that every example it shows is a tested case."""
    from bsl_pipeline.pipeline.augment.rewrite_rules.catalog import rules_table_markdown

    head, sep, rest = text.partition(RULES_START)
    _, sep_end, tail = rest.partition(RULES_END)
    if not sep or not sep_end:
        raise ValueError(f"docs/{RULES_PAGE} lacks the rewrite rules table's markers")
    return f"{head}{RULES_START}\n{rules_table_markdown().strip()}\n{RULES_END}{tail}"


def reference_pages(docs_dir: Path = Path(__file__).resolve().parents[1]) -> dict[str, str]:
    """Path under docs/ -> the page's text, as generated now."""
    return {CONFIG_PAGE: render_config_page(config_sections()) + "\n", CLI_PAGE: _cli_text() + "\n",
            RULES_PAGE: views_guide((docs_dir / RULES_PAGE).read_text(encoding="utf-8"))}


def write_pages(docs_dir: Path = Path(__file__).resolve().parents[1]) -> list[Path]:
    """Rewrite the committed reference pages under `docs_dir`; returns the pages whose text changed."""
    changed = []
    for uri, text in reference_pages(docs_dir).items():
        page = docs_dir / uri
        if not page.is_file() or page.read_text(encoding="utf-8") != text:
            page.write_text(text, encoding="utf-8")
            changed.append(page)
    return changed


if __name__ == "__main__":
    for page in write_pages():
        print(f"wrote {page}")
