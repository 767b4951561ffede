"""Speech said as it would be written: the fillers and the words said twice by accident that transcribed speech and
typing leave, removed. The rules (names as in `SPEECH_RULES`):

* `fillers`: the spoken disfluencies "uh", "um", "er", "erm" removed as separate words with a comma of theirs
  (telephone transcripts: "and uh some you can rent by the year" -> "and some you can rent by the year"), every
  one in the sentence; only these ("like", "you know" carry meaning elsewhere), not after a number ("5 um" is a
  unit), and only where three words remain; between two commas after a determiner, possessive or preposition
  both commas go too ("your, uh, birth country" -> "your birth country"), after an interjection one ("Well, uh, I
  think" -> "Well, I think"). Refused: a false start, a filler and its comma between two words that each start a
  clause or phrase ("he um, they were filled up" -> "he they were" keeps the abandoned words; "we went uh, to the
  store" is fine), a filler between two commas after any other word ("the city, um, the west side": the commas
  may be the sentence's own), and a capitalised filler without its comma ("Er diab...": a name or a cut word).
* `repeats`: a word or two words said again by accident, in speech or typing, said once ("for sale in in Europe"
  -> "for sale in Europe", "how about how about on the weekends" -> "how about on the weekends", "i i i" -> "i"),
  every such place in the sentence, where the copies follow each other with one space. Refused, each place:
  grammatical doubles ("had had", "that that", "I do do", "gave her her book", "not not true", "what it is is"
  after a wh-word or "all"), "it it"/"you you" after a word that is not a conjunction or interjection ("when you
  scrape it it makes": an object, then a subject), a particle after a verb ("gave in in the end"), a noun or
  adjective after a determiner ("a job job": a contrastive reduplication), repetitions that carry meaning
  (intensifiers "very very", "really really", "so so", "far far"; interjections and backchannels "no no", "yeah
  yeah", "uh-huh uh-huh", "bye bye", "ha ha", "sure sure"; imperatives "wait wait"; fillers "uh uh", which may be
  "uh-uh"), names (a capitalised copy: "Walla Walla", "New York New York", "the Wag Wag River"), numbers ("1 1/2",
  "thirty five five"), two words that form "X in X" or "X and X" ("hand in hand in a crowd", "lots and lots of",
  "dozens of dozens of"); and the view needs three words.
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
