"""Rewrites of noun phrases and objects: a possessive said with "of", a phrasal verb's particle moved, a recipient
said with "to", "not any" said with "no". The rules are `OBJECT_RULES`; each makes one edit, at the first place
where it applies. The "of" form of a possessive reads naturally only for places, organisations and things, so its
possessor must be in `PLACES`, `THE_PLACES` or `THING_POSSESSORS` (or a name with a head of finance or place).
What each rule does, its guards and its golden and refused cases are in `cases/objects.json` (the views guide's
table is made from them); the comment at each guard says why it refuses.
"""

from __future__ import annotations

from collections.abc import Iterator

from bsl_pipeline.pipeline.augment.rewrite_rules.chunker import Chunks, chunk, is_content
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _case_like, _is_form, _is_lower_word, _is_word, _lemmas, inflect, is_ing_verb,
    is_noun, splice, verb_lemmas,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    AMBIGUOUS_HEADS, AUXILIARIES, BAD_HEADS, BE_NEGATIVE, BE_NOT_POSITIVE, BOUNDARY_PUNCT, COORDINATORS, DATIVE_VERBS,
    DETERMINERS, DEVICES, DIRECTION_PREPOSITIONS, DO_FORM_TAGS, FINANCE_HEADS, LIGHT_THEMES, MASS_NOUNS, NOT_OF_HEADS,
    NO_ANY_VERBS, NO_IDIOMS, OBJECT_BOUNDARY_PREPOSITIONS, OBJECT_ONLY_PRONOUNS, OF_GOVERNORS, OF_HEADS, PARTICLES,
    PAST_NOUNS, PERSONAL_SUBJECTS, PERSON_TITLES, PHRASAL_VERBS, PLACES, PLACE_HEADS, PLACE_OBJECTS, POSSESSIVE_DETS,
    PRONOUNS_AND_INDEFINITES, RECIPIENTS, SUPERLATIVE_WORDS, TELL_THEMES, THE_PLACES, THING_POSSESSORS, TION_HEADS_OK,
    WH_WORDS,
)

# -- shared ---------------------------------------------------------------------------------------------------------


def _sentence_start(toks: list[Tok], i: int) -> bool:
    return i == 0 or toks[i - 1].text in ("\"", "“", "(", ":")


# -- possessive -----------------------------------------------------------------------------------------------------


def _ambiguous_head(word: str) -> bool:
    return word in AMBIGUOUS_HEADS or word.endswith(("tion", "sion")) and word not in TION_HEADS_OK


def _is_superlative(word: str) -> bool:
    if word in SUPERLATIVE_WORDS:
        return True
    adj = _lemmas(word).get("ADJ", ())
    return word.endswith("est") and any(a != word for a in adj)


def _head_end(toks: list[Tok], j: int, max_words: int = 3) -> int | None:
    """End index of the noun phrase that starts at token j (one to `max_words` lower-case content words ending in a
    noun, no superlative) when a clear boundary follows it; the shortest such phrase."""
    for n in range(1, max_words + 1):
        words = toks[j:j + n]
        if len(words) < n or not all(is_content(t) for t in words):
            return None
        if any(_is_superlative(t.low) for t in words) or words[0].low in BAD_HEADS:
            return None
        last = words[-1]
        if last.low in BAD_HEADS or _ambiguous_head(last.low) or not is_noun(last.low) or is_ing_verb(last.low):
            continue
        k = j + n
        if k < len(toks) and _is_plural(last.low) and is_noun(toks[k].low) and _is_form(toks[k].low, "VBP") \
                and toks[k].low not in PAST_NOUNS:
            return None  # "China's leaders work": a verb, or "the firm's sales force": a compound
        if _boundary_after_noun(toks, k):
            return k
    return None


def _boundary_after_noun(toks: list[Tok], k: int) -> bool:
    """Whether token k closes a noun phrase clearly: punctuation, the end, an auxiliary or a past-tense verb, or a
    present-tense verb that is no noun ("says")."""
    if k >= len(toks):
        return True
    t = toks[k]
    if t.text in BOUNDARY_PUNCT:
        return t.text != "." or k == len(toks) - 1 or toks[k + 1].start > t.end
    if not _is_lower_word(t):
        return False
    if t.low in AUXILIARIES - {"be", "been"}:
        return True
    if _is_form(t.low, "VBD") and (not is_noun(t.low) or t.low in PAST_NOUNS):
        return True
    return _is_form(t.low, "VBZ") and not is_noun(t.low)


def _name_before(toks: list[Tok], k: int) -> int | None:
    """Start index of the capitalised name that ends at token k-1 (every capitalised word before "'s"), skipping a
    capitalised function word that opens the sentence ("In China's ...")."""
    i = k
    while i > 0 and toks[i - 1].text[:1].isupper() and _is_word(toks[i - 1]):
        i -= 1
    if i == k:
        return None
    if _sentence_start(toks, i) and (is_stopword(toks[i].text) or toks[i].low in DETERMINERS) and i < k - 1:
        i += 1
    return i


def _name(toks: list[Tok], i: int, k: int) -> str:
    return " ".join(t.text for t in toks[i:k])


def rule_possessive(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if any(t.low.endswith("'s") and t.text[:1].isupper() and k + 1 < len(toks)
           and (not toks[k + 1].text[:1].isalnum() or toks[k + 1].low in COORDINATORS | OBJECT_BOUNDARY_PREPOSITIONS)
           for k, t in enumerate(toks)):
        # "The troupe of Kyoto performs in December and Osaka's in May": an elliptic possessive
        return Refusal("elliptical_possessive")
    for k, t in enumerate(toks):
        if not (t.low.endswith("'s") and len(t.text) > 2) or k + 1 >= len(toks):
            continue
        owner = t.text[:-2]
        if not owner[:1].isalpha():
            continue
        # the possessor: tokens i..k (the last one is the "'s" word)
        head_end = _head_end(toks, k + 1)
        if head_end is None:
            continue
        i = _possessor_start(toks, k, owner, head_end)
        if i is None:
            continue
        prev = toks[i - 1] if i > 0 else None
        if prev is not None and (prev.low.endswith("'s") or prev.low in ("a", "an", "one", "of") or prev.text == "'"):
            continue  # "53 percent of the world's rubber" -> "of the rubber of the world": one "of" on another
        possessor = text[toks[i].start:t.end - 2]
        head = text[toks[k + 1].start:toks[head_end - 1].end]
        first = "the"
        if _sentence_start(toks, i):
            first = "The"
            if possessor.startswith("The "):
                possessor = "the" + possessor[3:]
        return splice(text, [(toks[i].start, toks[head_end - 1].end, f"{first} {head} of {possessor}")])
    return _of_to_possessive(text, toks)


def _possessor_start(toks: list[Tok], k: int, owner: str, head_end: int) -> int | None:
    """Where the possessor of the "'s" word toks[k] (`owner` without its "'s") starts, when it is one the "of"
    form suits; None otherwise."""
    if not owner[:1].isupper():
        if owner.lower() not in THING_POSSESSORS:
            return None
        j = k
        while j > 0 and is_content(toks[j - 1]) and k - j < 1 and is_noun(toks[j - 1].low):
            j -= 1
        return j - 1 if j > 0 and toks[j - 1].low == "the" else None
    parts = toks[:k] + [Tok(owner, toks[k].start, toks[k].end - 2)]
    start = _name_before(parts, k + 1)
    name = _name(parts, start, k + 1)
    before = parts[start - 1] if start > 0 else None
    heads = {w.low for w in toks[k + 1:head_end]}
    if before is not None and before.low == "the":
        if name in THE_PLACES or name.isupper() and len(name) > 1 or name.split()[-1].lower() in THING_POSSESSORS:
            return start - 1
        return None
    if before is not None and (before.low in POSSESSIVE_DETS or before.low in ("own", "one", "'s")):
        return None
    if name in PLACES and name not in THE_PLACES:
        return start
    if not name.isupper() and name.lower() not in PRONOUNS_AND_INDEFINITES \
            and name.split()[0].rstrip(".") not in PERSON_TITLES \
            and (" " not in name and heads <= FINANCE_HEADS or toks[head_end - 1].low in PLACE_HEADS):
        return start
    return None


def _of_to_possessive(text: str, toks: list[Tok]) -> str | None:
    for o, t in enumerate(toks):
        if t.text != "of" or o < 2:
            continue
        # the place after "of": the longest run of capitalised words that is a place
        run = o + 1
        while run < len(toks) and toks[run].text[:1].isupper() and _is_word(toks[run]):
            run += 1
        name = _name(toks, o + 1, run)
        if name not in PLACES or name in THE_PLACES or name.endswith("s") or run == o + 1:
            continue
        if run < len(toks) and not _boundary_after_noun(toks, run):
            continue  # "the mines of Kuala Lumpur in the State of Selangor, of ...": the place may go on
        if run < len(toks) and (toks[run].low.endswith("'s") or toks[run].text in ("'", "-")):
            continue
        # "the" + one to three lower-case words before "of"
        the = None
        for n in range(1, 4):
            if o - n - 1 < 0:
                break
            if not is_content(toks[o - n]):
                break
            if toks[o - n - 1].low == "the":
                the = o - n - 1
                break
        if the is None:
            continue
        words = toks[the + 1:o]
        last = words[-1]
        if last.low not in OF_HEADS or words[0].low in NOT_OF_HEADS:
            continue
        if run < len(toks) and toks[run].text == "," and run + 1 < len(toks) and toks[run + 1].low in ("of", "and"):
            continue  # "the mines of Kuala Lumpur, of Sungai Ujong and of Larut"
        if any(_is_superlative(w.low) or is_ing_verb(w.low) and not is_noun(w.low) for w in words):
            continue
        prev = toks[the - 1] if the > 0 else None
        if prev is not None and (prev.low in OF_GOVERNORS or prev.low == "of" and the > 1
                                 and toks[the - 2].low in OF_GOVERNORS):
            continue
        head = text[words[0].start:last.end]
        owner = name + "'s"
        if _sentence_start(toks, the):
            owner = owner[:1].upper() + owner[1:]
        return splice(text, [(toks[the].start, toks[run - 1].end, f"{owner} {head}")])
    return None


# -- particle -------------------------------------------------------------------------------------------------------
def _verb_lemma(word: str) -> str | None:
    """The verb lemma of `word` that has phrasal uses in `PHRASAL_VERBS`, or None."""
    for lemma in verb_lemmas(word):
        if lemma in PHRASAL_VERBS:
            return lemma
    return None


def _noun_ends(toks: list[Tok], j: int) -> Iterator[tuple[int, list[Tok]]]:
    """After the determiner at token j: (n, its n words) for n = 1, 2 where the n words are content words ending in
    a noun that is no -ing form; none from the first n whose words are not all content words."""
    for n in (1, 2):
        words = toks[j + 1:j + 1 + n]
        if len(words) < n or not all(is_content(w) for w in words):
            return
        if is_noun(words[-1].low) and not _is_form(words[-1].low, "VBG"):
            yield n, words


def _short_object(toks: list[Tok], j: int, bare: bool = False) -> int | None:
    """End index of a short object starting at token j: a determiner or possessive + one or two lower-case words
    ending in a noun, the second no verb form ("a purse reaches up" is no object "a purse reaches"), no place
    noun; with `bare`, also a plural noun alone ("cuts up vegetables")."""
    if j >= len(toks):
        return None
    if bare and is_content(toks[j]) and _is_plural(toks[j].low) and toks[j].low not in PLACE_OBJECTS:
        nxt = toks[j + 1] if j + 1 < len(toks) else None
        return j + 1 if nxt is None or not is_content(nxt) else None
    if toks[j].low not in POSSESSIVE_DETS or toks[j].text[:1].isupper() and j > 0:
        return None
    for n, words in _noun_ends(toks, j):
        last = words[-1]
        if n == 1 and _is_adj_only(last.low):
            continue
        if "ADV" in _lemmas(last.low) or last.low in PARTICLES:
            continue  # "threw her right out": "her" is the object, "right" an adverb
        if n == 2 and is_noun(words[0].low) and "ADJ" not in _lemmas(words[0].low) \
                and any(_is_form(last.low, tag) for tag in ("VBZ", "VBD", "VBN")):
            return None
        if any(w.low in PLACE_OBJECTS for w in words):
            return None
        nxt = toks[j + 1 + n] if j + 1 + n < len(toks) else None
        if nxt is not None and is_content(nxt) and is_noun(nxt.low):
            continue  # "the tennis ball": the object goes on
        return j + 1 + n
    return None


def _is_plural(word: str) -> bool:
    nouns = _lemmas(word).get("NOUN", ())
    return bool(nouns) and word.endswith("s") and all(n != word for n in nouns) and "ADJ" not in _lemmas(word)


def _is_adj_only(word: str) -> bool:
    return "ADJ" in _lemmas(word) and "NOUN" not in _lemmas(word)


def _clause_goes_on_clearly(toks: list[Tok], k: int) -> bool:
    """Whether token k may follow a moved part: the end, punctuation, a conjunction or a preposition (not "of")."""
    if k >= len(toks):
        return True
    t = toks[k]
    if t.text in BOUNDARY_PUNCT:
        return True
    return t.low in COORDINATORS | OBJECT_BOUNDARY_PREPOSITIONS and t.low not in ("of",) and t.text.islower()


def rule_particle(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    refused = None
    for i, t in enumerate(toks[:-2]):
        if not _is_lower_word(t):
            continue
        lemma = _verb_lemma(t.low)
        if lemma is None or is_noun(t.low) and i > 0 and (toks[i - 1].low in DETERMINERS | {"both", "all", "no"}
                                                           or _is_adj_only(toks[i - 1].low)):
            continue  # "the set up", "with both hands over her head"
        nxt = toks[i + 1]
        if nxt.low in PHRASAL_VERBS[lemma] and nxt.text.islower():
            # verb + particle + object -> verb + object + particle
            end = _short_object(toks, i + 2, bare=True)
            if end is None:
                continue
            if not _clause_goes_on_clearly(toks, end) or end < len(toks) and toks[end].low == "to":
                refused = refused or Refusal("object_goes_on")  # "took away his ability to become ...": the "to"
                continue  # belongs to the object
            if lemma in ("turn", "switch") and toks[end - 1].low not in DEVICES:
                refused = refused or Refusal("no_device")  # "turned on his friend"
                continue
            if end < len(toks) and (toks[end].low in PARTICLES or end - i > 4 and _is_word(toks[end])):
                # "taking away a defence mechanism for the cat": a longer object keeps its particle first
                refused = refused or Refusal("longer_object")
                continue
            obj = text[toks[i + 2].start:toks[end - 1].end]
            return splice(text, [(nxt.start, toks[end - 1].end, f"{obj} {nxt.text}")])
        end = _short_object(toks, i + 1)
        if end is None or end >= len(toks):
            continue
        particle = toks[end]
        if particle.low not in PHRASAL_VERBS[lemma] or not particle.text.islower():
            continue
        after = end + 1
        if after < len(toks) and (_is_word(toks[after]) and not _clause_goes_on_clearly(toks, after)
                                  or toks[after].low in DETERMINERS | DIRECTION_PREPOSITIONS):
            # "took the book off the shelf": a preposition; "taking a canoe down to the lake": a direction
            refused = refused or Refusal("preposition_or_direction")
            continue
        if lemma in ("turn", "switch") and toks[end - 1].low not in DEVICES:
            refused = refused or Refusal("no_device")
            continue
        obj = text[toks[i + 1].start:toks[end - 1].end]
        return splice(text, [(toks[i + 1].start, particle.end, f"{particle.text} {obj}")])
    return refused


# -- dative ---------------------------------------------------------------------------------------------------------


def _dative_theme(toks: list[Tok], j: int) -> int | None:
    """End index of a theme at token j: a determiner + one or two lower-case words ending in a noun, not a light
    verb's noun, then a boundary other than "of", "to", "that" or a relative word."""
    if j >= len(toks) or toks[j].low not in POSSESSIVE_DETS or not toks[j].text.islower():
        return None
    for n, words in _noun_ends(toks, j):
        if any(w.low in LIGHT_THEMES for w in words):
            return None
        k = j + 1 + n
        if k < len(toks) and is_content(toks[k]) and is_noun(toks[k].low):
            continue
        new_clause = k + 1 < len(toks) and toks[k].low in COORDINATORS and toks[k + 1].low in PERSONAL_SUBJECTS
        if k < len(toks) and not (toks[k].text in BOUNDARY_PUNCT - {","} or toks[k].low in ("but", "so", "then")
                                  or toks[k].low in OBJECT_BOUNDARY_PREPOSITIONS - {"to", "for"} or new_clause):
            return None  # "giving him a toy or bottle of some sort": the theme may go on
        return k
    return None


def rule_dative(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    refused = None
    for i, t in enumerate(toks[:-3]):
        if not _is_lower_word(t):
            continue
        verbs = set(verb_lemmas(t.low)) & DATIVE_VERBS
        if not verbs or i > 0 and toks[i - 1].low in DETERMINERS | {"to"} and t.low in ("hand", "show", "pass"):
            continue  # "the hand", "the show"
        if i > 0 and toks[i - 1].low in ("a", "an", "the"):
            continue
        found = _dative_edit(text, toks, i)
        if not isinstance(found, tuple):
            refused = refused or found
        elif verbs.pop() == "tell" and toks[found[0] - 1].low not in TELL_THEMES:
            refused = refused or Refusal("tell_without_story")  # "told him the plan to ..."
        else:
            return splice(text, [found[1]])
    return refused


def _dative_edit(text: str, toks: list[Tok], i: int) -> tuple[int, tuple[int, int, str]] | Refusal | None:
    """(the end of the theme, the edit) that says the objects after the verb at token i the other way: a recipient
    pronoun, name or a determiner's person or animal and a theme -> the theme "to" the recipient; a theme "to" an
    object pronoun -> the pronoun and the theme."""
    rec = toks[i + 1]
    if rec.low in OBJECT_ONLY_PRONOUNS and rec.text.islower() or rec.text[:1].isupper() and rec.text.isalpha() \
            and not is_stopword(rec.text) and rec.low not in PRONOUNS_AND_INDEFINITES:
        end = _dative_theme(toks, i + 2)
        if end is None:
            return None
        if rec.low == "her" and toks[i + 2].low not in ("a", "an", "the", "some"):
            return Refusal("her_may_be_possessive")  # "gave her his book"
        theme = text[toks[i + 2].start:toks[end - 1].end]
        return end, (rec.start, toks[end - 1].end, f"{theme} to {rec.text}")
    if rec.low in ("a", "an", "the", "his", "her", "their", "my", "your", "our") and rec.text.islower() \
            and i + 2 < len(toks) and toks[i + 2].low in RECIPIENTS:
        end = _dative_theme(toks, i + 3)
        if end is None:
            return None
        theme = text[toks[i + 3].start:toks[end - 1].end]
        return end, (rec.start, toks[end - 1].end, f"{theme} to {text[rec.start:toks[i + 2].end]}")
    end = _dative_theme_before_to(toks, i + 1)
    if end is None:
        return None
    rec = toks[end + 1]
    return end, (toks[i + 1].start, rec.end, f"{rec.text} {text[toks[i + 1].start:toks[end - 1].end]}")


def _dative_theme_before_to(toks: list[Tok], j: int) -> int | None:
    """End index of a theme at token j that "to" + an object pronoun and a boundary follow ("a letter to them.")."""
    if j >= len(toks) or toks[j].low not in POSSESSIVE_DETS or not toks[j].text.islower():
        return None
    for n in (1, 2):
        k = j + 1 + n
        words = toks[j + 1:k]
        if k + 1 >= len(toks) or len(words) < n or not all(is_content(w) for w in words):
            return None
        if toks[k].low != "to":
            continue
        if not is_noun(words[-1].low) or any(w.low in LIGHT_THEMES for w in words):
            return None
        rec = toks[k + 1]
        if rec.low not in OBJECT_ONLY_PRONOUNS or not rec.text.islower():
            return None
        if k + 2 < len(toks) and not (toks[k + 2].text in BOUNDARY_PUNCT or toks[k + 2].low in COORDINATORS):
            return None  # "the letter to her sister": a possessive
        return k
    return None


# -- no_any ---------------------------------------------------------------------------------------------------------


def _no_any_noun(chunks: Chunks, k: int, to_any: bool) -> bool:
    """Whether token k is a noun (phrase start) that "any"/"no" may quantify: an adjective or noun, the phrase ending
    in a plural or (for "not any") any noun, or a mass noun; no idiom."""
    toks = chunks.toks
    j = chunks.content_end(k, 3)
    if j == k:
        return False
    words = [t.low for t in toks[k:j]]
    if words[0] in NO_IDIOMS or any(w in NO_IDIOMS for w in words):
        return False
    nouns = [w for w in words if is_noun(w)]
    if not nouns:
        return False
    if not to_any:
        return True
    return any(_is_plural(w) or w in MASS_NOUNS for w in words)


def rule_no_any(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if "?" in text:
        return Refusal("question")
    chunks = chunk(text, toks)
    for i, t in enumerate(toks[:-2]):
        prev = toks[i - 1] if i > 0 else None
        nxt = toks[i + 1]
        # there + be + n't/not + any -> there + be + no
        if prev is not None and prev.low == "there":
            if t.low in BE_NOT_POSITIVE and nxt.low == "any" and _no_any_noun(chunks, i + 2, False):
                be = t.text[:-3]
                return splice(text, [(t.start, nxt.end, f"{be} no")])
            if t.low in BE_NEGATIVE and nxt.low == "not" and toks[i + 2].low == "any" \
                    and _no_any_noun(chunks, i + 3, False):
                return splice(text, [(nxt.start, toks[i + 2].end, "no")])
            if t.low in BE_NEGATIVE and t.text.islower() and nxt.low == "no" and _no_any_noun(chunks, i + 2, True):
                return splice(text, [(t.start, nxt.end, f"{BE_NEGATIVE[t.low]} any")])
        if prev is None or prev.low in WH_WORDS or not _is_word(prev) or prev.low in AUXILIARIES | {"to"}:
            continue
        # do + n't/not + verb + any -> verb inflected + no
        do = t.low[:-3] if t.low.endswith("n't") else t.low
        negated = t.low.endswith("n't") or i + 1 < len(toks) and nxt.low == "not"
        if do in DO_FORM_TAGS and negated:
            v = i + 1 if t.low.endswith("n't") else i + 2
            if v + 2 < len(toks) and toks[v].low in NO_ANY_VERBS and toks[v + 1].low == "any" \
                    and _no_any_noun(chunks, v + 2, False):
                form = inflect(toks[v].low, DO_FORM_TAGS[do])
                if form is None or toks[v].low == "see" and do != "did":
                    continue
                return splice(text, [(t.start, toks[v + 1].end, f"{_case_like(t.text, form)} no")])
        # has/have/had + no -> doesn't/don't/didn't have any (have only: "makes no sense" keeps its "no")
        if t.low in ("has", "have", "had") and t.text.islower() and nxt.low == "no" \
                and _no_any_noun(chunks, i + 2, True) and prev.low not in ("who", "which", "that"):
            if t.low == "have" and prev.low not in PERSONAL_SUBJECTS - {"it"}:
                continue  # "we have no" but not "they will have no", "the rules have no"
            if i + 2 < len(toks) and is_participle_like(toks[i + 2].low):
                continue  # "has no doubt been": an auxiliary
            aux = {"has": "doesn't", "have": "don't", "had": "didn't"}[t.low]
            return splice(text, [(t.start, nxt.end, f"{aux} have any")])
    return None


def is_participle_like(word: str) -> bool:
    return _is_form(word, "VBN") and not is_noun(word)


OBJECT_RULES: dict[str, Rule] = {
    "possessive": rule_possessive, "particle": rule_particle, "dative": rule_dative, "no_any": rule_no_any,
}
