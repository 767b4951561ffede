"""What the rewrite rules share: the tokenizer, splicing edits into the text, word classes from lemminflect, the
word lists, moving a final phrase to the front, and a rule's answer from its tries (`first_rewrite`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Protocol

from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import AUXILIARIES, LOWER_FIRST


class RuleSettings(Protocol):
    """The settings a rule may read (the augmenter's config)."""

    max_number: int


# -- tokens ---------------------------------------------------------------------------------------------------------
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+|[-.][A-Za-z0-9]+)*|\S")


@dataclass
class Tok:
    text: str
    start: int
    end: int

    @cached_property
    def low(self) -> str:
        """The lower-case text, a curly apostrophe written straight; computed once (the rules read it often)."""
        return self.text.lower().replace("’", "'")


def tokenize(text: str) -> list[Tok]:
    return [Tok(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def splice(text: str, edits: list[tuple[int, int, str]]) -> str:
    """`text` with each (start, end) replaced by its string; edits do not overlap."""
    out, at = [], 0
    for start, end, new in sorted(edits):
        out += [text[at:start], new]
        at = end
    out.append(text[at:])
    return "".join(out)


def _case_like(original: str, new: str) -> str:
    return new[:1].upper() + new[1:] if original[:1].isupper() else new


def _is_word(tok: Tok) -> bool:
    return tok.text[:1].isalpha()


def _is_lower_word(tok: Tok) -> bool:
    return tok.text.isalpha() and tok.text.islower()


@lru_cache(maxsize=100_000)
def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    from lemminflect import getAllLemmas

    return getAllLemmas(word)


def verb_lemmas(word: str) -> tuple[str, ...]:
    return _lemmas(word).get("VERB", ())


@lru_cache(maxsize=100_000)
def _is_form(word: str, tag: str) -> bool:
    """Whether lower-case `word` is the Penn form `tag` of one of its verb lemmas."""
    from lemminflect import getInflection

    return any(word in getInflection(lemma, tag, inflect_oov=False) for lemma in verb_lemmas(word))


def is_noun(word: str) -> bool:
    return "NOUN" in _lemmas(word)


def is_ing_verb(word: str) -> bool:
    return word.endswith("ing") and _is_form(word, "VBG")


def is_participle(word: str) -> bool:
    """A past participle that is no adjective ("seen", "finished"; not "tired")."""
    return _is_form(word, "VBN") and "ADJ" not in _lemmas(word)


def is_verb_form(word: str) -> bool:
    return any(_is_form(word, tag) for tag in ("VBZ", "VBD", "VBG", "VBN"))


def verb_only(word: str) -> bool:
    """A verb form (-s, past, participle, -ing) that is neither a noun nor an adjective."""
    lemmas = _lemmas(word)
    return "NOUN" not in lemmas and "ADJ" not in lemmas and is_verb_form(word)


def inflect(lemma: str, tag: str) -> str | None:
    """The first form lemminflect gives `lemma` for the Penn `tag`, or None."""
    from lemminflect import getInflection

    forms = getInflection(lemma, tag)
    return forms[0] if forms else None


def uncontracted(t: Tok) -> str:
    """The lower-case word without a contracted ending ("he'll" -> "he", "don't" -> "do")."""
    low = t.low
    if low.endswith("n't"):
        return low[:-3]
    return re.sub(r"'(s|m|re|ve|ll|d)$", "", low)


def prev_token(toks: list[Tok], i: int) -> Tok | None:
    """The token before token i, or None at the start."""
    return toks[i - 1] if i > 0 else None


def token_at(toks: list[Tok], j: int) -> Tok | None:
    """Token j, or None past the end."""
    return toks[j] if j < len(toks) else None


def mostly_capitals(toks: list[Tok]) -> bool:
    """Whether at least half of the words of two letters or more are in capitals (a headline or shouting)."""
    words = [t for t in toks if t.text.isalpha() and len(t.text) > 1]
    return bool(words) and sum(t.text.isupper() for t in words) * 2 >= len(words)


# -- word lists -----------------------------------------------------------------------------------------------------


def _lower_first_word(segment: str) -> str | None:
    """`segment` with its first word in lower case when that word is a function or number word (or "I"); None when
    it may be a name."""
    m = re.match(r"[A-Za-z]+", segment)
    if not m:
        return None
    word = m.group()
    if word == "I":
        return segment
    if word.lower() in LOWER_FIRST or is_stopword(word):
        return word.lower() + segment[len(word):]
    if word.islower():
        return segment
    return None


def _final_punct(toks: list[Tok]) -> int:
    """Index of the sentence's final punctuation ('.' or '!'), or len(toks) when it has none; -1 when it ends
    otherwise (question, quotation, ...)."""
    last = toks[-1].text
    if last in (".", "!"):
        return len(toks) - 1
    if _is_word(toks[-1]) or last.isdigit():
        return len(toks)
    return -1


def _front(text: str, toks: list[Tok], k: int, end: int, last: int | None = None) -> str | None:
    """Move tokens k..end-1 (the sentence's last phrase, before its final punctuation) to the front, with a comma;
    what stays before it ends at token `last` (k - 1 unless given: a comma before the phrase is dropped)."""
    last = k - 1 if last is None else last
    if k < 3:
        return None
    head = text[:toks[last].end]
    if any(t.text in (",", ";", ":", "\"", "(", ")", "-") for t in toks[:last + 1]):
        return None
    head = _lower_first_word(head)
    if head is None:
        return None
    phrase = text[toks[k].start:toks[end - 1].end]
    tail = text[toks[end - 1].end:]
    return phrase[:1].upper() + phrase[1:] + ", " + head.rstrip(" ,") + tail


@dataclass(frozen=True)
class Refusal:
    """What a rule returns when one of its guards refuses a sentence the rule would otherwise rewrite: the guard's
    name, unique within the rule ("negation_scope": moved, the clause would leave the scope of "not"). The augmenter
    reports a sentence no rule rewrites as `no_rule_applies:<rule>.<guard>` (`no_rule_reason` in the augmenter)."""

    guard: str


def first_rewrite(found: Iterable["str | Refusal | None"]) -> "str | Refusal | None":
    """The first rewritten text of `found` (tried in turn: the places or ways a rule tries), else the first guard
    that refused, else None."""
    refusal = None
    for new in found:
        if isinstance(new, str):
            return new
        refusal = refusal or new
    return refusal


# A rule: (text, its tokens, settings) -> the rewritten text; a Refusal naming the guard that refused; or None where
# the rule finds nothing to rewrite. Rules are called with at least one token (the augmenter gives text without
# tokens no view).
Rule = Callable[[str, list[Tok], RuleSettings], "str | Refusal | None"]
