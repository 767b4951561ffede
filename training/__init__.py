"""BSL trainer, the other training objectives, and the evaluation stage.

Library entry point (the CLI and the flows call this; it gives the trainer the dev evaluators the config asks for):

    from pipeline.base.config import load_config
    from training import TrainConfig, train
    result = train(load_config(TrainConfig, "configs/train_bsl.yaml", ["train.output_dir=runs/bsl"]))
    result.final_checkpoint, result.export_dir, result.best_metric, result.history

Names resolve lazily so that importing `training` (e.g. for `bsl --help`) does not import torch.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "train": "training.trainer", "build_trainer": "training.trainer",
    "Trainer": "training.trainer", "TrainResult": "training.trainer", "Evaluator": "training.trainer",
    "TrainConfig": "training.config",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'training' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
