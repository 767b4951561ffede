"""Two parts of a sentence said in the other order: the two conjuncts of "and", and a reported clause and the speaker
said after it. The rules are `ORDER_RULES`.
What each rule does, its guards and its golden and refused cases are in `cases/order.json` (the views guide's
table is made from them); the comment at each guard says why it refuses.
"""

from __future__ import annotations

import re

from bsl_pipeline.pipeline.augment.rewrite_rules.chunker import chunk
from bsl_pipeline.pipeline.augment.rewrite_rules.syntax import has_finite_verb
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _is_form, _is_word, _lemmas, _lower_first_word, is_noun, is_verb_form, splice,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    APPOSITION_STOP, AUXILIARIES, BARE_SPEAKERS, BEFORE_NAMES, CITING_VERBS, CLOSING_QUOTES, DETERMINERS,
    FIXED_NAME_PAIRS, LOWER_FIRST, NAME_COMPANIONS, NAME_SUFFIX_ABBREVIATIONS, NOMINATIVE_PRONOUNS, NOT_SPEAKERS,
    SAY_TELL_FORMS, SPEAKER_DETERMINERS, SPEAKER_HEADS, THIRD_PERSON, TITLE_ABBREVIATIONS,
)


def rule_swap_conjuncts(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    chunks, refused = chunk(text, toks), None
    for i, t in enumerate(toks):
        if t.low != "and" or not t.text.islower():
            continue
        a = chunks.noun_phrase_before(i)
        b = chunks.noun_phrase_after(i + 1)
        if a is None or b is None:
            continue
        if a > 0 and not (toks[a - 1].low in AUXILIARIES or is_verb_form(toks[a - 1].low)
                          and not is_stopword(toks[a - 1].text)):
            # "a man in [a black shirt] and [an elderly woman]": the conjuncts may be larger phrases
            refused = refused or Refusal("conjuncts_may_be_larger")
            continue
        if a > 0 and b < len(toks) and (toks[b].low in AUXILIARIES or _is_word(toks[b]) and is_verb_form(toks[b].low)):
            refused = refused or Refusal("two_clauses")  # "is photographing a camel and a woman is trying"
            continue
        if b < len(toks) and toks[b].low in ("respectively", ",", "and"):
            continue
        if any("NOUN" not in _lemmas(toks[x].low) or "ADJ" in _lemmas(toks[x].low) for x in (i - 1, b - 1)):
            continue  # "a black and a brown dog": each conjunct must end in a noun
        if {toks[a].low, toks[i + 1].low} & {"his", "her", "their", "its", "my", "our", "your"}:
            refused = refused or Refusal("possessive_conjunct")  # "a mother and her daughter": "her" follows its noun
            continue
        if b < len(toks) and not (toks[b].low in AUXILIARIES or is_verb_form(toks[b].low)
                                  or toks[b].text in (".", "!", ",") and a == 0 or toks[b].text in (".", "!")):
            refused = refused or Refusal("phrase_follows")  # "a man and a woman in blue": it may be the second's
            continue
        first = text[toks[a].start:toks[i - 1].end]
        second = text[toks[i + 1].start:toks[b - 1].end]
        if first.lower() == second.lower():
            continue
        if a == 0:
            first = _lower_first_word(first) or first
            second = second[:1].upper() + second[1:]
        edits = [(toks[a].start, toks[i - 1].end, second), (toks[i + 1].start, toks[b - 1].end, first)]
        return splice(text, edits)
    names = _swap_names(text, toks)
    return refused if names is None else names


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
                and _cap(toks[j + 2]) and toks[j + 2].text[:1].isupper():
            n, j = n + 2, j + 2
            continue
        if not (_cap(toks[j]) and toks[j].text[:1].isupper()):  # a name's word (`_cap` without "al-Sadr")
            break
        n, words, j = n + 1, words + 1, j + step
    return n if 1 <= words <= 3 else 0


def _swap_names(text: str, toks: list[Tok]) -> str | Refusal | None:
    """"Obama and Romney met." -> "Romney and Obama met."."""
    low = text.lower()
    words = [t for t in toks[1:] if _is_word(t) and not is_stopword(t.low)]
    headline = sum(t.text[:1].isupper() for t in words) > 2 and sum(t.text.islower() for t in words) < len(words) / 2
    refused = None
    for i, t in enumerate(toks):
        if t.text != "and" or i == 0 or i + 1 >= len(toks):
            continue
        n1, n2 = _names_from(toks, i - 1, -1), _names_from(toks, i + 1, 1)
        if not 1 <= n1 <= 3 or not 1 <= n2 <= 3:
            continue
        if "respectively" in low or "in that order" in low:
            return Refusal("order_carries_meaning")
        if headline:
            return Refusal("title_case_headline")  # a phrase may be a title
        a, b = i - n1, i + 1 + n2
        pair_refused = _name_pair_refused(toks, a, i, b)
        if pair_refused is not None:
            refused = refused or pair_refused
            continue
        one = text[toks[a].start:toks[i - 1].end]
        two = text[toks[i + 1].start:toks[b - 1].end]
        if one.lower() == two.lower():
            continue
        return splice(text, [(toks[a].start, toks[i - 1].end, two), (toks[i + 1].start, toks[b - 1].end, one)])
    return refused


def _name_pair_refused(toks: list[Tok], a: int, i: int, b: int) -> Refusal | None:
    """Why the names toks[a:i] and toks[i + 1:b] around "and" may not change places, or None."""
    first, second = toks[a:i], toks[i + 1:b]
    if a > 0 and (toks[a - 1].low in BEFORE_NAMES or toks[a - 1].text[:1].isupper() and not (
            a == 1 and is_stopword(toks[0].low)) or toks[a - 1].text in
                  ("-", "'", "’", "\"", "“")) and not (a == 1 and toks[0].text in ("\"", "“")):
        return Refusal("larger_name_or_list")  # "Bank of America and ...", "between X and Y", a list
    if a > 0 and toks[a - 1].text.islower() and toks[a - 1].low in _lemmas(toks[a - 1].low).get("NOUN", ()) \
            and not is_stopword(toks[a - 1].low) and not is_verb_form(toks[a - 1].low) \
            and not _is_form(toks[a - 1].low, "VB"):
        return Refusal("apposition")  # "the publisher Pearson Alhambra and DA": in apposition to a singular noun
    if b < len(toks) and (toks[b].low in ("'s", "’s", "'", "’", "of", "&", "and", ",", "(", "-")
                          or toks[b].low.endswith("'s") or toks[b].low.endswith("’s")) \
            or any(x.low.endswith("'s") or x.low.endswith("’s") for x in first + second):
        return Refusal("possessive_or_larger_name")  # "Marks and Spencer's", "Trade and Industry of", a list
    if b < len(toks) and _is_word(toks[b]) and not (
            toks[b].text.islower() and (toks[b].low in AUXILIARIES or is_verb_form(toks[b].low)
                                        and not is_noun(toks[b].low) or toks[b].low in ("have", "say", "met"))):
        return Refusal("phrase_follows")  # what follows may belong to the second name only
    if f"{first[-1].low} {second[-1].low}" in FIXED_NAME_PAIRS \
            or f"{first[0].low} {second[0].low}" in FIXED_NAME_PAIRS \
            or second[-1].low in NAME_COMPANIONS or first[-1].low in NAME_COMPANIONS:
        return Refusal("fixed_pair")
    if any(all(_lemmas(x.low) or is_stopword(x.low) for x in part) and len(part) == 1 for part in (first, second)) \
            or a == 0 and _lemmas(first[0].low):
        return Refusal("may_be_common_noun")  # "Police and Fire", "Smith and ...": a word that may be no name
    if len(first) == len(second) == 1 and b < len(toks) and toks[b].low in CITING_VERBS:
        return Refusal("cited_authors")  # "Robinson and Godbey say ...": authors cited in their own order
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


def _invert_tag(text: str, toks: list[Tok]) -> str | Refusal | None:
    """'"We will win," said Smith.' <-> '"We will win," Smith said.'."""
    end = chunk(text, toks).end
    if end < 3:
        return None
    tail = text[toks[end - 1].end:]
    for k in range(2, end - 1):
        if toks[k].low in ("said", "says") and toks[k].text.islower():
            inverted = _speaker_before_said(text, toks, k, end, tail)
            if inverted is not None:
                return inverted
    return _said_before_speaker(text, toks, end, tail)


def _speaker_before_said(text: str, toks: list[Tok], k: int, end: int, tail: str) -> str | Refusal | None:
    """"..., said X." (toks[k] is "said") -> "..., X said."; None where the rule looks on."""
    quoted, boundary = _tag_boundary(toks, k)
    if boundary is None:
        return None
    s = k + 1
    if toks[s].low in NOMINATIVE_PRONOUNS and toks[s].text.islower() or toks[s].text == "I":
        if s + 1 == end:
            return splice(text, [(toks[k].start, toks[s].end, f"{toks[s].text} {toks[k].text}")])
        return None
    e = _speaker_end(toks, s, end, quoted)
    if e is None:
        return None
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
        return None
    if toks[end - 1].low in NAME_SUFFIX_ABBREVIATIONS | TITLE_ABBREVIATIONS or "." in toks[end - 1].text:
        return Refusal("abbreviation_at_end")  # "said Gilles Burger Jr.": the final period is also the abbreviation's
    return text[:toks[k].start] + who + " " + toks[k].text + tail


def _said_before_speaker(text: str, toks: list[Tok], end: int, tail: str) -> str | Refusal | None:
    """"..., X said." -> "..., said X."."""
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
        if not quoted and not has_finite_verb(toks[:boundary]):
            return Refusal("no_clause_said")  # "After the meeting, the company said."
        who = text[toks[b].start:toks[k - 1].end]
    if toks[b].low in NOMINATIVE_PRONOUNS or toks[b].text == "I":
        return Refusal("pronoun_speaker")  # "he said" -> "said he" is archaic
    return text[:toks[b].start] + toks[k].text + " " + who + tail


def rule_reported(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    fronted = _front_reported(text, toks)
    if isinstance(fronted, str):
        return fronted
    inverted = _invert_tag(text, toks)
    return fronted if inverted is None else inverted


def _front_reported(text: str, toks: list[Tok]) -> str | Refusal | None:
    end = chunk(text, toks).end
    if end <= 0 or "?" in text or "!" in text or '"' in text or "“" in text:
        return None  # "She said we're going to live!" -> "..., she said!": the "!" would end the tag
    if end >= 6 and toks[end - 1].low in ("said", "says"):
        return _speaker_first(text, toks, end)
    for k in range(1, min(5, end - 3)):
        if toks[k].low in ("said", "says") and toks[k].text.islower():
            return _speaker_last(text, toks, k, end)
    return None


def _speaker_first(text: str, toks: list[Tok], end: int) -> str | Refusal | None:
    """"..., X said." -> "X said ..."."""
    for c in range(end - 2, max(end - 7, 1), -1):
        if toks[c].text != ",":
            continue
        subject = toks[c + 1:end - 1]
        if not subject or not all(_is_word(s) for s in subject) or len(subject) > 4 or subject[0].low not in \
                DETERMINERS | {"he", "she", "they", "we", "i", "officials", "police", "analysts", "experts",
                               "witnesses", "authorities"} and not subject[0].text[:1].isupper():
            return Refusal("speaker_unfit")
        if any(t.text in (",", ";", ":", "(", ")") for t in toks[:c]):
            return Refusal("punctuation_in_clause")
        if any(t.low in THIRD_PERSON for t in toks[:c]) and subject[-1].text[:1].isupper() \
                and subject[0].low not in THIRD_PERSON:
            return Refusal("pronoun_would_mean_speaker")  # "he ..., Smith said" -> "Smith said he ..."
        quote = _lower_first_word(text[:toks[c - 1].end])
        if quote is None:
            return Refusal("first_word_may_be_name")
        who = text[toks[c + 1].start:toks[end - 1].end]
        if who[:1].islower() and subject[0].low != "i":
            who = who[:1].upper() + who[1:]
        return who + " " + quote + text[toks[end - 1].end:]
    return None


def _speaker_last(text: str, toks: list[Tok], k: int, end: int) -> str | Refusal | None:
    """"X said (that) ..." (toks[k] is "said") -> "..., X said."."""
    subject = toks[:k]
    if subject[-1].low in DETERMINERS and all(_is_word(s) for s in subject):
        return Refusal("participle")  # "The said company ...": a participle
    if not all(_is_word(s) for s in subject) or subject[0].low not in LOWER_FIRST | {
            "officials", "police", "analysts", "experts", "witnesses", "authorities"} and subject[0].text != "I" \
            and not all(s.text[:1].isupper() for s in subject) \
            or subject[0].low in ("it", "there", "this", "that") or any(s.low in AUXILIARIES for s in subject):
        return Refusal("speaker_unfit")
    rest = k + 1
    if toks[rest].low in ("or", "and", "but", "nor"):
        return Refusal("coordinated_verb")  # "I never said or implied you were ...": the verb is coordinated
    if toks[rest].low == "that":
        rest += 1
    if rest >= end or not _is_word(toks[rest]) or toks[rest].low in ("to", "in", "on", "at", "of", "for",
                                                                     "about", "the", "a", "an") and rest == k + 1:
        return Refusal("no_clause_said")  # "said in a statement": what was said is not a clause
    clause = toks[rest:end]
    if len(clause) < 3 or any(t.text in (",", ";", ":", "(", ")") for t in clause) \
            or not any(t.low in AUXILIARIES or is_verb_form(t.low) for t in clause[1:]):
        return Refusal("no_clause_said")
    if any(t.low in THIRD_PERSON | {"it", "its"} for t in clause):
        return Refusal("pronoun_before_its_noun")  # "The retailer said it came ..." -> "It came ..., the retailer said"
    what = text[toks[rest].start:toks[end - 1].end]
    what = what[:1].upper() + what[1:]
    who = text[:toks[k].end]
    if subject[0].low in LOWER_FIRST or is_stopword(subject[0].text):
        who = who[:1].lower() + who[1:]
    return what + ", " + who + text[toks[end - 1].end:]


ORDER_RULES: dict[str, Rule] = {"swap_conjuncts": rule_swap_conjuncts, "reported": rule_reported}
