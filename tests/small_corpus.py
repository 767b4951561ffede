"""The small real corpus and augmentation config the data-safety tests build datasets from, the datasets they build,
the edit of a dataset's shards that anyone can make (checksums updated), and `bsl` run as a user runs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment
from bsl_pipeline.pipeline.base.provenance import sha256_file
from bsl_pipeline.pipeline.dataset.manifest import write_manifest

#: Terminal control sequences (a clipboard write, a screen clear, an 8-bit CSI) a dataset or a user may carry.
ESCAPES = "\x1b]52;c;aGVsbG8=\x07 \x1b[2J \x9b31m"
DOG_LINES = [f"Sentence number {i} talks about the dog in the park today." for i in range(4)]

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


def augmented_dataset(tmp_path: Path, corpus: Path, name: str = "ds") -> Path:
    """`tmp_path/name`: `corpus` augmented with `augment_config`."""
    run_augment(corpus, tmp_path / name, augment_config(tmp_path))
    return tmp_path / name


def noise_dataset(tmp_path: Path, name: str, lines: list[str], registry: str = "registry"):
    """The `noise` dataset `tmp_path/name` of `lines` (its corpus `tmp_path/name.txt`); returns its manifest."""
    corpus = tmp_path / f"{name}.txt"
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cfg = AugmentConfig(registry_dir=str(tmp_path / registry), progress=False, methods=["noise"])
    return run_augment(corpus, tmp_path / name, cfg)


def copy_dataset_files(src: Path, dst: Path) -> None:
    """What a copy of a dataset's published files over another puts there (its marker and .work/ stay)."""
    for name in ("data", "rejects"):
        shutil.rmtree(dst / name, ignore_errors=True)
        if (src / name).exists():
            shutil.copytree(src / name, dst / name)
    for name in ("manifest.json", "README.md"):
        shutil.copy2(src / name, dst / name)


def run_bsl(*args: str, **kw) -> subprocess.CompletedProcess:
    """`bsl ARGS` in a new process, progress bars off."""
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], capture_output=True, text=True,
                          check=False, env={**os.environ, "BSL_NO_PROGRESS": "1"}, **kw)
