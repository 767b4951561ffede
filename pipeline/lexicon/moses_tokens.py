"""English Moses tokens with their character spans, so a word substitution can splice replacements into the
original string and leave everything else byte-identical (detokenizing would also rewrite spacing around
punctuation in already-tokenized corpora).

Plain ASCII sentences are cut by `moses_fast_tokens` in a few microseconds, which gives sacremoses' exact tokens
(tests/pipeline/lexicon/test_synonyms.py checks the two agree on tens of thousands of real sentences); everything
else goes through sacremoses (~100 us per sentence, most of the cost of a substitution).
"""

from __future__ import annotations

import re

# Sentences made only of these characters, laid out as `_FAST_BAD` does not reject, are tokenized by the Moses rules
# directly.
_FAST_CHARS = re.compile(r"[A-Za-z0-9 ,;:!?'.-]*")
_FAST_BAD = re.compile(
    r"\.(?!$)"                      # a period anywhere but at the very end (abbreviations, decimals, "...")
    r"|[^A-Za-z0-9 ]\."             # a period after punctuation ("?.", "-.")
    r"|(?<![A-Za-z])'|'(?![A-Za-z])"  # an apostrophe not between two letters (quotes, "dogs'", "90's")
    r"|'[A-Za-z0-9-]*'"              # two apostrophes in one word ("rock'n'roll")
    r"|[,;:!?](?! |$)"               # punctuation not followed by a space or the end ("?!", "5,300")
    r"|(?<![A-Za-z0-9 ])[,;:!?]"     # punctuation after punctuation, or opening the text
)
_FAST_TOKEN = re.compile(r"[,;:!?]|'?[^\s,;:!?']+")

Spans = list[tuple[int, int]]


def moses_fast_tokens(text: str, keep_period: frozenset[str]) -> tuple[list[str], Spans] | None:
    """Tokens and their (start, end) spans, exactly as sacremoses' English `tokenize(escape=False)` cuts `text`,
    for plain ASCII sentences; None for any text outside that class. `keep_period` = Moses' nonbreaking prefixes
    that are not numeric-only: a final "Mr." or "A." keeps its period."""
    if not _FAST_CHARS.fullmatch(text) or _FAST_BAD.search(text):
        return None
    # Moses pads ;:!? and separates commas (none sits between digits here), splits "x'y" before the apostrophe,
    # keeps hyphens inside their chunk, and detaches the final period unless the token is a nonbreaking prefix.
    tokens, spans = [], []
    for m in _FAST_TOKEN.finditer(text):
        tokens.append(m.group())
        spans.append(m.span())
    if tokens:
        tok = tokens[-1]
        if len(tok) > 1 and tok[-1] == "." and tok[:-1] not in keep_period:
            start, end = spans[-1]
            tokens[-1:] = [tok[:-1], "."]
            spans[-1:] = [(start, end - 1), (end - 1, end)]
    return tokens, spans


class SpanTokenizer:
    """Moses tokens of a text and their spans in it; `splice` writes replacements back."""

    def __init__(self) -> None:
        from sacremoses import MosesDetokenizer, MosesTokenizer

        self._tokenizer = MosesTokenizer(lang="en")
        self._detokenizer = MosesDetokenizer(lang="en")
        self._keep_period = frozenset(self._tokenizer.NONBREAKING_PREFIXES) - frozenset(
            self._tokenizer.NUMERIC_ONLY_PREFIXES)

    def tokenize(self, text: str) -> tuple[list[str], Spans | None]:
        """Moses tokens of `text` and their character spans in it (None when a token is not found verbatim, e.g.
        Moses rewrote it: then `splice` detokenizes instead)."""
        fast = moses_fast_tokens(text, self._keep_period)
        if fast is not None:
            return fast
        tokens = self._tokenizer.tokenize(text, escape=False)
        spans, pos = [], 0
        for tok in tokens:
            start = text.find(tok, pos)
            if start < 0 or text[pos:start].strip():
                return tokens, None
            spans.append((start, start + len(tok)))
            pos = start + len(tok)
        return tokens, spans

    def splice(self, text: str, tokens: list[str], spans: Spans | None, replaced: dict[int, str]) -> str:
        """`text` with the tokens at the indices of `replaced` replaced (everything else byte-identical)."""
        if spans is None:
            return self._detokenizer.detokenize([replaced.get(i, tok) for i, tok in enumerate(tokens)])
        parts, last = [], 0
        for index in sorted(replaced):
            start, end = spans[index]
            parts.append(text[last:start])
            parts.append(replaced[index])
            last = end
        parts.append(text[last:])
        return "".join(parts)
