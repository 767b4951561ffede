"""The EMA update of BSL's target encoder (eq. 4): xi <- m * xi + (1 - m) * theta, parameters and buffers."""

from __future__ import annotations

import torch
from torch import nn


@torch.no_grad()
def ema_update_(target: nn.Module, online: nn.Module, momentum: float) -> None:
    """In place. Floating-point parameters and buffers are averaged; integer buffers (position ids, counters)
    are copied, since an average of them means nothing. Both modules must have the same structure."""
    if not 0.0 <= momentum <= 1.0:
        raise ValueError(f"EMA momentum must be in [0, 1], got {momentum}")
    t_params = list(target.parameters())
    o_params = list(online.parameters())
    t_bufs = list(target.buffers())
    o_bufs = list(online.buffers())
    if len(t_params) != len(o_params) or len(t_bufs) != len(o_bufs):
        raise ValueError("EMA target and online module differ in structure")
    t_float = [t for t in t_params + t_bufs if t.is_floating_point()]
    o_float = [o for t, o in zip(t_params + t_bufs, o_params + o_bufs) if t.is_floating_point()]
    if momentum == 1.0:
        pass
    elif momentum == 0.0:
        torch._foreach_copy_(t_float, o_float)
    else:
        # m * xi + (1 - m) * theta written as xi + (1 - m) * (theta - xi): one pass over the weights instead of two
        # (same value up to float rounding; benchmarks/bench_step_cost.py).
        torch._foreach_lerp_(t_float, o_float, 1.0 - momentum)
    for t, o in zip(t_bufs, o_bufs):
        if not t.is_floating_point():
            t.copy_(o)
