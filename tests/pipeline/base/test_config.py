"""The configuration language (pipeline.base.config): YAML as it is read, and what it refuses."""

from __future__ import annotations

import pytest

from one_line import one_line_error
from small_corpus import run_bsl


def test_deeply_nested_config_is_refused_naming_the_file(tmp_path):
    from bsl_pipeline.pipeline.base.config import ConfigError, MAX_CONFIG_DEPTH, load_yaml

    deep = tmp_path / "deep.yaml"
    deep.write_text("a: " + "[" * 20_000 + "]" * 20_000 + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"deep.yaml line 1: values nested more than {MAX_CONFIG_DEPTH} deep"):
        load_yaml(deep)
    indented = tmp_path / "indented.yaml"
    indented.write_text("".join("  " * i + "k:\n" for i in range(3000)) + "  " * 3000 + "1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="indented.yaml line 100: values nested more than"):
        load_yaml(indented)
    one_line_error(run_bsl("augment", "--config", str(deep), str(tmp_path), "--out", str(tmp_path / "out")),
                    f"{deep} line 1: values nested more than {MAX_CONFIG_DEPTH} deep")
    # The limit is far above any real config: 20 levels load.
    ok = tmp_path / "ok.yaml"
    ok.write_text("a: " + "[" * 20 + "1" + "]" * 20 + "\n", encoding="utf-8")
    assert load_yaml(ok)["a"] == [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]


def test_yaml_1_1_boolean_words_stay_text_where_a_setting_is_text(tmp_path):
    from bsl_pipeline.pipeline.augment.augmenters.translation import TranslationConfig
    from bsl_pipeline.pipeline.augment.job import AugmentConfig
    from bsl_pipeline.pipeline.base.config import load_config, parse_yaml

    assert parse_yaml("[no, yes, on, off, y, n, NO, true, False]", "x") == [
        "no", "yes", "on", "off", "y", "n", "NO", True, False]
    cfg = load_config(TranslationConfig, overrides=["languages=[no, de]", "targets.no.model=/models/en-no"])
    assert cfg.languages == ["no", "de"] and cfg.targets["no"].model == "/models/en-no"
    path = tmp_path / "translation.yaml"
    path.write_text("languages:\n  - no\n  - on\ntargets:\n  no:\n    prefix: '>>nob<< '\n", encoding="utf-8")
    cfg = load_config(TranslationConfig, path)
    assert cfg.languages == ["no", "on"] and cfg.targets["no"].prefix == ">>nob<< "
    # A true/false setting still takes the YAML 1.1 words.
    for word, value in (("yes", True), ("no", False), ("on", True), ("off", False), ("y", True), ("n", False),
                        ("true", True), ("False", False)):
        assert load_config(AugmentConfig, overrides=[f"progress={word}"]).progress is value


def test_a_directory_as_config_file_and_an_override_without_value_are_named_so(tmp_path, capsys):
    from bsl_pipeline.cli.cli import main

    folder = tmp_path / "adir"
    folder.mkdir()
    assert main(["train", "--config", str(folder), "--print-config"]) == 1
    assert capsys.readouterr().err == f"bsl train: error: config file {folder} is a directory; give a YAML file\n"
    assert main(["train", "--config", str(tmp_path / "missing.yaml"), "--print-config"]) == 1
    assert "config file not found:" in capsys.readouterr().err
    # The example is the user's own key with a value, not a key that may not exist.
    assert main(["train", "-o", "optim.lr", "--print-config"]) == 1
    assert capsys.readouterr().err == ("bsl train: error: override 'optim.lr' must look like key=value "
                                       "(e.g. optim.lr=VALUE)\n")
