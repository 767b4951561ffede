from dataclasses import dataclass, field

import pytest

from pipeline.augment.job import AugmentConfig
from pipeline.base.config import ConfigError, from_dict, load_config, to_dict


@dataclass
class Inner:
    rate: float = 0.5
    names: list[str] = field(default_factory=list)


@dataclass
class Outer:
    seed: int = 1
    flag: bool = False
    mode: str | None = None
    inner: Inner = field(default_factory=Inner)
    extra: dict[str, dict] = field(default_factory=dict)


def test_yaml_then_overrides_take_precedence(tmp_path):
    cfg_file = tmp_path / "c.yaml"
    cfg_file.write_text("seed: 5\ninner:\n  rate: 0.25\n  names: [a, b]\n")
    cfg = load_config(Outer, cfg_file, ["inner.rate=0.75", "flag=true", "extra.synonyms.fraction=0.2"])
    assert cfg.seed == 5
    assert cfg.inner.rate == 0.75 and cfg.inner.names == ["a", "b"]
    assert cfg.flag is True
    assert cfg.extra == {"synonyms": {"fraction": 0.2}}


def test_comma_list_and_none():
    cfg = load_config(Outer, None, ["inner.names=x,y", "mode=null"])
    assert cfg.inner.names == ["x", "y"] and cfg.mode is None


def test_unknown_key_is_an_error_listing_valid_keys():
    with pytest.raises(ConfigError, match=r"unknown config key\(s\) inner.rat; valid keys for Inner: names, rate"):
        load_config(Outer, None, ["inner.rat=1"])


def test_type_errors_name_the_key():
    with pytest.raises(ConfigError, match="seed: expected an integer"):
        load_config(Outer, None, ["seed=abc"])
    with pytest.raises(ConfigError, match="flag: expected true/false"):
        from_dict(Outer, {"flag": "maybe"})


def test_bad_yaml_file_names_the_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("seed: [1, 2\n")
    with pytest.raises(ConfigError, match="bad.yaml: invalid YAML"):
        load_config(Outer, bad)
    with pytest.raises(ConfigError, match="config file not found"):
        load_config(Outer, tmp_path / "missing.yaml")


def test_round_trip_of_the_augment_config():
    cfg = load_config(AugmentConfig, None, ["methods=[noise,identity]", "corpus.chunk_size=7"])
    again = from_dict(AugmentConfig, to_dict(cfg))
    assert again == cfg and again.corpus.chunk_size == 7
