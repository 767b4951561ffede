"""How common an English word is, offline: the Zipf frequency (log10 of uses per billion words; "the" 7.7, "year"
6.0, "edifice" 2.9, "yr" 3.8) from the `wordfreq` package's English table, which ships inside the package (no
download; checked with the network off). It blends subtitles, Wikipedia, news, books, web text and social media, so
it says how natural a word is in plain prose, which SemCor's small tag counts cannot: a synonym much rarer than the
word it replaces reads as odd ("hospital" 5.1 -> "infirmary" 3.3, "night" 5.6 -> "nighttime" 3.3).
"""

from __future__ import annotations

import math
import threading

_lock = threading.Lock()
_table: dict[str, float] | None = None
WORDLIST = "large"  # wordfreq's fullest English list (words down to Zipf 1); "small" stops at Zipf 3


def _frequencies() -> dict[str, float]:
    global _table
    with _lock:
        if _table is None:
            from wordfreq import get_frequency_dict

            _table = get_frequency_dict("en", wordlist=WORDLIST)
        return _table


def zipf(word: str) -> float:
    """Zipf frequency of a lower-case word (0.0 when the table does not have it). A word with a hyphen or a space
    is looked up the way wordfreq does (its parts combined), so "dark-brown" is as common as its rarest part allows."""
    table = _frequencies()
    found = table.get(word)
    if found is not None:
        return round(math.log10(found) + 9, 2)
    if "-" in word or " " in word:
        from wordfreq import zipf_frequency

        return zipf_frequency(word, "en", wordlist=WORDLIST)
    return 0.0


def table() -> dict[str, float]:
    """The English table itself: word -> frequency (a word is in it exactly when `zipf(word) > 0`)."""
    return _frequencies()


def load() -> None:
    """Read the table now (about a second, once per process), so that timing and the first sentence don't pay it."""
    _frequencies()


def identity() -> dict[str, str]:
    """'wordfreq' -> the package version (its tables ship with it; output depends on them)."""
    from importlib.metadata import version

    return {"wordfreq": f"{version('wordfreq')}/{WORDLIST}"}
