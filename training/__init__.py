"""BSL trainer and the training objectives.

Library entry point (the evaluation stage's train -> evaluate and `bsl train` call it with the dev evaluators the config asks for):

    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training import TrainConfig, train
    result = train(load_config(TrainConfig, "configs/train_bsl.yaml", ["train.output_dir=runs/bsl"]))
    result.final_checkpoint, result.export_dir, result.best_metric, result.history

Names resolve lazily so that importing `training` (e.g. for `bsl --help`) does not import torch.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "train": "bsl_pipeline.training.trainer",
    "Trainer": "bsl_pipeline.training.trainer", "TrainResult": "bsl_pipeline.training.trainer", "Evaluator": "bsl_pipeline.training.trainer",
    "TrainConfig": "bsl_pipeline.training.config",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'training' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
