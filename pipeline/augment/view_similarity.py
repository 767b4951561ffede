"""The optional encoder behind the `view_similarity` quality field (`filters.encoder`).

view_similarity = cosine(encoder(view1), encoder(view2)): the two texts the training objective pulls together. For a
one-view method (view1 = the source: synonyms, mlm, span-mask, ...) that is source vs its view; for two views
(back-translation) view1 vs view2. The encoder is a Hugging Face encoder with mean pooling (the pooling of
all-MiniLM-L6-v2 and of the models this project trains; `pipeline.base.pooling.pool`, the one implementation,
shared with the trainer's encoder stack), run without gradients. A task encodes all of its chunk's views in one pass
(each distinct text once, longest first so that similar lengths share a batch).

The model is loaded once per process (tasks on threads share it) and identified by the sha256 of its files, which
goes into every task's cache key (`identity`), so changing the model's files never reuses a cached task.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from bsl_pipeline.pipeline.base.hub import hub_snapshot, local_model_dir
from bsl_pipeline.pipeline.base.sentence_embedder import SentenceEmbedder, model_identity

_WHERE = "filters.encoder"
_SMALL_FILE_PATTERNS = ("*.json", "*.txt", "*.model", "vocab*", "merges*")
#: Sentences per forward pass (no effect on the values beyond float noise).
_BATCH = 64

_lock = threading.Lock()
_encoders: dict[str, ViewEncoder] = {}
_directories: dict[str, Path] = {}


def encoder_directory(model: str) -> Path:
    """The model's local directory: the configured dir, or a hub id's snapshot in the local HF cache."""
    with _lock:
        if model not in _directories:
            _directories[model] = (local_model_dir(model, _WHERE)
                                   or hub_snapshot(model, _SMALL_FILE_PATTERNS, where=_WHERE))
        return _directories[model]


def encoder_identity(model: str) -> dict[str, str]:
    """file name -> sha256 of the encoder's files (memoised per process): part of the task key when on."""
    return model_identity(encoder_directory(model))


class ViewEncoder:
    """cosine(view1[i], view2[i]) with the pipeline's sentence encoder (`pipeline.base.sentence_embedder`)."""

    def __init__(self, directory: Path):
        self.embedder = SentenceEmbedder(directory, _WHERE, batch_size=_BATCH)

    def similarities(self, view1: Sequence[str], view2: Sequence[str]) -> list[float]:
        """cosine(view1[i], view2[i]) for each i."""
        texts = sorted(set(view1) | set(view2), key=len, reverse=True)
        if not texts:
            return []
        vectors = dict(zip(texts, self.embedder.embed(texts)))
        import torch

        a = torch.stack([vectors[t] for t in view1])
        b = torch.stack([vectors[t] for t in view2])
        return [float(x) for x in (a * b).sum(dim=-1).clamp(-1.0, 1.0)]


def view_similarities(model: str, view1: Sequence[str], view2: Sequence[str]) -> list[float]:
    """cosine(view1[i], view2[i]) under the encoder `model` (loaded once per process)."""
    if not view1:
        return []
    directory = encoder_directory(model)
    with _lock:
        encoder = _encoders.get(model)
        if encoder is None:
            encoder = _encoders[model] = ViewEncoder(directory)
    with _lock:  # one forward at a time per process: threads would only contend for the same cores
        return encoder.similarities(view1, view2)
