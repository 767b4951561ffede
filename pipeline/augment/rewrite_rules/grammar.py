"""Grammatical rewrites: the sentence's own words in another grammatical form. The rules (names as in
`GRAMMAR_RULES`):

* `number_words`: a count written in digits -> in words ("3 dogs" -> "three dogs"), up to `max_number`; only a
  plain number before a lower-case word that is no unit ("5 km", "3 pm" stay), not after a name or sign
  ("Apollo 11", "$5", "No. 3") or a label's noun ("terminal 2", "gate 4"), and only when it is the sentence's one
  number written in digits.
* `swap_conjuncts`: two noun phrases joined by "and", each a determiner and one to three lower-case nouns or
  adjectives, change places ("a man and a woman are ..." -> "a woman and a man are ..."); not after "of" (the
  first conjunct may belong to a larger phrase), not before a possessive, not with ordinals ("the first and the
  second").
  Else two names joined by "and" change places ("Harris and Klebold killed ..." -> "Klebold and Harris killed ...";
  "Mr. Grassley and Mr. Baucus"), each one to three capitalised words (a title's abbreviation with its period may
  come first), followed by a verb, an auxiliary or the end; refused for a fixed pair or one name ("Bosnia and
  Herzegovina", "Procter and Gamble", "Simon and Garfunkel", "Romeo and Juliet", "Smith and Sons"), a title-case
  headline (a phrase may be a title), a name followed by "'s" or "of" ("Marks and Spencer's"), a first conjunct
  that may end a larger name or list ("Bank of America and ...", "the", a capitalised word or comma before it), an
  order that carries meaning ("between X and Y", "respectively", "in that order"), a single word that may be a
  common noun ("Police and Fire"), a sentence-initial first name that is also a word ("Smith and ..."), two
  surnames before a verb of citing ("Robinson and Godbey say ...": the authors' order is part of the reference), and
  a first name in apposition to a singular lower-case noun before it ("from the publisher Pearson Alhambra and DA"
  -> "the publisher DA and Pearson Alhambra" names another publisher; "the leaders Obama and Romney" passes).
* `front_time`: a time phrase at the end moves to the front ("Protesters clashed with police on Monday." ->
  "On Monday, protesters clashed with police."): yesterday, today, last/next/this week..., on a weekday or date,
  in a month or year; not in a sentence that opens with a wh-word ("How the Dow Fared on Tuesday").
* `front_place`: a place phrase after a verb in progress moves to the front ("A man is sitting on a bench." ->
  "On a bench, a man is sitting."): in/on/at/near/under/behind/beside/inside/outside/in front of + a determiner
  + one to four lower-case words, directly after the -ing verb (so it belongs to the verb, not to its object);
  "at" only after a verb of posture or waiting ("sitting at a table"; "biting at a blanket" stays).
* `front_clause`: a final subordinate clause moves to the front ("He stayed home because it was raining." ->
  "Because it was raining, he stayed home."): because (of), although, while, when, after, before, until, unless,
  if, whereas, since; refused after a time noun ("the day when ..."), after verbs of asking and knowing ("asked if",
  "know when": an indirect question), after phrasal verbs with "after" ("looked after"), after a modifier of the
  conjunction ("shortly after", "even if"), after a sentence-initial "So"/"And"/"But" (it would end up inside),
  when the clause has a name and the main clause a pronoun (the pronoun could then refer to the name: "He left
  because John was tired"), when the part before it has no finite verb or auxiliary ("The volatility of prices
  since 1995 has been attributed ...": the conjunction is inside the subject), and when that part has an embedded
  clause ("that", "which", "who", a verb of saying or thinking: "This means that half will be returned, while
  ..." -> "While ..., this means that ..." changes what the clause belongs to), after a form of "be" ("where it
  goes wrong is when ...": the clause is what "is" says), when the clause has no verb of its own ("we like to
  wait until 18 months": a phrase the verb asks for; "because of ..." and "while waiting ..." are fine), and when
  the part before it has two coordinated verbs ("put her son in a class and was nervous because ...": the clause
  belongs to the second); a "because" clause after a negation ("I did not do it because ...": "not" may deny the
  reason, not the deed); a clause with a third-person pronoun (he, she, it, they, him, her, them, his, its, their)
  that would come before the noun it may refer to ("The terrorists tied the flight attendants because they were in
  the way." -> "Because they were in the way, the terrorists tied ..."), except after a main clause that opens
  with a personal pronoun ("He stayed home because it was raining"), a weather "it" ("while it is snowing") and a
  possessive in a clause without a subject ("while talking on her cellphone"). `front_time` has the same guards on
  the part before the time phrase (but the last), and refuses a part with an infinitive ("I was hesitant to move to
  Victoria in 1984": the time may belong to it).
* `there`: an indefinite subject with "is/are" + an -ing verb or a place -> "there is/are" ("Two men are playing
  chess." -> "There are two men playing chess."), and back ("There is a dog running ..." -> "A dog is running
  ..."); refused when the subject has a verb, a relative pronoun or "and" in it.
* `wearing`: "a man in a blue shirt" <-> "a man wearing a blue shirt" (a noun, then in/wearing + a garment).
* `reported`: a short subject + said/says before a reported clause moves after it ("The company said sales fell."
  <-> "Sales fell, the company said."); refused with a quotation mark or question, a participle ("The said company
  ..."), a coordinated verb ("I never said or implied ...") or "it" in the clause before its noun. Else a speech tag
  at the end, after a quotation or reported clause, is inverted ('"We will win," said Smith.' <-> '"We will win,"
  Smith said.'; "Sales fell, said the company." <-> "..., the company said."; also "says"; straight and curly,
  single and double quotes, the closing quote and comma, "?" or "!" stay where they are). The speaker: a name with
  its title words ("IDC analyst John McArthur", "Gen. Richard Myers", "France's Francois Hollande"), a determiner
  and one to four words ("the Oscar-winning film director"), a bare plural speaker ("Pentagon officials"), or a
  pronoun only from "said he" to "he said" ("said he" is archaic); after "said" it may have an apposition ("said
  Matt Geller, an analyst at CIBC World Markets." -> "Matt Geller, an analyst at CIBC World Markets, said."), before
  it only after a quotation. Refused: a speaker with a relative clause or more text after it ("said Smith, who
  ...", "said Smith, laughing", "said Smith on Tuesday"; one -ly adverb is kept after the verb: "said Tuppence
  thoughtfully" -> "Tuppence said thoughtfully"), "said" + what was said ("He stood up, said nothing", "said a few
  words", "said Amen": without a quotation a determiner's noun must name a speaker), "said" as a participle (it
  must follow the comma or quote), a tag in the middle ('..., said Sir James, "you know ..."'), "he said" ->
  "said he", a name ending in an abbreviation before the final period ("said Gilles Burger Jr."), and, without a
  quotation, a part before the tag that has no finite verb ("After the meeting, the company said.").
* `add_is`: a caption without a verb gets "is"/"are" before its -ing verb ("Two dogs fighting in the snow." ->
  "Two dogs are fighting ..."); refused when the sentence has its verb already, before the -ing verb or after it
  ("A boy wearing a hat catches a Frisbee", "Two people wearing hoodies huddle on a doorstep": a base-form verb
  after a plural noun), and when the -ing verb is one of `ATTRIBUTE_ING` (wearing, holding, carrying, ...) and
  another -ing verb follows it without a comma or conjunction ("a man wearing a white suit holding a newspaper
  walking through the streets." -> "a man is wearing ...": "wearing" describes the man, the action comes later).

The moved first word of a sentence is written in lower case only when it is a function word (determiner,
pronoun, ...) or a number word: any other capitalised word may be a name ("Bush said ...": refused).
"""

from __future__ import annotations

import re

from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _case_like, _final_punct, _front, _is_form, _is_lower_word, _is_word, _lemmas,
    _lower_first_word, is_ing_verb, is_noun, is_participle, is_verb_form, splice,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    AFTER_VERBS, APPOSITION_STOP, ATTRIBUTE_ING, AT_PLACE_VERBS, AUXILIARIES, AUX_BEFORE_PARTICIPLE, AUX_CONTRACTED,
    BARE_SPEAKERS, BEFORE_NAMES, CITING_VERBS, CLAUSE_PRONOUNS, CLOSING_QUOTES, CONJUNCTION_MODIFIERS, DETERMINERS,
    FIXED_NAME_PAIRS, GARMENTS, HUMAN_SUBJECT_PRONOUNS, INDEFINITE, LOWER_FIRST, MONTHS, NAME_COMPANIONS, NAME_SIGNS,
    NAME_SUFFIX_ABBREVIATIONS, NOMINATIVE_PRONOUNS, NOT_CONTRACTED, NOT_EXPANDED, NOT_SPEAKERS, NUMBER_WORDS, ORDINALS,
    PARTS_OF_DAY, PERSONAL_SUBJECTS, PLACE_PREPOSITIONS, PRONOUN_AUX, QUESTION_S, QUESTION_SUBJECTS, QUESTION_VERBS,
    SAYING_VERBS, SAY_TELL_FORMS, SELECTED_PREPOSITION, SPEAKER_DETERMINERS, SPEAKER_HEADS, SUBJECT_PRONOUNS,
    SUBORDINATORS, S_EXPANDABLE, THIRD_PERSON, TIME_NOUNS, TIME_UNITS, TITLE_ABBREVIATIONS, UNITS, WEATHER_WORDS,
    WEEKDAYS, WH_WORDS,
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


def _np_before(toks: list[Tok], end: int) -> int | None:
    """Start of a noun phrase "det (1-3 lower-case content words)" ending just before token `end`."""
    j = end - 1
    words = 0
    while j >= 0 and words < 3 and _is_lower_word(toks[j]) and not is_stopword(toks[j].text) \
            and toks[j].low not in ORDINALS and not toks[j].low.endswith("ing"):
        j -= 1
        words += 1
    if words and j >= 0 and toks[j].low in DETERMINERS and toks[j].low not in ("that", "this", "those", "these"):
        return j
    return None


def _np_after(toks: list[Tok], start: int) -> int | None:
    """End (exclusive) of a noun phrase "det (1-3 lower-case content words)" from token `start`, followed by a
    function word or punctuation."""
    if start >= len(toks) or toks[start].low not in DETERMINERS or toks[start].low in ("that", "this", "those",
                                                                                      "these"):
        return None
    j = start + 1
    while j < len(toks) and j - start <= 3 and _is_lower_word(toks[j]) and not is_stopword(toks[j].text) \
            and toks[j].low not in ORDINALS and not toks[j].low.endswith("ing"):
        j += 1
    if j == start + 1:
        return None
    if j < len(toks) and _is_word(toks[j]) and not is_stopword(toks[j].text):
        return None  # the phrase goes on, or a verb follows: boundaries unclear
    if j < len(toks) and toks[j].low in ("'s", "'", "of"):
        return None
    if "VERB" in _lemmas(toks[j - 1].low) and j < len(toks) and toks[j].low not in AUXILIARIES \
            and _is_word(toks[j]):
        return None  # "a goose swim in": the phrase may end in a verb
    return j


def rule_swap_conjuncts(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    for i, t in enumerate(toks):
        if t.low != "and" or not t.text.islower():
            continue
        a = _np_before(toks, i)
        b = _np_after(toks, i + 1)
        if a is None or b is None:
            continue
        if a > 0 and not (toks[a - 1].low in AUXILIARIES or is_verb_form(toks[a - 1].low)
                          and not is_stopword(toks[a - 1].text)):
            continue  # "a man in [a black shirt] and [an elderly woman]": the conjuncts may be larger phrases
        if a > 0 and b < len(toks) and (toks[b].low in AUXILIARIES or _is_word(toks[b]) and is_verb_form(toks[b].low)):
            continue  # "is photographing a camel and a woman is trying": two clauses
        if b < len(toks) and toks[b].low in ("respectively", ",", "and"):
            continue
        if any("NOUN" not in _lemmas(toks[x].low) or "ADJ" in _lemmas(toks[x].low) for x in (i - 1, b - 1)):
            continue  # "a black and a brown dog": each conjunct must end in a noun
        if {toks[a].low, toks[i + 1].low} & {"his", "her", "their", "its", "my", "our", "your"}:
            continue  # "a mother and her daughter": "her" must follow its noun
        if b < len(toks) and not (toks[b].low in AUXILIARIES or is_verb_form(toks[b].low)
                                  or toks[b].text in (".", "!", ",") and a == 0 or toks[b].text in (".", "!")):
            continue  # "a man and a woman in blue": what follows may belong to the second conjunct only
        first = text[toks[a].start:toks[i - 1].end]
        second = text[toks[i + 1].start:toks[b - 1].end]
        if first.lower() == second.lower():
            continue
        if a == 0:
            first = _lower_first_word(first) or first
            second = second[:1].upper() + second[1:]
        edits = [(toks[a].start, toks[i - 1].end, second), (toks[i + 1].start, toks[b - 1].end, first)]
        return splice(text, edits)
    return _swap_names(text, toks)


def _is_name_word(t: Tok) -> bool:
    return bool(re.fullmatch(r"[A-Z][A-Za-z'’-]*", t.text)) and not is_stopword(t.low) and t.low not in LOWER_FIRST


def _names_from(toks: list[Tok], start: int, step: int) -> int:
    """How many tokens of a name (one to three capitalised words, a title's abbreviation with its period before
    them: "Mr. Baucus") run from token `start` in direction `step`; 0 when none or more."""
    n, words, j = 0, 0, start
    while 0 <= j < len(toks):
        if step == -1 and n and toks[j].text == "." and j > 0 and toks[j - 1].low in TITLE_ABBREVIATIONS:
            n, j = n + 2, j - 2  # "Mr. Baucus" read backwards
            continue
        if step == 1 and not n and toks[j].low in TITLE_ABBREVIATIONS and j + 2 < len(toks) \
                and toks[j + 1].text == "." \
                and _is_name_word(toks[j + 2]):
            n, j = n + 2, j + 2
            continue
        if not _is_name_word(toks[j]):
            break
        n, words, j = n + 1, words + 1, j + step
    return n if 1 <= words <= 3 else 0


def _swap_names(text: str, toks: list[Tok]) -> str | None:
    """"Obama and Romney met." -> "Romney and Obama met." (see the module docstring)."""
    low = text.lower()
    if "respectively" in low or "in that order" in low:
        return None
    words = [t for t in toks[1:] if _is_word(t) and not is_stopword(t.low)]
    if sum(t.text[:1].isupper() for t in words) > 2 and sum(t.text.islower() for t in words) < len(words) / 2:
        return None  # a title-case headline: a phrase may be a title
    for i, t in enumerate(toks):
        if t.text != "and" or i == 0 or i + 1 >= len(toks):
            continue
        n1, n2 = _names_from(toks, i - 1, -1), _names_from(toks, i + 1, 1)
        if not 1 <= n1 <= 3 or not 1 <= n2 <= 3:
            continue
        a, b = i - n1, i + 1 + n2
        first, second = toks[a:i], toks[i + 1:b]
        if a > 0 and (toks[a - 1].low in BEFORE_NAMES or toks[a - 1].text[:1].isupper() and not (
                a == 1 and is_stopword(toks[0].low)) or toks[a - 1].text in
                      ("-", "'", "’", "\"", "“")) and not (a == 1 and toks[0].text in ("\"", "“")):
            continue  # "Bank of America and ...", "between X and Y", a list, a larger name
        if a > 0 and toks[a - 1].text.islower() and toks[a - 1].low in _lemmas(toks[a - 1].low).get("NOUN", ()) \
                and not is_stopword(toks[a - 1].low) and not is_verb_form(toks[a - 1].low) \
                and not _is_form(toks[a - 1].low, "VB"):
            continue  # "the publisher Pearson Alhambra and DA": the first name is in apposition to a singular noun
        if b < len(toks) and (toks[b].low in ("'s", "’s", "'", "’", "of", "&", "and", ",", "(", "-")
                              or toks[b].low.endswith("'s") or toks[b].low.endswith("’s")):
            continue  # "Marks and Spencer's", "Trade and Industry of", a list
        if any(x.low.endswith("'s") or x.low.endswith("’s") for x in first + second):
            continue
        if b < len(toks) and _is_word(toks[b]) and not (
                toks[b].text.islower() and (toks[b].low in AUXILIARIES or is_verb_form(toks[b].low)
                                            and not is_noun(toks[b].low) or toks[b].low in ("have", "say", "met"))):
            continue  # what follows may belong to the second name only
        if f"{first[-1].low} {second[-1].low}" in FIXED_NAME_PAIRS \
                or f"{first[0].low} {second[0].low}" in FIXED_NAME_PAIRS \
                or second[-1].low in NAME_COMPANIONS or first[-1].low in NAME_COMPANIONS:
            continue
        if any(all(_lemmas(x.low) or is_stopword(x.low) for x in part) and len(part) == 1 for part in (first, second)):
            continue  # "Police and Fire", "Trade and Industry": a word that may be a common noun, no name
        if a == 0 and _lemmas(first[0].low):
            continue
        if len(first) == len(second) == 1 and b < len(toks) and toks[b].low in CITING_VERBS:
            continue  # "Robinson and Godbey say ...": authors cited in their own order
        one = text[toks[a].start:toks[i - 1].end]
        two = text[toks[i + 1].start:toks[b - 1].end]
        if one.lower() == two.lower():
            continue
        return splice(text, [(toks[a].start, toks[i - 1].end, two), (toks[i + 1].start, toks[b - 1].end, one)])
    return None


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


def _has_finite_verb(part: list[Tok]) -> bool:
    """Whether words have a finite verb or an auxiliary. "increased" after a determiner is none; a verb that may be
    a noun counts after a subject pronoun ("he works"), after a plural noun in its base form ("men pose"), or when
    no "of"/"and"/"or" comes before it ("A child rides"; in "the volatility of producer and consumer prices" the
    word "prices" is a noun)."""
    for m, t in enumerate(part):
        if t.low in AUXILIARIES or re.search(r"n't$|'(s|m|re|ve|ll|d)$", t.low):
            return True
        if m == 0 or not _is_lower_word(t) or "VERB" not in _lemmas(t.low) \
                or not any(_is_form(t.low, tag) for tag in ("VBD", "VBZ", "VBP")):
            continue
        prev = part[m - 1]
        if prev.low in DETERMINERS or is_stopword(prev.text) and prev.low not in SUBJECT_PRONOUNS:
            continue  # "The increased volatility", "of sectors"
        if "NOUN" not in _lemmas(t.low) or prev.low in SUBJECT_PRONOUNS \
                or _is_form(t.low, "VBP") and _plural_noun_tok(prev) \
                or not any(x.low in ("of", "and", "or") for x in part[:m]):
            return True
    return False


def rule_front_time(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = _final_punct(toks)
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
    return not _has_finite_verb(head) or any(
        t.low in SAYING_VERBS or t.low in ("that", "which", "who", "whom", "whose", "and", "or") for t in head)


def rule_front_place(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = _final_punct(toks)
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
        if not 1 <= len(phrase) <= 4 or not all(_is_lower_word(t) and not is_stopword(t.text) for t in phrase):
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
    end = _final_punct(toks)
    if end <= 0:
        return None
    for k in range(3, end - 2):
        conj = toks[k]
        if conj.low not in SUBORDINATORS or not conj.text.islower():
            continue
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
        if not (_has_finite_verb(clause) or is_ing_verb(clause[0].low) or is_participle(clause[0].low)
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
            # "The terrorists tied the flight attendants because they were in the way": "they" would
            return Refusal("pronoun_before_its_noun")
            # come before the noun it refers to
        if j < 2 or any(t.text in (";", ":", "\"", "(", ")", "-") for t in toks[:j + 1]):
            return Refusal("punctuation_before_clause")
        if any(t.text == "," for t in toks[:j + 1]):
            return Refusal("comma_before_clause")
        if toks[0].low in ("so", "and", "but", "or", "yet", "then", "also"):
            return Refusal("conjunction_opening")
        if conj.low == "because" and any(t.low in ("not", "never") or t.low.endswith("n't") for t in toks[:j + 1]):
            return Refusal("negation_scope")  # "I did not do it because ...": "not" may deny the reason, not the deed
        if _embedded_or_verbless(toks[:j + 1]):
            # "The volatility of prices since 1995 has been ...": inside the subject; "This means that
            return Refusal("embedded_or_verbless")
            # half will be returned, while ...", "put her son in a class and was nervous because ...": it may
            # belong to the embedded or the second clause only
        head = _lower_first_word(text[:before.end])
        if head is None:
            return None
        phrase = text[conj.start:toks[end - 1].end]
        tail = text[toks[end - 1].end:]
        return phrase[:1].upper() + phrase[1:] + ", " + head + tail
    return None


def rule_there(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    end = _final_punct(toks)
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
    """"a man in a blue shirt" <-> "a man wearing a blue shirt" (a noun, then in/wearing + a garment)."""
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
        while j < len(toks) and j - start < 4 and _is_lower_word(toks[j]) and not is_stopword(toks[j].text):
            j += 1
        if j == start:
            continue
        if not (toks[j - 1].low in GARMENTS or toks[j - 1].low.rstrip("s") in GARMENTS):
            continue
        if j < len(toks) and _is_word(toks[j]) and toks[j].low not in ("and", "with", "is", "are", "on", "in", "at",
                                                                       "while", "was", "were", "near", "by"):
            continue
        if j < len(toks) and toks[j].low == "and" and j + 1 < len(toks) and toks[j + 1].low in ("a", "an", "the"):
            continue  # "in a shirt and a hat": the second garment would stay under "in"
        if t.low == "wearing":
            if prev.low in AUXILIARIES or not det and toks[k + 1].low not in ("blue", "red", "black", "white") \
                    and toks[j - 1].low not in ("clothes", "jeans", "shorts", "pants", "glasses", "sunglasses",
                                                "trousers", "boots", "shoes", "overalls", "pajamas"):
                continue
        return splice(text, [(t.start, t.end, "wearing" if t.low == "in" else "in")])
    return None


def _cap(t: Tok) -> bool:
    """A capitalised word ("Smith", "al-Sadr"), not a function word ("The", "Nobody")."""
    return bool(re.fullmatch(r"([A-Z]|[a-z]+-[A-Z])[A-Za-z'’-]*", t.text)) and not is_stopword(t.low) \
        and t.low not in LOWER_FIRST


def _speaker_end(toks: list[Tok], s: int, stop: int, any_noun: bool) -> int | None:
    """End (exclusive) of a speaker from token `s`, running up to `stop` at most: a name with its title words
    ("IDC analyst John McArthur", "Gen. Richard Myers", "France's Francois Hollande"), a determiner and one to four
    words ending in a speaker's noun ("the company", "the Oscar-winning film director"; any noun after a quotation),
    or a bare plural speaker ("Pentagon officials"). The longest such phrase that ends before `stop`."""
    if s >= stop:
        return None
    det = toks[s].low in SPEAKER_DETERMINERS and toks[s].text.islower()
    j = s + 1 if det else s
    words, best = 0, None
    while j < stop:
        t = toks[j]
        if t.text == "." and j > s and (toks[j - 1].low in TITLE_ABBREVIATIONS
                                        or re.fullmatch(r"[A-Z]", toks[j - 1].text)):
            j += 1  # "Dr. James Young", "Gilles W. Burger"
            continue
        if t.low == "of" and t.text.islower() and words and j + 1 < stop and (
                _cap(toks[j + 1]) or toks[j + 1].low == "the" and j + 2 < stop and _cap(toks[j + 2])):
            j += 1  # "Barrett Duke of the Southern Baptists"
            words += 1
            continue
        if toks[j].low == "the" and j > s and toks[j - 1].low == "of":
            j += 1
            continue
        if not (_cap(t) or re.fullmatch(r"[a-z][a-z'’-]*", t.text) and not is_stopword(t.text)
                and not t.low.endswith("ly") and t.low not in SAY_TELL_FORMS):
            break
        words += 1
        j += 1
        if words > (4 if det else 6):
            return None
        last = t.low.replace("’", "'")
        if last.endswith(("'s", "'")) or last in NAME_SUFFIX_ABBREVIATIONS or last in NOT_SPEAKERS:
            continue
        if (_cap(t) or det and (last in SPEAKER_HEADS or any_noun and is_noun(last) and not is_verb_form(last))
                or not det and last in BARE_SPEAKERS
                or not det and j - s >= 2 and any(_cap(x) for x in toks[s:j - 1]) and is_noun(last)
                and toks[j - 2].low.endswith("'s")):  # "France's president"
            best = j
    if best is None:
        return None
    if not det and words > 4 and not _cap(toks[best - 1]):
        return None
    return best


def _apposition(toks: list[Tok], s: int, stop: int) -> bool:
    """Whether tokens s..stop-1 are an apposition to a speaker ("an analyst at CIBC World Markets", "Ontario's
    commissioner of public safety", "Nina Axelrod"): one to ten words, no punctuation, no pronoun, relative word or
    finite verb."""
    part = toks[s:stop]
    if part and part[0].text.islower() and part[0].low not in SPEAKER_DETERMINERS and not (
            is_noun(part[0].low) and not part[0].low.endswith("ing") or part[0].low.endswith("ing")
            and len(part) > 1 and part[1].text.islower() and is_noun(part[1].low) and not is_verb_form(part[1].low)):
        return False  # "said Smith, laughing": no apposition ("organizing director of ..." is one)
    if not 1 <= len(part) <= 10 or not all(_is_word(t) or t.text in ("-", "&") or t.text.isdigit() for t in part):
        return False
    if any(t.low in APPOSITION_STOP or t.low in AUXILIARIES or t.low in SAY_TELL_FORMS for t in part):
        return False
    return not any(t.text.islower() and (_is_form(t.low, "VBD") or _is_form(t.low, "VBZ")) and not is_noun(t.low)
                   and "ADJ" not in _lemmas(t.low) for t in part)


def _tag_boundary(toks: list[Tok], k: int) -> tuple[bool, int | None]:
    """Whether a speech tag at token k follows a quotation (its closing quote), and the index of the punctuation
    that ends what was said (a comma, "?" or "!"); None when the tag does not follow one."""
    if k < 2:
        return False, None
    prev, before = toks[k - 1], toks[k - 2]
    if prev.text == ",":
        if before.text in CLOSING_QUOTES:
            return (True, k - 2) if k >= 3 and toks[k - 3].text not in (",", "?", "!") else (False, None)
        return False, (k - 1 if _is_word(before) or before.text.isdigit() or before.text == ")" else None)
    if prev.text in CLOSING_QUOTES and before.text in (",", "?", "!") and k >= 3 and (
            _is_word(toks[k - 3]) or toks[k - 3].text in (".", "]", ")", "?", "!") or toks[k - 3].text.isdigit()):
        return True, k - 2
    if prev.text in ("?", "!") and _is_word(before):
        return False, k - 1  # a quotation whose marks are lost: "Answer? said Julius."
    return False, None


def _tag_start(toks: list[Tok], k: int) -> int | None:
    """The first token after the nearest comma or closing quote before token k (where a tag's speaker starts)."""
    for b in range(k - 1, 0, -1):
        if toks[b - 1].text == "," or toks[b - 1].text in CLOSING_QUOTES:
            return b
        if not (_is_word(toks[b - 1]) or toks[b - 1].text in (".", "-")):
            return None
    return None


def _invert_tag(text: str, toks: list[Tok]) -> str | None:
    """'"We will win," said Smith.' <-> '"We will win," Smith said.' (see the module docstring)."""
    end = _final_punct(toks)
    if end < 3:
        return None
    tail = text[toks[end - 1].end:]
    # "..., said X." -> "..., X said."
    for k in range(2, end - 1):
        if toks[k].low not in ("said", "says") or not toks[k].text.islower():
            continue
        quoted, boundary = _tag_boundary(toks, k)
        if boundary is None:
            continue
        s = k + 1
        if toks[s].low in NOMINATIVE_PRONOUNS and toks[s].text.islower() or toks[s].text == "I":
            if s + 1 == end:
                return splice(text, [(toks[k].start, toks[s].end, f"{toks[s].text} {toks[k].text}")])
            continue
        e = _speaker_end(toks, s, end, quoted)
        if e is None:
            continue
        if e == end:
            who = text[toks[s].start:toks[e - 1].end]
        elif toks[e].text == "," and _apposition(toks, e + 1, end):
            who = text[toks[s].start:toks[end - 1].end] + ","
        elif e + 1 == end and toks[e].low.endswith("ly") and toks[e].text.islower() \
                and ("ADV" in _lemmas(toks[e].low) or not _lemmas(toks[e].low)):
            # "said Tuppence thoughtfully" -> "Tuppence said thoughtfully"
            return splice(text, [(toks[k].start, toks[e - 1].end,
                                  text[toks[s].start:toks[e - 1].end] + " " + toks[k].text)])
        else:
            continue
        if toks[end - 1].low in NAME_SUFFIX_ABBREVIATIONS | TITLE_ABBREVIATIONS or "." in toks[end - 1].text:
            return None  # "said Gilles Burger Jr.": the final period is also the abbreviation's
        return text[:toks[k].start] + who + " " + toks[k].text + tail
    # "..., X said." -> "..., said X."
    k = end - 1
    if toks[k].low not in ("said", "says") or not toks[k].text.islower() \
            or toks[k - 1].low in NAME_SUFFIX_ABBREVIATIONS:
        return None
    if toks[k - 1].text == ",":  # '"...," Mary Sue Coleman, president of the university, said.'
        c = _tag_start(toks, k - 1)
        if c is None or toks[c - 1].text != "," or not _apposition(toks, c, k - 1):
            return None
        b = _tag_start(toks, c - 1)
        quoted, boundary = _tag_boundary(toks, b) if b is not None else (False, None)
        if not quoted or _speaker_end(toks, b, c - 1, True) != c - 1:
            return None
        who = text[toks[b].start:toks[k - 2].end]
    else:
        b = _tag_start(toks, k)
        if b is None:
            return None
        quoted, boundary = _tag_boundary(toks, b)
        if boundary is None or _speaker_end(toks, b, k, True) != k:
            return None
        if not quoted and not _has_finite_verb(toks[:boundary]):
            return None  # "After the meeting, the company said.": no clause was said
        who = text[toks[b].start:toks[k - 1].end]
    if toks[b].low in NOMINATIVE_PRONOUNS or toks[b].text == "I":
        return None
    return text[:toks[b].start] + toks[k].text + " " + who + tail


def rule_reported(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    """"The company said sales fell." <-> "Sales fell, the company said." (a short subject + said/says); else a
    speech tag after a quotation or reported clause inverted ('"We will win," said Smith.' <-> '... Smith said.')."""
    return _front_reported(text, toks) or _invert_tag(text, toks)


def _front_reported(text: str, toks: list[Tok]) -> str | None:
    end = _final_punct(toks)
    if end <= 0 or "?" in text or "!" in text or '"' in text or "“" in text:
        return None  # "She said we're going to live!" -> "..., she said!": the "!" would end the tag
    # "..., X said." -> "X said ..."
    if end >= 6 and toks[end - 1].low in ("said", "says"):
        for c in range(end - 2, max(end - 7, 1), -1):
            if toks[c].text == ",":
                subject = toks[c + 1:end - 1]
                if not subject or not all(_is_word(s) for s in subject) or len(subject) > 4:
                    return None
                if subject[0].low not in DETERMINERS | {"he", "she", "they", "we", "i", "officials", "police",
                                                         "analysts", "experts", "witnesses", "authorities"} \
                        and not subject[0].text[:1].isupper():
                    return None
                if any(t.text in (",", ";", ":", "(", ")") for t in toks[:c]):
                    return None
                if any(t.low in THIRD_PERSON for t in toks[:c]) and subject[-1].text[:1].isupper() \
                        and subject[0].low not in THIRD_PERSON:
                    return None
                quote = _lower_first_word(text[:toks[c - 1].end])
                if quote is None:
                    return None
                who = text[toks[c + 1].start:toks[end - 1].end]
                if who[:1].islower() and subject[0].low != "i":
                    who = who[:1].upper() + who[1:]
                return who + " " + quote + text[toks[end - 1].end:]
        return None
    # "X said (that) ..." -> "..., X said."
    for k in range(1, min(5, end - 3)):
        if toks[k].low not in ("said", "says") or not toks[k].text.islower():
            continue
        subject = toks[:k]
        if not all(_is_word(s) for s in subject) or subject[-1].low in DETERMINERS:
            return None  # "The said company ...": a participle
        if subject[0].low not in LOWER_FIRST | {"officials", "police", "analysts", "experts", "witnesses",
                                                 "authorities"} and subject[0].text != "I" \
                and not all(s.text[:1].isupper() for s in subject):
            return None
        if subject[0].low in ("it", "there", "this", "that") or any(s.low in AUXILIARIES for s in subject):
            return None
        rest = k + 1
        if toks[rest].low in ("or", "and", "but", "nor"):
            return None  # "I never said or implied you were ...": the verb is coordinated
        if toks[rest].low == "that":
            rest += 1
        if rest >= end or not _is_word(toks[rest]) or toks[rest].low in ("to", "in", "on", "at", "of", "for",
                                                                         "about", "the", "a", "an") and rest == k + 1:
            return None  # "said in a statement": what was said is not a clause
        clause = toks[rest:end]
        if len(clause) < 3 or any(t.text in (",", ";", ":", "(", ")") for t in clause):
            return None
        if not any(t.low in AUXILIARIES or is_verb_form(t.low) for t in clause[1:]):
            return None
        if any(t.low in THIRD_PERSON | {"it", "its"} for t in clause):
            return None  # "The retailer said it came ..." -> "It came ..., the retailer said": "it" before its noun
        what = text[toks[rest].start:toks[end - 1].end]
        what = what[:1].upper() + what[1:]
        who = text[:toks[k].end]
        if subject[0].low in LOWER_FIRST or is_stopword(subject[0].text):
            who = who[:1].lower() + who[1:]
        return what + ", " + who + text[toks[end - 1].end:]
    return None


def _plural_noun_tok(t: Tok) -> bool:
    """A plural noun, or a lower-case word in -s that lemminflect does not know ("hoodies")."""
    lemmas = _lemmas(t.low)
    return t.low in ("people", "men", "women", "children") or (
        t.low.endswith("s") and not t.low.endswith("ss") and t.text.isalpha() and t.text.islower()
        and not is_stopword(t.text) and ("NOUN" in lemmas or not lemmas))


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
    """A caption without a verb, "A man in a red shirt standing on a ladder." -> "... is standing ..."."""
    end = _final_punct(toks)
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
            if any(is_verb_form(x.low) and not x.low.endswith("ing") and "NOUN" not in _lemmas(x.low)
                   and "ADJ" not in _lemmas(x.low) for x in toks[1:k]):
                return Refusal("has_verb_form")
            if any((_is_form(x.low, "VBZ") or _is_form(x.low, "VBD")) and toks[m - 1].low not in DETERMINERS
                   and "ADJ" not in _lemmas(toks[m - 1].low) for m, x in enumerate(toks[:end]) if m > k):
                return Refusal("has_finite_verb")  # "A boy wearing a hat catches a Frisbee": the sentence has its verb
            if any(_is_lower_word(x) and _is_form(x.low, "VB") and "ADJ" not in _lemmas(x.low)
                   and not is_stopword(x.text) and _plural_noun_tok(toks[m - 1])
                   for m, x in enumerate(toks[:end]) if m > k + 1):
                # "Two people wearing hoodies huddle on a doorstep": a plural present after its noun
                return Refusal("plural_present_verb")
            plural = toks[0].low not in ("a", "an", "one", "the") or (
                toks[0].low == "the" and toks[k - 1].low.endswith("s") and "NOUN" in _lemmas(toks[k - 1].low)
                and not toks[k - 1].low.endswith("ss"))
            if toks[0].low == "the" and any(x.low == "of" for x in toks[1:k]):
                return Refusal("of_phrase_subject")
            if t.low in ATTRIBUTE_ING and _later_ing(toks, k, end):
                # "a man wearing a white suit holding a newspaper walking ...": "wearing" describes
                return Refusal("several_ing_verbs")
                # the man, a later -ing verb is what he does
            return splice(text, [(t.start, t.start, ("are " if plural else "is "))])
    return None


GRAMMAR_RULES: dict[str, Rule] = {
    "number_words": rule_number_words, "swap_conjuncts": rule_swap_conjuncts, "front_time": rule_front_time,
    "front_place": rule_front_place, "front_clause": rule_front_clause, "there": rule_there, "wearing": rule_wearing,
    "reported": rule_reported, "add_is": rule_add_is,
}
