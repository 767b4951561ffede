"""Clause markers said either way: the same clause with or without its complementizer, or with the other relative
pronoun. What each rule does, its guards and its cases (golden and refused): `cases/markers.json`.

`that` drops the complementizer after the verbs of saying and thinking and those that also take an object (the
"say" and "object" classes of `syntax.verb_classes`) and after the adjectives of `SAY_ADJECTIVES`; after the
"object" verbs, "told me/him/..." and some adjectives only before a nominative pronoun, as a noun phrase after them
reads as their object first. It adds "that" only after verbs of saying and thinking. The clause after "that" must be
plain: a subject (`_clause_subject`) and then a finite verb. An object relative's "that" is dropped only after a
lower-case noun that takes no "that"-clause of its own (`CLAUSE_NOUNS`, `ABSTRACT_ENDINGS`).

`relative` tries in turn: "which" <-> "that" in a restrictive relative (`_swap_relative`), "who/that/which is/are"
+ an -ing verb reduced to the -ing verb (`_reduce_relative`), a passive relative reduced to its participle, which a
complement must follow (`_reduce_passive`), and in a past narrative "who/that/which was/were" + an -ing verb
(`_reduce_past_progressive`); each refuses a relative that may be about something else than the noun before it
(`_noun_head`, `_passive_head`, `_reducible`), and "which" after a person.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from bsl_pipeline.pipeline.augment.rewrite_rules.syntax import is_finite_clause_verb, is_plural_noun, verb_classes
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _final_punct, _is_form, _is_lower_word, _is_word, _lemmas, first_rewrite,
    is_ing_verb, splice,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    ABSTRACT_ENDINGS, ADVERBS_IN_VERB_GROUP, ANIMALS, AUXILIARIES, CLAUSE_DETERMINERS, CLAUSE_NOUNS, DETERMINERS,
    FINITE_AUX, GAP_ADVERBS, NOMINATIVE_PRONOUNS, NO_REDUCTION, OBJECT_PRONOUNS, PARTICIPLE_COMPLEMENT,
    PASSIVE_PRONOUNS, PERSON_NOUNS, PERSON_PRONOUNS, PERSON_SUFFIXES, PLURAL_ONLY, PREPOSITIONS, PRONOUN_ADJECTIVES,
    QUANTIFIERS, SAY_ADJECTIVES, SUBJECT_PRONOUNS, THAT_PREFERRED, TIME_WORDS,
)


CONTRACTED_SUBJECT = re.compile(r"(i|you|he|she|it|we|they|there)'(s|m|re|ve|ll|d)")


def _clause_subject(toks: list[Tok], i: int, names: bool = True, bare: bool = True) -> int | None:
    """Index of the finite verb of a plain clause starting at token `i` (subject + finite verb), or None. A
    contracted "it's" / "they're" is subject and verb at once (its own index)."""
    if i >= len(toks) or not _is_word(toks[i]) and not toks[i].text[:1].isdigit():
        return None
    first = toks[i]
    low = first.low
    if CONTRACTED_SUBJECT.fullmatch(low):
        return i if first.text[:1].islower() or low.startswith("i'") else None
    if low in SUBJECT_PRONOUNS and (first.text.islower() or first.text == "I"):
        return i + 1 if i + 1 < len(toks) and is_finite_clause_verb(toks[i + 1]) else None
    if low in TIME_WORDS or low.split("'")[0] in TIME_WORDS:
        return None
    if low in CLAUSE_DETERMINERS and first.text.islower() or first.text.replace(",", "").isdigit():
        j = i + 1
        while j < len(toks) and j - i <= 3 and _is_lower_word(toks[j]) and not is_finite_clause_verb(toks[j]) \
                and not is_stopword(toks[j].text):
            j += 1
        if j == i + 1 or j >= len(toks) or toks[j - 1].low in TIME_WORDS:
            return None
        return j if is_finite_clause_verb(toks[j]) else None
    if bare and _is_lower_word(first) and is_plural_noun(low) and "VERB" not in _lemmas(low):
        return i + 1 if i + 1 < len(toks) and is_finite_clause_verb(toks[i + 1]) else None
    if names and first.text[:1].isupper() and first.text[1:].islower() and not _lemmas(low):
        j = i + 1
        while j < len(toks) and j - i < 3 and toks[j].text[:1].isupper() and toks[j].text[1:].islower() \
                and not _lemmas(toks[j].low):
            j += 1
        return j if j < len(toks) and is_finite_clause_verb(toks[j]) else None
    return None


def _passive_or_noun(toks: list[Tok], v: int) -> bool:
    """Whether the listed verb at `v` is a passive ("it is said that") or may be a noun ("a thought that")."""
    if v == 0:
        return True
    prev = toks[v - 1].low
    return prev in ("is", "are", "was", "were", "be", "been", "being") or prev in DETERMINERS \
        or not _is_word(toks[v - 1]) and toks[v - 1].text != "," or re.search(r"['’]s?$", prev) is not None \
        or "ADJ" in _lemmas(prev) and not {"ADV", "VERB", "NOUN"} & set(_lemmas(prev))


# -- that -------------------------------------------------------------------------------------------------------------
def _thats(toks: list[Tok], first: int, after: int) -> Iterator[int]:
    """The indices of a lower-case "that" from token `first` on, with at least `after` tokens after it."""
    return (k for k in range(first, len(toks) - after) if toks[k].text == "that")


def _drop_after_verb(text: str, toks: list[Tok]) -> str | None:
    lists = verb_classes()
    for k in _thats(toks, 1, 2):
        t = toks[k]
        v = k - 1
        verb = toks[v].low
        say = verb in lists["say"] or verb in SAY_ADJECTIVES
        told = verb in OBJECT_PRONOUNS and k >= 3 and toks[k - 2].low in lists["tell"]  # "told me that he ..."
        if not (say or told or verb in lists["object"] or verb in PRONOUN_ADJECTIVES) or not toks[v].text.islower() \
                or _passive_or_noun(toks, k - 2 if told else v):
            continue
        if verb in ("know", "knew") and any(x.low in ("not", "never") or x.low.endswith("n't") for x in toks[:v]):
            continue  # "I do not know that I have a proper answer" (= not sure): without "that", unaware
        nxt = toks[k + 1]
        if not say and not (nxt.low in NOMINATIVE_PRONOUNS or CONTRACTED_SUBJECT.fullmatch(nxt.low)
                            and not nxt.low.startswith(("it'", "you'", "there'"))):
            continue  # "found that the study was ...": "found the study" would be read as its object
        if _clause_subject(toks, k + 1) is None:
            continue
        if any(a.low in ("and", "or", "but") and b.low == "that" for a, b in zip(toks[k + 1:], toks[k + 2:])):
            return None  # "claims that ... and that ...": the clauses would no longer match
        return splice(text, [(toks[v].end, t.end, "")])
    return None


def _verb_group_end(toks: list[Tok], j: int) -> int | None:
    """From a finite verb at `j`: the index after the verb group (auxiliaries, adverbs, main verb)."""
    while j < len(toks) and (toks[j].low in FINITE_AUX | AUXILIARIES | ADVERBS_IN_VERB_GROUP | {"been", "being",
                                                                                                 "be", "to"}):
        j += 1
        if j < len(toks) and toks[j - 1].low not in ADVERBS_IN_VERB_GROUP | {"to"} \
                and (is_ing_verb(toks[j].low) or _is_form(toks[j].low, "VBN") or _is_form(toks[j].low, "VB")):
            break
    if j < len(toks) and _is_lower_word(toks[j]) and toks[j].low not in PREPOSITIONS \
            and any(_is_form(toks[j].low, tag) for tag in ("VB", "VBZ", "VBD", "VBN", "VBG")):
        return j + 1
    return None


def _drop_object_relative(text: str, toks: list[Tok]) -> str | None:
    lists = verb_classes()
    for k in _thats(toks, 2, 3):
        t = toks[k]
        noun = toks[k - 1]
        if not _is_lower_word(noun) or "NOUN" not in _lemmas(noun.low) or noun.low in CLAUSE_NOUNS \
                or is_stopword(noun.text) or noun.low in lists["say"] | lists["object"] | lists["catenative"] \
                or noun.low in QUANTIFIERS:
            continue
        if "VERB" in _lemmas(noun.low) and not is_plural_noun(noun.low) and toks[k - 2].low not in DETERMINERS \
                and "ADJ" not in _lemmas(toks[k - 2].low):
            continue  # "... as they say that ...": the word may be a verb
        if any(x.low in ("so", "such") for x in toks[max(0, k - 4):k]):
            continue  # "such a mess that ...": a result clause
        if noun.low.endswith(ABSTRACT_ENDINGS):
            continue  # "a confession that he had lied about ...": such nouns take a "that"-clause of their own
        nxt = toks[k + 1]
        if nxt.low in NOMINATIVE_PRONOUNS | {"it", "you"} and (nxt.text.islower() or nxt.text == "I"):
            verb = k + 2
        else:
            verb = _clause_subject(toks, k + 1, names=False, bare=False)  # "many [that] investigators"
            if verb is None or nxt.low in SUBJECT_PRONOUNS or CONTRACTED_SUBJECT.fullmatch(nxt.low):
                continue
        if verb >= len(toks) or not is_finite_clause_verb(toks[verb]):
            continue
        end = _verb_group_end(toks, verb)
        if end is None or toks[end - 1].low in lists["say"] | lists["object"] | lists["catenative"] \
                and end < len(toks) and _is_word(toks[end]):
            continue
        after = toks[end] if end < len(toks) else None
        if toks[end - 1].low in lists["intransitive"] and not (
                after is not None and after.low in PREPOSITIONS and (end + 1 == len(toks) or not _is_word(
                    toks[end + 1]) or toks[end + 1].low in PREPOSITIONS | GAP_ADVERBS)):
            continue  # "fewer powers that it seems", "a claim that he lied about it": no object relative
        if after is not None and not (after.text in (".", ",", ";", ":", "!", "?", ")")
                                      or after.low in PREPOSITIONS and after.text.islower()
                                      or after.low in GAP_ADVERBS and after.text.islower()):
            continue  # the relative's verb has an object of its own: "that" is no object relative
        return splice(text, [(noun.end, t.end, "")])
    return None


def _add_after_verb(text: str, toks: list[Tok]) -> str | None:
    lists = verb_classes()
    if any(t.low == "that" for t in toks):
        return None
    for v in range(1, len(toks) - 2):
        t = toks[v]
        nxt = toks[v + 1]
        if t.low in lists["tell"] and t.text.islower() and nxt.low in OBJECT_PRONOUNS and v + 3 < len(toks) \
                and toks[v + 2].low in ("he", "she", "they") and not _passive_or_noun(toks, v) \
                and _clause_subject(toks, v + 2) is not None:
            return splice(text, [(nxt.end, nxt.end, " that")])  # "He told me he was tired."
        nominative_only = t.low in lists["object"] and t.low not in lists["filler"]
        if not (t.low in lists["say"] or nominative_only) or not t.text.islower() or _passive_or_noun(toks, v):
            continue
        if is_ing_verb(t.low) or t.low in ("thought",) and toks[v - 1].low not in SUBJECT_PRONOUNS:
            continue
        if nxt.start != t.end + 1:
            continue
        if any(x.low in ("as", "than", "so", "how", "what") for x in toks[max(0, v - 3):v]):
            continue  # "as Reich claims it did": a comparison, not a reported clause
        if t.low in lists["speech"] and (nxt.low in ("i", "we", "you", "let's") or nxt.low.startswith(
                ("i'", "we'", "you'"))) and toks[v - 1].low not in ("i", "we", "you"):
            continue  # "a guy said you'd better get out": words quoted without quotation marks
        verb = _clause_subject(toks, v + 1)
        if verb is None or nominative_only and t.low not in lists["say"] and not (
                nxt.low in NOMINATIVE_PRONOUNS and (nxt.text.islower() or nxt.text == "I")
                or CONTRACTED_SUBJECT.fullmatch(nxt.low) and nxt.low.split("'")[0] in NOMINATIVE_PRONOUNS):
            continue  # "I noticed the man was" stays: "noticed the man" is read as its object
        if _final_punct(toks) == len(toks) and toks[0].text[:1].isupper() and toks[verb].low not in FINITE_AUX \
                and _is_form(toks[verb].low, "VBN"):
            continue  # a headline: "Correa says no decision made on ..." has no finite verb
        return splice(text, [(t.end, t.end, " that")])
    return None


def rule_that(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if "?" in text and not text.rstrip().endswith("?") or '"' in text or "“" in text:
        return Refusal("quotation")  # quotations: what is inside may not be the verb's clause
    return _drop_after_verb(text, toks) or _drop_object_relative(text, toks) or _add_after_verb(text, toks)


# -- relative -------------------------------------------------------------------------------------------------------
def _may_be_person(tok: Tok) -> bool:
    low = tok.low
    nouns = _lemmas(low).get("NOUN", ())
    return (not tok.text.islower() or low in PERSON_NOUNS or any(n in PERSON_NOUNS for n in nouns)
            or low.endswith(PERSON_SUFFIXES) or not _lemmas(low))


def _noun_head(toks: list[Tok], k: int) -> int | None:
    """Start of the noun phrase that token k-1 heads: a determiner (or number) + up to three lower-case words, the
    last a noun; None when token k-1 heads no such phrase or the phrase is a preposition's object."""
    j = k - 1
    if not _is_lower_word(toks[j]) or "NOUN" not in _lemmas(toks[j].low) or is_stopword(toks[j].text):
        return None
    while j > 0 and _is_lower_word(toks[j - 1]) and toks[j - 1].low not in DETERMINERS \
            and not is_stopword(toks[j - 1].text) and k - j < 4:
        j -= 1
    if j == 0 or toks[j - 1].low not in DETERMINERS:
        return None
    j -= 1
    return j if j == 0 or toks[j - 1].low not in PREPOSITIONS else None


def _verb_like(toks: list[Tok], i: int) -> bool:
    """Whether the noun at `i` may be a verb here ("i think that is ...", "is given that provides"): it has a verb
    reading and no determiner, adjective or possessive before it, and it is no plural noun."""
    low = toks[i].low
    if "VERB" not in _lemmas(low) or is_plural_noun(low) or i == 0:
        return "VERB" in _lemmas(low) and i == 0
    prev = toks[i - 1]
    if prev.low in SUBJECT_PRONOUNS:
        return True
    return not (prev.low in DETERMINERS or "ADJ" in _lemmas(prev.low) or prev.low.endswith(("'s", "’s"))
                or prev.low in ("of", "and", "or") or "NOUN" in _lemmas(prev.low) and not is_finite_clause_verb(prev))


def _in_phrase_of_preposition(toks: list[Tok], i: int) -> bool:
    """Whether the noun at `i` ends a preposition's object ("in the flour", "of a musical theme")."""
    j = i
    while j > 0 and i - j < 5 and (_is_lower_word(toks[j - 1]) or toks[j - 1].text == "-") \
            and toks[j - 1].low not in PREPOSITIONS \
            and not (is_finite_clause_verb(toks[j - 1]) or is_ing_verb(toks[j - 1].low)):
        j -= 1
    return j > 0 and (toks[j - 1].low in PREPOSITIONS or toks[j - 1].text in (")", "(", "_"))


def _cleft(toks: list[Tok], k: int) -> bool:
    """Whether "it is/was" comes before token k: "Today it is the effects of pollution that are ..."."""
    return any(a.low == "it" and b.low in ("is", "was", "'s") or a.low in ("it's", "it’s")
               for a, b in zip(toks[:k], toks[1:k]))


def _reduce_relative(text: str, toks: list[Tok]) -> str | Refusal | None:
    refusal = None  # the first guard that refused, returned when no place is rewritten
    for k in range(2, len(toks) - 3):
        t = toks[k]
        if t.low not in ("who", "that", "which") or not t.text.islower():
            continue
        be, verb = toks[k + 1], toks[k + 2]
        if be.low not in ("is", "are") or not is_ing_verb(verb.low):
            continue
        if verb.low == "going" and k + 3 < len(toks) and toks[k + 3].low == "to":
            refusal = refusal or Refusal("future")  # "who are going to vote"
        elif toks[k - 1].text == "," or _noun_head(toks, k) is None or _cleft(toks, k):
            refusal = refusal or Refusal("head_unfit")  # "a man with a mustache who is wearing white"
        elif t.low == "who" and not (_may_be_person(toks[k - 1]) or toks[k - 1].low in ANIMALS):
            refusal = refusal or Refusal("who_not_person")  # "Two guys are wearing uniforms who are running"
        else:
            return splice(text, [(t.start, verb.start, "")])
    return refusal


def _agrees(noun: Tok, verb: Tok) -> bool:
    """Whether a relative's verb agrees with the noun before it ("plants which is Eco-friendly" does not: the
    relative is about something else)."""
    plural = is_plural_noun(noun.low)
    singular = any(noun.low == n for n in _lemmas(noun.low).get("NOUN", ()))
    if verb.low in ("is", "was", "has", "does", "isn't", "wasn't", "hasn't", "doesn't") or \
            verb.low.endswith("s") and _is_form(verb.low, "VBZ"):
        return singular or not plural
    if verb.low in ("are", "were", "have", "do", "aren't", "weren't", "haven't", "don't"):
        return plural or not singular
    return True


def _fronted(toks: list[Tok], k: int) -> bool:
    """Whether the words before token k are a phrase that opens the sentence or a clause ("In my view that is
    based on ...": "that" is the subject, not a relative)."""
    j = k - 1
    while j > 0 and k - j < 6 and (_is_lower_word(toks[j - 1]) or toks[j - 1].text[:1].isdigit()) \
            and toks[j - 1].low not in PREPOSITIONS:
        j -= 1
    return j > 0 and toks[j - 1].low in PREPOSITIONS and (j == 1 or toks[j - 2].text in (",", ";", ":", "("))


def _swap_at(toks: list[Tok], k: int) -> str | Refusal | None:
    """The other relative pronoun for "which"/"that" at token k, or the guard that refuses it."""
    t, noun, nxt = toks[k], toks[k - 1], toks[k + 1]
    if not _is_lower_word(noun) or noun.low in PREPOSITIONS or noun.low == "that" or is_stopword(noun.text) \
            or "NOUN" not in _lemmas(noun.low):
        return None  # "... called Groups which might be helpful": a name may end before the relative
    if noun.low in QUANTIFIERS or noun.low.endswith("thing") \
            or noun.low in ("way", "extent", "degree", "reason", "point", "time", "so", "such"):
        return Refusal("that_preferred")  # "a lot that", "anything that"
    if _verb_like(toks, k - 1) or _cleft(toks, k) or _fronted(toks, k):
        return Refusal("not_a_relative")
    if not _agrees(noun, nxt):
        return Refusal("agreement")
    heads = [noun] + ([toks[k - 3]] if k >= 3 and toks[k - 2].low in ("and", "or") else [])
    if any(_may_be_person(x) for x in heads) or any(x.low in PERSON_PRONOUNS for x in toks[max(0, k - 7):k]):
        return Refusal("may_be_person")  # "the victim which is affected"; "the person or entity that pays"
    if t.text == "which":
        if _in_phrase_of_preposition(toks, k - 1) or any(x.low == "that" for x in toks[max(0, k - 4):k]):
            return Refusal("preposition_object")  # "Irish oak from the park which is held together"
        if nxt.low in ("means", "meant", "makes", "made", "explains", "is", "was") and k + 2 < len(toks) \
                and toks[k + 2].low in ("why", "it", "me", "us", "them", "sense"):
            return Refusal("refers_to_clause")  # "which is why"
        clause = is_finite_clause_verb(nxt) or _clause_subject(toks, k + 1, names=False) is not None
        return "that" if clause else None
    if not is_finite_clause_verb(nxt):
        return None  # that -> which in a subject relative only: "the fact that he left"
    if any(x.low in THAT_PREFERRED or x.low.endswith("est") and "ADJ" in _lemmas(x.low)
           for x in toks[max(0, k - 4):k - 1]):
        return Refusal("that_preferred")  # "the only film that ...", "the best way that ..."
    return "which"


def _swap_relative(text: str, toks: list[Tok]) -> str | Refusal | None:
    return first_rewrite(_swapped(text, toks, k) for k in range(2, len(toks) - 2) if toks[k].text in ("which", "that"))


def _swapped(text: str, toks: list[Tok], k: int) -> str | Refusal | None:
    """The sentence with the relative pronoun at token k swapped, or the guard that refuses it."""
    new = _swap_at(toks, k)
    if isinstance(new, str) and re.search(r"\b(and|or|but) (which|that)\b", text):
        return Refusal("joined_relatives")  # "and which": the two relatives would no longer match
    return splice(text, [(toks[k].start, toks[k].end, new)]) if isinstance(new, str) else new


def _agrees_passive(noun: Tok, be: Tok) -> bool:
    """`_agrees`, with the nouns that are plural without an -s ("the people who were")."""
    if noun.low in PLURAL_ONLY or noun.low == "those":
        return be.low in ("are", "were")
    return _agrees(noun, be)


def _person_noun(tok: Tok) -> bool:
    return tok.low in PERSON_NOUNS or any(n in PERSON_NOUNS for n in _lemmas(tok.low).get("NOUN", ()))


def _passive_head(toks: list[Tok], k: int) -> str | None:
    """The noun phrase that a relative at token k is about: "det" (a determiner phrase: "a program that is
    designed"), "bare" (a bare plural or a modified noun: "duties that are required"), "pronoun" ("those who were
    killed"), "of" (a preposition's object: "a band of leather that is placed"); None when the word before is no
    such noun, or "that" may be a demonstrative or a complementizer ("At the time that was", "He said that is")."""
    noun = toks[k - 1]
    low = noun.low
    if k == 1 and noun.text.isalpha() and noun.text.istitle() and (low in PASSIVE_PRONOUNS or is_plural_noun(low)):
        return "pronoun" if low in PASSIVE_PRONOUNS else "bare"  # "Those who were ...", "Workers who were ..."
    if not _is_lower_word(noun):
        return None
    if low in PASSIVE_PRONOUNS:
        return "pronoun"
    if "NOUN" not in _lemmas(low) or is_stopword(noun.text) or low in QUANTIFIERS or low in TIME_WORDS \
            or low in ("way", "extent", "degree", "reason", "point", "time", "so", "such"):
        return None

    def modifier(i: int) -> bool:  # "a light line", "three-dimensional space", "training programs"
        tok = toks[i]
        return tok.text.replace("-", "").isalpha() and tok.text.islower() and tok.low not in DETERMINERS \
            and tok.low not in PREPOSITIONS and not is_stopword(tok.text) and not is_finite_clause_verb(tok) \
            and not (is_ing_verb(tok.low) and i > 0 and toks[i - 1].low in AUXILIARIES | {"be", "been"})

    j = k - 1
    while j > 0 and k - j < 4 and modifier(j - 1):
        j -= 1
    if j > 0 and (toks[j - 1].low in DETERMINERS or toks[j - 1].text in ("'s", "’s")
                  or re.search(r"['’]s$", toks[j - 1].low)):
        j, kind = j - 1, "det"  # "the report", "the company's report"
    else:
        kind = "bare"
    governed = j > 1 and toks[j - 1].low in PREPOSITIONS | {"as"} and toks[j - 2].text not in (",", ";", ":", "(")
    if kind == "bare" and not governed and (not (is_plural_noun(low) or j < k - 1) or low in verb_classes()["say"]
                                            or j == k - 1 and _verb_like(toks, k - 1)):
        return None  # a bare singular noun or a verb: "He saw smoke that was ...", "He said that is done ..."
    if j > 0 and toks[j - 1].low in PREPOSITIONS | {"as"} and not governed:
        return None  # a fronted phrase: "In my view that is based on a mistake" ("that" is the subject)
    return "of" if governed else kind


def _reducible(toks: list[Tok], k: int) -> bool:
    """Whether the relative at token k ("who/that/which" + a form of "be") may lose both words: a restrictive
    relative about the noun before it (see `_passive_head`), its verb agreeing; "who" after a person or an animal
    (after a preposition's object only a listed person: "a man with a sweater who was ..." may be about the man),
    "which" after no person ("a woman which is seen by another man"), and after a preposition's object only in a
    verb's phrase ("skateboarding at a park which is covered"; "oak from the park which is held together" may be
    about the oak)."""
    t, noun = toks[k], toks[k - 1]
    head = _passive_head(toks, k)
    if head is None or _cleft(toks, k) or not _agrees_passive(noun, toks[k + 1]):
        return False  # "the final rule which were considered": the relative is about the alternatives
    if t.low == "who":
        return _person_noun(noun) or noun.low in ANIMALS or head != "of" and _may_be_person(noun)
    if head == "of" and t.low == "which":  # only in a phrase of a verb ("skateboarding at a park which is ...")
        j = k - 1
        while j > 0 and toks[j - 1].low not in PREPOSITIONS | {"as"}:
            j -= 1
        before = toks[j - 2] if j > 1 else None
        return before is not None and _is_lower_word(before) and (
            is_ing_verb(before.low) or is_finite_clause_verb(before) or "NOUN" not in _lemmas(before.low))
    return not (t.low == "which" and _person_noun(noun))


def _goes_on(rest: list[Tok]) -> bool:
    """Whether the relative goes on with a verb of its own after "and"/"or"/"but" ("matter that is held in a
    computer and is typed on paper": the reduced relative could not take the second verb)."""
    return any(a.low in ("and", "or", "but") and (b.low in FINITE_AUX or is_finite_clause_verb(b))
               for a, b in zip(rest, rest[1:]))


def _is_adverb(tok: Tok) -> bool:
    return _is_lower_word(tok) and tok.low.endswith("ly") and "ADV" in _lemmas(tok.low)


def _passive_reduced(text: str, toks: list[Tok], k: int) -> str | Refusal | None:
    """The passive relative at token k ("who/that/which" + a form of "be") reduced to its participle ("a program
    that is designed to help" -> "a program designed to help"), or the guard that refuses it."""
    t, be = toks[k], toks[k + 1]
    if t.low not in ("who", "that", "which") or not t.text.islower() or be.low not in ("is", "are", "was", "were"):
        return None
    p = k + 3 if _is_adverb(toks[k + 2]) else k + 2  # "that is widely used"
    part = toks[p] if p < len(toks) else None
    if part is None or not _is_lower_word(part) or not _is_form(part.low, "VBN"):
        return None  # "that is open"
    if part.low in NO_REDUCTION:
        return Refusal("participle_unfit")  # "that is being built", "who is supposed to ..."
    if not _reducible(toks, k):
        return Refusal("head_unfit")
    e = p + 1
    while e + 1 < len(toks) and toks[e].low in ("and", "or") and _is_lower_word(toks[e + 1]) \
            and _is_form(toks[e + 1].low, "VBN"):
        e += 2  # "that is written or printed"
    rest = toks[e:]
    if rest and _is_adverb(rest[0]):  # "something that is desired intensely."
        ok = len(rest) == 1 or not _is_word(rest[1]) or rest[1].low in PREPOSITIONS | PARTICIPLE_COMPLEMENT
    else:  # a complement must follow: "A rebel who was captured said ..." would read "A rebel captured said"
        ok = len(rest) > 1 and rest[0].low in PREPOSITIONS | PARTICIPLE_COMPLEMENT and rest[0].text.islower() \
            and (_is_word(rest[1]) or rest[1].text[:1].isdigit() or rest[1].text in ("$", "'", '"'))
    if not ok:
        return Refusal("no_complement")
    if _goes_on(rest):
        return Refusal("second_verb")
    if re.search(r"\b(and|or|but) (who|which|that)\b", text, re.IGNORECASE):
        return Refusal("joined_relatives")  # "units that are located in ... and that emit ..."
    return splice(text, [(t.start, toks[k + 2].start, "")])


def _reduce_passive(text: str, toks: list[Tok]) -> str | Refusal | None:
    return first_rewrite(_passive_reduced(text, toks, k) for k in range(1, len(toks) - 3))


def _is_past_verb(toks: list[Tok], i: int) -> bool:
    """Whether token i is a past verb: "was", "had", a past form that is no participle ("began"), or a regular past
    after a pronoun or a name ("Poirot nudged")."""
    x = toks[i]
    if x.low in ("was", "were", "had", "did"):
        return True
    if not _is_lower_word(x) or not _is_form(x.low, "VBD"):
        return False
    return not _is_form(x.low, "VBN") or i > 0 and (toks[i - 1].low in NOMINATIVE_PRONOUNS
                                                    or toks[i - 1].text.istitle() and not _lemmas(toks[i - 1].low))


def _reduce_past_progressive(text: str, toks: list[Tok]) -> str | Refusal | None:
    """"two men who were sitting together" -> "two men sitting together", in a past narrative only."""
    refusal = None  # the first guard that refused, returned when no place is rewritten
    for k in range(1, len(toks) - 3):
        t, be, verb = toks[k], toks[k + 1], toks[k + 2]
        if t.low not in ("who", "that", "which") or not t.text.islower() or be.low not in ("was", "were") \
                or not is_ing_verb(verb.low) or verb.low in ("being", "going"):
            continue
        if not any(_is_past_verb(toks, i) for i in range(k)):
            refusal = refusal or Refusal("not_past_narrative")  # "The man who was standing there is my father"
        elif not _reducible(toks, k):
            refusal = refusal or Refusal("head_unfit")
        elif _goes_on(toks[k + 3:]):
            refusal = refusal or Refusal("second_verb")
        elif re.search(r"\b(and|or|but) (who|which|that)\b", text, re.IGNORECASE):
            refusal = refusal or Refusal("joined_relatives")
        else:
            return splice(text, [(t.start, verb.start, "")])
    return refusal


def rule_relative(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    return first_rewrite(rewrite(text, toks) for rewrite in (
        _swap_relative, _reduce_relative, _reduce_passive, _reduce_past_progressive))


MARKER_RULES: dict[str, Rule] = {"that": rule_that, "relative": rule_relative}
