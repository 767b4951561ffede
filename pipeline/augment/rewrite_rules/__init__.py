"""The rules of the `rewrites` method, one module per family; each rule is a function (text, tokens, settings) ->
the rewritten text, a `Refusal` naming the guard that refused, or None where it finds nothing to rewrite.
`RULE_FUNCTIONS` maps each rule's name to its function, in the order `RULES` lists."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.rewrite_rules.captions import CAPTION_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.clauses import CLAUSE_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.constructions import CONSTRUCTION_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.contractions import CONTRACTION_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.future import FUTURE_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.grammar import GRAMMAR_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.headlines import HEADLINE_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.markers import MARKER_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.names import NAME_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.objects import OBJECT_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.order import ORDER_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.phrases import PHRASE_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.prose import PROSE_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.sentences import SENTENCE_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.speech import SPEECH_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.text import Refusal, Rule, Tok, tokenize
from bsl_pipeline.pipeline.augment.rewrite_rules.voice import VOICE_RULES

RULE_FUNCTIONS: dict[str, Rule] = {
    **CONTRACTION_RULES, **GRAMMAR_RULES, **ORDER_RULES, **CLAUSE_RULES, **SENTENCE_RULES, **PHRASE_RULES,
    **CONSTRUCTION_RULES, **SPEECH_RULES, **MARKER_RULES, **FUTURE_RULES, **HEADLINE_RULES, **CAPTION_RULES,
    **OBJECT_RULES, **NAME_RULES, **VOICE_RULES, **PROSE_RULES,
}
RULES: tuple[str, ...] = tuple(RULE_FUNCTIONS)

__all__ = ["RULES", "RULE_FUNCTIONS", "Refusal", "Rule", "Tok", "tokenize"]
