"""`bsl evaluate` (cli.commands.evaluate): what it refuses before any model loads."""

from __future__ import annotations

import pytest

from bsl_pipeline.cli.cli import main


@pytest.mark.parametrize("flag", ["--json", "--markdown", "--plot"])
def test_evaluate_refuses_output_paths_that_cannot_be_files_before_evaluating(tmp_path, tiny_bert_dir, shared_data,
                                                                              capsys, monkeypatch, flag):
    import bsl_pipeline.evaluation.runner as runner

    def no_evaluation(*_args, **_kw):
        raise AssertionError("the evaluation ran")

    monkeypatch.setattr(runner, "evaluate_models", no_evaluation)
    (tmp_path / "a_file").write_text("x", encoding="utf-8")
    (tmp_path / "a_dir").mkdir()
    cases = {str(tmp_path / "a_dir"): f"{tmp_path / 'a_dir'} is a directory; give a file name",
             str(tmp_path / "new_dir") + "/": f"{tmp_path / 'new_dir'}/ is a directory; give a file name",
             str(tmp_path / "a_file" / "out.x"): f"{tmp_path / 'a_file'} is not a directory"}
    for out, message in cases.items():
        assert main(["evaluate", str(tiny_bert_dir), "--data-dir", str(shared_data), flag, out]) == 1
        err = capsys.readouterr().err
        assert message in err and "the evaluation ran" not in err, err
    assert not (tmp_path / "new_dir").exists() and (tmp_path / "a_file").read_text() == "x"



@pytest.mark.parametrize("first, second", [("--json", "--markdown"), ("--markdown", "--plot"), ("--json", "--plot")])
def test_evaluate_refuses_two_outputs_at_one_file_before_evaluating(tmp_path, tiny_bert_dir, shared_data, capsys,
                                                                  monkeypatch, first, second):
    """One writer per file: the second output would replace the first (both reported as written)."""
    import bsl_pipeline.evaluation.runner as runner

    def no_evaluation(*_args, **_kw):
        raise AssertionError("the evaluation ran")

    monkeypatch.setattr(runner, "evaluate_models", no_evaluation)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path)
    for same in ("out1.json", "./out1.json", "sub/../out1.json", str(tmp_path / "alias" / "out1.json")):
        assert main(["evaluate", str(tiny_bert_dir), "--data-dir", str(shared_data), first, "out1.json",
                     second, same]) == 1
        err = capsys.readouterr().err
        assert err.strip().splitlines() == [f"bsl evaluate: error: {first} out1.json and {second} {same} name the "
                                            f"same file; give each output its own file"], err
    assert not (tmp_path / "out1.json").exists()

def test_help_examples_name_directories_bsl_train_writes(capsys):
    import re

    from bsl_pipeline.training.run_directory import BEST_DIR, EXPORT_DIR, FINAL_DIR

    with pytest.raises(SystemExit):
        main(["evaluate", "--help"])
    examples = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  bsl evaluate ")]
    named = {name for line in examples for name in re.findall(r"runs/bsl/([^\s/]+)", line)}
    assert named and named <= {FINAL_DIR, EXPORT_DIR, BEST_DIR}, named


def test_evaluate_refuses_a_cache_dir_in_a_model_or_the_data_dir_before_evaluating(tmp_path, tiny_bert_dir,
                                                                                    shared_data, capsys):
    """`bsl evaluate md/x --cache-dir md/x` wrote embeddings into the model folder while `--json` there was refused:
    the embedding cache may not be, hold or lie inside a model or the data dir, checked before any model loads (in
    `evaluate_models`, so the flows and the main job refuse it too)."""
    import shutil

    from bsl_pipeline.evaluation.config import EvaluationConfig
    from bsl_pipeline.evaluation.runner import evaluate_models
    from bsl_pipeline.pipeline.base.ownership import OwnershipError

    model = tmp_path / "model"
    shutil.copytree(tiny_bert_dir, model)
    data = tmp_path / "data"
    shutil.copytree(shared_data / "stsbenchmark", data / "stsbenchmark")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    cases = {model: model, model / "cache": model, data / "cache": data, tmp_path: model}
    for cache, holder in cases.items():
        assert main(["evaluate", str(model), "--data-dir", str(data), "--tasks", "stsb", "--no-progress",
                     "--cache-dir", str(cache)]) == 1
        err = capsys.readouterr().err
        assert err.strip().splitlines() == [f"bsl evaluate: error: cache_dir {cache} and input {holder} overlap: "
                                            f"choose another cache_dir outside the input (the tool never writes "
                                            f"over what it reads)"], err
        with pytest.raises(OwnershipError, match=f"cache_dir {cache} and input {holder} overlap"):
            evaluate_models([str(model)], EvaluationConfig(data_dir=str(data), tasks=["stsb"], cache_dir=str(cache)),
                            disable_progress=True)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before  # nothing written anywhere
    # A cache beside them is used as before.
    assert main(["evaluate", str(model), "--data-dir", str(data), "--tasks", "stsb", "--no-progress", "--no-stsb-dev",
                 "--cache-dir", str(tmp_path.parent / f"{tmp_path.name}-cache")]) == 0
    assert any((tmp_path.parent / f"{tmp_path.name}-cache").rglob("*.npy"))


def test_no_progress_hides_every_bar_including_transformers_loading_bar(tmp_path, tiny_bert_dir, shared_data,
                                                                        capsys, monkeypatch):
    from transformers.utils import logging as hf_logging

    monkeypatch.delenv("BSL_NO_PROGRESS", raising=False)
    hf_logging.enable_progress_bar()  # transformers' own default: nothing earlier in the session turned it off
    args = ["evaluate", str(tiny_bert_dir), "--data-dir", str(shared_data), "--tasks", "stsb", "--no-stsb-dev",
            "--cache-dir", str(tmp_path / "cache")]
    assert main([*args, "-q"]) == 0
    err = capsys.readouterr().err
    assert "%|" not in err and "Loading weights" not in err, err
    assert hf_logging.is_progress_bar_enabled()  # transformers' setting is left as it was
