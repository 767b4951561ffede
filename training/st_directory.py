"""Reading a sentence-transformers model directory (modules.json and its module configs) without the
sentence-transformers library: what the export copies from a starting model and how the evaluation stage loads one."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.config import MAX_SEQUENCE_TOKENS, Range
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.inside import path_inside
from bsl_pipeline.training.config import POOLING_MODES


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BSLError(f"{path}: file not found") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        line = getattr(exc, "lineno", 1)
        raise BSLError(f"{path}:{line}: invalid JSON: {exc}") from None


def read_json_object(path: Path) -> dict[str, Any]:
    """A module's config file: a JSON object (the directory may come from someone else)."""
    value = read_json(path)
    if not isinstance(value, dict):
        raise BSLError(f"{path}: expected a JSON object, got {type(value).__name__}")
    return value


#: The lengths a sentence-transformers config may declare: a [CLS] and a [SEP] at least, as `model.max_length`.
SEQUENCE_LENGTHS = Range(2, MAX_SEQUENCE_TOKENS)


def _length(config: dict[str, Any], key: str, path: Path) -> int | None:
    value = config.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not SEQUENCE_LENGTHS.contains(value):
        raise BSLError(f"{path}: {key} must be an integer in {SEQUENCE_LENGTHS}, got {json.dumps(value)}")
    return value


def _flag(config: dict[str, Any], key: str, path: Path) -> bool:
    value = config.get(key, False)
    if not isinstance(value, bool):
        raise BSLError(f"{path}: {key} must be true or false, got {json.dumps(value)}")
    return value


#: The flags of a sentence-transformers Pooling config (written by the export) and the pooling mode each turns on.
POOLING_FLAGS = {"pooling_mode_cls_token": "cls", "pooling_mode_max_tokens": "max",
                 "pooling_mode_mean_tokens": "mean", "pooling_mode_mean_sqrt_len_tokens": "mean_sqrt_len_tokens",
                 "pooling_mode_weightedmean_tokens": "weightedmean", "pooling_mode_lasttoken": "lasttoken"}


def st_pooling_modes(config: dict[str, Any], path: Path) -> tuple[str, ...]:
    if "pooling_mode" in config:
        mode = config["pooling_mode"]
        if not (isinstance(mode, str) or isinstance(mode, list) and mode and all(isinstance(m, str) for m in mode)):
            raise BSLError(f"{path}: pooling_mode must be a mode's name or a non-empty list of them, "
                           f"got {json.dumps(mode)}")
        modes = (mode,) if isinstance(mode, str) else tuple(mode)
    else:
        modes = tuple(mode for key, mode in POOLING_FLAGS.items() if _flag(config, key, path))
        if not modes:
            modes = ("mean",)
    bad = [m for m in modes if m not in POOLING_MODES]
    if bad:
        raise BSLError(f"{path}: unsupported pooling mode(s) {', '.join(map(str, bad))}")
    return modes


#: The activations of a sentence-transformers Dense module that the encoder applies (torch.nn class names).
DENSE_ACTIVATIONS = ("GELU", "Identity", "ReLU", "Sigmoid", "Tanh")


@dataclass(frozen=True)
class DenseModule:
    folder: Path
    activation: str  # one of DENSE_ACTIVATIONS


def read_dense_module(folder: Path) -> DenseModule:
    """A Dense module's config (`activation_function`, a torch.nn class path); its weights are the evaluator's."""
    path = folder / "config.json"
    name = read_json_object(path).get("activation_function", "torch.nn.modules.linear.Identity")
    activation = name.rsplit(".", 1)[-1] if isinstance(name, str) else None
    if activation not in DENSE_ACTIVATIONS:
        raise BSLError(f"{path}: unsupported Dense activation_function {name!r} "
                       f"(supported: {', '.join(DENSE_ACTIVATIONS)})")
    return DenseModule(folder, activation)


@dataclass
class STLayout:
    transformer_dir: Path
    max_seq_length: int | None = None
    do_lower_case: bool = False
    pooling: tuple[str, ...] = ("mean",)
    pooling_config: Path | None = None
    dense: list[DenseModule] = field(default_factory=list)
    normalize: bool = False

    @property
    def dense_dirs(self) -> list[Path]:
        return [module.folder for module in self.dense]


def module_folders(root: Path) -> list[tuple[dict[str, Any], Path]]:
    """The modules of a sentence-transformers directory in order, each with its folder. The directory may come
    from someone else: every folder modules.json names must stay inside it (`path_inside`), checked before any is
    opened."""
    modules_path = root / "modules.json"
    modules = read_json(modules_path)
    if not isinstance(modules, list) or not modules:
        raise BSLError(f"{modules_path}: expected a non-empty JSON list of modules")
    try:
        modules = sorted(modules, key=lambda m: int(m.get("idx", 0)))
    except (AttributeError, TypeError, ValueError):
        raise BSLError(f"{modules_path}: every module must be an object with an integer 'idx'") from None
    return [(module, path_inside(root, str(module.get("path", "")),
                                 f"{modules_path}: module {module.get('idx', pos)}'s path"))
            for pos, module in enumerate(modules)]


def read_sentence_transformers_dir(root: Path) -> STLayout:
    """Parse a sentence-transformers model directory (modules.json and the module configs). The directory may come
    from someone else: every value read from a module config is checked here, so each reader (the evaluator, the
    export of a run that started from it) gets one error naming the file."""
    modules_path = root / "modules.json"
    layout: STLayout | None = None
    seen_pooling = False
    modules = module_folders(root)
    for pos, (module, folder) in enumerate(modules):
        kind = str(module.get("type", "")).rsplit(".", 1)[-1]
        where = f"{modules_path}: module {module.get('idx', pos)} ({module.get('type', '?')})"
        if pos == 0:
            if kind != "Transformer":
                raise BSLError(f"{where}: the first module must be a Transformer")
            layout = STLayout(transformer_dir=folder)
            for cfg_name in ("sentence_bert_config.json", "sentence_roberta_config.json",
                             "sentence_distilbert_config.json", "sentence_camembert_config.json",
                             "sentence_albert_config.json", "sentence_xlm-roberta_config.json"):
                if (folder / cfg_name).is_file():
                    cfg_path = folder / cfg_name
                    cfg = read_json_object(cfg_path)
                    task = cfg.get("transformer_task", "feature-extraction")
                    if task != "feature-extraction":
                        raise BSLError(f"{cfg_path}: transformer_task {task!r} is not supported "
                                       f"(only feature-extraction encoders)")
                    layout.max_seq_length = _length(cfg, "max_seq_length", cfg_path)
                    layout.do_lower_case = _flag(cfg, "do_lower_case", cfg_path)
                    break
            continue
        assert layout is not None
        if kind == "Pooling":
            layout.pooling_config = folder / "config.json"
            layout.pooling = st_pooling_modes(read_json_object(layout.pooling_config), layout.pooling_config)
            seen_pooling = True
        elif kind == "Dense" and seen_pooling:
            layout.dense.append(read_dense_module(folder))
        elif kind == "Normalize" and pos == len(modules) - 1:
            layout.normalize = True
        else:
            raise BSLError(f"{where}: module type not supported by the evaluator (supported: Transformer, "
                           f"Pooling, Dense after Pooling, Normalize last)")
    if not seen_pooling:
        raise BSLError(f"{modules_path}: no Pooling module; token embeddings cannot be compared as sentences")
    assert layout is not None
    return layout
