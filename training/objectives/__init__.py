"""Training objectives, one per module, looked up by name (`objective.name` in the config).

Every objective is an `Objective` (training.objectives.base): it owns the online SentenceEncoder (what is exported)
and whatever else its loss needs (predictor, EMA target, frozen copy, projection head), turns a batch of view pairs
into tensors (`collate`), and returns the loss from `forward`. The trainer is the same for all of them.

The registry maps a name to the class and to the `objective.<section>` of the config it is built from; an
objective sees only that section (plus the encoder, tokenizer and token limit), never the whole TrainConfig.
"""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple

from bsl_pipeline.pipeline.base.errors import BSLError


class ObjectiveEntry(NamedTuple):
    target: str   # "module:Class", imported on first use so that listing names needs no torch
    section: str  # the field of training.config.ObjectiveConfig holding this objective's settings


OBJECTIVES: dict[str, ObjectiveEntry] = {
    "bsl": ObjectiveEntry("bsl_pipeline.training.objectives.bsl:BSLObjective", "bsl"),
    "contrastive": ObjectiveEntry("bsl_pipeline.training.objectives.contrastive:ContrastiveObjective", "contrastive"),
    "mnrl": ObjectiveEntry("bsl_pipeline.training.objectives.mnrl:MNRLObjective", "mnrl"),
    "mirror": ObjectiveEntry("bsl_pipeline.training.objectives.mirror:MirrorObjective", "mirror"),
    "sg_opt": ObjectiveEntry("bsl_pipeline.training.objectives.sg_opt:SGOptObjective", "sg_opt"),
}


def _entry(name: str) -> ObjectiveEntry:
    try:
        return OBJECTIVES[name]
    except KeyError:
        raise BSLError(f"unknown objective {name!r}; expected one of {', '.join(OBJECTIVES)}") from None


def objective_class(name: str):
    module_name, class_name = _entry(name).target.split(":")
    return getattr(importlib.import_module(module_name), class_name)


def objective_settings(objective_config, name: str | None = None) -> Any:
    """The config section of objective `name` (default: the configured one), e.g. `objective.bsl`."""
    return getattr(objective_config, _entry(name or objective_config.name).section)


def build_objective(objective_config, encoder, tokenizer, *, max_length: int):
    """The configured objective (`objective_config` is TrainConfig.objective), built from its own section."""
    cls = objective_class(objective_config.name)
    return cls(encoder, tokenizer, objective_settings(objective_config), max_length=max_length)
