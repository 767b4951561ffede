"""A passive clause with an explicit agent said in the active, and a caption's action said in the passive and back.
The rules (names as in `VOICE_RULES`):

* `passive_by`: a sentence that is one passive clause with an explicit agent, SUBJECT + a form of "be" + a past
  participle + "by" + AGENT + the final punctuation, said with the agent as the subject and the old subject as the
  object ("The proposed rule was changed by AMS." -> "AMS changed the proposed rule.", "The song is sung by
  children." -> "Children sing the song.", "The house has been bought by a local family." -> "A local family has
  bought the house."). The clause may follow "that" after a verb in the past or present ("He later learned that the
  incident was caused by the Concorde's sonic boom." -> "He later learned that the Concorde's sonic boom caused the
  incident.") or a leading "But"/"And"/"So"/"Yet"; a phrase after the agent stays at the end when it is a time
  ("in 1998", "on Monday", "last week", "yesterday", "in the 14th century": "The villages were built by the Genoese
  in the 14th century." -> "The Genoese built the villages in the 14th century.") or "in"/"at"/"near" + a
  capitalised place name ("by police in Ohio"). Tense and agreement, with forms from lemminflect: "was"/"were" ->
  the simple past; "is"/"are" -> the present agreeing with the agent ("is drawn by a horse" -> "a horse draws",
  "is sung by children" -> "children sing"); "has been"/"have been" -> "has"/"have" agreeing with the agent; "had
  been" -> "had"; "not", "n't" and "never" go with the new auxiliary ("was not approved by X" -> "X did not
  approve", "wasn't" -> "didn't", "is not" -> "does/do not", "were never accepted" -> "never accepted"). One adverb
  in -ly ("nearly", "widely") or of `TIME_ADVERBS_IN_VERB_GROUP` ("later", "first", "often", ...) between the auxiliary
  and the
  participle stays before the verb ("was widely praised by critics" -> "Critics widely praised"). Pronouns change
  case ("He was adopted by the Brodkeys." -> "The Brodkeys adopted him.", "by her" -> "She"); the old subject's
  first word is lower-cased when it is a function or number word, an adjective or adverb, or a plural common noun
  with a plural auxiliary ("Earnings were affected by ..." -> "... affected earnings"), and kept for a place or
  organisation of `PLACES`, a word lemminflect does not know ("Romney") or an acronym ("US embassy"); a capitalised
  word that may be a name is refused ("Bush was criticized by ...", "Bank of England's Paul Tucker"). The agent's
  first letter is raised at the sentence start. Guards, each with the case it refuses:
  - the subject and the agent are plain noun phrases: determiners, adjectives, nouns, names, numbers, "of" and
    "and" between noun phrases; the subject may also hold a prepositional phrase ("A child in red"), as it moves as
    a whole. Refused: a comma, bracket, quote, dash, relative word or other function word ("A county firefighter,
    was struck by ...", "by killers whose only faith is hate"); a verb form that is no prenominal modifier ("by the
    fine period furniture housed inside", "by a woman wearing white shoes", "by the crowd holding a white
    umbrella"); in the agent any preposition but "of" ("driven by a man in a suit": the phrase would have to move
    with it) and "of" after a name before a lower-case word or after a verb with an "of" complement ("accused by UN
    of war crimes"); an agent that does not end in a noun, a name or a pronoun ("by many").
  - anything else after the agent ("was struck by lightning and was taken to ...", "is perceived by the public as
    the most credible newscast", "identified by police as John Smith"), a question, a second "by".
  - any other prefix: a fronted participle or phrase would then describe the new subject ("Restored in 1967, the
    beautiful exterior is complemented by ..."), and a clause without "that" has no sure subject boundary ("Barton
    said a firefighter was struck by ..."); a subject "this"/"that" after "that".
  - a modal or progressive passive ("must be opened by a key" -> "a key must open": the modal's sense may shift;
    "is being investigated by"), "has long been", a participle followed by anything but "by" ("signed into law by").
  - "by" that introduces no agent (`NO_AGENT`, `NO_AGENT_HEADS`, numbers): a time ("by then", "by 2010", "by the
    mid-1800s", "by Aug. 22", "by the end of ...", "by the hour"), a means or manner ("by hand", "by car", "by
    mail", "by boat", "by the way", "by accident", "by law"), an amount or margin ("by 5 percent", "by a vote of",
    "by a wide margin", "by two goals", "by far", "by half"), a reflexive ("by himself").
  - participles that are adjectives or states with "by", or measures (`REFUSED_PARTICIPLES`): feelings ("A woman
    and a man are amused by headphones." -> "Headphones amuse a woman and a man." changes what is said), "known
    by" (a name: "as it is known by cavers"), "based", "located", "married", "made", "taken by surprise", position
    verbs where "by" may mean "beside" ("A motorcycle is parked by a mural", "People are gathered by a tree"), and
    amounts ("increased/reduced/cut by", "reached by", "lost by"); verbs of a relation between two terms
    (`RELATION_PARTICIPLES`: separated, connected, joined, linked, divided, united, split), whose active lacks the
    second term ("positive battery terminal is separated by a gap" -> "A gap separates positive battery terminal").
  - a focus or degree adverb of `FOCUS_ADVERBS` between the auxiliary and the participle (only, mainly, largely,
    mostly, partly, primarily, ...): its scope changes in the active ("The problem is only faced by today's retail
    buyers." -> "Today's retail buyers only face the problem.").
  - a sentence adverb before the subject (an -ly adverb, unless an adjective follows it, or one of
    `OPENING_ADVERBS`: "however", "perhaps", ...): it is no part of the noun phrase and would end up inside the
    object ("Unfortunately operators haven't been aided by technical innovation." -> "Technical innovation hasn't
    aided unfortunately operators."; "Seemingly endemic corruption" is a noun phrase).
  - a present or perfect tense whose agent's number is unsure: a name ending in "s" ("the Philippines"), a noun
    that may be its own plural ("sheep", "series", "news", "the data", "the public"), a quantity before "of" ("a
    number of people", "lots of food", "thousands of tourists").
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


def _verb_group(tense: str, aux: str, lemma: str, participle: str, number: str | None, neg: str | None) -> str | None:
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
    verb = _verb_group(tense, toks[aux].low, lemma, toks[by - 1].low, phrase_number(toks, by + 1, stop), neg)
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
