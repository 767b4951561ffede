"""Correlation metrics for STS: cosine similarity of the two sentence embeddings against the gold scores.

All correlations are reported x100 (as in the paper's tables). Spearman uses average ranks for ties (scipy's
`spearmanr`), which is what SentEval and sentence-transformers compute. Cosines are computed in float64 so that
the ranks do not depend on float32 rounding of nearly equal similarities.

Per STS year three aggregates are computed, named as in SentEval:
  - `all`:   one correlation over the concatenation of every subset's pairs;
  - `mean`:  the unweighted mean of the per-subset correlations;
  - `wmean`: the mean of the per-subset correlations weighted by the number of pairs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

STS_AGGREGATES = ("all", "mean", "wmean")


@dataclass(frozen=True)
class PairScore:
    """Spearman and Pearson correlation x100 over `n` pairs (NaN when undefined, e.g. constant similarities)."""

    spearman: float
    pearson: float
    n: int

    def to_dict(self) -> dict:
        return {"spearman": _finite_or_none(self.spearman), "pearson": _finite_or_none(self.pearson), "n": self.n}


@dataclass(frozen=True)
class YearScore:
    """One STS year: every subset's score plus the three SentEval aggregates."""

    subsets: dict[str, PairScore]
    all: PairScore
    mean: PairScore
    wmean: PairScore

    def aggregate(self, name: str) -> PairScore:
        if name not in STS_AGGREGATES:
            raise ValueError(f"unknown STS aggregate {name!r}; expected one of {STS_AGGREGATES}")
        return getattr(self, name)

    def to_dict(self) -> dict:
        return {"all": self.all.to_dict(), "mean": self.mean.to_dict(), "wmean": self.wmean.to_dict(),
                "subsets": {name: s.to_dict() for name, s in self.subsets.items()}}


def _finite_or_none(x: float) -> float | None:
    # JSON has no NaN; null says "undefined" without producing a file other tools reject.
    return float(x) if math.isfinite(x) else None


def as_numpy(embeddings) -> np.ndarray:
    """A torch tensor (any device/dtype) or array-like -> 2-D float64 numpy array."""
    if hasattr(embeddings, "detach"):
        embeddings = embeddings.detach().float().cpu().numpy()
    arr = np.asarray(embeddings, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError(f"expected a 2-D array of embeddings (n, dim), got shape {arr.shape}")
    return arr


def cosine_similarities(a, b) -> np.ndarray:
    """Row-wise cosine similarity of two (n, d) arrays; a zero vector has similarity 0 with anything."""
    a = as_numpy(a)
    b = as_numpy(b)
    if a.shape != b.shape:
        raise ValueError(f"embedding arrays differ in shape: {a.shape} vs {b.shape}")
    norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    dots = np.einsum("ij,ij->i", a, b)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(norms > 0, dots / np.where(norms > 0, norms, 1.0), 0.0)


def _is_constant(x: np.ndarray) -> bool:
    return bool(x.size == 0 or np.all(x == x[0]))


def _correlation(method: str, x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    """scipy's `spearmanr`/`pearsonr` x100; NaN if either side is constant or n < 2."""
    import scipy.stats

    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if len(x) != len(y):
        raise ValueError(f"length mismatch: {len(x)} vs {len(y)}")
    if len(x) < 2 or _is_constant(x) or _is_constant(y):
        return float("nan")
    return float(getattr(scipy.stats, method)(x, y).statistic) * 100.0


def spearman(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    """Spearman rank correlation x100 (average ranks for ties); NaN if either side is constant or n < 2."""
    return _correlation("spearmanr", x, y)


def pearson(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    """Pearson correlation x100; NaN if either side is constant or n < 2."""
    return _correlation("pearsonr", x, y)


def score_pairs(similarities: Sequence[float] | np.ndarray, gold: Sequence[float] | np.ndarray) -> PairScore:
    sims = np.asarray(similarities, dtype=np.float64)
    gold = np.asarray(gold, dtype=np.float64)
    return PairScore(spearman(sims, gold), pearson(sims, gold), int(len(gold)))


def score_year(per_subset: Mapping[str, tuple[np.ndarray, np.ndarray]]) -> YearScore:
    """`{subset: (cosine similarities, gold scores)}` -> per-subset scores and the all/mean/wmean aggregates."""
    if not per_subset:
        raise ValueError("no subsets to score")
    subsets = {name: score_pairs(sims, gold) for name, (sims, gold) in per_subset.items()}
    all_sims = np.concatenate([np.asarray(s, dtype=np.float64) for s, _ in per_subset.values()])
    all_gold = np.concatenate([np.asarray(g, dtype=np.float64) for _, g in per_subset.values()])
    n_total = int(len(all_gold))
    sizes = np.array([s.n for s in subsets.values()], dtype=np.float64)

    def agg(metric: str, weighted: bool) -> float:
        values = np.array([getattr(s, metric) for s in subsets.values()], dtype=np.float64)
        return float(np.average(values, weights=sizes if weighted else None))

    return YearScore(
        subsets=subsets,
        all=score_pairs(all_sims, all_gold),
        mean=PairScore(agg("spearman", False), agg("pearson", False), n_total),
        wmean=PairScore(agg("spearman", True), agg("pearson", True), n_total),
    )
