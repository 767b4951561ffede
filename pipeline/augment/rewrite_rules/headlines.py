"""Rewrites for headlines and captions: the telegraphic verb forms of news headlines and picture captions said in
full, or in the other aspect. The rules (names as in `HEADLINE_RULES`):

* `headline_passive`: a headline's bare passive participle gets its auxiliary ("Dozens killed in Kenyan clashes" ->
  "Dozens were killed in Kenyan clashes"; "Man charged with murder of wife" -> "Man was charged with murder of
  wife"; "Israel's Netanyahu set to call early vote" -> "... is set to call ..."). Only in a headline: no final
  punctuation, a capitalised first word, at most `_MAX_HEADLINE` tokens, no pronoun, no quotation marks. The
  participle follows the subject noun phrase directly (up to `_MAX_SUBJECT` words: names, nouns, numbers, "of",
  "'s"; an optional "Label:" or "At least" before it; an -ly adverb before the participle stays after the
  auxiliary: "officer was critically wounded") and is followed by a preposition, "by" + an agent, the end of the
  headline, or a predicate adjective after find/declare/shoot/... ("Man found guilty of ..."): never by an object
  ("Obama signed bill" is active), a particle ("X pulled out of deal") or a name. Refused: a subject that starts
  with an article ("A cabin shot of a crowded airplane" is a caption's noun phrase), has a preposition other than
  "of" ("Residents near Gaza": its head is unclear) or a verb ("Poland honors president killed ..."); a verb whose
  past tense in a headline is active (intransitive or prepositional: "Stocks rallied on ...", "X called for ...");
  a participle that is also an adjective or noun ("Jordan biased over ...", "Tax cut in ...") unless "by" follows,
  or that names a state ("linked to", "based in", "backed by", "wanted for": the tense would be unclear); "of"
  after other verbs than convict/accuse/clear/strip/...; "to" + a verb after a participle that does not take one
  ("Iranians planned to attack" is active); a second verb later ("Man killed in crash identified", "Girl accused of
  burning Koran goes into hiding": the participle is a reduced relative); "shot dead" + an object. Agreement from
  the subject's head (the noun before "of", else the last word): a plural noun, a number over one anywhere in the
  subject ("two Nato"), "police", a coordination -> "were"; a name in capitals or a singular noun -> "was"; refused
  when unclear (an unknown word ending in "s": "Texans"; "number of", "couple of", "staff", "personnel"; "Bosnia
  and Herzegovina"), and for a verb whose participle is its base form after a plural ("Rebels cut supply lines" is
  present). Present tense ("is"/"are") for the participles of expectation before "to" + a verb (expected, set,
  poised, slated, said, believed, ...) and for "set/poised/braced for". A comma is refused: two participle clauses
  joined by it would read as a comma splice once each has its auxiliary ("At least 17 killed, 400 injured in
  massive Tianjin blasts" -> "At least 17 were killed, 400 were injured in ..."), and it may join a list ("Two
  German tourists, two pilots killed"). In a headline in title case the auxiliary is capitalised ("Mandela Was
  Discharged From Hospital").
* `headline_perfect`: a headline's present tense of a single completed event said in the present perfect ("Head
  of CIA resigns over affair" -> "Head of CIA has resigned over affair"; "Putin Declares Victory in Russia
  Presidential Vote" -> "Putin Has Declared Victory ..."; an -ly adverb before the verb goes after "has": "Malawi
  has officially confirmed ..."). Only in a headline as for `headline_passive` (and no comma or colon), with a
  subject of names, nouns, numbers, "of" and "'s" that is singular and does not start with an article, and a verb
  of a single event (`EVENT_VERBS`: resign, die, approve, confirm, deny, announce, uphold, ...) whose -s form is no
  noun ("Syria attacks kill 10": "attacks" may be the noun). Refused: a time after the verb ("X resigns on Monday"
  -> "has resigned on Monday": a perfect takes no past time; today, next week, a weekday, month or year), a second
  verb after it, states and plans (wants, faces, plans, remains: no such verb is in the list).
* `caption_aspect`: a caption in the simple present <-> in the present progressive ("A turtle walks over the
  ground." <-> "A turtle is walking over the ground."; "Runners compete in a race." -> "Runners are competing in a
  race."; "The woman is walking her dog." -> "The woman walks her dog."). Only a short descriptive sentence (at most
  `_MAX_CAPTION` tokens, ending in "." or nothing, no comma) whose subject is a determiner (a, an, the, one, two,
  ..., some, several) + up to four lower-case words ending in a noun for a person, an animal or a vehicle
  (`CAPTION_SUBJECTS`) or in a collective noun + "of" + up to three words ending in a plural noun ("A group of young
  people", "A herd of elephants"), either optionally followed by a short "in"/"with" phrase (a determiner and up to
  three lower-case words ending in a noun: "A man in a red shirt", "Two men in blue shirts", "A young boy with a
  hat"); or a plural caption noun alone (only from the simple present: "Kids dance on stage." would be generic). The
  verb must follow the subject at exactly one place: refused when a word of the "in"/"with" phrase could be the verb
  too ("A boy in overalls blows bubbles.", "Two men in animal print pajama bottoms sleep"), except garments ("in
  pink boots runs") and a later "is"/"are" ("in red shorts is writing"); a simple present after such a phrase must
  be followed by a determiner, possessive, preposition or particle ("A man in red pants skiing ..." has no verb),
  and not by "on" + the end or a verb ("A man with black pants on walks ..."). The verb is dynamic: never stative or
  habit-prone verbs (be, have, contain, seem, know, own, wear, live, work, sell, teach, use, drive, ...), never "is
  going to" / "is trying to". What follows the verb must contain a determiner, a possessive or a particle ("A bear
  fights a wolf"; "A bear fights wolves." is generic; "A man drinks." a habit); "play" only before with/in/on/...
  ("A woman plays violin" is a skill). Refused: a modal, a negation, a time or frequency adverb (always, usually,
  every, often, now, ...), a subordinate or relative clause (when, while, who, that, ...), a second verb after
  and/or/but ("is peeling and cutting a potato", "sits on the floor and leans against a map": both would need to
  change), a pronoun or name as subject ("He works at a bank" is a habit), a subject whose number disagrees with its
  determiner or auxiliary, a coordinated subject ("A man and a woman are ..."). Agreement: "is"/"walks" for a
  singular subject, "are"/"walk" for a plural one, from the head noun; a collective noun in the singular keeps the
  number its verb has ("A group of people walks" <-> "is walking", "A group of people are walking" <-> "walk": both
  read naturally), but "a couple of"/"a bunch of" are plural only; the forms come from lemminflect, refused when a
  verb has two lemmas with different forms.
* `headline_event`: a headline's present tense of a transitive verb of a single event, with its object, said in the
  present perfect ("Roadside bomb kills 5 Afghan policemen" -> "Roadside bomb has killed 5 Afghan policemen";
  "Syrian forces launch new attacks" -> "Syrian forces have launched new attacks"; "Strong Italy Quake Kills at
  Least Six" -> "... Has Killed ..."): the verbs of `OBJECT_VERBS` (kill, hit, win, launch, name, jail, ...: their
  -s form is often a noun, which `headline_perfect` refuses) after a singular or plural subject, and those of
  `EVENT_VERBS` after a plural one ("Afghan legislators have approved ..."). Only in a headline as for
  `headline_perfect` (no comma; a "Label:" before it is kept), with a subject of names, nouns, numbers, "of" and
  "'s" whose number is clear and agrees with the verb ("Plane crash kills 20": "crash" is part of the subject). The
  object must follow: a number, "at least", a name, a noun or an adjective before a noun. Refused: no object
  ("Chinese stocks open lower", "Wall Street ends mixed": an adjective alone), a market report ("Stocks close 2.47%
  higher"), a subject word in -s that is a common headline verb ("Maldives court issues arrest warrant": "arrest"
  is a noun), an -s word before a listed verb ("Israeli air strikes kill 16": "strikes" is the subject's noun, and
  "kill" the verb), a past time after the verb, a second verb, a colon after it ("...: officials"); verbs whose
  headline present is a state ("tops", "leaves", "backs") or whose participle is unsure ("hangs") are not listed.
* `headline_and`: a headline's comma between two subjects said as "and" ("Israelis, Palestinians convene over
  prisoner swap" -> "Israelis and Palestinians convene ..."; "Iran, powers set for ..."). Each subject is a name
  (one or two capitalised words; one in a title-case headline) or a plural noun, and a plural verb follows the
  second (not in -s or -ing). Refused: a second comma ("Obama, Romney compete for undecideds, stoke base": verbs in
  a list too), a verb in -s after the comma ("Gore Vidal, celebrated author, dies": an apposition), a place and its
  US state ("Columbus, Ohio hit by storm"), a noun that may be a compound's first part before a verb ("Obama, Romney
  camp clash"; not for the verbs of `headline_event`: "Japan, US hold talks"), a colon, dash or "and" in the
  headline, a second verb.
* `died_aged`: "dies at 85" <-> "dies aged 85" (die, dies, died; in any sentence; "Dies Aged 116" in a title-case
  headline). The number (1 to 120) must end the sentence or be followed by punctuation or a preposition or
  conjunction ("after", "in", "following", ...): refused for a place or a time ("died at 10 Downing Street", "at
  10:30", "at 5 pm"), and for "dead at 91" ("dead aged 91" is unusual).

Not a rule: swapping two coordinated modifiers ("a boxing or wrestling match" -> "a wrestling or boxing match"):
the order of coordinated adjectives is often preferred or fixed, and "W1 and W2 N" may be "[W1] and [W2 N]"
("coffee and ice cream"), for a reach below one sentence in a hundred.
"""

from __future__ import annotations

import re
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _final_punct, _is_form, _is_word, _lemmas, is_ing_verb, splice, verb_only,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    ACTIVE_PAST, AFTER_AGE, AFTER_PARTICIPLE, AFTER_VERB, AMBIGUOUS_SUBJECT_VERBS, AUXILIARIES, CAPTION_DETERMINERS,
    CAPTION_PLURAL_DETERMINERS, CAPTION_SUBJECTS, CAPTION_VERB_PARTICLES, COLLECTIVES, DIE_FORMS, EVENT_ADJECTIVES,
    EVENT_VERBS, GARMENTS, HEADLINE_VERBS, IRREGULAR_PLURAL_SUBJECTS, MARKET_MOVES, MODIFIER_DETS, MONTHS,
    NEITHER_NUMBER, NOT_CAPTION_VERBS, NOT_CAPTION_WORDS, NOT_IN_HEADLINE, NOT_OBJECT, NUMBER_WORDS, OBJECT_START,
    OBJECT_VERBS, OF_PARTICIPLES, PLAY_NEXT, PLURAL_COLLECTIVES, PLURAL_WORDS, PREDICATIVE, PREDICATIVE_VERBS,
    PRESENT_BEFORE, PRONOUNS_AND_DEMONSTRATIVES, SINGULAR_WORDS, STATIVE_PARTICIPLES, SUBJECT_MODIFIERS, TIME_AFTER,
    TO_VERB_PASSIVE, US_STATES, WEEKDAYS,
)

# -- headline_passive -----------------------------------------------------------------------------------------------
_MAX_SUBJECT = 7
_MAX_HEADLINE = 16


def _title_case(toks: list[Tok]) -> bool:
    """Whether a headline is in title case: most of its content words after the first are capitalised."""
    content = [t for t in toks[1:] if t.text[:1].isalpha() and not is_stopword(t.text)]
    return len(content) >= 2 and sum(t.text[:1].isupper() for t in content) >= 0.8 * len(content)


def _plural_head(toks: list[Tok]) -> bool | None:
    """Whether the subject (the tokens before the participle) is plural; None when unclear."""
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
    if low in lemmas:
        return False
    from lemminflect import getInflection

    if any(low in getInflection(lemma, "NNS") for lemma in lemmas):
        return True
    return None


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


def _passive_clause(toks: list[Tok], start: int, end: int, title: bool) -> tuple[int, str] | None:
    """Where a headline clause (tokens start..end-1) takes its auxiliary, and which one; None when it does not."""
    for k in range(start + 1, min(end, start + _MAX_SUBJECT + 1)):
        t = toks[k]
        low = t.low
        if not _is_form(low, "VBN") or low.endswith("ing"):
            if t.text == "," or low in AUXILIARIES or low == "to" or verb_only(low) or _is_pronoun(t):
                return None  # the subject ends, or the clause has another verb first
            if low in AFTER_PARTICIPLE and low != "of":
                return None  # "Residents near Gaza": the subject's head is unclear
            if t.text == "." and t.start == toks[k - 1].end and re.fullmatch(r"[A-Z](\.[A-Z])*", toks[k - 1].text):
                continue  # "U.S."
            if not (_is_word(t) or t.text.isdigit() or low in ("'s", "-")) or (
                    is_stopword(t.text) and low not in ("of", "and") and not (k == start and low in ("the", "a"))
                    and low not in NUMBER_WORDS and low not in PLURAL_WORDS):
                return None
            continue
        if title != t.text[:1].isupper():
            return None
        at = k  # where the auxiliary goes
        subject = toks[start:k]
        if len(subject) > 1 and subject[-1].low.endswith("ly") and "ADV" in _lemmas(subject[-1].low):
            at, subject = k - 1, subject[:-1]  # "officer critically wounded"
        nxt = toks[k + 1] if k + 1 < end else None
        after = toks[k + 2] if k + 2 < end else None
        verbs = _lemmas(low).get("VERB", ())
        tense = "past"
        if nxt is not None and nxt.low == "to" and after is not None and _is_form(after.low, "VB"):
            if low not in TO_VERB_PASSIVE:
                return None  # "Iranians planned to attack": active
            tense = TO_VERB_PASSIVE[low]
        elif nxt is not None and nxt.low == "by" and after is not None and not after.text[:1].isdigit():
            if low in STATIVE_PARTICIPLES:
                return None  # "Rebels backed by Iran": a state
        elif nxt is not None and (low, nxt.low) in PRESENT_BEFORE:
            tense = "present"  # "Hong Kong set for democracy march"
        else:
            if low in STATIVE_PARTICIPLES or any(lemma in ACTIVE_PAST for lemma in verbs):
                return None  # "Stocks rallied on ...": active
            if nxt is not None and nxt.low in PREDICATIVE:
                if not any(lemma in PREDICATIVE_VERBS for lemma in verbs) or after is not None and (
                        after.low not in AFTER_PARTICIPLE):
                    return None  # "Police shot dead 30 miners": active, with an object
            else:
                if ("ADJ" in _lemmas(low) or "NOUN" in _lemmas(low)) and low not in EVENT_ADJECTIVES:
                    return None  # "Jordan biased over ...": an adjective; "Tax cut in ...": a compound noun
                if nxt is not None and nxt.low not in AFTER_PARTICIPLE and not (
                        nxt.low == "out" and after is not None and after.low == "of"):
                    return None  # an object, a particle, a comma: the verb may be active
        if nxt is not None and nxt.text != nxt.low and not title:
            return None  # "Nadal beaten Monday": a name or time right after the participle
        if _second_verb(toks[k + 1:end]):
            return None  # "Man killed in crash identified": the participle is a reduced relative
        if any(x.low.endswith("s") and _is_form(x.low, "VBZ") or m and _is_form(x.low, "VBP") and (
                subject[m - 1].low in PLURAL_WORDS or subject[m - 1].low in NUMBER_WORDS)
               for m, x in enumerate(subject[:-1])):
            return None  # "Poland honors president killed ...", "Hundreds honor student killed ...": a verb
        if not subject or subject[0].low in ("the", "a", "an"):
            return None  # "A cabin shot of a crowded airplane": a caption's noun phrase, not a headline
        if nxt is not None and nxt.low == "of" and low not in OF_PARTICIPLES:
            return None
        plural = _plural_head(subject)
        if plural is None or plural and _is_form(low, "VB"):
            return None  # "Rebels cut supply lines": the present tense of a verb whose participle is the same
        aux = {("past", False): "was", ("past", True): "were", ("present", False): "is",
               ("present", True): "are"}[tense, plural]
        return at, aux.capitalize() if title else aux
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
        # "At least 17 killed, 400 injured in ...": two clauses joined by a comma read as a comma splice
        return Refusal("comma_joined_clauses")
        # once each has its auxiliary; "Two German tourists, two pilots killed": a list
    found = _passive_clause(toks, start, end, title)
    if found is None:
        return None
    at, aux = found
    return splice(text, [(toks[at].start, toks[at].start, aux + " ")])


# -- caption_aspect -------------------------------------------------------------------------------------------------
_MAX_CAPTION = 16


def _form(verb: str, tag: str, source: str) -> str | None:
    """The `tag` form of the verb `verb` (a form of it); None when its lemmas disagree."""
    from lemminflect import getInflection

    forms = {f for lemma in _lemmas(verb).get("VERB", ()) if _is_form(verb, source)
             for f in getInflection(lemma, tag)[:1]}
    return forms.pop() if len(forms) == 1 else None


def _plural_noun(word: str) -> bool | None:
    """Whether `word` is a plural noun (True), a singular one (False); None when its number is unclear ("sheep")."""
    lemmas = _lemmas(word).get("NOUN", ())
    plural = word in IRREGULAR_PLURAL_SUBJECTS or bool(lemmas) and word not in lemmas
    singular = bool(lemmas) and word in lemmas
    return None if plural == singular else plural


def _finite(tok: Tok, plural: bool | None) -> bool | None:
    """Whether `tok` may be the caption's verb ("is"/"are" or a simple present) for a subject of that number
    (None: either); None when it can be no such verb."""
    word = tok.low
    if not tok.text.islower() or not tok.text.isalpha():
        return None
    if word in ("is", "are"):
        return None if plural is not None and (word == "are") != plural else word == "are"
    if word.endswith("s") and _is_form(word, "VBZ"):
        return None if plural else False
    if not word.endswith("s") and not word.endswith("ing") and _is_form(word, "VBP"):
        return None if plural is False else True
    return None


def _modifier_ends(toks: list[Tok], k: int) -> list[int]:
    """The possible ends (index after) of a short "with"/"in" phrase at `k` ("in a red shirt", "with a hat", "in
    blue shirts"): the preposition, an optional determiner and one to three lower-case words, the last a noun."""
    if k >= len(toks) or toks[k].low not in SUBJECT_MODIFIERS:
        return []
    j = k + 1
    if j < len(toks) and toks[j].low in MODIFIER_DETS:
        j += 1
    ends = []
    for m in range(j, min(j + 3, len(toks))):
        word = toks[m]
        if not (word.text.replace("-", "").isalpha() and word.text.islower()) or is_stopword(word.text) \
                or word.low in CAPTION_DETERMINERS or is_ing_verb(word.low):
            break
        if "NOUN" in _lemmas(word.low):
            ends.append(m + 1)
    return ends


def _of_ends(toks: list[Tok], k: int) -> list[int]:
    """The possible ends of an "of" phrase after a collective noun ("of people", "of young children", "of Asian
    women"): one to three words, the last a plural noun (or one whose number is unclear: "of deer")."""
    if k >= len(toks) or toks[k].low != "of":
        return []
    ends = []
    for m in range(k + 1, min(k + 4, len(toks))):
        word = toks[m]
        if not word.text.replace("-", "").isalpha() or is_stopword(word.text) or is_ing_verb(word.low) \
                or not (word.text.islower() or word.text.istitle() and m < k + 3):
            break
        if word.text.islower() and _plural_noun(word.low) is not False and "NOUN" in _lemmas(word.low):
            ends.append(m + 1)
    return ends


def _collective(toks: list[Tok], j: int) -> bool:
    """Whether `toks[j]` is a collective noun before "of" ("group of", "groups of")."""
    word = toks[j].low
    return (word in COLLECTIVES or word.endswith("s") and word[:-1] in COLLECTIVES) and j + 1 < len(toks) \
        and toks[j + 1].low == "of"


def _garment(word: str) -> bool:
    return word in GARMENTS or word[:-1] in GARMENTS or word[:-2] in GARMENTS


def _verb_after_modifier(toks: list[Tok], v: int) -> bool:
    """Whether the simple present at `v` after a "with"/"in" phrase is a verb, not a noun that ends the phrase ("A
    man in red pants skiing", "Two men in animal print pajama bottoms sleep", "A man with black pants on walks"):
    followed by a determiner, possessive, preposition, particle or the end, but not by "on" + the
    end or a verb."""
    word = toks[v].low
    if word in ("is", "are"):
        return True
    nxt = toks[v + 1].low if v + 1 < len(toks) else "."
    after = toks[v + 2] if v + 2 < len(toks) else None
    if nxt == "on" and (after is None or not _is_word(after) or _is_form(after.low, "VBZ")):
        return False
    if v + 1 >= len(toks) or not _is_word(toks[v + 1]):
        return True
    return nxt in CAPTION_DETERMINERS or nxt in CAPTION_VERB_PARTICLES or nxt in AFTER_PARTICIPLE or nxt in AFTER_VERB


def _caption_subject(toks: list[Tok]) -> tuple[int, bool, bool] | None:
    """(index of the verb, plural, bare) for a caption's subject: a determiner and up to four lower-case words
    ending in a caption noun or a collective noun + "of" phrase ("A group of people"), then optionally a short
    "with"/"in" phrase ("A man in a red shirt"); or a plural caption noun alone (bare). The number of a collective
    noun in the singular follows its verb ("A group of people walks" / "walk")."""
    first = toks[0].low
    if first in CAPTION_DETERMINERS:
        j = 1
        while j < len(toks) and j <= 4 and toks[j].text.replace("-", "").isalpha() and toks[j].text.islower() \
                and not is_stopword(toks[j].text) and toks[j].low not in CAPTION_SUBJECTS \
                and not _collective(toks, j):
            j += 1
        if j >= len(toks) or not toks[j].text.islower() or not (toks[j].low in CAPTION_SUBJECTS
                                                                or _collective(toks, j)):
            return None
        head = toks[j].low
    elif toks[0].low in CAPTION_SUBJECTS:
        j, head = 0, first
    else:
        return None
    plural = _plural_noun(head)
    if plural is None:
        return None  # "sheep", "deer": the number is unclear
    if first in ("a", "an", "one") and plural or first in CAPTION_PLURAL_DETERMINERS and not plural:
        return None  # "a people"
    if j == 0:
        if not plural:
            return None  # "Dog runs": a headline
        return 1, True, True
    number: bool | None = plural
    ends = [(j + 1, plural)]
    if _collective(toks, j):
        if not plural:
            number = True if head in PLURAL_COLLECTIVES else None  # "A group of people walks" / "walk"
        ends = [(e, number) for e in _of_ends(toks, j + 1)]
    modified = [(m, n) for e, n in ends for m in _modifier_ends(toks, e)]
    verbs = {(e, agree, (e, n) in modified) for e, n in ends + modified if e < len(toks) and not _garment(toks[e].low)
             for agree in [_finite(toks[e], n)] if agree is not None}
    if any(toks[e].low in ("is", "are") for e, _, _ in verbs):
        verbs = {found for found in verbs if toks[found[0]].low in ("is", "are")}  # "A woman in red shorts is ..."
    if len(verbs) != 1:
        return None  # no verb, or more than one reading ("A boy in overalls blows bubbles.")
    v, agree, after_modifier = verbs.pop()
    if after_modifier and not _verb_after_modifier(toks, v):
        return None
    return v, agree, False


def _second_verb_after_and(toks: list[Tok], plural: bool) -> bool:
    """Whether a verb may follow an "and"/"or"/"but" in `toks` ("peels and slices a potato", "sits on the floor
    and leans against a map", "sit at a table and one points at the other"), whose tense would not change along."""
    for n, t in enumerate(toks):
        if t.low not in ("and", "or", "but"):
            continue
        for m in range(n + 1, min(n + 4, len(toks))):
            word = toks[m].low
            nxt = toks[m + 1].low if m + 1 < len(toks) else "."
            verb_next = nxt in CAPTION_DETERMINERS or nxt in CAPTION_VERB_PARTICLES or nxt in AFTER_PARTICIPLE \
                or nxt in ("his", "her", "their", "its", ".", "to")
            if word.endswith("ing") and _is_form(word, "VBG"):
                return True
            if word.endswith("s") and _is_form(word, "VBZ") and ("NOUN" not in _lemmas(word) or verb_next
                                                                 or m == n + 1):
                return True
            if plural and _is_form(word, "VBP") and ("NOUN" not in _lemmas(word) or verb_next):
                return True
    return False


def _episodic(rest: list[Tok]) -> bool:
    """Whether what follows the verb has a determiner or a particle, which makes a single event of it ("A bear
    fights a wolf"); "A bear fights wolves" is a generic statement."""
    return any(t.low in CAPTION_DETERMINERS or t.low in CAPTION_VERB_PARTICLES
               or t.low in ("his", "her", "its", "their") for t in rest)


def rule_caption_aspect(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = _final_punct(toks)
    if end <= 2 or end > _MAX_CAPTION or not toks[0].text[:1].isupper():
        return None
    if any(t.low in NOT_CAPTION_WORDS or t.low.endswith("n't") or not (_is_word(t) or t.text in (",", "-"))
           for t in toks[:end]) or "," in text:
        return Refusal("not_a_caption")
    found = _caption_subject(toks)
    if found is None:
        return None
    v, plural, bare = found
    aux = toks[v]
    if aux.low in ("is", "are"):
        # progressive -> simple present: "The woman is walking her dog." -> "The woman walks her dog."
        if (aux.low == "are") != plural or v + 2 >= end or not aux.text.islower():
            # agreement; a complement is needed ("A man drinks." would be a habit)
            return Refusal("agreement_or_no_complement")
        if bare:
            # "Kids dance on stage.": a bare plural subject in the simple present is generic
            return Refusal("bare_plural_subject")
        verb = toks[v + 1]
        if not verb.low.endswith("ing") or not _is_form(verb.low, "VBG"):
            return None
        if any(lemma in NOT_CAPTION_VERBS for lemma in _lemmas(verb.low).get("VERB", ())):
            return Refusal("stative_verb")
        if toks[v + 2].low == "to":
            return Refusal("infinitive_after")  # "is trying to": the infinitive
        if _second_verb_after_and(toks[v + 2:end], plural):
            return Refusal("second_verb")  # "is peeling and cutting a potato": both verbs would need to change
        if not _episodic(toks[v + 2:end]):
            return Refusal("generic_statement")  # "A bear fights wolves.": a generic statement
        if verb.low == "playing" and toks[v + 2].low not in PLAY_NEXT:
            return Refusal("skill_or_habit")  # "A woman plays violin", "plays the guitar": a skill or habit
        new = _form(verb.low, "VBP" if plural else "VBZ", "VBG")
        if new is None:
            return Refusal("no_inflection")
        return splice(text, [(aux.start, verb.end, new)])
    # simple present -> progressive: "A turtle walks over the ground." -> "A turtle is walking over the ground."
    verb = aux
    if not verb.text.islower() or verb.low.endswith("ing"):
        return None
    if plural and not (_is_form(verb.low, "VBP") and not verb.low.endswith("s")) or not plural and not (
            verb.low.endswith("s") and _is_form(verb.low, "VBZ")):
        return Refusal("agreement")
    if any(lemma in NOT_CAPTION_VERBS for lemma in _lemmas(verb.low).get("VERB", ())):
        return Refusal("stative_verb")
    rest = toks[v + 1:end]
    if rest and rest[0].low == "to":
        return Refusal("infinitive_after")
    if any(_is_word(t) and t.low not in ("and", "or") and (
            _is_form(t.low, "VBZ") and t.low.endswith("s") and "NOUN" not in _lemmas(t.low)
            or _is_form(t.low, "VBD") and not _is_form(t.low, "VBN")) for t in rest):
        return Refusal("second_verb")  # a second verb: "A man walks and talks"
    if _second_verb_after_and(rest, plural):
        return Refusal("second_verb")
    if rest and not _episodic(rest):
        return Refusal("generic_statement")  # "Cats chase mice.": a generic statement
    if not rest and plural:
        return Refusal("generic_statement")  # "Dogs bark."
    new = _form(verb.low, "VBG", "VBP" if plural else "VBZ")
    if new is None:
        return Refusal("no_inflection")
    return splice(text, [(verb.start, verb.end, ("are " if plural else "is ") + new)])


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
        verbs = [lemma for lemma in _lemmas(t.low).get("VERB", ()) if lemma in EVENT_VERBS]
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
        participle = _form(t.low, "VBN", "VBZ")
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
        verbs = set(_lemmas(t.low).get("VERB", ()))
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
                and set(_lemmas(nxt.low).get("VERB", ())) & (OBJECT_VERBS | EVENT_VERBS):
            continue  # "Israeli air strikes kill 16": "strikes" is the subject's noun
        subject, rest = toks[start:k], toks[k + 1:end]
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
        participle = _form(t.low, "VBN", "VBZ" if third else "VBP")
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
        listed = set(_lemmas(low).get("VERB", ())) & (OBJECT_VERBS | EVENT_VERBS)
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


HEADLINE_RULES: dict[str, Rule] = {"headline_passive": rule_headline_passive, "caption_aspect": rule_caption_aspect,
                                   "headline_perfect": rule_headline_perfect,
                                   "headline_event": rule_headline_event,
                                   "headline_and": rule_headline_and, "died_aged": rule_died_aged}
