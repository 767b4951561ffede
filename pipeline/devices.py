"""Device and precision choice shared by the model-based augmenters and the trainer."""

from __future__ import annotations


def resolve_device(device: str = "auto"):
    """'auto' -> cuda when available else cpu; otherwise the given torch device string."""
    import torch

    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(device)


def resolve_dtype(precision: str, device) -> "torch.dtype":
    """'auto' -> bf16 on a GPU that supports it (else fp16), fp32 on CPU; or 'fp32'/'bf16'/'fp16' explicitly."""
    import torch

    if precision == "auto":
        if device.type == "cuda":
            return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        return torch.float32
    return {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[precision]
