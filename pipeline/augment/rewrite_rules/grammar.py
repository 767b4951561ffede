"""Grammatical rewrites: the sentence's own words in another grammatical form. The rules are `GRAMMAR_RULES`.
What each rule does, its guards and its golden and refused cases are in `cases/grammar.json` (the views guide's
table is made from them); the comment at each guard says why it refuses.
"""

from __future__ import annotations

import re

from bsl_pipeline.pipeline.augment.rewrite_rules.chunker import chunk, is_content
from bsl_pipeline.pipeline.augment.rewrite_rules.syntax import has_finite_verb, is_plural_noun_token
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _front, _is_form, _is_lower_word, _is_word, _lemmas, _lower_first_word,
    is_ing_verb, is_participle, is_verb_form, splice, verb_only,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    AFTER_VERBS, ATTRIBUTE_ING, AT_PLACE_VERBS, AUXILIARIES, CLAUSE_PRONOUNS, CONJUNCTION_MODIFIERS, DETERMINERS,
    GARMENTS, INDEFINITE, MONTHS, NAME_SIGNS, NUMBER_WORDS, PARTS_OF_DAY, PERSONAL_SUBJECTS, PLACE_PREPOSITIONS,
    QUESTION_VERBS, SAYING_VERBS, SELECTED_PREPOSITION, SUBORDINATORS, THIRD_PERSON, TIME_NOUNS, TIME_UNITS, UNITS,
    WEATHER_WORDS, WEEKDAYS, WH_WORDS,
)


def rule_number_words(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    numbers = [i for i, t in enumerate(toks) if any(c.isdigit() for c in t.text)]
    if len(numbers) != 1:
        return None
    i = numbers[0]
    t = toks[i]
    if not (t.text.isascii() and t.text.isdigit()) or t.text.startswith("0") or int(t.text) > cfg.max_number:
        return None
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is None or nxt.start != t.end + 1 or not _is_lower_word(nxt) or nxt.low in UNITS or len(nxt.text) < 2:
        return Refusal("not_a_count")
    if nxt.low in ("and", "or", "to", "of", "out", "by", "in", "for", "from", "times", "percent"):
        return Refusal("range_or_phrase")
    if i > 0:
        prev = toks[i - 1]
        if prev.low in NAME_SIGNS or not _is_word(prev) or (prev.text[:1].isupper() and i > 1):
            return Refusal("name_or_label")
        if prev.end == t.start:
            return Refusal("joined_to_word_before")
    word = NUMBER_WORDS[int(t.text)]
    return splice(text, [(t.start, t.end, word.capitalize() if i == 0 else word)])


def _time_phrase(toks: list[Tok], end: int) -> int | None:
    """Start of a time phrase ending at token `end` (exclusive)."""
    words = [t.low for t in toks[:end]]
    n = len(words)
    if n >= 1 and words[-1] in ("yesterday", "today", "tonight"):
        return n - 1
    if n >= 2 and words[-2] in ("last", "next", "this", "earlier", "later") and (
            words[-1] in TIME_UNITS or words[-1] in WEEKDAYS):
        if n >= 3 and words[-3] in ("earlier", "later") and words[-2] == "this":
            return n - 3
        return n - 2
    if n >= 2 and words[-2] == "on" and words[-1] in WEEKDAYS:
        return n - 2
    if n >= 3 and words[-3] == "on" and words[-2] in WEEKDAYS and words[-1] in PARTS_OF_DAY:
        return n - 3
    if n >= 2 and words[-2] == "in" and (words[-1] in MONTHS - {"may", "mar"} or re.fullmatch(r"(19|20)\d\d",
                                                                                            words[-1])):
        return n - 2
    if n >= 3 and words[-3] == "on" and words[-2] in MONTHS and words[-1].isdigit():
        return n - 3
    if n >= 3 and words[-3] == "in" and words[-2] == "the" and words[-1] in PARTS_OF_DAY:
        return n - 3
    if n >= 2 and words[-2] == "at" and words[-1] == "night":
        return n - 2
    return None


def rule_front_time(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = chunk(text, toks).end
    if end <= 0:
        return None
    if toks[0].low in WH_WORDS:
        # "How the Dow Fared on Tuesday": a headline's or question's wh-clause, no main clause
        return Refusal("wh_clause")
    k = _time_phrase(toks, end)
    if k is None or toks[k - 1].text == "," or (toks[k - 1].low in ("of", "the", "'s", "since", "until", "by",
                                                                    "from", "than", "as")):
        return None
    if _embedded_or_verbless(toks[:k]):
        # "A way to characterise the campaign that the Ministry is launching on Wednesday."
        return Refusal("embedded_or_verbless")
    if any(a.low == "to" and _is_form(b.low, "VB") and "VERB" in _lemmas(b.low) for a, b in zip(toks, toks[1:k])):
        # "I was hesitant to move to Victoria in 1984": the time may belong to the infinitive only
        return Refusal("time_of_infinitive")
    return _front(text, toks, k, end)


def _embedded_or_verbless(head: list[Tok]) -> bool:
    """Whether the part before a phrase that would move to the front has no finite verb (the phrase may belong to
    a noun) or an embedded or coordinated clause (it may belong to that clause only): fronting would change what
    the phrase is about."""
    return not has_finite_verb(head) or any(
        t.low in SAYING_VERBS or t.low in ("that", "which", "who", "whom", "whose", "and", "or") for t in head)


def rule_front_place(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = chunk(text, toks).end
    if end <= 0:
        return None
    for k in range(2, end):
        if toks[k].low not in PLACE_PREPOSITIONS or not toks[k].text.islower():
            continue
        if not is_ing_verb(toks[k - 1].low) or toks[k - 2].low not in ("is", "are", "was", "were"):
            continue
        if toks[k - 1].low in SELECTED_PREPOSITION.get(toks[k].low, ()):
            return Refusal("selected_preposition")
        if toks[k].low == "at" and toks[k - 1].low not in AT_PLACE_VERBS:
            # "biting at a blanket", "pulling at a rope": "at" is the verb's, not a place
            return Refusal("at_belongs_to_verb")
        start = k + 1
        if toks[k].low == "in" and start + 1 < end and toks[start].low == "front" and toks[start + 1].low == "of":
            start += 2
        if start >= end or toks[start].low not in ("a", "an", "the", "some", "two", "three"):
            return None
        phrase = toks[start + 1:end]
        if not 1 <= len(phrase) <= 4 or not all(is_content(t) for t in phrase):
            return None
        if any(is_ing_verb(t.low) for t in phrase):
            return Refusal("ing_in_phrase")
        return _front(text, toks, k, end)
    return None


def _cataphoric(toks: list[Tok], clause: list[Tok]) -> bool:
    """Whether the final clause has a third-person pronoun (he, she, it, they, him, her, them, his, its, their)
    that, fronted, would come before the noun of the main clause it may refer to; not when the main clause opens
    with a personal pronoun (no noun there to come before), for a weather "it" ("because it was raining"), nor for a
    possessive in a clause without a subject ("while talking on her cellphone": it is the clause's own subject's,
    which is the main clause's)."""
    if toks[0].low in PERSONAL_SUBJECTS:
        return False
    subjectless = is_ing_verb(clause[0].low)
    for m, t in enumerate(clause):
        word = re.split(r"['’]", t.low)[0]
        if word not in CLAUSE_PRONOUNS or subjectless and word in ("his", "her", "its", "their") and (
                m + 1 < len(clause) and _is_word(clause[m + 1]) and not is_stopword(clause[m + 1].low)):
            continue
        rest = [x.low for x in clause[m + 1:m + 3]]
        if word == "it" and (word != t.low and rest[:1] and rest[0] in WEATHER_WORDS
                             or rest[:1] in (["is"], ["was"]) and rest[1:] and rest[1] in WEATHER_WORDS):
            continue
        return True
    return False


def rule_front_clause(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = chunk(text, toks).end
    if end <= 0:
        return None
    for k in range(3, end - 2):
        if toks[k].low in SUBORDINATORS and toks[k].text.islower():
            return _front_clause_at(text, toks, k, end)
    return None


def _front_clause_at(text: str, toks: list[Tok], k: int, end: int) -> str | Refusal | None:
    """The sentence with its final clause, from the conjunction at token k, moved to the front."""
    conj = toks[k]
    prev = toks[k - 1]
    j = k - 1 if prev.text != "," else k - 2
    before = toks[j]
    if before.low in TIME_NOUNS or before.low in CONJUNCTION_MODIFIERS or before.low in QUESTION_VERBS:
        return Refusal("clause_attaches_to_word_before")
    if conj.low == "after" and before.low in AFTER_VERBS:
        return Refusal("clause_attaches_to_verb")
    if before.low in ("is", "are", "was", "were", "be", "been", "being", "'s"):
        return Refusal("clause_is_complement")  # "where it goes wrong is when ...": the clause is what "is" says
    clause = toks[k + 1:end]
    if not (has_finite_verb(clause) or is_ing_verb(clause[0].low) or is_participle(clause[0].low)
            or conj.low == "because" and clause[0].low == "of"):
        # "we like to wait until 18 months on average": a phrase the verb before it asks for
        return Refusal("no_finite_verb")
    if any(not (_is_word(t) or t.text.isdigit() or t.text in ("'", "’", "-", "%", "$")) for t in clause):
        return Refusal("punctuation_in_clause")
    if any(t.low in SUBORDINATORS | {"that", "which", "who", "and", "or", "but", "so"} for t in clause):
        return Refusal("nested_clause")
    if any(t.low in THIRD_PERSON for t in toks[:k]) and any(t.text[:1].isupper() for t in clause):
        return Refusal("pronoun_would_mean_name")  # "He left because John was tired": fronting lets "he" mean John
    if _cataphoric(toks, clause):
        # "The terrorists tied the flight attendants because they were in the way": "they" would come before the
        # noun it refers to
        return Refusal("pronoun_before_its_noun")
    if j < 2 or any(t.text in (";", ":", "\"", "(", ")", "-") for t in toks[:j + 1]):
        return Refusal("punctuation_before_clause")
    if any(t.text == "," for t in toks[:j + 1]):
        return Refusal("comma_before_clause")
    if toks[0].low in ("so", "and", "but", "or", "yet", "then", "also"):
        return Refusal("conjunction_opening")
    if conj.low == "because" and any(t.low in ("not", "never") or t.low.endswith("n't") for t in toks[:j + 1]):
        return Refusal("negation_scope")  # "I did not do it because ...": "not" may deny the reason, not the deed
    if _embedded_or_verbless(toks[:j + 1]):
        # "The volatility of prices since 1995 has been ...": inside the subject; "This means that half will be
        # returned, while ...", "put her son in a class and was nervous because ...": it may belong to the
        # embedded or the second clause only
        return Refusal("embedded_or_verbless")
    return _front(text, toks, k, end, last=j)


def rule_there(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = chunk(text, toks).end
    if end <= 0 or len(toks) < 4:
        return None
    if toks[0].low == "there" and toks[1].low in ("is", "are") and toks[2].low in INDEFINITE:
        for k in range(3, min(end, 9)):
            t = toks[k]
            if is_ing_verb(t.low) and toks[k - 1].low not in DETERMINERS:
                subject = toks[2:k]
                if not all(_is_word(s) for s in subject) or any(s.low in ("and", "who", "that", "which", "of")
                                                                 for s in subject):
                    return Refusal("subject_not_plain")
                if any(is_ing_verb(s.low) for s in subject[1:]):
                    return Refusal("ing_in_subject")
                sub = text[toks[2].start:toks[k - 1].end]
                return (sub[:1].upper() + sub[1:] + " " + toks[1].text + " " + text[t.start:])
            if not _is_word(t) or (is_stopword(t.text) and t.low not in ("of",)):
                return None
        return None
    if toks[0].low not in INDEFINITE or toks[0].low in ("one",):
        return None
    for k in range(1, min(end, 9)):
        t = toks[k]
        if t.low in ("is", "are") and t.text.islower():
            nxt = toks[k + 1] if k + 1 < end else None
            if nxt is None or not (is_ing_verb(nxt.low) or nxt.low in PLACE_PREPOSITIONS):
                return Refusal("no_ing_or_place_after")
            subject = toks[:k]
            if k < 2 or not all(_is_word(s) for s in subject):
                return Refusal("subject_not_words")
            if any(s.low in ("and", "who", "that", "which", "with") or is_ing_verb(s.low) or
                   (is_verb_form(s.low) and s.low.endswith("ed")) for s in subject[1:]):
                return Refusal("subject_not_plain")
            sub = _lower_first_word(text[toks[0].start:toks[k - 1].end])
            if sub is None:
                return None
            if toks[0].low in ("a", "an") and t.low == "are":
                return Refusal("group_agreement")  # "A group of children are ...": "There are a group" is wrong
            verb = "is" if t.low == "is" else "are"
            return f"There {verb} {sub} {text[nxt.start:]}"
        if not _is_word(t) or t.text[:1].isupper():
            return None
    return None


def rule_wearing(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    chunks, refused = chunk(text, toks), None
    for k in range(1, len(toks) - 2):
        t = toks[k]
        if t.low not in ("in", "wearing") or not t.text.islower():
            continue
        prev = toks[k - 1]
        if not _is_word(prev) or is_stopword(prev.text) or prev.low in ("dressed", "clad", "wrapped", "covered") \
                or is_verb_form(prev.low) and "NOUN" not in _lemmas(prev.low):
            continue
        if "NOUN" not in _lemmas(prev.low) and prev.text[:1].islower():
            continue
        j = k + 1
        det = toks[j].low in ("a", "an", "the", "his", "her", "their", "its", "some")
        if det:
            j += 1
        start = j
        j = chunks.content_end(start, 4)
        if j == start or not (toks[j - 1].low in GARMENTS or toks[j - 1].low.rstrip("s") in GARMENTS):
            continue
        if j < len(toks) and _is_word(toks[j]) and toks[j].low not in ("and", "with", "is", "are", "on", "in", "at",
                                                                       "while", "was", "were", "near", "by"):
            refused = refused or Refusal("phrase_goes_on")  # what follows may belong to the garment's phrase
            continue
        if j < len(toks) and toks[j].low == "and" and j + 1 < len(toks) and toks[j + 1].low in ("a", "an", "the"):
            refused = refused or Refusal("second_garment")  # "in a shirt and a hat": the hat would stay under "in"
            continue
        if t.low == "wearing" and not det and toks[k + 1].low not in ("blue", "red", "black", "white") \
                and toks[j - 1].low not in ("clothes", "jeans", "shorts", "pants", "glasses", "sunglasses",
                                            "trousers", "boots", "shoes", "overalls", "pajamas"):
            refused = refused or Refusal("garment_without_determiner")  # "wearing bike helmets" -> "in bike helmets"
            continue
        return splice(text, [(t.start, t.end, "wearing" if t.low == "in" else "in")])
    return refused


def _first_ing(toks: list[Tok], end: int) -> int:
    return next((k for k in range(1, end) if is_ing_verb(toks[k].low)), end)


def _later_ing(toks: list[Tok], k: int, end: int) -> bool:
    """Whether an -ing verb follows the one at k without a comma, "and", "or", "while" or "then" between them (one
    after a determiner, "a hanging flower pot", is none)."""
    for m in range(k + 1, end):
        x = toks[m]
        if x.low in (",", "and", "or", "while", "then", "but"):
            return False
        if is_ing_verb(x.low) and toks[m - 1].low not in DETERMINERS and x.text.islower():
            return True
    return False


def rule_add_is(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = chunk(text, toks).end
    if end <= 0 or toks[0].low not in INDEFINITE | {"the", "one"}:
        return None
    if any(t.low in AUXILIARIES or t.low in ("'s", "who", "that", "which", "while", "as", "when") for t in toks):
        return None
    if any(t.low in ("and", "with", "or") for t in toks[:end][:_first_ing(toks, end)]):
        return None
    for k in range(2, min(end, 10)):
        t = toks[k]
        if not _is_word(t) or t.text[:1].isupper() and k > 0:
            return None
        if is_ing_verb(t.low):
            prev = toks[k - 1]
            if "NOUN" not in _lemmas(prev.low):
                return Refusal("ing_not_after_subject")  # "amid cheering": the -ing word does not follow its subject
            if any((_is_form(x.low, "VBZ") or _is_form(x.low, "VBD")) and "NOUN" not in _lemmas(x.low)
                   or m > 1 and _is_form(x.low, "VB")
                   and (toks[m - 1].low.endswith("s") or toks[m - 1].low in ("people", "men", "women", "children"))
                   for m, x in enumerate(toks[:k]) if m > 0):
                # "A group of people stand in the sand looking": the sentence has its verb
                return Refusal("has_finite_verb")
            if prev.low in DETERMINERS or "ADJ" in _lemmas(prev.low) and "NOUN" not in _lemmas(prev.low) \
                    or is_stopword(prev.text) or prev.low == "and":
                return Refusal("ing_is_modifier")
            if any(verb_only(x.low) and not x.low.endswith("ing") for x in toks[1:k]):
                return Refusal("has_verb_form")
            if any((_is_form(x.low, "VBZ") or _is_form(x.low, "VBD")) and toks[m - 1].low not in DETERMINERS
                   and "ADJ" not in _lemmas(toks[m - 1].low) for m, x in enumerate(toks[:end]) if m > k):
                return Refusal("has_finite_verb")  # "A boy wearing a hat catches a Frisbee": the sentence has its verb
            if any(_is_lower_word(x) and _is_form(x.low, "VB") and "ADJ" not in _lemmas(x.low)
                   and not is_stopword(x.text) and is_plural_noun_token(toks[m - 1])
                   for m, x in enumerate(toks[:end]) if m > k + 1):
                # "Two people wearing hoodies huddle on a doorstep": a plural present after its noun
                return Refusal("plural_present_verb")
            plural = toks[0].low not in ("a", "an", "one", "the") or (
                toks[0].low == "the" and toks[k - 1].low.endswith("s") and "NOUN" in _lemmas(toks[k - 1].low)
                and not toks[k - 1].low.endswith("ss"))
            if toks[0].low == "the" and any(x.low == "of" for x in toks[1:k]):
                return Refusal("of_phrase_subject")
            if t.low in ATTRIBUTE_ING and _later_ing(toks, k, end):
                # "a man wearing a white suit holding a newspaper walking ...": "wearing" describes the man, a
                # later -ing verb is what he does
                return Refusal("several_ing_verbs")
            return splice(text, [(t.start, t.start, ("are " if plural else "is "))])
    return None


GRAMMAR_RULES: dict[str, Rule] = {
    "number_words": rule_number_words, "front_time": rule_front_time, "front_place": rule_front_place,
    "front_clause": rule_front_clause, "there": rule_there, "wearing": rule_wearing, "add_is": rule_add_is,
}
