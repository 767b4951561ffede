"""Per-source objectives: one model trained with a different objective on each data source.

When a data source names its objective (`data.sources[i].objective`), every batch comes from one source (the data
stream picks the source once per batch, by weight) and this objective hands the batch to that source's objective.
All of them share the one online encoder (what is exported) and one optimizer; each keeps its own parts (BSL's
predictor and EMA target). The EMA target follows every applied step, whichever objective made it: it tracks the
online encoder. A head that warms up (BSL's predictor) warms up for the whole run: while it trains alone the encoder
is frozen for every source, so the other objectives' batches of those steps train nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import torch
from torch import nn

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.training.objectives.base import Batch, HeadWarmup, Objective

SOURCE_KEY = "source"  # the batch entry that names the source: {"index": tensor([i])}


class PerSourceObjective(Objective):
    name = "per-source"

    def __init__(self, encoder, tokenizer, objectives: dict[str, Objective], source_objectives: Sequence[str], *,
                 max_length: int):
        super().__init__(encoder, tokenizer, max_length=max_length)
        missing = sorted(set(source_objectives) - set(objectives))
        if missing:
            raise BSLError(f"per-source objectives: no objective built for {', '.join(missing)}")
        if any(o.encoder is not encoder for o in objectives.values()):
            raise BSLError("per-source objectives must share the one online encoder")
        heads = [name for name, o in objectives.items() if o.head_warmup() is not None]
        if len(heads) > 1:
            raise BSLError(f"per-source objectives: at most one may warm up a head first, got {', '.join(heads)}")
        self.objectives = nn.ModuleDict(objectives)
        self.source_objectives = list(source_objectives)
        self.metric_names = tuple(dict.fromkeys(m for o in objectives.values() for m in o.metric_names))

    def head_warmup(self) -> HeadWarmup | None:
        return next((h for h in (o.head_warmup() for o in self.objectives.values()) if h is not None), None)

    def begin_step(self, step: int) -> None:
        super().begin_step(step)
        for objective in self.objectives.values():
            objective.begin_step(step)

    def objective_of(self, source: int) -> Objective:
        return self.objectives[self.source_objectives[source]]

    def collate(self, view1: Sequence[str], view2: Sequence[str], rng: random.Random, source: int = 0) -> Batch:
        return {**self.objective_of(source).collate(view1, view2, rng),
                SOURCE_KEY: {"index": torch.tensor([source])}}

    def forward(self, batch: Batch) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        objective = self.objective_of(int(batch[SOURCE_KEY]["index"][0]))
        loss, metrics = objective(batch)
        # A metric of another objective is NaN on this batch (the trainer's logged means skip NaN).
        nan = torch.full((), float("nan"), device=loss.device)
        return loss, {m: metrics.get(m, nan) for m in self.metric_names}

    @torch.no_grad()
    def on_optimizer_step(self) -> None:
        for objective in self.objectives.values():
            objective.on_optimizer_step()
