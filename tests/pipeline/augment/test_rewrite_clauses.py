"""The rules that move a sentence's opening clause or phrase to its end of the `rewrites` method
(`pipeline.augment.rewrite_rules.clauses`) beyond their cases (golden and refused: `cases/clauses.json`,
tests/pipeline/augment/test_rewrite_cases.py)."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.augmenters.rewrites import RewritesConfig
from bsl_pipeline.pipeline.augment.rewrite_rules import tokenize
from bsl_pipeline.pipeline.augment.rewrite_rules.clauses import CLAUSE_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.sentences import SENTENCE_RULES


def test_a_sentence_without_an_opening_part_is_left_alone():
    for text in ("He stayed home because it was raining.", "Arafat cracked down on Hamas last year.", "Hi",
                 "In the", ", he said.", "In 2002 , the firm grew ."):
        for rule in [*CLAUSE_RULES.values(), *SENTENCE_RULES.values()]:
            assert not isinstance(rule(text, tokenize(text), RewritesConfig()), str)
