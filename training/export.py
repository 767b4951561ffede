"""Export the online encoder as a sentence-transformers model directory.

Files are written directly (no sentence-transformers import at training time), in the layout every
sentence-transformers release loads:

```
<dir>/modules.json                       Transformer -> Pooling (-> Normalize)
<dir>/sentence_bert_config.json          max_seq_length, do_lower_case
<dir>/config.json, model.safetensors, tokenizer files   (save_pretrained of the encoder + tokenizer)
<dir>/1_Pooling/config.json              mean or CLS pooling, as trained
<dir>/2_Dense/ ...                       the starting model's Dense modules after pooling (export.base_dense)
<dir>/N_Normalize/                       export.normalize, by default as the starting model
<dir>/config_sentence_transformers.json  similarity function
<dir>/README.md                          model card: objective, config, dataset manifests, results
```

`SentenceTransformer(dir).encode(sentences)` then gives the trainer's embeddings (its eval encoder's), and the
evaluation stage's `load_encoder(dir)` reads the same files back. An `export.dir` outside the run directory is
claimed first (`claim_export_dir`).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import yaml

from bsl_pipeline.pipeline.base.atomic import write_json_atomic
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.config import to_dict
from bsl_pipeline.pipeline.base.ownership import MARKER_NAME, OwnershipError, read_marker, set_aside
from bsl_pipeline.pipeline.base.publish import publish_directory, staging_dir
from bsl_pipeline.training.checkpoint_files import ordinary_file_modes
from bsl_pipeline.training.st_directory import POOLING_FLAGS, STLayout, read_sentence_transformers_dir

EXPORT_KIND = "sentence-transformers-export"


@dataclass(frozen=True)
class BaseHead:
    """What a starting sentence-transformers model has after its pooling: Dense module folders, a Normalize."""

    dense_dirs: tuple[Path, ...] = ()
    normalize: bool = False


def _base_layout(base_model: str) -> STLayout | None:
    """The starting model's layout, read as the evaluation stage reads it; None when `base_model` is not a
    sentence-transformers directory (a plain Hugging Face one, a hub id)."""
    root = Path(base_model).expanduser() if base_model else None
    if root is None or not (root / "modules.json").is_file():
        return None
    return read_sentence_transformers_dir(root)


def export_head(base_model: str, normalize: bool | None, base_dense: bool) -> BaseHead:
    """The modules an export puts after its pooling: the starting model's Dense modules (`base_dense`) and its
    Normalize unless `normalize` says otherwise."""
    layout = _base_layout(base_model)
    head = BaseHead(tuple(layout.dense_dirs), layout.normalize) if layout is not None else BaseHead()
    return BaseHead(head.dense_dirs if base_dense else (), head.normalize if normalize is None else normalize)


def _copy_module_dir(source: Path, target: Path) -> None:
    """A Dense module's folder (its config and weights), copied byte for byte; never a link, nothing outside it."""
    target.mkdir()
    for item in sorted(source.iterdir()):
        if item.is_symlink() or not item.is_file():
            raise BSLError(f"{item}: a Dense module folder may hold only plain files")
        shutil.copyfile(item, target / item.name)


def export_sentence_transformer(encoder, tokenizer, out_dir: str | Path, *, max_length: int,
                                normalize: bool = False, card: dict[str, Any] | None = None,
                                dense_dirs: tuple[Path, ...] = ()) -> Path:
    """Write the export atomically (staging dir renamed into place) and return its path. `dense_dirs`: Dense
    module folders (of the starting model) to put after the pooling, unchanged."""
    import torch
    import transformers

    out = Path(out_dir)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = staging_dir(out)
    encoder.save_pretrained(tmp, tokenizer)
    kinds = ["Transformer", "Pooling", *["Dense"] * len(dense_dirs), *(["Normalize"] if normalize else [])]
    modules = [{"idx": idx, "name": str(idx), "path": f"{idx}_{kind}" if idx else "",
                "type": f"sentence_transformers.models.{kind}"} for idx, kind in enumerate(kinds)]
    for idx, source in enumerate(dense_dirs, start=2):
        _copy_module_dir(source, tmp / f"{idx}_Dense")
    if normalize:
        (tmp / f"{len(kinds) - 1}_Normalize").mkdir()
    write_json_atomic(tmp / "modules.json", modules)
    write_json_atomic(tmp / "sentence_bert_config.json", {"max_seq_length": int(max_length), "do_lower_case": False})
    modes = encoder.pooling_modes
    write_json_atomic(tmp / "1_Pooling" / "config.json", {
        "word_embedding_dimension": int(encoder.model.config.hidden_size),
        **{flag: mode in modes for flag, mode in POOLING_FLAGS.items()},
        "include_prompt": True,
    })
    write_json_atomic(tmp / "config_sentence_transformers.json", {
        "__version__": {"transformers": transformers.__version__, "pytorch": torch.__version__},
        "prompts": {}, "default_prompt_name": None, "similarity_fn_name": "cosine",
    })
    (tmp / "README.md").write_text(model_card(card or {}, encoder=encoder, max_length=max_length,
                                              normalize=normalize), encoding="utf-8")
    publish_directory(tmp, out)
    return out


def model_card(card: dict[str, Any], *, encoder, max_length: int, normalize: bool) -> str:
    """README.md with YAML front matter (as on the Hugging Face hub) and what the model was trained from."""
    config = card.get("config")
    config_dict = to_dict(config) if config is not None else {}
    base = config_dict.get("model", {}).get("name_or_path", "")
    objective = config_dict.get("objective", {}).get("name", "")
    sources = card.get("sources", [])
    front = {"library_name": "sentence-transformers", "pipeline_tag": "sentence-similarity",
             "tags": ["sentence-transformers", "sentence-similarity", "feature-extraction", "bsl-pipeline",
                      objective]}
    if base and not Path(base).exists():
        front["base_model"] = base
    lines = ["---", yaml.safe_dump(front, sort_keys=False).strip(), "---", "",
             f"# Sentence encoder trained with the `{objective}` objective (bsl-pipeline)", "",
             f"Started from `{base}`; {encoder.pooling} pooling over at most {max_length} tokens; "
             f"{encoder.dim}-dimensional embeddings{' (unit length)' if normalize else ''}. Compare sentences by "
             f"cosine similarity.", "",
             "```python", "from sentence_transformers import SentenceTransformer", "",
             "model = SentenceTransformer(\"path/to/this/dir\")",
             "embeddings = model.encode([\"A man is playing a guitar.\", \"Someone plays an instrument.\"])",
             "```", "", "## Training data", ""]
    if sources:
        lines += ["| dataset | manifest | methods | pairs | weight | manifest checksum |", "|---|---|---|---|---|---|"]
        total_weight = sum(s["weight"] for s in sources) or 1.0
        for s in sources:
            methods = ", ".join(s["methods"]) if s.get("methods") else "all"
            lines.append(f"| {s['name']} | `{s['path']}` | {methods} | {s['pairs']} | "
                         f"{s['weight'] / total_weight:.3f} | `{s['manifest_checksum'][:16]}` |")
    else:
        lines.append("(not recorded)")
    lines += ["", "## Training run", ""]
    for key, value in card.get("run", {}).items():
        if value is not None:  # a metric never measured (no dev set) is left out, not written as None
            lines.append(f"- {key}: {value}")
    if config_dict:
        lines += ["", "## Configuration", "", "```yaml", yaml.safe_dump(config_dict, sort_keys=False).strip(), "```"]
    return "\n".join(lines) + "\n"


def _export_dir_is_free(out: Path) -> bool:
    """export.dir may be replaced as it is: absent, empty or a bsl export."""
    if not out.exists() and not out.is_symlink():
        return True
    if out.is_dir() and not any(out.iterdir()):
        return True
    marker = read_marker(out) if out.is_dir() else None
    return marker is not None and marker["kind"] == EXPORT_KIND


def check_export_dir(out: Path, overwrite: bool) -> None:
    """Refuse an export.dir that `claim_export_dir` would refuse (what a run checks at set-up, before training;
    the claim at the end checks again, as the directory may change meanwhile)."""
    if not overwrite and not _export_dir_is_free(out):
        raise OwnershipError(f"export.dir {out} exists and is not a bsl export; choose a new directory, or pass "
                             f"--overwrite (the old one is moved to {out.parent / '.bsl-replaced'}/, nothing is "
                             f"deleted)")


def claim_export_dir(out: Path, overwrite: bool) -> None:
    """An export.dir outside the run is replaced whole: only when absent, empty or a bsl export (else set aside
    with `overwrite`, refused without)."""
    check_export_dir(out, overwrite)
    if not _export_dir_is_free(out):
        set_aside(out.parent, [out.name])


def reading_length(base_model: str, explicit: int | None, trained: int) -> int:
    """Tokens an export reads: `explicit` (export.max_length) when set, else what the starting model read (the
    `max_seq_length` of its sentence-transformers config, read as the evaluation stage reads it, when `base_model`
    is such a directory), else `trained` (model.max_length). Training may truncate shorter than the model reads;
    the export keeps the model's reading."""
    if explicit is not None:
        return explicit
    try:
        layout = _base_layout(base_model)
    except BSLError:  # the base loaded for training; an unreadable module config only loses this default
        layout = None
    value = layout.max_seq_length if layout is not None else None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 2:
        return value
    return trained


def write_run_export(encoder, tokenizer, out: Path, *, max_length: int, head: BaseHead, card: dict[str, Any],
                     outside_run: bool, overwrite: bool) -> Path:
    """A run's export at `out` (files as readable as the datasets'), with the modules `head` names after its
    pooling (`export_head`); one `outside_run` (export.dir) is claimed first (`claim_export_dir`) and gets the bsl
    export marker."""
    if outside_run:
        claim_export_dir(out, overwrite)
    export_sentence_transformer(encoder, tokenizer, out, max_length=max_length, normalize=head.normalize, card=card,
                                dense_dirs=head.dense_dirs)
    ordinary_file_modes(out)
    if outside_run:
        write_json_atomic(out / MARKER_NAME, {"tool": "bsl", "kind": EXPORT_KIND,
                                              "created": datetime.now(timezone.utc).isoformat()})
    return out

