"""Quality filters on view pairs: each returns None (keep) or a reason; rejected pairs are kept with it."""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.base.config import Range
from pipeline.base.text import normalize


@dataclass
class FilterConfig:
    reject_identical: bool = field(default=True, metadata={
        "help": "reject pairs whose views are equal after normalising (unless the method makes them on purpose)"})
    min_words: int = field(default=1, metadata={
        "range": Range(0, not_above="max_words"), "help": "reject when a view has fewer words"})
    max_words: int = field(default=256, metadata={"range": Range(1), "help": "reject when a view has more words"})
    min_length_ratio: float = field(default=0.5, metadata={
        "range": Range(0, not_above="max_length_ratio"), "help": "reject when words(view2)/words(view1) is below"})
    max_length_ratio: float = field(default=2.0, metadata={
        "range": Range(0), "help": "reject when words(view2)/words(view1) is above"})


@dataclass
class PairQuality:
    """Measured once per pair at write time; the filters and the shard columns both use it."""

    n_words_source: int
    n_words_view1: int
    n_words_view2: int
    edit_ratio_views: float
    edit_ratio_view1: float
    edit_ratio_view2: float
    length_ratio: float
    identical: bool


def measure(source: str, view1: str, view2: str) -> PairQuality:
    from pipeline.base.text import count_words, edit_ratio, length_ratio

    return PairQuality(
        n_words_source=count_words(source), n_words_view1=count_words(view1), n_words_view2=count_words(view2),
        edit_ratio_views=edit_ratio(view1, view2), edit_ratio_view1=edit_ratio(source, view1),
        edit_ratio_view2=edit_ratio(source, view2), length_ratio=length_ratio(view1, view2),
        identical=normalize(view1) == normalize(view2),
    )


def empty_view(view1: str | None, view2: str | None) -> str | None:
    if not view1 or not view1.strip() or not view2 or not view2.strip():
        return "empty_view"
    return None


def check(q: PairQuality, cfg: FilterConfig, identical_ok: bool) -> str | None:
    """The first failing filter's reason, in a fixed order, or None."""
    if q.identical and cfg.reject_identical and not identical_ok:
        return "identical_views"
    if min(q.n_words_view1, q.n_words_view2) < cfg.min_words:
        return "too_short"
    if max(q.n_words_view1, q.n_words_view2) > cfg.max_words:
        return "too_long"
    if not (cfg.min_length_ratio <= q.length_ratio <= cfg.max_length_ratio):
        return "length_ratio_out_of_bounds"
    return None
