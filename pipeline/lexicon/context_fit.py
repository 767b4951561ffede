"""How well a substitute fits a word's place in a sentence, read off a sentence encoder's token states (lexical
substitution scored BERTScore-style): the sentence with the word is encoded once, each variant (the word replaced by
one candidate) once, all variants of a batch in one forward pass, and three cosines are taken:

* `token`: the word's contextual state in the sentence vs the substitute's state in the variant. A substitute in the
  word's sense, read in that sense there, lands close to it ("bank" of a river -> "shore"); one from another sense of
  the word, or one the context reads otherwise, lands further off ("bank" of a river -> "depository").
* `context`: the other words' states, each in the sentence vs in the variant, averaged (BERTScore's recall over the
  unchanged words): how little the substitute disturbs the reading of the rest.
* `sentence`: the mean-pooled sentence vectors (`pipeline.base.sentence_embedder`'s pooling).

A word's state is the mean of its word pieces' states; a multiword substitute's state is the mean over all its pieces.
Tokens are given already split into words (the augmenter's Moses tokens), so the word at `index` is known exactly.
The encoder is loaded through `pipeline.base.sentence_embedder` (local directory only, mean pooling, no gradients).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.sentence_embedder import SentenceEmbedder


@dataclass(frozen=True, slots=True)
class Query:
    """Candidates for the word at `index` of `tokens`."""

    tokens: tuple[str, ...]
    index: int
    candidates: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Fit:
    """The cosines of one candidate in its query's place (module docstring)."""

    substitute: str
    token: float
    context: float
    sentence: float


class _StateEncoder(SentenceEmbedder):
    """The embedder's model, giving per-word states of pre-split sentences as well as the pooled vector."""

    def word_states(self, sentences: Sequence[Sequence[str]]) -> list[tuple[Any, Any]]:
        """For each sentence (a list of words; a word may hold spaces): (a (words, dim) tensor of unit-length word
        states, the unit-length mean-pooled sentence vector). Words cut off by the length limit get zero states."""
        import torch

        from bsl_pipeline.pipeline.base.pooling import pool

        self._load()
        out: list[tuple[Any, Any]] = [None] * len(sentences)  # type: ignore[list-item]
        # Pieces per word: a word with spaces (a multiword substitute) is one word made of several.
        order = sorted(range(len(sentences)), key=lambda i: sum(len(w) for w in sentences[i]))
        with torch.no_grad():
            for start in range(0, len(order), self.batch_size):
                chunk = order[start:start + self.batch_size]
                flat, owners = [], []
                for i in chunk:
                    words, owner = [], []
                    for w, word in enumerate(sentences[i]):
                        parts = word.split() or [word]
                        words += parts
                        owner += [w] * len(parts)
                    flat.append(words)
                    owners.append(owner)
                enc = self._tokenizer(flat, is_split_into_words=True, padding=True, truncation=True,
                                      max_length=self._max_length, return_tensors="pt")
                states = self._model(**enc.to(self._device)).last_hidden_state
                pooled = torch.nn.functional.normalize(pool(states, enc["attention_mask"], ("mean",)), dim=-1).cpu()
                states = states.float().cpu()
                for row, i in enumerate(chunk):
                    n_words = len(sentences[i])
                    piece_word = torch.tensor([-1 if p is None else owners[row][p] for p in enc.word_ids(row)])
                    keep = piece_word >= 0
                    summed = torch.zeros((n_words, states.shape[-1]))
                    summed.index_add_(0, piece_word[keep], states[row][keep])
                    counts = torch.bincount(piece_word[keep], minlength=n_words).clamp(min=1).unsqueeze(1)
                    out[i] = (torch.nn.functional.normalize(summed / counts, dim=-1), pooled[row])
        return out


class ContextFit:
    """`score(queries)` gives, for each query, a `Fit` per candidate (in the candidates' order)."""

    def __init__(self, directory: str | Path, where: str = "context_fit", *, batch_size: int = 128,
                 max_length: int = 128):
        self.encoder = _StateEncoder(directory, where, max_length=max_length, batch_size=batch_size)

    def score(self, queries: Sequence[Query]) -> list[list[Fit]]:
        """Each query's candidates scored in place; every distinct sentence and every variant is encoded once, in
        batches of `batch_size` texts of similar length."""
        sentences: dict[tuple[str, ...], int] = {}
        texts: list[tuple[str, ...]] = []
        for q in queries:
            if not 0 <= q.index < len(q.tokens):
                raise IndexError(f"context_fit: index {q.index} outside a sentence of {len(q.tokens)} tokens")
            if q.tokens not in sentences:
                sentences[q.tokens] = len(texts)
                texts.append(q.tokens)
        variant_at: list[int] = []
        for q in queries:
            variant_at.append(len(texts))
            texts += [q.tokens[:q.index] + (c,) + q.tokens[q.index + 1:] for c in q.candidates]
        encoded = self.encoder.word_states(texts)
        out: list[list[Fit]] = []
        for q, first in zip(queries, variant_at):
            words, sentence = encoded[sentences[q.tokens]]
            others = [j for j in range(len(q.tokens)) if j != q.index]
            fits = []
            for k, candidate in enumerate(q.candidates):
                v_words, v_sentence = encoded[first + k]
                context = float((words[others] * v_words[others]).sum(-1).mean()) if others else 1.0
                fits.append(Fit(candidate, round(float(words[q.index] @ v_words[q.index]), 4), round(context, 4),
                                round(float(sentence @ v_sentence), 4)))
            out.append(fits)
        return out
