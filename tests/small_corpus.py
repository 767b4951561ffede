"""The small real corpus and augmentation config the data-safety tests build datasets from, and the edit of a
dataset's shards that anyone can make (checksums updated)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from bsl_pipeline.pipeline.augment.job import AugmentConfig
from bsl_pipeline.pipeline.base.provenance import sha256_file
from bsl_pipeline.pipeline.dataset.manifest import write_manifest

SENTENCES = [f"Sentence number {i} talks about the {w} in the park." for i, w in
             enumerate(["dog", "cat", "tree", "child", "ball", "car", "house", "woman", "man", "game"] * 3)]


def write_corpus(tmp_path: Path) -> Path:
    """`tmp_path/corpus/corpus.txt` with SENTENCES, one per line."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    path = folder / "corpus.txt"
    path.write_text("\n".join(SENTENCES) + "\n", encoding="utf-8")
    return path


def augment_config(tmp_path: Path, **kw) -> AugmentConfig:
    """The `noise` method in chunks of 8, the registry under `tmp_path` (never the working directory)."""
    kw.setdefault("methods", ["noise"])
    kw.setdefault("registry_dir", str(tmp_path / "registry"))
    cfg = AugmentConfig(progress=False, **kw)
    cfg.corpus.chunk_size = 8
    return cfg


def rewrite_pair_shards(ds: Path, change, only_first: bool = False) -> list[Path]:
    """Replace each pair shard (or the first only) by `change(table)` and update the manifest's checksums and row
    counts, as anyone can; returns the shards rewritten."""
    manifest = json.loads((ds / "manifest.json").read_text())
    shards = [s for s in manifest["shards"] if s["kind"] == "pairs"][:1 if only_first else None]
    for shard in shards:
        path = ds / shard["path"]
        table = change(pq.read_table(path))
        pq.write_table(table, path)
        shard.update(sha256=sha256_file(path), rows=table.num_rows)
    manifest.pop("checksum")
    write_manifest(manifest, ds / "manifest.json")
    return [ds / s["path"] for s in shards]
