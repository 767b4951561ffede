"""The rules for headlines and captions of the `rewrites` method (`pipeline.augment.rewrite_rules.headlines`,
`captions`) beyond their cases (golden and refused: `cases/headlines.json`, `cases/captions.json`,
tests/pipeline/augment/test_rewrite_cases.py)."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.augmenters.rewrites import RewritesConfig
from bsl_pipeline.pipeline.augment.rewrite_rules import tokenize
from bsl_pipeline.pipeline.augment.rewrite_rules.captions import CAPTION_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.headlines import HEADLINE_RULES


def test_a_sentence_without_its_form_is_left_alone():
    for text in ("Hi", "Killed", "A man.", ", killed in", "the act of chipping something."):
        for rule in [*HEADLINE_RULES.values(), *CAPTION_RULES.values()]:
            assert not isinstance(rule(text, tokenize(text), RewritesConfig()), str)
