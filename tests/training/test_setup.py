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


@pytest.mark.parametrize("file, content, expected", [
    ("sentence_bert_config.json", {"max_seq_length": "abc"}, 'max_seq_length must be an integer in [2, 32768], got "abc"'),
    ("pooling/config.json", {"pooling_mode_cls_token": "no"}, 'pooling_mode_cls_token must be true or false, got "no"'),
])
def test_a_starting_model_whose_module_configs_are_wrong_is_refused_before_training(tiny_bert_dir, tmp_path, file,
                                                                                   content, expected):
    """The export reads the starting model's module configs at the end of the run (its max_seq_length, its pooling,
    its Dense modules); a wrong value stops the run before it trains, with the evaluator's line naming the file."""
    import json
    import shutil

    from tests.training.test_trainer_utils import tiny_config, write_dataset

    from bsl_pipeline.training.trainer import train

    model = tmp_path / "st"
    shutil.copytree(tiny_bert_dir, model)
    (model / "pooling").mkdir()
    (model / "pooling" / "config.json").write_text(json.dumps({"pooling_mode_mean_tokens": True}))
    (model / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 64, "do_lower_case": False}))
    (model / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "pooling", "type": "sentence_transformers.models.Pooling"}]))
    (model / file).write_text(json.dumps(content))
    data = write_dataset(tmp_path / "data", 8, method="noise", seed=0)
    config = tiny_config(model, [data], tmp_path / "run", overrides=["train.max_steps=2", "export.enabled=true"])
    with pytest.raises(BSLError) as exc:
        train(config, disable_progress=True)
    assert str(exc.value) == f"{model / file}: {expected}"
    assert not (tmp_path / "run" / "final").exists() and not (tmp_path / "run" / "metrics.csv").exists()
    # Without an export nothing reads them: the run trains.
    config = tiny_config(model, [data], tmp_path / "run", overrides=["train.max_steps=2", "export.enabled=false"])
    assert train(config, disable_progress=True).completed
