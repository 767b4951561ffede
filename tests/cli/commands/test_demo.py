"""`bsl demo` as a user reads it: --print-config refuses what the run would refuse, with the same line."""

from __future__ import annotations

from bsl_pipeline.cli.cli import main


def test_print_config_refuses_the_training_and_evaluation_settings_the_run_refuses(tmp_path, capsys):
    out = tmp_path / "demo"
    cases = {"train device": ["-o", "training.train.device=tpu"],
             "evaluation pooling": ["-o", "evaluation.pooling=bogus"],
             "evaluation tasks": ["-o", "evaluation.tasks=[sts12,nope]"]}
    errors = {}
    for name, settings in cases.items():
        assert main(["demo", *settings, "--print-config"]) == 1, name
        printed = capsys.readouterr()
        errors[name] = printed.err
        assert printed.out == "", name
        assert printed.err.count("\n") == 1, printed.err
        # The run refuses the same settings with the same line, before it writes anything.
        assert main(["demo", "--out", str(out), "--no-progress", *settings]) == 1, name
        assert capsys.readouterr().err == printed.err, name
        assert not out.exists(), name
    assert errors["train device"] == "bsl demo: error: 'tpu' is not a valid device (auto, cpu, cuda, cuda:N, mps)\n"
    assert errors["evaluation pooling"].startswith("bsl demo: error: unsupported pooling 'bogus'; expected one of ")
    assert "nope" in errors["evaluation tasks"], errors["evaluation tasks"]


def test_print_config_checks_the_evaluation_settings_only_when_the_job_evaluates(capsys):
    assert main(["demo", "-o", "evaluate=false", "-o", "evaluation.pooling=bogus", "--print-config"]) == 0
    printed = capsys.readouterr()
    assert "pooling: bogus" in printed.out and printed.err == "", printed
