"""The interface the trainer drives. An objective is an nn.Module so that DDP, state_dict and .to() see all of it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

import torch
from torch import nn

from training.encoder import SentenceEncoder, tokenize

Batch = dict[str, dict[str, torch.Tensor]]


class Objective(nn.Module):
    """Owns `encoder` (the online SentenceEncoder, used for inference and export) plus any auxiliary modules.

    Each subclass is built from its own config section: `Cls(encoder, tokenizer, settings, max_length=...)`.
    Subclasses implement `collate` (texts -> tensors, on CPU) and `forward(batch) -> (loss, metrics)`; those with
    state that follows the optimizer (an EMA target) override `on_optimizer_step`, which the trainer calls only
    after an optimizer step really changed the weights.
    """

    name: ClassVar[str] = ""
    #: Keys of the metrics dict `forward` returns (columns of metrics.csv).
    metric_names: ClassVar[tuple[str, ...]] = ()

    def __init__(self, encoder: SentenceEncoder, tokenizer, *, max_length: int):
        super().__init__()
        self.encoder = encoder
        self.tokenizer = tokenizer
        self.max_length = max_length

    def tokenize(self, texts: Sequence[str]) -> dict[str, torch.Tensor]:
        return tokenize(self.tokenizer, texts, self.max_length)

    def collate(self, view1: Sequence[str], view2: Sequence[str], rng: random.Random) -> Batch:
        return {"view1": self.tokenize(view1), "view2": self.tokenize(view2)}

    def forward(self, batch: Batch) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        raise NotImplementedError

    @torch.no_grad()
    def on_optimizer_step(self) -> None:
        """Called after every optimizer step that was applied (never after a skipped one)."""
