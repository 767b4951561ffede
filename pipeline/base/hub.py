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
    return local
