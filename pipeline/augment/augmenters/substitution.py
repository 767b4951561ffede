"""What the word-substitution augmenters (synonyms, masked LM) share: how many words a record gets changed, writing
a replacement in the capitalisation of the word it replaces, and cheap per-record random numbers."""

from __future__ import annotations

import hashlib
import struct
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


class RecordRandom:
    """Random numbers that depend only on (seed, record id, stream), like `record_rng`, so output does not depend
    on batching; drawn from blake2b blocks because seeding a Mersenne Twister (`record_rng`) costs ~15 us per
    record, as much as the whole cached substitution of a sentence."""

    __slots__ = ("_key", "_block", "_values", "_next")

    def __init__(self, seed: int, source_id: str, stream: str = "") -> None:
        self._key = f"{seed}\x1f{source_id}\x1f{stream}\x1f".encode()
        self._block = 0
        self._values: tuple[int, ...] = ()
        self._next = 0

    def _u64(self) -> int:
        if self._next >= len(self._values):
            digest = hashlib.blake2b(self._key + str(self._block).encode(), digest_size=64).digest()
            self._values = struct.unpack("<8Q", digest)
            self._block += 1
            self._next = 0
        value = self._values[self._next]
        self._next += 1
        return value

    def random(self) -> float:
        return (self._u64() >> 11) * (1.0 / 9007199254740992.0)

    def randrange(self, n: int) -> int:
        return self._u64() % n  # bias ~ n / 2**64: none that matters

    def sample(self, n: int, k: int) -> list[int]:
        """k distinct indices of range(n), uniformly (partial Fisher-Yates)."""
        pool = list(range(n))
        for i in range(k):
            j = i + self.randrange(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
