"""Speech said as it would be written: the fillers and the words said twice by accident that transcribed speech and
typing leave, removed. The rules are `SPEECH_RULES`; each edits every place of the sentence it applies to.
What each rule does, its guards and its golden and refused cases are in `cases/speech.json` (the views guide's
table is made from them); the comment at each guard says why it refuses.
"""

from __future__ import annotations

import re

from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _is_form, _is_lower_word, _is_word, _lemmas, is_verb_form, prev_token, splice,
    token_at,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    ADVERB_PARTICLES, CLAUSE_STARTERS, COUNT_WORDS, DETERMINERS, FILLERS, GRAMMATICAL_DOUBLES, INTERJECTIONS,
    LINKER_WORDS, LINK_OTHER_WAY, MEANINGFUL_DOUBLES, NUMBER_WORDS, PHRASE_OPENERS, RESTART_WORDS, WH_WORDS,
)


def rule_fillers(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    cuts = []
    for f, t in enumerate(toks):
        if t.low not in FILLERS or t.text not in (t.low, t.low.capitalize()):
            continue
        prev, nxt = prev_token(toks, f), token_at(toks, f + 1)
        if prev is not None and prev.text[:1].isdigit():
            return Refusal("unit_after_number")  # "5 um": a unit
        if nxt is not None and nxt.text in ("-", "'", "’") and nxt.start == t.end:
            return Refusal("part_of_word")
        if t.text[:1].isupper() and (nxt is None or nxt.text != ","):
            # "Er diab...": a capitalised "Er"/"Uh"/"Um" without its comma may be a name or a cut word
            return Refusal("capitalised_may_be_word")
        after = token_at(toks, f + 2) if nxt is not None and nxt.text == "," else None
        if after is not None and prev is not None and prev.text not in (",", ";", ":", "--") \
                and prev.low in RESTART_WORDS and after.low in RESTART_WORDS:
            # "and uh, but I believe", "he um, they were": a false start, the words before it kept
            return Refusal("false_start")
        if after is not None and prev is not None and prev.text == "," and f >= 2:
            before = toks[f - 2]
            if before.low in PHRASE_OPENERS:
                cuts.append((before.end, after.start - 1))  # "your, uh, birth country" -> "your birth country"
                continue
            if before.low not in INTERJECTIONS:
                # "the city, um, the west side": the commas may be the sentence's own
                return Refusal("commas_of_sentence")
        if nxt is None or nxt.text in (".", "?", "!") and f + 2 == len(toks):
            start = prev.end if prev is not None else t.start
            if prev is not None and prev.text == "," and f >= 2:
                start = toks[f - 2].end
            cuts.append((start, t.end))
        elif nxt.text == "," and f + 2 < len(toks):
            cuts.append((t.start, toks[f + 2].start))
        else:
            cuts.append((t.start, nxt.start))
    if not cuts:
        return None
    out = splice(text, [(s, e, "") for s, e in cuts])
    if sum(1 for w in re.findall(r"[A-Za-z]+", out)) < 3:
        return Refusal("too_short_after")
    if toks[0].low in FILLERS and toks[0].text[:1].isupper():
        out = out[:1].upper() + out[1:]
    return out


def _repeat_allowed(toks: list[Tok], k: int, n: int) -> bool:
    """Whether the n-word unit at token k, said again right after it, is an accident that may be said once."""
    unit = toks[k:k + n]
    words = [x.low for x in unit]
    if any(w in MEANINGFUL_DOUBLES or w in FILLERS or w in COUNT_WORDS or w in NUMBER_WORDS
           or w in ("one", "half") for w in words):
        return False
    if n == 1:
        w = words[0]
        prev = prev_token(toks, k)
        if w in GRAMMATICAL_DOUBLES:
            return False
        if w in ("it", "you") and prev is not None and _is_word(prev) and prev.low not in CLAUSE_STARTERS:
            return False  # "when you scrape it it makes", "isn't it it really is": an object, then a subject
        if w in ("is", "was", "are", "were") and any(x.low in WH_WORDS | {"all"} for x in toks[max(0, k - 5):k]):
            return False  # "what it is is that ...": the subject is a clause
        if w in ADVERB_PARTICLES and prev is not None and _is_lower_word(prev) and (
                is_verb_form(prev.low) or _is_form(prev.low, "VB") or _is_form(prev.low, "VBP")):
            return False  # "he gave in in the end": a phrasal verb and a preposition
        if not is_stopword(w) and "'" not in w and prev is not None and (
                prev.low in DETERMINERS | {"the", "a", "an", "like", "real", "no", "any"}) and (
                {"NOUN", "ADJ"} & set(_lemmas(w))):
            return False  # "a job job", "this mistake mistake": a contrastive reduplication ("a real job")
        return True
    a, b = words
    content = [w for w in words if not is_stopword(w) and "'" not in w]
    if content and a in LINKER_WORDS:
        return b not in content or a not in LINK_OTHER_WAY  # "and lots and lots of": "lots and lots"
    if content and b in LINKER_WORDS:
        return False  # "hand in hand in a crowd", "dozens of dozens of people"
    return True


def rule_repeats(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    cuts = []
    k = 0
    while k < len(toks) - 1:
        done = False
        for n in (1, 2):
            unit = toks[k:k + n]
            if len(unit) < n or not all(_is_word(x) for x in unit) or any(
                    unit[m].start != unit[m - 1].end + 1 for m in range(1, n)):
                break
            m = k + n
            while m + n <= len(toks) and [x.low for x in toks[m:m + n]] == [x.low for x in unit] and \
                    toks[m].start == toks[m - 1].end + 1 and all(
                        toks[m + q].start == toks[m + q - 1].end + 1 for q in range(1, n)):
                m += n
            if m == k + n:
                continue
            later = toks[k + n:m]
            if any(x.text[:1].isupper() and x.low not in ("i", "i'm", "i've", "i'll", "i'd") for x in later):
                done = True  # "Walla Walla", "New York New York", "Ok Ok Ok": a name or a cry
                k = m
                break
            if _repeat_allowed(toks, k, n):
                cuts.append((toks[k + n - 1].end, toks[m - 1].end))
            k = m
            done = True
            break
        if not done:
            k += 1
    if not cuts:
        return None
    out = splice(text, [(s, e, "") for s, e in cuts])
    if len(re.findall(r"[A-Za-z']+", out)) < 3:
        return Refusal("too_short_after")
    return out


SPEECH_RULES: dict[str, Rule] = {"fillers": rule_fillers, "repeats": rule_repeats}
