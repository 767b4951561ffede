"""The run directory's claim (training.run_directory): a run never writes into its own input."""

from __future__ import annotations

import pytest

from small_corpus import DOG_LINES, noise_dataset


def test_training_refuses_an_output_dir_inside_a_dataset_given_by_its_registry_json(tmp_path, tiny_bert_dir):
    """The overlap check compared train.output_dir with the registry JSON, not the dataset it names: a run could
    write into the dataset directory."""
    from tests.training.test_trainer_utils import tiny_config

    from bsl_pipeline.pipeline.base.ownership import OwnershipError
    from bsl_pipeline.training.trainer import train

    noise_dataset(tmp_path, "ds", DOG_LINES)
    registered = tmp_path / "registry" / "datasets" / "ds.json"
    assert registered.is_file()
    config = tiny_config(tiny_bert_dir, [registered], tmp_path / "ds" / "run", overrides=["train.max_steps=1"])
    with pytest.raises(OwnershipError, match=r"train\.output_dir .*ds/run and input .*ds overlap"):
        train(config, disable_progress=True)
    assert not (tmp_path / "ds" / "run").exists()
