"""`bsl train` as a user reads it: what the lines after a run say to do next (in-process, tiny model, CPU)."""

from __future__ import annotations

from tests.training.test_trainer_utils import write_dataset

from bsl_pipeline.cli.cli import main

TINY = ("-o", "model.max_length=32", "-o", "train.batch_size=4", "-o", "train.device=cpu", "-o",
        "train.tensorboard=false", "-o", "eval.at_end=false", "-o", "objective.bsl.predictor_warmup_steps=0",
        "--no-progress")


def test_a_run_stopped_at_stop_at_step_says_to_rerun_without_it_and_doing_so_continues(tmp_path, tiny_bert_dir,
                                                                                     capsys):
    data = write_dataset(tmp_path / "ds", 32)
    run = ["train", "-m", str(data), "--output-dir", str(tmp_path / "run"), "-o",
           f"model.name_or_path={tiny_bert_dir}", *TINY, "-o", "train.max_steps=3"]
    assert main([*run, "-o", "train.stop_at_step=1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("training stopped early at step 1/3; checkpoint: "), out
    assert out[1] == ("to continue: rerun with --resume and without train.stop_at_step=1 (or with a later step); "
                      "the same command stops here again"), out
    # The same command stops at the same step again, as the line says ...
    assert main([*run, "--resume", "-o", "train.stop_at_step=1"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("training stopped early at step 1/3"), out
    # ... and what it advises continues.
    assert main([*run, "--resume", "-o", "train.stop_at_step=2"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("training stopped early at step 2/3")
    assert main([*run, "--resume"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("training finished at step 3/3"), out
    assert not any(line.startswith("to continue") for line in out), out


def test_print_config_refuses_what_the_run_refuses_with_the_same_line(tmp_path, tiny_bert_dir, capsys):
    from pathlib import Path

    data = write_dataset(tmp_path / "ds", 8)
    recipe = Path(__file__).resolve().parents[3] / "configs" / "recipes" / "supervised.yaml"
    model = ("-o", f"model.name_or_path={tiny_bert_dir}")
    cases = {"device": [*model, "-o", "train.device=tpu"], "resume": [*model, "-o", "train.resume=maybe"],
             "recipe file": ["-c", str(recipe)]}
    errors = {}
    for name, settings in cases.items():
        assert main(["train", "-m", str(data), *settings, "--print-config"]) == 1, name
        printed = capsys.readouterr()
        errors[name] = printed.err
        assert printed.out == "", name
        assert main(["train", "-m", str(data), "--output-dir", str(tmp_path / "run"), *settings]) == 1, name
        assert capsys.readouterr().err == printed.err, name
        assert not (tmp_path / "run").exists(), name
    assert errors["device"] == "bsl train: error: 'tpu' is not a valid device (auto, cpu, cuda, cuda:N, mps)\n"
    assert errors["resume"].startswith("bsl train: error: train.resume=maybe: not a resumable checkpoint (")
    # The recipe file is named as the recipe it is, with the flag that runs it as one.
    recipe_error = errors["recipe file"]
    assert f"{recipe} is the recipe supervised" in recipe_error, recipe_error
    assert "`bsl train --recipe supervised`" in recipe_error and "unsupervised" not in recipe_error, recipe_error
