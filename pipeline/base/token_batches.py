"""Batch shapes for model inference and training: batches by a padded-token budget, and padding to a few fixed
lengths ("buckets") so that a GPU sees few distinct shapes.

Used by the back-translation and masked-LM augmenters, the evaluation encoder and the trainer's input pipeline.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bsl_pipeline.pipeline.base.errors import BSLError


def plan_batches(order: Sequence[int], lengths: Sequence[int], max_tokens: int,
                 max_sentences: int) -> list[list[int]]:
    """Split indices (already sorted longest first) into batches whose padded size (count x longest) fits
    `max_tokens`. A sentence longer than the budget gets a batch of its own rather than being dropped."""
    batches: list[list[int]] = []
    current: list[int] = []
    for i in order:
        longest = lengths[current[0]] if current else lengths[i]
        if current and ((len(current) + 1) * longest > max_tokens or len(current) >= max_sentences):
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches


def longest_first(lengths: Sequence[int]) -> list[int]:
    """Indices sorted by length, longest first; ties in input order (a stable, reproducible order)."""
    return sorted(range(len(lengths)), key=lambda i: (-lengths[i], i))


def check_buckets(buckets: Sequence[int], where: str) -> None:
    bad = [b for b in buckets if not isinstance(b, int) or b < 1]
    if bad:
        raise BSLError(f"{where}: bucket lengths must be positive integers, got {bad}")


def bucket_length(length: int, buckets: Sequence[int], limit: int) -> int:
    """The padded length for a batch whose longest sequence has `length` tokens: the smallest bucket that holds
    it, `limit` (the token limit) when none does; `length` itself when there are no buckets."""
    if not buckets:
        return length
    return min([b for b in buckets if length <= b <= limit] or [max(length, limit)])


def pad_right(features: dict[str, Any], length: int, pad_id: int) -> dict[str, Any]:
    """Tokenizer output (tensors of shape (batch, seq), right-padded) padded on the right to `length`: input ids
    with `pad_id`, every other feature (attention mask, token type ids) with 0."""
    import torch.nn.functional as F

    out = {}
    for name, tensor in features.items():
        extra = length - tensor.shape[1]
        if extra < 0:
            raise BSLError(f"cannot pad {name} of length {tensor.shape[1]} down to {length}")
        out[name] = F.pad(tensor, (0, extra), value=pad_id if name == "input_ids" else 0) if extra else tensor
    return out
