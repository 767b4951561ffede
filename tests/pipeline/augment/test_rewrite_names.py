"""The name rules of the `rewrites` method (`pipeline.augment.rewrite_rules.names`) beyond their cases (golden and
refused: `cases/names.json`, tests/pipeline/augment/test_rewrite_cases.py)."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
from bsl_pipeline.pipeline.augment.augmenters.rewrites import RewritesConfig, tokenize
from bsl_pipeline.pipeline.augment.rewrite_rules.names import NAME_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.text import Refusal


def test_a_sentence_with_both_styles_is_left_alone():
    text = "The U.S. and the United States are one country."
    assert NAME_RULES["abbreviation"](text, tokenize(text), RewritesConfig()) == Refusal("both_styles")


def test_the_augmenter_applies_the_name_rules():
    aug = build_augmenter("rewrites", {"rules": [*NAME_RULES, "a_lot", "however"]})  # with two rules of phrases, prose
    texts = ["Gov. Rick Perry opposes expansion of gambling.", "Many people are on the beach.",
             "However, the company said it would appeal.", "A dog runs on the beach."]
    pairs = list(aug.augment([SourceRecord(source_id=f"r{i}", text=t) for i, t in enumerate(texts)], 0))
    assert [p.info["rules"] if p.reject is None else p.reject for p in pairs] == [
        ["abbreviation"], ["a_lot"], ["however"], "no_rule_applies"]
    assert pairs[2].view2 == "The company, however, said it would appeal."
