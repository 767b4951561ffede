"""Training as a config describes it: the trainer plus the dev evaluators its `eval` section asks for.

The trainer itself (training.trainer) never imports the evaluation stage; this is where the two meet, so that the
CLI, the flows and the main job each make one call:

    from training import train
    result = train(load_config(TrainConfig, "configs/train_bsl.yaml"))
"""

from __future__ import annotations

from training.config import TrainConfig


def build_trainer(config: TrainConfig, *, disable_progress: bool | None = None):
    """A `training.trainer.Trainer` with the evaluators `config.eval` asks for (STS-B dev when eval.stsb_dir is
    set; the dev file is read and checked before the model is loaded)."""
    from training.evaluation import dev_evaluators
    from training.trainer import Trainer

    return Trainer(config, evaluators=dev_evaluators(config.eval), disable_progress=disable_progress)


def train(config: TrainConfig, *, disable_progress: bool | None = None):
    """Train as configured (resuming when config.train.resume says so); return the `TrainResult`."""
    trainer = build_trainer(config, disable_progress=disable_progress)
    try:
        return trainer.fit()
    finally:
        trainer.close()
