"""Rewrites for news headlines: their telegraphic verb forms said in full, in another tense or in the active. What
each rule does, its guards and its cases (golden and refused): `cases/headlines.json`.

A headline is what `_headline` accepts, its clause starting where `_headline_start` says. Its subject holds names,
nouns, numbers, "of" and "'s" (at most `_MAX_SUBJECT` words) and takes its number from its head (`_plural_head`).
In a headline in title case (`_title_case`) the words a rule adds are capitalised.

`headline_passive` gives a bare participle "was"/"were", or "is"/"are" for the participles of expectation before
"to" + a verb and for "set/poised/braced for" (`TO_VERB_PASSIVE`, `PRESENT_BEFORE`); an -ly adverb before the
participle goes after the auxiliary. After the participle may come a preposition, "by" + an agent, the end, or a
predicate adjective after the verbs of `PREDICATIVE_VERBS`; an object, a particle or a name may make it active.
`headline_active` reads the subject, the agent and the phrase after it as `passive_by` does (`agents.py`) and says
the verb in the present, agreeing with the agent; a bare singular subject is lower-cased only when it is a noun of
`CAPTION_PERSON_NOUNS`, else it must be a known name. `headline_perfect` takes the verbs of a single event of
`EVENT_VERBS` after a singular subject; `headline_event` those of `OBJECT_VERBS` (transitive, their -s form often a
noun) after any subject and those of `EVENT_VERBS` after a plural one, with an object after the verb
(`_object_next`); verbs whose headline present is a state, or whose participle is unsure, are in neither list.
`headline_and` takes the subjects `_conjunct` accepts. `died_aged` takes an age from 1 to 120 followed by the end,
punctuation or a word of `AFTER_AGE`.

Not a rule: two coordinated modifiers changing places. The order of coordinated adjectives is often preferred or
fixed, and "W1 and W2 N" may be "[W1] and [W2 N]", for a reach below one sentence in a hundred.
"""

from __future__ import annotations

import re

from bsl_pipeline.pipeline.augment.rewrite_rules.agents import (
    agent_end, agent_text, as_object, other_form, passive_lemma, phrase_number, plain_noun_phrase, present_form,
    the_one_by,
)
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _final_punct, _is_form, _is_word, _lemmas, splice, verb_lemmas, verb_only,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    ACTIVE_PAST, AFTER_AGE, AFTER_PARTICIPLE, AMBIGUOUS_SUBJECT_VERBS, AUXILIARIES, AUXILIARY_WORDS, DIE_FORMS,
    EVENT_ADJECTIVES, EVENT_VERBS, HEADLINE_VERBS, INTRANSITIVE_BY, MARKET_MOVES, MONTHS, NEITHER_NUMBER,
    NOT_IN_HEADLINE, NOT_OBJECT, NUMBER_WORDS, OBJECT_START, OBJECT_TO_SUBJECT_PRONOUN, OBJECT_VERBS, OF_PARTICIPLES,
    PLURAL_WORDS, PREDICATIVE, PREDICATIVE_VERBS, PRESENT_BEFORE, PRONOUNS_AND_DEMONSTRATIVES, REFUSED_PUNCT,
    SINGULAR_WORDS, STATIVE_PARTICIPLES, SUBJECT_TO_OBJECT_PRONOUN, TIME_AFTER, TO_VERB_PASSIVE, US_STATES, WEEKDAYS,
)

# -- headline_passive -----------------------------------------------------------------------------------------------
_MAX_SUBJECT = 7
_MAX_HEADLINE = 16


def _title_case(toks: list[Tok]) -> bool:
    """Whether a headline is in title case: most of its content words after the first are capitalised."""
    content = [t for t in toks[1:] if t.text[:1].isalpha() and not is_stopword(t.text)]
    return len(content) >= 2 and sum(t.text[:1].isupper() for t in content) >= 0.8 * len(content)


def _plural_head(toks: list[Tok]) -> bool | None:
    """Whether the subject (the tokens before the participle) is plural, by its head (the noun before "of", else the
    last word); None when unclear (an unknown word in -s, "number of", "staff" and the like)."""
    words = [t.low for t in toks]
    if "and" in words or "&" in words:
        i = words.index("and") if "and" in words else words.index("&")
        if i == 0 or i == len(words) - 1 or toks[i + 1].text[:1].isupper() and toks[i - 1].text[:1].isupper():
            return None  # "Bosnia and Herzegovina", or a title-case headline: one name or two?
        return True
    if "of" in words:
        i = words.index("of")
        if i == 0:
            return None
        head = toks[i - 1]
        if head.low in NEITHER_NUMBER:
            return None
        if head.low in ("dozens", "hundreds", "thousands", "millions", "scores", "tens", "lots"):
            return True
    else:
        head = toks[-1]
    if any(t.low.isdigit() and t.low != "1" or t.low in NUMBER_WORDS[2:] for t in toks[:-1]):
        return True  # "two Nato", "3 US soldiers"
    low = head.low
    if low in NEITHER_NUMBER:
        return None
    if low in PLURAL_WORDS:
        return True
    if low in SINGULAR_WORDS:
        return False
    if low.isdigit():
        return low != "1"
    if low in NUMBER_WORDS:
        return low != "one"
    if re.fullmatch(r"[A-Z]{2,}s", head.text):
        return True  # "MPs"
    if head.text.isupper():
        return False  # "NATO", "UN"
    lemmas = _lemmas(low).get("NOUN", ())
    if not lemmas:
        if low.endswith("s") and not low.endswith(("ss", "us", "is")):
            return None  # "Texans", "Jones": a plural or a name
        if head.text[:1].isupper() or "ADJ" in _lemmas(low) or not _lemmas(low):
            return False if head.text[:1].isupper() else None
        return None
    from lemminflect import getInflection

    plural = any(low in getInflection(lemma, "NNS") for lemma in lemmas if lemma != low)
    if low in lemmas:  # its own lemma: singular, unless also another's plural ("expectations", "goods": unclear)
        return None if plural else False
    return True if plural else None


def _headline_start(toks: list[Tok]) -> int | None:
    """Index where the headline's clause starts: after a "Label:" and an "At least"."""
    start = 0
    if len(toks) > 2 and toks[1].text == ":" and _is_word(toks[0]):
        start = 2
    if len(toks) > start + 2 and toks[start].low == "at" and toks[start + 1].low in ("least", "most"):
        start += 2
    return start


def _is_pronoun(tok: Tok) -> bool:
    return tok.low in PRONOUNS_AND_DEMONSTRATIVES and not tok.text.isupper()  # "US" is no pronoun


def _second_verb(toks: list[Tok]) -> bool:
    """Whether the words after the participle have a verb of their own ("... in Libya faces 45-day detention")."""
    for m, x in enumerate(toks):
        if x.low in AUXILIARIES or verb_only(x.low) and not x.low.endswith("ing") and not x.text[:1].isupper():
            return True
        if x.low in HEADLINE_VERBS:
            return True  # "Girl accused of burning Koran goes into hiding"
        nxt = toks[m + 1] if m + 1 < len(toks) else None
        if (m > 0 and x.low.endswith("s") and _is_form(x.low, "VBZ") and nxt is not None and _is_word(nxt)
                and nxt.low not in AFTER_PARTICIPLE and nxt.low not in ("and", "or", "out")):
            return True
    return False


def _ends_subject(toks: list[Tok], k: int, start: int) -> bool:
    """Whether token k, no participle, ends a headline's subject before its participle is found (the subject holds
    names, nouns, numbers, "of" and "'s"); then the clause takes no auxiliary."""
    t, low = toks[k], toks[k].low
    if t.text == "," or low in AUXILIARIES or low == "to" or verb_only(low) or _is_pronoun(t):
        return True  # the subject ends, or the clause has another verb first
    if low in AFTER_PARTICIPLE and low != "of":
        return True  # "Residents near Gaza": the subject's head is unclear
    if t.text == "." and t.start == toks[k - 1].end and re.fullmatch(r"[A-Z](\.[A-Z])*", toks[k - 1].text):
        return False  # "U.S."
    return not (_is_word(t) or t.text.isdigit() or low in ("'s", "-")) or (
        is_stopword(t.text) and low not in ("of", "and") and not (k == start and low in ("the", "a"))
        and low not in NUMBER_WORDS and low not in PLURAL_WORDS)


def _passive_tense(toks: list[Tok], k: int, end: int) -> str | None:
    """The tense the participle at token k says ("past"; "present" for "expected to", "set for"); None when it may
    be active or a state."""
    low = toks[k].low
    nxt = toks[k + 1] if k + 1 < end else None
    after = toks[k + 2] if k + 2 < end else None
    verbs = verb_lemmas(low)
    if nxt is not None and nxt.low == "to" and after is not None and _is_form(after.low, "VB"):
        return TO_VERB_PASSIVE.get(low)  # "Iranians planned to attack": active
    if nxt is not None and nxt.low == "by" and after is not None and not after.text[:1].isdigit():
        return None if low in STATIVE_PARTICIPLES else "past"  # "Rebels backed by Iran": a state
    if nxt is not None and (low, nxt.low) in PRESENT_BEFORE:
        return "present"  # "Hong Kong set for democracy march"
    if low in STATIVE_PARTICIPLES or any(lemma in ACTIVE_PAST for lemma in verbs):
        return None  # "Stocks rallied on ...": active
    if nxt is not None and nxt.low in PREDICATIVE:
        if not any(lemma in PREDICATIVE_VERBS for lemma in verbs) or after is not None and (
                after.low not in AFTER_PARTICIPLE):
            return None  # "Police shot dead 30 miners": active, with an object
        return "past"
    if ("ADJ" in _lemmas(low) or "NOUN" in _lemmas(low)) and low not in EVENT_ADJECTIVES:
        return None  # "Jordan biased over ...": an adjective; "Tax cut in ...": a compound noun
    if nxt is not None and nxt.low not in AFTER_PARTICIPLE and not (
            nxt.low == "out" and after is not None and after.low == "of"):
        return None  # an object, a particle, a comma: the verb may be active
    return "past"


def _auxiliary_at(toks: list[Tok], start: int, end: int, k: int, title: bool) -> tuple[int, str] | Refusal:
    """Where the auxiliary of the participle at token k goes, and which one; the guard that refuses the clause."""
    low = toks[k].low
    at, subject = k, toks[start:k]
    if len(subject) > 1 and subject[-1].low.endswith("ly") and "ADV" in _lemmas(subject[-1].low):
        at, subject = k - 1, subject[:-1]  # "officer critically wounded"
    nxt = toks[k + 1] if k + 1 < end else None
    tense = _passive_tense(toks, k, end)
    if tense is None:
        return Refusal("active_or_state")
    if nxt is not None and nxt.text != nxt.low and not title:
        return Refusal("name_after")  # "Nadal beaten Monday": a name or time right after the participle
    if _second_verb(toks[k + 1:end]):
        return Refusal("second_verb")  # "Man killed in crash identified": the participle is a reduced relative
    if any(x.low.endswith("s") and _is_form(x.low, "VBZ") or m and _is_form(x.low, "VBP") and (
            subject[m - 1].low in PLURAL_WORDS or subject[m - 1].low in NUMBER_WORDS)
           for m, x in enumerate(subject[:-1])):
        return Refusal("verb_in_subject")  # "Poland honors president killed ...": a verb
    if not subject or subject[0].low in ("the", "a", "an"):
        return Refusal("subject_with_article")  # "A cabin shot of a crowded airplane": a caption's noun phrase
    if nxt is not None and nxt.low == "of" and low not in OF_PARTICIPLES:
        return Refusal("of_after_participle")
    plural = _plural_head(subject)
    if plural is None or plural and _is_form(low, "VB"):
        return Refusal("unclear_number")  # "Rebels cut supply lines": the present of a verb whose participle is alike
    aux = {("past", False): "was", ("past", True): "were", ("present", False): "is",
           ("present", True): "are"}[tense, plural]
    return at, aux.capitalize() if title else aux


def _passive_clause(toks: list[Tok], start: int, end: int, title: bool) -> tuple[int, str] | Refusal | None:
    """Where a headline clause (tokens start..end-1) takes its auxiliary, and which one; the guard that refuses it;
    None when it has no participle after a subject."""
    for k in range(start + 1, min(end, start + _MAX_SUBJECT + 1)):
        t = toks[k]
        if not _is_form(t.low, "VBN") or t.low.endswith("ing"):
            if _ends_subject(toks, k, start):
                return None
            continue
        if title != t.text[:1].isupper():
            return None
        return _auxiliary_at(toks, start, end, k, title)
    return None


def _headline(toks: list[Tok], refused: frozenset[str] = NOT_IN_HEADLINE) -> bool:
    """A headline: no final punctuation, a capitalised first word, at most `_MAX_HEADLINE` tokens, no pronoun and
    none of the `refused` tokens (quotation marks, brackets, "?", ";")."""
    return (_final_punct(toks) == len(toks) and len(toks) <= _MAX_HEADLINE and toks[0].text[:1].isupper()
            and not any(t.text in refused or _is_pronoun(t) for t in toks))


def rule_headline_passive(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if not _headline(toks):
        return None
    end = len(toks)
    start = _headline_start(toks)
    title = _title_case(toks[start:])
    if any(t.text == "," for t in toks[start:end]):
        # two clauses joined by a comma read as a comma splice once each has its auxiliary, or a list
        return Refusal("comma_joined_clauses")
    found = _passive_clause(toks, start, end, title)
    if found is None or isinstance(found, Refusal):
        return found
    at, aux = found
    return splice(text, [(toks[at].start, toks[at].start, aux + " ")])


# -- headline_active ------------------------------------------------------------------------------------------------


def rule_headline_active(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = len(toks)
    if not 4 <= end <= _MAX_HEADLINE or _final_punct(toks) != end or not toks[0].text[:1].isupper() \
            or any(t.text in REFUSED_PUNCT or t.text == "," for t in toks):
        return None
    by = the_one_by(toks, 2)
    if by is None:
        return None
    lemma = passive_lemma(toks, by - 1)
    if lemma is None or lemma in INTRANSITIVE_BY or not plain_noun_phrase(toks, 0, by - 1, subject=True) \
            or any(t.low in SUBJECT_TO_OBJECT_PRONOUN or t.low in AUXILIARY_WORDS for t in toks[:by - 1]):
        return Refusal("subject_or_verb_unfit")
    stop = agent_end(toks, by, end, lemma)
    if stop is None or any(t.low in OBJECT_TO_SUBJECT_PRONOUN for t in toks[by + 1:stop]):
        return Refusal("agent_unfit")
    number = phrase_number(toks, by + 1, stop)
    obj = as_object(text, toks, 0, by - 1, plural_aux=False)
    verb = number and present_form(lemma, number)
    if verb is None or obj is None:
        return Refusal("no_inflection")
    agent = agent_text(text, toks, by, stop, True)
    tail = "" if stop == end else " " + text[toks[stop].start:]
    return agent + " " + verb + " " + obj + tail


# -- headline_perfect -----------------------------------------------------------------------------------------------


def rule_headline_perfect(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if not _headline(toks, NOT_IN_HEADLINE | {",", ":"}):
        return None
    end = len(toks)
    title = _title_case(toks)
    for k in range(1, min(end, _MAX_SUBJECT + 1)):
        t = toks[k]
        if not (t.low.endswith("s") and _is_form(t.low, "VBZ")):
            if t.low in AUXILIARIES or verb_only(t.low) or not (_is_word(t) or t.text.isdigit() or t.low in ("'s",
                                                                                                                "-")):
                return None  # another verb first, or something a headline's subject does not hold
            if is_stopword(t.text) and t.low not in ("of",):
                return Refusal("unclear_subject_head")  # "Residents near Gaza ...": the subject's head is unclear
            continue
        verbs = [lemma for lemma in verb_lemmas(t.low) if lemma in EVENT_VERBS]
        if not verbs or "NOUN" in _lemmas(t.low) or title != t.text[:1].isupper():
            return None
        subject, rest = toks[:k], toks[k + 1:end]
        if subject[0].low in ("the", "a", "an") or _plural_head(subject) is not False:
            return Refusal("subject_with_article_or_plural")
        if _past_time(rest):
            # "X resigns on Monday" -> "has resigned on Monday": a perfect takes no past time
            return Refusal("past_time")
        if _second_verb(rest):
            return Refusal("second_verb")
        participle = other_form(t.low, "VBN", "VBZ")
        if participle is None:
            return Refusal("no_inflection")
        return _in_perfect(text, subject, t, participle, False, title)
    return None


def _past_time(rest: list[Tok]) -> bool:
    """Whether a past time ("on Monday", "in 2012", "yesterday") follows the verb: a perfect takes none."""
    return any(x.low in TIME_AFTER or x.low in WEEKDAYS or x.low in MONTHS or re.fullmatch(r"(1[89]|20)\d\d", x.low)
               for x in rest)


def _in_perfect(text: str, subject: list[Tok], verb: Tok, participle: str, plural: bool, title: bool) -> str:
    """The headline with `verb` said as has/have + `participle` (capitalised in a title-case headline); an -ly adverb
    that ends the subject follows "has" ("Malawi Officially Confirms ..." -> "Malawi Has Officially Confirmed ...")."""
    has = "have" if plural else "has"
    if title:
        has, participle = has.capitalize(), participle.capitalize()
    adverb = subject[-1]
    if len(subject) > 1 and adverb.low.endswith("ly") and "ADV" in _lemmas(adverb.low):
        return splice(text, [(adverb.start, adverb.start, has + " "), (verb.start, verb.end, participle)])
    return splice(text, [(verb.start, verb.end, f"{has} {participle}")])


# -- headline_event -------------------------------------------------------------------------------------------------


def _object_next(toks: list[Tok], k: int, title: bool) -> bool:
    """Whether an object starts at `toks[k]`: a number, "at least", a name, or a noun or adjective that is no verb
    form, particle or preposition ("kills 5", "wins Maryland primary", "launches new attacks")."""
    if k >= len(toks):
        return False
    t = toks[k]
    if t.text[:1].isdigit() or t.low in NUMBER_WORDS or t.text[:1] == "$":
        return True
    if t.low == "at":
        return k + 1 < len(toks) and toks[k + 1].low == "least"
    if not _is_word(t) or t.low in NOT_OBJECT or is_stopword(t.text) and t.low not in ("another", "new"):
        return False
    if t.low in OBJECT_START:
        return True
    if t.text[:1].isupper() and not title:
        return True  # a name
    lemmas = _lemmas(t.low)
    if _is_form(t.low, "VBZ") or _is_form(t.low, "VB") and "NOUN" not in lemmas and "ADJ" not in lemmas:
        return False
    if "ADJ" in lemmas and "NOUN" not in lemmas and (k + 1 >= len(toks) or not _is_word(toks[k + 1])
                                                      or is_stopword(toks[k + 1].text)):
        return False  # "Wall Street ends mixed": a predicate adjective, no object
    return "NOUN" in lemmas or "ADJ" in lemmas or not lemmas


def _event_rest_refused(toks: list[Tok], k: int, verbs: set[str], title: bool) -> Refusal | None:
    """The guard that refuses what follows the headline's verb at token k (`verbs`: its lemmas), or None."""
    rest = toks[k + 1:]
    if not _object_next(toks, k + 1, title):
        return Refusal("no_object")  # "Chinese stocks open lower", "Syria rebels leave for ...": no object
    if _past_time(rest):
        return Refusal("past_time")  # "X wins on Monday" -> "has won on Monday": a perfect takes no past time
    if _second_verb(rest):
        return Refusal("second_verb")
    if verbs & {"open", "close", "end"} and any(x.low in MARKET_MOVES for x in rest):
        return Refusal("market_report")  # "Stocks close 2.47% higher": a market report, the figure is no object
    if any(x.text == ":" for x in rest):
        return Refusal("colon_after")  # "...: officials"
    return None


def rule_headline_event(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if not _headline(toks, NOT_IN_HEADLINE | {",", ";"}):
        return None
    end = len(toks)
    start = _headline_start(toks)
    if start and toks[0].low == "at":
        return Refusal("count_of_victims")  # "At least 10 ..." with the verb: a count of victims, no subject
    title = _title_case(toks[start:])
    for k in range(start + 1, min(end - 1, start + _MAX_SUBJECT + 1)):
        t = toks[k]
        verbs = set(verb_lemmas(t.low))
        third = t.low.endswith("s") and _is_form(t.low, "VBZ")
        base = not t.low.endswith("s") and _is_form(t.low, "VBP")
        candidate = (third or base) and verbs & (OBJECT_VERBS | EVENT_VERBS)
        if not candidate:
            if t.low in AUXILIARIES or verb_only(t.low) or t.text == ":" or not (
                    _is_word(t) or t.text.isdigit() or t.low in ("'s", "-")):
                return None  # another verb first, or something a headline's subject does not hold
            if is_stopword(t.text) and t.low != "of":
                return Refusal("unclear_subject_head")  # "Residents near Gaza ...": the subject's head is unclear
            continue
        if title != t.text[:1].isupper():
            return None
        nxt = toks[k + 1]
        if third and "NOUN" in _lemmas(t.low) and not nxt.low.endswith("s") and _is_form(nxt.low, "VBP") \
                and set(verb_lemmas(nxt.low)) & (OBJECT_VERBS | EVENT_VERBS):
            continue  # "Israeli air strikes kill 16": "strikes" is the subject's noun
        subject = toks[start:k]
        if subject[0].low in ("the", "a", "an"):
            return Refusal("subject_with_article")
        if any(x.low in AMBIGUOUS_SUBJECT_VERBS for x in subject[1:]):
            # "Maldives court issues arrest warrant": "issues" is the verb, "arrest" a noun
            return Refusal("verb_in_subject")
        plural = _plural_head(subject)
        if plural is None or plural != base:
            if base and plural is not True:
                continue  # "Plane crash kills 20": "crash" is the subject's noun
            return Refusal("agreement")
        if not verbs & OBJECT_VERBS and not plural:
            return Refusal("singular_subject")  # a singular subject with a verb of `EVENT_VERBS`: `headline_perfect`
        refusal = _event_rest_refused(toks, k, verbs, title)
        if refusal is not None:
            return refusal
        participle = other_form(t.low, "VBN", "VBZ" if third else "VBP")
        if participle is None:
            return Refusal("no_inflection")
        return _in_perfect(text, subject, t, participle, bool(plural), title)
    return None


# -- headline_and ---------------------------------------------------------------------------------------------------


def _conjunct(toks: list[Tok], title: bool) -> bool:
    """A conjunct of a headline's "X, Y" subject: a name of one or two capitalised words ("Japan", "Sri Lanka";
    only one word in a title-case headline) or one plural noun ("Bombings", "powers")."""
    if not 1 <= len(toks) <= 2 or not all(t.text.replace("-", "").replace(".", "").isalpha() for t in toks):
        return False
    if any(is_stopword(t.text) and not t.text.isupper() or _is_pronoun(t) for t in toks):
        return False  # "US" is a name, not "us"
    if all(t.text[:1].isupper() for t in toks) and (len(toks) == 1 or not title):
        return not (len(toks) == 1 and _is_form(toks[0].low, "VBZ") and "NOUN" not in _lemmas(toks[0].low))
    return len(toks) == 1 and _plural_head(toks) is True and "NOUN" in _lemmas(toks[0].low)


def rule_headline_and(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if not _headline(toks):
        return None
    end = len(toks)
    start = _headline_start(toks)
    commas = [m for m in range(start, end) if toks[m].text == ","]
    if len(commas) != 1 or any(t.text in (":", "-", "–", "&") or t.low == "and" for t in toks[start:end]):
        # one comma only: "Obama, Romney compete for undecideds, stoke base" lists verbs too
        return Refusal("not_one_comma")
    c = commas[0]
    title = _title_case(toks[start:])
    if not _conjunct(toks[start:c], title):
        return None
    for v in (c + 2, c + 3):
        if v >= end - 1 or not _conjunct(toks[c + 1:v], title):
            continue
        verb, nxt = toks[v], toks[v + 1]
        if title != verb.text[:1].isupper() or not verb.text.isalpha():
            return None
        low = verb.low
        if low.endswith("s") or low.endswith("ing") or not (_is_form(low, "VBP") or _is_form(low, "VBD")):
            continue  # "John Demjanjuk, convicted Nazi guard, dies": an apposition, not two subjects
        listed = set(verb_lemmas(low)) & (OBJECT_VERBS | EVENT_VERBS)
        if "NOUN" in _lemmas(low) and not listed and (nxt.low.endswith("s") and _is_form(nxt.low, "VBZ")
                                                      or _is_form(nxt.low, "VBP") and not is_stopword(nxt.text)):
            # "Obama, Romney camp clash": the noun of a compound before the verb
            return Refusal("compound_noun_before_verb")
        if toks[c + 1].low in US_STATES or toks[c - 1].low in US_STATES:
            return Refusal("place_and_state")  # "Columbus, Ohio hit by storm": a place and its state
        if _second_verb(toks[v + 1:end]):
            return Refusal("second_verb")
        x_words = toks[start:c]
        if x_words[0].text[:1].isupper() and not x_words[0].text.isupper() and len(x_words) == 1 \
                and not (_is_form(x_words[0].low, "VBP") or _is_form(x_words[0].low, "VBZ")) \
                and "NOUN" not in _lemmas(x_words[0].low) and "ADJ" in _lemmas(x_words[0].low):
            return Refusal("adjective_not_subject")  # "Fresh, clashes": an adjective, not a subject
        return splice(text, [(toks[c - 1].end, toks[c + 1].start, " and ")])
    return None


# -- died_aged ------------------------------------------------------------------------------------------------------


_ASCII_NUMBER = re.compile(r"[0-9]+")  # str.isdigit() also takes superscripts, which int() refuses


def rule_died_aged(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    for k, t in enumerate(toks[:-2]):
        if t.low not in DIE_FORMS:
            continue
        nxt = toks[k + 1]
        if nxt.low == "at" and _ASCII_NUMBER.fullmatch(toks[k + 2].text):
            n, new = k + 2, "aged"
        elif nxt.low == "aged" and _ASCII_NUMBER.fullmatch(toks[k + 2].text):
            n, new = k + 2, "at"
        else:
            continue
        age = toks[n]
        if not 1 <= int(age.text) <= 120 or age.text.startswith("0"):
            return Refusal("not_an_age")
        after = toks[n + 1] if n + 1 < len(toks) else None
        if after is not None and after.start == age.end:
            return Refusal("not_an_age")  # "died at 10:30", "at 85%": no age
        if after is not None and _is_word(after) and after.low not in AFTER_AGE:
            return Refusal("not_an_age")  # "died at 10 Downing Street", "at 5 pm": no age
        if after is not None and after.low in ("in", "on", "at") and n + 2 < len(toks) and toks[n + 2].text.isdigit():
            return Refusal("time_then_date")  # "died at 12 on ..."? a time followed by its date
        word = "Aged" if new == "aged" and t.text[:1].isupper() else new  # "Dies Aged 116" <-> "Dies at 116"
        return splice(text, [(nxt.start, nxt.end, word)])
    return None


HEADLINE_RULES: dict[str, Rule] = {"headline_passive": rule_headline_passive, "headline_active": rule_headline_active,
                                   "headline_perfect": rule_headline_perfect,
                                   "headline_event": rule_headline_event,
                                   "headline_and": rule_headline_and, "died_aged": rule_died_aged}
