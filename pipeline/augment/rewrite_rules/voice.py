"""A passive clause with an explicit agent said in the active. What the rule does, its guards and its cases (golden
and refused): `cases/voice.json`; the plain noun phrase, the agent and the object it reads are `agents.py`'s.

`passive_by` takes a sentence that is one passive clause, SUBJECT + a form of "be" + a past participle + "by" +
AGENT + the final punctuation, the subject starting where `_subject_start` says; a time or "in"/"at"/"near" + a
place name after the agent stays at the end. Tense and agreement with the agent (`_verb_group`, forms from
lemminflect): "was"/"were" -> the simple past, "is"/"are" -> the present, "has/have been" -> "has"/"have", "had
been" -> "had"; "not", "n't" and "never" go with the new auxiliary; one adverb in -ly or of
`TIME_ADVERBS_IN_VERB_GROUP` before the participle stays before the verb (`_auxiliaries`). Pronouns change case; the
old subject's first word is lower-cased unless it may be a name (a place of `PLACES`, a word lemminflect does not
know and an acronym keep their capital). Refused: the participles of `REFUSED_PARTICIPLES` (feelings, states,
positions, amounts) and `RELATION_PARTICIPLES` (the active would lack the second term), and a focus adverb of
`FOCUS_ADVERBS` before the participle (its scope would change).
"""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.rewrite_rules.agents import (
    agent_end, agent_text, as_object, passive_lemma, phrase_number, plain_noun_phrase, present_form, the_one_by,
)
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _final_punct, _is_form, _lemmas, inflect,
)
from bsl_pipeline.pipeline.lexicon.word_classes import (
    BE_NEGATED_TENSES, BE_TENSES, FOCUS_ADVERBS, LEADING_CONJUNCTIONS, NOT_OR_NEVER, OPENING_ADVERBS,
    PERFECT_NEGATED_TENSES, PERFECT_TENSES, REFUSED_PUNCT, RELATION_PARTICIPLES, TIME_ADVERBS_IN_VERB_GROUP,
)


def _subject_start(toks: list[Tok], aux: int) -> int | None:
    """Where the passive clause's subject begins: the start, after a leading conjunction, or after "that" following
    a verb in the past or present ("He later learned that ..."); None for another prefix."""
    start = 1 if toks[0].low in LEADING_CONJUNCTIONS and toks[0].text[:1].isupper() else 0
    for k in range(aux - 1, start, -1):
        if toks[k].low == "that" and toks[k].text.islower():
            if any(not t.text[:1].isalnum() for t in toks[:k]):
                return None
            verb = toks[k - 1].low if toks[k - 1].low != "out" else toks[k - 2].low if k >= 2 else ""
            return k + 1 if _is_form(verb, "VBD") or _is_form(verb, "VBZ") else None
    return start


def _auxiliaries(toks: list[Tok], part: int) -> tuple[int, str, str | None, str | None] | None:
    """The auxiliaries before the participle at `part`: (index of the first, tense, negation, adverb), or None."""
    k = part - 1
    adverb = None
    t = toks[k]
    if t.text.islower() and (t.low in TIME_ADVERBS_IN_VERB_GROUP or t.low.endswith("ly") and "ADV" in _lemmas(t.low)):
        adverb, k = t.text, k - 1
    low = toks[k].low
    if low in ("be", "being"):
        return None  # "must be opened by a key": the modal's sense may shift; "is being investigated"
    perfect = low == "been"  # "has (not) been", else "is (not)"
    if perfect:
        k -= 1
    neg = None
    if k >= 0 and toks[k].low in NOT_OR_NEVER:
        neg, k = toks[k].low, k - 1
    low = toks[k].low if k >= 0 else ""
    negated, plain = (PERFECT_NEGATED_TENSES, PERFECT_TENSES) if perfect else (BE_NEGATED_TENSES, BE_TENSES)
    if low in negated and neg is None:
        neg, tense = "n't", negated[low]
    elif low in plain:
        tense = plain[low]
    else:
        return None  # "is being investigated", "has long been", a participle after a noun
    if k < 1 or not toks[k].text.islower() or neg and adverb:
        return None
    return k, tense, neg, adverb


def _verb_group(tense: str, lemma: str, participle: str, number: str | None, neg: str | None) -> str | None:
    """The active verb group for the passive's tense, agreeing with the agent's `number`."""
    if tense in ("present", "perfect") and number is None:
        return None
    sg = number == "sg"
    if tense == "past":
        if neg in ("not", "n't"):
            return ("didn't " if neg == "n't" else "did not ") + lemma
        past = inflect(lemma, "VBD")
        return past and (neg + " " if neg else "") + past
    if tense == "present":
        if neg in ("not", "n't"):
            do = "does" if sg else "do"
            return (do + "n't " if neg == "n't" else do + " not ") + lemma
        present = present_form(lemma, number)
        return present and (neg + " " if neg else "") + present
    if tense in ("perfect", "pluperfect"):
        have = "had" if tense == "pluperfect" else "has" if sg else "have"
        return (have + "n't" if neg == "n't" else have + (" " + neg if neg else "")) + " " + participle
    return None


def rule_passive_by(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = _final_punct(toks)
    if end < 5 or any(t.text in REFUSED_PUNCT for t in toks):
        return None
    by = the_one_by(toks, 3)
    if by is None:
        return None
    lemma = passive_lemma(toks, by - 1)
    found = lemma and _auxiliaries(toks, by - 1)
    if not found:
        return None
    aux, tense, neg, adverb = found
    if adverb is not None and adverb.lower() in FOCUS_ADVERBS or toks[by - 1].low in RELATION_PARTICIPLES:
        # "is only faced by": the focus would change; "separated by a gap": a relation's second term
        return Refusal("focus_adverb_or_relation")
    start = _subject_start(toks, aux)
    if start is None or start >= aux or not plain_noun_phrase(toks, start, aux, subject=True) \
            or start > 0 and aux - start == 1 and toks[start].low in ("this", "that") or _opening_adverb(toks, start):
        return Refusal("subject_unfit")
    stop = agent_end(toks, by, end, lemma)
    if stop is None:
        return Refusal("agent_unfit")
    verb = _verb_group(tense, lemma, toks[by - 1].low, phrase_number(toks, by + 1, stop), neg)
    plural_aux = toks[aux].low in ("were", "are", "have", "weren't", "aren't", "haven't")
    obj = as_object(text, toks, start, aux, plural_aux)
    if verb is None or obj is None:
        return Refusal("no_inflection")
    agent = agent_text(text, toks, by, stop, start == 0)
    tail = text[toks[stop - 1].end:] if stop == end else " " + text[toks[stop].start:]
    return text[:toks[start].start] + agent + " " + (adverb + " " if adverb else "") + verb + " " + obj + tail


def _opening_adverb(toks: list[Tok], start: int) -> bool:
    """Whether the subject at `start` opens with a sentence adverb ("Unfortunately operators", "However the plan"):
    no word of a noun phrase; an -ly adverb before an adjective modifies it ("Seemingly endemic corruption")."""
    t = toks[start]
    lemmas = _lemmas(t.low)
    if t.low in OPENING_ADVERBS:
        return True
    if not t.low.endswith("ly") or "ADV" not in lemmas or "ADJ" in lemmas or "NOUN" in lemmas:
        return False
    nxt = _lemmas(toks[start + 1].low) if start + 1 < len(toks) else {}
    return "ADJ" not in nxt and not _is_form(toks[start + 1].low, "VBN")


VOICE_RULES: dict[str, Rule] = {"passive_by": rule_passive_by}
