"""Every rewrite rule's cases, from its family's data file (pipeline/augment/rewrite_rules/cases/<family>.json, read
by `rewrite_rules.catalog`): each golden source is rewritten as written, by the rule and by the augmenter with only
that rule; each refused sentence gets no rewrite, refused by the guard the file names; the table lists every rule
once, in the family module that defines it, with the guards its code names and at least one golden case."""

from __future__ import annotations

import ast
import inspect
import json
from functools import lru_cache

import pytest
from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
from bsl_pipeline.pipeline.augment.augmenters.rewrites import RULE_FUNCTIONS, RULES, RewritesConfig, tokenize
from bsl_pipeline.pipeline.augment.rewrite_rules.catalog import (
    FAMILIES, families, load_family, rule_specs, rules_table_markdown,
)
from bsl_pipeline.pipeline.augment.rewrite_rules.text import Refusal

SPECS = rule_specs()
GOLDEN = [(r.name, c.source, c.view) for r in SPECS.values() for c in r.golden]
REFUSED = [(r.name, c.source, c.guard) for r in SPECS.values() for c in r.refused]


@lru_cache(maxsize=None)
def _augmenter(rule: str):
    return build_augmenter("rewrites", {"rules": [rule]})


@pytest.mark.parametrize("rule,source,expected", GOLDEN)
def test_golden(rule, source, expected):
    assert RULE_FUNCTIONS[rule](source, tokenize(source), RewritesConfig()) == expected
    pair = next(_augmenter(rule).augment([SourceRecord(source_id="golden", text=source)], seed=0))
    assert (pair.reject, pair.view1, pair.view2, pair.info["rules"]) == (None, source, expected, [rule])


@pytest.mark.parametrize("rule,source,guard", REFUSED)
def test_refused(rule, source, guard):
    got = RULE_FUNCTIONS[rule](source, tokenize(source), RewritesConfig())
    assert got == (Refusal(guard) if guard else None)


def _guards_in_code(rule: str) -> list[str]:
    """The guard names `Refusal("...")` calls give in the rule's function and in the functions of its module that
    it names (calls or passes on), directly or through others."""
    function = RULE_FUNCTIONS[rule]
    defs = {n.name: n for n in ast.parse(inspect.getsource(inspect.getmodule(function))).body
            if isinstance(n, ast.FunctionDef)}
    todo, seen, guards = [function.__name__], set(), []
    while todo:
        name = todo.pop()
        seen.add(name)
        nodes = list(ast.walk(defs[name]))
        guards += [n.args[0].value for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                   and n.func.id == "Refusal"]
        todo += [n.id for n in nodes if isinstance(n, ast.Name) and n.id in defs and n.id not in seen]
    return list(dict.fromkeys(guards))


def test_the_table_lists_every_rule_once_in_its_family_with_its_guards():
    assert list(SPECS) == list(RULES)
    for spec in SPECS.values():
        assert RULE_FUNCTIONS[spec.name].__module__.rsplit(".", 1)[1] == spec.family, spec.name
        assert sorted(spec.guards) == sorted(_guards_in_code(spec.name)), spec.name
        assert spec.golden and spec.does, spec.name
        assert {c.guard for c in spec.refused} - {None} <= set(spec.guards), spec.name
    assert [f.name for f in families()] == list(FAMILIES)


def test_a_family_file_is_read_as_written(tmp_path):
    (tmp_path / "toy.json").write_text(json.dumps({"family": "toy", "about": "A toy family.", "rules": {
        "in_order": {"does": "\"in order to\" -> \"to\"", "guards": ["question"],
                     "golden": [{"source": "He ran in order to win.", "view": "He ran to win."}],
                     "refused": [{"source": "Did he run in order to win?", "guard": "question", "note": "a question"},
                                 {"source": "He ran.", "guard": None}]}}}), encoding="utf-8")
    family = load_family("toy", tmp_path)
    (rule,) = family.rules
    assert (family.about, rule.name, rule.family, rule.guards) == ("A toy family.", "in_order", "toy", ("question",))
    assert [(c.source, c.view) for c in rule.golden] == [("He ran in order to win.", "He ran to win.")]
    assert [(c.guard, c.note) for c in rule.refused] == [("question", "a question"), (None, "")]


def test_the_views_guide_table_is_made_from_the_cases():
    table = rules_table_markdown().splitlines()
    assert table[0] == "| family | rule | what it does | example | guards |"
    rows = [line.split(" | ") for line in table[2:]]
    assert [row[1].strip("`") for row in rows] == list(RULES)
    passive_by = next(row for row in rows if row[1] == "`passive_by`")
    assert passive_by[0] == "| voice" and "`agent_unfit`" in passive_by[4]
    shortest = min(SPECS["contract"].golden, key=lambda c: len(c.source))
    assert f'"{shortest.source}" -> "{shortest.view}"' in table[2]
