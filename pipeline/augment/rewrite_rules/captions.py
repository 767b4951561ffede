"""Rewrites for picture captions: a caption's action said in the other aspect, or in the passive and back. What each
rule does, its guards and its cases (golden and refused): `cases/captions.json`.

`caption_aspect` takes a short descriptive sentence (at most `_MAX_CAPTION` tokens, ending in "." or nothing, no
comma) whose subject is one `_aspect_subject` accepts: its determiner of `CAPTION_DETERMINERS`, its noun of
`CAPTION_SUBJECTS` or a collective noun of `COLLECTIVES` + "of" + a plural noun. The verb must follow the subject at
exactly one place. A collective noun in the singular keeps the number its verb has (both read naturally), but those
of `PLURAL_COLLECTIVES` are plural only. The verbs of `NOT_CAPTION_VERBS` (states and habits) are never changed,
nor a generic statement (`_episodic`). Forms come from lemminflect; a verb whose lemmas give different forms is
refused.

`caption_passive` takes the verbs of `CAPTION_VERBS` (agentive actions on a thing or a being: no states,
perception, light verbs, idioms, nor verbs whose object is a path or a goal), "play" only with an instrument of
`INSTRUMENTS`, and an object that `_caption_np` and `_tail_phrases` accept. "is"/"are" agree with the object
(`_object_number`; a bare singular only for a mass noun of `CAPTION_MASS_NOUNS`); participles come from lemminflect
or `CAPTION_PARTICIPLES`; the subject goes after "by" as `passive_by` writes an object (`agents.as_object`).
`caption_active` takes the same verbs and objects the other way; the agent takes everything after it along as the
new subject, as a phrase there may describe the agent.
"""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.rewrite_rules.agents import (
    as_object, noun_phrase_word, other_form, phrase_number, plain_noun_phrase, the_one_by, verb_lemma,
)
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _final_punct, _is_form, _is_word, _lemmas, _lower_first_word, inflect,
    is_ing_verb, is_noun, splice, verb_lemmas, verb_only,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    AFTER_PARTICIPLE, AFTER_VERB, APPEARANCE_NOUNS, AUXILIARY_WORDS, BARE_PLACES, BODY_PARTS, CAPTION_DETERMINERS,
    CAPTION_MASS_NOUNS, CAPTION_OBJECT_DETERMINERS, CAPTION_PARTICIPLES, CAPTION_PLURAL_DETERMINERS, CAPTION_SUBJECTS,
    CAPTION_VERB_PARTICLES, CAPTION_VERBS, COLLECTIVES, COLOURS, GARMENTS, INSTRUMENTS, INVARIANT_PLURALS,
    IRREGULAR_PLURAL_SUBJECTS, MODIFIER_DETS, NOT_CAPTION_VERBS, NOT_CAPTION_WORDS, OBJECT_PLURAL_DETERMINERS,
    OBJECT_SINGULAR_DETERMINERS, OBJECT_TO_SUBJECT_PRONOUN, PARTICLES, PLAY_NEXT, PLURAL_COLLECTIVES, REFUSED_PUNCT,
    SCOPE_WORDS, SUBJECT_MODIFIERS, SUBJECT_TO_OBJECT_PRONOUN, TAIL_PREPOSITIONS, WITH_VERBS,
)

# -- caption_aspect -------------------------------------------------------------------------------------------------
_MAX_CAPTION = 16


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


def _aspect_subject(toks: list[Tok]) -> tuple[int, bool, bool] | None:
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
            if is_ing_verb(word):
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


def _to_simple(text: str, toks: list[Tok], v: int, end: int, plural: bool, bare: bool) -> str | Refusal | None:
    """The progressive at token v said in the simple present (`caption_aspect`'s golden cases)."""
    aux = toks[v]
    if (aux.low == "are") != plural or v + 2 >= end or not aux.text.islower():
        # agreement; a complement is needed ("A man drinks." would be a habit)
        return Refusal("agreement_or_no_complement")
    if bare:
        # "Kids dance on stage.": a bare plural subject in the simple present is generic
        return Refusal("bare_plural_subject")
    verb = toks[v + 1]
    if not is_ing_verb(verb.low):
        return None
    if any(lemma in NOT_CAPTION_VERBS for lemma in verb_lemmas(verb.low)):
        return Refusal("stative_verb")
    if toks[v + 2].low == "to":
        return Refusal("infinitive_after")  # "is trying to": the infinitive
    if _second_verb_after_and(toks[v + 2:end], plural):
        return Refusal("second_verb")  # "is peeling and cutting a potato": both verbs would need to change
    if not _episodic(toks[v + 2:end]):
        return Refusal("generic_statement")  # "A bear fights wolves.": a generic statement
    if verb.low == "playing" and toks[v + 2].low not in PLAY_NEXT:
        return Refusal("skill_or_habit")  # "A woman plays violin", "plays the guitar": a skill or habit
    new = other_form(verb.low, "VBP" if plural else "VBZ", "VBG")
    if new is None:
        return Refusal("no_inflection")
    return splice(text, [(aux.start, verb.end, new)])


def _to_progressive(text: str, toks: list[Tok], v: int, end: int, plural: bool) -> str | Refusal | None:
    """The simple present at token v said in the progressive (`caption_aspect`'s golden cases)."""
    verb = toks[v]
    if not verb.text.islower() or verb.low.endswith("ing"):
        return None
    if plural and not (_is_form(verb.low, "VBP") and not verb.low.endswith("s")) or not plural and not (
            verb.low.endswith("s") and _is_form(verb.low, "VBZ")):
        return Refusal("agreement")
    if any(lemma in NOT_CAPTION_VERBS for lemma in verb_lemmas(verb.low)):
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
    new = other_form(verb.low, "VBG", "VBP" if plural else "VBZ")
    if new is None:
        return Refusal("no_inflection")
    return splice(text, [(verb.start, verb.end, ("are " if plural else "is ") + new)])


def rule_caption_aspect(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = _final_punct(toks)
    if end <= 2 or end > _MAX_CAPTION or not toks[0].text[:1].isupper():
        return None
    if any(t.low in NOT_CAPTION_WORDS or t.low.endswith("n't") or not (_is_word(t) or t.text in (",", "-"))
           for t in toks[:end]) or "," in text:
        return Refusal("not_a_caption")
    found = _aspect_subject(toks)
    if found is None:
        return None
    v, plural, bare = found
    if toks[v].low in ("is", "are"):
        return _to_simple(text, toks, v, end, plural, bare)
    return _to_progressive(text, toks, v, end, plural)


# -- caption_passive, caption_active ---------------------------------------------------------------------------------


def _caption_lemma(word: str, tag: str) -> str | None:
    """The lemma of `CAPTION_VERBS` whose `tag` form ("VBG", "VBN", "VBZ") `word` is, or None."""
    return verb_lemma(word, tag, CAPTION_VERBS)


def _caption_participle(lemma: str) -> str | None:
    return CAPTION_PARTICIPLES.get(lemma) or inflect(lemma, "VBN")


def _plain_word(t: Tok) -> bool:
    """A lower-case noun, adjective or number that may be part of a short caption noun phrase."""
    return t.text.islower() and noun_phrase_word(t) and t.low not in TAIL_PREPOSITIONS and t.low not in PARTICLES \
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
    "someone", a name as it is), or None when it is refused (a quantifier of `SCOPE_WORDS`, a pronoun, a bare
    singular, no plain noun phrase)."""
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
    if not plain_noun_phrase(toks, 0, aux, subject=True):
        return None
    return as_object(text, toks, 0, aux, plural_aux=toks[aux].low == "are")  # toks[aux]: "is", "are" or the verb


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
    refused (the module's docstring and `caption_passive`'s cases)."""
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
    by = the_one_by(toks, 0)
    if "being" not in low or by is None or not _caption_clean(toks, end) and not (
            _caption_clean(toks[:by] + toks[by + 1:], end - 1)):
        return None
    aux = low.index("being") - 1
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
            or not plain_noun_phrase(toks, by + 1, end, subject=True):
        return Refusal("agent_unfit")
    head_end = next((k for k in range(by + 2, end) if low[k] in TAIL_PREPOSITIONS), end)
    number = "sg" if head_end == by + 2 and low[by + 1] in ("someone", "somebody") \
        else phrase_number(toks, by + 1, head_end)
    ing = inflect(lemma, "VBG")
    obj = _lower_first_word(text[first.start:toks[aux - 1].end])
    if number is None or ing is None or obj is None and not (first.text[1:].islower() and is_noun(first.low)):
        return Refusal("no_inflection")
    obj = obj or first.text.lower() + text[first.end:toks[aux - 1].end]
    agent = text[toks[by + 1].start:toks[end - 1].end]
    mid = " " + text[toks[aux + 3].start:toks[by - 1].end] if by > aux + 3 else ""
    return (agent[:1].upper() + agent[1:] + (" is " if number == "sg" else " are ") + ing + " " + obj + mid
            + text[toks[end - 1].end:])


CAPTION_RULES: dict[str, Rule] = {"caption_aspect": rule_caption_aspect, "caption_passive": rule_caption_passive,
                                  "caption_active": rule_caption_active}
