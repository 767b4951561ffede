"""The clause-marker rules of the `rewrites` method (`pipeline.augment.rewrite_rules.markers`) beyond their cases
(golden and refused: `cases/markers.json`, tests/pipeline/augment/test_rewrite_cases.py)."""

from __future__ import annotations

import pytest

from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
from bsl_pipeline.pipeline.augment.rewrite_rules.future import FUTURE_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.markers import MARKER_RULES, _reduce_passive
from bsl_pipeline.pipeline.augment.rewrite_rules.text import tokenize


def test_the_augmenter_applies_the_marker_rules():
    aug = build_augmenter("rewrites", {"rules": [*MARKER_RULES, *FUTURE_RULES]})
    texts = ["Supreme Court to Hear Voting Rights Act Case", "He added that prosecutors will seek the death penalty.",
             "The report which was released yesterday is long.", "Obama signs the bill into law"]
    pairs = list(aug.augment([SourceRecord(source_id=f"r{i}", text=t) for i, t in enumerate(texts)], 0))
    assert [p.info["rules"] if p.reject is None else p.reject for p in pairs] == [
        ["headline_will"], ["that"], ["relative"], "no_rule_applies"]
    assert pairs[2].view2 == "The report that was released yesterday is long."


@pytest.mark.parametrize("source,expected", [
    ("The council approved a program that is designed to help workers.",
     "The council approved a program designed to help workers."),
    ("We read the report that was released on Monday.", "We read the report released on Monday."),
    ("The method that is widely used in schools works.", "The method widely used in schools works."),
    ("She has a dog which is trained to find drugs.", "She has a dog trained to find drugs."),
    ("I bought the book that was recommended by my friend yesterday.",
     "I bought the book recommended by my friend yesterday."),
    ("a theme that is repeated or elaborated in a piece of music.",
     "a theme repeated or elaborated in a piece of music."),
])
def test_the_passive_reduction_where_the_pronoun_swap_comes_first(source, expected):
    # the rule swaps "which" <-> "that" in these; the reduction itself gives the other view
    assert _reduce_passive(source, tokenize(source)) == expected
