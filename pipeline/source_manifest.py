"""Manifests of source corpora: what a corpus is (files, sha256, lines) and what reading it yields (records kept,
dropped by reason, NLI label counts), so datasets can name exactly what they were made from."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pipeline.atomic import write_json_atomic
from pipeline.corpus import CorpusConfig, CorpusStats, iter_chunks
from pipeline.provenance import code_version


def describe_corpus(corpus: str | Path, cfg: CorpusConfig, name: str) -> dict[str, Any]:
    from pipeline.build import _source_info

    stats = CorpusStats()
    labels: Counter = Counter()
    pairs = 0
    for chunk in iter_chunks(corpus, cfg, stats):
        for r in chunk.records:
            if r.text_b is not None:
                pairs += 1
                labels[r.label or "none"] += 1
    manifest = {
        "kind": "source_corpus",
        "name": name,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "code_version": code_version(),
        "corpus": str(corpus),
        "reader": {"format": cfg.format, "field": cfg.field, "min_words": cfg.min_words,
                   "max_words": cfg.max_words, "dedupe": cfg.dedupe,
                   **({"columns": cfg.columns, "header": cfg.header} if cfg.columns or not cfg.header else {})},
        **stats.as_dict(),
        "files": _source_info(stats.files),
    }
    if pairs:
        manifest["sentence_pairs"] = pairs
        manifest["labels"] = dict(sorted(labels.items()))
    return manifest


def write_source_manifest(corpus: str | Path, cfg: CorpusConfig, name: str, registry_dir: str | Path) -> Path:
    target = Path(registry_dir) / "sources" / f"{name}.json"
    write_json_atomic(target, describe_corpus(corpus, cfg, name))
    return target
