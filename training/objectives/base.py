"""The interface the trainer drives. An objective is an nn.Module so that DDP, state_dict and .to() see all of it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import torch
from torch import nn

from bsl_pipeline.pipeline.base.run_phases import TRAIN_PHASE, warmup_phase
from bsl_pipeline.training.encoder import SentenceEncoder, tokenize

Batch = dict[str, dict[str, torch.Tensor]]


@dataclass(frozen=True)
class HeadWarmup:
    """A module of the objective (its "head", e.g. BSL's predictor) that trains alone for the first `steps` optimizer
    steps at a constant `lr` while the encoder is frozen; afterwards the head keeps its own param group whose peak
    learning rate is `lr` (None = the encoder's lr throughout). The encoder's schedule starts after the warm-up."""

    name: str
    parameters: list[nn.Parameter]
    steps: int
    lr: float | None


class Objective(nn.Module):
    """Owns `encoder` (the online SentenceEncoder, used for inference and export) plus any auxiliary modules.

    Each subclass is built from its own config section: `Cls(encoder, tokenizer, settings, max_length=...)`.
    Subclasses implement `collate` (texts -> tensors, on CPU) and `forward(batch) -> (loss, metrics)`; those with
    state that follows the optimizer (an EMA target) override `on_optimizer_step`, which the trainer calls only
    after an optimizer step really changed the weights. Those with a head that must learn before the encoder moves
    return it from `head_warmup`; the trainer calls `begin_step(step)` before each optimizer step, and while
    `head_only` is true the objective must leave the encoder (and whatever follows it) untouched.
    """

    name: ClassVar[str] = ""
    #: Keys of the metrics dict `forward` returns (columns of metrics.csv).
    metric_names: ClassVar[tuple[str, ...]] = ()

    def __init__(self, encoder: SentenceEncoder, tokenizer, *, max_length: int):
        super().__init__()
        self.encoder = encoder
        self.tokenizer = tokenizer
        self.max_length = max_length
        self.head_only = False

    def head_warmup(self) -> HeadWarmup | None:
        """The head that trains alone first, if any (training.phases.PhasePolicy gives it its own param groups and
        learning rate, and drops the other gradients while `head_only`)."""
        return None

    def begin_step(self, step: int) -> None:
        """Called with the 0-based optimizer step before its micro-batches: a pure function of the step, so a resumed
        run is in the same phase as an uninterrupted one."""
        head = self.head_warmup()
        self.head_only = head is not None and step < head.steps

    @property
    def phase(self) -> str:
        """What the current step trains: "<head>-warmup" while only the head trains, else "train"."""
        head = self.head_warmup()
        return warmup_phase(head.name) if self.head_only and head is not None else TRAIN_PHASE

    def tokenize(self, texts: Sequence[str]) -> dict[str, torch.Tensor]:
        return tokenize(self.tokenizer, texts, self.max_length)

    def collate(self, view1: Sequence[str], view2: Sequence[str], rng: random.Random) -> Batch:
        return {"view1": self.tokenize(view1), "view2": self.tokenize(view2)}

    def forward(self, batch: Batch) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        raise NotImplementedError

    @torch.no_grad()
    def on_optimizer_step(self) -> None:
        """Called after every optimizer step that was applied (never after a skipped one)."""
