"""Reading a sentence-transformers model directory (modules.json and its module configs) without the
sentence-transformers library: what the export copies from a starting model and how the evaluation stage loads one."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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


#: The flags of a sentence-transformers Pooling config (written by the export) and the pooling mode each turns on.
POOLING_FLAGS = {"pooling_mode_cls_token": "cls", "pooling_mode_max_tokens": "max",
                 "pooling_mode_mean_tokens": "mean", "pooling_mode_mean_sqrt_len_tokens": "mean_sqrt_len_tokens",
                 "pooling_mode_weightedmean_tokens": "weightedmean", "pooling_mode_lasttoken": "lasttoken"}


def st_pooling_modes(config: dict[str, Any], path: Path) -> tuple[str, ...]:
    if "pooling_mode" in config:
        mode = config["pooling_mode"]
        modes = (mode,) if isinstance(mode, str) else tuple(mode)
    else:
        modes = tuple(mode for key, mode in POOLING_FLAGS.items() if config.get(key))
        if not modes:
            modes = ("mean",)
    bad = [m for m in modes if m not in POOLING_MODES]
    if bad:
        raise BSLError(f"{path}: unsupported pooling mode(s) {', '.join(map(str, bad))}")
    return modes


@dataclass
class STLayout:
    transformer_dir: Path
    max_seq_length: int | None = None
    do_lower_case: bool = False
    pooling: tuple[str, ...] = ("mean",)
    pooling_config: Path | None = None
    dense_dirs: list[Path] = field(default_factory=list)
    normalize: bool = False


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
    """Parse a sentence-transformers model directory (modules.json and the module configs)."""
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
                    cfg = read_json(folder / cfg_name)
                    task = cfg.get("transformer_task", "feature-extraction")
                    if task != "feature-extraction":
                        raise BSLError(f"{folder / cfg_name}: transformer_task {task!r} is not supported "
                                       f"(only feature-extraction encoders)")
                    layout.max_seq_length = cfg.get("max_seq_length")
                    layout.do_lower_case = bool(cfg.get("do_lower_case", False))
                    break
            continue
        assert layout is not None
        if kind == "Pooling":
            layout.pooling_config = folder / "config.json"
            layout.pooling = st_pooling_modes(read_json(layout.pooling_config), layout.pooling_config)
            seen_pooling = True
        elif kind == "Dense" and seen_pooling:
            layout.dense_dirs.append(folder)
        elif kind == "Normalize" and pos == len(modules) - 1:
            layout.normalize = True
        else:
            raise BSLError(f"{where}: module type not supported by the evaluator (supported: Transformer, "
                           f"Pooling, Dense after Pooling, Normalize last)")
    if not seen_pooling:
        raise BSLError(f"{modules_path}: no Pooling module; token embeddings cannot be compared as sentences")
    assert layout is not None
    return layout
