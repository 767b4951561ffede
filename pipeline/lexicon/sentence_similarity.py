"""Cosine similarity between a sentence and its variants under a sentence encoder (a transformers model directory,
mean pooling over the attention mask): used by the synonym augmenter to rank candidate substitutions in context
(`rank_encoder`). torch and transformers are imported only when an encoder is loaded, so the augmenter without
ranking stays light. Only local directories are read (no hub lookups), in safetensors/`weights_only` formats as
transformers loads them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.sentence_embedder import SentenceEmbedder


class SentenceSimilarity:
    """`similarities(groups)` gives, for each group (source, variant, variant, ...), the cosine of every variant with
    its source under one encoder (`pipeline.base.sentence_embedder`)."""

    def __init__(self, directory: str | Path, where: str, batch_size: int = 64, max_length: int = 128):
        path = Path(directory).expanduser()
        if not (path / "config.json").is_file():
            raise BSLError(f"{where}: {path} is not a model directory (no config.json)")
        self.directory = path.resolve()
        self.embedder = SentenceEmbedder(self.directory, where, max_length=max_length, batch_size=batch_size)

    def embed(self, texts: Sequence[str]) -> Any:
        """Unit-length mean-pooled embeddings (a torch tensor, one row per text)."""
        return self.embedder.embed(texts)

    def similarities(self, groups: Sequence[Sequence[str]]) -> list[list[float]]:
        """For each group [source, *variants]: the cosine of each variant with the source."""
        texts = [text for group in groups for text in group]
        if not texts:
            return [[] for _ in groups]
        vectors = self.embed(texts)
        out, start = [], 0
        for group in groups:
            source = vectors[start]
            variants = vectors[start + 1:start + len(group)]
            out.append((variants @ source).tolist() if len(group) > 1 else [])
            start += len(group)
        return out
