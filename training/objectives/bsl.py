"""BSL (Zhang et al., ACL 2021, §3): bootstrapped sentence representations with an online and an EMA target
encoder.

    online:  z1 = p(f_theta(x1)),  z2~ = p(f_theta(x2))        (p: the predictor, online side only)
    target:  h2 = f_xi(x2),        h1~ = f_xi(x1)              (no gradient: stop-gradient, eq. 3)
    loss     = 1/2 D(z1, h2) + 1/2 D(z2~, h1~),   D(a, b) = -<a/|a|, b/|b|>      (eqs. 1-2)
    after each applied optimizer step:  xi <- m xi + (1 - m) theta                (eq. 4)

Inference uses the online encoder f_theta.

One direction (`symmetric=false`, not in the paper): only D(z1, h2), with x1 the view named by `online_view`. With
`view2` the online side reads the augmented view and predicts the target's embedding of the source sentence; with
`mixed` each pair's direction is drawn at collation (both terms of eq. 2 in expectation, half the encoder passes).

Predictor warm-up (`predictor_warmup_steps`, not in the paper): a randomly initialised predictor sends noise into a
pretrained encoder through its gradients, and a post-trained encoder loses STS points within the first tens of
steps. So for the first N optimizer steps only the predictor trains (at `predictor_lr`): the online encoder runs
without gradients and the target gets no EMA update, both stay exactly as they were.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence

import torch
import torch.nn.functional as F

from bsl_pipeline.training.config import BSLConfig
from bsl_pipeline.training.ema import ema_update_
from bsl_pipeline.training.objectives.base import Batch, HeadWarmup, Objective
from bsl_pipeline.training.predictor import Predictor


def negative_cosine(prediction: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """D of eq. 1, averaged over the batch; computed in float32 whatever the autocast dtype."""
    return -(F.normalize(prediction.float(), dim=-1) * F.normalize(target.float(), dim=-1)).sum(-1).mean()


def bsl_loss(z1: torch.Tensor, z2: torch.Tensor, h1: torch.Tensor, h2: torch.Tensor,
             symmetric: bool = True) -> torch.Tensor:
    """Eq. 2. z = online predictions, h = target embeddings (detached here: the stop-gradient)."""
    if not symmetric:
        return negative_cosine(z1, h2.detach())
    return 0.5 * negative_cosine(z1, h2.detach()) + 0.5 * negative_cosine(z2, h1.detach())


class BSLObjective(Objective):
    name = "bsl"
    metric_names = ("embedding_std",)

    def __init__(self, encoder, tokenizer, settings: BSLConfig, *, max_length: int):
        super().__init__(encoder, tokenizer, max_length=max_length)
        self.cfg = settings
        self.predictor = Predictor(encoder.dim, self.cfg.predictor_k, sync_batchnorm=self.cfg.sync_batchnorm,
                                   residual=self.cfg.predictor_residual)
        self.target = copy.deepcopy(encoder)
        self.target.requires_grad_(False)

    def train(self, mode: bool = True):
        super().train(mode)
        # Whether the target sees dropout is a choice (config): the authors' code leaves it in train mode.
        self.target.train(mode and self.cfg.target_dropout)
        return self

    def head_warmup(self) -> HeadWarmup:
        return HeadWarmup("predictor", list(self.predictor.parameters()), self.cfg.predictor_warmup_steps,
                          self.cfg.predictor_lr)

    def collate(self, view1: Sequence[str], view2: Sequence[str], rng: random.Random) -> Batch:
        if self.cfg.symmetric or self.cfg.online_view != "mixed":
            return super().collate(view1, view2, rng)
        online, target = [], []
        for a, b in zip(view1, view2, strict=True):
            if rng.random() < 0.5:
                a, b = b, a
            online.append(a)
            target.append(b)
        return {"view1": self.tokenize(online), "view2": self.tokenize(target)}

    def forward(self, batch: Batch) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        x1, x2 = batch["view1"], batch["view2"]
        if not self.cfg.symmetric and self.cfg.online_view == "view2":
            x1, x2 = x2, x1  # the online side reads the augmented view, the target the source
        # During the predictor warm-up the encoder is frozen: no graph through it (cheaper, and no gradient).
        with torch.set_grad_enabled(torch.is_grad_enabled() and not self.head_only):
            online1 = self.encoder(**x1)
            online2 = self.encoder(**x2) if self.cfg.symmetric else None
        if not self.cfg.symmetric:
            # D(z1, h2) alone needs neither the online view 2 nor the target view 1: half the encoder passes.
            (z1,) = self.predictor.forward_views(online1)
            with torch.no_grad():
                h2 = self.target(**x2)
            loss = negative_cosine(z1, h2.detach())
        else:
            z1, z2 = self.predictor.forward_views(online1, online2)
            with torch.no_grad():
                h1 = self.target(**x1)
                h2 = self.target(**x2)
            loss = bsl_loss(z1, z2, h1, h2, symmetric=True)
        with torch.no_grad():
            # Collapse watch: per-dimension std of unit-normalised online embeddings (~1/sqrt(d) when healthy,
            # -> 0 when every sentence maps to the same vector).
            emb_std = F.normalize(online1.float(), dim=-1).std(0).mean()
        return loss, {"embedding_std": emb_std}

    @torch.no_grad()
    def on_optimizer_step(self) -> None:
        if not self.head_only:  # the online encoder did not move: the target stays the initial copy too
            ema_update_(self.target, self.encoder, self.cfg.momentum)
