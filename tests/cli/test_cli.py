import subprocess
import sys

import pytest

from bsl_pipeline.cli.cli import main


def test_help_lists_commands_and_config_keys(capsys):
    assert main([]) == 2
    out = capsys.readouterr().out
    for cmd in ("augment", "verify", "inspect", "methods"):
        assert cmd in out


def test_augment_help_documents_every_config_key():
    proc = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "augment", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0
    for key in ("corpus.encoding_errors", "filters.max_length_ratio", "corpus.chunk_size", "method_params"):
        assert key in proc.stdout


def test_print_config_applies_overrides(capsys):
    assert main(["augment", "--methods", "identity", "-o", "corpus.min_words=4", "--print-config"]) == 0
    out = capsys.readouterr().out
    assert "- identity" in out and "min_words: 4" in out


@pytest.mark.parametrize("argv", [["evaluate"], ["corpus-manifest"], ["flow", "evaluate"], ["flow", "augment"],
                                  ["flow", "train"], ["augment"], ["train"], ["demo"], ["data", "fetch"]])
def test_print_config_needs_no_positional_the_config_does_not_need(argv, capsys):
    import yaml

    assert main([*argv, "--print-config"]) == 0
    assert isinstance(yaml.safe_load(capsys.readouterr().out), dict)


def test_without_print_config_the_positionals_are_still_required(capsys):
    for argv, name in ((["evaluate"], "MODEL"), (["corpus-manifest"], "corpus"), (["flow", "evaluate"], "MODEL")):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        assert f"the following arguments are required: {name}" in capsys.readouterr().err


@pytest.mark.parametrize("overrides, message", [
    (["--methods", "synonyms,bogus"], "unknown method 'bogus'"),
    (["--methods", "synonyms", "-o", "method_params.synonyms.fraction=2"],
     "method_params.synonyms.fraction: 2.0 is out of range ([0, 1])"),
    (["--methods", "noise", "-o", "method_params.synonyms.fraction=0.5"],
     "method_params given for method(s) not in methods: synonyms"),
    (["--methods", "noise", "-o", "method_filters.noise.bogus=1"],
     "unknown config key(s) method_filters.noise.bogus; valid keys for FilterConfig: encoder,"),
    (["--methods", "noise", "-o", "method_filters.noise.min_words=-1"], "method_filters.noise.min_words: -1"),
])
def test_augment_print_config_refuses_what_a_run_refuses(tmp_path, capsys, overrides, message):
    assert main(["augment", *overrides, "--print-config"]) == 1
    printed = capsys.readouterr()
    assert printed.out == "" and printed.err.startswith(f"bsl augment: error: {message}")
    assert len(printed.err.splitlines()) == 1
    corpus = tmp_path / "c.txt"
    corpus.write_text("a sentence of several words\n", encoding="utf-8")
    assert main(["augment", str(corpus), "--out", str(tmp_path / "ds"), *overrides]) == 1
    assert capsys.readouterr().err == printed.err  # the same line as a run
    assert not (tmp_path / "ds").exists()


def test_evaluate_and_flow_augment_print_config_refuse_what_a_run_refuses(capsys):
    assert main(["evaluate", "--tasks", "bogus", "--print-config"]) == 1
    assert "unknown task(s) bogus" in capsys.readouterr().err
    assert main(["flow", "augment", "--methods", "synonyms,bogus", "--print-config"]) == 1
    assert capsys.readouterr().err.startswith("bsl flow: error: unknown method 'bogus'")
    assert main(["flow", "augment", "--methods", "noise", "-o", "method_filters.noise.bogus=1", "--print-config"]) == 1
    assert capsys.readouterr().err.startswith("bsl flow: error: unknown config key(s) method_filters.noise.bogus")


@pytest.mark.parametrize("command, setting, run_with, message", [
    (["evaluate"], ["-o", "pooling=foo"], ["MODEL"], "unsupported pooling 'foo'"),
    (["evaluate"], ["-o", "device=tpu"], ["MODEL"], "'tpu' is not a valid device"),
    (["evaluate"], ["-o", "sts17_pairs=[xx-yy]"], ["MODEL"], "unknown STS17 language pair(s) xx-yy"),
    (["augment", "--methods", "synonyms"], ["-o", "corpus.format=xml"], ["CORPUS", "--out", "OUT"],
     "corpus.format: unknown corpus format 'xml'"),
    (["augment", "--methods", "synonyms"], ["-o", "corpus.on_bad_line=skip"], ["CORPUS", "--out", "OUT"],
     "corpus.on_bad_line: on_bad_line must be 'error' or 'keep'"),
    (["data", "fetch"], ["-o", "sets=[nope]"], ["--to", "OUT"], "unknown set(s) nope"),
    (["train", "-o", "model.name_or_path=MODEL"], ["-o", "export.source=best"], ["-m", "DATASET", "--output-dir", "OUT"],
     "export.source=best but this run writes no best checkpoint"),
    (["flow", "evaluate"], ["-o", "pooling=foo"], ["MODEL"], "unsupported pooling 'foo'"),
    (["flow", "train", "-F", "evaluate=true"], ["-F", "evaluation.device=tpu"], ["-m", "DATASET", "--output-dir", "OUT"],
     "'tpu' is not a valid device"),
])
def test_print_config_refuses_what_the_run_refuses_with_the_same_line(command, setting, run_with, message,
                                                                      tiny_bert_dir, tmp_path, capsys):
    """--print-config accepted values the run then refused; each command's --print-config now checks them with
    the function its run checks them with, and says the same line, before anything is read or written."""
    corpus = tmp_path / "c.txt"
    corpus.write_text("a sentence of several words\n", encoding="utf-8")
    names = {"MODEL": str(tiny_bert_dir), "CORPUS": str(corpus), "OUT": str(tmp_path / "out"),
             "DATASET": str(tmp_path / "no-dataset")}
    command = [arg.replace("MODEL", str(tiny_bert_dir)) for arg in command]
    assert main([*command, *setting, "--print-config"]) == 1
    printed = capsys.readouterr()
    assert printed.out == "" and message in printed.err and len(printed.err.splitlines()) == 1, printed.err
    assert main([*command, *[names.get(arg, arg) for arg in run_with], *setting]) == 1
    assert capsys.readouterr().err == printed.err  # the run's own line, before the model or the data is read
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv, message", [
    (["-o", "train.batch_size=abc"], "train.batch_size: expected an integer, got 'abc'"),
    (["-o", "train.batch_size=0"], "train.batch_size: 0 is out of range"),
    (["-F", "evaluate=true", "-F", "artifact_key=Bad Key"], "artifact key 'Bad Key' must be lowercase"),
    (["-F", "evaluate=true", "-F", "evaluation.batch_size=abc"], "batch_size: expected an integer, got 'abc'"),
])
def test_flow_train_print_config_needs_no_dataset_and_refuses_what_a_run_refuses(capsys, argv, message):
    """`bsl flow train --print-config` refused to print anything without a dataset; it prints the settings alone
    (and the evaluation's with evaluate=true), while a bad value is still the run's one line, and a run still
    needs a dataset."""
    import yaml

    assert main(["flow", "train", "-F", "evaluate=true", "--print-config"]) == 0
    printed = yaml.safe_load(capsys.readouterr().out)
    assert printed["train_config"]["data"]["sources"] == [] and printed["evaluation_config"]["batch_size"] > 0
    assert main(["flow", "train", *argv, "--print-config"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"bsl flow: error: {message}") and len(err.splitlines()) == 1, err
    assert main(["flow", "train", "--no-verify"]) == 1
    assert capsys.readouterr().err.startswith("bsl flow: error: train flow: no datasets")


@pytest.mark.parametrize("argv, later, changed", [
    (["flow", "train", "-m", "ds/views", "--recipe", "supervised", "--output-dir", "runs/a", "--overwrite", "-o",
      "optim.lr=3e-5", "-F", "evaluate=true", "-F", "evaluation.tasks=[stsb]", "-F", "retries=1"],
     ["-F", "retries=2"], ("flow", "retries")),
    (["flow", "evaluate", "runs/a/export", "--tasks", "stsb,sickr", "--artifact-key", "mine", "-o", "batch_size=8"],
     ["-o", "batch_size=9"], ("evaluation_config", "batch_size")),
    (["flow", "augment", "corpus.txt", "--out", "ds/x", "--methods", "synonyms", "--seed", "3", "--retries", "1",
      "-F", "runner.max_workers=3", "-o", "corpus.min_words=2"], ["--retries", "2"], ("flow", "tasks")),
])
def test_a_flows_printed_config_loads_back_as_its_config_and_prints_the_same(argv, later, changed, tmp_path, capsys):
    """What `bsl flow train|evaluate|augment --print-config` printed was refused as --config ("unknown config
    key(s) flow, train_config"); it loads back, flow settings and stage config alike, and prints the same again."""
    import yaml

    assert main([*argv, "--print-config"]) == 0
    printed = capsys.readouterr().out
    document = yaml.safe_load(printed)
    (tmp_path / "printed.yaml").write_text(printed, encoding="utf-8")
    assert main([*argv[:2], "--config", str(tmp_path / "printed.yaml"), "--print-config"]) == 0
    assert capsys.readouterr().out == printed
    # the flags, -F and -o still win over it, as over any --config; nothing else moves
    assert main([*argv[:2], "--config", str(tmp_path / "printed.yaml"), *later, "--print-config"]) == 0
    again = yaml.safe_load(capsys.readouterr().out)
    section, key = changed
    assert again[section][key] != document[section][key]
    again[section][key] = document[section][key]
    assert again == document
    if argv[1] == "train":  # the recipe, --overwrite and -o are in the training config; the flow shows none again
        assert (document["train_config"]["objective"]["name"], document["train_config"]["optim"]["lr"],
                document["train_config"]["train"]["overwrite"]) == ("mnrl", 3e-5, True)
        assert (document["flow"]["recipe"], document["flow"]["overrides"], document["flow"]["train"]) == ("", [], {})
        assert document["evaluation_config"]["tasks"] == ["stsb"] and document["flow"]["evaluation"] == {}


def test_a_flows_config_may_still_be_a_stage_config_file(tmp_path, capsys):
    import yaml

    (tmp_path / "train.yaml").write_text("optim: {lr: 1.0e-4}\nmodel: {name_or_path: some/model}\n",
                                         encoding="utf-8")
    assert main(["flow", "train", "--config", str(tmp_path / "train.yaml"), "--print-config"]) == 0
    document = yaml.safe_load(capsys.readouterr().out)
    assert document["train_config"]["optim"]["lr"] == 1e-4 and document["flow"]["config_file"] == ""
    (tmp_path / "mixed.yaml").write_text("flow: {}\noptim: {lr: 1.0e-4}\n", encoding="utf-8")
    assert main(["flow", "train", "--config", str(tmp_path / "mixed.yaml"), "--print-config"]) == 1
    assert "unknown config key(s) flow" in capsys.readouterr().err


def _bsl(*args):
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], capture_output=True, text=True)


def test_bad_inputs_give_one_clear_line_and_no_traceback(tmp_path):
    bad_utf8 = tmp_path / "bad.txt"
    bad_utf8.write_bytes(b"fine\n\xff\xfe broken\n")
    cases = [
        (("augment", str(bad_utf8), "--out", str(tmp_path / "o1"), "-o", "registry_dir="), "bad.txt:2: invalid UTF-8"),
        (("augment", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "o2")), "corpus not found"),
        (("augment", str(bad_utf8), "--out", str(tmp_path / "o3"), "--methods", "nope"), "unknown method 'nope'"),
        (("augment", str(bad_utf8), "--out", str(tmp_path / "o4"), "-o", "corpus.chunk_size=x"),
         "corpus.chunk_size: expected an integer"),
        (("verify", str(tmp_path)), "no manifest at"),
    ]
    for args, message in cases:
        proc = _bsl(*args)
        assert proc.returncode == 1, (args, proc.stderr)
        assert message in proc.stderr and "Traceback" not in proc.stderr, (args, proc.stderr)


def test_replace_mode_counts_and_keeps_going(tmp_path):
    bad_utf8 = tmp_path / "bad.txt"
    bad_utf8.write_bytes(b"a fine sentence here\n\xff\xfe broken line here\n")
    proc = _bsl("augment", str(bad_utf8), "--out", str(tmp_path / "o"), "--methods", "identity",
                "-o", "corpus.encoding_errors=replace", "-o", "registry_dir=", "-o", "progress=false")
    assert proc.returncode == 0, proc.stderr
    import json

    m = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert m["source"]["replacement_chars"] == 2 and m["stats"]["pairs"] == 2


def test_corpus_manifest_matches_the_shared_data_checksums(tmp_path, shared_data):
    import csv
    import json

    proc = _bsl("corpus-manifest", str(shared_data / "nli/snli/dev.csv"), "--name", "snli-dev",
                "--registry-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    m = json.loads((tmp_path / "sources" / "snli-dev.json").read_text())
    with open(shared_data / "MANIFEST.tsv", encoding="utf-8") as fh:
        expected = {row["path"]: row for row in csv.DictReader(fh, delimiter="\t")}["nli/snli/dev.csv"]
    assert m["files"][0]["sha256"] == expected["sha256"] and m["records_read"] == int(expected["count"])
    assert m["dropped"] == {"duplicate": 2} and sum(m["labels"].values()) == m["records_kept"] == 9829


def test_python_dash_m_bsl_lists_every_stage_command():
    proc = _bsl("--help")
    assert proc.returncode == 0, proc.stderr
    for command in ("augment", "verify", "inspect", "corpus-manifest", "corpus", "methods", "train", "evaluate",
                    "flow", "schedule", "demo"):
        assert command in proc.stdout


def test_a_stage_that_fails_to_import_fails_bsl_instead_of_losing_its_command():
    code = "import sys; sys.modules['bsl_pipeline.flows.main_job'] = None; import bsl_pipeline.cli.cli"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 1 and "ModuleNotFoundError: import of bsl_pipeline.flows.main_job halted" in proc.stderr


def test_flags_become_overrides_before_the_users_o():
    import argparse

    from bsl_pipeline.cli.config_args import command_overrides, to_constant, to_value

    args = argparse.Namespace(name="yes", seed=0, workers=3, no_cache=True, quiet=False, manifest=[],
                              missing=None, overrides=["name=from-o"])
    flags = {"name": "name", "seed": "train.seed", "workers": to_value("a.threads", "b.processes"),
             "no_cache": to_constant("cache_dir", None), "quiet": to_constant("progress", False),
             "manifest": "sources", "missing": "never", "absent": "never"}
    assert command_overrides(args, flags) == ['name="yes"', "train.seed=0", "a.threads=3", "b.processes=3",
                                              "cache_dir=null", "name=from-o"]


def test_one_precedence_rule_defaults_yaml_flags_o(tmp_path, capsys):
    import yaml

    (tmp_path / "augment.yaml").write_text("seed: 7\nname: from-yaml\nmethods: [noise]\ncorpus: {min_words: 3}\n")
    assert main(["augment", "-c", str(tmp_path / "augment.yaml"), "--seed", "8", "--name", "yes",
                 "-o", "seed=9", "--print-config"]) == 0
    config = yaml.safe_load(capsys.readouterr().out)
    # YAML beats the defaults, --name beats YAML (and stays a string), -o beats --seed
    assert (config["seed"], config["name"], config["methods"], config["corpus"]["min_words"]) == (
        9, "yes", ["noise"], 3)


def test_o_beats_the_dedicated_flags_of_train_and_evaluate(tmp_path, capsys):
    import yaml

    assert main(["train", "--output-dir", "runs/flag", "-o", "train.output_dir=runs/o", "--manifest", "ds1",
                 "--resume", "--print-config"]) == 0
    config = yaml.safe_load(capsys.readouterr().out)
    assert config["train"]["output_dir"] == "runs/o" and config["train"]["resume"] == "auto"
    assert config["data"]["sources"] == [{"path": "ds1", "methods": None, "weight": None}]

    (tmp_path / "eval.yaml").write_text("batch_size: 8\ndata_dir: /data/yaml\n")
    assert main(["evaluate", "m", "-c", str(tmp_path / "eval.yaml"), "--batch-size", "16", "-o", "batch_size=32",
                 "--data-dir", "/data/flag", "--tasks", "stsb,sickr", "--print-config"]) == 0
    config = yaml.safe_load(capsys.readouterr().out)
    assert (config["batch_size"], config["data_dir"], config["tasks"]) == (32, "/data/flag", ["stsb", "sickr"])


def test_o_beats_the_dedicated_flags_of_flow_evaluate(capsys):
    import yaml

    assert main(["flow", "evaluate", "m", "--data-dir", "/data/flag", "-o", "data_dir=/data/o", "--tasks", "stsb",
                 "--print-config"]) == 0
    printed = yaml.safe_load(capsys.readouterr().out)
    assert printed["evaluation_config"]["data_dir"] == "/data/o" and printed["evaluation_config"]["tasks"] == ["stsb"]
    assert printed["flow"]["overrides"] == []  # shown by evaluation_config, which they made


# Every command that draws progress bars, and the older spellings of --no-progress it keeps.
PROGRESS_COMMANDS = {("augment",): (), ("flow", "augment"): (), ("verify",): ("-q", "--quiet"),
                     ("train",): ("-q", "--quiet"), ("evaluate",): (), ("data", "fetch"): (), ("demo",): (),
                     ("corpus",): ()}


def test_every_command_that_draws_bars_takes_the_one_progress_pair():
    from bsl_pipeline.cli.cli import _chosen_parser, build_parser

    parser = build_parser()
    for argv, aliases in PROGRESS_COMMANDS.items():
        sub = _chosen_parser(parser, list(argv))
        for flag, value in (("--progress", "on"), ("--no-progress", "off"), *((a, "off") for a in aliases)):
            action = next(a for a in sub._actions if flag in a.option_strings)
            assert (action.dest, action.const) == ("progress", value), (argv, flag)


def test_bsl_no_progress_and_every_spelling_of_no_progress_hide_the_verify_bar(tmp_path):
    import os

    from small_corpus import augmented_dataset, write_corpus

    ds = augmented_dataset(tmp_path, write_corpus(tmp_path))
    env = {k: v for k, v in os.environ.items() if k != "BSL_NO_PROGRESS"}

    def verify_stderr(*flags, **extra):
        proc = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "verify", str(ds), *flags],
                              capture_output=True, text=True, env={**env, **extra})
        assert proc.returncode == 0 and proc.stdout.startswith(f"OK: {ds}: "), proc.stderr
        return proc.stderr

    assert "verify: 100%" in verify_stderr() and "verify: 100%" in verify_stderr("--progress")
    assert verify_stderr(BSL_NO_PROGRESS="1") == ""
    assert verify_stderr("--progress", BSL_NO_PROGRESS="1") == ""  # the variable hides every bar
    for flag in ("--no-progress", "-q", "--quiet"):
        assert verify_stderr(flag) == ""
