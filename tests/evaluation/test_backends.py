"""Evaluation backends: the ONNX Runtime path gives the torch path's embeddings and scores, exports land only in
the user cache (reused, re-exported when damaged), and a missing package falls back to torch."""

from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.evaluation.test_evaluation import SENTENCES as EVALUATION_SENTENCES

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.evaluation import PairSet, evaluate_encoder, load_encoder
from bsl_pipeline.evaluation import backends
from bsl_pipeline.evaluation.config import EvaluationConfig

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

SENTENCES = [*EVALUATION_SENTENCES, "x"]  # one single-token sentence on top: the shortest padded row


@pytest.fixture
def user_cache(tmp_path, monkeypatch) -> Path:
    """A private per-user cache root (XDG_CACHE_HOME), so exports of this test land in its temp dir."""
    root = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(root))
    return root


def _files(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_mtime_ns for p in sorted(root.rglob("*")) if p.is_file()}


def _pairs() -> PairSet:
    first = tuple(SENTENCES)
    second = tuple(reversed(SENTENCES))
    return PairSet("stsb", "test", first, second, tuple(float(i % 5) for i in range(len(first))), key="backend-test")


def test_onnx_path_gives_torch_embeddings_and_scores(tiny_bert_dir, user_cache):
    model_files = _files(tiny_bert_dir)
    torch_enc = load_encoder(tiny_bert_dir, device="cpu", batch_size=3, backend="torch")
    onnx_enc = load_encoder(tiny_bert_dir, device="cpu", batch_size=3, backend="onnx")
    assert torch_enc.backend == "torch" and onnx_enc.backend == "onnx"
    assert onnx_enc.describe()["backend"] == "onnx"
    # The export does not change the cache identity: fp32 embeddings agree (below) whichever backend made them.
    assert onnx_enc.fingerprint == torch_enc.fingerprint
    expected = torch_enc.encode(SENTENCES, disable_progress=True)
    got = onnx_enc.encode(SENTENCES, disable_progress=True)
    assert got.shape == expected.shape == (len(SENTENCES), 32)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-4)
    # Batches of different padded lengths (batch size 3, longest first) all went through the exported graph.
    assert np.abs(got - expected).max() < 1e-5

    a = evaluate_encoder(torch_enc, {"stsb": {"test": _pairs()}}, disable_progress=True).scores()
    b = evaluate_encoder(onnx_enc, {"stsb": {"test": _pairs()}}, disable_progress=True).scores()
    assert b["stsb"] == pytest.approx(a["stsb"], abs=0.01)

    # Exported files land only in the user cache: the model dir is untouched, the export is one published folder.
    assert _files(tiny_bert_dir) == model_files
    exports = [p for p in (user_cache / "bsl-pipeline" / "onnx").iterdir()]
    assert len(exports) == 1 and not exports[0].name.startswith(".")
    assert sorted(p.name for p in exports[0].iterdir()) == ["export.json", "model.onnx"]
    meta = json.loads((exports[0] / "export.json").read_text())
    assert meta["fingerprint"] == torch_enc.fingerprint and set(meta["inputs"]) == {"input_ids", "attention_mask", "token_type_ids"}
    assert [p for p in user_cache.rglob("*") if p.is_file() and p.parent != exports[0]] == []


def test_st_dir_with_dense_and_normalize_through_onnx(tiny_bert_dir, tmp_path, user_cache):
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.base.modules.dense import Dense
    from sentence_transformers.base.modules.normalize import Normalize
    from sentence_transformers.base.modules.transformer import Transformer
    from sentence_transformers.sentence_transformer.modules.pooling import Pooling

    torch.manual_seed(0)
    model = SentenceTransformer(modules=[Transformer(str(tiny_bert_dir), max_seq_length=16),
                                         Pooling(32, pooling_mode="mean"), Dense(32, 8), Normalize()], device="cpu")
    model.save(str(tmp_path / "st"))
    reference = model.encode(SENTENCES, convert_to_numpy=True)
    before = _files(tmp_path / "st")
    ours = load_encoder(tmp_path / "st", device="cpu", backend="onnx")
    assert ours.backend == "onnx" and ours.max_length == 16 and len(ours.dense) == 1 and ours.normalize
    np.testing.assert_allclose(ours.encode(SENTENCES, disable_progress=True), reference, rtol=0, atol=1e-4)
    assert _files(tmp_path / "st") == before


def test_export_is_reused_and_redone_when_damaged(tiny_bert_dir, user_cache):
    first = load_encoder(tiny_bert_dir, device="cpu", backend="onnx")
    folder = first.token_states_fn.path.parent
    stamp = (folder / "model.onnx").stat().st_mtime_ns
    again = load_encoder(tiny_bert_dir, device="cpu", backend="onnx")
    assert again.token_states_fn.path == first.token_states_fn.path
    assert (folder / "model.onnx").stat().st_mtime_ns == stamp  # reused, not exported again

    # A damaged export (checksum differs from export.json) is never loaded: it is exported again.
    with open(folder / "model.onnx", "ab") as fh:
        fh.write(b"garbage")
    redone = load_encoder(tiny_bert_dir, device="cpu", backend="onnx")
    assert redone.backend == "onnx"
    assert backends._intact(folder)
    np.testing.assert_allclose(redone.encode(SENTENCES, disable_progress=True),
                               first.encode(SENTENCES, disable_progress=True), rtol=0, atol=1e-6)
    assert [p.name for p in folder.parent.iterdir()] == [folder.name]  # no staging or retired dirs left behind


def test_missing_package_falls_back_to_torch(tiny_bert_dir, user_cache, monkeypatch, caplog):
    monkeypatch.setattr(backends, "missing_packages", lambda: ["onnxruntime"])
    with caplog.at_level(logging.WARNING, logger="bsl_pipeline.evaluation.backends"):
        auto = load_encoder(tiny_bert_dir, device="cpu", backend="auto")
    assert auto.backend == "torch" and auto.token_states_fn is None
    assert not caplog.records  # auto falls back quietly
    with caplog.at_level(logging.WARNING, logger="bsl_pipeline.evaluation.backends"):
        asked = load_encoder(tiny_bert_dir, device="cpu", backend="onnx")
    assert asked.backend == "torch"
    assert any("onnxruntime not installed (pip install onnxruntime)" in r.getMessage() for r in caplog.records)
    assert not user_cache.exists()  # nothing exported
    reference = load_encoder(tiny_bert_dir, device="cpu", backend="torch").encode(SENTENCES, disable_progress=True)
    np.testing.assert_array_equal(asked.encode(SENTENCES, disable_progress=True), reference)


def test_backend_choice_rules():
    def choose(requested, device="cpu", fp32=True, fingerprint="f"):
        return backends.choose_backend(requested, device_type=device, fp32=fp32, fingerprint=fingerprint)[0]

    if backends.missing_packages():
        pytest.skip("onnxruntime/onnx not installed")
    assert choose("auto") == "onnx" and choose("onnx") == "onnx" and choose("torch") == "torch"
    assert choose("auto", device="cuda") == "torch"  # ONNX path is CPU-only
    assert choose("auto", fp32=False) == "torch"  # lower precision stays torch autocast
    assert choose("auto", fingerprint=None) == "torch"  # nothing to key the export
    with pytest.raises(BSLError, match="unknown backend 'tensorrt'"):
        choose("tensorrt")
    assert EvaluationConfig().backend == "auto"


def test_failing_export_falls_back_to_torch(tiny_bert_dir, user_cache, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("exporter exploded")

    import torch

    monkeypatch.setattr(torch.onnx, "export", broken)
    with caplog.at_level(logging.WARNING, logger="bsl_pipeline.evaluation.backends"):
        enc = load_encoder(tiny_bert_dir, device="cpu", backend="onnx")
    assert enc.backend == "torch"
    assert any("exporter exploded" in r.getMessage() for r in caplog.records)
    root = user_cache / "bsl-pipeline" / "onnx"
    assert not root.exists() or list(root.iterdir()) == []  # the staging dir was removed


def test_evaluate_cli_config_takes_backend(tiny_bert_dir, shared_data, user_cache, tmp_path):
    from bsl_pipeline.evaluation.runner import evaluate_models

    base = dict(data_dir=str(shared_data), tasks=["stsb"], cache_dir=None, include_stsb_dev=False, batch_size=64)
    torch_run = evaluate_models([str(tiny_bert_dir)], EvaluationConfig(backend="torch", **base), disable_progress=True)
    auto_run = evaluate_models([str(tiny_bert_dir)], EvaluationConfig(**base), disable_progress=True)
    (t,), (a,) = torch_run.values(), auto_run.values()
    assert t.encoder["backend"] == "torch" and a.encoder["backend"] == "onnx"
    assert a.scores()["stsb"] == pytest.approx(t.scores()["stsb"], abs=0.01)
    assert os.listdir(user_cache / "bsl-pipeline" / "onnx")


def test_export_that_disagrees_with_torch_is_not_used(tiny_bert_dir, user_cache, monkeypatch, caplog):
    real_call = backends.OnnxTransformer.__call__
    monkeypatch.setattr(backends.OnnxTransformer, "__call__", lambda self, features: real_call(self, features) + 1e-2)
    with caplog.at_level(logging.WARNING, logger="bsl_pipeline.evaluation.backends"):
        enc = load_encoder(tiny_bert_dir, device="cpu", backend="auto")
    assert enc.backend == "torch" and enc.token_states_fn is None
    assert any("differs from the torch forward pass" in r.getMessage() for r in caplog.records)


def test_planted_onnx_export_is_exported_again(tiny_bert_dir, tmp_path, monkeypatch, caplog):
    """An export whose `export.json` sha256 the planter recomputed, of a model that differs only on a word the
    export check's four sentences lack: before, it was used and changed that word's sentences; now it is not
    sealed, so it is exported again and the ONNX path gives the torch embeddings."""
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    import torch

    from bsl_pipeline.pipeline.base.provenance import sha256_file
    from bsl_pipeline.evaluation import backends, load_encoder

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
