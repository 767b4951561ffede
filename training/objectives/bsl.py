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
import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from bsl_pipeline.pipeline.base.config import Range, setting
from bsl_pipeline.training.objectives import lazy_objective

if TYPE_CHECKING:
    import torch


@dataclass
class BSLConfig:
    momentum: float = setting("EMA decay of the target encoder: target = m*target + (1-m)*online after each "
                              "optimizer step (paper: 0.999; 1 = frozen target)", default=0.999, allowed=Range(0, 1))
    predictor_k: int = setting("predictor hidden size = k * embedding dim (3 linear layers kd -> kd -> d, "
                               "BatchNorm + ReLU between; paper: 8)", default=8, allowed=Range(1, 64))
    target_dropout: bool = setting("run the target encoder in train mode (dropout on) as the authors' code does; "
                                   "false = eval mode, deterministic targets", default=True)
    symmetric: bool = setting("symmetric loss 1/2 D(z1,h2) + 1/2 D(z2,h1) (paper); false = one direction only, "
                              "which runs the online encoder on one view and the target on the other (half the "
                              "passes; online_view says which)", default=True)
    online_view: Literal["view1", "view2", "mixed"] = setting(
        "with symmetric=false, the view the online encoder (and predictor) sees; the target sees the other. In the "
        "datasets this pipeline writes view1 is the source sentence and view2 its augmented view (an NLI pair: "
        "premise, hypothesis), so view2 = the online encoder learns to predict the source's target embedding from "
        "the augmented view (the direction that teaches invariance to the augmentation), view1 = from the source "
        "it predicts the augmented view's embedding; mixed = each pair's direction drawn at random (p = 1/2, from "
        "the batch's seeded generator): both directions of the symmetric loss at the one-direction cost. How the "
        "directions compare on the STS tasks: docs/results/training.md",
        default="view1")
    sync_batchnorm: bool = setting("under DDP, predictor BatchNorm uses statistics of the global batch",
                                   default=True)
    predictor_warmup_steps: int = setting(
        "the first N optimizer steps train only the predictor: the online encoder (run without gradients) and the "
        "EMA target stay frozen, bit-identical; the lr schedule (optim.warmup_*, decay) then starts for the "
        "encoder. Post-training an already trained encoder (all-MiniLM-L6-v2) without it lowered its STS scores in "
        "every setting tried, with it they rose (docs/results/training.md). 0 = none (the paper, which starts "
        "from BERT)",
        default=100, allowed=Range(0))
    predictor_residual: bool = setting(
        "the predictor predicts x + MLP(x) with the MLP's last layer starting at zero, i.e. it starts as the identity "
        "and the encoder learns from the first step (use with predictor_warmup_steps: 0); false = the paper's plain "
        "MLP", default=False)
    predictor_lr: float | None = setting(
        "the predictor's learning rate: constant during the warm-up, then the peak of its own param group (same "
        "schedule shape as the encoder); null = optim.lr (the warm-up's measurements: docs/results/training.md)",
        default=1.0e-3, allowed=Range(0, low_open=True))

    def config_problems(self) -> list[tuple[str, str]]:
        """The symmetric loss uses both directions: an online view to pick would be silently ignored."""
        if self.symmetric and self.online_view != "view1":
            return [("online_view", "applies only with symmetric=false (the symmetric loss uses both directions)")]
        return []


config_class = BSLConfig


def negative_cosine(prediction: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """D of eq. 1, averaged over the batch; computed in float32 whatever the autocast dtype."""
    import torch.nn.functional as F

    return -(F.normalize(prediction.float(), dim=-1) * F.normalize(target.float(), dim=-1)).sum(-1).mean()


def bsl_loss(z1: torch.Tensor, z2: torch.Tensor, h1: torch.Tensor, h2: torch.Tensor,
             symmetric: bool = True) -> torch.Tensor:
    """Eq. 2. z = online predictions, h = target embeddings (detached here: the stop-gradient)."""
    if not symmetric:
        return negative_cosine(z1, h2.detach())
    return 0.5 * negative_cosine(z1, h2.detach()) + 0.5 * negative_cosine(z2, h1.detach())


@functools.cache
def objective_class():
    """`BSLObjective`, defined on first use (an nn.Module needs torch; the settings above do not)."""
    import torch
    import torch.nn.functional as F

    from bsl_pipeline.training import ema
    from bsl_pipeline.training.objectives.base import HeadWarmup, Objective
    from bsl_pipeline.training.predictor import Predictor

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

        def collate(self, view1: Sequence[str], view2: Sequence[str], rng: random.Random):
            if self.cfg.symmetric or self.cfg.online_view != "mixed":
                return super().collate(view1, view2, rng)
            online, target = [], []
            for a, b in zip(view1, view2, strict=True):
                if rng.random() < 0.5:
                    a, b = b, a
                online.append(a)
                target.append(b)
            return {"view1": self.tokenize(online), "view2": self.tokenize(target)}

        def forward(self, batch):
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
                ema.ema_update_(self.target, self.encoder, self.cfg.momentum)

    return BSLObjective


__getattr__ = lazy_objective("BSLObjective", objective_class)
