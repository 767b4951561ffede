"""The shared shallow chunker of the rewrite rules: one sentence's tokens with the features the rules read, computed
once per sentence. `chunk(text, toks)` returns the sentence's `Chunks`; it keeps the last sentence's, so every rule
called on one sentence (the augmenter and `compare_rules` call them all in turn on the same tokens) shares one
analysis, and each feature is computed when a rule first reads it.

The features:

* where the sentence's body ends: `end` (the index of its final "." or "!", the token count without one, -1 when it
  ends otherwise: a question, a quotation);
* finite verbs and auxiliaries: `finite_verbs` (`syntax.is_finite_verb`, word by word), `is_finite(tok, next_low)`
  (a stricter test: no verb that may be a noun or adjective, no participle before "by" or the end), `finite_after(k,
  end, pronoun)` (the verb of a subject that ends before token k), `verb_follows(k)` (an auxiliary or an unambiguous
  finite verb at token k, no reduced relative);
* noun phrases: `noun_phrase_before(end)` and `noun_phrase_after(start)` (a determiner and one to three lower-case
  content words), `content_end(start, limit)` (where a run of content words ends; `is_content`: a lower-case word
  that is no function word);
* the subject: `clause_start(s, end)` (a subject directly followed by its finite verb opens a clause at token s) and
  `subject_end(start, sentence_start, gap)` (a short subject: a pronoun, a name or a determiner's noun phrase, whose
  verb follows `gap` tokens after it);
* clause boundaries: `clause_start` above, `opening_part` (the comma that closes an opening clause or phrase when
  the sentence is that part, one comma and a main clause), `balanced(rng)` (the quotation marks and brackets of a
  part close inside it);
* quotes: `quoted` (the character spans of the phrases quoted inside the sentence, direct speech excluded) and
  `in_quote(tok)`.

Where two families read a feature differently, the variant has its own name (`is_finite` against `finite_verbs`,
`subject_end` against `clause_start`); tests/pipeline/augment/test_rewrite_chunker.py checks each on its own.
"""

from __future__ import annotations

import re
from functools import cached_property

from bsl_pipeline.pipeline.augment.rewrite_rules.syntax import is_finite_form, is_finite_verb
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Tok, _final_punct, _is_form, _is_lower_word, _is_word, _lemmas, is_noun, is_participle, is_verb_form,
    tokenize, uncontracted,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    AUXILIARIES, DANGLING_WORDS, DEMONSTRATIVES, DETERMINERS, DOUBLE_QUOTES, EMBEDDING_WORDS, HUMAN_SUBJECT_PRONOUNS,
    NAME_BOUNDARY_PREPOSITIONS, NEGATIONS, OPEN_BRACKETS, ORDINALS, PERIOD_ABBREVIATIONS, PERSONAL_SUBJECTS,
    PRONOUN_DETERMINERS, SPLIT_DEMONSTRATIVES, SPLIT_DETERMINERS, SUBJECT_ADVERBS, SUBJECT_DETS, THIRD_PERSON_ALL_FORMS,
)

_QUOTE = re.compile(r'"|“|”|``|\'\'')


def is_content(t: Tok) -> bool:
    """A lower-case word that is no function word."""
    return _is_lower_word(t) and not is_stopword(t.text)


class Chunks:
    """One sentence's tokens (`toks`, from `text.tokenize`) and its shallow features (see the module docstring)."""

    def __init__(self, text: str, toks: list[Tok]) -> None:
        self.text = text
        self.toks = toks

    # -- the sentence's end and its quotes ------------------------------------------------------------------------
    @cached_property
    def end(self) -> int:
        return _final_punct(self.toks)

    @cached_property
    def quoted(self) -> tuple[tuple[int, int], ...]:
        """The character spans of the phrases quoted inside the sentence ("...", “...”, ``...''). A straight quote
        opens at the start or after a space or bracket and closes elsewhere; an unclosed quotation runs to the end.
        Direct speech is no such phrase: a quotation that opens the sentence or follows a comma or colon, or a
        closing quote without its opening one."""
        text = self.text
        spans, opened = [], None
        for m in _QUOTE.finditer(text):
            q, at = m.group(), m.start()
            opening = q in ("“", "``") or q == '"' and (at == 0 or text[at - 1] in " \t([{—–-")
            if opening and opened is None:
                opened = at
            elif not opening:
                if opened is not None and not self._speech(opened):
                    spans.append((opened, m.end()))
                opened = None
        if opened is not None and not self._speech(opened):
            spans.append((opened, len(text)))
        return tuple(spans)

    def _speech(self, opened: int) -> bool:
        """Whether the quotation opening at `opened` is direct speech: at the sentence's start or after "," or ":"."""
        before = self.text[:opened].rstrip()
        return not before or before.endswith((",", ":"))

    def in_quote(self, t: Tok) -> bool:
        return any(start <= t.start < end for start, end in self.quoted)

    def balanced(self, rng: range) -> bool:
        """Whether the quotation marks and brackets of toks[rng] close inside it."""
        toks = self.toks
        if sum(toks[i].text in DOUBLE_QUOTES for i in rng) % 2:
            return False
        depth = 0
        for i in rng:
            if toks[i].text in OPEN_BRACKETS:
                depth += 1
            elif toks[i].text in OPEN_BRACKETS.values():
                depth -= 1
                if depth < 0:
                    return False
        return depth == 0

    @cached_property
    def opening_part(self) -> tuple[int, int] | None:
        """(index of the comma that closes the opening part, end of the main clause) when the sentence is an opening
        part, one comma and a main clause with plain punctuation only."""
        toks, end = self.toks, self.end
        if end <= 0 or any(t.text in ("?", "\"", "“", "”") for t in toks):
            return None
        commas = [i for i, t in enumerate(toks[:end]) if t.text == ","]
        if len(commas) != 1:
            return None
        c = commas[0]
        if c < 1 or end - c - 1 < 3 or toks[c].start != toks[c - 1].end or toks[c].end == toks[c + 1].start:
            return None  # "a law,medicine or engineering student": no comma that closes a part
        if not all(self._plain_token(i) for i in range(end) if i != c):
            return None
        last = toks[end - 1]
        if end < len(toks) and toks[end].text == "." and toks[end].start == last.end and (
                "." in last.text and any(ch.isalpha() for ch in last.text) or last.low in PERIOD_ABBREVIATIONS):
            return None  # "... to Command O.K.": the abbreviation's period is the sentence's; moved, it is lost
        return c, end

    def _plain_token(self, i: int) -> bool:
        """Whether token i is plain inside a clause: a word or number, "'", "-", "%", "$", "/", "&", or the full stop
        of an abbreviation ("Mr.", "U.S.")."""
        toks = self.toks
        t = toks[i]
        if _is_word(t) or t.text[:1].isdigit() or t.text in ("'", "’", "-", "%", "$", "/", "&"):
            return True
        if t.text == "." and i < self.end - 1 and i > 0 and toks[i - 1].end == t.start:
            prev = toks[i - 1]
            return "." in prev.text or prev.low in PERIOD_ABBREVIATIONS or (len(prev.text) == 1 and prev.text.isupper())
        return False

    # -- finite verbs ---------------------------------------------------------------------------------------------
    @cached_property
    def finite_verbs(self) -> frozenset[int]:
        """The indices of the finite verbs and auxiliaries, word by word (`syntax.is_finite_verb`)."""
        return frozenset(i for i, t in enumerate(self.toks) if is_finite_verb(t))

    @staticmethod
    def is_finite(t: Tok, next_low: str | None = None) -> bool:
        """An auxiliary (also contracted: "he'll", "won't") or a finite verb that is no noun ("went", "says"; not
        "falls"); a past form that may be a participle only when `next_low` (the next word, "" at the end, None when
        not looked at) is not "by", the end, punctuation or a conjunction ("dirt accompanied by ...")."""
        base = uncontracted(t)
        if base in AUXILIARIES or t.low.endswith("n't") and base in ("ca", "wo", "ai", "sha") or base in ("ca", "wo"):
            return True
        if not (_is_word(t) and t.text.islower()):
            return False
        lemmas = _lemmas(t.low)
        if "VERB" not in lemmas:
            return False
        if _is_form(t.low, "VBD"):
            return "NOUN" not in lemmas and ("ADJ" not in lemmas or not _is_form(t.low, "VBN")) and not (
                _is_form(t.low, "VBN") and next_low in ("by", "", ",", ".", "!", ";", "and", "or"))
        return (_is_form(t.low, "VBZ") or _is_form(t.low, "VBP")) and "NOUN" not in lemmas and "ADJ" not in lemmas

    def finite_after(self, k: int, end: int, pronoun: bool) -> bool:
        """Whether toks[k] is the finite verb of a subject that ends before it: an auxiliary or a finite verb that is
        no noun; after a pronoun any finite form ("it goes"); after a noun, a form that may be a noun when an object,
        preposition or "to" follows and no other verb comes later ("the Marathas spread to Orissa")."""
        toks = self.toks
        t = toks[k]
        if self.is_finite(t, toks[k + 1].low if k + 1 < end else ""):
            return True
        if not (_is_word(t) and t.text.islower() and is_finite_form(t.low)):
            return False
        if pronoun:
            return True
        prev, nxt = toks[k - 1], toks[k + 1] if k + 1 < end else None
        return nxt is not None and (nxt.low in DETERMINERS or nxt.low in THIRD_PERSON_ALL_FORMS) and (
            prev.text[:1].isupper() or prev.low.endswith("s") and prev.low not in DETERMINERS) and not any(
            self.is_finite(u) for u in toks[k + 1:end])

    def verb_follows(self, k: int) -> bool:
        """An auxiliary or an unambiguous finite verb at token k: no noun ("the associated | cost is"), no
        participle that a preposition follows ("a site established for ...": a reduced relative)."""
        toks = self.toks
        if k >= len(toks):
            return False
        t = toks[k]
        if t.text in AUXILIARIES:
            return True
        if k not in self.finite_verbs or is_noun(t.low):
            return False
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        return not (_is_form(t.low, "VBN") and nxt is not None and (
            nxt.low in NAME_BOUNDARY_PREPOSITIONS | {"as", "under", "after"} or nxt.text in AUXILIARIES
            or k + 1 in self.finite_verbs))

    # -- noun phrases ---------------------------------------------------------------------------------------------
    @cached_property
    def content(self) -> tuple[bool, ...]:
        """For each token, whether it is a content word (`is_content`)."""
        return tuple(is_content(t) for t in self.toks)

    def content_end(self, start: int, limit: int) -> int:
        """The end (exclusive) of the run of at most `limit` content words from token `start`."""
        j = start
        while j < len(self.toks) and j - start < limit and self.content[j]:
            j += 1
        return j

    def _np_word(self, j: int) -> bool:
        t = self.toks[j]
        return self.content[j] and t.low not in ORDINALS and not t.low.endswith("ing")

    def noun_phrase_before(self, end: int) -> int | None:
        """Start of a noun phrase "determiner (1-3 lower-case content words)" ending just before token `end`."""
        toks = self.toks
        j, words = end - 1, 0
        while j >= 0 and words < 3 and self._np_word(j):
            j -= 1
            words += 1
        if words and j >= 0 and toks[j].low in DETERMINERS and toks[j].low not in DEMONSTRATIVES:
            return j
        return None

    def noun_phrase_after(self, start: int) -> int | None:
        """End (exclusive) of a noun phrase "determiner (1-3 lower-case content words)" from token `start`, followed
        by a function word or punctuation."""
        toks = self.toks
        if start >= len(toks) or toks[start].low not in DETERMINERS or toks[start].low in DEMONSTRATIVES:
            return None
        j = start + 1
        while j < len(toks) and j - start <= 3 and self._np_word(j):
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

    # -- the subject ----------------------------------------------------------------------------------------------
    def subject_end(self, start: int, sentence_start: bool, gap: int) -> int | None:
        """End of a short subject from token `start` whose verb (`verb_follows`) comes `gap` tokens after it: a
        pronoun, a name of one to three capitalised words, or a determiner + one to three words ending in a noun."""
        toks = self.toks
        if start >= len(toks):
            return None
        t = toks[start]
        if t.low in HUMAN_SUBJECT_PRONOUNS and (t.text.islower() or t.text == "I" or sentence_start):
            return start + 1 if self.verb_follows(start + 1 + gap) else None
        if t.low in SUBJECT_DETS and (t.text.islower() or sentence_start):
            return self._determiner_subject_end(start, gap)
        k = start
        while k < len(toks) and k - start < 3 and toks[k].text[:1].isupper() and _is_word(toks[k]) \
                and not is_stopword(toks[k].text) and not toks[k].text.isupper():
            k += 1
        if k == start or k >= len(toks):
            return None
        if sentence_start and k == start + 1 and _lemmas(toks[start].low):
            return None  # "Critics, however, argue": a common noun, or a name
        return k if self.verb_follows(k + gap) else None

    def _determiner_subject_end(self, start: int, gap: int) -> int | None:
        toks = self.toks
        for k in range(start + 1, min(start + 4, len(toks))):
            w = toks[k]
            if not _is_word(w) or (is_stopword(w.text) and w.low not in ("other", "same", "first", "last")):
                return None
            if w.text.islower() and k in self.finite_verbs and not is_noun(w.low):
                if k == start + 1 and _is_form(w.low, "VBN"):
                    continue  # "the associated cost is": a participle before its noun
                return None
            head_ok = is_noun(w.low) or w.text[:1].isupper() and not is_stopword(w.text)
            if head_ok and self.verb_follows(k + 1 + gap):
                return k + 1
        return None

    def _bare_subject(self, t: Tok) -> bool:
        """Whether t may open a subject without a determiner ("retired lawyers", "houses"; not "used", "tried")."""
        lemmas = _lemmas(t.low)
        return t.text.islower() and _is_word(t) and not self.is_finite(t) and not (
            is_verb_form(t.low) and "NOUN" not in lemmas) and ("NOUN" in lemmas or "ADJ" in lemmas) \
            and "ADV" not in lemmas and t.low not in EMBEDDING_WORDS and t.low not in DANGLING_WORDS \
            and t.low not in NEGATIONS

    def clause_start(self, s: int, end: int) -> bool:
        """Whether toks[s:end] opens with a subject directly followed by a finite verb: a subject pronoun, "there",
        a demonstrative, a name, a determiner and up to four words, or up to three nouns and adjectives; one adverb
        may stand between ("she also said")."""
        toks = self.toks
        first = toks[s]
        base = uncontracted(first)
        if first.low != base and base in PERSONAL_SUBJECTS | {"there", "that"}:
            return s + 1 < end  # "he's", "they'll", "there's", "that's"
        pronoun = base in PERSONAL_SUBJECTS or base == "there" or first.text == "I"
        k = s + 1
        if not (pronoun or base in SPLIT_DEMONSTRATIVES):
            k = self._subject_words_end(s, end)
            if k is None:
                return False
        if k < end and (toks[k].low in SUBJECT_ADVERBS or toks[k].low.endswith("ly") and "ADV" in _lemmas(
                toks[k].low) and toks[k].text.islower()):
            k += 1
        return k < end and self.finite_after(k, end, pronoun) and not (
            _is_form(toks[k].low, "VBN") and k + 1 < end and toks[k + 1].low == "by")

    def _subject_words_end(self, s: int, end: int) -> int | None:
        """Where a subject of words (a determiner's phrase, a name, bare nouns) from token s ends, or None."""
        toks = self.toks
        first, base, k = toks[s], uncontracted(toks[s]), s + 1
        if base in SPLIT_DETERMINERS and first.text.islower():
            limit = 5
        elif first.text[:1].isupper() and _is_word(first):
            while k < end and (toks[k].text[:1].isupper() and _is_word(toks[k]) or toks[k].low in ("'s", "’s")):
                k += 1
            limit = k - s + 3
        elif self._bare_subject(first):
            limit = 3  # a bare subject ("retired lawyers pay nothing")
        else:
            return None
        while k < end and k - s < limit and _is_word(toks[k]) and (
                not self.is_finite(toks[k]) or k == s + 1 and limit == 5 and is_participle(toks[k].low)) \
                and toks[k].low not in EMBEDDING_WORDS and toks[k].low not in PERSONAL_SUBJECTS \
                and not (limit == 3 and (toks[k].low in DETERMINERS or toks[k].low in THIRD_PERSON_ALL_FORMS
                                         or toks[k].low in DANGLING_WORDS)) \
                and not (k > s + 1 and self.finite_after(k, end, False)):
            k += 1
        if k == s + 1 and base in SPLIT_DETERMINERS and base not in PRONOUN_DETERMINERS:
            return None  # "the" right before a verb: no noun
        return k


_last: list[Chunks] = []


def chunk(text: str, toks: list[Tok] | None = None) -> Chunks:
    """The sentence's `Chunks`: the last one made when it is for the same token list, else a new one (from `toks`,
    or from `tokenize(text)`)."""
    last = _last[0] if _last else None
    if last is not None and toks is not None and last.toks is toks:
        return last
    made = Chunks(text, toks if toks is not None else tokenize(text))
    _last[:] = [made]
    return made
