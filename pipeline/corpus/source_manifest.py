"""Manifests of source corpora: what a corpus is (files, sha256, lines) and what reading it yields (records kept,
dropped by reason, NLI label counts), so datasets can name exactly what they were made from."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.atomic import write_json_atomic
from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.base.ownership import (
    REPLACED_DIR,
    OwnershipError,
    check_not_input,
    check_output_name,
    local_only,
    read_json_file,
    refuse_special_file,
    set_aside,
)
from bsl_pipeline.pipeline.base.provenance import code_version, sha256_file
from bsl_pipeline.pipeline.base.written_files import record_written, recorded_by
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


# The command that writes corpus manifests, as the record of written files names it.
WRITER = "corpus-manifest"
# What a rerun over an unchanged corpus changes anyway: when and by which code it ran.
_RUN_FIELDS = ("created", "code_version")


@dataclass(frozen=True)
class SourceManifestResult:
    """Where the manifest was written, and where the manifest it replaced went (`--overwrite`), if anywhere."""

    path: Path
    set_aside: Path | None = None


def write_source_manifest(corpus: str | Path, cfg: CorpusConfig, name: str, registry_dir: str | Path,
                          overwrite: bool = False) -> SourceManifestResult:
    """Describe the corpus into `<registry_dir>/sources/<name>.json`: never inside the corpus (the next read of it
    would take the manifest for corpus text), never through a link, and never over another file (`replaces`)
    unless `overwrite`, which first moves that file to `sources/.bsl-replaced/<time>/`."""
    check_output_name(name, "corpus manifest name")
    local_only(registry_dir, "--registry-dir")
    target = Path(registry_dir) / "sources" / f"{name}.json"
    check_not_input(target, [corpus])
    refuse_special_file(target)
    fix = (f"give another --name (or --registry-dir), or pass --overwrite to replace it (the old file is moved to "
           f"{target.parent / REPLACED_DIR}/, nothing is deleted)")
    if not overwrite and (problem := replaces(target, str(corpus))):
        raise OwnershipError(f"{target} {problem}; bsl leaves it alone: {fix}")  # before the corpus is read
    manifest = describe_corpus(corpus, cfg, name)
    problem = replaces(target, str(corpus), manifest)
    if problem and not overwrite:
        raise OwnershipError(f"{target} {problem}; bsl leaves it alone: {fix}")
    kept = set_aside(target.parent, [target.name]) if problem else None
    write_json_atomic(target, manifest)
    record_written(target, WRITER)
    return SourceManifestResult(target, kept)


def replaces(target: Path, corpus: str, manifest: dict[str, Any] | None = None) -> str | None:
    """Why writing `manifest`, the description of `corpus`, at `target` would lose something, or None: nothing is
    there, or a manifest of the same corpus (same path, same files and checksums) that this command wrote as it is
    now (the record of written files says so) or that holds what `manifest` holds but for when and by which code
    it was written. Without `manifest` (the corpus not read yet) only what is there and its corpus path count."""
    try:
        existing = read_json_file(target, MAX_SOURCE_MANIFEST_BYTES)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RecursionError):
        existing = None
    if not isinstance(existing, dict) or existing.get("kind") != SOURCE_KIND:
        return "exists and is not a corpus manifest"
    was = existing.get("corpus")
    if not _same_place(was, corpus):
        return f"describes another corpus, {was!r}"
    if manifest is None:
        return None
    if _contents(existing.get("files")) != _contents(manifest["files"]):
        return f"describes {was!r} with other files or checksums (the corpus changed since it was written)"
    if recorded_by(WRITER)(target):
        return None
    as_written = json.loads(json.dumps(manifest))
    if {k: v for k, v in existing.items() if k not in _RUN_FIELDS} == \
            {k: v for k, v in as_written.items() if k not in _RUN_FIELDS}:
        return None
    return ("describes this corpus but not as this run would (other reader settings, or edited by hand), and bsl "
            "has no record of writing it as it is now")


def _same_place(was: Any, now: str) -> bool:
    return isinstance(was, str) and (was == now or os.path.realpath(was) == os.path.realpath(now))


def _contents(files: Any) -> Any:
    """A manifest's `files` without their paths: what the corpus holds (sha256, bytes, lines; a directory's
    checksums)."""
    if not isinstance(files, list):
        return None
    return [{k: v for k, v in f.items() if k != "path"} if isinstance(f, dict) else f for f in files]


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

