"""The future said another way: a headline's "to" as "will", and "will" as "going to". The rules are
`FUTURE_RULES`.
What each rule does, its guards and its golden and refused cases are in `cases/future.json` (the views guide's
table is made from them); the comment at each guard says why it refuses.
"""

from __future__ import annotations

import re

from bsl_pipeline.pipeline.augment.rewrite_rules.chunker import chunk
from bsl_pipeline.pipeline.augment.rewrite_rules.syntax import is_finite_clause_verb, is_plural_noun, verb_classes
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _is_form, _is_lower_word, _is_word, _lemmas, mostly_capitals, splice,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    CLAUSE_OPENERS, FUTURE_ADVERBS, GOING_PLACES, HABITUAL, HEADLINE_FUNCTION, NATIONALITY_ENDINGS, NO_VERB_AFTER_TO,
    NUMBER_WORDS, PLURAL_DETERMINERS, PLURAL_ONLY, PREPOSITIONS, PRONOUN_BE, ROUNDUP_NOUNS, SINGULAR_DETERMINERS,
    SUBJECT_DETERMINERS, TO_NOUNS, WISH_WORDS,
)


# -- headline_will ----------------------------------------------------------------------------------------------------
def _headline_subject_ok(toks: list[Tok], k: int) -> bool:
    """Whether tokens 0..k-1 are a noun phrase or name that can be the subject of a headline's "to"."""
    lists = verb_classes()
    for j, t in enumerate(toks[:k]):
        low = t.low
        if t.text in ("'s", "'", "’s") or low in HEADLINE_FUNCTION and (t.text.islower() or j == 0):
            continue
        if t.text == "." and j > 0 and toks[j - 1].end == t.start and len(toks[j - 1].text) <= 2:
            continue  # "U.S."
        if not (_is_word(t) or t.text[:1].isdigit()):
            return False
        base = re.sub(r"['’]s$", "", low)
        lemmas = _lemmas(base)
        if t.text.islower() and not lemmas or is_stopword(t.text) and not t.text.isupper():
            return False  # "How to Train", "all set to"
        if base in lists["catenative"] and ("VERB" in lemmas or not lemmas):
            return False  # "Plans to", "Struggles To", "set to"
        if "VERB" in lemmas and "NOUN" not in lemmas and "ADJ" not in lemmas:
            return False  # "Commit to", "Allowed To"
        if base.endswith("ed") and (_is_form(base, "VBD") or _is_form(base, "VBN")):
            return False  # "instructed to stay", "hospitalised"
        if t.text[:1].isdigit() and j > 0 or low in NUMBER_WORDS:
            return False  # "Messi scores 4 to send", "10 Things to Know": no subject of a "to" future
        if j > 0 and "VERB" in lemmas and (_is_form(base, "VB") or _is_form(base, "VBZ")):
            before = re.sub(r"['’]s$", "", toks[j - 1].low)
            if is_plural_noun(before) or _is_form(base, "VBZ") and not _is_adjective(toks[j - 1]) \
                    and toks[j - 1].low not in HEADLINE_FUNCTION and toks[j - 1].text not in ("'s", "’s"):
                return False  # "Syrian forces move to retake", "Messi scores": the verb of the subject before it
            if j < k - 1 and _is_form(base, "VB") and not (t.text[:1].isupper() and any(
                    _is_word(x) and x.text.islower() and x.low not in HEADLINE_FUNCTION for x in toks[:k])):
                return False  # "Brazilians throng streets to greet pope": a verb with its object before "to" (a
                # capitalised word among lower-case ones is a name: "Osama Bin Laden movie to be filmed")
    last = toks[k - 1]
    lemmas = _lemmas(re.sub(r"['’]s$", "", last.low))
    if lemmas and "NOUN" not in lemmas:
        return False  # "likely to", "unable to", "yet to"
    if any(lemma in TO_NOUNS for lemma in lemmas.get("NOUN", ())) or last.text in ("'s", "'", ".", "’s"):
        return False  # "Challenges to Restore", "Road to Ruin": a noun with its own "to"
    if is_plural_noun(last.low) and any(lemma in ROUNDUP_NOUNS for lemma in lemmas.get("NOUN", ())):
        return False  # "Stocks to Watch", "Places to visit": the things one is to watch
    return True


def _is_adjective(tok: Tok) -> bool:
    """An adjective before a noun, or a nationality ("Syrian", "Somali", "Chinese") that lemminflect does not know."""
    lemmas = _lemmas(tok.low)
    if lemmas:
        return "ADJ" in lemmas
    return tok.text[:1].isupper() and tok.low.endswith(NATIONALITY_ENDINGS)


def rule_headline_will(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if len(toks) < 4 or chunk(text, toks).end != len(toks) or not (toks[0].text[:1].isupper()
                                                                or toks[0].text[:1].isdigit()):
        return None
    if any(t.text in (",", ":", ";", '"', "“", "”", "(", ")", "!", "?", "|") and not (
            t.text == "," and 0 < i < len(toks) - 1 and toks[i - 1].text.isdigit() and toks[i + 1].text.isdigit()
            and toks[i - 1].end == t.start == toks[i + 1].start - 1) for i, t in enumerate(toks)):
        # a headline of two parts ("Britain's Prince Philip hospitalised, to miss jubilee"); "1,000"
        return Refusal("two_part_headline")
    for k in range(1, len(toks) - 1):
        t = toks[k]
        if t.low != "to":
            continue
        verb = toks[k + 1]
        if not _is_word(verb) or not _is_form(verb.low, "VB") or verb.text.isupper():
            return None
        if k + 2 == len(toks) and "NOUN" in _lemmas(verb.low) or verb.low in NO_VERB_AFTER_TO:
            return Refusal("no_verb_after_to")  # "Road to Change": "to" + a noun; "falls to near 3-year low": no verb
        if toks[-1].low in PREPOSITIONS | HEADLINE_FUNCTION:
            return Refusal("cut_title")  # a cut title ("... Public Confidence in")
        if not _headline_subject_ok(toks, k):
            return Refusal("subject_unfit")
        title = verb.text[:1].isupper()
        if title and any(_is_lower_word(x) and len(x.text) > 3 for x in toks):
            # a capitalised word in a lower-case headline is a name, not "to Hear"
            return Refusal("name_in_lower_case_headline")
        return splice(text, [(t.start, t.end, "Will" if title else "will")])
    return None


# -- will_going -------------------------------------------------------------------------------------------------------
CONTRACTED_BE = re.compile(r"(i|you|he|she|it|we|they|that|this)['’](m|re|s)")


def _future_count(toks: list[Tok]) -> int:
    """How many future markers the sentence has ("will", "'ll", "won't", "shall", "going to")."""
    lows = [t.low for t in toks]
    return sum(low in ("will", "won't", "shall") or low.endswith("'ll") for low in lows) + sum(
        a == "going" and b == "to" for a, b in zip(lows, lows[1:]))


def _noun_number(tok: Tok) -> str | None:
    """ "s" for a singular noun, "p" for a plural one, None when unknown or both ("sheep", "series")."""
    if not _is_lower_word(tok):
        return None
    if tok.low in PLURAL_ONLY:
        return "p"
    nouns = _lemmas(tok.low).get("NOUN", ())
    if not nouns:
        return None
    plural, singular = is_plural_noun(tok.low), tok.low in nouns
    if plural == singular:
        return None
    return "p" if plural else "s"


def _subject_number(toks: list[Tok], w: int) -> str | None:
    """The number ("s", "p", or "1" for "I") of the simple subject ending directly before token w ("will"): a
    pronoun, a name of one to three capitalised words, or a determiner + one or two words whose last is its noun,
    that starts a clause; None for any other subject."""
    verbs = verb_classes()
    for start in range(w - 1, max(w - 4, -1), -1):
        before = toks[start - 1] if start > 0 else None
        if before is not None and not (before.text in CLAUSE_OPENERS or before.text.islower() and (
                before.low in verbs["say"] or before.low in verbs["object"])):
            continue
        span = toks[start:w]
        first, head = span[0], span[-1]
        lead = first.text.islower() or before is None or before.text in ("\"", "“", "(")
        if len(span) == 1 and first.low in PRONOUN_BE and (lead or first.text == "I"):
            return "1" if first.low == "i" else ("s" if PRONOUN_BE[first.low] == "is" else "p")
        if all(t.text[:1].isupper() and not t.text.isupper() and t.text.isalpha() and not is_stopword(t.text)
               for t in span) and not (before is None and _lemmas(first.low)):
            return None if head.low.endswith("s") else "s"  # a name ("Microsoft", "Aung San Suu Kyi"); not
            # "Consumers" (a capitalised common noun) nor a name that may be plural ("the Lakers")
        if first.low in SUBJECT_DETERMINERS and lead and 2 <= len(span) <= 3:
            mods = span[1:-1]
            if any(not (_is_lower_word(t) or re.fullmatch(r"[A-Za-z-]+['’]s", t.text)) or is_stopword(t.text)
                   or is_finite_clause_verb(t) and not _noun_number(t) for t in mods):
                return None
            if any(t.low in ("and", "or", "of") for t in span):
                return None
            number = _noun_number(head) if _is_lower_word(head) and not is_stopword(head.text) else None
            if number is None or is_finite_clause_verb(head) and "NOUN" not in _lemmas(head.low):
                return None
            if first.low in SINGULAR_DETERMINERS and number != "s" or first.low in PLURAL_DETERMINERS and \
                    number != "p":
                return None  # "all the ..." or a mass noun after "many": the determiner and the noun disagree
            return number
        return None
    return None


def _sentence_refused(toks: list[Tok]) -> Refusal | None:
    """Why a sentence with a future marker is no plain statement with one: a question, a headline (no final
    punctuation after a capital), capitals, a second marker, a habitual or conditional word."""
    last = [t for t in toks if t.text not in ("\"", "”", "'", "’", ")")]
    if not last or any(t.text == "?" for t in toks):
        return Refusal("question")
    if last[-1].text not in (".", "!") and (toks[0].text[:1].isupper() or not toks[0].text[:1].isalpha()) \
            or mostly_capitals(toks):
        return Refusal("headline_or_capitals")  # lower-case transcribed speech without punctuation stays
    if _future_count(toks) != 1:
        return Refusal("two_future_markers")  # "the will of the people will prevail": the clauses would not match
    if any(t.low in HABITUAL or t.low in ("if", "unless", "whether") for t in toks):
        return Refusal("habitual_or_condition")
    return None


def _will_to_going(text: str, toks: list[Tok]) -> str | Refusal | None:
    for w, t in enumerate(toks):
        if t.text != "will" or w == 0 or w + 1 >= len(toks):
            continue
        v = w + 1
        while v < len(toks) and toks[v].low in FUTURE_ADVERBS and v - w <= 2:
            v += 1
        if v >= len(toks) or not _is_lower_word(toks[v]) or not _is_form(toks[v].low, "VB"):
            return None
        verb = toks[v]
        after = toks[v + 1] if v + 1 < len(toks) else None
        if verb.low == "have" and after is not None and _is_form(after.low, "VBN") and after.low != "to":
            return Refusal("future_perfect")  # "will have finished"
        if verb.low in ("go", "be") and after is not None and after.low == "going":
            return Refusal("will_be_going")
        number = _subject_number(toks, w)
        if number is None:
            return Refusal("subject_number_unknown")
        if any(x.low in WISH_WORDS for x in toks[:w]):
            return Refusal("wish")  # "We hope all parties will continue"
        if any(x.low.split("'")[0] in ("you", "your", "yours", "yourself") for x in toks):
            return Refusal("generic_you")  # a guide's generic "you will see ...": no forecast
        if verb.low == "be" and after is not None and after.low == toks[w - 1].low:
            return Refusal("fixed_phrase")  # "boys will be boys"
        be = {"1": "am", "s": "is", "p": "are"}[number]
        adverbs = text[toks[w + 1].start:toks[v - 1].end] + " " if v > w + 1 else ""
        return splice(text, [(t.start, verb.start, be + " " + adverbs + "going to ")])
    return None


def _going_to_will(text: str, toks: list[Tok]) -> str | Refusal | None:
    for g in range(1, len(toks) - 2):
        if toks[g].text != "going" or toks[g + 1].text != "to":
            continue
        verb = toks[g + 2]
        after = toks[g + 3] if g + 3 < len(toks) else None
        if not _is_lower_word(verb) or not _is_form(verb.low, "VB") or verb.low in GOING_PLACES \
                or "NOUN" in _lemmas(verb.low) and (after is None or not _is_word(after) or after.low in PREPOSITIONS):
            return Refusal("place_or_noun")  # "going to the store", "going to work on it", "going to town."
        a = g - 1
        adverbs = []
        while a > 0 and toks[a].low in FUTURE_ADVERBS and toks[a].text.islower():
            adverbs.insert(0, toks[a])
            a -= 1
        aux = toks[a]
        if aux.text in ("is", "are", "am"):
            start = aux.start
        else:
            m = CONTRACTED_BE.fullmatch(aux.low)
            if m is None:
                return Refusal("not_present_be")  # "was going to" (no future), "isn't going to"
            start = aux.start + len(m.group(1))
        middle = text[adverbs[0].start:adverbs[-1].end] + " " if adverbs else ""
        new = ("" if aux.text in ("is", "are", "am") else " ") + "will " + middle
        return splice(text, [(start, verb.start, new)])
    return None


def rule_will_going(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if len(toks) < 4 or _future_count(toks) == 0:
        return None
    refused = _sentence_refused(toks)
    if refused is not None:
        return refused
    going = _will_to_going(text, toks)
    if isinstance(going, str):
        return going
    will = _going_to_will(text, toks)
    return going if will is None else will


FUTURE_RULES: dict[str, Rule] = {"headline_will": rule_headline_will, "will_going": rule_will_going}
