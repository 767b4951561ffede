"""The `phase` column of a training run's metrics.csv, named once for the stage that writes it (the trainer) and
the one that reads it (the end-of-job report)."""

from __future__ import annotations

#: The encoder trains (with whatever head the objective has).
TRAIN_PHASE = "train"


def warmup_phase(head: str) -> str:
    """Only the objective's `head` trains; the encoder is frozen (BSL: "predictor-warmup")."""
    return f"{head}-warmup"
