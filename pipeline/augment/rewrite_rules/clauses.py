"""Moving a sentence's opening part to its end (the reverse of the fronting rules in `grammar`): an opening clause or
phrase closed by the sentence's one comma (`_split`) goes after the main clause, which must be a plain statement
that nothing at its end could take the moved part wrongly (`_main_refuses`). The rules are `CLAUSE_RULES`.
What each rule does, its guards and its golden and refused cases are in `cases/clauses.json` (the views guide's
table is made from them); the comment at each guard says why it refuses.
"""

from __future__ import annotations

import re

from bsl_pipeline.pipeline.augment.rewrite_rules.chunker import chunk
from bsl_pipeline.pipeline.augment.rewrite_rules.syntax import is_finite_form, is_noun_like
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _is_form, _is_word, _lemmas, is_ing_verb, is_participle, uncontracted,
    verb_lemmas,
)
from bsl_pipeline.pipeline.lexicon.word_classes import (
    ADVERBIAL_PREPOSITIONS, AFTER_VERBS, AUXILIARIES, BE_FORMS_NOT_M, CHANGE_VERBS, CONJUNCTION_MODIFIERS,
    DANGLING_WORDS, DETERMINERS, DISCOURSE_ALONE, DISCOURSE_OPENERS, DISCOURSE_START, EMBEDDING_WORDS, IF_IDIOMS,
    IMPERATIVE_NEXT, MONTHS, MOVABLE_CLAUSE_CONJUNCTIONS, NEGATIONS, NEGATION_SCOPE, NOMINATIVE_PRONOUNS,
    QUESTION_VERBS, REPORTING_VERBS, SETTING_PREPOSITIONS, THIRD_PERSON_ALL_FORMS, TIME_NOUNS, TIME_ONLY_PREPOSITIONS,
    TIME_PHRASE_WORDS, TIME_UNITS, WEEKDAYS,
)

_MAX_CLAUSE = 14  # words of a moved clause
_MAX_PHRASE = 9  # words of a moved phrase
_MAX_MAIN_FOR_PLACE = 10  # words of a main clause that a place (not a time) may follow: after a longer one, the
# phrase reads as a part of the last noun phrase

# -- the main clause ----------------------------------------------------------------------------------------------


def _main_refuses(toks: list[Tok], start: int, end: int) -> bool:
    """Whether the main clause toks[start:end] could take the moved part wrongly or is no plain statement."""
    main = toks[start:end]
    return _no_plain_statement(main) or _takes_part_wrongly(main)


def _no_plain_statement(main: list[Tok]) -> bool:
    """Whether a main clause is short, a question, an imperative, opens with a discourse word, or is a headline."""
    words = [t for t in main if _is_word(t)]
    if len(words) < 3:
        return True
    first = main[0]
    if not (_is_word(first) or first.text[:1].isdigit() or first.text == "$"):
        return True
    if first.low in DISCOURSE_START or first.low.endswith("ly") and "ADV" in _lemmas(first.low) \
            or first.low.endswith("ly") and first.text.islower() and "NOUN" not in _lemmas(first.low):
        return True
    if first.low in AUXILIARIES or first.low in ("what", "how", "why", "where", "who", "which", "let", "please",
                                                 "don't", "do", "never", "always", "just"):
        return True  # a question or an imperative
    if first.text.islower() and _is_form(first.low, "VB") and first.low not in THIRD_PERSON_ALL_FORMS and (
            "NOUN" not in _lemmas(first.low) or len(main) > 1 and main[1].low in IMPERATIVE_NEXT):
        return True  # an imperative ("call me", "take the road")
    if first.text.islower() and _is_form(first.low, "VB") and first.low not in THIRD_PERSON_ALL_FORMS \
            and len(main) > 1 and not (
            main[1].low in AUXILIARIES or _is_form(main[1].low, "VBZ") or _is_form(main[1].low, "VBD")):
        return True  # an imperative whose verb may be a noun ("go for one"); "water floods the road" is a subject
    long_words = [w for w in words[1:] if len(w.text) > 3]
    if len(long_words) >= 2 and all(w.text[:1].isupper() for w in long_words):
        return True  # a headline in title case
    return False


def _takes_part_wrongly(main: list[Tok]) -> bool:
    """Whether something at the end of a main clause could take the moved part: an embedded clause, an infinitive,
    an -ing verb, a coordinated verb, an ellipsis or a second verb."""
    for k, t in enumerate(main):
        nxt = main[k + 1] if k + 1 < len(main) else None
        if t.low == "as" and (k + 2 < len(main) and main[k + 2].low == "as" or k >= 2 and main[k - 2].low == "as"):
            continue  # "as low as"
        if t.low == "than" and nxt is not None and (nxt.text[:1].isdigit() or nxt.text == "$" or nxt.low in (
                "a", "an", "half", "one", "two", "three", "four", "five", "ten", "twice")):
            continue  # "more than $7 million"
        if t.low in EMBEDDING_WORDS or t.low in REPORTING_VERBS:
            return True
        if k > 0 and uncontracted(t) in NOMINATIVE_PRONOUNS:
            return True  # a second clause ("... the firm knew they would grow")
        if t.low == "to" and nxt is not None and nxt.text.islower() and _is_form(nxt.low, "VB"):
            return True  # a to-infinitive ("refused to block ... on Tuesday")
        if is_ing_verb(t.low) and k > 0 and not _nominal_ing(main, k):
            return True  # "... spent hours investigating X": the moved part would attach to the -ing verb
        if t.low in ("and", "or") and (
                nxt is not None and nxt.text.islower() and "VERB" in _lemmas(nxt.low) and k + 2 < len(main)
                and (main[k + 2].low in DETERMINERS or main[k + 2].low in THIRD_PERSON_ALL_FORMS)
                or any(u.low in AUXILIARIES or u.low in NOMINATIVE_PRONOUNS or _is_word(u) and (
                    _is_form(u.low, "VBD") or _is_form(u.low, "VBZ")) and "NOUN" not in _lemmas(u.low)
                    and "ADJ" not in _lemmas(u.low) for u in main[k + 1:])):
            return True  # coordinated verb phrases or clauses: the moved part would belong to the last one only
    last = main[-1]
    if last.low in AUXILIARIES or last.low in ("to", "not", "so", "too", "either", "also") or last.low.endswith(
            "n't"):
        return True  # an ellipsis ("kids aren't likely to.")
    if last.low in DANGLING_WORDS:
        return True  # a cut sentence ("... an assignment of")
    if _verb_groups(main) > 1:
        return True  # a reduced relative or second verb ("... ordered all flags flown at half-staff")
    return False


def _verb_groups(main: list[Tok]) -> int:
    """How many runs of verbs (auxiliaries, finite verbs and participles that are no nouns or adjectives, with the
    adverbs between them) the clause has."""
    groups, inside = 0, False
    for t in main:
        base = uncontracted(t)
        contracted = t.low != base and t.low.endswith(("n't", "'ll", "'d", "'ve", "'re", "'m"))
        verb = base in AUXILIARIES or base == "being" or contracted or (
            _is_word(t) and t.text.islower() and "NOUN" not in _lemmas(t.low) and "ADJ" not in _lemmas(t.low)
            and any(_is_form(t.low, tag) for tag in ("VBD", "VBN", "VBZ")))
        if verb:
            groups += not inside
            inside = True
        elif not (inside and (t.low in NEGATIONS or t.low.endswith("ly") or t.low in (
                "also", "still", "again", "always", "never", "already", "just", "even", "only", "often"))):
            inside = False
    return groups


def _nominal_ing(main: list[Tok], k: int) -> bool:
    """Whether the -ing word main[k] is a progressive, a noun or an adjective (not a verb of its own that a moved
    part could attach to): after a form of "be", a determiner or a possessive, as a subject before an auxiliary
    ("bounty hunting is"), a noun without an object ("a form of kidnapping."), or a noun/adjective after an
    adjective, adverb or "and" ("a development and marketing deal", "the least appealing")."""
    prev, t = main[k - 1], main[k]
    if prev.low in BE_FORMS_NOT_M or prev.low in DETERMINERS or prev.low.endswith("'s"):
        return True
    if k + 1 < len(main) and main[k + 1].low in AUXILIARIES:
        return True
    lemmas = _lemmas(t.low)
    if not ("NOUN" in lemmas or "ADJ" in lemmas):
        return False
    if "NOUN" in lemmas and (k + 1 == len(main) or main[k + 1].low in DANGLING_WORDS - DETERMINERS):
        return True  # "a form of kidnapping.": no object follows
    return prev.low in ("and", "or", "most", "least", "more", "less", "very") or (
        "ADJ" in _lemmas(prev.low) and "NOUN" not in _lemmas(prev.low))


def _pronoun_refuses(toks: list[Tok], moved: range, main: range) -> bool:
    """Whether the main clause has a third-person pronoun and the moved part a noun it may refer to."""
    demonstrative = toks[main.start].low in ("this", "that", "these", "those", "such") and main.start + 1 < len(
        toks) and (toks[main.start + 1].low in AUXILIARIES or _verb_like(toks[main.start + 1]))
    if not demonstrative and not any(uncontracted(toks[i]) in THIRD_PERSON_ALL_FORMS for i in main):
        return False
    for i in moved:
        t = toks[i]
        if not _is_word(t) or i == moved.start or t.low in TIME_PHRASE_WORDS:
            continue
        if is_noun_like(t):
            return True
    return False


def _join(text: str, toks: list[Tok], c: int, end: int, main_start: int, comma: bool) -> str:
    main = text[toks[main_start].start:toks[end - 1].end]
    main = main[:1].upper() + main[1:]
    moved = text[toks[0].start:toks[c - 1].end]
    if toks[0].text != "I":
        moved = moved[:1].lower() + moved[1:]
    return main + (", " if comma else " ") + moved + text[toks[end - 1].end:]


def _verb_like(t: Tok) -> bool:
    base = uncontracted(t)
    if base in AUXILIARIES or t.low != base and base in NOMINATIVE_PRONOUNS | {"you", "it", "that", "there"}:
        return True  # an auxiliary, "don't", "you're", "it's"
    return _is_word(t) and is_finite_form(t.low)


def _has_verb(body: list[Tok], strict: bool) -> bool:
    """Whether a clause has a finite verb; `strict`: one that is no noun, or follows a subject pronoun ("After
    their savage battles" has none)."""
    for k, t in enumerate(body):
        if k == 0 or not _verb_like(t):
            continue
        if not strict or uncontracted(t) in AUXILIARIES or t.low != uncontracted(t) or "NOUN" not in _lemmas(t.low) \
                or body[k - 1].low in NOMINATIVE_PRONOUNS | {"you", "it"}:
            return True
    return False


def _comma_at_end(conj: tuple[str, ...], head: str, body: list[Tok]) -> bool | None:
    """Whether the clause `conj` + `body` keeps a comma before it at the end; None when it is no clause (a subject
    and a verb, or a subjectless -ing or participle clause: "Although a small city-state, ..." has no verb)."""
    lead = body[0].low
    if is_ing_verb(lead) and "NOUN" not in _lemmas(lead):
        return None if head in ("if", "unless", "although", "though", "whereas", "because", "since", "until") \
            else False
    if is_participle(lead) and head in ("if", "when", "once", "unless", "until", "whenever"):
        return False
    if len(body) >= 2 and _has_verb(body, strict=head in ("after", "before", "since", "until")):
        if head == "while":  # "while X was ...ing" is a time
            return not any(t.low in BE_FORMS_NOT_M and k + 1 < len(body) and is_ing_verb(body[k + 1].low)
                           for k, t in enumerate(body))
        return MOVABLE_CLAUSE_CONJUNCTIONS[conj]
    return None


def rule_back_clause(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    split = chunk(text, toks).opening_part
    if split is None:
        return None
    c, end = split
    words = [t.low for t in toks[:3]]
    conj = next((k for k in MOVABLE_CLAUSE_CONJUNCTIONS if tuple(words[:len(k)]) == k), None)
    if conj is None or not toks[0].text[:1].isupper():
        return None
    body = toks[len(conj):c]
    if not body or len([t for t in body if _is_word(t) or t.text[:1].isdigit()]) + len(conj) > _MAX_CLAUSE:
        return Refusal("clause_too_long")
    head = conj[0] if len(conj) == 1 else conj[-1]
    lead = body[0].low
    if head == "if" and lead in IF_IDIOMS or lead == "of":
        return Refusal("phrase_not_clause")  # "If anything, ...", "Because of the storm, ..." (a phrase: back_phrase)
    if any(t.low in EMBEDDING_WORDS and t.low not in ("that", "which", "who", "whom", "whose", "than") for t in body):
        return Refusal("second_subordinate_clause")  # a second subordinate clause inside
    comma_at_end = _comma_at_end(conj, head, body)
    if comma_at_end is None:
        return None
    main_start = c + 1
    if head == "if" and toks[main_start].low == "then":
        main_start += 1
    if _main_refuses(toks, main_start, end):
        return Refusal("main_clause_unfit")
    main = range(main_start, end)
    if head in NEGATION_SCOPE and not comma_at_end and any(toks[i].low in NEGATIONS or toks[i].low.endswith(
            "n't") for i in main):
        return Refusal("negation_scope")  # "He didn't go because ...": "not" would take the clause in its scope
    last = toks[end - 1].low
    time_head = head in ("when", "whenever", "after", "before", "since", "until", "while", "once")
    if not comma_at_end and (time_head and last in TIME_NOUNS or last in CONJUNCTION_MODIFIERS or last in QUESTION_VERBS
                             or head == "after" and last in AFTER_VERBS or last in ("tell", "ask", "see", "care",
                                                                                    "mind", "matter", "wait")):
        # "the day when ...", "long before ...", "asked if ...": the clause would attach there
        return Refusal("clause_attaches_to_word_before")
    if _pronoun_refuses(toks, range(c), main):
        return Refusal("pronoun_before_its_noun")
    return _join(text, toks, c, end, main_start, comma_at_end)


def _time_phrase(words: list[str]) -> bool:
    """Whether the opening words (lower case, without the comma) are a time phrase without a preposition."""
    n = len(words)
    if n == 1:
        return words[0] in ("yesterday", "today", "tonight", "earlier", "later")
    if words[0] in ("last", "next", "this", "each", "every") and n == 2:
        return words[1] in TIME_UNITS or words[1] in WEEKDAYS
    if words[0] in ("earlier", "later") and n <= 3:
        return all(w in WEEKDAYS or w in ("this", "that", "in", "on", "the") or w in TIME_UNITS or w in MONTHS
                   for w in words[1:]) and words[-1] not in ("this", "that", "in", "on", "the")
    if n in (2, 3) and words[-1] in ("ago", "later", "earlier") and (
            words[0] in ("a", "an", "one", "two", "three", "four", "five", "six", "ten", "several", "many",
                         "some", "few") or words[0].isdigit() or n == 2) and words[-2].rstrip("s") in TIME_UNITS | {
            "day", "hour", "minute"}:
        return True
    if n == 3 and words[0] == "the" and words[1] in ("next", "following", "previous") and (
            words[2] in TIME_UNITS or words[2] == "day"):
        return True
    return False


def _has_time(toks: list[Tok], idx: range) -> bool:
    for i in idx:
        t = toks[i]
        if t.low in WEEKDAYS or t.low in MONTHS - {"may", "mar"} and t.text[:1].isupper() \
                or t.low in ("yesterday", "today", "tonight", "ago", "now", "currently", "recently", "later",
                             "earlier", "soon", "then", "already", "still") \
                or re.fullmatch(r"(1[89]|20)\d\d", t.low) \
                or t.low.rstrip("s") in TIME_UNITS | {"day", "hour", "minute"} and i > 0 and (
                    toks[i - 1].low in ("last", "next", "this", "that", "each", "every", "the", "a", "per", "past",
                                        "few", "several", "many", "coming", "recent")
                    or toks[i - 1].text[:1].isdigit() or toks[i - 1].low in ("two", "three", "four", "five", "six",
                                                                           "seven", "eight", "nine", "ten")):
            return True
    return False


def _ends_in_change_verb(toks: list[Tok], end: int) -> bool:
    last = next((toks[i] for i in range(end - 1, -1, -1) if _is_word(toks[i])), None)
    return last is not None and any(lemma in CHANGE_VERBS for lemma in verb_lemmas(last.low))


def _prepositional_phrase(toks: list[Tok], c: int, words: list[str]) -> bool | Refusal | None:
    """Whether the opening part toks[:c] (`words`, lower case), a preposition and its noun phrase, is a time; a
    Refusal when it is no plain phrase or one that would attach elsewhere at the end; None without a preposition."""
    if words[:2] == ["because", "of"] or words[:3] == ["in", "spite", "of"]:
        start = 2 if words[0] == "because" else 3
    elif words[0] in ADVERBIAL_PREPOSITIONS:
        start = 1
    else:
        return None
    rest = toks[start:c]
    if not rest or not all(_is_word(t) or t.text[:1].isdigit() or t.text in ("'", "’", "-", ".", "$", "%", "/")
                           for t in rest):
        return Refusal("not_a_plain_phrase")
    if any(is_ing_verb(t.low) and "NOUN" not in _lemmas(t.low) and t.low not in TIME_PHRASE_WORDS for t in rest):
        # "In turning down the offer, ...", "In a space looking out over the sea, ...": a clause
        return Refusal("ing_clause")
    if any(_verb_like(t) and "NOUN" not in _lemmas(t.low) and "ADJ" not in _lemmas(t.low)
           and not t.text[:1].isupper() for t in rest):
        return Refusal("verb_in_phrase")  # a verb: the phrase goes on as a clause
    if any(t.low in AUXILIARIES or t.low in NOMINATIVE_PRONOUNS or t.low in EMBEDDING_WORDS - {"than"}
           for t in rest):
        return Refusal("clause_in_phrase")
    last = rest[-1]
    if not (is_noun_like(last) or last.text[:1].isdigit() or last.low in TIME_PHRASE_WORDS
            or last.low in ("here", "there", "home", "abroad", "night")):
        return Refusal("phrase_not_ending_in_noun")  # "In recent, ...": the phrase must end in its noun
    is_time = words[0] in ("during", "since", "until", "after", "before", "throughout", "over", "from", "by",
                           "for") and _has_time(toks, range(start, c)) or any(
        toks[i].low in TIME_PHRASE_WORDS or re.fullmatch(r"(1[89]|20)\d\d", toks[i].low) for i in range(start, c))
    if words[0] in TIME_ONLY_PREPOSITIONS and not is_time:
        # "From here, ...", "For Kathy, ...": at the end they attach to the last noun
        return Refusal("attaches_to_last_noun")
    return is_time or words[0] in ("after", "before", "since", "until", "during")


def rule_back_phrase(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    split = chunk(text, toks).opening_part
    if split is None:
        return None
    c, end = split
    phrase = toks[:c]
    words = [t.low for t in phrase]
    if not toks[0].text[:1].isupper() or len(words) > _MAX_PHRASE:
        return Refusal("phrase_too_long")
    lowered = " ".join(words)
    if lowered in DISCOURSE_ALONE or any(lowered == d or lowered.startswith(d + " ") for d in DISCOURSE_OPENERS):
        return Refusal("discourse_opener")
    is_time = _time_phrase(words)
    if not is_time:
        is_time = _prepositional_phrase(toks, c, words)
        if not isinstance(is_time, bool):
            return is_time
    if _main_refuses(toks, c + 1, end):
        return Refusal("main_clause_unfit")
    main = range(c + 1, end)
    if is_time and _has_time(toks, main):
        return Refusal("two_times")  # "Last year, ... on Monday.": two times at the end
    if not is_time and words[0] in SETTING_PREPOSITIONS:
        if sum(_is_word(toks[i]) or toks[i].text[:1].isdigit() for i in main) > _MAX_MAIN_FOR_PLACE:
            # "... sacred spots to three major religions at the far end of David Street."
            return Refusal("main_clause_too_long_for_place")
        if any(toks[i].low == words[0] for i in range(max(c + 1, end - 5), end)):
            # "... a participle in all your examples in traditional grammar."
            return Refusal("same_preposition_near_end")
    if words[0] in ("despite", "because") and any(toks[i].low in NEGATIONS or toks[i].low.endswith("n't")
                                                  for i in main):
        return Refusal("negation_scope")  # "He didn't go because of ...": scope of "not"
    if not is_time and words[0] == "on" and _ends_in_change_verb(toks, end):
        return Refusal("cause_of_change")  # "On trade terms, the exchange fell" -> "... fell on trade terms": a cause
    if _pronoun_refuses(toks, range(c), main):
        return Refusal("pronoun_before_its_noun")
    return _join(text, toks, c, end, c + 1, False)


CLAUSE_RULES: dict[str, Rule] = {"back_clause": rule_back_clause, "back_phrase": rule_back_phrase}
