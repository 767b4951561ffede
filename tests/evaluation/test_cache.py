"""The embedding cache (evaluation.cache) is untrusted input: embeddings it did not seal for this user do not decide a
score."""

from __future__ import annotations

import logging
import shutil

import numpy as np


def _eval_setup(tiny_bert_dir, shared_data):
    from bsl_pipeline.evaluation import load_encoder
    from bsl_pipeline.evaluation import load_eval_data

    return load_encoder(tiny_bert_dir, device="cpu", backend="torch"), load_eval_data(shared_data, "sts13")


def test_planted_embeddings_are_ignored(tiny_bert_dir, shared_data, tmp_path, caplog):
    """A `.bsl_cache/evaluation/*.npy` of the right shape, shipped with a repository, does not decide the scores."""
    from bsl_pipeline.evaluation import evaluate_encoder

    enc, data = _eval_setup(tiny_bert_dir, shared_data)
    honest = evaluate_encoder(enc, data, cache_dir=tmp_path / "honest").scores()
    planted = tmp_path / "planted"
    shutil.copytree(tmp_path / "honest", planted)
    for f in planted.rglob("*.npy"):  # the planter's embeddings: right shape, right file name, no valid seal
        arr = np.load(f)
        np.save(f, np.random.default_rng(0).standard_normal(arr.shape).astype(np.float32))
    for f in sorted(planted.rglob("*.seal"))[:1]:
        f.unlink()  # one without a seal at all, the others with a stale one
    with caplog.at_level(logging.WARNING):
        again = evaluate_encoder(enc, data, cache_dir=planted)
    assert again.scores() == honest
    assert again.cache_misses == 3 and again.cache_hits == 0
    assert sum("not sealed by this user's cache key" in r.getMessage() for r in caplog.records) == 3
    # Rebuilt entries are sealed: the next run reuses them.
    assert evaluate_encoder(enc, data, cache_dir=planted).cache_hits == 3


def test_embeddings_sealed_by_another_user_are_ignored(tiny_bert_dir, shared_data, tmp_path, monkeypatch):
    from bsl_pipeline.evaluation import evaluate_encoder

    enc, data = _eval_setup(tiny_bert_dir, shared_data)
    evaluate_encoder(enc, data, cache_dir=tmp_path / "c")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "someone-else"))
    assert evaluate_encoder(enc, data, cache_dir=tmp_path / "c").cache_misses == 3
