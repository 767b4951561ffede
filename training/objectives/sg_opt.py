"""SG-BERT's SG-OPT objective (Kim et al., ACL 2021, §3).

A frozen copy BERT_F of the starting encoder turns each sentence s_i into views h_{i,k}: layer k's token states,
max-pooled, for every layer k = 0..l. The tuned encoder gives c_i (its sentence embedding). Both pass through a
projection head f (two linear layers, GELU after each); phi(u, v) = exp(cos(f(u), f(v)) / tau) and

    L_opt3(i, k) = -log phi(c_i, h_{i,k}) / (phi(c_i, h_{i,k}) + sum_{m != i} sum_n phi(c_i, h_{m,n}))
    L_opt       = mean_{i,k} L_opt3(i, k) + lambda * ||theta_tuned - theta_frozen||^2

The tuned encoder's embedding layer is frozen (SG-BERT does this "for stable learning"). Sentences are the
view1 column; under DDP the views of other ranks' sentences are negatives too.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from bsl_pipeline.pipeline.base.config import MAX_BATCH, Range, setting
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.training.objectives import lazy_objective

if TYPE_CHECKING:
    import torch
    from torch import nn


@dataclass
class SGOptConfig:
    temperature: float = setting("temperature of L_opt3 (SG-BERT: 0.01)", default=0.01, allowed=Range(0, low_open=True))
    reg_lambda: float = setting("weight of ||theta_tuned - theta_frozen||^2 (SG-BERT: 0.1)", default=0.1,
                                allowed=Range(0))
    projection_hidden: int = setting("projection head width (2 linear layers, GELU after each; SG-BERT: 4096)",
                                     default=4096, allowed=Range(1, MAX_BATCH))
    layer_pooling: Literal["max", "mean"] = setting("pooling of each frozen layer's token states into a view",
                                                    default="max")
    min_layer: int = setting("first frozen layer used as a view (0 = embeddings)", default=0, allowed=Range(0))
    max_layer: int = setting("last frozen layer used as a view (-1 = the top layer)", default=-1, allowed=Range(-1))
    freeze_embeddings: bool = setting("keep the tuned encoder's embedding layer fixed (SG-BERT does)",
                                      default=True)
    gather_across_ranks: bool = setting("under DDP, negatives come from the global batch", default=True)


config_class = SGOptConfig


def layer_views(hidden_states: Sequence[torch.Tensor], attention_mask: torch.Tensor, pooling: str) -> torch.Tensor:
    """(batch, layers, dim): every given layer's token states pooled over the non-padding tokens."""
    import torch

    states = torch.stack([h.float() for h in hidden_states], dim=1)  # (b, L, t, d)
    mask = attention_mask.bool()[:, None, :, None]
    if pooling == "max":
        return states.masked_fill(~mask, float("-inf")).max(dim=2).values
    m = mask.to(states.dtype)
    return (states * m).sum(2) / m.sum(2).clamp(min=1e-9)


def sg_opt_contrastive(c: torch.Tensor, h: torch.Tensor, temperature: float, gather: bool = True) -> torch.Tensor:
    """Mean of L_opt3 over the local sentences i and all layers k. c: (n, D) projected embeddings, h: (n, L, D)
    projected views (views of other ranks' sentences join the negatives when gathering)."""
    import torch
    import torch.nn.functional as F

    from bsl_pipeline.training.distributed import gather_candidates

    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    c = F.normalize(c.float(), dim=-1)
    h = F.normalize(h.float(), dim=-1)
    n = c.shape[0]
    (flat_h,), offset = gather_candidates(h.reshape(n, -1), gather=gather)
    all_h = flat_h.reshape(-1, *h.shape[1:])
    sims = torch.einsum("id,mld->iml", c, all_h) / temperature  # (n, N, L)
    rows = torch.arange(n, device=c.device)
    own = rows + offset
    positives = sims[rows, own]  # (n, L)
    own_mask = torch.zeros(sims.shape[:2], dtype=torch.bool, device=c.device)
    own_mask[rows, own] = True
    negatives = sims.masked_fill(own_mask[:, :, None], float("-inf")).reshape(n, -1)
    neg_lse = torch.logsumexp(negatives, dim=1, keepdim=True)  # (n, 1)
    return (torch.logaddexp(positives, neg_lse) - positives).mean()


def squared_distance(tuned: nn.Module, frozen: nn.Module) -> torch.Tensor:
    """||theta_tuned - theta_frozen||^2 over the tuned module's trainable parameters."""
    total = None
    for p, q in zip(tuned.parameters(), frozen.parameters()):
        if p.requires_grad:
            d = (p - q).pow(2).sum()
            total = d if total is None else total + d
    if total is None:
        raise BSLError("sg_opt: the tuned encoder has no trainable parameters")
    return total


@functools.cache
def objective_class():
    """`SGOptObjective`, defined on first use (an nn.Module needs torch; the settings above do not)."""
    import torch
    from torch import nn

    from bsl_pipeline.training.objectives.base import Objective

    class SGOptObjective(Objective):
        name = "sg_opt"
        metric_names = ("contrastive", "weight_distance")

        def __init__(self, encoder, tokenizer, settings: SGOptConfig, *, max_length: int):
            super().__init__(encoder, tokenizer, max_length=max_length)
            self.cfg = settings
            self.frozen = copy.deepcopy(encoder)
            self.frozen.requires_grad_(False)
            if self.cfg.freeze_embeddings:
                embeddings = getattr(encoder.model, "embeddings", None)
                if not isinstance(embeddings, nn.Module):
                    raise BSLError(f"objective.sg_opt.freeze_embeddings: {type(encoder.model).__name__} has no "
                                   f"`embeddings` module; set freeze_embeddings=false")
                embeddings.requires_grad_(False)
            width = self.cfg.projection_hidden
            self.projection = nn.Sequential(nn.Linear(encoder.dim, width), nn.GELU(), nn.Linear(width, width),
                                            nn.GELU())
            std = float(getattr(encoder.model.config, "initializer_range", 0.02))
            for layer in (self.projection[0], self.projection[2]):
                nn.init.normal_(layer.weight, mean=0.0, std=std)
                nn.init.zeros_(layer.bias)
            n_states = int(encoder.model.config.num_hidden_layers) + 1
            last = self.cfg.max_layer if self.cfg.max_layer >= 0 else n_states - 1
            if not 0 <= self.cfg.min_layer <= last < n_states:
                raise BSLError(f"objective.sg_opt layers {self.cfg.min_layer}..{self.cfg.max_layer} are outside "
                               f"0..{n_states - 1} of this encoder")
            self.layers = slice(self.cfg.min_layer, last + 1)

        def train(self, mode: bool = True):
            super().train(mode)
            self.frozen.eval()
            return self

        def collate(self, view1: Sequence[str], view2: Sequence[str], rng: random.Random):
            return {"sentences": self.tokenize(view1)}

        def forward(self, batch):
            x = batch["sentences"]
            c = self.encoder(**x)
            with torch.no_grad():
                views = layer_views(self.frozen.hidden_states(**x)[self.layers], x["attention_mask"],
                                    self.cfg.layer_pooling)
            contrastive = sg_opt_contrastive(self.projection(c), self.projection(views), self.cfg.temperature,
                                             self.cfg.gather_across_ranks)
            loss = contrastive
            reg = torch.zeros((), device=c.device)
            if self.cfg.reg_lambda > 0:
                reg = squared_distance(self.encoder, self.frozen)
                loss = loss + self.cfg.reg_lambda * reg
            return loss, {"contrastive": contrastive.detach(), "weight_distance": reg.detach()}

    return SGOptObjective


__getattr__ = lazy_objective("SGOptObjective", objective_class)
