"""Device, precision and attention-kernel choice shared by the model-based augmenters, the trainer and the
evaluation stage."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from bsl_pipeline.pipeline.base.config import ConfigError
from bsl_pipeline.pipeline.base.errors import BSLError

#: Names `sdpa_backend` settings accept (besides auto / torch), as torch.nn.attention.SDPBackend calls them.
SDPA_KERNELS = {"flash": "FLASH_ATTENTION", "efficient": "EFFICIENT_ATTENTION", "cudnn": "CUDNN_ATTENTION",
                "math": "MATH"}
SDPA_BACKEND_HELP = ("scaled-dot-product attention kernels: auto = on CUDA every kernel except cuDNN attention "
                     "(it builds a new plan for each new padded length: much slower training steps on GPUs, "
                     "docs/results/gpu.md), on CPU torch's choice; torch = torch's own choice everywhere; or a "
                     "comma-separated list of flash, efficient, cudnn, math")


def resolve_device(device: str = "auto"):
    """'auto' -> cuda when available else cpu; otherwise the given torch device string, which must exist here
    (a BSLError names the problem, instead of a traceback at the first tensor moved there)."""
    import torch

    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        resolved = torch.device(device)
    except (RuntimeError, TypeError):
        raise BSLError(f"{device!r} is not a valid device (auto, cpu, cuda, cuda:N, mps)") from None
    if resolved.type == "cuda":
        if not torch.cuda.is_available():
            why = "this torch build has no CUDA support" if torch.version.cuda is None else "no GPU is visible"
            raise BSLError(f"device {device!r}: CUDA is not available on this machine ({why}); use cpu or auto")
        count = torch.cuda.device_count()
        if resolved.index is not None and resolved.index >= count:
            raise BSLError(f"device {device!r}: this machine has {count} CUDA device(s), cuda:0 to cuda:{count - 1}")
    if resolved.type == "mps" and not torch.backends.mps.is_available():
        raise BSLError(f"device {device!r}: MPS is not available on this machine; use cpu or auto")
    return resolved


def resolve_dtype(precision: str, device) -> "torch.dtype":
    """'auto' -> bf16 on a GPU that supports it (else fp16), fp32 on CPU; or 'fp32'/'bf16'/'fp16' explicitly."""
    import torch

    if precision == "auto":
        if device.type == "cuda":
            return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        return torch.float32
    return {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[precision]


def sdpa_backend_problem(choice: str) -> str | None:
    """What is wrong with an `sdpa_backend` value that `attention_kernels` would not understand (no torch needed);
    usable as a config field's `"check"`."""
    if choice in ("auto", "torch"):
        return None
    names = [n.strip() for n in choice.split(",")]
    unknown = [n for n in names if n not in SDPA_KERNELS]
    if not choice.strip() or unknown:
        return f"{choice!r} is not auto, torch or a comma-separated list of {', '.join(SDPA_KERNELS)}"
    return None


def check_sdpa_backend(choice: str, where: str) -> None:
    problem = sdpa_backend_problem(choice)
    if problem:
        raise ConfigError(f"{where}: {problem}")


def sdpa_kernel_names(choice: str, device) -> list[str] | None:
    """The SDPA kernels `choice` allows on `device` (SDPBackend member names); None = torch's own choice."""
    check_sdpa_backend(choice, "sdpa_backend")
    if choice == "torch" or (choice == "auto" and device.type != "cuda"):
        return None
    if choice == "auto":
        return [SDPA_KERNELS[n] for n in ("flash", "efficient", "math")]
    return [SDPA_KERNELS[n.strip()] for n in choice.split(",")]


@contextlib.contextmanager
def attention_kernels(choice: str, device) -> Iterator[None]:
    """Run the block with the scaled-dot-product-attention kernels `choice` allows on `device` (see
    SDPA_BACKEND_HELP). The kernel picked in a forward pass also runs its backward, so wrapping the forward is
    enough."""
    names = sdpa_kernel_names(choice, device)
    if names is None:
        yield
        return
    from torch.nn.attention import SDPBackend, sdpa_kernel

    with sdpa_kernel([getattr(SDPBackend, n) for n in names]):
        yield
