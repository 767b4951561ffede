"""What `bsl train` and `bsl flow train` print about a run: nothing that was not set or measured reads as 0 or None."""

from __future__ import annotations

from bsl_pipeline.cli.commands.flow import train_summary
from bsl_pipeline.cli.commands.train import _recipe_summary
from bsl_pipeline.pipeline.base.config import load_config
from bsl_pipeline.training.config import TrainConfig


def test_a_bsl_recipe_without_warmup_says_so():
    with_warmup = load_config(TrainConfig, None, ["objective.bsl.predictor_warmup_steps=5",
                                                 "objective.bsl.predictor_lr=0.001"])
    assert "the first 5 steps training only the predictor at lr 0.001" in _recipe_summary(with_warmup)
    without = load_config(TrainConfig, None, ["objective.bsl.predictor_warmup_steps=0"])
    summary = _recipe_summary(without)
    assert "no predictor-only warm-up" in summary and "first 0" not in summary and "predictor at lr" not in summary


def test_the_train_flow_line_names_the_export_or_why_there_is_none():
    run = {"reused": False, "step": 6, "total_steps": 6, "final_checkpoint": "runs/a/final", "completed": True,
           "export_dir": "runs/a/export"}
    assert train_summary(run) == "trained to step 6/6; checkpoint: runs/a/final; export: runs/a/export"
    assert train_summary({**run, "export_dir": None}).endswith("; no export (export.enabled=false)")
    stopped = train_summary({**run, "export_dir": None, "completed": False, "step": 3})
    assert stopped == "trained to step 3/6; checkpoint: runs/a/final; no export (the run stopped early)"
    assert "None" not in stopped
