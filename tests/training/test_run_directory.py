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


@pytest.mark.parametrize("export_rel", ["runs", "runs/out/export2"])
def test_an_export_dir_overlapping_the_run_names_the_run_directory(tmp_path, export_rel):
    """The run directory is the other output, not an input, and the message names the setting it is."""
    from bsl_pipeline.pipeline.base.ownership import OwnershipError
    from bsl_pipeline.training.config import ExportConfig, TrainLoopConfig
    from bsl_pipeline.training.distributed import DistInfo
    from bsl_pipeline.training.run_directory import claim_run_directory

    out, export = tmp_path / "runs" / "out", tmp_path / export_rel
    with pytest.raises(OwnershipError) as exc:
        claim_run_directory(TrainLoopConfig(output_dir=str(out)), DistInfo(), sources=[], model_path="",
                            export=ExportConfig(dir=str(export)))
    assert str(exc.value) == (f"export.dir {export} and train.output_dir {out} overlap: choose another export.dir "
                              f"outside train.output_dir")
    assert not out.exists()


def test_an_output_dir_inside_its_input_is_worded_for_the_setting(tmp_path):
    from bsl_pipeline.pipeline.base.ownership import OwnershipError, check_not_input

    with pytest.raises(OwnershipError) as exc:
        check_not_input(tmp_path / "ds" / "run", [tmp_path / "ds"], "train.output_dir")
    assert str(exc.value) == (f"train.output_dir {tmp_path / 'ds' / 'run'} and input {tmp_path / 'ds'} overlap: "
                              f"choose another train.output_dir outside the input (the tool never writes over what "
                              f"it reads)")
