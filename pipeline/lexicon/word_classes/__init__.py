"""The word classes of the `rewrites` method's rules (pipeline.augment.rewrite_rules): every word list a rule reads
is declared here once, named by what its words are or what they are for ("PLACE_PREPOSITIONS" are prepositions of
place, "PREPOSITIONS" all of them), so two rules that need the same class share it and two different classes never
share a name (tests/pipeline/lexicon/test_word_classes.py checks both). Lists are lower-case unless they hold names; a list that
only one guard uses says so in its comment or name.

The classes are grouped by kind, one module each, and all are importable from here by name: `function_words`
(determiners, pronouns, prepositions, conjunctions, auxiliaries, negation, punctuation), `numbers_and_time`, `verbs`
(and participles), `nouns_and_names` (and places), `other_words` (adverbs, adjectives and the rest).
"""

from __future__ import annotations

from bsl_pipeline.pipeline.lexicon.word_classes.function_words import *  # noqa: F403
from bsl_pipeline.pipeline.lexicon.word_classes.numbers_and_time import *  # noqa: F403
from bsl_pipeline.pipeline.lexicon.word_classes.verbs import *  # noqa: F403
from bsl_pipeline.pipeline.lexicon.word_classes.nouns_and_names import *  # noqa: F403
from bsl_pipeline.pipeline.lexicon.word_classes.other_words import *  # noqa: F403
