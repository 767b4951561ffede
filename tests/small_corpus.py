"""The small real corpus and augmentation config the data-safety tests build datasets from."""

from __future__ import annotations

from pathlib import Path

from bsl_pipeline.pipeline.augment.job import AugmentConfig

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
