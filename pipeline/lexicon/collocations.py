"""Fixed phrases inside a sentence, which a word substitution must keep whole ("in front of", "common sense",
"step down", "steam engine"): WordNet's multiword lemmas (matched on the words' base forms, so "steps down" and
"steam engines" are found) plus a short list of prepositional phrases WordNet does not hold as lemmas.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import product

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
            parts = tuple(lemma.lower().split("_"))
            if 1 < len(parts) <= LONGEST:
                self._phrases.add(parts)
        self._first_words = {p[0] for p in self._phrases}
        self._longest = max(len(p) for p in self._phrases)

    def covered(self, words: list[str], base_forms: Callable[[str], Iterable[str]]) -> set[int]:
        """Indices of the lower-cased `words` that are part of a fixed phrase (any word may be inflected)."""
        forms = [None] * len(words)

        def forms_of(i: int) -> tuple[str, ...]:
            if forms[i] is None:
                forms[i] = tuple({words[i], *base_forms(words[i])})
            return forms[i]

        out: set[int] = set()
        for i in range(len(words) - 1):
            first = [f for f in forms_of(i) if f in self._first_words]
            if not first:
                continue
            for size in range(min(self._longest, len(words) - i), 1, -1):
                window = [first] + [forms_of(j) for j in range(i + 1, i + size)]
                if any(candidate in self._phrases for candidate in product(*window)):
                    out.update(range(i, i + size))
                    break
        return out
