"""The rewrite rules as a table: for each rule its family, what it does in one line, the names of its guards, and its
cases: golden rewrites (source -> view) and refused sentences (with the guard that refuses them, or none where the
rule finds nothing to rewrite). One data file per family, `cases/<family>.json`, holds its rules in the order of the
family module's table; tests/pipeline/augment/test_rewrite_cases.py checks every case against its rule and every
listed guard against the rule's code (the rule's function and those of its module it calls), and the views guide's
table of rules is made from it (`rules_table_markdown`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bsl_pipeline.pipeline.augment.rewrite_rules import RULE_FUNCTIONS

CASES_DIR = Path(__file__).resolve().parent / "cases"
#: The family modules, in the order their rules are tried.
FAMILIES = tuple(dict.fromkeys(rule.__module__.rsplit(".", 1)[1] for rule in RULE_FUNCTIONS.values()))


@dataclass(frozen=True)
class GoldenCase:
    source: str
    view: str
    note: str = ""


@dataclass(frozen=True)
class RefusedCase:
    source: str
    guard: str | None  # the guard that refuses it; None: the rule finds nothing to rewrite
    note: str = ""


@dataclass(frozen=True)
class RuleSpec:
    name: str
    family: str
    does: str
    guards: tuple[str, ...]
    golden: tuple[GoldenCase, ...]
    refused: tuple[RefusedCase, ...]


@dataclass(frozen=True)
class Family:
    name: str
    about: str
    rules: tuple[RuleSpec, ...]


def load_family(name: str, cases_dir: Path = CASES_DIR) -> Family:
    """One family's file: its one-line summary and its rules with their cases."""
    data = json.loads((cases_dir / f"{name}.json").read_text(encoding="utf-8"))
    rules = tuple(RuleSpec(rule, name, spec["does"], tuple(spec["guards"]),
                           tuple(GoldenCase(**case) for case in spec["golden"]),
                           tuple(RefusedCase(**case) for case in spec["refused"]))
                  for rule, spec in data["rules"].items())
    return Family(name, data["about"], rules)


@lru_cache(maxsize=None)
def families() -> tuple[Family, ...]:
    return tuple(load_family(name) for name in FAMILIES)


def rule_specs() -> dict[str, RuleSpec]:
    """rule name -> its row of the table, in the order the rules are tried."""
    return {rule.name: rule for family in families() for rule in family.rules}


def _example(rule: RuleSpec) -> str:
    """The rule's shortest golden case, as "source" -> "view"."""
    case = min(rule.golden, key=lambda c: (len(c.source), c.source))
    return f'"{case.source}" -> "{case.view}"'


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def rules_table_markdown() -> str:
    """The views guide's table of rules: one row per rule, by family: what it does, its shortest golden case and
    its guards' names."""
    lines = ["| family | rule | what it does | example | guards |", "|---|---|---|---|---|"]
    for family in families():
        for rule in family.rules:
            guards = ", ".join(f"`{g}`" for g in rule.guards) or "-"
            lines.append(f"| {family.name} | `{rule.name}` | {_cell(rule.does)} | {_cell(_example(rule))} | "
                         f"{guards} |")
    return "\n".join(lines)
