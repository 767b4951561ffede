"""Dataset manifests: what a dataset is made of, where it came from, and checksums to prove it.

A manifest is untrusted input (a dataset directory may come from anyone). Loading one checks its structure and
that every shard path it names stays inside the dataset directory, before any shard is opened.

What the checksums promise: `checksum` is a plain sha256 of the manifest, and each shard's `sha256` is a plain
sha256 of the file, so together they detect accidents (a truncated copy, a flipped bit, a hand edit that forgot to
update them), not tampering: anyone can recompute them. With `BSL_MANIFEST_KEY` set, the manifest also carries
`signature`, an HMAC-SHA256 under that key, and verification with the key set requires it to match: then only
people holding the key can change a dataset without `bsl verify` noticing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
from pathlib import Path, PurePosixPath
from typing import Any

from pipeline.base.atomic import write_json_atomic
from pipeline.base.errors import InputError, VerificationError
from pipeline.base.fingerprint import canonical_json, digest

MANIFEST_NAME = "manifest.json"
FORMAT_VERSION = 1
KEY_ENV = "BSL_MANIFEST_KEY"
SHARD_KINDS = ("pairs", "rejects")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


def _body(manifest: dict[str, Any], leave_out: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in manifest.items() if k not in leave_out and not k.startswith("_")}


def manifest_checksum(manifest: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of everything but the checksum itself: detects edits to the manifest."""
    return digest(_body(manifest, ("checksum",)))


def manifest_signature(manifest: dict[str, Any], key: str) -> str:
    """HMAC-SHA256 under `key` of everything but the checksum and the signature."""
    return hmac.new(key.encode(), canonical_json(_body(manifest, ("checksum", "signature"))),
                    hashlib.sha256).hexdigest()


def _signing_key() -> str | None:
    return os.environ.get(KEY_ENV) or None


def write_manifest(manifest: dict[str, Any], path: str | Path) -> None:
    """Write with a fresh checksum, and a signature when BSL_MANIFEST_KEY is set (a stale one is dropped)."""
    manifest = {k: v for k, v in manifest.items() if k not in ("checksum", "signature") and not k.startswith("_")}
    key = _signing_key()
    if key:
        manifest["signature"] = manifest_signature(manifest, key)
    manifest["checksum"] = manifest_checksum(manifest)
    write_json_atomic(path, manifest)


def manifest_path(path_or_dir: str | Path) -> Path:
    p = Path(path_or_dir)
    return p / MANIFEST_NAME if p.is_dir() else p


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise InputError(f"{path}: not valid JSON ({exc})") from None


def load_manifest(path_or_dir: str | Path) -> dict[str, Any]:
    """Read a manifest (or a dataset dir's manifest), check its structure and that every shard path stays inside
    the dataset directory, and attach `_root` (that directory) and `_path` (the manifest file)."""
    path = manifest_path(path_or_dir)
    if not path.is_file():
        raise InputError(f"no manifest at {path} (is {path_or_dir} a dataset directory made by `bsl augment`?)")
    manifest = _read_json(path)
    if not isinstance(manifest, dict) or "shards" not in manifest:
        raise InputError(f"{path}: not a dataset manifest (no 'shards')")
    problem = structure_problem(manifest)
    if problem:
        raise InputError(f"{path}: malformed manifest: {problem}")
    root = _dataset_root(path, manifest)
    for i, shard in enumerate(manifest["shards"]):
        resolve_inside(root, shard["path"], f"{path}: shards[{i}].path")
    manifest["_root"] = str(root)
    manifest["_path"] = str(path)
    return manifest


def structure_problem(manifest: dict[str, Any]) -> str | None:
    """What is wrong with the fields every reader relies on (None when nothing): checked before anything is used."""
    if not isinstance(manifest.get("name"), str):
        return f"'name' must be a string, got {manifest.get('name')!r}"
    shards = manifest["shards"]
    if not isinstance(shards, list):
        return f"'shards' must be a list, got {type(shards).__name__}"
    for i, shard in enumerate(shards):
        where = f"shards[{i}]"
        if not isinstance(shard, dict):
            return f"{where} must be an object, got {shard!r}"
        if not isinstance(shard.get("path"), str) or not shard["path"]:
            return f"{where}.path must be a non-empty string, got {shard.get('path')!r}"
        if shard.get("kind") not in SHARD_KINDS:
            return f"{where}.kind must be one of {', '.join(SHARD_KINDS)}, got {shard.get('kind')!r}"
        rows = shard.get("rows")
        if not isinstance(rows, int) or isinstance(rows, bool) or rows < 0:
            return f"{where}.rows must be a count (integer >= 0), got {rows!r}"
        if not isinstance(shard.get("sha256"), str) or not _SHA256.match(shard["sha256"]):
            return f"{where}.sha256 must be 64 lowercase hex digits, got {shard.get('sha256')!r}"
    return None


def _dataset_root(path: Path, manifest: dict[str, Any]) -> Path:
    """A dataset's own manifest.json: its directory. Any other file is a registered copy (data_manifests/): its
    `dataset_dir` counts only if that directory holds the same manifest."""
    if path.name == MANIFEST_NAME:
        return path.parent
    named = manifest.get("dataset_dir")
    if not isinstance(named, str) or not named:
        raise InputError(f"{path}: a registered manifest must name its dataset_dir")
    root = Path(named)
    own = root / MANIFEST_NAME
    if not own.is_file():
        raise InputError(f"{path}: names dataset_dir {root}, which has no {MANIFEST_NAME}")
    recorded = _read_json(own)
    if not isinstance(recorded, dict) or recorded.get("checksum") != manifest.get("checksum"):
        raise InputError(f"{path}: differs from {own}, the manifest of the dataset it names (register it again)")
    return root


def resolve_inside(root: str | Path, relative: str, where: str) -> Path:
    """The one check for every path a manifest names: relative, no '..', and (symlinks followed) inside `root`.
    Returns the path under `root`; raises InputError naming the offending path otherwise. Opens nothing."""
    root = Path(root)
    pure = PurePosixPath(relative)
    if "\x00" in relative or pure.is_absolute() or ".." in pure.parts or Path(relative).is_absolute():
        raise InputError(f"{where}: {relative!r} points outside the dataset directory {root} (absolute and '..' "
                         f"paths are refused)")
    real_root = root.resolve()
    target = (root / relative).resolve()
    if not target.is_relative_to(real_root):
        raise InputError(f"{where}: {relative!r} points outside the dataset directory {root} (through a symlink, "
                         f"to {target})")
    return root / relative


def check_manifest_checksum(manifest: dict[str, Any]) -> None:
    """The manifest's own checksum, and with BSL_MANIFEST_KEY set its signature."""
    recorded = manifest.get("checksum")
    if recorded is None:
        raise VerificationError(f"{manifest['_path']}: manifest has no checksum")
    actual = manifest_checksum(manifest)
    if actual != recorded:
        raise VerificationError(f"{manifest['_path']}: manifest was modified after it was written "
                                f"(checksum {actual[:12]}... != recorded {recorded[:12]}...)")
    key = _signing_key()
    if key is None:
        return
    signature = manifest.get("signature")
    if not isinstance(signature, str):
        raise VerificationError(f"{manifest['_path']}: manifest is not signed, but {KEY_ENV} is set (write it "
                                f"with the key set, or unset the key to check the plain checksum only)")
    if not hmac.compare_digest(signature, manifest_signature(manifest, key)):
        raise VerificationError(f"{manifest['_path']}: manifest signature does not match {KEY_ENV} (changed by "
                                f"someone without the key, or signed with another key)")


def register(manifest_file: Path, registry_dir: str | Path, name: str) -> Path:
    """Copy a dataset's manifest into the registry as `<registry>/datasets/<name>.json` (atomic)."""
    manifest = json.loads(Path(manifest_file).read_text(encoding="utf-8"))
    target = Path(registry_dir) / "datasets" / f"{name}.json"
    write_json_atomic(target, manifest)
    return target
