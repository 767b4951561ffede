"""torch.distributed helpers: process-group set-up under torchrun, collectives that carry gradients, and a
BatchNorm that uses global-batch statistics on CPU (gloo) as well as GPU (torch's SyncBatchNorm is GPU-only).

Autograd through the collectives: rank r's backward sends the gradient of its own loss w.r.t. every rank's
contribution back to that rank (all-reduce of gradients), so after DDP averages parameter gradients the model gets
the gradient of the mean loss over the global batch, exactly as a single process would.
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass

import torch
import torch.distributed as dist
from torch import nn

from bsl_pipeline.pipeline.base.errors import BSLError


@dataclass(frozen=True)
class DistInfo:
    rank: int = 0
    world_size: int = 1
    local_rank: int = 0
    initialized_here: bool = False

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    @property
    def enabled(self) -> bool:
        return self.world_size > 1


def init_distributed(backend: str = "auto", device_type: str = "cpu", timeout_minutes: int = 30) -> DistInfo:
    """Join the process group torchrun (or a test's spawn) describes in RANK/WORLD_SIZE/MASTER_* env vars."""
    world_size = int(os.environ.get("WORLD_SIZE", "1"))
    if world_size <= 1:
        return DistInfo()
    rank = int(os.environ.get("RANK", "0"))
    local_rank = int(os.environ.get("LOCAL_RANK", str(rank)))
    if dist.is_initialized():
        return DistInfo(dist.get_rank(), dist.get_world_size(), local_rank, False)
    if backend == "auto":
        backend = "nccl" if device_type == "cuda" else "gloo"
    if backend == "nccl" and device_type != "cuda":
        raise BSLError("distributed.backend=nccl needs CUDA devices; use gloo on CPU")
    if device_type == "cuda":
        torch.cuda.set_device(local_rank)
    dist.init_process_group(backend, rank=rank, world_size=world_size,
                            timeout=datetime.timedelta(minutes=timeout_minutes))
    return DistInfo(rank, world_size, local_rank, True)


def is_distributed() -> bool:
    return dist.is_available() and dist.is_initialized() and dist.get_world_size() > 1


class _AllReduceSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:
        out = x.detach().clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad: torch.Tensor) -> torch.Tensor:
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)
        return grad


class _AllGather(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:
        rank, world = dist.get_rank(), dist.get_world_size()
        parts = [torch.empty_like(x) for _ in range(world)]
        dist.all_gather(parts, x.detach().contiguous())
        ctx.rows = x.shape[0]
        ctx.rank = rank
        return torch.cat(parts)

    @staticmethod
    def backward(ctx, grad: torch.Tensor) -> torch.Tensor:
        # gloo has no reduce_scatter: sum everything, keep our rows.
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)
        return grad[ctx.rank * ctx.rows:(ctx.rank + 1) * ctx.rows]


def all_reduce_sum_with_grad(x: torch.Tensor) -> torch.Tensor:
    return _AllReduceSum.apply(x) if is_distributed() else x


def all_gather_with_grad(x: torch.Tensor) -> torch.Tensor:
    """Rows of every rank concatenated in rank order (every rank must pass the same number of rows)."""
    return _AllGather.apply(x) if is_distributed() else x


def gather_candidates(*tensors: torch.Tensor, gather: bool = True) -> tuple[list[torch.Tensor], int]:
    """Each tensor's rows from every rank (with gradient) and the index where this rank's rows start among them;
    with `gather` off, the local tensors and 0 (contrastive negatives from the local batch only)."""
    if not gather:
        return list(tensors), 0
    rank = dist.get_rank() if is_distributed() else 0
    return [all_gather_with_grad(t) for t in tensors], rank * tensors[0].shape[0]


def all_reduce_mean(x: torch.Tensor) -> torch.Tensor:
    """Mean over ranks, for logging only (no gradient)."""
    if not is_distributed():
        return x
    x = x.detach().clone()
    dist.all_reduce(x)
    return x / dist.get_world_size()


def barrier() -> None:
    if is_distributed():
        dist.barrier()


class GlobalBatchNorm1d(nn.BatchNorm1d):
    """BatchNorm1d whose training statistics cover the batch of all ranks (plain BatchNorm1d when not
    distributed or when `sync` is off). Running statistics are updated with the global values, so they stay
    identical on every rank."""

    def __init__(self, num_features: int, sync: bool = True, **kwargs):
        super().__init__(num_features, **kwargs)
        self.sync = sync

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not (self.training and self.sync and is_distributed()):
            return super().forward(x)
        if x.dim() != 2:
            raise ValueError(f"GlobalBatchNorm1d expects (batch, features), got shape {tuple(x.shape)}")
        xf = x.float()
        count = torch.tensor([float(x.shape[0])], device=x.device)
        sums = all_reduce_sum_with_grad(torch.cat([xf.sum(0), count]))
        n = sums[-1]
        mean = sums[:-1] / n
        # Two passes (mean first) keep the variance accurate where E[x^2] - E[x]^2 would cancel.
        var = all_reduce_sum_with_grad(((xf - mean) ** 2).sum(0)) / n
        if self.track_running_stats:
            with torch.no_grad():
                self.num_batches_tracked.add_(1)
                m = self.momentum if self.momentum is not None else 1.0 / float(self.num_batches_tracked)
                unbiased = var * (n / (n - 1)) if n > 1 else var
                self.running_mean.mul_(1 - m).add_(mean.detach(), alpha=m)
                self.running_var.mul_(1 - m).add_(unbiased.detach(), alpha=m)
        y = (xf - mean) / torch.sqrt(var + self.eps)
        if self.affine:
            y = y * self.weight + self.bias
        return y.to(x.dtype)
