"""The one config loader refuses what a config never needs, as one line naming the file (and line): huge integers,
non-string or duplicate keys, non-UTF-8 files, YAML tags, alias bombs; and seeds beyond their Range before any
work (issue 21, Low items)."""

import subprocess
import sys
from pathlib import Path

import pytest

from bsl_pipeline.pipeline.augment.job import AugmentConfig
from bsl_pipeline.pipeline.base.config import MAX_CONFIG_NODES, ConfigError, from_dict, load_config

REPO = Path(__file__).resolve().parents[3]


def _write(tmp_path, text: str | bytes) -> Path:
    path = tmp_path / "c.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def _refused(path: Path) -> str:
    with pytest.raises(ConfigError) as caught:
        load_config(AugmentConfig, path)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300, message
    assert message.startswith(str(path)), message
    return message


def test_five_thousand_digit_integer_is_refused_naming_file_and_line(tmp_path):
    message = _refused(_write(tmp_path, "name: x\nseed: " + "9" * 5000 + "\n"))
    assert message.startswith(f"{tmp_path / 'c.yaml'} line 2: integer '999")
    assert "does not fit in 64 bits" in message and "(5,002 characters)" in message


def test_five_thousand_digit_integer_in_an_override_is_refused():
    with pytest.raises(ConfigError, match=r"^-o seed: integer '9+\.\.\. \(5,002 characters\) does not fit in 64 bits"):
        load_config(AugmentConfig, None, ["seed=" + "9" * 5000])
    # quoted, it is a string that the int field refuses, shown cut short
    with pytest.raises(ConfigError, match=r"^seed: expected an integer, got '9+\.\.\. \(5,002 characters\)$"):
        load_config(AugmentConfig, None, ["seed='" + "9" * 5000 + "'"])


def test_seed_beyond_its_range_is_refused():
    with pytest.raises(ConfigError, match=r"^-o seed: integer '99999999999999999999' does not fit in 64 bits"):
        load_config(AugmentConfig, None, ["seed=99999999999999999999"])
    # a seed that is built in code (no YAML on the way) meets the field's Range
    with pytest.raises(ConfigError, match=r"^seed: 9223372036854775808 does not fit in 64 bits"):
        from_dict(AugmentConfig, {"seed": 2**63})
    assert AugmentConfig.__dataclass_fields__["seed"].metadata["range"].high == 2**63 - 1
    assert load_config(AugmentConfig, None, [f"seed={2**63 - 1}"]).seed == 2**63 - 1


def test_integer_key_is_refused(tmp_path):
    message = _refused(_write(tmp_path, "name: x\n1: one\n"))
    assert message == f"{tmp_path / 'c.yaml'} line 2: key '1' is not a string (setting names are text; quote it " \
                      "if it is meant as a name)"


def test_duplicate_key_is_refused_naming_both_lines(tmp_path):
    message = _refused(_write(tmp_path, "filters:\n  min_words: 1\n  max_words: 9\n  min_words: 2\n"))
    assert message == f"{tmp_path / 'c.yaml'} line 4: duplicate key 'min_words' (first given on line 2)"


def test_merge_keys_still_work(tmp_path):
    path = _write(tmp_path, "method_params:\n  noise: &b {a: 1}\n  span-mask:\n    <<: *b\n    a: 2\n")
    assert load_config(AugmentConfig, path).method_params == {"noise": {"a": 1}, "span-mask": {"a": 2}}


def test_non_utf8_file_is_refused(tmp_path):
    message = _refused(_write(tmp_path, b"methods: [noise]\nname: caf\xe9\n"))
    assert message == f"{tmp_path / 'c.yaml'} line 2: not UTF-8 (byte 0xe9); save the config as UTF-8"


@pytest.mark.parametrize("value", ["!!binary aGVsbG8=", "!!python/name:os.system", "!!str x", "!custom x",
                                   "!!set {a, b}"])
def test_tags_are_refused(tmp_path, value):
    message = _refused(_write(tmp_path, f"methods: [noise]\nname: {value}\n"))
    assert message.startswith(f"{tmp_path / 'c.yaml'} line 2: YAML tag '")
    assert "is not allowed in a config" in message


def test_invalid_yaml_is_one_line(tmp_path):
    message = _refused(_write(tmp_path, "methods: [noise\n"))
    assert "invalid YAML" in message


def _alias_bomb(levels: int) -> str:
    lines = ["method_params:", "  noise:", '    x0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    for i in range(1, levels):
        lines.append(f"    x{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_refused_while_loading(tmp_path):
    # 9 levels of 9 aliases: 9**9 (387 million) strings once expanded; refused after ~MAX_CONFIG_NODES
    message = _refused(_write(tmp_path, _alias_bomb(9)))
    assert message.endswith(f"more than {MAX_CONFIG_NODES:,} values once aliases are expanded (a config is a few "
                            "hundred; refused as an alias bomb)")
    # a small use of aliases still loads
    assert len(load_config(AugmentConfig, _write(tmp_path, _alias_bomb(2))).method_params["noise"]["x1"]) == 9


def test_recursive_alias_is_refused(tmp_path):
    message = _refused(_write(tmp_path, "method_params:\n  noise:\n    x: &a [1, *a]\n"))
    assert message == f"{tmp_path / 'c.yaml'} line 3: an alias inside the value it refers to (recursive alias)"


def _bsl(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": str(REPO), "BSL_NO_PROGRESS": "1", "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)


def test_cli_prints_one_line_for_the_alias_bomb_and_the_seed(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("a small corpus line here\nanother small corpus line\n")
    bomb = _write(tmp_path, _alias_bomb(9))
    done = _bsl("augment", str(corpus), "--out", str(tmp_path / "out"), "-c", str(bomb), "--print-config",
                cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "alias bomb" in done.stderr and "Traceback" not in done.stderr
    done = _bsl("augment", str(corpus), "--out", str(tmp_path / "out"), "--seed", "99999999999999999999",
                cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == ("bsl augment: error: -o seed: integer '99999999999999999999' does not fit in 64 bits "
                           "(no setting takes one beyond 9223372036854775807)\n")
    assert not (tmp_path / "out").exists()  # refused before any work
