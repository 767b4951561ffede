"""The phases of a run and what they mean for the optimizer: the one place that knows about a warming-up head.

An objective whose head must learn before the encoder moves (BSL's predictor) names it in `head_warmup()`. For the
first `head_steps` optimizer steps only the head trains, at its own constant lr, and the encoder gets no update at
all; afterwards the encoder follows its schedule counted from the end of the warm-up, and the head the same curve
scaled to its own peak (training.schedule.phase_lrs). `PhasePolicy` turns that into what the generic loop asks:
the param groups, each group's lr at a step, which gradients to drop, and where a phase ends. Without a head it is
one "encoder" group on the plain schedule.
"""

from __future__ import annotations

import logging
from typing import Any

import torch

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.training.config import OptimConfig
from bsl_pipeline.training.objectives.base import HeadWarmup, Objective
from bsl_pipeline.training.schedule import phase_lrs, warmup_steps_for

log = logging.getLogger(__name__)

ENCODER_GROUP = "encoder"


def warmup_covers_run_line(head: str, head_steps: int, total_steps: int, key: str = "", prefix: str = "") -> str:
    """The one line that says a head's warm-up leaves the encoder untouched, and the two ways out (`prefix`: where
    the training settings sit in the command's config, e.g. "training." for the main job)."""
    setting = f"{prefix}{key}={head_steps}" if key else f"{head_steps} steps"
    lower = f"-o {prefix}{key}=N" if key else "the warm-up"
    return (f"the {head} warm-up ({setting}) covers the whole run ({total_steps} steps): the encoder would not "
            f"train and the export would equal the starting model; raise {prefix}train.max_steps above "
            f"{head_steps} or set {lower} below {total_steps} (0 = no warm-up)")


def check_warmup_leaves_training(objective: Any, total_steps: int, prefix: str = "") -> None:
    """Refuse, from the `objective` settings alone (before any work), a run whose steps BSL's predictor warm-up
    covers entirely: it would train nothing and export the starting model (`warmup_covers_run_line`)."""
    if objective.name == "bsl" and objective.bsl.predictor_warmup_steps >= total_steps:
        raise BSLError(warmup_covers_run_line("predictor", objective.bsl.predictor_warmup_steps, total_steps,
                                              "objective.bsl.predictor_warmup_steps", prefix))


class PhasePolicy:
    def __init__(self, head: HeadWarmup | None, total_steps: int, optim: OptimConfig):
        self.head = head
        self.total_steps = total_steps
        self.optim = optim
        self.head_steps = min(head.steps, total_steps) if head is not None else 0
        # The encoder's lr warm-up, counted from the end of the head's.
        self.warmup = warmup_steps_for(total_steps - self.head_steps, optim.warmup_steps, optim.warmup_ratio)
        self._head_ids = frozenset(id(p) for p in head.parameters) if head is not None else frozenset()

    @classmethod
    def for_objective(cls, objective: Objective, total_steps: int, optim: OptimConfig, *,
                      warn: bool = True) -> PhasePolicy:
        policy = cls(objective.head_warmup(), total_steps, optim)
        head = policy.head
        if warn and head is not None and policy.head_steps >= total_steps:
            log.warning("%s", warmup_covers_run_line(head.name, head.steps, total_steps))
        return policy

    @property
    def group_names(self) -> list[str]:
        """Param-group names: the encoder's (everything but the head), then the head's."""
        return [ENCODER_GROUP] + ([self.head.name] if self.head is not None else [])

    @property
    def lr_columns(self) -> list[str]:
        """metrics.csv columns for the lrs beside the encoder's (which is the `lr` column)."""
        return [f"lr_{name}" for name in self.group_names if name != ENCODER_GROUP]

    @property
    def has_unused_parameters(self) -> bool:
        """True when some steps leave parameters without a gradient (DDP must look for them)."""
        return self.head_steps > 0

    def is_head(self, param: torch.nn.Parameter) -> bool:
        return id(param) in self._head_ids

    def param_groups(self, trainable: list[torch.nn.Parameter]) -> list[dict[str, Any]]:
        """Optimizer groups by name, each split into weight-decayed and (optionally) undecayed parameters."""
        o = self.optim
        groups = []
        for name in self.group_names:
            decay, no_decay = [], []
            for p in trainable:
                if self.is_head(p) == (name != ENCODER_GROUP):
                    (no_decay if o.no_decay_bias_and_norm and p.ndim <= 1 else decay).append(p)
            groups += [{"params": params, "weight_decay": wd, "name": name}
                       for params, wd in ((decay, o.weight_decay), (no_decay, 0.0)) if params]
        return groups

    def lrs(self, step: int) -> dict[str, float]:
        """Each group's learning rate for optimizer step `step` (0-based), by group name."""
        o = self.optim
        encoder_lr, head_lr = phase_lrs(
            step, head_steps=self.head_steps, head_lr=self.head.lr if self.head is not None else None,
            base_lr=o.lr, total_steps=self.total_steps - self.head_steps, warmup=self.warmup, schedule=o.schedule,
            min_lr_ratio=o.min_lr_ratio)
        return {name: encoder_lr if name == ENCODER_GROUP else head_lr for name in self.group_names}

    def drop_frozen_gradients(self, objective: Objective, trainable: list[torch.nn.Parameter]) -> None:
        """While only the head trains, every other gradient goes: frozen means no update at all, and a zero
        gradient would still move weights through weight decay and Adam's moments (DDP may hand unused
        parameters zeros)."""
        if objective.head_only:
            for p in trainable:
                if not self.is_head(p):
                    p.grad = None

    def ends_phase(self, steps_done: int) -> bool:
        """True when `steps_done` steps complete the head warm-up (a logged window never spans two phases)."""
        return steps_done == self.head_steps

    def state(self, step: int) -> dict[str, Any]:
        """The schedule as a checkpoint records it (informative: the lrs are a pure function of the step)."""
        return {"step": step, "total_steps": self.total_steps, "warmup_steps": self.warmup,
                "head_warmup_steps": self.head_steps, "name": self.optim.schedule}
