"""Dataset manifests: what a dataset is made of, where it came from, and checksums to prove it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pipeline.atomic import write_json_atomic
from pipeline.errors import InputError, VerificationError

MANIFEST_NAME = "manifest.json"
FORMAT_VERSION = 1


def manifest_checksum(manifest: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of everything but the checksum itself: detects edits to the manifest."""
    body = {k: v for k, v in manifest.items() if k != "checksum"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def write_manifest(manifest: dict[str, Any], path: str | Path) -> None:
    manifest = dict(manifest)
    manifest["checksum"] = manifest_checksum(manifest)
    write_json_atomic(path, manifest)


def manifest_path(path_or_dir: str | Path) -> Path:
    p = Path(path_or_dir)
    return p / MANIFEST_NAME if p.is_dir() else p


def load_manifest(path_or_dir: str | Path) -> dict[str, Any]:
    """Read a manifest (or a dataset dir's manifest) and attach `_root`, the dataset dir its paths are under."""
    path = manifest_path(path_or_dir)
    if not path.is_file():
        raise InputError(f"no manifest at {path} (is {path_or_dir} a dataset directory made by `bsl augment`?)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(manifest, dict) or "shards" not in manifest:
        raise InputError(f"{path}: not a dataset manifest (no 'shards')")
    # A manifest registered under data_manifests/ points at its dataset via `dataset_dir`.
    root = path.parent if path.name == MANIFEST_NAME and (path.parent / "data").is_dir() else None
    if root is None:
        root = Path(manifest.get("dataset_dir", path.parent))
    manifest["_root"] = str(root)
    manifest["_path"] = str(path)
    return manifest


def check_manifest_checksum(manifest: dict[str, Any]) -> None:
    recorded = manifest.get("checksum")
    body = {k: v for k, v in manifest.items() if not k.startswith("_")}
    if recorded is None:
        raise VerificationError(f"{manifest['_path']}: manifest has no checksum")
    actual = manifest_checksum(body)
    if actual != recorded:
        raise VerificationError(f"{manifest['_path']}: manifest was modified after it was written "
                                f"(checksum {actual[:12]}... != recorded {recorded[:12]}...)")


def register(manifest_file: Path, registry_dir: str | Path, name: str) -> Path:
    """Copy a dataset's manifest into the registry as `<registry>/datasets/<name>.json` (atomic)."""
    manifest = json.loads(Path(manifest_file).read_text(encoding="utf-8"))
    target = Path(registry_dir) / "datasets" / f"{name}.json"
    write_json_atomic(target, manifest)
    return target
