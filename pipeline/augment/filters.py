"""Quality filters on view pairs.

A filter is a small class: `name` (its registry name), the settings it reads from `FilterConfig`, and
`check(pair) -> None | reason` (None keeps the pair; a reason rejects it, and the rejected pair is kept in the rejects
shards with that reason). `FILTERS` maps names to classes; its order is the order of the checks and the first reason
wins. A pair is measured once (`measure_pair`) before any filter runs, so filters read `pair.quality` (also written
as shard columns) or `pair.measures` (further per-pair numbers, by name) instead of recomputing them.

Adding a filter: one class here, one line in `FILTERS`, and its settings as fields of `FilterConfig` (with a `Range`;
every flag must be able to turn it off). See CONTRIBUTING.md, "Quality filters".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bsl_pipeline.pipeline.base.config import Range
from bsl_pipeline.pipeline.base.text import normalize, words

#: Name of the encoder similarity in `MeasuredPair.measures` (and its shard column).
VIEW_SIMILARITY = "view_similarity"
_PUNCTUATION = re.compile(r"[^\w\s]")


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
    min_changed_word_share: float | None = field(default=None, metadata={
        "range": Range(0, 1, not_above="max_changed_word_share"),
        "help": "reject (too_few_words_changed) when changed_word_share is below (null = off)"})
    max_changed_word_share: float | None = field(default=None, metadata={
        "range": Range(0, 1), "help": "reject (too_many_words_changed) when changed_word_share is above (null = off)"})
    encoder: str = field(default="", metadata={
        "help": "sentence encoder that measures view_similarity (cosine of mean-pooled view1 and view2): a local "
                "model dir or a hub id from the local HF cache; '' = off (the column is null). Costs one forward "
                "pass per distinct view"})
    min_view_similarity: float | None = field(default=None, metadata={
        "range": Range(-1, 1), "help": "reject (view_similarity_below_min) when view_similarity is below; needs "
                                       "encoder (null = off)"})

    def config_problems(self) -> list[tuple[str, str]]:
        if self.min_view_similarity is not None and not self.encoder:
            return [("min_view_similarity", "needs an encoder to measure view_similarity (set filters.encoder)")]
        return []


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
    changed_word_share: float   # max over the two views of `changed_word_share(source, view)`


@dataclass
class MeasuredPair:
    """What a filter sees: the texts, their `PairQuality`, and any further measures computed once for this pair
    (by name, e.g. an encoder similarity computed for the whole chunk in one batch)."""

    source: str
    view1: str
    view2: str
    quality: PairQuality
    measures: Mapping[str, Any] = field(default_factory=dict)


def _alignment_words(text: str) -> list[str]:
    """The words `changed_word_share` aligns: `pipeline.base.text.words` without punctuation, case-folded."""
    return [w.casefold() for w in words(text) if not _PUNCTUATION.fullmatch(w)]


def changed_word_share(source: str, view: str) -> float:
    """Share of the source's words that the view does not keep: 1 - LCS(source words, view words) / source words,
    over `words()` tokens less punctuation, compared case-folded. The longest common subsequence is the word-level
    alignment: a word counts as kept only when it is still there in order, so a substitution, a deletion or a
    moved word counts as changed and an inserted word changes nothing of the source. 0.0 = every source word kept
    (also for a source without words), 1.0 = none kept. Comparable across methods: for a one-view method
    (view1 = source) the pair's value is its view's; for two views, each view is measured against the source and
    the pair gets the larger (the view that drifted further)."""
    from rapidfuzz.distance import LCSseq

    source_words = _alignment_words(source)
    if not source_words:
        return 0.0
    kept = LCSseq.similarity(source_words, _alignment_words(view))
    return 1.0 - kept / len(source_words)


def measure(source: str, view1: str, view2: str) -> PairQuality:
    from bsl_pipeline.pipeline.base.text import count_words, edit_ratio, length_ratio

    return PairQuality(
        n_words_source=count_words(source), n_words_view1=count_words(view1), n_words_view2=count_words(view2),
        edit_ratio_views=edit_ratio(view1, view2), edit_ratio_view1=edit_ratio(source, view1),
        edit_ratio_view2=edit_ratio(source, view2), length_ratio=length_ratio(view1, view2),
        identical=normalize(view1) == normalize(view2),
        changed_word_share=max(changed_word_share(source, view1), changed_word_share(source, view2)),
    )


def measure_pair(source: str, view1: str, view2: str, measures: Mapping[str, Any] | None = None) -> MeasuredPair:
    return MeasuredPair(source, view1, view2, measure(source, view1, view2), dict(measures or {}))


def empty_view(view1: str | None, view2: str | None) -> str | None:
    """Checked before measuring (a missing view cannot be measured), so not one of `FILTERS`."""
    if not view1 or not view1.strip() or not view2 or not view2.strip():
        return "empty_view"
    return None


class PairFilter:
    """One quality filter. Subclasses set `name` and implement `check`; they read their settings from `config`."""

    name: ClassVar[str] = ""

    def __init__(self, config: FilterConfig, identical_ok: bool = False):
        self.config = config
        self.identical_ok = identical_ok  # the method makes identical views on purpose

    def check(self, pair: MeasuredPair) -> str | None:
        """None to keep the pair, else the reject reason (snake_case)."""
        raise NotImplementedError


class IdenticalViews(PairFilter):
    name = "identical_views"

    def check(self, pair: MeasuredPair) -> str | None:
        if pair.quality.identical and self.config.reject_identical and not self.identical_ok:
            return "identical_views"
        return None


class TooShort(PairFilter):
    name = "too_short"

    def check(self, pair: MeasuredPair) -> str | None:
        if min(pair.quality.n_words_view1, pair.quality.n_words_view2) < self.config.min_words:
            return "too_short"
        return None


class TooLong(PairFilter):
    name = "too_long"

    def check(self, pair: MeasuredPair) -> str | None:
        if max(pair.quality.n_words_view1, pair.quality.n_words_view2) > self.config.max_words:
            return "too_long"
        return None


class LengthRatio(PairFilter):
    name = "length_ratio"

    def check(self, pair: MeasuredPair) -> str | None:
        if not (self.config.min_length_ratio <= pair.quality.length_ratio <= self.config.max_length_ratio):
            return "length_ratio_out_of_bounds"
        return None


class ChangedWordShare(PairFilter):
    """Bounds how much of the source the views change (`PairQuality.changed_word_share`)."""

    name = "changed_word_share"

    def check(self, pair: MeasuredPair) -> str | None:
        share = pair.quality.changed_word_share
        if self.config.min_changed_word_share is not None and share < self.config.min_changed_word_share:
            return "too_few_words_changed"
        if self.config.max_changed_word_share is not None and share > self.config.max_changed_word_share:
            return "too_many_words_changed"
        return None


class ViewSimilarity(PairFilter):
    """Lower bound on the encoder's cosine of the two views (`measures["view_similarity"]`, computed per chunk)."""

    name = "view_similarity"

    def check(self, pair: MeasuredPair) -> str | None:
        if self.config.min_view_similarity is None:
            return None
        similarity = pair.measures.get(VIEW_SIMILARITY)
        if similarity is None:  # config_problems refuses the bound without an encoder; a missing value is a bug
            raise ValueError("min_view_similarity is set but the pair has no view_similarity")
        if similarity < self.config.min_view_similarity:
            return "view_similarity_below_min"
        return None


# Name -> filter class, in the order the filters run (the first reason wins).
FILTERS: dict[str, type[PairFilter]] = {cls.name: cls for cls in (
    IdenticalViews,
    TooShort,
    TooLong,
    LengthRatio,
    ChangedWordShare,
    ViewSimilarity,
)}


def build_filters(config: FilterConfig, identical_ok: bool = False) -> list[PairFilter]:
    """Every registered filter with one method's settings, in registry order."""
    return [cls(config, identical_ok) for cls in FILTERS.values()]


def first_reject(filters: list[PairFilter], pair: MeasuredPair) -> str | None:
    """The first failing filter's reason, or None (keep)."""
    for pair_filter in filters:
        reason = pair_filter.check(pair)
        if reason is not None:
            return reason
    return None

