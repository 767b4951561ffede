"""The phrase, construction and speech rules of the `rewrites` method (`pipeline.augment.rewrite_rules.phrases`,
`.constructions`, `.speech`) beyond their cases (golden and refused: `cases/<family>.json`,
tests/pipeline/augment/test_rewrite_cases.py)."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.augmenters.rewrites import RewritesConfig, tokenize
from bsl_pipeline.pipeline.augment.rewrite_rules.constructions import CONSTRUCTION_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.phrases import PHRASE_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.speech import SPEECH_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.text import Refusal


def test_the_rules_are_deterministic_and_do_not_touch_sentences_without_their_phrases():
    plain = "A man is playing a guitar on the stage."
    for rule, function in {**PHRASE_RULES, **CONSTRUCTION_RULES}.items():
        assert function(plain, tokenize(plain), RewritesConfig()) is None, rule  # no phrase: not even a refusal
    text = "Someone said more than 5 people began to cry, um, between the house and the barn."
    rules = {**PHRASE_RULES, **CONSTRUCTION_RULES, **SPEECH_RULES}
    first = {r: f(text, tokenize(text), RewritesConfig()) for r, f in rules.items()}
    assert first == {r: f(text, tokenize(text), RewritesConfig()) for r, f in rules.items()}
    assert first["equivalent"] == "Somebody said more than 5 people began to cry, um, between the house and the barn."
    assert first["to_ing"] == "Someone said more than 5 people began crying, um, between the house and the barn."
    assert first["fillers"] == Refusal("commas_of_sentence")  # between two commas after a word that is no interjection
    assert first["between"] == "Someone said more than 5 people began to cry, um, between the barn and the house."
