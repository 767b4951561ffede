"""Sentences no word-level method should touch: a URL, a hashtag or mention list, code, all capitals, too few words,
or another language. Each gets a named reason so that a method rejects it ("no view rather than a wrong one") and
the rejects say why."""

from __future__ import annotations

import re

_URL = re.compile(r"https?://|www\.|\b[\w.-]+\.(com|org|net|edu|gov|io)\b", re.I)
_CODE = re.compile(r"[{}<>]|==|=>|->|::|\w\(\)|;\s*$|\b(def|return|import|var|const|function|class)\b\s+\w+\s*[(:=;{]")

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


def text_problem(text: str, min_words: int = 1, min_english_share: float = 0.0) -> str | None:
    """Why `text` is not plain English prose a method may rewrite (one of TEXT_PROBLEMS), or None. `min_words`: the
    fewest words it may have; `min_english_share`: the share of its words that must be in wordfreq's English list."""
    from bsl_pipeline.pipeline.lexicon.word_frequency import is_english

    if _URL.search(text):
        return "url"
    words = text.split()
    tags = [w for w in words if w[:1] in "#@" and len(w) > 1]
    if tags and (len(tags) >= 2 or len(tags) * 3 >= len(words)):
        return "hashtags"
    if _CODE.search(text) and not re.search(r"[.!?]\s*$", text.strip().rstrip(";")):
        return "code"
    letters = [c for c in text if c.isalpha()]
    if len(letters) >= 4 and all(c.isupper() for c in letters):
        return "all_capitals"
    alpha = re.findall(r"[^\W\d_]+", text)
    if len(alpha) < min_words:
        return "too_short"
    if min_english_share > 0:
        lowered = [w.lower() for w in alpha]
        english = sum(1 for w in lowered if w.isascii() and is_english(w))
        if english < min_english_share * len(alpha):
            return "not_english"
        if len(lowered) >= 3 and _ENGLISH_MARKERS.isdisjoint(lowered) and _another_language(lowered):
            return "not_english"
    return None


def load() -> None:
    """Read the word tables `text_problem` uses now (an augmenter's set-up), not in its first batch."""
    from wordfreq import zipf_frequency

    from bsl_pipeline.pipeline.lexicon import word_frequency

    word_frequency.load()
    for lang in ("en", *OTHER_LANGUAGES):
        zipf_frequency("the", lang)


def _another_language(words: list[str]) -> bool:
    """Are `words` clearly more frequent in one of OTHER_LANGUAGES than in English ("el perro grande corre")?"""
    from wordfreq import zipf_frequency

    def mean(lang: str) -> float:
        return sum(zipf_frequency(w, lang) for w in words) / len(words)

    return max(mean(lang) for lang in OTHER_LANGUAGES) > mean("en") + LANGUAGE_MARGIN
