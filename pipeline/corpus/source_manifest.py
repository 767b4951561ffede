"""Manifests of source corpora: what a corpus is (files, sha256, lines) and what reading it yields (records kept,
dropped by reason, NLI label counts), so datasets can name exactly what they were made from."""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.atomic import write_json_atomic
from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.base.ownership import (
    check_not_input,
    check_output_name,
    local_only,
    refuse_special_file,
    require_record_or_nothing,
)
from bsl_pipeline.pipeline.base.provenance import code_version, sha256_file
from bsl_pipeline.pipeline.corpus.chunks import CorpusConfig, CorpusStats, iter_chunks


SOURCE_KIND = "source_corpus"
# A corpus manifest lists the corpus's files: far larger is not one the tool wrote.
MAX_SOURCE_MANIFEST_BYTES = 64 << 20


def describe_corpus(corpus: str | Path, cfg: CorpusConfig, name: str) -> dict[str, Any]:

    stats = CorpusStats()
    labels: Counter = Counter()
    pairs = 0
    for chunk in iter_chunks(corpus, cfg, stats):
        for r in chunk.records:
            if r.text_b is not None:
                pairs += 1
                labels[r.label or "none"] += 1
    manifest = {
        "kind": SOURCE_KIND,
        "name": name,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "code_version": code_version(),
        "corpus": str(corpus),
        "reader": {"format": cfg.format, "field": cfg.field, "min_words": cfg.min_words,
                   "max_words": cfg.max_words, "dedupe": cfg.dedupe,
                   **({"columns": cfg.columns, "header": cfg.header} if cfg.columns or not cfg.header else {})},
        **stats.as_dict(),
        "files": source_files_info(stats.files, stats.read_stats),
    }
    if pairs:
        manifest["sentence_pairs"] = pairs
        manifest["labels"] = dict(sorted(labels.items()))
    return manifest


def write_source_manifest(corpus: str | Path, cfg: CorpusConfig, name: str, registry_dir: str | Path) -> Path:
    """Describe the corpus into `<registry_dir>/sources/<name>.json`: never inside the corpus (the next read of it
    would take the manifest for corpus text), never through a link, and never over a file that is not a corpus
    manifest (a user's file of that name is kept)."""
    check_output_name(name, "corpus manifest name")
    local_only(registry_dir, "--registry-dir")
    target = Path(registry_dir) / "sources" / f"{name}.json"
    check_not_input(target, [corpus])
    refuse_special_file(target)
    require_record_or_nothing(target, SOURCE_KIND, MAX_SOURCE_MANIFEST_BYTES, "a corpus manifest",
                              "give another --name, or another --registry-dir")
    write_json_atomic(target, describe_corpus(corpus, cfg, name))
    return target

def source_files_info(paths: list[str],
                      read_stats: dict[str, tuple[int, int]] | None = None) -> list[dict[str, Any]]:
    """sha256, bytes and lines of each corpus file. With `read_stats` (from `CorpusStats`), a file whose size or
    modification time differs from when it was read, or that changes while it is hashed, is refused: the hash
    must describe the bytes the records came from."""
    read_stats = read_stats or {}
    out = []
    for p in paths:
        path = Path(p)
        if path.is_dir():  # a `datasets` directory: hash its files
            files = sorted(f for f in path.rglob("*") if f.is_file())
            out.append({"path": str(path), "files": {str(f.relative_to(path)): sha256_file(f) for f in files}})
            continue
        h, lines, size = hashlib.sha256(), 0, 0
        with open(path, "rb") as fh:
            before = os.fstat(fh.fileno())
            while block := fh.read(1 << 20):
                h.update(block)
                lines += block.count(b"\n")
                size += len(block)
        seen = read_stats.get(str(path))
        if size != before.st_size or (seen is not None and seen != (before.st_size, before.st_mtime_ns)):
            was = f"{seen[0]} bytes when read" if seen else f"{before.st_size} bytes"
            raise InputError(f"{path}: the corpus file changed while it was read ({was}, {size} bytes hashed); "
                             f"rerun when nothing writes to it (or augment a copy)")
        out.append({"path": str(path), "sha256": h.hexdigest(), "bytes": size, "lines": lines})
    return out

