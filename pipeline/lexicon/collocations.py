"""Fixed phrases inside a sentence, which a word substitution must keep whole ("in front of", "common sense",
"step down", "steam engine"): WordNet's multiword lemmas (matched on the words' base forms, so "steps down" and
"steam engines" are found), its hyphenated lemmas written as two words ("large scale" for "large-scale": "big
scale" is no English), plus a short list of prepositional phrases WordNet does not hold as lemmas.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

# Fixed phrases made of function words and one content word, which WordNet lists only in part ("in_front").
PREPOSITIONAL_PHRASES = tuple(tuple(p.split()) for p in (
    "in front of", "on top of", "in spite of", "because of", "instead of", "by means of", "in charge of",
    "in terms of", "on behalf of", "in favor of", "in favour of", "at the end of", "at least", "at most",
    "of course", "in order to", "as well as", "in addition to", "in case of", "in place of", "on account of",
    "in the middle of", "at the same time", "in the meantime", "take place", "take part", "make sure",
    "take care", "at the moment", "for example", "for instance", "in fact", "so far", "right now", "all right",
))
LONGEST = 4


class Collocations:
    """Finds which tokens of a sentence belong to a known fixed phrase."""

    def __init__(self, multiword_lemmas: Iterable[str]):
        self._phrases: set[tuple[str, ...]] = set(PREPOSITIONAL_PHRASES)
        for lemma in multiword_lemmas:
            parts = tuple(re.split(r"[_-]", lemma.lower()))
            if 1 < len(parts) <= LONGEST:
                self._phrases.add(parts)
        # Every beginning of a phrase, so a match grows word by word and stops as soon as no phrase begins so.
        self._prefixes = {p[:k] for p in self._phrases for k in range(1, len(p) + 1)}
        self._longest = max(len(p) for p in self._phrases)
        self._forms: dict[str, tuple] = {}  # word -> its forms, and those that begin a phrase (filled as met)

    def clear(self) -> None:
        """Forget the cached forms of words."""
        self._forms.clear()

    def covered(self, words: list[str], base_forms: Callable[[str], Iterable[str]]) -> set[int]:
        """Indices of the lower-cased `words` that are part of a fixed phrase (any word may be inflected)."""
        cache = self._forms
        prefixes, phrases = self._prefixes, self._phrases

        def forms_of(word: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
            """(the word's forms, those that begin a phrase, as 1-tuples)."""
            found = cache.get(word)
            if found is None:
                forms = tuple({word, *base_forms(word)})
                found = cache[word] = (forms, tuple((f,) for f in forms if (f,) in prefixes))
            return found

        out: set[int] = set()
        n = len(words)
        for i in range(n - 1):
            partial = forms_of(words[i])[1]
            longest = 0
            j = i + 1
            while partial and j < n and j - i < self._longest:
                grown = [q for p in partial for f in forms_of(words[j])[0] if (q := p + (f,)) in prefixes]
                j += 1
                if any(q in phrases for q in grown):
                    longest = j - i
                partial = grown
            if longest:
                out.update(range(i, i + longest))
        return out
