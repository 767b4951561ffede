"""Learning-rate schedule as a pure function of the step (nothing to save but the step itself)."""

from __future__ import annotations

import math


def warmup_steps_for(total_steps: int, warmup_steps: int, warmup_ratio: float) -> int:
    if warmup_steps > 0:
        return min(warmup_steps, total_steps)
    return min(int(math.ceil(warmup_ratio * total_steps)), total_steps)


def lr_at(step: int, *, base_lr: float, total_steps: int, warmup: int, schedule: str,
          min_lr_ratio: float = 0.0) -> float:
    """Learning rate for optimizer step `step` (0-based): linear warmup from lr/warmup to lr over `warmup` steps,
    then linear or cosine decay to min_lr_ratio * lr at the last step, or constant."""
    if warmup > 0 and step < warmup:
        return base_lr * (step + 1) / warmup
    if schedule == "constant":
        return base_lr
    decay_steps = max(1, total_steps - warmup)
    progress = min(1.0, (step - warmup) / decay_steps)
    min_lr = base_lr * min_lr_ratio
    if schedule == "linear":
        return min_lr + (base_lr - min_lr) * (1.0 - progress)
    if schedule == "cosine":
        return min_lr + (base_lr - min_lr) * 0.5 * (1.0 + math.cos(math.pi * progress))
    raise ValueError(f"unknown schedule {schedule!r}")


def phase_lrs(step: int, *, head_steps: int, head_lr: float | None, base_lr: float, total_steps: int, warmup: int,
              schedule: str, min_lr_ratio: float = 0.0) -> tuple[float, float]:
    """(encoder lr, head lr) for optimizer step `step` when an objective's head (BSL's predictor) first trains alone
    for `head_steps` steps: then the encoder is frozen (lr 0) and the head runs at a constant `head_lr` (None =
    base_lr). Afterwards the encoder follows `lr_at` counted from the end of that warm-up (`total_steps` and
    `warmup` are the encoder's, i.e. after it), and the head the same curve scaled to peak at `head_lr`."""
    if step < head_steps:
        return 0.0, head_lr if head_lr is not None else base_lr
    encoder = lr_at(step - head_steps, base_lr=base_lr, total_steps=total_steps, warmup=warmup, schedule=schedule,
                    min_lr_ratio=min_lr_ratio)
    return encoder, encoder * head_lr / base_lr if head_lr is not None else encoder
