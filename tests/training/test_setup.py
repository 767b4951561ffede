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


def test_a_starting_model_whose_modules_json_leads_out_is_refused_before_training(tiny_bert_dir, tmp_path):
    """The export reads the starting model's modules.json at the end of the run; a folder it names outside the
    model stops the run before it trains, not after."""
    import json
    import shutil

    from tests.training.test_trainer_utils import tiny_config, write_dataset

    from bsl_pipeline.training.trainer import train

    model = tmp_path / "st"
    shutil.copytree(tiny_bert_dir, model)
    (tmp_path / "pooling").mkdir()
    (tmp_path / "pooling" / "config.json").write_text(json.dumps({"pooling_mode": "mean"}))
    (model / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "../pooling", "type": "sentence_transformers.models.Pooling"}]))
    data = write_dataset(tmp_path / "data", 8, method="noise", seed=0)
    config = tiny_config(model, [data], tmp_path / "run", overrides=["train.max_steps=2"])
    with pytest.raises(BSLError, match=r"modules\.json: module 1's path: '\.\./pooling' points outside "):
        train(config, disable_progress=True)
    assert not (tmp_path / "run" / "final").exists() and not (tmp_path / "run" / "metrics.csv").exists()
