"""Constructions said another way: a verb's complement, the modal of a how-to question, and the order of two
conjuncts. What each rule does, its guards and its cases (golden and refused): `cases/constructions.json`. Each
rule makes one edit, at the first place where it applies.

`to_ing` takes its triggers from `START_VERB_FORMS` (start, begin, continue: never try/stop/remember/forget/regret,
whose meaning changes, nor like/love/hate/prefer, "would like going" being no English) and the verb forms from
lemminflect. `between` takes as a conjunct a name, a determiner + one or two nouns, or one or two nouns
(`_conjunct`). `how_can` makes "do" -> "can" except with the verbs of `NOT_HOW_TO` (their question is no how-to) and
"can" -> "do" only with the verbs of doing of `DOING_VERBS` (else it may be rhetorical).
"""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.rewrite_rules.chunker import Chunks, chunk
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _is_form, _is_lower_word, _is_word, _lemmas, first_rewrite, is_ing_verb,
    is_verb_form, prev_token, splice, token_at, verb_lemmas,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    AUXILIARIES, BE_FORMS, BINOMIAL_PAIRS, BOUNDARY_WORDS, COUNT_WORDS, DEFINITE_AND_POSSESSIVE_DETERMINERS,
    DETERMINERS, DIRECTIONAL, DOING_VERBS, NOT_HOW_TO, ORDINALS, PREPOSITION_WORDS, START_VERB_FORMS, STATIVE_VERBS,
    TIME_OF_DAY_AND_YEAR_WORDS,
)


# -- to_ing ---------------------------------------------------------------------------------------------------------


def _trigger_is_verb(toks: list[Tok], i: int) -> bool:
    """Token i (start/begin/continue) is a verb: not after a determiner, preposition or be ("the continued",
    "amid continued fighting", "was started"), not a capitalised word inside the sentence."""
    t = toks[i]
    if not t.text.islower() and not (i == 0 and t.text[:1].isupper()):
        return False
    prev = prev_token(toks, i)
    if prev is None or prev.text in (",", ";", ":") or prev.low == "to":
        return True
    if prev.low in BE_FORMS or prev.low in DETERMINERS or prev.low in ("the", "a", "an", "no", "every", "each"):
        return False
    if is_stopword(prev.text):
        return prev.low in AUXILIARIES or prev.low in ("i", "you", "he", "she", "it", "we", "they", "who", "which",
                                                       "that", "then", "also", "never", "just", "and", "or",
                                                       "but", "soon", "finally", "only", "even", "again")
    lemmas = _lemmas(prev.low)
    if prev.low in PREPOSITION_WORDS:
        return False
    return prev.text[:1].isupper() or bool({"NOUN", "ADV"} & set(lemmas)) and not (
        "ADJ" in lemmas and "NOUN" not in lemmas)  # "a fresh start", "amid continued fighting"


def _joined_verb(toks: list[Tok], k: int, ing: bool) -> bool:
    """Whether a verb (base form, or -ing with `ing`) after token k is joined by and/or: "to sing and dance"."""
    for m in range(k + 1, len(toks) - 1):
        if toks[m].low in ("and", "or", ",") or toks[m].text == "/":
            w = toks[m + 1].low
            if (is_ing_verb(w) if ing else (_is_form(w, "VB") and "VERB" in _lemmas(w))) or w in ("to",):
                return True
    return False


def _to_ing_at(text: str, toks: list[Tok], i: int) -> str | Refusal | None:
    """Token i (start/begin/continue) + "to" + a base verb said with the verb's -ing form, or the other way."""
    from lemminflect import getInflection

    nxt = toks[i + 1]
    to = nxt.text == "to"
    verb = toks[i + 2] if to else nxt
    if to and (not _is_lower_word(verb) or verb.low not in verb_lemmas(verb.low) or not _is_form(verb.low, "VB")):
        return None  # "continued to the end", "began to slowly move"
    if not to and not (_is_lower_word(nxt) and is_ing_verb(nxt.low)):
        return None
    if not _trigger_is_verb(toks, i):
        return Refusal("trigger_not_verb")
    if toks[i].low.startswith("beg") and any(x.low in ("even", "not", "never", "cannot") or x.low.endswith("n't")
                                             for x in toks[max(0, i - 3):i]):
        return Refusal("impossibility_idiom")  # "I couldn't even begin to identify it"
    lemmas = (verb.low,) if to else verb_lemmas(verb.low)
    if len(lemmas) != 1:
        return Refusal("no_inflection")
    if lemmas[0] in STATIVE_VERBS:
        return Refusal("stative_verb")
    if _joined_verb(toks, i + 2 if to else i + 1, ing=not to):
        return Refusal("joined_verb")
    if to:
        forms = getInflection(verb.low, "VBG")
        return splice(text, [(nxt.start, verb.end, forms[0])]) if forms else Refusal("no_inflection")
    after = token_at(toks, i + 2)
    if after is not None and after.text in ("'s", "’s"):
        return Refusal("possessive_after")
    return splice(text, [(nxt.start, nxt.end, "to " + lemmas[0])])


def rule_to_ing(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    return first_rewrite(_to_ing_at(text, toks, i) for i, t in enumerate(toks[:-2]) if t.low in START_VERB_FORMS)


# -- between --------------------------------------------------------------------------------------------------------


def _conjunct(chunks: Chunks, start: int) -> int | None:
    """End (exclusive) of a conjunct from token `start`: a name (one to three capitalised words, after an optional
    "the"), a determiner + one or two nouns, or one or two nouns; None when there is none."""
    toks, k = chunks.toks, start
    if k < len(toks) and toks[k].low in DEFINITE_AND_POSSESSIVE_DETERMINERS:
        k += 1
    first = k
    while k < len(toks) and k - first < 3 and _is_word(toks[k]) and not is_stopword(toks[k].text) \
            and toks[k].text[:1].isupper() and k > 0:
        k += 1
    if k > first:
        return k  # a name (what follows it is judged by the caller)
    k = chunks.content_end(first, 2)
    return k if k > first else None


def _conjuncts_refused(a: list[Tok], b: list[Tok]) -> Refusal | None:
    """The guard that refuses two conjuncts of "between" to change places, or None."""
    words = a + b
    if any(x.text[:1].isdigit() or x.low in COUNT_WORDS | ORDINALS | TIME_OF_DAY_AND_YEAR_WORDS | {"one"}
           or x.low in ("you", "me", "him", "her", "us", "them", "i") or "'" in x.low for x in words):
        return Refusal("range_date_or_pronoun")  # ranges, dates, times, pronouns, possessives
    if any(is_ing_verb(x.low) and "NOUN" not in _lemmas(x.low) for x in words):
        return Refusal("ing_in_conjunct")
    heads = (a[-1].low, b[-1].low)
    if heads in BINOMIAL_PAIRS or heads[::-1] in BINOMIAL_PAIRS or {"rock", "lines", "devil"} & {x.low for x in words}:
        return Refusal("fixed_pair")
    for head in (a[-1], b[-1]):
        lemmas = _lemmas(head.low)
        if head.text[:1].islower() and ("NOUN" not in lemmas or "ADJ" in lemmas and "NOUN" not in lemmas):
            return Refusal("shared_head")  # "between the old and new buildings"
        if head.text[:1].islower() and "ADJ" in lemmas and head.low in ("poor", "rich", "black", "white", "young",
                                                                     "old", "good", "evil"):
            return Refusal("shared_head")
    if len(a) == 1 and len(b) > 1 and a[0].text[:1].islower():
        return Refusal("shared_head")  # "between cat and dog owners": the head may be shared
    if (a[0].low in DEFINITE_AND_POSSESSIVE_DETERMINERS) != (b[0].low in DEFINITE_AND_POSSESSIVE_DETERMINERS):
        return Refusal("shared_determiner")  # "between the neck and upper arm": the determiner is shared
    return None


def _goes_on_refused(after: Tok | None, prev: Tok | None) -> Refusal | None:
    """The guard that refuses what follows the second conjunct (`after`; `prev`: the word before "between")."""
    if after is not None and _is_word(after):
        if after.low in ("'s", "of", "and", "or"):
            return Refusal("conjunct_goes_on")
        if after.low in AUXILIARIES or is_verb_form(after.low) or _is_form(after.low, "VBP"):
            if prev is None or not (_is_word(prev) and "NOUN" in _lemmas(prev.low) and not is_stopword(prev.text)):
                return Refusal("two_clauses")  # "fell between the rocks and the dog ran": two clauses
        elif after.low not in BOUNDARY_WORDS:
            return Refusal("conjunct_goes_on")  # the second conjunct may go on
    elif after is not None and after.text not in (".", ",", ";", ":", "?", "!", ")", "-", "\"", "”"):
        return Refusal("conjunct_goes_on")
    return None


def rule_between(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    chunks = chunk(text, toks)
    for i, t in enumerate(toks[:-3]):
        if t.text != "between":
            continue
        prev = prev_token(toks, i)
        if prev is not None and prev.low in DIRECTIONAL:
            return Refusal("directional")
        a_end = _conjunct(chunks, i + 1)
        if a_end is None or a_end >= len(toks) or toks[a_end].text != "and":
            return None
        b_end = _conjunct(chunks, a_end + 1)
        if b_end is None:
            return None
        a, b = toks[i + 1:a_end], toks[a_end + 1:b_end]
        refusal = _conjuncts_refused(a, b) or _goes_on_refused(token_at(toks, b_end), prev)
        if refusal is not None:
            return refusal
        first = text[toks[i + 1].start:a[-1].end]
        second = text[b[0].start:b[-1].end]
        if first.lower() == second.lower():
            return Refusal("same_conjuncts")
        return splice(text, [(toks[i + 1].start, a[-1].end, second), (b[0].start, b[-1].end, first)])
    return None


# -- how_can --------------------------------------------------------------------------------------------------------


def rule_how_can(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if len(toks) < 5 or toks[-1].text != "?" or toks[0].text != "How" or text.count("?") != 1:
        return None
    aux, subject, verb = toks[1], toks[2], toks[3]
    if subject.text not in ("I", "we") or not _is_lower_word(verb) or not _is_form(verb.low, "VB") \
            or verb.low not in verb_lemmas(verb.low):
        return None
    if aux.text == "do":
        return splice(text, [(aux.start, aux.end, "can")]) if verb.low not in NOT_HOW_TO else Refusal("not_how_to")
    if aux.text == "can":
        return splice(text, [(aux.start, aux.end, "do")]) if verb.low in DOING_VERBS else Refusal("not_doing_verb")
    return None


CONSTRUCTION_RULES: dict[str, Rule] = {"to_ing": rule_to_ing, "between": rule_between, "how_can": rule_how_can}
