"""Dataset directories: Hugging Face layout of view-pair shards, reading them back, verifying checksums.

```
<dataset>/README.md, manifest.json
<dataset>/data/train-00000-of-0000N.parquet        view pairs
<dataset>/rejects/rejects-00000-of-0000M.parquet   rejects with stage + reason
<dataset>/.work/                                   chunks, task outputs, completion markers
```
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pipeline.errors import InputError, VerificationError
from pipeline.manifest import check_manifest_checksum, load_manifest
from pipeline.provenance import sha256_file

__all__ = ["load_manifest", "verify_dataset", "iter_pair_batches", "iter_batches", "shard_paths",
           "open_shard"]


def shard_paths(manifest: dict[str, Any], kind: str = "pairs", methods: list[str] | None = None) -> list[Path]:
    root = Path(manifest["_root"])
    return [root / s["path"] for s in manifest["shards"]
            if s["kind"] == kind and (methods is None or s.get("method") in methods)]


def open_shard(path: Path):
    import pyarrow.parquet as pq

    if not path.is_file():
        raise InputError(f"shard missing: {path}")
    try:
        return pq.ParquetFile(path)
    except Exception as exc:  # ArrowInvalid/OSError for truncated or corrupt files
        raise InputError(f"shard {path} is not a readable Parquet file ({exc}); rerun `bsl verify` and "
                         f"re-create the dataset") from None


def verify_dataset(path_or_dir: str | Path, progress: bool = False) -> dict[str, Any]:
    """Check the manifest's own checksum, then every shard's sha256 and row count. Raises VerificationError
    naming the first mismatch; returns the manifest."""
    manifest = load_manifest(path_or_dir)
    check_manifest_checksum(manifest)
    root = Path(manifest["_root"])
    shards = manifest["shards"]
    if progress:
        from tqdm import tqdm

        shards = tqdm(shards, desc="verify", unit="shard")
    for shard in shards:
        path = root / shard["path"]
        if not path.is_file():
            raise VerificationError(f"{path}: shard listed in the manifest is missing")
        digest = sha256_file(path)
        if digest != shard["sha256"]:
            raise VerificationError(f"{path}: sha256 {digest[:12]}... does not match the manifest "
                                    f"({shard['sha256'][:12]}...)")
        rows = open_shard(path).metadata.num_rows
        if rows != shard["rows"]:
            raise VerificationError(f"{path}: {rows} rows, manifest says {shard['rows']}")
    return manifest


def iter_batches(path_or_dir: str | Path | dict, kind: str = "pairs", columns: list[str] | None = None,
                 methods: list[str] | None = None, batch_size: int = 8192) -> Iterator[Any]:
    """Stream pyarrow RecordBatches of the dataset's pair (or reject) shards, in manifest order."""
    manifest = path_or_dir if isinstance(path_or_dir, dict) else load_manifest(path_or_dir)
    for path in shard_paths(manifest, kind, methods):
        pf = open_shard(path)
        try:
            yield from pf.iter_batches(batch_size=batch_size, columns=columns)
        except (OSError, ValueError) as exc:
            raise InputError(f"shard {path}: corrupt data ({exc})") from None


def iter_pair_batches(path_or_dir: str | Path | dict, columns: list[str] | None = None,
                      methods: list[str] | None = None, batch_size: int = 8192) -> Iterator[Any]:
    return iter_batches(path_or_dir, "pairs", columns, methods, batch_size)

