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
evaluation stage's `load_encoder(dir)` reads the same files back.

An `export.dir` outside the run directory is claimed for the run (`claim_export_dir`) and carries the marker
`.bsl-output.json` (`pipeline.base.ownership`): its claim id and path, the run directory's claim (path and id) and
every file of the export with its sha256. It is the run's own only while that marker proves it: written for this
folder (not a copy, not planted) by this run. A rerun or resume of the run replaces it, dropping only the files the
marker lists with the sha256 they still have (any other file, an edited README included, is set aside); anything
else (a folder of the user's, a copy, another run's export) is refused unless `train.overwrite`, which moves it
whole to `.bsl-replaced/`. A symbolic link there is refused (by lstat), even with `train.overwrite`.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from glob import escape as glob_escape
from pathlib import Path
from typing import Any

import yaml

from bsl_pipeline.pipeline.base.atomic import write_json_atomic
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.config import to_dict
from bsl_pipeline.pipeline.base.ownership import (MARKER_NAME, MAX_MARKER_BYTES, REPLACED_DIR, OwnershipError,
                                                  entry_kind, marker_problem, output_marker, read_json_file,
                                                  read_marker, set_aside)
from bsl_pipeline.pipeline.base.provenance import sha256_file
from bsl_pipeline.pipeline.base.publish import (Discard, listed_files, publish_directory, remove_stale_staging,
                                                 staging_dir)
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
                                dense_dirs: tuple[Path, ...] = (), finish: Callable[[Path], None] | None = None,
                                discard: Discard | None = None) -> Path:
    """Write the export atomically (staging dir renamed into place) and return its path. `dense_dirs`: Dense
    module folders (of the starting model) to put after the pooling, unchanged; `finish(staging)` completes the
    staged copy before it is published; `discard`: which files of a replaced export are dropped
    (`publish_directory`). A failure removes the staging copy: nothing but this call wrote it."""
    out = Path(out_dir)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = staging_dir(out)
    try:
        _write_export_files(encoder, tokenizer, tmp, max_length=max_length, normalize=normalize, card=card,
                            dense_dirs=dense_dirs)
        if finish is not None:
            finish(tmp)
        publish_directory(tmp, out, discard=discard)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)  # gone already once published
        raise
    return out


def _write_export_files(encoder, tokenizer, tmp: Path, *, max_length: int, normalize: bool,
                        card: dict[str, Any] | None, dense_dirs: tuple[Path, ...]) -> None:
    import torch
    import transformers

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


def run_claim(run_dir: Path) -> dict[str, str] | None:
    """The claim of the run directory `run_dir` (its marker's "path" and "id") when its marker proves it; None when
    it has none yet (a run that claims it now) or one that proves nothing (`marker_problem`: the run's claim of the
    directory then writes a new one). Its kind is the run directory claim's to check."""
    try:
        marker = read_marker(run_dir)
    except OwnershipError:
        return None
    if marker is None or marker_problem(run_dir, marker) is not None:
        return None
    return {"path": marker["path"], "id": marker["id"]}


def _not_this_runs_export(out: Path, run: dict[str, str] | None) -> str | None:
    """Why the non-empty folder `out` is not the export of the run `run` (`run_claim`), or None when its marker
    proves it is: written for this folder, by this run."""
    try:
        marker = read_marker(out)
    except OwnershipError as exc:
        return f"exists and is not a bsl export ({exc})"
    if marker is None:
        return "exists and is not a bsl export"
    if marker["kind"] != EXPORT_KIND:
        return f"holds a bsl {marker['kind']}, not a bsl export"
    problem = marker_problem(out, marker)
    if problem is not None:
        return f"looks like a bsl export, but {problem}"
    written_by = marker.get("run") if isinstance(marker.get("run"), dict) else {}
    if run is None or written_by.get("id") != run["id"]:
        where = written_by.get("path")
        return f"holds the export of another run{f' ({where})' if isinstance(where, str) else ''}"
    return None


def _export_dir_plan(out: Path, run: dict[str, str] | None, overwrite: bool) -> str:
    """What writing the export at `out` for the run `run` (`run_claim`) takes: "write" (nothing there, or an empty
    folder), "ours" (this run's export: replaced, dropping only the files its marker lists) or "set aside" (with
    `overwrite`, anything else is moved whole to `.bsl-replaced/` first). OwnershipError when refused."""
    kind = entry_kind(out)
    if kind is None:
        return "write"
    if kind == "a symbolic link":
        raise OwnershipError(f"export.dir {out} is a symbolic link; bsl writes an export only into a real folder and "
                             f"leaves the link alone (even with --overwrite): give the folder it points to, or "
                             f"another path")
    if kind != "a folder":
        problem = f"is {kind}, not a folder"
    elif not any(out.iterdir()):
        return "write"
    else:
        problem = _not_this_runs_export(out, run)
        if problem is None:
            return "ours"
    if not overwrite:
        raise OwnershipError(f"export.dir {out} {problem}; choose a new directory, or pass --overwrite (the old one "
                             f"is moved whole to {out.parent / REPLACED_DIR}/, nothing is deleted)")
    return "set aside"


def check_export_dir(out: Path, overwrite: bool, run_dir: Path) -> None:
    """Refuse an export.dir that `claim_export_dir` would refuse for the run in `run_dir` (what a run checks at
    set-up, before training; the claim at the end checks again, as the directory may change meanwhile)."""
    _export_dir_plan(out, run_claim(run_dir), overwrite)


def _listed_files(out: Path) -> Discard:
    """The files of this run's export at `out` that may be dropped when it is replaced: its marker, and each file
    the marker lists with the sha256 it still has."""
    marker = read_marker(out) or {}
    listed = listed_files(marker.get("files") if isinstance(marker.get("files"), dict) else {})

    def discard(relative: str, path: Path) -> bool:
        if relative == MARKER_NAME:
            try:
                return read_json_file(path, MAX_MARKER_BYTES) == marker
            except (OSError, ValueError, RecursionError):
                return False
        return listed(relative, path)
    return discard


def claim_export_dir(out: Path, overwrite: bool, run_dir: Path) -> Discard:
    """Claim export.dir `out` for the run in `run_dir` (module docstring): set a foreign one aside (`overwrite`)
    or refuse it, and sort what a killed run left beside it (`remove_stale_staging`). Returns which files of what is
    at `out` the new export may drop when it replaces it (`publish_directory`'s `discard`)."""
    plan = _export_dir_plan(out, run_claim(run_dir), overwrite)
    remove_stale_staging(out.parent, glob_escape(out.name))
    if plan == "set aside":
        set_aside(out.parent, [out.name])
    if plan == "ours":
        return _listed_files(out)
    return lambda _relative, _path: False  # an empty folder: nothing in it


def _file_listing(directory: Path) -> dict[str, str]:
    """Relative POSIX path -> sha256 of every file under `directory` (an export's marker lists them)."""
    listing = {}
    for root, _dirs, names in os.walk(directory):
        for name in names:
            path = Path(root) / name
            if entry_kind(path) == "a plain file":
                listing[path.relative_to(directory).as_posix()] = sha256_file(path)
    return dict(sorted(listing.items()))


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
                     run_dir: Path | None, overwrite: bool) -> Path:
    """A run's export at `out` (files as readable as the datasets'), with the modules `head` names after its
    pooling (`export_head`). `run_dir`: the run's directory when `out` lies outside it (export.dir): `out` is then
    claimed for the run first (`claim_export_dir`) and gets the export marker, which names the run and lists the
    files with their sha256."""
    discard = claim_export_dir(out, overwrite, run_dir) if run_dir is not None else None

    def finish(staging: Path) -> None:
        ordinary_file_modes(staging)
        if run_dir is not None:
            write_json_atomic(staging / MARKER_NAME, output_marker(out, EXPORT_KIND, run=run_claim(run_dir),
                                                                   files=_file_listing(staging)))

    return export_sentence_transformer(encoder, tokenizer, out, max_length=max_length, normalize=head.normalize,
                                       card=card, dense_dirs=head.dense_dirs, finish=finish, discard=discard)
