"""Cosine similarity between a sentence and its variants under a sentence encoder (a transformers model directory,
mean pooling over the attention mask): used by the synonym augmenter to rank candidate substitutions in context
(`rank_encoder`). torch and transformers are imported only when an encoder is loaded, so the augmenter without
ranking stays light. Only local directories are read (no hub lookups), in safetensors/`weights_only` formats as
transformers loads them."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pipeline.base.errors import BSLError


def encoder_identity(directory: Path) -> str:
    """sha256 over the files that decide the encoder's output (config, tokenizer, weights), so a fingerprint changes
    when the model does."""
    digest = hashlib.sha256()
    for path in sorted(directory.iterdir()):
        if path.is_file() and path.suffix in (".json", ".txt", ".safetensors", ".bin", ".model"):
            digest.update(path.name.encode())
            with open(path, "rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(block)
    return digest.hexdigest()


class SentenceSimilarity:
    """Mean-pooled sentence embeddings of one encoder; `similarities(groups)` gives, for each group
    (source, variant, variant, ...), the cosine of every variant with its source."""

    def __init__(self, directory: str | Path, where: str, batch_size: int = 64, max_length: int = 128):
        path = Path(directory).expanduser()
        if not (path / "config.json").is_file():
            raise BSLError(f"{where}: {path} is not a model directory (no config.json)")
        self.directory = path.resolve()
        self.batch_size = batch_size
        self.max_length = max_length
        self._model: Any = None
        self._tokenizer: Any = None

    def _load(self) -> None:
        if self._model is not None:
            return
        from transformers import AutoModel, AutoTokenizer

        self._tokenizer = AutoTokenizer.from_pretrained(self.directory, local_files_only=True)
        self._model = AutoModel.from_pretrained(self.directory, local_files_only=True).eval()

    def embed(self, texts: Sequence[str]) -> Any:
        """Unit-length mean-pooled embeddings (a torch tensor, one row per text)."""
        import torch

        self._load()
        rows = []
        with torch.no_grad():
            for start in range(0, len(texts), self.batch_size):
                batch = self._tokenizer(list(texts[start:start + self.batch_size]), padding=True, truncation=True,
                                        max_length=self.max_length, return_tensors="pt")
                hidden = self._model(**batch).last_hidden_state
                mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
                rows.append(torch.nn.functional.normalize(pooled, dim=-1))
        return torch.cat(rows) if rows else torch.zeros((0, 0))

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
