"""The checks every rule family of the `rewrites` method gets from its table of cases: each golden sentence is
rewritten as expected, by the rule and by the augmenter with only that rule; each guarded sentence is refused; every
rule of the family is registered and has a golden case.

    from rewrite_cases import family_tests
    test_golden, test_refused, test_family = family_tests(GOLDEN, REFUSED, CLAUSE_RULES)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import pytest
from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
from bsl_pipeline.pipeline.augment.augmenters.rewrites import RULE_FUNCTIONS, RewritesConfig, tokenize


@lru_cache(maxsize=None)
def _augmenter(rule: str):
    return build_augmenter("rewrites", {"rules": [rule]})


def family_tests(golden: list[tuple[str, str, str]], refused: list[tuple[str, str]],
                 family: dict[str, Callable]) -> tuple[Callable, ...]:
    @pytest.mark.parametrize("rule,source,expected", golden)
    def test_golden(rule, source, expected):
        assert RULE_FUNCTIONS[rule](source, tokenize(source), RewritesConfig()) == expected
        pair = next(_augmenter(rule).augment([SourceRecord(source_id="golden", text=source)], seed=0))
        assert (pair.reject, pair.view1, pair.view2, pair.info["rules"]) == (None, source, expected, [rule])

    @pytest.mark.parametrize("rule,source", refused)
    def test_refused(rule, source):
        assert not isinstance(RULE_FUNCTIONS[rule](source, tokenize(source), RewritesConfig()), str)

    def test_family():
        assert {r for r, _, _ in golden} == set(family) and {r for r, _ in refused} <= set(family)
        assert all(RULE_FUNCTIONS[name] is rule for name, rule in family.items())

    return test_golden, test_refused, test_family
