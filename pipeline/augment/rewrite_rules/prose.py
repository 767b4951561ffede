"""Rewrites for written prose (guidebooks, reports, fiction, dictionary glosses): a fronted place phrase put back
after its subject, a manner adverb said on the other side of its participle, a gloss's two definitions in the
other order, and a sentence adverb ("however") moved after the subject. The rules are `PROSE_RULES`; each makes
one edit, at the first place where it applies.
What each rule does, its guards and its golden and refused cases are in `cases/prose.json` (the views guide's
table is made from them); the comment at each guard says why it refuses.
"""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.rewrite_rules.chunker import chunk
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _is_form, _is_lower_word, _lower_first_word, is_noun, mostly_capitals, splice,
    verb_lemmas,
)
from bsl_pipeline.pipeline.lexicon.word_classes import (
    ADVERBS_AFTER_PARTICIPLE, ADVERBS_BEFORE_PARTICIPLE, AUXILIARIES, BEFORE_PARTICIPLE, CLAUSE_OPENING_WORDS,
    HUMAN_SUBJECT_PRONOUNS, INNER_PREPOSITIONS, INTEREST_ADJECTIVES, INTEREST_NOUNS, INVERSION_SUBJECT_DETERMINERS,
    LOCATIVE_PREPOSITIONS, LOCATIVE_VERBS, NEGATING_ADVERBS, NOT_DEFINING, NOUN_OPENERS, NUMBER_WORDS,
    PERSONAL_PRONOUNS_AND_THERE, PHRASE_DETERMINERS, PLACE_ADVERBS, PREPOSITIONS_AFTER_PARTICIPLE, PUNCTUATION,
    SENTENCE_ADVERBS, SIDES_AND_COMPASS_POINTS, SINGULAR_VERBS, SUBJECT_DETS, TWO_WORD_PREPOSITIONS,
)

# -- inversion ------------------------------------------------------------------------------------------------------
_MAX_SUBJECT = 16
_MAX_PHRASE = 14


def _phrase_end(toks: list[Tok]) -> int | None:
    """Index just after the opening place phrase (its preposition, determiner, nouns and inner prepositional
    phrases), or None when the sentence does not open with one."""
    first = toks[0].low
    if first in PLACE_ADVERBS:
        return 1
    if first == "of" and len(toks) > 3 and toks[1].low in INTEREST_ADJECTIVES and toks[2].low in INTEREST_NOUNS:
        return 3
    k = 1
    if (first, toks[1].low) in TWO_WORD_PREPOSITIONS:
        k = 2
    elif first == "to":
        if not (toks[1].low == "the" and toks[2].low in SIDES_AND_COMPASS_POINTS):
            return None
    elif first not in LOCATIVE_PREPOSITIONS:
        return None
    if toks[k].low not in PHRASE_DETERMINERS and not toks[k].text.isdigit():
        return None  # "On top is ...", "In Britain Parliament is ...": where the phrase ends is unclear
    prev = toks[k - 1]
    while k < len(toks) and toks[k].low not in LOCATIVE_VERBS:
        t = toks[k]
        if t.text in PUNCTUATION or t.low in PERSONAL_PRONOUNS_AND_THERE or t.low in AUXILIARIES \
                or t.low in CLAUSE_OPENING_WORDS:
            return None
        if t.low in PHRASE_DETERMINERS and prev.low not in INNER_PREPOSITIONS and prev.low not in ("next", "close") \
                and k > 1 and not (t.low in NUMBER_WORDS and prev.low in PHRASE_DETERMINERS):
            return None  # "In Roman times a temple ...": a subject of its own ("the two towers" is one phrase)
        if t.text[:1].isupper() and _is_lower_word(prev) and prev.low not in INNER_PREPOSITIONS \
                and prev.low not in PHRASE_DETERMINERS and is_noun(prev.low):
            return None  # "In the town Parliament is ...": the subject may start at the capital
        if not t.text[:1].isalnum():
            return None
        prev = t
        k += 1
    return k if k < len(toks) and k <= _MAX_PHRASE else None


def _trailing_modifier(t: Tok) -> bool:
    """Whether a phrase after the subject's comma opens with an appositive's determiner, a participle or "with"
    ("Midlothian Ski Centre, the longest artificial ski slope in Europe"; "..., built in 1841"; "..., with lovely
    brick vaults")."""
    return t.low in ("the", "a", "an", "with", "once", "now") or (_is_lower_word(t) and _is_form(t.low, "VBN")
                                                                  and not t.low.endswith("ing"))


def rule_inversion(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if len(toks) < 5 or not toks[0].text[:1].isupper():
        return None
    end = chunk(text, toks).end
    if end != len(toks) - 1:
        return Refusal("question_or_quotation")  # a question, a quotation, no final punctuation
    v = _phrase_end(toks)
    if v is None or v + 1 >= end:
        return None
    verb = toks[v]
    if not verb.text.islower():
        return None
    subject = toks[v + 1:end]
    commas = [k for k, t in enumerate(subject) if t.text == ","]
    if any(t.text in PUNCTUATION and t.text != "," for t in subject) or len(commas) > 1:
        return Refusal("punctuation_in_subject")
    if commas:  # "... stands Morant Point Lighthouse, built in 1841." -> "... Lighthouse, built in 1841, stands ..."
        c = commas[0]
        if c < 1 or c + 1 >= len(subject) or not _trailing_modifier(subject[c + 1]):
            return Refusal("subject_modifier_unclear")
    head = subject[0]
    if not (head.low in INVERSION_SUBJECT_DETERMINERS or head.text.isdigit()
            or (head.text[:1].isupper() and head.low not in PERSONAL_PRONOUNS_AND_THERE)):
        return Refusal("subject_not_noun_phrase")
    if len(subject) > _MAX_SUBJECT:
        return Refusal("subject_too_long")
    for t in subject:
        if t.low in CLAUSE_OPENING_WORDS or t.low in AUXILIARIES or t.low in PERSONAL_PRONOUNS_AND_THERE \
                or t.low in ("not", "also"):
            return Refusal("clause_in_subject")
        if t.low in LOCATIVE_VERBS:
            return Refusal("second_verb")
    if verb.low in SINGULAR_VERBS and any(t.low in ("and", "or") for t in subject):
        return Refusal("coordinated_subject")
    subject_text = text[head.start:subject[-1].end]
    if head.low in INVERSION_SUBJECT_DETERMINERS:
        subject_text = subject_text[:1].upper() + subject_text[1:]
    phrase = text[toks[0].start:toks[v - 1].end]
    phrase = phrase[:1].lower() + phrase[1:]
    return subject_text + ("," if commas else "") + " " + verb.text + " " + phrase + text[subject[-1].end:]


# -- adverb ---------------------------------------------------------------------------------------------------------


def _boundary(toks: list[Tok], k: int) -> bool:
    """Whether token k ends the verb phrase's core: the end, punctuation or a preposition."""
    if k >= len(toks):
        return True
    t = toks[k]
    if t.low == "to" and k + 1 < len(toks) and _is_lower_word(toks[k + 1]) \
            and toks[k + 1].low not in PHRASE_DETERMINERS:
        return False  # "has started recently to show": maybe an infinitive, which the adverb may modify
    return t.text in (".", "!", ",", ";", ":") or (t.text.islower() and t.low in PREPOSITIONS_AFTER_PARTICIPLE)


def _participle(t: Tok) -> bool:
    return _is_lower_word(t) and _is_form(t.low, "VBN")


def _headline_like(toks: list[Tok]) -> bool:
    words = [t for t in toks if t.text[:1].isalpha()]
    caps = sum(t.text[:1].isupper() for t in words[1:])
    return len(words) > 3 and caps * 2 > len(words) - 1


def rule_adverb(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if len(toks) < 4 or toks[-1].text == "?" or _headline_like(toks):
        return None
    refused = None
    for i in range(1, len(toks) - 1):
        aux, t, nxt = toks[i - 1], toks[i], toks[i + 1]
        if aux.low not in BEFORE_PARTICIPLE:
            continue
        before = _participle(t) and nxt.text.islower() and nxt.low in ADVERBS_BEFORE_PARTICIPLE \
            and _boundary(toks, i + 2)
        after = t.text.islower() and t.low in ADVERBS_AFTER_PARTICIPLE and _participle(nxt) and _boundary(toks, i + 2)
        if (before or after) and any(x.low in NEGATING_ADVERBS for x in toks[max(0, i - 3):i]):
            refused = refused or Refusal("negation_before")  # "has not been widely used": the adverb is in its scope
            continue
        if before:
            return splice(text, [(t.start, t.start, nxt.text + " "), (t.end, nxt.end, "")])
        if after:
            return splice(text, [(t.start, nxt.start, ""), (nxt.end, nxt.end, " " + t.text)])
    return refused


# -- definitions ----------------------------------------------------------------------------------------------------


def _opening_kind(part: str) -> str | None:
    """"verb" for a definition that opens with a verb's base form ("make less hostile"), "noun" for one that opens
    with an article ("a way of conceiving something"), else None."""
    word = part.split()[0].lower()
    if word in NOUN_OPENERS:
        return "noun"
    if word.isalpha() and word not in NOT_DEFINING and word in verb_lemmas(word):
        return "verb"
    return None


def rule_definitions(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    body = text.rstrip()
    end = len(body)
    while end and body[end - 1] in ".;":
        end -= 1
    if end < len(body) - 1:
        return None  # ";." or "..": not a plain gloss
    parts = body[:end].split(";")
    if len(parts) != 2:
        return None
    if any(ch in body for ch in "\"()[]:?!") or any(ch.isupper() for ch in body[1:]):
        return Refusal("punctuation_or_capitals")  # no gloss of a dictionary
    first, second = parts[0].strip(), parts[1].strip()
    if not first or not second or parts[1][:1] != " " or len(first.split()) < 2 and len(second.split()) < 2:
        return Refusal("parts_unfit")
    kind = _opening_kind(first)
    if kind is None or _opening_kind(second) != kind:
        return Refusal("kinds_differ")  # both must open with a verb, or both with an article
    if body[:1].isupper():
        second, first = second[:1].upper() + second[1:], first[:1].lower() + first[1:]
    return second + "; " + first + body[end:] + text[len(body):]


# -- however --------------------------------------------------------------------------------------------------------


def rule_however(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if len(toks) < 5 or mostly_capitals(toks) or toks[-1].text == "?":
        return None
    if sum(t.low in SENTENCE_ADVERBS for t in toks) != 1:
        return None
    if toks[0].low in SENTENCE_ADVERBS and toks[0].text[:1].isupper() and toks[1].text == ",":
        end = chunk(text, toks).subject_end(2, sentence_start=False, gap=0)
        if end is None:
            return None
        subject = text[toks[2].start:toks[end - 1].end]
        return subject[:1].upper() + subject[1:] + ", " + toks[0].low + ", " + text[toks[end].start:]
    end = chunk(text, toks).subject_end(0, sentence_start=True, gap=3)
    if end is None or end + 3 >= len(toks) or toks[end].text != "," or toks[end + 1].low not in SENTENCE_ADVERBS \
            or toks[end + 2].text != "," or not toks[end + 1].text.islower():
        return None
    subject = text[toks[0].start:toks[end - 1].end]
    if toks[0].low in HUMAN_SUBJECT_PRONOUNS or toks[0].low in SUBJECT_DETS:
        lowered = _lower_first_word(subject)
        if lowered is None:
            return Refusal("first_word_may_be_name")
        subject = lowered
    return toks[end + 1].text.capitalize() + ", " + subject + " " + text[toks[end + 3].start:]


PROSE_RULES: dict[str, Rule] = {"inversion": rule_inversion, "adverb": rule_adverb, "definitions": rule_definitions,
                                "however": rule_however}
