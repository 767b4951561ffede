"""BSL's predictor: the MLP on the online side that maps an embedding to a prediction of the target's embedding."""

from __future__ import annotations

import torch
from torch import nn

from bsl_pipeline.training.distributed import GlobalBatchNorm1d


class Predictor(nn.Module):
    """Three linear layers d -> kd -> kd -> d with BatchNorm + ReLU after each of the two intermediate ones
    (BSL §4 "Implementation"; k = 8 in the paper).

    `residual=True` predicts x + net(x) with the last layer zero-initialised, so the untrained predictor is the
    identity: the online encoder gets a meaningful gradient (towards the target's embedding of the other view) from
    the first step, with no predictor warm-up spent on steps that do not move the encoder. The paper's predictor
    starts random, which is why a pretrained encoder needs the warm-up (`BSLConfig.predictor_warmup_steps`)."""

    def __init__(self, dim: int, k: int = 8, sync_batchnorm: bool = True, residual: bool = False):
        super().__init__()
        if k < 1:
            raise ValueError(f"predictor k must be >= 1, got {k}")
        hidden = k * dim
        self.residual = residual
        self.net = nn.Sequential(
            nn.Linear(dim, hidden), GlobalBatchNorm1d(hidden, sync=sync_batchnorm), nn.ReLU(),
            nn.Linear(hidden, hidden), GlobalBatchNorm1d(hidden, sync=sync_batchnorm), nn.ReLU(),
            nn.Linear(hidden, dim),
        )
        if residual:
            nn.init.zeros_(self.net[-1].weight)
            nn.init.zeros_(self.net[-1].bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.net(x) if self.residual else self.net(x)

    def forward_views(self, *views: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """`tuple(self(v) for v in views)`, with the linear layers run once on all views stacked: the same
        function (a linear layer treats rows independently, each BatchNorm still normalises each view with that
        view's own batch statistics and updates its running statistics view after view), but one matrix product of
        2n rows instead of two of n, which on a CPU halves the predictor's time (benchmarks/bench_step_cost.py)."""
        sizes = [v.shape[0] for v in views]
        x = stacked = torch.cat(views)
        for layer in self.net:
            if isinstance(layer, nn.BatchNorm1d):
                x = torch.cat([layer(part) for part in x.split(sizes)])
            else:
                x = layer(x)
        if self.residual:
            x = stacked + x
        return tuple(x.split(sizes))
