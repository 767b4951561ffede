"""Words and fixed phrases said another way: closed-class words, fixed phrases and quantities whose equivalence
holds whatever the sense of the words around them, each replacement guarded so that it holds in its context. What
each rule does, its guards and its cases (golden and refused): `cases/phrases.json`. A phrase replaced at the start
of a sentence keeps its capital.

`equivalent` makes one edit, at the first place where a phrase of the table `EQUIVALENTS` matches and its guard (a
function of the tokens around it) allows it; its guards say in their docstrings what they refuse. Outside the table:
"the majority of" -> "most of"/"most" (`_majority`), and "okay" <-> "OK", every one of the sentence so that it keeps
one spelling (`_okay`). A phrase that may be part of a title or a name, or a quoted word (cited, not used), stays.
`percent` changes every number + percent of the sentence, so that it keeps one style. `a_lot` makes one edit; the
way back of its "all the" -> "all of the" is `equivalent`'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bsl_pipeline.pipeline.augment.rewrite_rules.syntax import is_finite_verb
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _case_like, _is_form, _is_lower_word, _is_word, _lemmas, is_noun, is_verb_form,
    mostly_capitals, prev_token, splice, token_at, verb_lemmas,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    ALL_THE_FIXED, A_AMOUNTS, BE_CONTRACTED, BE_FORMS, CLAUSE_BREAK, COUNT_WORDS, DETERMINERS, FINITE_BE,
    HEDGES_BEFORE_DUE, IRREGULAR_PLURALS, LINKING_CONJUNCTIONS, MAGNITUDES, MASS_LIKE, MEASURES, MOTION_VERBS,
    NEARLY_NEXT, NOT_BEFORE_MANY, NOT_BEFORE_MORE, NOUN_PHRASE_STARTS, NUMBER_PREPOSITIONS, NUMBER_WORDS, OFF_VERBS,
    OPENING_QUOTES, ORDERING_VERBS, ORDINALS, QUANTITY_VERBS, QUESTION_VERBS, REFLEXIVES, SELECTS_ABOUT,
    SENTENCE_OPENERS, SUCH_AS_NOT_BEFORE, TIME_UNITS, TO_VERBS, UPON_NOT_AFTER,
)

# -- numbers ----------------------------------------------------------------------------------------------------------


def _number_at(toks: list[Tok], k: int, allow_one: bool = True) -> bool:
    """Whether a number starts at token k: digits ("5", "1.5", "$5"), a number word ("two", "dozens"), "half",
    or "a dozen"/"a third"/...; "one"/"1" only with `allow_one` (or "1" before a magnitude, "1.5")."""
    if k < len(toks) and toks[k].text in ("$", "£", "€"):
        k += 1
    if k >= len(toks):
        return False
    t = toks[k]
    nxt = toks[k + 1].low if k + 1 < len(toks) else ""
    if t.text[:1].isdigit():
        return allow_one or t.text != "1" or nxt in MAGNITUDES or nxt in ("%", "percent")
    if t.low in ("one", "a", "an") and not allow_one and nxt not in A_AMOUNTS:
        return False
    return t.low in COUNT_WORDS or t.low == "half" or (t.low in ("a", "one") and nxt in A_AMOUNTS) or (
        t.low == "one" and allow_one)


def _is_noun_only(word: str) -> bool:
    lemmas = _lemmas(word)
    return "NOUN" in lemmas and not ({"VERB", "ADV"} & set(lemmas))


# -- guards of the `equivalent` table: (tokens, first index, end index) -> whether the replacement holds there ---
Guard = Callable[[list[Tok], int, int], bool]


def _free(toks: list[Tok], i: int, j: int) -> bool:
    return True


def _no_one_pronoun(toks: list[Tok], i: int, j: int) -> bool:
    nxt = token_at(toks, j)
    if nxt is None or not _is_word(nxt):
        return True
    if nxt.low in ("of", "one"):
        return False  # "no one of them" is "not a single one"
    return is_stopword(nxt.text) or nxt.low == "else" or (is_verb_form(nxt.low) and not _is_noun_only(nxt.low)) \
        or _is_form(nxt.low, "VBD")


def _not_after_determiner(toks: list[Tok], i: int, j: int) -> bool:
    prev = prev_token(toks, i)
    return prev is None or prev.low not in DETERMINERS | {"no", "every", "each", "any", "big", "mere", "another"}


def _clause_opening(toks: list[Tok], i: int, j: int) -> bool:
    prev, nxt = prev_token(toks, i), token_at(toks, j)
    return (prev is None or prev.text in CLAUSE_BREAK or prev.low in ("and", "but", "or", "so")) and \
        nxt is not None and _is_word(nxt)


def _followed_by_word(toks: list[Tok], i: int, j: int) -> bool:
    nxt = token_at(toks, j)
    return nxt is not None and _is_word(nxt)


def _in_order_to(toks: list[Tok], i: int, j: int) -> bool:
    nxt = token_at(toks, j)
    if nxt is None or not _is_lower_word(nxt) or not _is_form(nxt.low, "VB"):
        return False
    prev = prev_token(toks, i)
    if prev is not None and prev.low in ("not", "just", "only", "all", "mainly", "partly", "so", "as"):
        return False  # "not in order to ... but": the contrast keeps its phrase
    return not any(set(verb_lemmas(t.low)) & ORDERING_VERBS for t in toks[:i])  # "put X in order to ..."


def _whether_or_not(toks: list[Tok], i: int, j: int) -> bool:
    prev, nxt = prev_token(toks, i), token_at(toks, j)
    if prev is None or nxt is None or not _is_word(nxt):
        return False
    return prev.low in QUESTION_VERBS | {"about", "on", "of", "over", "to", "decide", "decides", "deciding",
                                         "determine", "determining", "consider", "considering", "uncertain",
                                         "matter", "debate", "debating", "question", "wondering", "asks",
                                         "knowing", "sure", "see", "assess", "assessing", "evaluate", "judge"}


def _a_lot_of(toks: list[Tok], i: int, j: int) -> bool:
    prev = prev_token(toks, i)
    return _followed_by_word(toks, i, j) and (prev is None or prev.low not in ("what", "quite", "such", "not",
                                                                               "this", "that", "awful", "whole"))


def _lots_of(toks: list[Tok], i: int, j: int) -> bool:
    prev = prev_token(toks, i)
    if not _followed_by_word(toks, i, j):
        return False
    if prev is None or prev.text in CLAUSE_BREAK:
        return True
    if prev.low in DETERMINERS or prev.low in COUNT_WORDS or prev.low.endswith("ing") and "NOUN" in _lemmas(
            prev.low):
        return False  # "two lots of", "parking lots of"
    if prev.low in ("and", "or") and i >= 2 and toks[i - 2].low == "lots":
        return False  # "lots and lots of": a fixed phrase
    return (is_stopword(prev.text) or any(_is_form(prev.low, tag) for tag in ("VB", "VBD", "VBZ", "VBP"))) \
        and prev.low not in ("what", "such", "quite", "not")


def _reciprocal(toks: list[Tok], i: int, j: int) -> bool:
    nxt = token_at(toks, j)
    if nxt is None or not _is_word(nxt) or is_stopword(nxt.text):
        return True
    return not ("NOUN" in _lemmas(nxt.low) or "ADJ" in _lemmas(nxt.low) or nxt.text[:1].isupper())


def _though_opening(toks: list[Tok], i: int, j: int) -> bool:
    prev, nxt = prev_token(toks, i), token_at(toks, j)
    if nxt is None or not _is_word(nxt):
        return False  # ", though." / ", though, ...": the adverb
    return prev is None or prev.text in (",", ";")


def _numerous(toks: list[Tok], i: int, j: int) -> bool:
    nxt, prev = token_at(toks, j), prev_token(toks, i)
    if prev is not None and prev.low in ("more", "most", "less", "so", "too", "very", "as", "how"):
        return False  # "more numerous": the adjective compared
    return nxt is not None and _is_lower_word(nxt) and not is_stopword(nxt.text) and "NOUN" in _lemmas(nxt.low)


def _more_than(toks: list[Tok], i: int, j: int) -> bool:
    if not _number_at(toks, j, allow_one=False):
        return False
    prev = prev_token(toks, i)
    if prev is None:
        return True
    if prev.low in NOT_BEFORE_MORE or prev.low in ("a", "bit", "lot"):
        return False
    return not set(verb_lemmas(prev.low)) & MOTION_VERBS


def _about_number(toks: list[Tok], i: int, j: int) -> bool:
    """about/around/approximately/roughly before a number, where the preposition cannot be the previous word's."""
    if not _number_at(toks, j):
        return False
    prev = prev_token(toks, i)
    if prev is None or prev.text in (",", "(", ";", ":", "-", "—"):
        return True
    if prev.low in BE_FORMS:
        k = j + (1 if toks[j].text in ("$", "£", "€") else 0) + 1
        after = token_at(toks, k)
        # a measure, or the number ends the phrase: "is about 5 km", "He is about 30."
        return after is None or after.low in MEASURES or after.text in (".", ",", ";", "%") or (
            toks[k - 1].text in A_AMOUNTS | COUNT_WORDS and after.low in MEASURES)
    if prev.low in NUMBER_PREPOSITIONS or prev.low in ("just", "only", "by", "of", "some", "at", "for", "has", "have",
                                                 "had", "with", "and", "or", "was", "than", "now", "still"):
        return True
    lemmas = set(verb_lemmas(prev.low))
    if not lemmas or lemmas & SELECTS_ABOUT:
        return False
    return bool(lemmas & QUANTITY_VERBS)


def _before_np(toks: list[Tok], i: int, j: int) -> bool:
    """A preposition before its noun phrase: a determiner or pronoun follows, no determiner precedes."""
    nxt, prev = token_at(toks, j), prev_token(toks, i)
    if nxt is None or nxt.low not in NOUN_PHRASE_STARTS or nxt.low in ("no", "every", "that", "this"):
        return False
    if toks[i].low == "beside" and j + 1 < len(toks) and toks[j + 1].low in ("point", "fact", "question"):
        return False  # "beside the point"; "beside the fact that" means "besides"
    if toks[i].low == "off" and prev is not None and set(verb_lemmas(prev.low)) & OFF_VERBS:
        return False  # "kick off of a machine" -> "kick off a machine": a phrasal verb
    return prev is None or prev.low not in DETERMINERS | {"the", "come", "came", "comes", "coming"}


def _before_determiner(toks: list[Tok], i: int, j: int) -> bool:
    """all/half/both of + a determiner, not after "or"/"and"; "half" not as a noun."""
    nxt, prev = token_at(toks, j), prev_token(toks, i)
    if nxt is None or nxt.low not in ("the", "his", "her", "their", "its", "my", "your", "our", "these", "those"):
        return False
    if prev is None or prev.text in CLAUSE_BREAK:
        return True
    if prev.low in ("or", "and", "nor", "one", "not") or prev.low in DETERMINERS | ORDINALS:
        return False
    return toks[i].low != "half" or is_stopword(prev.text) or is_verb_form(prev.low) or _is_form(prev.low, "VBP")


def _okay(text: str, toks: list[Tok]) -> str | None:
    """Every "okay" -> "OK", or every "OK" -> "okay"; None with both spellings or a state code after a name."""
    okays = [k for k, t in enumerate(toks) if t.low in ("ok", "okay")]
    spellings = {toks[k].low for k in okays}
    if len(spellings) != 1 or any(toks[k].text not in ("OK", "ok", "Ok", "okay", "Okay") for k in okays):
        return None
    edits = []
    for k in okays:
        t = toks[k]
        if t.low == "okay":
            edits.append((t.start, t.end, "OK"))
            continue
        if k >= 2 and toks[k - 1].text == "," and toks[k - 2].text[:1].isupper():
            return None
        opening = k == 0 or toks[k - 1].text in SENTENCE_OPENERS
        edits.append((t.start, t.end, "Okay" if opening else "okay"))
    return splice(text, edits)


def _nearly(toks: list[Tok], i: int, j: int) -> bool:
    prev = prev_token(toks, i)
    if prev is not None and prev.low in ("not", "very", "so", "too", "quite"):
        return False
    nxt = token_at(toks, j)
    return nxt is not None and (nxt.low in NEARLY_NEXT or _number_at(toks, j, allow_one=False))


def _marker_opening(toks: list[Tok], i: int, j: int) -> bool:
    """A discourse marker opening a sentence or clause: at the start, after punctuation or and/but/or/so."""
    prev, nxt = prev_token(toks, i), token_at(toks, j)
    return (prev is None or prev.text in CLAUSE_BREAK | SENTENCE_OPENERS or prev.low in LINKING_CONJUNCTIONS) and \
        nxt is not None and (_is_word(nxt) or nxt.text == "," or nxt.text[:1].isdigit())


def _plural_noun(word: str) -> bool:
    nouns = _lemmas(word).get("NOUN", ())
    return bool(nouns) and (word not in nouns or word in ("people", "police", "cattle")) and not is_stopword(word)


def _before_plural(toks: list[Tok], i: int, j: int) -> bool:
    """A quantity phrase before a plural noun, or an adjective and a plural noun; not after such/what/quite."""
    prev = prev_token(toks, i)
    if prev is not None and prev.low in ("such", "what", "quite", "rather"):
        return False
    k = j
    if k + 1 < len(toks) and _is_lower_word(toks[k]) and "ADJ" in _lemmas(toks[k].low) \
            and not _plural_noun(toks[k].low) and not is_stopword(toks[k].text):
        k += 1
    return k < len(toks) and _is_lower_word(toks[k]) and _plural_noun(toks[k].low)


def _so_as_to(toks: list[Tok], i: int, j: int) -> bool:
    """"so as to" + a base verb, not after a verb that takes a to-infinitive of its own."""
    nxt, prev = token_at(toks, j), prev_token(toks, i)
    if prev is not None and set(verb_lemmas(prev.low)) & TO_VERBS:
        return False
    return nxt is not None and _is_lower_word(nxt) and _is_form(nxt.low, "VB") and nxt.low != "not"


def _before_number(toks: list[Tok], i: int, j: int) -> bool:
    """"in excess of" + a number, after a verb."""
    prev = prev_token(toks, i)
    return _number_at(toks, j, allow_one=False) and prev is not None and _is_lower_word(prev) and (
        prev.low in BE_FORMS or any(_is_form(prev.low, tag) for tag in ("VBD", "VBZ", "VBP", "VB", "VBN")))


def _such_as(toks: list[Tok], i: int, j: int) -> bool:
    """"such as" + examples: not before what `SUCH_AS_NOT_BEFORE` holds, after be, nor with a "like" already."""
    nxt, prev = token_at(toks, j), prev_token(toks, i)
    if nxt is None or not (_is_word(nxt) or nxt.text[:1].isdigit() or nxt.text in ("\"", "“", "$")):
        return False  # "questions such as, did Tripp ...?"
    if nxt.low in SUCH_AS_NOT_BEFORE or prev is None or prev.low in BE_FORMS | {"as", "like"}:
        return False
    return not any(t.low in ("like", "likes", "liked") for t in toks)  # "just like the wages ... like baby sitters"


def _upon(toks: list[Tok], i: int, j: int) -> bool:
    """"upon" as "on": not after a verb whose "upon" differs, be, a repetition, nor before a reflexive."""
    prev, nxt = prev_token(toks, i), token_at(toks, j)
    if nxt is None or not (_is_word(nxt) or nxt.text[:1].isdigit()) or nxt.low in REFLEXIVES:
        return False
    if prev is None or prev.text in CLAUSE_BREAK:
        return True
    if prev.low in UPON_NOT_AFTER or prev.low in BE_FORMS or prev.low == nxt.low or prev.low.rstrip("s") == nxt.low:
        return False
    return not (set(verb_lemmas(prev.low)) & {"come", "hit", "set", "look", "stumble", "chance", "happen"})


def _till(toks: list[Tok], i: int, j: int) -> bool:
    """"till" as a conjunction or preposition, not a noun or a verb."""
    prev, nxt = prev_token(toks, i), token_at(toks, j)
    if toks[i].text != "till" or nxt is None or not (_is_word(nxt) or nxt.text[:1].isdigit()):
        return False
    return prev is not None and prev.low not in DETERMINERS | {"to", "cash", "the", "a", "will", "would", "can",
                                                                "could", "and", "or"}


def _kind_of(toks: list[Tok], i: int, j: int) -> bool:
    """"kind of" <-> "sort of": not before a pronoun, "kind of" not after a/one/another/an ordinal/new."""
    prev, nxt = prev_token(toks, i), token_at(toks, j)
    if nxt is None or not (_is_word(nxt) or nxt.text in ("\"", "“")):
        return False
    if nxt.low in ("you", "him", "her", "them", "us", "me", "it"):
        return False  # "that's kind of you"
    if toks[i].low == "kind" and prev is not None and prev.low in ORDINALS | {"a", "an", "one", "another", "each",
                                                                             "every", "new"}:
        return False  # "a kind of tree": a gloss's genus; "a sort of tree" would hedge
    return True


def _be_unable(toks: list[Tok], i: int, j: int) -> bool:
    """"unable to" <-> "not able to": only after a finite be, or "as if"."""
    prev, nxt = prev_token(toks, i), token_at(toks, j)
    if nxt is None or not _is_lower_word(nxt) or not _is_form(nxt.low, "VB"):
        return False
    return prev is not None and (prev.low in FINITE_BE or prev.low in BE_CONTRACTED
                                 or prev.low == "if" and toks[i].low == "unable")


def _due_to(toks: list[Tok], i: int, j: int) -> bool:
    """"due to" that gives the cause of an event: after a verb, a comma or an adverb, not before a verb."""
    prev, nxt = prev_token(toks, i), token_at(toks, j)
    if nxt is None or not (_is_word(nxt) or nxt.text[:1].isdigit()) or nxt.low in ("or", "and"):
        return False
    if _is_lower_word(nxt) and _is_form(nxt.low, "VB") and not is_noun(nxt.low):
        return False
    if prev is None or prev.text in (",", ";", "(", "-", "—"):
        return True
    if prev.low in HEDGES_BEFORE_DUE:
        return True
    if prev.low in BE_FORMS or is_stopword(prev.text) or not _is_lower_word(prev):
        return False
    return any(_is_form(prev.low, tag) for tag in ("VBD", "VBN")) and "ADJ" not in _lemmas(prev.low)


def _nowadays(toks: list[Tok], i: int, j: int) -> bool:
    prev, nxt = prev_token(toks, i), token_at(toks, j)
    if prev is not None and (prev.low in DETERMINERS | {"some", "the", "of", "in"} or prev.low in NUMBER_PREPOSITIONS):
        return False  # "in some nowadays languages", "in these days of"
    if toks[i].low == "these" and nxt is not None and nxt.low == "of":
        return False  # "these days of googling"
    return True


def _lately(toks: list[Tok], i: int, j: int) -> bool:
    """"lately" -> "recently", not after be."""
    prev = prev_token(toks, i)
    return prev is None or prev.low not in BE_FORMS


def _not_after_be(toks: list[Tok], i: int, j: int) -> bool:
    """Not after be."""
    prev = prev_token(toks, i)
    return _followed_by_word(toks, i, j) and (prev is None or prev.low not in BE_FORMS)


def _with_respect_to(toks: list[Tok], i: int, j: int) -> bool:
    """"With respect to X, ..." opening the sentence only: inside it often means "relative to"."""
    return i == 0 and _followed_by_word(toks, i, j)


# The table: guard -> the phrases it guards ("a <-> b" both ways, "a -> b" one way), matched on lower-case
# tokens. At the first place in the sentence where a phrase matches, the first phrase there (in the order of the
# table) whose guard allows it is applied.
EQUIVALENTS: dict[Guard, tuple[str, ...]] = {
    _free: ("everyone <-> everybody", "someone <-> somebody", "anyone <-> anybody", "toward <-> towards",
            "each other's <-> one another's", "amongst -> among", "whilst -> while", "okay -> OK", "ok -> okay",
            "for example <-> for instance", "nevertheless <-> nonetheless", "a little bit -> a bit",
            "on a daily basis -> daily", "on a regular basis -> regularly", "in the near future -> soon",
            "right away -> immediately"),
    _no_one_pronoun: ("no one -> nobody",),
    _not_after_determiner: ("nobody -> no one", "maybe -> perhaps"),
    _clause_opening: ("perhaps -> maybe",),
    _before_determiner: ("all of -> all", "half of -> half", "both of -> both"),
    _followed_by_word: ("in spite of <-> despite", "prior to -> before", "although -> though",
                        "all of a sudden -> suddenly", "in the event that -> if", "with regard to -> regarding",
                        "in regard to -> regarding", "as a result of -> because of", "subsequent to -> after",
                        "instead of -> rather than"),
    _in_order_to: ("in order to -> to",),
    _whether_or_not: ("whether or not -> whether",),
    _a_lot_of: ("a lot of -> lots of",),
    _lots_of: ("lots of -> a lot of",),
    _reciprocal: ("each other <-> one another",),
    _though_opening: ("though -> although",),
    _numerous: ("numerous -> many",),
    _more_than: ("more than -> over", "fewer than -> under", "less than -> under"),
    _about_number: ("about <-> around", "approximately -> about", "roughly -> about"),
    _nearly: ("nearly <-> almost",),
    _before_np: ("next to <-> beside", "outside of -> outside", "inside of -> inside", "off of -> off"),
    _marker_opening: ("moreover <-> furthermore", "in addition, <-> additionally,", "similarly, <-> likewise,",
                      "in the meantime, -> meanwhile,", "as a result, -> consequently,", "currently, <-> at present,"),
    _nowadays: ("nowadays <-> these days",),
    _lately: ("lately -> recently",),
    _before_plural: ("a variety of -> various", "a large number of -> many", "a small number of -> a few"),
    _with_respect_to: ("with respect to -> regarding",),
    _not_after_be: ("due to the fact that -> because",),
    _due_to: ("due to -> because of",),
    _before_number: ("in excess of -> more than",),
    _upon: ("upon -> on",),
    _till: ("till -> until",),
    _so_as_to: ("so as to -> to",),
    _such_as: ("such as -> like",),
    _kind_of: ("kind of <-> sort of",),
    _be_unable: ("unable to <-> not able to",),
}


def _by_first_word(table: dict[Guard, tuple[str, ...]]) -> dict[str, list[tuple[list[str], str, Guard]]]:
    """first word -> (the phrase's words, its replacement, its guard), in the order of the table."""
    out: dict[str, list[tuple[list[str], str, Guard]]] = {}
    for guard, pairs in table.items():
        for pair in pairs:
            first, arrow, second = re.split(r" (<?->) ", pair)
            for phrase, new in [(first, second), (second, first)][:2 if arrow == "<->" else 1]:
                words = phrase.replace(",", " ,").split()
                out.setdefault(words[0], []).append((words, new, guard))
    return out


_BY_FIRST = _by_first_word(EQUIVALENTS)


def _majority(text: str, toks: list[Tok], i: int) -> str | None:
    """"the majority of" at token i -> "most of" (before a determiner or pronoun) or "most" (before a bare plural)."""
    if [t.low for t in toks[i:i + 3]] != ["the", "majority", "of"] or i + 3 >= len(toks):
        return None
    nxt = toks[i + 3]
    if nxt.low in DETERMINERS | {"them", "us", "you", "these", "those", "its", "whom", "which"} - {"a", "an"} \
            and not _number_at(toks, i + 3):
        new = "most of"
    elif _is_lower_word(nxt) and nxt.low.endswith("s") and "NOUN" in _lemmas(nxt.low) and not is_stopword(nxt.text):
        if i + 4 < len(toks) and toks[i + 4].low in ("was", "is", "has", "does"):
            return None  # "The majority of invoices was created" -> "Most invoices was": the verb agrees with it
        new = "most"
    else:
        return None
    return splice(text, [(toks[i].start, toks[i + 2].end, _case_like(toks[i].text, new))])


def _title_or_name(toks: list[Tok], i: int, j: int) -> bool:
    """Whether the phrase toks[i:j] may be (part of) a title or a name: a word in capitals ("ABOUT"), a capital
    inside the sentence ("... watched Everybody Loves Raymond") or inside the phrase, or at the start before a
    capitalised function word or verb ("Everybody Loves Raymond is ...")."""
    t, after = toks[i], token_at(toks, j)
    if any(x.text.isupper() and len(x.text) > 1 for x in toks[i:j]) \
            or any(x.text[:1].isupper() for x in toks[i + 1:j]):
        return True
    if t.text[:1].isupper() and not (i == 0 or toks[i - 1].text in SENTENCE_OPENERS):
        return True
    return t.text[:1].isupper() and after is not None and after.text[:1].isupper() and after.text != "I" and (
        is_stopword(after.text) or is_verb_form(after.low))


def rule_equivalent(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    refusal = None  # the first guard that refused, returned when no place is rewritten
    for i, t in enumerate(toks):
        if t.low == "the" and i + 1 < len(toks) and toks[i + 1].low == "majority":
            prev = prev_token(toks, i)
            if prev is not None and prev.low in ("vast", "overwhelming"):
                refusal = refusal or Refusal("vast_or_overwhelming")
                continue
            new = _majority(text, toks, i)
            if new is not None:
                return new
            continue
        for words, new, guard in _BY_FIRST.get(t.low, ()):
            j = i + len(words)
            if [x.low for x in toks[i:j]] != words:
                continue
            if t.low in ("ok", "okay"):
                okay = _okay(text, toks)
                if okay is not None:
                    return okay
                refusal = refusal or Refusal("okay_spellings")  # both spellings, or "Tulsa, OK": a state code
                break
            if _title_or_name(toks, i, j):
                refusal = refusal or Refusal("title_or_name")
            elif i > 0 and toks[i - 1].text in OPENING_QUOTES and toks[i - 1].end == t.start:
                refusal = refusal or Refusal("quoted_word")  # '"nobody" cared': a quoted word is cited, not used
            elif not guard(toks, i, j):
                refusal = refusal or Refusal("context_unfit")  # the table's guard of the phrase
            else:
                return splice(text, [(t.start, toks[j - 1].end, _case_like(t.text, new))])
    return refusal


# -- percent --------------------------------------------------------------------------------------------------------
def rule_percent(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    signs, words = [], []  # (number index, end index of the percent sign/word)
    for k, t in enumerate(toks[:-1]):
        nxt = toks[k + 1]
        if not t.text[:1].isdigit():
            if (t.low in NUMBER_WORDS or t.low in COUNT_WORDS) and nxt.low in ("percent", "%", "per"):
                return None
            continue
        if nxt.text == "%":
            signs.append((k, k + 1))
        elif nxt.low == "percent" and nxt.start == t.end + 1:
            words.append((k, k + 1))
        elif nxt.low == "per" and k + 2 < len(toks) and toks[k + 2].low == "cent" and nxt.start == t.end + 1:
            words.append((k, k + 2))
    if signs and words or not (signs or words):
        return None
    if signs:
        lettered = [w for w in toks if _is_word(w) and not is_stopword(w.text)]
        if len(lettered) >= 3 and sum(w.text[:1].isupper() for w in lettered) / len(lettered) >= 0.6:
            return Refusal("title_case_headline")  # a title-case headline: "Shares Rise 5% On ..."
        return splice(text, [(toks[k].end, toks[e].end, " percent") for k, e in signs])
    return splice(text, [(toks[k].end, toks[e].end, "%") for k, e in words])


# -- a_lot ----------------------------------------------------------------------------------------------------------


def _countable_plural(tok: Tok) -> bool:
    """A lower-case plural count noun that is no span of time ("people", "cars"; not "years", "data")."""
    if not _is_lower_word(tok) or tok.low in MASS_LIKE or tok.low in TIME_UNITS or \
            tok.low.rstrip("s") in TIME_UNITS or tok.low in ("years", "centuries", "hours", "minutes", "days",
                                                              "times", "generations"):
        return False
    if tok.low in IRREGULAR_PLURALS:
        return True
    lemmas = _lemmas(tok.low).get("NOUN", ())
    return bool(lemmas) and tok.low not in lemmas and tok.low.endswith("s") and "ADV" not in _lemmas(tok.low)


def _plural_np_at(toks: list[Tok], k: int) -> bool:
    """A plural noun at token k, or after one or two lower-case modifiers ("many young people")."""
    for m in range(k, min(k + 3, len(toks))):
        t = toks[m]
        if _countable_plural(t):
            nxt = toks[m + 1] if m + 1 < len(toks) else None
            return nxt is None or not (_is_lower_word(nxt) and is_noun(nxt.low) and not is_finite_verb(nxt)
                                       and not is_stopword(nxt.text))
        if not _is_lower_word(t) or is_stopword(t.text) or t.low in MASS_LIKE:
            return False
    return False


def rule_a_lot(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if mostly_capitals(toks):
        return Refusal("mostly_capitals")
    for i, t in enumerate(toks[:-1]):
        prev = toks[i - 1] if i > 0 else None
        nxt = toks[i + 1]
        opening = prev is None or prev.text in ("\"", "“", "(", ":", ";", "-", "—")
        if t.low == "many" and (t.text == "many" or t.text == "Many" and opening):
            if prev is not None and (prev.low in NOT_BEFORE_MANY or prev.low in ("of", "'s", "’s")
                                     or prev.low.endswith(("'s", "’s"))):
                continue  # "the essence of a lot of delights" reads badly; "New York's many agencies"
            if nxt.low == "of":
                after = toks[i + 2] if i + 2 < len(toks) else None
                if after is None or after.low in ("whom", "which", "whose") or not _is_word(after):
                    continue
                return splice(text, [(t.start, t.end, _case_like(t.text, "a lot"))])
            if _plural_np_at(toks, i + 1):
                return splice(text, [(t.start, t.end, _case_like(t.text, "a lot of"))])
            continue
        if t.low == "a" and [x.low for x in toks[i:i + 3]] == ["a", "lot", "of"] and i + 3 < len(toks):
            if prev is not None and prev.low in ("what", "quite", "such", "not", "this", "that", "whole", "awful",
                                                 "is", "was", "'s", "’s", "there's", "there’s"):
                continue  # "there's a lot of places" -> "there's many places": agreement
            if not (t.text == "a" or t.text == "A" and opening) or toks[i + 1].text != "lot":
                continue
            if _plural_np_at(toks, i + 3) and toks[i + 3].low not in DETERMINERS:
                return splice(text, [(t.start, toks[i + 2].end, _case_like(t.text, "many"))])
            continue
        if t.low == "all" and nxt.text == "the" and i + 2 < len(toks):
            after = toks[i + 2]
            if not (t.text == "all" or t.text == "All" and opening) or not _is_lower_word(after):
                continue
            if after.low in ALL_THE_FIXED or after.low in TIME_UNITS or after.low in ("day", "night", "year"):
                continue
            if "ADJ" in _lemmas(after.low) and after.low not in _lemmas(after.low)["ADJ"]:
                continue  # "all the harder": a comparative
            if not _plural_np_at(toks, i + 2):
                continue  # "all the worm did was ...": only a plural noun phrase
            if prev is not None and (prev.low in ("of", "at", "for", "by", "above", "after") or
                                     prev.low in ("it", "them", "us", "you", "him", "her", "this", "that")):
                continue
            return splice(text, [(t.end, t.end, " of")])
    return None


PHRASE_RULES: dict[str, Rule] = {"equivalent": rule_equivalent, "percent": rule_percent, "a_lot": rule_a_lot}
