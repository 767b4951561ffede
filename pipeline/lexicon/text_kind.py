"""Sentences no word-level method should touch: a URL, a hashtag or mention list, code, all capitals, too few words,
or another language. Each gets a named reason so that a method rejects it ("no view rather than a wrong one") and
the rejects say why."""

from __future__ import annotations

import functools
import math
import re

_URL = re.compile(r"https?://|www\.|\b[\w.-]+\.(com|org|net|edu|gov|io)\b", re.I)
_CODE = re.compile(r"[{}<>]|==|=>|->|::|\w\(\)|\b(def|return|import|var|const|function|class)\b\s+\w+\s*[(:=;{]")
#: A statement's closing semicolon: code only with an assignment, a call or an index before it (a dictionary gloss
#: also ends in ";": "unsparing and uncompromising in discipline or judgment;").
_CODE_STATEMENT = re.compile(r"(=|\w\(|\w\[).*;\s*$")

# Words that mark a sentence as English and are not common words of the languages checked below ("a", "in", "is",
# "was", "die" are); a sentence without one is compared with those languages' word frequencies.
_ENGLISH_MARKERS = frozenset("the of and to it this that with for be has have not you he she they his her their "
                             "an are were been which would could should".split())
#: Languages a sentence is compared with when it has no English marker word (wordfreq's lists).
OTHER_LANGUAGES = ("es", "de", "fr", "it", "pt", "nl")
#: How much more frequent (mean Zipf) its words must be in another language for a sentence to count as that language.
LANGUAGE_MARGIN = 0.5

#: The reasons `text_problem` gives, in the order it checks them.
TEXT_PROBLEMS = ("url", "hashtags", "code", "all_capitals", "too_short", "not_english")


_ALPHA = re.compile(r"[^\W\d_]+")
_SENTENCE_END = re.compile(r"[.!?]\s*$")


def text_problem(text: str, min_words: int = 1, min_english_share: float = 0.0) -> str | None:
    """Why `text` is not plain English prose a method may rewrite (one of TEXT_PROBLEMS), or None. `min_words`: the
    fewest words it may have; `min_english_share`: the share of its words that must be in wordfreq's English list."""
    if _URL.search(text):
        return "url"
    words = text.split()
    tags = [w for w in words if w[:1] in "#@" and len(w) > 1]
    if tags and (len(tags) >= 2 or len(tags) * 3 >= len(words)):
        return "hashtags"
    if (_CODE.search(text) or _CODE_STATEMENT.search(text)) and not _SENTENCE_END.search(text.strip().rstrip(";")):
        return "code"
    if text.isupper():  # no lower-case letter (a cheap test first): are all of its letters capitals?
        letters = [c for c in text if c.isalpha()]
        if len(letters) >= 4 and all(c.isupper() for c in letters):
            return "all_capitals"
    alpha = _ALPHA.findall(text)
    if len(alpha) < min_words:
        return "too_short"
    if min_english_share > 0:
        tables = _tables()
        english_table = tables["en"]
        lowered = [w.lower() for w in alpha]
        english = sum(1 for w in lowered if w.isascii() and w in english_table)
        if english < min_english_share * len(alpha):
            return "not_english"
        if len(lowered) >= 3 and _ENGLISH_MARKERS.isdisjoint(lowered) and _another_language(lowered):
            return "not_english"
    return None


_TABLES: dict[str, dict[str, float]] = {}


def _tables() -> dict[str, dict[str, float]]:
    """Language -> word -> frequency: English as `pipeline.lexicon.word_frequency` reads it, the other languages
    from wordfreq's fullest lists (read once per process)."""
    if not _TABLES:
        from wordfreq import get_frequency_dict

        from bsl_pipeline.pipeline.lexicon import word_frequency

        others = {lang: get_frequency_dict(lang, wordlist="best") for lang in OTHER_LANGUAGES}
        _TABLES.update({"en": word_frequency.table(), **others})
    return _TABLES


def load() -> None:
    """Read the word tables `text_problem` uses now (an augmenter's set-up), not in its first batch."""
    _tables()


def _zipf(table: dict[str, float], word: str) -> float:
    """wordfreq's Zipf frequency of a word in one language's table (0 when absent), as `zipf_frequency` gives it."""
    found = table.get(word)
    return round(math.log10(found) + 9, 2) if found else 0.0


@functools.lru_cache(maxsize=1 << 18)
def _profile(word: str) -> tuple[float, ...]:
    """The word's Zipf frequency in English, then in each of OTHER_LANGUAGES (a corpus repeats its words)."""
    tables = _tables()
    return tuple(_zipf(tables[lang], word) for lang in ("en", *OTHER_LANGUAGES))


def _another_language(words: list[str]) -> bool:
    """Are `words` clearly more frequent in one of OTHER_LANGUAGES than in English ("el perro grande corre")?"""
    totals = [sum(column) for column in zip(*map(_profile, words))]
    return max(totals[1:]) / len(words) > totals[0] / len(words) + LANGUAGE_MARGIN
