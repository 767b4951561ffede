"""Speed settings of the training step: what a forward pass runs under (`forward_context`: autocast to the run's
precision, the attention kernels of pipeline.base.devices.attention_kernels) and `torch.compile` of the objective's
whole forward (`compile_objective`). The module's `forward` is replaced, not the module, so parameters, state_dict
keys and checkpoints stay as they are; where compiling fails, training goes on in eager mode with one warning.

Recompiles are bounded: with `model.length_buckets` every batch is padded to one of a few lengths (one graph per
bucket, compiled with static shapes); without buckets, torch.compile's automatic dynamic shapes recompile once
after the first new length and then cover every length.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Iterator

import torch

from bsl_pipeline.pipeline.base.devices import attention_kernels

log = logging.getLogger(__name__)


@contextlib.contextmanager
def forward_context(device: torch.device, autocast_dtype: torch.dtype | None, sdpa_backend: str) -> Iterator[None]:
    with torch.autocast(device.type, dtype=autocast_dtype, enabled=autocast_dtype is not None), \
            attention_kernels(sdpa_backend, device):
        yield


def compile_wanted(setting: bool | str, device: torch.device) -> bool:
    """true: always; false: never; auto: on CUDA (CPU compiles take minutes and rarely pay for short runs)."""
    return setting is True or (setting == "auto" and device.type == "cuda")


def compile_objective(objective: torch.nn.Module, setting: bool | str, device: torch.device, *,
                      mode: str = "default",
                      backend: str = "inductor", static_shapes: bool = False) -> str:
    """Compile `objective.forward` in place when `setting` asks for it; returns what happened (for the log):
    'off', 'compiled' or 'eager (<reason>)'."""
    if not compile_wanted(setting, device):
        return "off"
    import torch._dynamo

    if not torch._dynamo.is_dynamo_supported():
        log.warning("train.compile=%s: torch.compile is not supported here (Python/torch/platform); training "
                    "runs in eager mode", setting)
        return "eager (torch.compile unsupported here)"
    eager = objective.forward
    options = {"backend": backend, "dynamic": False if static_shapes else None}
    if backend == "inductor":
        options["mode"] = mode
    compiled = torch.compile(eager, **options)

    @functools.wraps(eager)
    def forward(*args, **kwargs):
        try:
            return compiled(*args, **kwargs)
        except torch._dynamo.exc.TorchDynamoException as exc:
            # Compilation fails before anything runs, so the eager call below is the same step, not a repeat.
            log.warning("train.compile: compiling the objective failed, training goes on in eager mode: %s",
                        str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
            del objective.forward  # back to the class's own (eager) forward
            return eager(*args, **kwargs)

    objective.forward = forward
    return "compiled"
