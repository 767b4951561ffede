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
* `headline_active`: a headline's passive participle with a "by" agent said in the active, in the headline's present
  tense agreeing with the agent ("Mauritanian president shot by army unit" -> "Army unit shoots Mauritanian
  president", "China rocked by twin earthquakes" -> "Twin earthquakes rock China", "Drug lord captured by marines
  in Mexico" -> "Marines capture drug lord in Mexico"). Only in a headline: a capitalised first word, no final
  punctuation, at most `_MAX_HEADLINE` tokens, no comma; the subject is a plain noun phrase directly before the
  participle (no pronoun, no auxiliary: "U.S. says saddened by ..."), and the agent and the phrase after it follow
  `passive_by`'s guards. A bare singular subject is lower-cased only when it is a noun of `CAPTION_PERSON_NOUNS`
  ("Woman",
  "Man", "Girl", "Cat"), else it must be a known name ("Romney", "China") or is refused ("Bill passed by Senate",
  "Bush criticized by ..."); a headline in title case ("Man Arrested By Police") is refused, and so are verbs whose
  past tense + "by" may be active (`INTRANSITIVE_BY`: "Obama stopped by a diner").
* `caption_passive`: a caption, SUBJECT + "is"/"are" + the -ing form of a verb of `CAPTION_VERBS` + OBJECT (+ one
  or two prepositional phrases), said in the progressive passive, the phrases kept right after the participle where
  they still belong to the verb ("A man is slicing a potato." -> "A potato is being sliced by a man.", "Two dogs are
  chasing a ball in the park." -> "A ball is being chased in the park by two dogs.", "A woman is slicing an onion with
  a knife." -> "An onion is being sliced with a knife by a woman.", "A woman is cracking eggs into a bowl" -> "Eggs
  are being cracked into a bowl by a woman"); the simple present likewise ("A man slices a potato." -> "A potato is
  sliced by a man."). "is"/"are" agree with the object (its determiner, else its noun; a bare singular only for a
  mass noun of `CAPTION_MASS_NOUNS`: "Meat is being cut"); the object keeps its determiner with its first letter raised,
  the subject is lowered as in `passive_by` ("The woman" -> "the woman", "Someone" -> "someone"; a name keeps its
  case); participles from lemminflect, a few in their commoner form (`CAPTION_PARTICIPLES`: "mowed", "smelled").
  Guards, each with the case it refuses:
  - only the verbs of `CAPTION_VERBS`, agentive actions on a thing or being; left out are states and perception
    ("wearing a hat", "having fun", "watching TV", "facing a camera"), light verbs and idioms ("taking a picture",
    "making a face", "doing a trick", "giving an interview", "running a race"), verbs whose object is a path or
    place, or a goal ("crossing the street", "climbing a tree", "approaching the runway": "The runway is approached
    by a white Swiss airplane"); "play" only with an instrument of `INSTRUMENTS` ("Soccer is being played by boys"
    is refused, "A guitar is being played by a man" is made); "hold" only with nothing after its object ("Shopping
    bags are being held on a busy city street" reads as an event).
  - the object is a short noun phrase: a determiner of `CAPTION_OBJECT_DETERMINERS` (no possessive: "washing her feet";
    no
    pronoun: "licking himself", "hugging someone"), nouns, adjectives, a participle before its noun ("a cutting
    board"), one "of" + noun phrase ("a piece of meat"); a bare singular that is no mass noun ("playing guitar"); a
    body part ("shaking the head", "raising a hand"; "the back of an animal" passes); a quantity whose number is the
    noun's after "of" ("a couple of toaster scrambles"); a number that is unsure ("the fish", "some sheep").
  - a particle before or after the object ("picking up a ball", "picking a ball up"), a preposition right after the
    verb ("walking on the beach", "singing to a woman").
  - after the object only one or two prepositional phrases of plain noun phrases, none about how someone looks or
    the scene behind ("kissing a woman with long hair", "biting a man in a red shirt", "holding kites with water in
    the background": those may belong to the object); anything else after it is refused ("chasing a ball and a
    stick", "slicing a potato quickly", "holding a couch which ..."), and a phrase whose noun has no determiner
    ("riding a toy tricycle on springs", "pushing a cart with wheels": it may describe the object); kept are a goal
    or result after "into"/"onto" ("into small pieces"), "in half", "in front of", a place without its article
    ("on stage"), and "with" the material or instrument of a verb of `WITH_VERBS` ("filling a pitcher with water",
    "cutting a pipe with scissors").
  - an object with "another" or "other" ("One boy is pushing another boy on a swing" -> "Another boy is being
    pushed ... by one boy", "the other dog"): a correlative that points back to the subject would come before it.
  - the subject is a plain noun phrase (`passive_by`'s test; "A man and a woman", "A child in red" pass; "The woman
    holding a black purse", "A person who plays soccer" are refused); no bare singular ("Person in yellow shirt"),
    no pronoun ("He is slicing"), no "there"; no quantifier or negative word whose scope would change
    (`SCOPE_WORDS`: "Every man is lifting a box" -> "A box is being lifted by every man", "Nobody is riding the
    bicycle").
  - a comma, a possessive "'s", negation ("is not slicing"), a question, "by", "or", a relative or subordinate word
    anywhere; in the simple present a subject that starts with no determiner (a headline: "Fire breaks out",
    "Quake hits Indonesia").
* `caption_active`: the other way, a caption in the progressive passive with a "by" agent said in the active
  progressive ("A potato is being sliced by a man." -> "A man is slicing a potato.", "Eggs are being cracked into a
  bowl by a woman" -> "A woman is cracking eggs into a bowl"), for the same verbs and object phrases as
  `caption_passive`; the agent takes everything after it along as the new subject ("by a man in a blue cowboy
  hat" -> "A man in a blue cowboy hat is riding ...", "by a monkey at the zoo" -> "A monkey at the zoo is ..."), as
  a phrase there may describe the agent; "is"/"are" agree with the agent's head (`passive_by`'s `_number`). Refused:
  an agent that is a pronoun or holds a possessive ("by his opponent" -> "His opponent is tackling a soccer
  player"), a quantifier of `SCOPE_WORDS`, a subject `caption_passive` would not take as an object ("Soccer is
  being played", "His head is being shaken"), an agent that is no plain noun phrase ("by a man wearing a hat"), an
  auxiliary or "and" between the participle and "by".
"""

from __future__ import annotations

import re

from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _final_punct, _is_form, _lemmas, _lower_first_word, inflect, is_noun, verb_only,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    AGENT_DETERMINERS, APPEARANCE_NOUNS, AUXILIARY_WORDS, BARE_PLACES, BE_NEGATED_TENSES, BE_TENSES, BODY_PARTS,
    CAPTION_MASS_NOUNS, CAPTION_OBJECT_DETERMINERS, CAPTION_PARTICIPLES, CAPTION_PERSON_NOUNS, CAPTION_VERBS,
    CLEAR_PLURALS, COLOURS, FOCUS_ADVERBS, GARMENTS, INSTRUMENTS, INTRANSITIVE_BY, INVARIANT_PLURALS,
    LEADING_CONJUNCTIONS, MONTHS, NAME_WORDS, NOT_OR_NEVER, NO_AGENT, NO_AGENT_HEADS, NUMBER_WORDS,
    OBJECT_PLURAL_DETERMINERS, OBJECT_SINGULAR_DETERMINERS, OBJECT_TO_SUBJECT_PRONOUN, OF_VERBS, OPENING_ADVERBS,
    PARTICLES, PERFECT_NEGATED_TENSES, PERFECT_TENSES, PLACES, PLURAL_PRONOUNS, QUANTITY_HEADS, REFUSED_PARTICIPLES,
    REFUSED_PUNCT, RELATION_PARTICIPLES, SCOPE_WORDS, SUBJECT_BOUNDARY_PREPOSITIONS, SUBJECT_TO_OBJECT_PRONOUN,
    TAIL_PREPOSITIONS, TIME_ADVERBS_IN_VERB_GROUP, TIME_TAILS, TIME_UNITS, WEEKDAYS, WITH_VERBS,
)


def _verb_lemma(word: str, tag: str = "VBN", among: frozenset[str] | None = None) -> str | None:
    """The one verb lemma (of `among`, when given) whose Penn `tag` form `word` is ("VBN": the past participle), or
    None when there is none or more than one."""
    from lemminflect import getInflection

    lemmas = [lemma for lemma in _lemmas(word).get("VERB", ())
              if (among is None or lemma in among) and word in getInflection(lemma, tag, inflect_oov=False)]
    return lemmas[0] if len(lemmas) == 1 else None


def _is_name(t: Tok) -> bool:
    return t.text[:1].isupper() and t.text[1:2].islower() or t.text.isupper() and len(t.text) > 1


def _content(t: Tok) -> bool:
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


def _noun_phrase(toks: list[Tok], start: int, end: int, *, subject: bool) -> bool:
    """Whether toks[start:end] is a plain noun phrase (see the module's guards); the subject may hold prepositional
    phrases and its first word may be capitalised."""
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
        elif _is_name(t):
            if is_stopword(low) and not t.text.isupper():
                return False  # a capitalised function word: a title in title case
        elif _content(t):
            word = low.split("'")[0]
            before = prev.low.split("'")[0] if prev is not None else ""
            if word.endswith("ing") and _is_form(word, "VBG") and prev is not None and _content(prev) \
                    and is_noun(before) and not (_is_form(before, "VBG") or "ADJ" in _lemmas(before)):
                return False  # "a woman wearing white shoes": a reduced relative clause
            if verb_only(word):
                # a participle or gerund only before the noun it modifies ("recorded announcements")
                if _is_form(word, "VBZ") or nxt is None or not (_is_name(nxt) or _content(nxt)
                                                                   and not verb_only(nxt.low)):
                    return False
        else:
            return False
        prev = t
    last = toks[end - 1]
    if last.low in ("of", "and") or last.low in AGENT_DETERMINERS:
        return False  # "by many"
    return _is_name(last) or is_noun(last.low.split("'")[0]) or last.low[:1].isdigit()


def _number(toks: list[Tok], start: int, end: int) -> str | None:
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
    if _is_name(head):
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
                and all(_is_name(t) and not is_stopword(t.low) for t in toks[p + 1:end]) \
                and toks[p + 1].low not in MONTHS | WEEKDAYS:
            return p
    return end


def _agent(toks: list[Tok], by: int, end: int, lemma: str) -> int | None:
    """The end of the agent after "by" at `by` (where the phrase that stays at the end begins), or None when it is
    no agent (see the module's guards)."""
    stop = _tail(toks, by + 1, end)
    if stop <= by + 1:
        return None
    words = toks[by + 1:stop]
    if any(t.low == "of" and (_is_name(toks[k - 1]) and k + 1 < stop and toks[k + 1].text.islower()
                              or lemma in OF_VERBS)
           for k, t in enumerate(toks[by + 1:stop], by + 1)):
        return None  # "accused by UN of war crimes"
    if words[0].low in NO_AGENT or any(t.low in NO_AGENT_HEADS or t.text[:1].isdigit()
                                        or t.low in MONTHS | WEEKDAYS or t.low == "by" for t in words):
        return None
    return stop if _noun_phrase(toks, by + 1, stop, subject=False) else None


def _participle(toks: list[Tok], part: int) -> str | None:
    """The verb lemma of the passive participle at `part`, or None when it is refused."""
    t = toks[part]
    if not t.text.islower() or t.low in REFUSED_PARTICIPLES or not _is_form(t.low, "VBN"):
        return None
    lemma = _verb_lemma(t.low)
    return lemma


def _object(text: str, toks: list[Tok], start: int, end: int, plural_aux: bool) -> str | None:
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


def _present(lemma: str, number: str) -> str | None:
    return inflect(lemma, "VBZ" if number == "sg" else "VBP")


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
        present = _present(lemma, number)
        return present and (neg + " " if neg else "") + present
    if tense in ("perfect", "pluperfect"):
        have = "had" if tense == "pluperfect" else "has" if sg else "have"
        return (have + "n't" if neg == "n't" else have + (" " + neg if neg else "")) + " " + participle
    return None


def _the_by(toks: list[Tok], first: int) -> int | None:
    """The index of the sentence's one "by", when it is at token `first` or later; None for no or several."""
    bys = [k for k, t in enumerate(toks) if t.low == "by"]
    return bys[0] if len(bys) == 1 and bys[0] >= first else None


def rule_passive_by(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = _final_punct(toks)
    if end < 5 or any(t.text in REFUSED_PUNCT for t in toks):
        return None
    by = _the_by(toks, 3)
    if by is None:
        return None
    lemma = _participle(toks, by - 1)
    found = lemma and _auxiliaries(toks, by - 1)
    if not found:
        return None
    aux, tense, neg, adverb = found
    if adverb is not None and adverb.lower() in FOCUS_ADVERBS or toks[by - 1].low in RELATION_PARTICIPLES:
        # "is only faced by": the focus would change; "separated by a gap": a relation's second term
        return Refusal("focus_adverb_or_relation")
    start = _subject_start(toks, aux)
    if start is None or start >= aux or not _noun_phrase(toks, start, aux, subject=True) \
            or start > 0 and aux - start == 1 and toks[start].low in ("this", "that") or _opening_adverb(toks, start):
        return Refusal("subject_unfit")
    stop = _agent(toks, by, end, lemma)
    if stop is None:
        return Refusal("agent_unfit")
    verb = _verb_group(tense, toks[aux].low, lemma, toks[by - 1].low, _number(toks, by + 1, stop), neg)
    plural_aux = toks[aux].low in ("were", "are", "have", "weren't", "aren't", "haven't")
    obj = _object(text, toks, start, aux, plural_aux)
    if verb is None or obj is None:
        return Refusal("no_inflection")
    agent = _agent_text(text, toks, by, stop, start == 0)
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


def _agent_text(text: str, toks: list[Tok], by: int, stop: int, at_start: bool) -> str:
    words = toks[by + 1:stop]
    agent = text[words[0].start:words[-1].end]
    if len(words) == 1 and words[0].low in OBJECT_TO_SUBJECT_PRONOUN:
        agent = OBJECT_TO_SUBJECT_PRONOUN[words[0].low]
    return agent[:1].upper() + agent[1:] if at_start else agent


# -- headline_active ------------------------------------------------------------------------------------------------
_MAX_HEADLINE = 16


def rule_headline_active(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = len(toks)
    if not 4 <= end <= _MAX_HEADLINE or _final_punct(toks) != end or not toks[0].text[:1].isupper() \
            or any(t.text in REFUSED_PUNCT or t.text == "," for t in toks):
        return None
    by = _the_by(toks, 2)
    if by is None:
        return None
    lemma = _participle(toks, by - 1)
    if lemma is None or lemma in INTRANSITIVE_BY or not _noun_phrase(toks, 0, by - 1, subject=True) \
            or any(t.low in SUBJECT_TO_OBJECT_PRONOUN or t.low in AUXILIARY_WORDS for t in toks[:by - 1]):
        return Refusal("subject_or_verb_unfit")
    stop = _agent(toks, by, end, lemma)
    if stop is None or any(t.low in OBJECT_TO_SUBJECT_PRONOUN for t in toks[by + 1:stop]):
        return Refusal("agent_unfit")
    number = _number(toks, by + 1, stop)
    obj = _object(text, toks, 0, by - 1, plural_aux=False)
    verb = number and _present(lemma, number)
    if verb is None or obj is None:
        return Refusal("no_inflection")
    agent = _agent_text(text, toks, by, stop, True)
    tail = "" if stop == end else " " + text[toks[stop].start:]
    return agent + " " + verb + " " + obj + tail


# -- caption_passive, caption_active --------------------------------------------------------------------------------


def _caption_lemma(word: str, tag: str) -> str | None:
    """The lemma of `CAPTION_VERBS` whose `tag` form ("VBG", "VBN", "VBZ") `word` is, or None."""
    return _verb_lemma(word, tag, CAPTION_VERBS)


def _caption_participle(lemma: str) -> str | None:
    return CAPTION_PARTICIPLES.get(lemma) or inflect(lemma, "VBN")


def _plain_word(t: Tok) -> bool:
    """A lower-case noun, adjective or number that may be part of a short caption noun phrase."""
    return t.text.islower() and _content(t) and t.low not in TAIL_PREPOSITIONS and t.low not in PARTICLES \
        and not verb_only(t.low.split("'")[0]) and t.low not in ("and", "or")


def _unknown(t: Tok) -> bool:
    """A lower-case word lemminflect does not know ("frisbee", "tofu"): a noun where a determiner comes before it."""
    return t.text.isalpha() and t.text.islower() and not _lemmas(t.low) and not is_stopword(t.low)


def _caption_np(toks: list[Tok], i: int, end: int) -> tuple[int, int, str | None] | None:
    """A short noun phrase at toks[i]: (its end, the index of its head noun, the determiner or None), allowing a
    participle before a noun ("a cutting board", "shredded cheese") and one "of" + noun phrase after the head ("a
    piece of meat"); a word lemmainflect does not know only after a determiner. None when there is none."""
    det = None
    j = i
    if j < end and toks[j].text.islower() and toks[j].low in CAPTION_OBJECT_DETERMINERS:
        det, j = toks[j].low, j + 1
        if det == "some" and j < end and toks[j].low == "of":
            return None
    k = _np_words(toks, j, end, det is not None)
    if k == j or not (is_noun(toks[k - 1].low) or det and _unknown(toks[k - 1])) or det is None and k > j + 3:
        return None
    head = k - 1
    if k + 1 < end and toks[k].low == "of":
        j2 = k + 1
        det2 = j2 < end and toks[j2].text.islower() and toks[j2].low in CAPTION_OBJECT_DETERMINERS
        j2 += det2
        k2 = _np_words(toks, j2, end, det2)
        if k2 == j2 or not (is_noun(toks[k2 - 1].low) or det2 and _unknown(toks[k2 - 1])):
            return None
        k = k2
    return k, head, det


def _np_words(toks: list[Tok], k: int, end: int, after_det: bool) -> int:
    """Where the words of a noun phrase that begin at toks[k] (after its determiner) end."""
    first = k
    while k < end:
        t = toks[k]
        if _plain_word(t) or after_det and _unknown(t):
            k += 1
        elif k == first and t.text.islower() and verb_only(t.low) and k + 1 < end and _plain_word(toks[k + 1]):
            k += 1  # "a cutting board", "shredded cheese"; not "a track creating smoke"
        else:
            break
    return k


def _tail_phrases(toks: list[Tok], k: int, end: int) -> bool:
    """Whether toks[k:end] is empty or one or two prepositional phrases of plain noun phrases ("in the park", "with a
    knife", "into a bowl", "in half"), none about how someone looks ("in a red shirt", "with long hair": those may
    belong to the object)."""
    phrases = 0
    while k < end:
        if toks[k].low not in TAIL_PREPOSITIONS or not toks[k].text.islower() or phrases == 2:
            return False
        np = _caption_np(toks, k + 1, end)
        if np is None:
            return False
        if any(t.low in GARMENTS or t.low in COLOURS or t.low in APPEARANCE_NOUNS or t.low in BODY_PARTS
               for t in toks[k + 1:np[0]]):
            return False
        k, phrases = np[0], phrases + 1
    return True


def _bare_tail(toks: list[Tok], k: int, end: int, lemma: str) -> bool:
    """Whether a prepositional phrase of toks[k:end] (which `_tail_phrases` accepted) has a noun without a
    determiner ("on springs", "with wheels"); not a goal or result after "into"/"onto" ("into small pieces"), "in
    half", "in front of", a place without its article ("on stage", "at home"), nor "with" the material or
    instrument of a verb of `WITH_VERBS` ("filling a pitcher with water", "cutting a pipe with scissors")."""
    while k < end:
        np = _caption_np(toks, k + 1, end)
        if np is None:
            return False
        prep, first = toks[k].low, toks[k + 1].low
        if np[2] is None and not (prep in ("into", "onto") or prep == "in" and first in ("half", "front")
                                  or prep == "with" and lemma in WITH_VERBS
                                  or np[0] == k + 2 and first in BARE_PLACES):
            return True
        k = np[0]
    return False


def _object_number(toks: list[Tok], head: int, det: str | None) -> str | None:
    """'sg' or 'pl' for a caption object with its head noun at `head`, or None when unsure ("the fish", "some
    sheep")."""
    word = toks[head].low
    nouns = _lemmas(word).get("NOUN", ())
    if not _lemmas(word):
        return "sg" if det in OBJECT_SINGULAR_DETERMINERS else None  # "a frisbee"
    if word in INVARIANT_PLURALS or word in ("fish", "sheep", "deer", "shrimp", "squid"):
        return "sg" if det in OBJECT_SINGULAR_DETERMINERS else "pl" if det in OBJECT_PLURAL_DETERMINERS else None
    plural = word not in nouns
    if det in OBJECT_SINGULAR_DETERMINERS or det in ("the", "some") and not plural:
        return None if plural else "sg"
    if det in OBJECT_PLURAL_DETERMINERS:
        return "pl" if plural else None
    if plural:
        return "pl"
    return "sg" if word in CAPTION_MASS_NOUNS else None  # "Meat is being cut"; not "Guitar is being played"


def _caption_subject(text: str, toks: list[Tok], aux: int) -> str | None:
    """The caption's subject toks[:aux] as it reads after "by" ("A man" -> "a man", "Men" -> "men", "Someone" ->
    "someone", a name as it is), or None when it is refused (see the module's guards)."""
    words = toks[:aux]
    if any(t.low in SCOPE_WORDS or t.low in SUBJECT_TO_OBJECT_PRONOUN
           or t.low in ("there", "here", "who", "which", "that") for t in words):
        return None
    first = toks[0].low
    if first not in CAPTION_OBJECT_DETERMINERS and is_noun(first) and first in _lemmas(first).get("NOUN", ()) \
            and first not in ("someone", "somebody", "people"):
        return None  # a bare singular ("Person in yellow shirt is cleaning ...")
    if aux == 1 and toks[0].low in ("someone", "somebody"):
        return toks[0].low
    if not _noun_phrase(toks, 0, aux, subject=True):
        return None
    return _object(text, toks, 0, aux, plural_aux=toks[aux].low == "are")  # toks[aux]: "is", "are" or the verb


def _caption_clean(toks: list[Tok], end: int) -> bool:
    """A caption with no punctuation but the final one and no clause word, negation or "by" after its first word."""
    return end >= 4 and not any(t.text in REFUSED_PUNCT or t.text in (",", "'s", "’s") for t in toks) \
        and not any(t.low in ("or", "but", "while", "as", "who", "which", "that", "not", "n't", "by", "when", "if")
                    for t in toks[1:end])


def rule_caption_passive(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = _final_punct(toks)
    if not _caption_clean(toks, end):
        return None
    aux = next((k for k, t in enumerate(toks[:end]) if t.low in AUXILIARY_WORDS), None)
    if aux is not None:  # the present progressive: "A man is slicing a potato."
        if aux < 1 or aux + 2 >= end or toks[aux].low not in ("is", "are") or not toks[aux].text.islower():
            return None
        lemma = toks[aux + 1].text.islower() and _caption_lemma(toks[aux + 1].low, "VBG")
        be_object = "being "
    else:  # the simple present: "A man slices a potato."
        aux = next((k for k in range(1, min(end, 6)) if toks[k].text.islower()
                    and _caption_lemma(toks[k].low, "VBZ")), None)
        if aux is None or aux + 1 >= end or (toks[0].low not in CAPTION_OBJECT_DETERMINERS | {"someone", "somebody"}):
            return None  # a headline ("Fire breaks out", "5.9 quake hits Indonesia")
        lemma, aux, be_object = _caption_lemma(toks[aux].low, "VBZ"), aux - 1, ""
    if not lemma or any(t.low == "and" for t in toks[aux + 1:end]):
        return Refusal("coordination_after")  # "is slicing a potato and singing", "chasing a ball and a stick"
    found = _caption_rest(toks, aux + 2, end, lemma)
    subject = found and _caption_subject(text, toks, aux + (not be_object))
    participle = _caption_participle(lemma)
    if not subject or participle is None:
        return Refusal("subject_unfit")
    obj_end, number = found
    obj = text[toks[aux + 2].start:toks[obj_end - 1].end]
    tail = text[toks[obj_end].start:toks[end - 1].end] + " " if obj_end < end else ""
    return (obj[:1].upper() + obj[1:] + (" is " if number == "sg" else " are ") + be_object + participle + " "
            + tail + "by " + subject + text[toks[end - 1].end:])


def _caption_rest(toks: list[Tok], k: int, end: int, lemma: str) -> tuple[int, str] | None:
    """The caption's object at toks[k] and what follows it: (the object's end, its number), or None when they are
    refused (see the module's guards)."""
    if toks[k].low in PARTICLES | TAIL_PREPOSITIONS or not toks[k].text.islower():
        return None  # "picking up a ball", "looking at", a name
    np = _caption_np(toks, k, end)
    if np is None:
        return None
    obj_end, head, det = np
    head_word = toks[head].low
    if head_word in ("couple", "lot", "lots", "number", "plenty", "majority", "dozen", "dozens", "few", "bunch"):
        return None  # "a couple of toaster scrambles is removed": the number is the noun's after "of"
    if any(t.low in BODY_PARTS for t in toks[k:obj_end]) and not (head + 1 < obj_end and toks[head + 1].low == "of"):
        return None  # "is shaking the head", "raising a hand"; "the back of an animal" is no part of the subject
    if lemma == "play" and head_word not in INSTRUMENTS:
        return None  # "playing soccer", "playing a game"
    if obj_end < end and toks[obj_end].low in PARTICLES and (obj_end + 1 == end or toks[obj_end].low not in
                                                              TAIL_PREPOSITIONS):
        return None  # "picking a ball up"
    if not _tail_phrases(toks, obj_end, end) or lemma == "hold" and obj_end < end:
        return None  # "Shopping bags are being held on a busy street": "held" there reads as an event
    if any(t.low in ("other", "another") for t in toks[k:obj_end]):
        return None  # "One boy is pushing another boy": "another" points back to the subject it would come before
    if _bare_tail(toks, obj_end, end, lemma):
        return None  # "riding a toy tricycle on springs": a phrase without a determiner may describe the object
    number = _object_number(toks, head, det)
    return (obj_end, number) if number else None


def rule_caption_active(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = _final_punct(toks)
    low = [t.low for t in toks]
    if "being" not in low or low.count("by") != 1 or not _caption_clean(toks, end) and not (
            _caption_clean(toks[:low.index("by")] + toks[low.index("by") + 1:], end - 1)):
        return None
    aux = low.index("being") - 1
    by = low.index("by")
    if aux < 1 or low[aux] not in ("is", "are") or not toks[aux].text.islower() or by < aux + 3 \
            or any(w in AUXILIARY_WORDS or w == "and" for w in low[aux + 2:by]):
        return None
    lemma = toks[aux + 2].text.islower() and _caption_lemma(low[aux + 2], "VBN")
    if not lemma or lemma == "play" and not any(w in INSTRUMENTS for w in low[:aux]):
        return None
    # the old subject must be what `caption_passive` makes an object of, and what is between the participle and
    # "by" one or two plain prepositional phrases
    first = toks[0]
    if first.low not in CAPTION_OBJECT_DETERMINERS and not first.text.islower() \
            and _lemmas(first.low).get("NOUN") is None:
        return None
    np = _caption_np([Tok(first.text.lower(), first.start, first.end)] + toks[1:aux], 0, aux)
    if np is None or np[0] != aux or any(w in BODY_PARTS for w in low[:aux]) or low[np[1]] in SCOPE_WORDS \
            or not _tail_phrases(toks, aux + 3, by):
        return Refusal("object_unfit")
    # the agent and all after it become the subject ("by a man in a red shirt" -> "A man in a red shirt is ...")
    if by + 1 >= end or any(w in SCOPE_WORDS or w in OBJECT_TO_SUBJECT_PRONOUN or w in ("his", "their", "its")
                            for w in low[by + 1:end]) \
            or toks[by + 1].low not in CAPTION_OBJECT_DETERMINERS | {"someone", "somebody"} \
            and not toks[by + 1].text.islower() \
            or not _noun_phrase(toks, by + 1, end, subject=True):
        return Refusal("agent_unfit")
    head_end = next((k for k in range(by + 2, end) if low[k] in TAIL_PREPOSITIONS), end)
    number = "sg" if head_end == by + 2 and low[by + 1] in ("someone", "somebody") \
        else _number(toks, by + 1, head_end)
    ing = inflect(lemma, "VBG")
    obj = _lower_first_word(text[first.start:toks[aux - 1].end])
    if number is None or ing is None or obj is None and not (first.text[1:].islower() and is_noun(first.low)):
        return Refusal("no_inflection")
    obj = obj or first.text.lower() + text[first.end:toks[aux - 1].end]
    agent = text[toks[by + 1].start:toks[end - 1].end]
    mid = " " + text[toks[aux + 3].start:toks[by - 1].end] if by > aux + 3 else ""
    return (agent[:1].upper() + agent[1:] + (" is " if number == "sg" else " are ") + ing + " " + obj + mid
            + text[toks[end - 1].end:])


VOICE_RULES: dict[str, Rule] = {"passive_by": rule_passive_by, "headline_active": rule_headline_active,
                               "caption_passive": rule_caption_passive, "caption_active": rule_caption_active}
