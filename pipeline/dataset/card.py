"""The dataset card (`<dataset>/README.md`): YAML front matter that `datasets.load_dataset(<dir>)` reads, plus a
human summary of where the pairs came from and what was rejected."""

from __future__ import annotations

from pathlib import Path

import yaml

from pipeline.base.atomic import write_text_atomic
from pipeline.dataset.manifest import Manifest


def _shard_files(manifest: Manifest, kind: str) -> list[str]:
    return [s.path for s in manifest.shards_of(kind)]


def dataset_card(manifest: Manifest) -> str:
    manifest.require("source", "stats")
    stats, source = manifest.stats, manifest.source
    front = {
        "pretty_name": manifest.name,
        "language": ["en"],
        "task_categories": ["sentence-similarity"],
        "tags": ["view-pairs", "bsl", *manifest.method_names],
        # The shard files by name, not a glob: a file dropped into data/ later is not read as part of the dataset.
        "configs": [
            {"config_name": "default", "default": True,
             "data_files": [{"split": "train", "path": _shard_files(manifest, "pairs")}]},
            {"config_name": "rejects", "data_files": [{"split": "train", "path": _shard_files(manifest, "rejects")}]},
        ],
    }
    if not _shard_files(manifest, "rejects"):
        front["configs"] = front["configs"][:1]
    lines = [
        "---", yaml.safe_dump(front, sort_keys=False).strip(), "---", "",
        f"# {manifest.name}", "",
        "View pairs for self-supervised sentence-representation learning (BSL and related objectives), made by "
        "`bsl augment`. Each row holds a source sentence, two views of it, the method and its parameters, and "
        "quality measures computed at write time.", "",
        f"- Source: `{source.corpus}` ({source.records_read} records read, {source.records_kept} kept)",
        f"- Created: {manifest.created} with code version `{manifest.code_version}`",
        f"- Pairs: {stats.pairs}; rejected: {stats.rejected} (rejects config, with reasons)", "",
        "| method | pairs | identical % | mean edit ratio | mean length ratio | rejected |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for m, s in stats.per_method.items():
        lines.append(f"| {m} | {s.pairs} | {s.identical_pct} | {s.mean_edit_ratio} | "
                     f"{s.mean_length_ratio} | {s.rejected} |")
    lines += ["", "Load with `datasets.load_dataset(\"<this dir>\")`; verify checksums with `bsl verify <this dir>`; "
              "browse pairs with `bsl inspect <this dir>`. Provenance and checksums: `manifest.json`.", ""]
    return "\n".join(lines)


def write_dataset_card(dataset_dir: Path, manifest: Manifest) -> None:
    write_text_atomic(Path(dataset_dir) / "README.md", dataset_card(manifest))
