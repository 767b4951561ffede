"""Names and titles said another way: standard abbreviations and their full forms (the table `ABBREVIATIONS`), and an
appositive and its name changing places. The rules are `NAME_RULES`. `abbreviation` rewrites every place of the
sentence where an entry applies, so that it keeps one style; a sentence with a place its guard refuses is not
rewritten.
What each rule does, its guards and its golden and refused cases are in `cases/names.json` (the views guide's
table is made from them); the comment at each guard says why it refuses.
"""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.rewrite_rules.syntax import is_finite_verb
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _case_like, _is_form, _is_lower_word, _is_word, _lemmas, is_noun, mostly_capitals,
    splice, token_at,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    ABBREVIATIONS, AUXILIARIES, BARE_NOUN_PREPOSITIONS, CLAUSE_SIGNAL_WORDS, INSTITUTIONS, NAME_BOUNDARY_PREPOSITIONS,
    NAME_TAILS, ORGANISATION_NOUNS, SHORT_FORMS, STATE_NOUNS, TAKES_US, VOWEL_SOUND,
)

# -- abbreviation ---------------------------------------------------------------------------------------------------
_ABBR_BY_TOKEN: dict[str, list[tuple[bool, str, str]]] = {}
for _abbr, _dotted, _full, _kind in ABBREVIATIONS:
    _ABBR_BY_TOKEN.setdefault(_abbr, []).append((_dotted, _full, _kind))


def _final_period(toks: list[Tok], k: int) -> bool:
    """Whether the period at token k is also the sentence's (only closing quotes or brackets after it)."""
    return all(t.text in ("\"", "”", "'", "’", ")") for t in toks[k + 1:])


def _country_ok(toks: list[Tok], i: int, j: int, kind: str) -> bool:
    """A country or organisation abbreviation at token i (its tokens end at j): a noun ("the US", "US orders ...",
    "in US.") or before a word of state or an institution ("US troops", "UN Security Council")."""
    prev = toks[i - 1] if i > 0 else None
    nxt = token_at(toks, j)
    if toks[i].text == "US" and prev is not None and prev.low in TAKES_US:
        return False  # "Let US know": the pronoun
    if prev is not None and prev.text == "(":
        return False  # "the 75 cent (U.S.) mark"
    if nxt is not None and nxt.start == toks[j - 1].end and nxt.text not in (".", ",", "'s", "’s", ":", ";", ")"):
        return False  # "US$1.1 million"
    if nxt is not None and (nxt.text == "," or nxt.text in ("and", "or")) and _modifier_pair(toks, j + 1):
        return False  # "U.S., French presidents", "U.S. and British troops": a coordinated modifier
    if nxt is None or not _is_word(nxt) or nxt.low in ("'s", "’s") or nxt.low in NAME_BOUNDARY_PREPOSITIONS \
            | {"as", "is", "was", "has"}:
        return True
    if nxt.text in NAME_TAILS:
        return False
    nouns = STATE_NOUNS if kind == "country" else ORGANISATION_NOUNS
    if nxt.text in INSTITUTIONS:
        return True
    if nxt.text in nouns:
        after = token_at(toks, j + 1)
        return toks[i].text not in ("UK", "U.K") or after is None or not (
            _is_lower_word(after) and is_noun(after.low))  # "UK aid worker" is a British one
    if prev is not None and prev.low == "the":
        # "the US is", "the UK drugmaker"
        return nxt.text in AUXILIARIES or is_finite_verb(nxt) and not is_noun(nxt.low)
    if nxt.text[:1].isupper() and kind == "organisation":
        return True  # a headline's "EU Set for ...", "UN Syria resolution"
    return _is_lower_word(nxt) and (_is_form(nxt.low, "VBZ") or _is_form(nxt.low, "VBD")) and \
        "NOUN" not in _lemmas(nxt.low)  # a headline's subject: "US orders ...", "UK spends ..."


def _modifier_pair(toks: list[Tok], k: int) -> bool:
    """Whether the words from token k are the second modifier of a coordinated pair and its noun ("French
    presidents", "allied forces"): a second word that is a lower-case noun and no base-form verb ("Russia agree"
    is a subject and its verb)."""
    if k + 1 >= len(toks) or not _is_word(toks[k]):
        return False
    noun = toks[k + 1]
    return _is_lower_word(noun) and is_noun(noun.low) and not _is_form(noun.low, "VB")


def _bare_noun(toks: list[Tok], i: int, j: int) -> bool:
    """Whether the name at tokens i..j-1 is a noun without its article after a preposition ("in US.")."""
    prev = toks[i - 1] if i > 0 else None
    nxt = token_at(toks, j)
    return prev is not None and prev.low in BARE_NOUN_PREPOSITIONS and (
        nxt is None or not _is_word(nxt) or nxt.low in NAME_BOUNDARY_PREPOSITIONS | {"as", "is", "was", "has"})


def _abbreviation_edit(toks: list[Tok], i: int) -> tuple[int, int, str] | None | bool:
    """The edit that writes the abbreviation at token i in full; None when there is none there, False when one is
    there but its guard refuses."""
    t = toks[i]
    entries = _ABBR_BY_TOKEN.get(t.text)
    if not entries:
        return None
    has_period = i + 1 < len(toks) and toks[i + 1].text == "." and toks[i + 1].start == t.end
    prev = toks[i - 1] if i > 0 else None
    if prev is not None and prev.end == t.start and prev.text not in ("(", "\"", "“"):
        return None  # part of a longer token run ("AT&T", "R&D", "US-French")
    for dotted, full, kind in entries:
        if dotted and not has_period:
            continue
        j = i + 2 if dotted else i + 1
        nxt = token_at(toks, j)
        final = dotted and _final_period(toks, i + 1)
        if kind in ("country", "organisation") and not _country_ok(toks, i, j, kind):
            return False
        if kind == "month" and not (nxt is not None and nxt.text.isdigit() and 1 <= int(nxt.text) <= 31
                                    and len(nxt.text) <= 2):
            return None
        if kind == "title":
            if nxt is None or not nxt.text[:1].isupper() or not nxt.text.isalpha() or len(nxt.text) < 2:
                return None  # "knowing Sen." cut off; "Gen. X"
            if prev is not None and prev.text == "." and i >= 2 and toks[i - 2].text not in _ABBR_BY_TOKEN and \
                    toks[i - 2].text[:1].isupper() and len(toks[i - 2].text) <= 5:
                return False  # "Brig. Gen."
        if kind in ("versus", "case"):
            if nxt is None or not (_is_word(nxt) or nxt.text[:1].isdigit()):
                return None
            if kind == "case" and not (prev is not None and prev.text[:1].isupper() and nxt.text[:1].isupper()):
                return None
        if kind == "ampersand":
            return _ampersand_edit(t, prev, nxt)
        end = toks[j - 1].end if not final else t.end  # a final period stays the sentence's
        new = full
        if kind in ("country", "organisation") and _bare_noun(toks, i, j):
            if final:
                return False  # "discussions with U.S." may be a cut-off "U.S. officials"
            new = "the " + full  # "tallest building in US" -> "in the United States"
        if prev is not None and prev.low == "an" and kind in ("country", "organisation"):
            return (prev.start, end, _case_like(prev.text, "a") + " " + new)
        return (t.start, end, new)
    return None


def _ampersand_edit(t: Tok, prev: Tok | None, nxt: Tok | None) -> tuple[int, int, str] | None | bool:
    """The edit that writes the "&" of token t as "and" between lower-case words (as `_abbreviation_edit`)."""
    if prev is None or nxt is None or not _is_lower_word(nxt) or nxt.start != t.end + 1:
        return False if prev is not None and prev.text[:1].isupper() else None
    if prev.text == ",":
        return (prev.end, t.end, " and")
    if not _is_lower_word(prev) or prev.end != t.start - 1:
        return None
    return (t.start, t.end, "and")


def _short_form_edit(toks: list[Tok], i: int) -> tuple[int, int, str] | None | bool:
    """The edit that abbreviates the full name starting at token i; None when there is none, False when refused."""
    if i + 1 >= len(toks):
        return None
    full = toks[i].text + " " + toks[i + 1].text
    if full not in SHORT_FORMS or toks[i + 1].start != toks[i].end + 1:
        return None
    short = SHORT_FORMS[full]
    nxt = token_at(toks, i + 2)
    prev = toks[i - 1] if i > 0 else None
    if nxt is not None and (nxt.low == "of" or nxt.text in NAME_TAILS or nxt.text in ("'", "’")):
        return False  # "United States of America", "United States Steel", "the United States' goal"
    if prev is not None and prev.text[:1].isupper() and prev.low not in ("the", "a", "an") and \
            not (i == 1 or toks[i - 2].text in (".", ",", ":", ";", "\"")):
        return False  # inside a longer name
    if prev is not None and prev.low == "the" and i >= 3 and toks[i - 2].low == "of" and toks[i - 3].text[:1].isupper():
        return False  # "the President of the United States": a title keeps the name in full
    start, end = toks[i].start, toks[i + 1].end
    if short.endswith(".") and nxt is not None and nxt.text == "." and _final_period(toks, i + 2):
        end = nxt.end  # "in the United States." -> "in the U.S."
    if prev is not None and prev.low == "a" and short in VOWEL_SOUND:
        return (prev.start, end, _case_like(prev.text, "an") + " " + short)
    return (start, end, short)


def rule_abbreviation(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if mostly_capitals(toks):
        return Refusal("mostly_capitals")
    long_edits, short_edits = [], []
    for i in range(len(toks)):
        edit = _abbreviation_edit(toks, i)
        if edit is False:
            return None
        if edit is not None:
            long_edits.append(edit)
            continue
        back = _short_form_edit(toks, i)
        if back is False:
            return None
        if back is not None:
            short_edits.append(back)
    if long_edits and short_edits:
        return Refusal("both_styles")  # both styles: the sentence is left as it is
    edits = long_edits or short_edits
    if not edits:
        return None
    out = splice(text, edits)
    return out[:1].upper() + out[1:] if text[:1].isupper() else out


# -- apposition -----------------------------------------------------------------------------------------------------


def _name_end(toks: list[Tok], start: int) -> int | None:
    """End of a name from token `start`: an optional "The" and one to four capitalised words (initials and "Mr."
    allowed) that are no common words when alone."""
    k = start
    if toks[k].text == "The":
        k += 1
    first = k
    while k < len(toks) and k - first < 4:
        t = toks[k]
        if t.text[:1].isupper() and _is_word(t) and not is_stopword(t.text):
            k += 1
            if k < len(toks) and toks[k].text == "." and len(t.text) <= 3:
                k += 1  # "Mr.", "J."
            continue
        break
    if k == first:
        return None
    words = [t for t in toks[first:k] if t.text != "."]
    if first == start and len(words) == 1 and _lemmas(words[0].low):
        return None  # "Sure, ...", "Critics, ...": a common word
    return k


def rule_apposition(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if len(toks) < 6 or mostly_capitals(toks):
        return None
    n_end = _name_end(toks, 0)
    if n_end is None or n_end >= len(toks) or toks[n_end].text != ",":
        return None
    a = n_end + 1
    try:
        c2 = next(k for k in range(a, len(toks)) if toks[k].text in (",", ";", ":", "(", ")", "-", "—", "\"", "“"))
    except StopIteration:
        return None
    if toks[c2].text != "," or c2 + 1 >= len(toks):
        return None
    np = toks[a:c2]
    if not 2 <= len(np) <= 7:
        return Refusal("appositive_length")
    first = np[0]
    if first.low in ("the", "a", "an", "his", "her", "their", "its"):
        if not first.text.islower():
            return None
    elif not (len(np) >= 3 and np[1].text in ("'s", "’s") and first.text[:1].isupper() or
              len(np) >= 3 and first.text[:1].isupper() and first.text.endswith(("'s", "’s"))):
        return Refusal("possessive_name")  # a possessive: "Rowland's legal counsel"
    if any(t.low in CLAUSE_SIGNAL_WORDS for t in np) \
            or any(_is_lower_word(t) and is_finite_verb(t) and not is_noun(t.low) for t in np[1:]):
        return Refusal("clause_in_appositive")
    if not is_noun(np[-1].low) and not np[-1].text[:1].isupper():
        return Refusal("appositive_not_ending_in_noun")  # the appositive ends in its noun
    if not is_finite_verb(toks[c2 + 1]):
        return Refusal("no_verb_after")
    if first.low in ("a", "an") and sum(t.text != "." for t in toks[:n_end]) < 2:
        # "A presidential candidate, Graham, was ...": a lone surname after an indefinite reads oddly
        return Refusal("lone_surname")
    name = text[toks[0].start:toks[n_end - 1].end]
    if name.startswith("The "):
        name = "the" + name[3:]
    appositive = text[first.start:np[-1].end]
    return appositive[:1].upper() + appositive[1:] + ", " + name + text[toks[c2].start:]


NAME_RULES: dict[str, Rule] = {"abbreviation": rule_abbreviation, "apposition": rule_apposition}
