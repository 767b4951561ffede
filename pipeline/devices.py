"""Device and precision choice shared by the model-based augmenters and the trainer."""

from __future__ import annotations

from pipeline.errors import BSLError


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
