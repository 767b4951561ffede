"""Dataset directories: Hugging Face layout of view-pair shards, reading them back, verifying checksums.

```
<dataset>/README.md, manifest.json
<dataset>/data/train-00000-of-0000N.parquet        view pairs
<dataset>/rejects/rejects-00000-of-0000M.parquet   rejects with stage + reason
<dataset>/.work/                                   chunks, task outputs, completion markers
```
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from pipeline.base.atomic import write_parquet_atomic
from pipeline.base.errors import InputError, VerificationError
from pipeline.base.provenance import sha256_file
from pipeline.dataset.manifest import (
    Manifest,
    check_manifest_checksum,
    load_manifest,
    resolve_inside,
)

__all__ = ["Manifest", "load_manifest", "with_shards", "verify_dataset", "iter_pair_batches", "iter_batches",
           "shard_paths", "open_shard", "unlisted_files", "intact_marker", "write_parquet_unless_same"]

log = logging.getLogger(__name__)
SHARD_DIRS = ("data", "rejects")


def shard_paths(manifest: Manifest, kind: str = "pairs", methods: list[str] | None = None) -> list[Path]:
    """The shard files of one kind, each through the manifest path check (callers may pass an edited copy)."""
    root = _root(manifest)
    return [resolve_inside(root, s.path, f"{manifest.where}: shard") for s in manifest.shards_of(kind, methods)]


def _root(manifest: Manifest) -> Path:
    if manifest.root is None:
        raise InputError(f"{manifest.where}: not loaded from a dataset directory (use load_manifest)")
    return manifest.root


def with_shards(manifest: Manifest, shards: list) -> Manifest:
    """The same dataset read through other shards of it (e.g. in another order); still path-checked on reading."""
    return replace(manifest, shards=list(shards))


def unlisted_files(manifest: Manifest) -> list[str]:
    """Files under data/ and rejects/ that the manifest does not list: `datasets.load_dataset(dir)` with a glob
    would read them as part of the dataset."""
    root = _root(manifest)
    listed = {s.path for s in manifest.shards}
    found = []
    for name in SHARD_DIRS:
        folder = root / name
        if folder.is_dir() and not folder.is_symlink():
            found += [p.relative_to(root).as_posix() for p in sorted(folder.rglob("*"))
                      if p.is_symlink() or not p.is_dir()]
    return [f for f in found if f not in listed]


def open_shard(path: Path):
    import pyarrow.parquet as pq

    if not path.is_file():
        raise InputError(f"shard missing: {path}")
    try:
        return pq.ParquetFile(path)
    except Exception as exc:  # ArrowInvalid/OSError for truncated or corrupt files
        raise InputError(f"shard {path} is not a readable Parquet file ({exc}); rerun `bsl verify` and "
                         f"re-create the dataset") from None


def verify_dataset(path_or_dir: str | Path, progress: bool = False, allow_unlisted: bool = False) -> Manifest:
    """Check the manifest's own checksum (and signature), that data/ and rejects/ hold no file it does not list
    (only a warning with `allow_unlisted`), then every shard's sha256 and row count. Raises VerificationError
    naming the first mismatch; returns the manifest."""
    manifest = load_manifest(path_or_dir)
    check_manifest_checksum(manifest)
    unlisted = unlisted_files(manifest)
    if unlisted:
        shown = ", ".join(unlisted[:5]) + (f" and {len(unlisted) - 5} more" if len(unlisted) > 5 else "")
        message = (f"{manifest.root}: {len(unlisted)} file(s) in data/ or rejects/ not listed in the manifest "
                   f"(a glob such as `datasets.load_dataset` uses would read them): {shown}")
        if not allow_unlisted:
            raise VerificationError(message + "; remove them, or pass --allow-unlisted")
        log.warning("warning: %s", message)
    shards = manifest.shards
    if progress:
        from tqdm import tqdm

        shards = tqdm(shards, desc="verify", unit="shard")
    for i, shard in enumerate(shards):
        path = resolve_inside(_root(manifest), shard.path, f"{manifest.where}: shards[{i}].path")
        if not path.is_file():
            raise VerificationError(f"{path}: shard listed in the manifest is missing")
        digest = sha256_file(path)
        if digest != shard.sha256:
            raise VerificationError(f"{path}: sha256 {digest[:12]}... does not match the manifest "
                                    f"({shard.sha256[:12]}...)")
        rows = open_shard(path).metadata.num_rows
        if rows != shard.rows:
            raise VerificationError(f"{path}: {rows} rows, manifest says {shard.rows}")
    return manifest


def iter_batches(path_or_dir: str | Path | Manifest, kind: str = "pairs", columns: list[str] | None = None,
                 methods: list[str] | None = None, batch_size: int = 8192) -> Iterator[Any]:
    """Stream pyarrow RecordBatches of the dataset's pair (or reject) shards, in manifest order."""
    manifest = path_or_dir if isinstance(path_or_dir, Manifest) else load_manifest(path_or_dir)
    for path in shard_paths(manifest, kind, methods):
        pf = open_shard(path)
        try:
            yield from pf.iter_batches(batch_size=batch_size, columns=columns)
        except (OSError, ValueError) as exc:
            raise InputError(f"shard {path}: corrupt data ({exc})") from None


def iter_pair_batches(path_or_dir: str | Path | Manifest, columns: list[str] | None = None,
                      methods: list[str] | None = None, batch_size: int = 8192) -> Iterator[Any]:
    return iter_batches(path_or_dir, "pairs", columns, methods, batch_size)



# -- reusing cached work (<dataset>/.work/) -------------------------------------------------------------------------
def intact_marker(marker: Path, outputs: dict[str, Path]) -> dict[str, Any] | None:
    """A completion marker's record when it parses and each output still has the sha256 the marker recorded under
    that output's key; None otherwise (with a warning), so the work is redone and a damaged or edited output is
    never registered again."""
    if not (marker.is_file() and all(p.is_file() for p in outputs.values())):
        return None
    try:
        record = json.loads(marker.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        record = None
    if not isinstance(record, dict):
        log.warning("warning: %s is not a readable completion marker; recomputing its task", marker)
        return None
    for key, path in outputs.items():
        if not record.get(key) or sha256_file(path) != record[key]:
            log.warning("warning: %s does not have the sha256 its marker recorded (changed or damaged since it "
                        "was written); recomputing it", path)
            return None
    return record


def write_parquet_unless_same(table, path: Path) -> None:
    """Write `table` atomically unless `path` already holds exactly it: a cached file is re-read on every reuse,
    so an edited or damaged one is replaced, never trusted."""
    import pyarrow.parquet as pq

    if path.is_file():
        try:
            if pq.read_table(path).equals(table):
                return
        except Exception:  # pyarrow raises several types for damaged files; rewriting is the answer to all
            pass
        log.warning("warning: %s does not hold what the corpus gives now; rewriting it", path)
    write_parquet_atomic(table, path)
