"""Training objectives, one per module, looked up by name (`objective.name` in the config).

Every objective is an `Objective` (training.objectives.base): it owns the online SentenceEncoder (what is exported)
and whatever else its loss needs (predictor, EMA target, frozen copy, projection head), turns a batch of view pairs
into tensors (`collate`), and returns the loss from `forward`. The trainer is the same for all of them.
"""

from __future__ import annotations

import importlib

from pipeline.errors import BSLError

# name -> "module:Class"; imported on first use so that listing names needs no torch.
OBJECTIVES: dict[str, str] = {
    "bsl": "training.objectives.bsl:BSLObjective",
    "contrastive": "training.objectives.contrastive:ContrastiveObjective",
    "mirror": "training.objectives.mirror:MirrorObjective",
    "sg_opt": "training.objectives.sg_opt:SGOptObjective",
}


def objective_class(name: str):
    try:
        target = OBJECTIVES[name]
    except KeyError:
        raise BSLError(f"unknown objective {name!r}; expected one of {', '.join(OBJECTIVES)}") from None
    module_name, class_name = target.split(":")
    return getattr(importlib.import_module(module_name), class_name)


def build_objective(config, encoder, tokenizer):
    """`config` is the whole TrainConfig; each objective reads its own section (config.objective.<name>)."""
    return objective_class(config.objective.name)(encoder, tokenizer, config)
