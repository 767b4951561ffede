"""The trainer's set-up functions (training.setup): what they refuse before training starts."""

from __future__ import annotations

import pytest

from bsl_pipeline.pipeline.base.errors import BSLError


def test_max_length_above_the_models_positions_is_a_clear_error(tiny_bert_dir, tmp_path):
    from tests.training.test_trainer_utils import tiny_config, write_dataset

    from bsl_pipeline.training.trainer import train

    data = write_dataset(tmp_path / "data", 8, method="noise", seed=0)
    config = tiny_config(tiny_bert_dir, [data], tmp_path / "run", overrides=["train.max_steps=2",
                                                                            "model.max_length=512"])
    with pytest.raises(BSLError, match=r"model\.max_length=512 is more tokens than .* can take \(128"):
        train(config, disable_progress=True)
    assert not (tmp_path / "run" / "final").exists()
