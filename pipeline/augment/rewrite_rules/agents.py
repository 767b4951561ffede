"""What the voice, headline and caption rules share: plain noun phrases, a passive's "by" agent and its number,
the old subject said as an object, and verb forms from lemminflect."""

from __future__ import annotations

import re

from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Tok, _is_form, _lemmas, _lower_first_word, inflect, is_noun, verb_lemmas, verb_only,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    AGENT_DETERMINERS, CAPTION_PERSON_NOUNS, CLEAR_PLURALS, INVARIANT_PLURALS, LEADING_CONJUNCTIONS, MONTHS,
    NAME_WORDS, NO_AGENT, NO_AGENT_HEADS, NUMBER_WORDS, OBJECT_TO_SUBJECT_PRONOUN, OF_VERBS, PLACES, PLURAL_PRONOUNS,
    QUANTITY_HEADS, REFUSED_PARTICIPLES, SUBJECT_BOUNDARY_PREPOSITIONS, SUBJECT_TO_OBJECT_PRONOUN, TIME_TAILS,
    TIME_UNITS, WEEKDAYS,
)


def verb_lemma(word: str, tag: str = "VBN", among: frozenset[str] | None = None) -> str | None:
    """The one verb lemma (of `among`, when given) whose Penn `tag` form `word` is ("VBN": the past participle), or
    None when there is none or more than one."""
    from lemminflect import getInflection

    lemmas = [lemma for lemma in verb_lemmas(word)
              if (among is None or lemma in among) and word in getInflection(lemma, tag, inflect_oov=False)]
    return lemmas[0] if len(lemmas) == 1 else None


def is_name(t: Tok) -> bool:
    return t.text[:1].isupper() and t.text[1:2].islower() or t.text.isupper() and len(t.text) > 1


def noun_phrase_word(t: Tok) -> bool:
    """A lower-case word that may be part of a noun phrase: a noun, an adjective or a number word."""
    low = t.low
    if not re.fullmatch(r"[a-z][a-z'’-]*", t.text) and not re.fullmatch(r"[0-9][0-9,.]*(?:'?s)?", t.text):
        return False
    if low[:1].isdigit() or low in NUMBER_WORDS:
        return True
    if is_stopword(low) and low not in ("first", "last", "other", "several", "many", "few", "own"):
        return False
    lemmas = _lemmas(low.split("'")[0])
    return "-" in low or "NOUN" in lemmas or "ADJ" in lemmas or verb_only(low.split("'")[0])


def plain_noun_phrase(toks: list[Tok], start: int, end: int, *, subject: bool) -> bool:
    """Whether toks[start:end] is a plain noun phrase: determiners, adjectives, nouns, names, numbers, "of" and "and"
    between noun phrases, a verb form only before the noun it modifies, ending in a noun, a name or a number; the
    subject may also hold prepositional phrases and its first word may be capitalised."""
    if start >= end:
        return False
    if end - start == 1 and (toks[start].low in (SUBJECT_TO_OBJECT_PRONOUN if subject else OBJECT_TO_SUBJECT_PRONOUN)):
        return True
    prev = None
    for k in range(start, end):
        t = toks[k]
        low = t.low
        nxt = toks[k + 1] if k + 1 < end else None
        if low in AGENT_DETERMINERS or low in ("of", "and") and prev is not None:
            if low == "and" and (prev is None or nxt is None or prev.low in AGENT_DETERMINERS):
                return False
            if low in AGENT_DETERMINERS and prev is not None and prev.low not in ("of", "and", "all", "both") \
                    and not (subject and prev.low in SUBJECT_BOUNDARY_PREPOSITIONS):
                return False  # "the crowd holding a white umbrella": a second noun phrase
        elif subject and low in SUBJECT_BOUNDARY_PREPOSITIONS and t.text.islower() and prev is not None:
            pass
        elif is_name(t):
            if is_stopword(low) and not t.text.isupper():
                return False  # a capitalised function word: a title in title case
        elif noun_phrase_word(t):
            word = low.split("'")[0]
            before = prev.low.split("'")[0] if prev is not None else ""
            if word.endswith("ing") and _is_form(word, "VBG") and prev is not None and noun_phrase_word(prev) \
                    and is_noun(before) and not (_is_form(before, "VBG") or "ADJ" in _lemmas(before)):
                return False  # "a woman wearing white shoes": a reduced relative clause
            if verb_only(word):
                # a participle or gerund only before the noun it modifies ("recorded announcements")
                if _is_form(word, "VBZ") or nxt is None or not (is_name(nxt) or noun_phrase_word(nxt)
                                                                   and not verb_only(nxt.low)):
                    return False
        else:
            return False
        prev = t
    last = toks[end - 1]
    if last.low in ("of", "and") or last.low in AGENT_DETERMINERS:
        return False  # "by many"
    return is_name(last) or is_noun(last.low.split("'")[0]) or last.low[:1].isdigit()


def phrase_number(toks: list[Tok], start: int, end: int) -> str | None:
    """'sg' or 'pl' for the agent toks[start:end], or None when unsure."""
    words = toks[start:end]
    if len(words) == 1 and words[0].low in OBJECT_TO_SUBJECT_PRONOUN:
        return "pl" if OBJECT_TO_SUBJECT_PRONOUN[words[0].low] in PLURAL_PRONOUNS else "sg"
    if any(t.low == "and" for t in words):
        return "pl"
    head_end = next((k for k in range(start, end) if toks[k].low == "of"), end)
    head = toks[head_end - 1]
    if head_end < end and head.low in QUANTITY_HEADS:
        return None
    if is_name(head):
        return None if head.low.endswith("s") or head.text.isupper() and head_end - start > 1 else "sg"
    word = head.low
    if word in CLEAR_PLURALS:
        return "pl"
    nouns = _lemmas(word).get("NOUN", ())
    if not nouns or word in INVARIANT_PLURALS:
        return None
    if word not in nouns:
        return "pl"
    if not word.endswith("s"):
        return "sg"
    from lemminflect import getInflection

    return None if any(word in getInflection(n, "NNS") for n in nouns) else "sg"  # "news", "series"; "crisis"


def _trailing_time(toks: list[Tok], k: int, end: int) -> int:
    """Index where a time phrase at the end of toks[k:end] begins (end when there is none)."""
    words = [t.low for t in toks[k:end]]
    n = len(words)
    if n >= 1 and words[-1] in TIME_TAILS:
        return end - 1
    if n >= 2 and words[-2] in ("last", "this", "next") and words[-1] in TIME_UNITS:
        return end - 2
    if n >= 2 and words[-2] == "on" and words[-1] in WEEKDAYS:
        return end - 2
    if n >= 2 and words[-2] == "in" and re.fullmatch(r"1[5-9][0-9][0-9]|20[0-9][0-9]", words[-1]):
        return end - 2
    if n >= 4 and words[-4:-2] == ["in", "the"] and re.fullmatch(r"[0-9]+(st|nd|rd|th)", words[-2]) \
            and words[-1] == "century":
        return end - 4
    return end


def _tail(toks: list[Tok], k: int, end: int) -> int:
    """Where a phrase that stays at the end of toks[k:end] begins (end when there is none): a time phrase ("in
    1998", "on Monday", "last week", "yesterday", "in the 14th century") or "in"/"at"/"near" + a capitalised place
    name of one to three words ("in Mexico")."""
    at = _trailing_time(toks, k, end)
    if at < end:
        return at
    for n in (1, 2, 3):
        p = end - n - 1
        if p > k and toks[p].low in ("in", "at", "near") and toks[p].text.islower() \
                and all(is_name(t) and not is_stopword(t.low) for t in toks[p + 1:end]) \
                and toks[p + 1].low not in MONTHS | WEEKDAYS:
            return p
    return end


def agent_end(toks: list[Tok], by: int, end: int, lemma: str) -> int | None:
    """The end of the agent after "by" at `by` (where the phrase that stays at the end begins), or None when it is
    no plain noun phrase or "by" gives no agent (a time, a means, an amount: `NO_AGENT`, `NO_AGENT_HEADS`)."""
    stop = _tail(toks, by + 1, end)
    if stop <= by + 1:
        return None
    words = toks[by + 1:stop]
    if any(t.low == "of" and (is_name(toks[k - 1]) and k + 1 < stop and toks[k + 1].text.islower()
                              or lemma in OF_VERBS)
           for k, t in enumerate(toks[by + 1:stop], by + 1)):
        return None  # "accused by UN of war crimes"
    if words[0].low in NO_AGENT or any(t.low in NO_AGENT_HEADS or t.text[:1].isdigit()
                                        or t.low in MONTHS | WEEKDAYS or t.low == "by" for t in words):
        return None
    return stop if plain_noun_phrase(toks, by + 1, stop, subject=False) else None


def passive_lemma(toks: list[Tok], part: int) -> str | None:
    """The verb lemma of the passive participle at `part`, or None when it is refused."""
    t = toks[part]
    if not t.text.islower() or t.low in REFUSED_PARTICIPLES or not _is_form(t.low, "VBN"):
        return None
    return verb_lemma(t.low)


def as_object(text: str, toks: list[Tok], start: int, end: int, plural_aux: bool) -> str | None:
    """The old subject toks[start:end] written as the object (a pronoun in its object case, a first word that is no
    name in lower case), or None when its first word may be a name and its case is unsure."""
    words = toks[start:end]
    phrase = text[words[0].start:words[-1].end]
    if len(words) == 1 and words[0].low in SUBJECT_TO_OBJECT_PRONOUN:
        return "me" if words[0].text == "I" else SUBJECT_TO_OBJECT_PRONOUN[words[0].low]
    if start > 0 and toks[start - 1].low not in LEADING_CONJUNCTIONS | {"that"}:
        return phrase  # not at the sentence start: written as it is
    first = words[0]
    if start > 0 and first.text[:1].islower():
        return phrase
    if first.text.isupper() and len(first.text) > 1:
        return phrase  # "US embassy"
    lowered = _lower_first_word(phrase)
    if lowered is not None:
        return lowered
    if any(" ".join(t.text for t in words[:n]) in PLACES for n in (1, 2, 3)) \
            or not _lemmas(first.low) and first.text[1:].islower():
        return phrase  # a place, or a name lemminflect does not know ("Romney")
    if any(not t.text.islower() for t in words[1:]) or not first.text[1:].islower() or first.low in NAME_WORDS:
        return None  # "Bank of England's Paul Tucker", "AMS"
    if len(words) == 1 and not (plural_aux and first.low.endswith("s") and is_noun(first.low)) \
            and first.low not in CAPTION_PERSON_NOUNS:
        return None  # "Bush was criticized": a bare singular may be a name; "Earnings were", "Woman" are none
    return first.low + phrase[len(first.text):]


def present_form(lemma: str, number: str) -> str | None:
    return inflect(lemma, "VBZ" if number == "sg" else "VBP")


def the_one_by(toks: list[Tok], first: int) -> int | None:
    """The index of the sentence's one "by", when it is at token `first` or later; None for no or several."""
    bys = [k for k, t in enumerate(toks) if t.low == "by"]
    return bys[0] if len(bys) == 1 and bys[0] >= first else None


def agent_text(text: str, toks: list[Tok], by: int, stop: int, at_start: bool) -> str:
    words = toks[by + 1:stop]
    agent = text[words[0].start:words[-1].end]
    if len(words) == 1 and words[0].low in OBJECT_TO_SUBJECT_PRONOUN:
        agent = OBJECT_TO_SUBJECT_PRONOUN[words[0].low]
    return agent[:1].upper() + agent[1:] if at_start else agent


def other_form(verb: str, tag: str, source: str) -> str | None:
    """The `tag` form of the verb `verb` (a form of it); None when its lemmas disagree."""
    from lemminflect import getInflection

    forms = {f for lemma in verb_lemmas(verb) if _is_form(verb, source)
             for f in getInflection(lemma, tag)[:1]}
    return forms.pop() if len(forms) == 1 else None
