"""The trainer's configuration (training.config): bounds that mean what they say."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("key", ["optim.lr", "optim.weight_decay", "train.epochs", "optim.min_lr_ratio"])
@pytest.mark.parametrize("value", [".inf", ".nan", "-.inf"])
def test_non_finite_training_settings_are_refused(key, value):
    from bsl_pipeline.pipeline.base.config import ConfigError, load_config
    from bsl_pipeline.training.config import TrainConfig

    with pytest.raises(ConfigError, match=rf"{key}: .* is not a finite number"):
        load_config(TrainConfig, None, [f"{key}={value}"])
