"""On-disk embedding cache: one `.npy` per (encoder fingerprint, evaluation file content).

Layout: `<cache_dir>/<fingerprint[:32]>/<pairset key[:32]>.npy` holding a float32 array of shape (2n, dim): the
n first-sentence embeddings, then the n second-sentence embeddings, in file order. Written atomically and read
with `allow_pickle=False`; an entry whose shape does not match the pair set (or that cannot be read) is treated as
a miss and rewritten, never trusted.

Beside each entry, `<key[:32]>.seal` holds this user's seal (`pipeline.base.user_cache.seal`) of the entry's sha256
with its fingerprint and key: a cache directory can come with a repository or a restored CI cache, and embeddings
of the right shape planted there would decide the scores. An entry whose seal is missing or does not match is
ignored with a warning and encoded again.
"""

from __future__ import annotations

import hashlib
import io
import logging
from pathlib import Path

import numpy as np

from bsl_pipeline.pipeline.base.atomic import atomic_path, write_text_atomic
from bsl_pipeline.pipeline.base.ownership import local_only
from bsl_pipeline.pipeline.base.user_cache import seal, seal_matches

log = logging.getLogger(__name__)


class EmbeddingCache:
    def __init__(self, root: str | Path):
        local_only(root, "evaluation.cache_dir")
        self.root = Path(root)

    def path_for(self, fingerprint: str, key: str) -> Path:
        return self.root / fingerprint[:32] / f"{key[:32]}.npy"

    @staticmethod
    def _sealed(fingerprint: str, key: str, data: bytes) -> dict[str, str]:
        return {"fingerprint": fingerprint[:32], "key": key[:32], "sha256": hashlib.sha256(data).hexdigest()}

    def get(self, fingerprint: str, key: str, n_pairs: int) -> tuple[np.ndarray, np.ndarray] | None:
        """The two halves (first sentences, second sentences) of `n_pairs` cached pairs, or None."""
        arr = self.get_rows(fingerprint, key, 2 * n_pairs)
        return None if arr is None else (arr[:n_pairs], arr[n_pairs:])

    def put(self, fingerprint: str, key: str, emb1: np.ndarray, emb2: np.ndarray) -> Path:
        path = self.path_for(fingerprint, key)
        data = np.concatenate([np.asarray(emb1, dtype=np.float32), np.asarray(emb2, dtype=np.float32)], axis=0)
        buffer = io.BytesIO()
        np.save(buffer, data, allow_pickle=False)
        raw = buffer.getvalue()
        with atomic_path(path) as tmp:
            tmp.write_bytes(raw)
        write_text_atomic(path.with_suffix(".seal"), seal(self._sealed(fingerprint, key, raw)) + "\n")
        return path

    def get_rows(self, fingerprint: str, key: str, n_rows: int) -> np.ndarray | None:
        """One embedding per sentence (the transfer tasks' unique sentences), `n_rows` rows, or None."""
        path = self.path_for(fingerprint, key)
        if not path.is_file():
            return None
        try:
            raw = path.read_bytes()
            recorded = path.with_suffix(".seal").read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            recorded = None
        if recorded is None or not seal_matches(self._sealed(fingerprint, key, raw), recorded):
            log.warning("warning: ignoring cached embeddings %s: not sealed by this user's cache key (planted, "
                        "edited or copied from elsewhere); encoding again", path)
            return None
        try:
            arr = np.load(io.BytesIO(raw), allow_pickle=False)
        except (OSError, ValueError) as exc:
            log.warning("ignoring unreadable cached embeddings %s: %s", path, exc)
            return None
        if arr.ndim != 2 or arr.shape[0] != n_rows or not np.issubdtype(arr.dtype, np.floating):
            log.warning("ignoring cached embeddings %s with shape %s (expected %d rows)", path, arr.shape, n_rows)
            return None
        return arr

    def put_rows(self, fingerprint: str, key: str, emb: np.ndarray) -> Path:
        emb = np.asarray(emb, dtype=np.float32)
        return self.put(fingerprint, key, emb, emb[:0])
