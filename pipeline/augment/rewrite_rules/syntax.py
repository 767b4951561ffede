"""Shallow syntactic tests the rule families share, on tokens (`text.Tok`) and lemminflect's word classes: whether a
token is a finite verb, whether words hold one, whether a token is a plural noun. Each is one definition used by
every family that needs it (tests/test_rewrite_syntax.py checks them on their own)."""

from __future__ import annotations

import re

from bsl_pipeline.pipeline.augment.rewrite_rules.text import Tok, _is_form, _is_lower_word, _lemmas, is_noun
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import AUXILIARIES, DETERMINERS, SUBJECT_PRONOUNS


def is_finite_verb(tok: Tok) -> bool:
    """A lower-case auxiliary, or a lower-case past or -s form that is no noun unless past ("said", "has";
    not "cost", "plans")."""
    if tok.low in AUXILIARIES:
        return tok.text.islower()
    if not _is_lower_word(tok):
        return False
    return (_is_form(tok.low, "VBD") or _is_form(tok.low, "VBZ")) and not (
        is_noun(tok.low) and not _is_form(tok.low, "VBD"))


def has_finite_verb(part: list[Tok]) -> bool:
    """Whether words have a finite verb or an auxiliary. "increased" after a determiner is none; a verb that may be
    a noun counts after a subject pronoun ("he works"), after a plural noun in its base form ("men pose"), or when
    no "of"/"and"/"or" comes before it ("A child rides"; in "the volatility of producer and consumer prices" the
    word "prices" is a noun)."""
    for m, t in enumerate(part):
        if t.low in AUXILIARIES or re.search(r"n't$|'(s|m|re|ve|ll|d)$", t.low):
            return True
        if m == 0 or not _is_lower_word(t) or "VERB" not in _lemmas(t.low) \
                or not any(_is_form(t.low, tag) for tag in ("VBD", "VBZ", "VBP")):
            continue
        prev = part[m - 1]
        if prev.low in DETERMINERS or is_stopword(prev.text) and prev.low not in SUBJECT_PRONOUNS:
            continue  # "The increased volatility", "of sectors"
        if "NOUN" not in _lemmas(t.low) or prev.low in SUBJECT_PRONOUNS \
                or _is_form(t.low, "VBP") and is_plural_noun_token(prev) \
                or not any(x.low in ("of", "and", "or") for x in part[:m]):
            return True
    return False


def is_plural_noun_token(t: Tok) -> bool:
    """A plural noun, or a lower-case word in -s that lemminflect does not know ("hoodies")."""
    lemmas = _lemmas(t.low)
    return t.low in ("people", "men", "women", "children") or (
        t.low.endswith("s") and not t.low.endswith("ss") and t.text.isalpha() and t.text.islower()
        and not is_stopword(t.text) and ("NOUN" in lemmas or not lemmas))
