"""What the word-substitution augmenters (synonyms, masked LM) share: how many words a record gets changed, and
writing a replacement in the capitalisation of the word it replaces."""

from __future__ import annotations

from typing import Protocol


class _Uniform(Protocol):
    def random(self) -> float: ...


def words_to_change(candidates: int, fraction: float, min_words: int, max_words: int | None, rng: _Uniform) -> int:
    """`fraction * candidates` rounded up or down at random in proportion (so the expected count is exact), at
    least `min_words` when there are that many candidates, at most `max_words` (None: no cap)."""
    target = fraction * candidates
    count = int(target)
    if rng.random() < target - count:
        count += 1
    count = max(count, min(min_words, candidates))
    if max_words is not None:
        count = min(count, max_words)
    return count


def match_case(original: str, replacement: str) -> str:
    """Write `replacement` in the capitalisation of `original` (WORD, Word, word). A lower-case original keeps the
    replacement as spelled (WordNet capitalises proper nouns and taxa)."""
    if len(original) > 1 and original.isupper():
        return replacement.upper()
    if original[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement
