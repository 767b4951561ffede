import itertools

import pyarrow.parquet as pq

from bsl_pipeline.pipeline.augment.augmenters import build_augmenter
from bsl_pipeline.pipeline.augment.filters import (
    FILTERS,
    FilterConfig,
    MeasuredPair,
    PairFilter,
    PairQuality,
    build_filters,
    first_reject,
    measure_pair,
)
from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment
from bsl_pipeline.pipeline.augment.tasks import task_key


def _quality(n1=5, n2=5, ratio=1.0, identical=False):
    return PairQuality(n_words_source=5, n_words_view1=n1, n_words_view2=n2, edit_ratio_views=0.1,
                       edit_ratio_view1=0.1, edit_ratio_view2=0.1, length_ratio=ratio, identical=identical,
                       changed_word_share=0.2)


def _old_check(q, cfg, identical_ok):
    """The if-chain the registry replaced (kept here to pin the same reasons in the same order)."""
    if q.identical and cfg.reject_identical and not identical_ok:
        return "identical_views"
    if min(q.n_words_view1, q.n_words_view2) < cfg.min_words:
        return "too_short"
    if max(q.n_words_view1, q.n_words_view2) > cfg.max_words:
        return "too_long"
    if not (cfg.min_length_ratio <= q.length_ratio <= cfg.max_length_ratio):
        return "length_ratio_out_of_bounds"
    return None


def test_registry_order_and_names():
    assert list(FILTERS) == ["identical_views", "too_short", "too_long", "length_ratio", "changed_word_share",
                             "view_similarity"]
    assert [f.name for f in build_filters(FilterConfig())] == list(FILTERS)


def test_same_reasons_in_the_same_order_as_the_if_chain():
    cfg = FilterConfig(min_words=3, max_words=6, min_length_ratio=0.5, max_length_ratio=2.0)
    seen = set()
    for n1, n2, ratio, identical, identical_ok, reject_identical in itertools.product(
            [1, 3, 5, 7], [2, 4, 8], [0.2, 0.5, 1.0, 2.0, 3.0], [False, True], [False, True], [False, True]):
        cfg.reject_identical = reject_identical
        q = _quality(n1, n2, ratio, identical)
        got = first_reject(build_filters(cfg, identical_ok), MeasuredPair("s", "a", "b", q))
        assert got == _old_check(q, cfg, identical_ok)
        seen.add(got)
    assert seen == {None, "identical_views", "too_short", "too_long", "length_ratio_out_of_bounds"}


def test_measure_pair_measures_once_and_carries_extra_measures():
    pair = measure_pair("The dog runs.", "The dog runs.", "A dog runs fast.", {"similarity": 0.9})
    assert pair.quality.n_words_view1 == 3 and pair.quality.n_words_view2 == 4 and not pair.quality.identical
    assert pair.measures == {"similarity": 0.9}


def test_filter_settings_hash_in_the_task_key_is_unchanged():
    augmenter = build_augmenter("noise", None)
    # Golden values: sha256 of the sorted-key JSON of FilterConfig, first 8 hex digits (cached tasks stay valid).
    # They changed once, on purpose, with dataset format 2: FilterConfig gained the changed_word_share and
    # view_similarity bounds and the encoder, so tasks cached before (without those columns) are never reused.
    assert task_key("c", augmenter, 0, FilterConfig()).endswith("-f4dca21b0")
    assert task_key("c", augmenter, 0, FilterConfig(min_words=3, max_length_ratio=1.5)).endswith("-f22d95543")


class _MinSimilarity(PairFilter):
    name = "min_similarity"

    def check(self, pair):
        return "low_similarity" if pair.measures.get("similarity", 1.0) < 0.5 else None


def test_a_new_filter_is_one_class_and_one_registry_line(tmp_path, monkeypatch):
    pair = measure_pair("a b c", "a b c d", "a b c e", {"similarity": 0.1})
    assert first_reject([_MinSimilarity(FilterConfig())], pair) == "low_similarity"

    class TooManyWords(PairFilter):
        name = "too_many_words"

        def check(self, pair):
            return "over_six_words" if pair.quality.n_words_source > 6 else None

    monkeypatch.setitem(FILTERS, TooManyWords.name, TooManyWords)
    corpus = tmp_path / "c.txt"
    corpus.write_text("One two three four.\nOne two three four five six seven eight.\n")
    cfg = AugmentConfig(methods=["identity"], registry_dir="", progress=False)
    m = run_augment(corpus, tmp_path / "ds", cfg)
    assert m.stats.pairs == 1 and m.stats.rejects == {"over_six_words": 1}
    rejects = m.shards_of("rejects")
    rows = pq.read_table(tmp_path / "ds" / rejects[0].path).to_pylist()
    assert [(r["reject_reason"], r["stage"]) for r in rows] == [("over_six_words", "filter")]

