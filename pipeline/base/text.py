"""Text normalisation, stable sentence ids and word-level quality measures shared by every stage."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from rapidfuzz.distance import Levenshtein

_WS = re.compile(r"\s+")
# Control characters other than whitespace (NUL included) carry no meaning in a sentence and break tokenizers.
# Those Python counts as whitespace (tab, vertical tab, form feed, \x1c-\x1f) separate words like a space does.
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")
_WORD = re.compile(r"\w+|[^\w\s]", re.UNICODE)
# What a terminal acts on rather than shows: C0 controls but tab and newline, DEL, C1 controls (ESC starts colour,
# clear-screen, title and clipboard sequences; CSI \x9b does the same on some terminals).
_TERMINAL_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def normalize(text: str) -> str:
    """Unicode NFC, control characters removed, whitespace runs (any Unicode whitespace: form feed, NEL,
    no-break and ideographic spaces, ...) collapsed to one space, stripped."""
    text = unicodedata.normalize("NFC", text)
    text = _CONTROL.sub("", text)
    return _WS.sub(" ", text).strip()


def terminal_safe(text: object) -> str:
    """`text` as a terminal shows it and does not act on it: each control character but tab and newline written as
    its escape (ESC as `\\x1b`), so that text read from a dataset, a corpus or a file prints as what it is."""
    return _TERMINAL_CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", str(text))


def first_few(items: list[str], limit: int = 5) -> str:
    """`items` for an error line: the first `limit`, then how many more."""
    return ", ".join(items[:limit]) + (f" and {len(items) - limit} more" if len(items) > limit else "")


def stable_id(*parts: str) -> str:
    """A 64-bit hex id of the given (already normalised) strings; identical text always gets the same id."""
    h = hashlib.blake2b(digest_size=8)
    for i, part in enumerate(parts):
        if i:
            h.update(b"\x1f")
        h.update(part.encode("utf-8"))
    return h.hexdigest()


def words(text: str) -> list[str]:
    """Word tokens for quality measures: runs of word characters and single punctuation marks."""
    return _WORD.findall(text)


def count_words(text: str) -> int:
    return len(text.split())


def edit_ratio(a: str, b: str) -> float:
    """Word-level Levenshtein distance divided by the longer length: 0 = same words, 1 = nothing in common."""
    return float(Levenshtein.normalized_distance(words(a), words(b)))


def length_ratio(a: str, b: str) -> float:
    """Words in `b` over words in `a` (inf when `a` is empty)."""
    na, nb = count_words(a), count_words(b)
    if na == 0:
        return float("inf") if nb else 1.0
    return nb / na
