"""What a run has done so far: the one mutable record the loop advances and a checkpoint saves and restores."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class RunState:
    step: int = 0                              # optimizer steps done (applied or skipped)
    skipped_steps: int = 0                     # steps whose gradients were not finite
    best_metric: float | None = None           # best headline dev metric so far (what output_dir/best holds)
    best_step: int | None = None
    last_eval: dict[str, float] = field(default_factory=dict)
    last_eval_step: int | None = None
    history: list[dict[str, Any]] = field(default_factory=list)   # the logged rows of this process's run
    resumed_from: Path | None = None

    @property
    def eval_of_this_step(self) -> dict[str, float]:
        """The evaluation of the current step, or {} when the last one was earlier."""
        return self.last_eval if self.last_eval_step == self.step else {}

    def checkpoint_fields(self) -> dict[str, Any]:
        """The `run` section of trainer_state.pt."""
        return {"skipped_steps": self.skipped_steps, "best_metric": self.best_metric, "best_step": self.best_step,
                "last_eval": self.last_eval, "last_eval_step": self.last_eval_step}

    def restore(self, step: int, run: dict[str, Any], resumed_from: Path) -> None:
        self.step = step
        self.skipped_steps = int(run.get("skipped_steps", 0))
        self.best_metric = run.get("best_metric")
        self.best_step = run.get("best_step")
        self.last_eval = dict(run.get("last_eval") or {})
        self.last_eval_step = run.get("last_eval_step")
        self.resumed_from = resumed_from
