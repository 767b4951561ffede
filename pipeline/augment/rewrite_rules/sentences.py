"""One sentence said as two: two independent clauses joined by a conjunction or a semicolon become two sentences. The
rules are `SENTENCE_RULES`; the second part must open a clause (`Chunks.clause_start`).
What each rule does, its guards and its golden and refused cases are in `cases/sentences.json` (the views guide's
table is made from them); the comment at each guard says why it refuses.
"""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.rewrite_rules.chunker import Chunks, chunk
from bsl_pipeline.pipeline.augment.rewrite_rules.syntax import is_noun_like
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _is_form, _is_word, _lemmas, is_ing_verb, is_participle, uncontracted,
)
from bsl_pipeline.pipeline.lexicon.word_classes import (
    CONTENT_NOUNS, DANGLING_WORDS, DETERMINERS, DISCOURSE_START, DOUBLE_QUOTES, PERSONAL_SUBJECTS, REPORTED_OBJECT,
    REPORTING_VERBS, SCOPING_CONJUNCTIONS, SPLIT_CONJUNCTIONS, SPLIT_DETERMINERS, SPLIT_OPENERS, THIRD_PERSON_ALL_FORMS,
    TIME_PHRASE_WORDS,
)


# -- split_clauses ------------------------------------------------------------------------------------------------
_MIN_FIRST = 4  # words of the first sentence


_MIN_SECOND = 3  # words of the second sentence


def _number_comma(toks: list[Tok], k: int) -> bool:
    """Whether the comma toks[k] is inside a number ("395,000")."""
    return 0 < k < len(toks) - 1 and toks[k - 1].text[-1:].isdigit() and toks[k + 1].text[:1].isdigit() \
        and toks[k - 1].end == toks[k].start and toks[k].end == toks[k + 1].start


def _first_refuses(chunks: Chunks, c: int) -> bool:
    """Whether toks[:c] is no plain independent clause the second part may stand apart from."""
    toks = chunks.toks
    first = toks[0]
    words = [t for t in toks[:c] if _is_word(t) or t.text[:1].isdigit()]
    if len(words) < _MIN_FIRST:
        return True
    if first.low in SPLIT_OPENERS or first.low in DISCOURSE_START - {"and", "but", "so"} \
            or first.low.endswith("ly") and "ADV" in _lemmas(first.low) or is_ing_verb(first.low) \
            or first.low.endswith("ed") and is_participle(first.low):
        return True  # a subordinate clause, a fronted phrase or adverb that scopes over both ("If ...", "In 2003 ...")
    if first.low in ("and", "but", "so") and len(toks) > 1 and (
            toks[1].low in SPLIT_OPENERS or toks[1].text == ","):
        return True
    if not first.text.islower() and _is_form(first.low, "VB") and first.low not in THIRD_PERSON_ALL_FORMS \
            and "NOUN" not in _lemmas(first.low) and first.low not in SPLIT_DETERMINERS:
        return True  # an imperative ("Take the first left, and you'll see it."): a condition
    if any(t.text in (":", "-", "–", "—") or t.text in DOUBLE_QUOTES for t in toks[:c]):
        return True  # a colon, dash or quotation whose scope may go on past the split
    for k in range(c):
        if toks[k].text in (",", ";") and not _number_comma(toks, k) and k + 1 < c and chunks.clause_start(k + 1 + (
                toks[k + 1].low in SPLIT_CONJUNCTIONS | {"or", "yet"}), c):
            return True  # a fronted phrase ("The next morning, they ...") or a list of clauses ("A did X, B did Y")
    last_comma = max((k for k in range(c) if toks[k].text == "," and not _number_comma(toks, k)), default=None)
    if last_comma is not None and not any(chunks.is_finite(toks[k], toks[k + 1].low)
                                          for k in range(last_comma + 1, c)):
        return True  # the split's ", and" closes a list ("information, ideas, and lessons learned ...")
    verbs = [k for k in range(c) if chunks.is_finite(toks[k]) or k > 0 and chunks.finite_after(
        k, c, uncontracted(toks[k - 1]) in PERSONAL_SUBJECTS) and toks[k - 1].low not in DETERMINERS]
    if not verbs:
        return True  # no finite verb ("One more step, and you're dead."; "John, Mary, and the boys went home.")
    subject = toks[:verbs[0]]
    if any(k > 0 and uncontracted(t) in PERSONAL_SUBJECTS for k, t in enumerate(subject)) or any(
            t.low in TIME_PHRASE_WORDS and k + 1 < len(subject) and (subject[k + 1].low in DETERMINERS or subject[
                k + 1].text[:1].isupper()) for k, t in enumerate(subject)):
        return True  # a fronted time without a comma ("The next morning they ate ..."): it scopes over both
    for k in range(c):
        t, nxt = toks[k], toks[k + 1] if k + 1 < c else None
        if t.low in REPORTING_VERBS and nxt is not None and nxt.low not in REPORTED_OBJECT:
            return True  # "He said he went home, and ...": the second clause may be reported too
        if k > 0 and t.low in SCOPING_CONJUNCTIONS and (t.low == "when" or chunks.clause_start(k + 1, c)):
            return True  # "... came of age when X led the party, and Y ...": the second clause may be inside it
        if k > 0 and t.text in ("It", "He", "She", "We", "They", "You") and toks[k - 1].text not in (".", "!"):
            return True  # "the rough equivalent of It isn't what you do; it's ...": a saying without quotes
        if t.low == "whether" or t.low == "that" and k > 0 and (
                not is_noun_like(toks[k - 1]) or toks[k - 1].low in CONTENT_NOUNS):
            return True  # "It is clear that ...": the second clause may belong to it too
    if toks[c - 1].text == "." or toks[c - 1].low in DANGLING_WORDS:
        return True  # "... the U.S., and": the period would double
    return False


def rule_split_clauses(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    chunks = chunk(text, toks)
    end = chunks.end
    if end <= 0 or end == len(toks) or any(t.text in ("?",) for t in toks):
        # a question, a sentence ending in a quotation, or a headline without a final stop
        return Refusal("question_quotation_or_headline")
    if any(t.text in ("'", "‘", "’") and not (k > 0 and toks[k - 1].end == t.start and toks[k - 1].low[-1:] == "s")
           for k, t in enumerate(toks)):
        return Refusal("single_quotation_mark")  # a single quotation mark: a quotation that may go on across the split
    if sum(t.text == ";" for t in toks) > 1:
        return Refusal("list_of_clauses")  # a list of clauses
    for c in range(1, end - 1):
        t = toks[c]
        if t.text == ";":
            s = c + 1
        elif t.text == "," and toks[c + 1].low in SPLIT_CONJUNCTIONS:
            s = c + 2
        else:
            continue
        if s >= end or end - s < _MIN_SECOND:
            continue
        if not chunks.balanced(range(0, c)) or not chunks.balanced(range(s, end)):
            continue  # a quotation or bracket across the split
        if _first_refuses(chunks, c):
            continue
        conj = toks[c + 1].low if t.text == "," else ";"
        if conj == "so" and toks[s].low in ("that", "much", "far", "too", "do", "does", "did", "is", "was", "are",
                                            "were", "will", "would", "can", "could", "have", "has"):
            continue  # "so that" (purpose), "so far", "so did she"
        if not chunks.clause_start(s, end):
            continue  # "and stayed there", "and so did she", "and neither ...": no clause of its own
        second = toks[s:end]
        if any(second[k].text == "," and any(u.low in REPORTING_VERBS for u in second[k + 1:k + 4])
               for k in range(max(0, len(second) - 5), len(second))):
            continue  # "..., but it was an animal bone, authorities said.": the source may cover both clauses
        if any(u.low in ("too", "either") for u in second[-2:]) and sum(_is_word(u) for u in second) <= 4:
            continue  # "and she did too": an ellipsis that leans on the first clause
        if sum(_is_word(u) or u.text[:1].isdigit() for u in second) < _MIN_SECOND:
            continue
        if second[-1].low in DANGLING_WORDS:
            continue  # "... of": a cut sentence
        rest = text[toks[c + 1].start if conj in ("but", "so") else toks[s].start:]
        return text[:toks[c - 1].end] + ". " + rest[:1].upper() + rest[1:]
    return None


SENTENCE_RULES: dict[str, Rule] = {"split_clauses": rule_split_clauses}
