"""Function words and fixed phrases said another way: closed-class words and fixed phrases whose equivalence holds
whatever the sense of the words around them, each replacement guarded so that it holds in its context. The rules
(names as in `PHRASE_RULES`); each makes one edit, at the first place where it applies, unless said otherwise:

* `equivalent`: a word or fixed phrase -> its equivalent, from the table `EQUIVALENTS` (each entry: phrase,
  replacement, guard): everyone <-> everybody, someone <-> somebody, anyone <-> anybody, no one <-> nobody,
  maybe <-> perhaps, toward <-> towards, in spite of <-> despite, prior to -> before, in order to -> to, whether or
  not -> whether, a lot of <-> lots of, each other <-> one another, although <-> though, amongst -> among,
  whilst -> while, the majority of -> most of, numerous -> many, more than -> over, fewer/less than -> under,
  about/around/approximately/roughly <-> about/around, nearly <-> almost, next to <-> beside, outside/inside/off
  of -> outside/inside/off, all/half/both of the -> all/half/both the, okay <-> OK (every one of the sentence, so
  that it keeps one spelling) ("Someone is slicing an onion." -> "Somebody is slicing an onion."). Guards, each
  with the case it refuses: a capitalised phrase inside the sentence, or at its start before a capitalised verb or
  function word, may be a title ("watched Everybody Loves Raymond", "Everybody Loves Raymond is on"); "no one" only
  as a pronoun ("no one answer"), "nobody" not as a noun ("a nobody"), "maybe" not as a noun ("a maybe");
  "perhaps" -> "maybe" only opening a clause ("it is
  perhaps the best" -> "maybe the best" reads badly); "in order to" not after put/set/get/keep/arrange... ("put the
  files in order to ..." is no purpose); "whether or not" only as an indirect question, after know/ask/decide/
  about/on... ("Whether or not you like it, ..." needs its "or not"); "a lot of" not after what/quite/such/not
  ("what lots of ..."), "lots of" only after a function word or a verb ("parking lots of"), not in "lots and
  lots of"; "each other"/"one
  another" not before a noun ("each other day"); "though" -> "although" only opening a clause, at the start or
  after a comma, and not "even though"/"as though" nor the adverb (", though," / ", though."); "numerous" only
  before its noun ("were numerous" -> "were many"); "the majority of" -> "most of" before a determiner or pronoun,
  -> "most" before a bare plural (not when a singular verb follows it: "The majority of invoices was created"),
  not after "vast"; more than / fewer than / less than only before a number
  (digits, number words, "half", "a third"...), not after no/not/much/far/little/any/nothing ("no more than 5"),
  not "one" ("more than one person" -> "over one person"), not after a verb of motion or extent where "over"/
  "under" would read as a place ("jumped more than 2 metres", "spread over 5 years"); about/around/approximately/
  roughly only before a number and only where the preposition cannot belong to the word before: at the start,
  after a comma, a preposition or a verb of quantity (cost, take, weigh, kill, rise...), after be only before a
  measure ("The film is about 3 sisters" is a topic, "He is about 30." or "is about 5 km" is no topic); nearly
  <-> almost only before a number, all, every..., half, twice, always, and not after "not" ("not nearly as");
  next to/beside/outside of... only before a determiner or pronoun and not after one ("next to nothing", "the next
  to go"), not "beside the point"/"beside the fact" (= "besides"), "off of" not after a phrasal verb ("kick off
  of a machine"); all/half/both of only before a determiner, not after "or"/"and" ("one or both of the boys"),
  "half" not as a noun ("the second half of the book"); "OK" not after a name and a comma ("Tulsa, OK"), and no
  sentence with both spellings; a word in quotation marks is cited, not used: it stays ('"nobody" cared').
  Discourse markers: for example <-> for instance, nevertheless <-> nonetheless, and, opening a sentence or clause
  (at the start, after punctuation or and/but/or/so), moreover <-> furthermore, "in addition," <-> "additionally,",
  "similarly," <-> "likewise,", "in the meantime," -> "meanwhile,", "as a result," -> "consequently,",
  "currently," <-> "at present," (with their comma only: "in addition to" is no marker; "meanwhile," ->
  "in the meantime," is not made, news uses it for "at the same time"). Adverbs and fixed phrases: all of a sudden
  -> suddenly, nowadays <-> these days (not after a determiner or preposition: "in some nowadays languages", "in
  these days of googling"), lately -> recently (not after be: "was lately up 18 points" is the latest reading), a
  little bit -> a bit, right away -> immediately, in the near future -> soon, on a daily/regular basis ->
  daily/regularly. Wordy phrases: a variety of -> various, a large number of -> many, a small number of -> a few,
  only before a plural noun or an adjective and a plural noun ("a variety of food" -> "various food"), not after
  such/what/quite ("such a variety of costumes"); in the event that -> if; with regard to / in regard to ->
  regarding, "with respect to" only opening the sentence (inside it often means "relative to": "defined with
  respect to the orientation"); as a result of -> because of; due to the fact that -> because, not after be ("may
  be due to the fact that" -> "may be because"); due to -> because of only after a verb, a comma or an adverb
  ("evacuated due to bomb threat", "largely due to"), not after a noun ("income due to taxation": owed to), after be
  or before a verb ("is due to arrive": scheduled), nor before or/and; subsequent to -> after; in excess of ->
  more than only before a number and after a verb ("cost in excess of $5"; "damage in excess of $5" -> "damage
  more than $5" needs its "of"); so as to -> to before a base verb (not "so as not to"), not after a verb with a
  to-infinitive of its own ("arrange so as to be parallel" -> "arrange to be parallel"); instead of -> rather than.
  upon -> on: not "once upon a time", not after come/hit/set/look/stumble/chance/happen ("come upon" = find),
  "close upon five" (= nearly), a repetition ("row upon row"), after be ("upon us"), nor before a reflexive ("took
  it upon himself"); till -> until only lower-case and not a noun or verb ("the till", "to till the soil"); such
  as -> like before an example (not "such as, did ...", "such as this/that" (a manner), "such as to", "such as
  whether", after be, nor in a sentence with "like" already: "just like the wages ... like baby sitters"); kind of
  <-> sort of, not before a pronoun ("kind of you") and "kind of" not after a/one/another/an ordinal/new ("a kind
  of tree": a gloss's genus, where "a sort of tree" would hedge); unable to <-> not able to only after a finite be
  ("was unable to" -> "was not able to"; "to be unable to" -> "to be not able to" reads badly) or "as if".
* `percent`: a number + "percent"/"per cent" <-> + "%" ("rose 28 percent" -> "rose 28%", "28%" -> "28 percent"),
  every such place of the sentence, so that it keeps one style; refused where both styles occur, after a number
  word ("five percent"), and "%" -> "percent" in a title-case headline ("Rises 5 Percent").
* `to_ing`: start/begin/continue + "to" + a base verb <-> + its -ing form ("began to cry" <-> "began crying"),
  forms from lemminflect; never try/stop/remember/forget/regret (the meaning changes) nor like/love/hate/prefer
  ("would like to go" is no "would like going"). Guards: not after an -ing trigger ("starting to cry" ->
  "starting crying"); not with a stative verb (know, understand, see, be, seem, look, ... "began to see" -> "began
  seeing" is dating); not when a second verb is joined by and/or ("began to sing and dance" -> "began singing and
  dance"); not an adverb between "to" and the verb; the trigger must be a verb, not a noun or adjective ("amid
  continued fighting", "a fresh start"); "begin" not after a negation or "even" ("couldn't even begin to
  identify").
* `between`: the two conjuncts after "between" change places ("the difference between cats and dogs" -> "the
  difference between dogs and cats"), each a name, a determiner + one or two nouns, or one or two nouns.
  Refused: numbers, dates, times and ordinals (ranges: "between 1 and 4", "between Monday and Friday"); pronouns
  ("between you and me"); fixed pairs ("right and wrong", "husband and wife", "a rock and a hard place"); a
  determiner on one conjunct only ("between the neck and upper arm": it is shared); a one-word
  first conjunct before a longer second one ("between cat and dog owners" may share "owners"); a conjunct with
  "of", a possessive, an -ing word or an adjective at its end; a second conjunct that goes on, or that a verb
  follows unless the "between" phrase hangs on a noun ("fell between the rocks and the dog ran": two clauses);
  after a word of direction ("the transition between winter and spring").
* `how_can`: a how-to question "How do I/we + verb ...?" <-> "How can I/we + verb ...?" ("How do I remove a
  stripped screw?" -> "How can I remove a stripped screw?"); "do" -> "can" not with verbs whose question is no
  how-to (feel, look, seem, know, compare, be, ...: "How do I look?"), "can" -> "do" only with verbs of doing
  (get, make, find, fix, remove, ...), never rhetorical ("How can I ever thank you?", "How can I be so stupid?").
* `a_lot`: "many" <-> "a lot of" before a plural noun ("many people" -> "a lot of people", "many of them" ->
  "a lot of them"), and "all the" -> "all of the" before a plural noun (the way back is the `equivalent` rule's).
  Refused: "so/too/how/as/very/the/his/New York's... many", "a great many", "many a", "many of whom/which",
  "many more", "many thousands", time spans ("many years ago" -> "a lot of years ago" reads badly), "many
  thanks", and after "of" ("the essence of a lot of delights" reads badly); "a lot of" -> "many" only before a
  plural count noun ("a lot of money", "a lot of the time" stay), not after what/quite/such/not, nor after
  "is"/"'s" ("there's a lot of places" -> "there's many places"); "all the" not in fixed phrases ("all the same",
  "all the way", "all the more", "all the time", a comparative), not before a singular ("all the worm did was
  ..." -> "all of the worm did"), not after "of"/"at"/"for" ("of all the people"), a pronoun ("ate it all the
  next day": a floating "all") or before a capitalised title ("All the Pretty Horses").

A phrase replaced at the start of a sentence keeps the capital ("Maybe" -> "Perhaps").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bsl_pipeline.pipeline.augment.rewrite_rules.syntax import is_finite_verb
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _case_like, _is_form, _is_lower_word, _is_word, _lemmas, is_ing_verb, is_noun,
    is_verb_form, mostly_capitals, prev_token, splice, token_at,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    ALL_THE_FIXED, AUXILIARIES, A_AMOUNTS, BE_CONTRACTED, BE_FORMS, BINOMIAL_PAIRS, BOUNDARY_WORDS, CLAUSE_BREAK,
    COUNT_WORDS, DEFINITE_AND_POSSESSIVE_DETERMINERS, DETERMINERS, DIRECTIONAL, DOING_VERBS, FINITE_BE,
    HEDGES_BEFORE_DUE, IRREGULAR_PLURALS, LINKING_CONJUNCTIONS, MAGNITUDES, MASS_LIKE, MEASURES, MOTION_VERBS,
    NEARLY_NEXT, NOT_BEFORE_MANY, NOT_BEFORE_MORE, NOT_HOW_TO, NOUN_PHRASE_STARTS, NUMBER_PREPOSITIONS, NUMBER_WORDS,
    OFF_VERBS, OPENING_QUOTES, ORDERING_VERBS, ORDINALS, PREPOSITION_WORDS, QUANTITY_VERBS, QUESTION_VERBS, REFLEXIVES,
    SELECTS_ABOUT, SENTENCE_OPENERS, START_VERB_FORMS, STATIVE_VERBS, SUCH_AS_NOT_BEFORE, TIME_OF_DAY_AND_YEAR_WORDS,
    TIME_UNITS, TO_VERBS, UPON_NOT_AFTER,
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


def _verb_lemmas(word: str) -> tuple[str, ...]:
    return _lemmas(word).get("VERB", ())


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
    prev = prev_token(toks, i)
    nxt = token_at(toks, j)
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
    return not any(set(_verb_lemmas(t.low)) & ORDERING_VERBS for t in toks[:i])  # "put X in order to ..."


def _whether_or_not(toks: list[Tok], i: int, j: int) -> bool:
    prev = prev_token(toks, i)
    nxt = token_at(toks, j)
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
    prev = prev_token(toks, i)
    nxt = token_at(toks, j)
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
    return not set(_verb_lemmas(prev.low)) & MOTION_VERBS


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
    lemmas = set(_verb_lemmas(prev.low))
    if not lemmas or lemmas & SELECTS_ABOUT:
        return False
    return bool(lemmas & QUANTITY_VERBS)


def _before_np(toks: list[Tok], i: int, j: int) -> bool:
    """A preposition before its noun phrase: a determiner or pronoun follows, no determiner precedes ("the next to
    go", "next to nothing", "beside the point", "beside himself")."""
    nxt, prev = token_at(toks, j), prev_token(toks, i)
    if nxt is None or nxt.low not in NOUN_PHRASE_STARTS or nxt.low in ("no", "every", "that", "this"):
        return False
    if toks[i].low == "beside" and j + 1 < len(toks) and toks[j + 1].low in ("point", "fact", "question"):
        return False  # "beside the point"; "beside the fact that" means "besides"
    if toks[i].low == "off" and prev is not None and set(_verb_lemmas(prev.low)) & OFF_VERBS:
        return False  # "kick off of a machine" -> "kick off a machine": a phrasal verb
    return prev is None or prev.low not in DETERMINERS | {"the", "come", "came", "comes", "coming"}


def _before_determiner(toks: list[Tok], i: int, j: int) -> bool:
    """all/half/both of + a determiner: not after "or"/"and" ("one or both of the boys"), "half" not as a noun
    ("the second half of the book")."""
    nxt, prev = token_at(toks, j), prev_token(toks, i)
    if nxt is None or nxt.low not in ("the", "his", "her", "their", "its", "my", "your", "our", "these", "those"):
        return False
    if prev is None or prev.text in CLAUSE_BREAK:
        return True
    if prev.low in ("or", "and", "nor", "one", "not") or prev.low in DETERMINERS | ORDINALS:
        return False
    return toks[i].low != "half" or is_stopword(prev.text) or is_verb_form(prev.low) or _is_form(prev.low, "VBP")


def _okay(text: str, toks: list[Tok]) -> str | None:
    """Every "okay" -> "OK", or every "OK" -> "okay"; refused with both spellings, and for an "OK" after a name
    and a comma ("Tulsa, OK": a state code)."""
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
    """A quantity phrase before a plural noun, or an adjective and a plural noun ("a variety of shapes" -> "various
    shapes"; "a variety of food" -> "various food" and "a variety of both" are refused); not after such/what/quite
    ("such a variety of costumes")."""
    prev = prev_token(toks, i)
    if prev is not None and prev.low in ("such", "what", "quite", "rather"):
        return False
    k = j
    if k + 1 < len(toks) and _is_lower_word(toks[k]) and "ADJ" in _lemmas(toks[k].low) \
            and not _plural_noun(toks[k].low) and not is_stopword(toks[k].text):
        k += 1
    return k < len(toks) and _is_lower_word(toks[k]) and _plural_noun(toks[k].low)


def _so_as_to(toks: list[Tok], i: int, j: int) -> bool:
    """"so as to" + a base verb ("so as to avoid" -> "to avoid"; "so as not to" keeps its phrase), not after a verb
    that takes a to-infinitive ("arrange so as to be parallel" -> "arrange to be parallel" is another verb frame)."""
    nxt, prev = token_at(toks, j), prev_token(toks, i)
    if prev is not None and set(_verb_lemmas(prev.low)) & TO_VERBS:
        return False
    return nxt is not None and _is_lower_word(nxt) and _is_form(nxt.low, "VB") and nxt.low != "not"


def _before_number(toks: list[Tok], i: int, j: int) -> bool:
    """"in excess of" + a number after a verb ("cost in excess of $5" -> "cost more than $5"; "damage in excess of
    $5" -> "damage more than $5" needs its "of")."""
    prev = prev_token(toks, i)
    return _number_at(toks, j, allow_one=False) and prev is not None and _is_lower_word(prev) and (
        prev.low in BE_FORMS or any(_is_form(prev.low, tag) for tag in ("VBD", "VBZ", "VBP", "VB", "VBN")))


def _such_as(toks: list[Tok], i: int, j: int) -> bool:
    """"such as" + examples -> "like": not "such as it is", "such as to" (of a kind that), "such as this/that"
    ("like this" reads as a manner), "such as whether ...", nor after be ("it was such as")."""
    nxt, prev = token_at(toks, j), prev_token(toks, i)
    if nxt is None or not (_is_word(nxt) or nxt.text[:1].isdigit() or nxt.text in ("\"", "“", "$")):
        return False  # "questions such as, did Tripp ...?"
    if nxt.low in SUCH_AS_NOT_BEFORE or prev is None or prev.low in BE_FORMS | {"as", "like"}:
        return False
    return not any(t.low in ("like", "likes", "liked") for t in toks)  # "just like the wages ... like baby sitters"


def _upon(toks: list[Tok], i: int, j: int) -> bool:
    """"upon" -> "on": not "once upon a time", not after a verb whose "upon" differs from its "on" ("come upon" =
    find, "hit upon", "look upon" = regard, "set upon" = attack), "close upon five" (= nearly), a repetition
    ("row upon row"), after be ("the holidays are upon us"), nor before a reflexive ("took it upon himself")."""
    prev, nxt = prev_token(toks, i), token_at(toks, j)
    if nxt is None or not (_is_word(nxt) or nxt.text[:1].isdigit()) or nxt.low in REFLEXIVES:
        return False
    if prev is None or prev.text in CLAUSE_BREAK:
        return True
    if prev.low in UPON_NOT_AFTER or prev.low in BE_FORMS or prev.low == nxt.low or prev.low.rstrip("s") == nxt.low:
        return False
    return not (set(_verb_lemmas(prev.low)) & {"come", "hit", "set", "look", "stumble", "chance", "happen"})


def _till(toks: list[Tok], i: int, j: int) -> bool:
    """"till" as a conjunction or preposition: a lower-case word, not a noun ("the till", "to till the soil")."""
    prev, nxt = prev_token(toks, i), token_at(toks, j)
    if toks[i].text != "till" or nxt is None or not (_is_word(nxt) or nxt.text[:1].isdigit()):
        return False
    return prev is not None and prev.low not in DETERMINERS | {"to", "cash", "the", "a", "will", "would", "can",
                                                                "could", "and", "or"}


def _kind_of(toks: list[Tok], i: int, j: int) -> bool:
    """"kind of" <-> "sort of": not before a pronoun ("that's kind of you": kind), "kind of" not after a/one/another
    ("a kind of tree": a gloss's genus, where "a sort of tree" would hedge)."""
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
    """is/are/was/were unable to <-> not able to: only after a finite be ("will be unable to" -> "will be not able
    to" reads badly), or "as if"."""
    prev = prev_token(toks, i)
    nxt = token_at(toks, j)
    if nxt is None or not _is_lower_word(nxt) or not _is_form(nxt.low, "VB"):
        return False
    return prev is not None and (prev.low in FINITE_BE or prev.low in BE_CONTRACTED
                                 or prev.low == "if" and toks[i].low == "unable")


def _due_to(toks: list[Tok], i: int, j: int) -> bool:
    """"due to" -> "because of" where it gives a cause of an event: after a verb, a comma or an adverb ("evacuated
    due to bomb threat", "largely due to increases"), not after a noun ("income due to taxation": owed to), after be
    ("is due to arrive", "may be due to"), before a verb ("due to go": scheduled), nor "due to or contributed by"."""
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
    """"lately" -> "recently", not after be ("the index was lately up 18 points": at the latest reading)."""
    prev = prev_token(toks, i)
    return prev is None or prev.low not in BE_FORMS


def _not_after_be(toks: list[Tok], i: int, j: int) -> bool:
    """Not after be ("may be due to the fact that" -> "may be because")."""
    prev = prev_token(toks, i)
    return _followed_by_word(toks, i, j) and (prev is None or prev.low not in BE_FORMS)


def _with_respect_to(toks: list[Tok], i: int, j: int) -> bool:
    """"With respect to X, ..." at the start only: inside a sentence it often means "relative to" ("defined with
    respect to the orientation", "elasticity with respect to volume")."""
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


# -- to_ing ---------------------------------------------------------------------------------------------------------


def _trigger_is_verb(toks: list[Tok], i: int) -> bool:
    """Token i (start/begin/continue) is a verb: not after a determiner, preposition or be ("the continued",
    "amid continued fighting", "was started"), not a capitalised word inside the sentence."""
    t = toks[i]
    if not t.text.islower() and not (i == 0 and t.text[:1].isupper()):
        return False
    prev = prev_token(toks, i)
    if prev is None or prev.text in (",", ";", ":") or prev.low == "to":
        return True
    if prev.low in BE_FORMS or prev.low in DETERMINERS or prev.low in ("the", "a", "an", "no", "every", "each"):
        return False
    if is_stopword(prev.text):
        return prev.low in AUXILIARIES or prev.low in ("i", "you", "he", "she", "it", "we", "they", "who", "which",
                                                       "that", "then", "also", "never", "just", "and", "or",
                                                       "but", "soon", "finally", "only", "even", "again")
    lemmas = _lemmas(prev.low)
    if prev.low in PREPOSITION_WORDS:
        return False
    return prev.text[:1].isupper() or bool({"NOUN", "ADV"} & set(lemmas)) and not (
        "ADJ" in lemmas and "NOUN" not in lemmas)  # "a fresh start", "amid continued fighting"


def _joined_verb(toks: list[Tok], k: int, ing: bool) -> bool:
    """Whether a verb (base form, or -ing with `ing`) after token k is joined by and/or: "to sing and dance"."""
    for m in range(k + 1, len(toks) - 1):
        if toks[m].low in ("and", "or", ",") or toks[m].text == "/":
            w = toks[m + 1].low
            if (is_ing_verb(w) if ing else (_is_form(w, "VB") and "VERB" in _lemmas(w))) or w in ("to",):
                return True
    return False


def _to_ing_at(text: str, toks: list[Tok], i: int) -> str | Refusal | None:
    """Token i (start/begin/continue) + "to" + a base verb said with the verb's -ing form, or the other way."""
    from lemminflect import getInflection

    nxt = toks[i + 1]
    to = nxt.text == "to"
    verb = toks[i + 2] if to else nxt
    if to and (not _is_lower_word(verb) or verb.low not in _verb_lemmas(verb.low) or not _is_form(verb.low, "VB")):
        return None  # "continued to the end", "began to slowly move"
    if not to and not (_is_lower_word(nxt) and is_ing_verb(nxt.low)):
        return None
    if not _trigger_is_verb(toks, i):
        return Refusal("trigger_not_verb")
    if toks[i].low.startswith("beg") and any(x.low in ("even", "not", "never", "cannot") or x.low.endswith("n't")
                                             for x in toks[max(0, i - 3):i]):
        return Refusal("impossibility_idiom")  # "I couldn't even begin to identify it"
    lemmas = (verb.low,) if to else _verb_lemmas(verb.low)
    if len(lemmas) != 1:
        return Refusal("no_inflection")
    if lemmas[0] in STATIVE_VERBS:
        return Refusal("stative_verb")
    if _joined_verb(toks, i + 2 if to else i + 1, ing=not to):
        return Refusal("joined_verb")
    if to:
        forms = getInflection(verb.low, "VBG")
        return splice(text, [(nxt.start, verb.end, forms[0])]) if forms else Refusal("no_inflection")
    after = token_at(toks, i + 2)
    if after is not None and after.text in ("'s", "’s"):
        return Refusal("possessive_after")
    return splice(text, [(nxt.start, nxt.end, "to " + lemmas[0])])


def rule_to_ing(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    refusal = None  # the first guard that refused, returned when no place is rewritten
    for i, t in enumerate(toks[:-2]):
        if t.low in START_VERB_FORMS:
            new = _to_ing_at(text, toks, i)
            if isinstance(new, str):
                return new
            refusal = refusal or new
    return refusal


# -- between --------------------------------------------------------------------------------------------------------


def _conjunct(toks: list[Tok], start: int, stop_at_and: bool) -> int | None:
    """End (exclusive) of a conjunct from token `start`: a name (one to three capitalised words, after an optional
    "the"), a determiner + one or two nouns, or one or two nouns; None when there is none."""
    k = start
    if k < len(toks) and toks[k].low in DEFINITE_AND_POSSESSIVE_DETERMINERS:
        k += 1
    first = k
    while k < len(toks) and k - first < 3 and _is_word(toks[k]) and not is_stopword(toks[k].text) \
            and toks[k].text[:1].isupper() and k > 0:
        k += 1
    if k > first:
        return k  # a name (what follows it is judged by the caller)
    k = first
    while k < len(toks) and k - first < 2 and _is_lower_word(toks[k]) and not is_stopword(toks[k].text):
        k += 1
    if k == first:
        return None
    return k


def _conjuncts_refused(a: list[Tok], b: list[Tok]) -> Refusal | None:
    """The guard that refuses two conjuncts of "between" to change places, or None."""
    words = a + b
    if any(x.text[:1].isdigit() or x.low in COUNT_WORDS | ORDINALS | TIME_OF_DAY_AND_YEAR_WORDS | {"one"}
           or x.low in ("you", "me", "him", "her", "us", "them", "i") or "'" in x.low for x in words):
        return Refusal("range_date_or_pronoun")  # ranges, dates, times, pronouns, possessives
    if any(is_ing_verb(x.low) and "NOUN" not in _lemmas(x.low) for x in words):
        return Refusal("ing_in_conjunct")
    heads = (a[-1].low, b[-1].low)
    if heads in BINOMIAL_PAIRS or heads[::-1] in BINOMIAL_PAIRS or {"rock", "lines", "devil"} & {x.low for x in words}:
        return Refusal("fixed_pair")
    for head in (a[-1], b[-1]):
        lemmas = _lemmas(head.low)
        if head.text[:1].islower() and ("NOUN" not in lemmas or "ADJ" in lemmas and "NOUN" not in lemmas):
            return Refusal("shared_head")  # "between the old and new buildings"
        if head.text[:1].islower() and "ADJ" in lemmas and head.low in ("poor", "rich", "black", "white", "young",
                                                                     "old", "good", "evil"):
            return Refusal("shared_head")
    if len(a) == 1 and len(b) > 1 and a[0].text[:1].islower():
        return Refusal("shared_head")  # "between cat and dog owners": the head may be shared
    if (a[0].low in DEFINITE_AND_POSSESSIVE_DETERMINERS) != (b[0].low in DEFINITE_AND_POSSESSIVE_DETERMINERS):
        return Refusal("shared_determiner")  # "between the neck and upper arm": the determiner is shared
    return None


def _goes_on_refused(after: Tok | None, prev: Tok | None) -> Refusal | None:
    """The guard that refuses what follows the second conjunct (`after`; `prev`: the word before "between")."""
    if after is not None and _is_word(after):
        if after.low in ("'s", "of", "and", "or"):
            return Refusal("conjunct_goes_on")
        if after.low in AUXILIARIES or is_verb_form(after.low) or _is_form(after.low, "VBP"):
            if prev is None or not (_is_word(prev) and "NOUN" in _lemmas(prev.low) and not is_stopword(prev.text)):
                return Refusal("two_clauses")  # "fell between the rocks and the dog ran": two clauses
        elif after.low not in BOUNDARY_WORDS:
            return Refusal("conjunct_goes_on")  # the second conjunct may go on
    elif after is not None and after.text not in (".", ",", ";", ":", "?", "!", ")", "-", "\"", "”"):
        return Refusal("conjunct_goes_on")
    return None


def rule_between(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    for i, t in enumerate(toks[:-3]):
        if t.text != "between":
            continue
        prev = prev_token(toks, i)
        if prev is not None and prev.low in DIRECTIONAL:
            return Refusal("directional")
        a_end = _conjunct(toks, i + 1, True)
        if a_end is None or a_end >= len(toks) or toks[a_end].text != "and":
            return None
        b_end = _conjunct(toks, a_end + 1, False)
        if b_end is None:
            return None
        a, b = toks[i + 1:a_end], toks[a_end + 1:b_end]
        refusal = _conjuncts_refused(a, b) or _goes_on_refused(token_at(toks, b_end), prev)
        if refusal is not None:
            return refusal
        first = text[toks[i + 1].start:a[-1].end]
        second = text[b[0].start:b[-1].end]
        if first.lower() == second.lower():
            return Refusal("same_conjuncts")
        return splice(text, [(toks[i + 1].start, a[-1].end, second), (b[0].start, b[-1].end, first)])
    return None


# -- how_can --------------------------------------------------------------------------------------------------------


def rule_how_can(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if len(toks) < 5 or toks[-1].text != "?" or toks[0].text != "How" or text.count("?") != 1:
        return None
    aux, subject, verb = toks[1], toks[2], toks[3]
    if subject.text not in ("I", "we") or not _is_lower_word(verb) or not _is_form(verb.low, "VB") \
            or verb.low not in _verb_lemmas(verb.low):
        return None
    if aux.text == "do":
        return splice(text, [(aux.start, aux.end, "can")]) if verb.low not in NOT_HOW_TO else Refusal("not_how_to")
    if aux.text == "can":
        return splice(text, [(aux.start, aux.end, "do")]) if verb.low in DOING_VERBS else Refusal("not_doing_verb")
    return None


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


PHRASE_RULES: dict[str, Rule] = {
    "equivalent": rule_equivalent, "percent": rule_percent, "to_ing": rule_to_ing, "between": rule_between,
    "how_can": rule_how_can, "a_lot": rule_a_lot,
}
