"""fairseq translation back end: WMT19-style hub directories (`model*.pt`, `dict.*.txt`, `bpecodes`), given as a
local directory or as a fairseq hub name such as `transformer.wmt19.en-de` (downloaded once, for users who are
online).

Imported only when a pivot uses fairseq: importing fairseq costs seconds and reconfigures logging.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import pickle
import re
import shutil
import tarfile
import tempfile
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.hub import local_model_dir

#: Classes that every fairseq checkpoint pickles (its training arguments); anything else must be allowed by name.
ALWAYS_ALLOWED = (argparse.Namespace,)


def looks_like_hub_name(model: str) -> bool:
    """fairseq hub names are dotted (`transformer.wmt19.en-de`); Hugging Face ids are `org/name`."""
    return "/" not in model and "." in model and not Path(model).expanduser().exists()


def import_fairseq() -> Any:
    """Import the fairseq modules we use without letting them reconfigure logging.

    Some fairseq task modules call `logging.basicConfig(level=DEBUG)` at import time, which would turn on debug
    output for every library in the process. `basicConfig` does nothing while the root logger has a handler, so a
    temporary one is installed during the import, and the root logger's level and handlers are restored after.
    """
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    guard = logging.NullHandler()
    root.addHandler(guard)
    try:
        import fairseq.checkpoint_utils  # noqa: F401
        import fairseq.hub_utils  # noqa: F401
        import fairseq.models.transformer  # noqa: F401
        from fairseq.data import encoders  # noqa: F401
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    return fairseq


def resolve_model_dir(model: str, where: str) -> Path:
    """A local hub-layout directory, or a fairseq hub name downloaded into fairseq's cache."""
    local = local_model_dir(model, where, is_hub_name=looks_like_hub_name, what="fairseq model directory")
    if local is not None:
        return local
    fairseq = import_fairseq()
    archives = fairseq.models.transformer.TransformerModel.hub_models()
    if model not in archives:
        known = ", ".join(sorted(n for n in archives if n.startswith("transformer.wmt19")))
        raise BSLError(f"{where}: {model!r} is neither a local directory nor a fairseq hub name (e.g. {known})")
    entry = archives[model]
    url = entry["path"] if isinstance(entry, dict) else entry
    return _download_archive(url, where)


def _download_archive(url: str, where: str) -> Path:
    """Download and unpack a hub archive into fairseq's cache (same place fairseq itself uses).

    fairseq's own helper unpacks with `tarfile.extractall` and no path filter; the `data` filter refuses members
    that would land outside the target directory.
    """
    from fairseq.file_utils import cached_path

    try:
        local = Path(cached_path(url))
    except OSError as exc:  # requests' errors are OSErrors too
        raise BSLError(f"{where}: could not download {url} (offline? pass a local model directory instead): "
                       f"{exc}") from None
    if local.is_dir():
        return local
    tmp = Path(tempfile.mkdtemp(dir=local.parent))
    try:
        mode = "r:" + url.rsplit(".", 1)[-1]
        with tarfile.open(local, mode) as archive:
            top = os.path.commonprefix(archive.getnames())
            if hasattr(tarfile, "data_filter"):
                archive.extractall(tmp, filter="data")
            else:  # Python < 3.11.4: refuse what the data filter would refuse that matters here
                for member in archive.getmembers():
                    target = (tmp / member.name).resolve()
                    if not target.is_relative_to(tmp.resolve()) or member.issym() or member.islnk():
                        raise BSLError(f"{where}: {url} contains an unsafe member {member.name!r}")
                archive.extractall(tmp)
        local.unlink()
        shutil.move(str(tmp / top), str(local))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return local


def checkpoint_names(model_dir: Path, checkpoints: str, where: str) -> list[str]:
    """`model1.pt:model2.pt` (an ensemble), or every `model*.pt` in the directory when not given."""
    if checkpoints.strip():
        names = [c.strip() for c in checkpoints.split(":") if c.strip()]
    else:
        def number(p: Path) -> tuple[int, str]:
            digits = re.sub(r"\D", "", p.stem)
            return (int(digits) if digits else 0, p.name)

        names = [p.name for p in sorted(model_dir.glob("model*.pt"), key=number)]
        if not names:
            raise BSLError(f"{where}: no model*.pt checkpoint in {model_dir}")
    for name in names:
        if not (model_dir / name).is_file():
            raise BSLError(f"{where}: checkpoint not found: {model_dir / name}")
    return names


def model_files(model_dir: Path, checkpoints: Sequence[str], where: str) -> dict[str, Path]:
    """Every file the translation depends on: checkpoints, dictionaries, BPE codes."""
    dicts = sorted(model_dir.glob("dict.*.txt"))
    if not dicts:
        raise BSLError(f"{where}: no dict.<lang>.txt dictionary in {model_dir}")
    codes = model_dir / "bpecodes"
    if not codes.is_file():
        raise BSLError(f"{where}: BPE codes not found: {codes}")
    files = {name: model_dir / name for name in checkpoints}
    files.update({d.name: d for d in dicts})
    files["bpecodes"] = codes
    return files


def subword_nmt_codes(codes: Path, cache_dir: Path) -> Path:
    """fastBPE codes (`left right count` per line) as subword-nmt codes (`#version: 0.2`, `left right`).

    The converted file is cached under `cache_dir` keyed by the original's sha256, never written into the model
    directory: fairseq's hub loader prefers a file named `bpecodes` there, and model directories may be read-only.
    """
    from bsl_pipeline.pipeline.base.provenance import sha256_file_cached

    with open(codes, encoding="utf-8") as fh:
        first = fh.readline()
    if first.startswith("#version"):
        return codes
    out = cache_dir / "bpe" / sha256_file_cached(codes)[:16] / "bpecodes"
    if out.is_file():
        return out
    lines = ["#version: 0.2\n"]
    with open(codes, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) == 3 and parts[2].isdigit() or len(parts) == 2:
                lines.append(f"{parts[0]} {parts[1]}\n")
            else:
                raise BSLError(f"{codes}:{lineno}: not a BPE merge line (expected 'left right count'): {line!r}")
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=".bpecodes.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.writelines(lines)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out


def allowed_classes(names: Sequence[str]) -> list[type]:
    """`module.Class` names (from the config) -> classes that weights-only unpickling may construct."""
    out: list[type] = list(ALWAYS_ALLOWED)
    for name in names:
        module_name, _, attr = name.rpartition(".")
        try:
            out.append(getattr(importlib.import_module(module_name), attr))
        except (ImportError, AttributeError, ValueError):
            raise BSLError(f"trusted_classes: cannot import {name!r} (write it as module.Class)") from None
    return out


class FairseqTranslator:
    """One direction (e.g. en->de) loaded from a hub-layout directory; an ensemble when several checkpoints."""

    def __init__(self, model_dir: Path, checkpoints: Sequence[str], *, bpe: str, cache_dir: Path,
                 trusted_classes: Sequence[str], device: Any, dtype: Any, where: str):
        import torch

        fairseq = import_fairseq()
        from omegaconf import open_dict

        self.where = where
        codes = model_dir / "bpecodes"
        if bpe == "subword_nmt":
            codes = subword_nmt_codes(codes, cache_dir)
        elif bpe == "fastbpe":
            try:
                import fastBPE  # noqa: F401
            except ImportError:
                raise BSLError(f"{where}: bpe=fastbpe needs the fastBPE package (pip install --no-build-isolation "
                               "fastBPE==0.1.0 after Cython); or use bpe=subword_nmt") from None
        overrides = {"data": str(model_dir), "bpe": bpe, "bpe_codes": str(codes), "tokenizer": "moses"}
        paths = [str(model_dir / c) for c in checkpoints]
        # Checkpoints are pickles: load them weights-only and allow, by name, just the classes fairseq stores.
        try:
            with torch.serialization.safe_globals(allowed_classes(trusted_classes)):
                models, cfg, task = fairseq.checkpoint_utils.load_model_ensemble_and_task(
                    paths, arg_overrides=overrides)
        except pickle.UnpicklingError as exc:
            found = re.search(r"GLOBAL ([\w.]+) was not an allowed global", str(exc))
            what = found.group(1) if found else "a class that weights-only loading refuses"
            raise BSLError(f"{where}: {', '.join(paths)} needs {what} to load; if you trust this checkpoint, add "
                           f"{what!r} to trusted_classes") from None
        with open_dict(cfg):
            # New-style checkpoints leave the Moses languages at their default ('en'), which would tokenise German
            # with English rules; the task knows the real pair.
            if cfg.tokenizer is not None and cfg.tokenizer.get("_name") == "moses":
                cfg.tokenizer.source_lang = task.cfg.source_lang
                cfg.tokenizer.target_lang = task.cfg.target_lang
            # Batches are formed (and length-sorted) by the caller; fairseq must not split them or start workers.
            cfg.dataset.max_tokens = None
            cfg.dataset.batch_size = None
            cfg.dataset.num_workers = 0
        hub = fairseq.hub_utils.GeneratorHubInterface(cfg, task, models)
        hub.eval()
        hub.to(device)
        if dtype == torch.float16:
            hub.half()
        elif dtype == torch.bfloat16:
            hub.bfloat16()
        self.hub = hub
        self.source_lang = task.cfg.source_lang
        self.target_lang = task.cfg.target_lang
        limit = hub.max_positions[0] if isinstance(hub.max_positions, tuple) else hub.max_positions
        self.max_input_tokens = int(limit) if limit else None

    def encode(self, texts: Sequence[str]) -> list[Any]:
        return [self.hub.encode(t) for t in texts]

    def generate(self, encoded: Sequence[Any], *, beam: int, sampling: bool, topk: int, temperature: float,
                 max_new_tokens: int) -> list[str]:
        import torch

        kwargs: dict[str, Any] = {"max_len_a": 0.0, "max_len_b": max_new_tokens, "nbest": 1}
        if sampling:
            kwargs.update(sampling=True, sampling_topk=topk, temperature=temperature)
            beam = 1
        with torch.inference_mode(), warnings.catch_warnings():
            # fairseq batches through a DataLoader that asks for pinned memory, which CPU-only torch warns about.
            warnings.filterwarnings("ignore", message=".*pin_memory.*", category=UserWarning)
            hypos = self.hub.generate(list(encoded), beam=beam, **kwargs)
        return [self.hub.decode(h[0]["tokens"]) for h in hypos]
