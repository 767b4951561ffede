"""Training objectives, one per module, looked up by name (`objective.name` in the config).

Every objective is an `Objective` (training.objectives.base): it owns the online SentenceEncoder (what is exported)
and whatever else its loss needs (predictor, EMA target, frozen copy, projection head), turns a batch of view pairs
into tensors (`collate`), and returns the loss from `forward`. The trainer is the same for all of them.

An objective's module declares its settings (`config_class`, a dataclass: the `objective.<name>` section of the
config, built from this registry) and its class. The settings load without torch (the config and `bsl train --help`
read them); the class, an nn.Module, is defined on first use (`lazy_objective`). An objective sees only its own
section (plus the encoder, tokenizer and token limit), never the whole TrainConfig.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from bsl_pipeline.pipeline.base.errors import BSLError

# name -> "module:Class"; the name is also the objective's section of the config (`objective.<name>`).
OBJECTIVES: dict[str, str] = {
    "bsl": "bsl_pipeline.training.objectives.bsl:BSLObjective",
    "contrastive": "bsl_pipeline.training.objectives.contrastive:ContrastiveObjective",
    "mnrl": "bsl_pipeline.training.objectives.mnrl:MNRLObjective",
    "mirror": "bsl_pipeline.training.objectives.mirror:MirrorObjective",
    "sg_opt": "bsl_pipeline.training.objectives.sg_opt:SGOptObjective",
}


def unknown_objective(name: str) -> str | None:
    """What is wrong with `name` as an objective (None: nothing)."""
    return None if name in OBJECTIVES else f"unknown objective {name!r}; expected one of {', '.join(OBJECTIVES)}"


def _known(name: str) -> str:
    problem = unknown_objective(name)
    if problem:
        raise BSLError(problem)
    return name


def _module(name: str):
    return importlib.import_module(OBJECTIVES[_known(name)].split(":")[0])


def settings_class(name: str) -> type:
    """The dataclass of objective `name`'s settings (torch-free)."""
    return _module(name).config_class


def objective_class(name: str):
    return getattr(_module(name), OBJECTIVES[name].split(":")[1])


def objective_settings(objective_config, name: str | None = None) -> Any:
    """The config section of objective `name` (default: the configured one), e.g. `objective.bsl`."""
    return getattr(objective_config, _known(name or objective_config.name))


def build_objective(objective_config, encoder, tokenizer, *, max_length: int):
    """The configured objective (`objective_config` is TrainConfig.objective), built from its own section."""
    cls = objective_class(objective_config.name)
    return cls(encoder, tokenizer, objective_settings(objective_config), max_length=max_length)


def lazy_objective(class_name: str, define: Callable[[], type]) -> Callable[[str], Any]:
    """An objective module's `__getattr__`: its class `class_name` comes from `define()` on first access."""
    def module_getattr(name: str) -> Any:
        if name == class_name:
            cls = define()
            cls.__qualname__ = class_name  # a module-level name: pickle looks a class up by module and qualname
            return cls
        raise AttributeError(f"module {define.__module__!r} has no attribute {name!r}")
    return module_getattr
