"""Model names that may be local directories or hub names, and the one way a Hugging Face hub model is fetched.

Shared by the augmenters that load models (masked LM, transformers translation) and the fairseq back end's name
check. Nothing is downloaded when the name is a directory; under HF_HUB_OFFLINE=1 only the local cache is used.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from bsl_pipeline.pipeline.base.errors import BSLError

#: Pickled weights, fetched only when a repository has no safetensors (and loaded weights-only).
PICKLED_WEIGHTS = ("pytorch_model*.bin", "*.bin.index.json")


def looks_like_hub_id(model: str) -> bool:
    """A Hugging Face id (`name` or `org/name`) rather than a path."""
    parts = model.split("/")
    return 1 <= len(parts) <= 2 and all(parts) and not model.startswith((".", "~")) and not Path(model).exists()


def local_model_dir(model: str, where: str, *, is_hub_name: Callable[[str], bool] = looks_like_hub_id,
                    what: str = "model directory") -> Path | None:
    """`model` as an existing directory (resolved), or None when it is a hub name to fetch; any other string is an
    error naming `where` and what was expected."""
    path = Path(model).expanduser()
    if path.is_dir():
        return path.resolve()
    if not is_hub_name(model):
        raise BSLError(f"{where}: {path} is not a {what} (no such directory)")
    return None


def hub_snapshot(repo_id: str, side_files: Sequence[str], *, where: str, revision: str | None = None) -> Path:
    """The local snapshot of Hugging Face repository `repo_id`: `side_files` (config, tokenizer) plus the
    safetensors weights when the repository has them, else its pickled weights. Two passes, so that a repository
    holding both formats is downloaded once."""
    from huggingface_hub import snapshot_download

    try:
        local = Path(snapshot_download(repo_id, revision=revision, allow_patterns=[*side_files, "*.safetensors"]))
        if not any(local.glob("*.safetensors")):
            local = Path(snapshot_download(repo_id, revision=revision,
                                           allow_patterns=[*side_files, *PICKLED_WEIGHTS]))
    except Exception as exc:  # the hub client raises many unrelated types (offline, 404, auth)
        offline = " (HF_HUB_OFFLINE=1: only the local cache is used)" if os.environ.get("HF_HUB_OFFLINE") == "1" else ""
        raise BSLError(f"{where}: {repo_id!r} is not a local directory and could not be fetched from the Hugging Face "
                       f"hub or its cache{offline}: {type(exc).__name__}: {exc}; pass a local model directory"
                       ) from None
    return _inside_snapshots(local, repo_id, where)


def _inside_snapshots(local: Path, repo_id: str, where: str) -> Path:
    """The cache's `refs/<revision>` file names the snapshot by its commit: one folder of `snapshots/`, never a path
    leading out of it (`path_inside`), whatever that file holds."""
    from bsl_pipeline.pipeline.base.inside import path_inside

    if len(local.parts) < 2 or local.parts[-2] != "snapshots":
        raise BSLError(f"{where}: the hub cache's snapshot of {repo_id!r} is {local}, not a folder of its snapshots/ "
                       f"(its refs/ file names a path, not a commit)")
    return path_inside(local.parent, local.name, f"{where}: the hub cache's snapshot of {repo_id!r}")


#: The record a trainer checkpoint directory holds (its pooling, step and encoder folder): named here, the lowest
#: layer that looks for it; the trainer's checkpoint files module writes and reads it.
CHECKPOINT_JSON = "bsl_checkpoint.json"
# Files one of which every model directory the tool loads holds (transformers, sentence-transformers, a trainer
# checkpoint).
MODEL_DIR_FILES = ("config.json", "modules.json", CHECKPOINT_JSON)


def hub_offline() -> bool:
    """HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE set: the hub must not be contacted."""
    return any(os.environ.get(var, "").strip().lower() in ("1", "true", "yes", "on")
               for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def looks_local(model: str) -> bool:
    """`model` is meant as a path: it starts with ./ ../ / or ~, contains a path separator but is not `org/name`,
    or its first component exists here (`runs/nonexist` beside a `runs/` folder)."""
    if model.startswith(("./", "../", "/", "~", ".\\", "..\\")) or model in (".", ".."):
        return True
    parts = model.replace(os.sep, "/").split("/")
    if os.sep in model or "/" in model:
        if len(parts) != 2 or not all(parts):
            return True
        return Path(parts[0]).exists()
    return False


def check_model_reference(model: str, where: str) -> None:
    """Before any model loads: a directory must hold a model, a path that does not exist is an error (never sent
    to the hub), and under offline mode a hub id must be in the local cache. Raises BSLError naming `where`."""
    path = Path(model).expanduser()
    if path.is_dir():
        if any((path / name).is_file() for name in MODEL_DIR_FILES):
            return
        if (path / "manifest.json").is_file():
            hint = "; it is a dataset directory (train on it with --manifest)"
        elif (path / "final").is_dir() or (path / "export").is_dir():
            hint = f"; it is a training run: give {path / 'final'} (checkpoint) or {path / 'export'}"
        else:
            hint = ""
        raise BSLError(f"{where}: {path} is a directory but not a model (it has no {', '.join(MODEL_DIR_FILES)})"
                       f"{hint}")
    if path.exists() or path.is_symlink():
        raise BSLError(f"{where}: {path} is not a directory; give a model directory or a hub id (org/name)")
    if looks_local(model):
        raise BSLError(f"{where}: model directory {path} not found (a hub id is written org/name)")
    from huggingface_hub import try_to_load_from_cache

    if isinstance(try_to_load_from_cache(model, "config.json"), str):
        return
    if not hub_offline() and not hub_reachable():
        raise BSLError(f"{where}: {model} is neither a directory here nor in the local hub cache, and the hub "
                       f"({hub_endpoint()}) cannot be reached from this machine: give a model directory, or "
                       f"download it where the hub is reachable")
    if hub_offline():
        raise BSLError(f"{where}: {model} is neither a directory here nor in the local hub cache, and the hub is "
                       f"offline (HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE set): give a model directory, or unset "
                       f"them once to download it")


def hub_endpoint() -> str:
    return os.environ.get("HF_ENDPOINT", "").strip() or "https://huggingface.co"


def hub_reachable(timeout_s: float = 3.0) -> bool:
    """Whether a TCP connection to the hub's host opens within `timeout_s` (no request is sent): a machine without
    network fails here at once instead of in the hub client's retries."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(hub_endpoint())
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname or "", port), timeout=timeout_s):
            return True
    except OSError:
        return False
