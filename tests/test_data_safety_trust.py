"""Data safety, trust and bounds: what the tool reads from caches, datasets and configs cannot silently decide its
results. Each test is one crafted case (docs/guide/data-safety-trust.md lists them): a planted cache entry is
rebuilt, a changed input field recomputes its task, a redirected or replayed dataset fails `verify`, a bound that
later stages refuse is refused up front, and a non-finite loss stops training."""

from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from bsl_pipeline.pipeline.base import user_cache
from bsl_pipeline.pipeline.base.errors import BSLError


# -- 1. caches are sealed with a per-user key ----------------------------------------------------------------------
def test_cache_key_is_private_and_outside_the_cache(tmp_path):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    key = user_cache.user_cache_key(env)
    path = user_cache.cache_key_path(env)
    assert len(key) == 64 and path.is_file() and (path.stat().st_mode & 0o777) == 0o600
    assert not path.is_relative_to(user_cache.user_cache_root(env))
    assert user_cache.user_cache_key(env) == key  # made once, then read
    assert user_cache.seal_matches({"a": 1}, user_cache.seal({"a": 1}, env), env)
    other = {"XDG_CONFIG_HOME": str(tmp_path / "other")}
    assert not user_cache.seal_matches({"a": 1}, user_cache.seal({"a": 1}, env), other)  # another user's seal
    assert not user_cache.seal_matches({"a": 1}, None, env)
    path.chmod(0o666)
    with pytest.raises(BSLError, match="writable only by you"):
        user_cache.user_cache_key(env)


def _eval_setup(tiny_bert_dir, shared_data):
    from bsl_pipeline.training.evaluation import load_encoder
    from bsl_pipeline.training.evaluation import load_eval_data

    return load_encoder(tiny_bert_dir, device="cpu", backend="torch"), load_eval_data(shared_data, "sts13")


def test_planted_embeddings_are_ignored(tiny_bert_dir, shared_data, tmp_path, caplog):
    """A `.bsl_cache/evaluation/*.npy` of the right shape, shipped with a repository, does not decide the scores."""
    from bsl_pipeline.training.evaluation import evaluate_encoder

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
    from bsl_pipeline.training.evaluation import evaluate_encoder

    enc, data = _eval_setup(tiny_bert_dir, shared_data)
    evaluate_encoder(enc, data, cache_dir=tmp_path / "c")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "someone-else"))
    assert evaluate_encoder(enc, data, cache_dir=tmp_path / "c").cache_misses == 3


def test_planted_onnx_export_is_exported_again(tiny_bert_dir, tmp_path, monkeypatch, caplog):
    """An export whose `export.json` sha256 the planter recomputed, of a model that differs only on a word the
    export check's four sentences lack: before, it was used and changed that word's sentences; now it is not
    sealed, so it is exported again and the ONNX path gives the torch embeddings."""
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    import torch

    from bsl_pipeline.pipeline.base.provenance import sha256_file
    from bsl_pipeline.training.evaluation import backends, load_encoder

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    honest = load_encoder(tiny_bert_dir, device="cpu", backend="torch")
    evil = load_encoder(tiny_bert_dir, device="cpu", backend="torch")
    cat = evil.tokenizer.convert_tokens_to_ids("cat")
    assert not any("cat" in s for s in backends._CHECK_SENTENCES)
    with torch.no_grad():
        evil.model.get_input_embeddings().weight[cat] *= -3.0
    names = backends.onnx_input_names(evil.tokenizer, evil.module._forward_keys)
    made = backends.export_model(evil.model, evil.tokenizer, names, honest.fingerprint, root=tmp_path / "plant")
    meta = json.loads((made / "export.json").read_text())
    meta.pop("seal", None)  # the planter has no key: a plain, recomputable sha256 only
    meta["sha256"] = sha256_file(made / "model.onnx")
    (made / "export.json").write_text(json.dumps(meta))
    target = backends.export_root() / made.name
    shutil.copytree(made, target)

    sentences = ["the cat sat", "a man is playing music"]
    reference = honest.encode(sentences, disable_progress=True)
    with caplog.at_level(logging.WARNING):
        onnx = load_encoder(tiny_bert_dir, device="cpu", backend="onnx")
    assert onnx.backend == "onnx"
    np.testing.assert_allclose(onnx.encode(sentences, disable_progress=True), reference, rtol=0, atol=1e-4)
    assert any("ignoring the cached ONNX export" in r.getMessage() for r in caplog.records)
    assert sha256_file(target / "model.onnx") != meta["sha256"]  # replaced by this user's own export
