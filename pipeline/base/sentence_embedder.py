"""The one small sentence encoder of the pipeline layer: a Hugging Face encoder with mean pooling
(`pipeline.base.pooling.pool`, shared with the trainer's encoder stack), unit-length vectors, no gradients.

Used where the pipeline measures text with a model: the `view_similarity` quality field
(`pipeline.augment.view_similarity`) and the synonym augmenter's optional candidate ranking
(`pipeline.lexicon.sentence_similarity`). torch and transformers are imported when a model is first used.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.progress import transformers_bars_hidden
from bsl_pipeline.pipeline.base.weights_only import refusing_pickles

#: The files that decide an encoder's output (config, tokenizer, weights): their sha256 identify the model.
IDENTITY_PATTERNS = ("*.json", "*.safetensors", "*.bin", "*.txt", "*.model")


def model_identity(directory: str | Path) -> dict[str, str]:
    """file name -> sha256 of the files that decide the encoder's output (memoised per process)."""
    from bsl_pipeline.pipeline.base.provenance import sha256_dir

    return sha256_dir(directory, IDENTITY_PATTERNS)


class SentenceEmbedder:
    """Mean-pooled, unit-length sentence vectors of the encoder in a local directory."""

    def __init__(self, directory: str | Path, where: str, *, max_length: int | None = None, batch_size: int = 64):
        self.directory = Path(directory).expanduser()
        self.where = where
        self.batch_size = batch_size
        self._max_length = max_length
        self._model: Any = None
        self._tokenizer: Any = None
        self._device: Any = None

    def _load(self) -> None:
        if self._model is not None:
            return
        from transformers import AutoModel, AutoTokenizer

        from bsl_pipeline.pipeline.base.devices import resolve_device
        from bsl_pipeline.pipeline.base.model_limits import usable_positions

        try:
            self._tokenizer = AutoTokenizer.from_pretrained(self.directory, local_files_only=True)
            with transformers_bars_hidden(), refusing_pickles(self.directory):
                model = AutoModel.from_pretrained(self.directory, local_files_only=True)
        except (OSError, ValueError) as exc:
            raise BSLError(f"{self.where}: cannot load a sentence encoder from {self.directory}: {exc}") from None
        self._device = resolve_device("auto")
        self._model = model.to(self._device).eval()
        limit = min(usable_positions(model.config) or 512, 512)
        self._max_length = min(self._max_length or limit, limit)

    def embed(self, texts: Sequence[str]) -> Any:
        """A (len(texts), dim) float32 CPU tensor of unit-length vectors, in the order given."""
        import torch

        from bsl_pipeline.pipeline.base.pooling import pool

        self._load()
        rows = []
        with torch.no_grad():
            for start in range(0, len(texts), self.batch_size):
                tokens = self._tokenizer(list(texts[start:start + self.batch_size]), padding=True, truncation=True,
                                         max_length=self._max_length, return_tensors="pt").to(self._device)
                states = self._model(**tokens).last_hidden_state
                rows.append(torch.nn.functional.normalize(pool(states, tokens["attention_mask"], ("mean",)),
                                                          dim=-1).cpu())
        return torch.cat(rows) if rows else torch.zeros((0, 0))
