"""Speed settings that must not change results: the attention-kernel choice (pipeline.base.devices), train.compile
(training.accel) with its fallback, and token-budget batches in evaluation and MLM infill."""

from __future__ import annotations

import logging

import numpy as np
import pytest
import torch
from tests.training.test_trainer import GOLDEN
from tests.training.test_trainer_utils import tiny_config, write_dataset


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    return write_dataset(tmp_path_factory.mktemp("accel") / "main", 64, method="noise", seed=0)


def _run(tiny_bert_dir, dataset, out, overrides):
    from bsl_pipeline.training.trainer import train

    return train(tiny_config(tiny_bert_dir, [dataset], out, overrides=overrides), disable_progress=True)


# -- attention kernels -------------------------------------------------------------------------------------------
def test_auto_drops_cudnn_attention_on_cuda_only():
    from bsl_pipeline.pipeline.base.devices import sdpa_kernel_names

    cuda, cpu = torch.device("cuda"), torch.device("cpu")
    assert sdpa_kernel_names("auto", cuda) == ["FLASH_ATTENTION", "EFFICIENT_ATTENTION", "MATH"]
    assert sdpa_kernel_names("auto", cpu) is None
    assert sdpa_kernel_names("torch", cuda) is None
    assert sdpa_kernel_names("math, efficient", cpu) == ["MATH", "EFFICIENT_ATTENTION"]


def test_attention_kernels_set_torch_flags_inside_the_block_only():
    from bsl_pipeline.pipeline.base.devices import attention_kernels

    before = (torch.backends.cuda.cudnn_sdp_enabled(), torch.backends.cuda.flash_sdp_enabled())
    with attention_kernels("auto", torch.device("cuda")):
        assert not torch.backends.cuda.cudnn_sdp_enabled()
        assert torch.backends.cuda.flash_sdp_enabled() and torch.backends.cuda.mem_efficient_sdp_enabled()
    with attention_kernels("math", torch.device("cpu")):
        assert torch.backends.cuda.math_sdp_enabled() and not torch.backends.cuda.flash_sdp_enabled()
    assert (torch.backends.cuda.cudnn_sdp_enabled(), torch.backends.cuda.flash_sdp_enabled()) == before


def test_bad_kernel_names_are_config_errors():
    from bsl_pipeline.pipeline.augment.augmenters.backtranslation import BackTranslationConfig
    from bsl_pipeline.pipeline.augment.augmenters.mlm import MLMConfig
    from bsl_pipeline.pipeline.base.config import ConfigError, from_dict

    with pytest.raises(ConfigError, match=r"^method_params\.mlm\.sdpa_backend: 'fast' is not auto, torch or"):
        from_dict(MLMConfig, {"sdpa_backend": "fast"}, prefix="method_params.mlm")
    with pytest.raises(ConfigError, match=r"^method_params\.backtranslation\.sdpa_backend"):
        from_dict(BackTranslationConfig, {"sdpa_backend": "flash,cudnn,warp"}, prefix="method_params.backtranslation")


def test_math_kernel_trains_the_golden_losses_on_cpu(tiny_bert_dir, dataset, tmp_path):
    result = _run(tiny_bert_dir, dataset, tmp_path / "math", ["model.sdpa_backend=math"])
    assert [r["loss"] for r in result.history] == pytest.approx(GOLDEN["bsl"], rel=1e-5, abs=1e-6)


# -- train.compile -------------------------------------------------------------------------------------------------
def test_compile_auto_is_off_on_cpu(tiny_bert_dir, dataset, tmp_path):
    from bsl_pipeline.training.trainer import Trainer

    trainer = Trainer(tiny_config(tiny_bert_dir, [dataset], tmp_path / "auto"), disable_progress=True)
    try:
        assert trainer.config.train.compile == "auto" and trainer.parts.compile_status == "off"
        assert "forward" not in vars(trainer.parts.objective)
    finally:
        trainer.close()


def test_compiled_objective_traces_and_trains_the_golden_losses(tiny_bert_dir, dataset, tmp_path):
    # The eager backend runs what dynamo captured without generating code: it checks the tracing in seconds.
    from bsl_pipeline.training.checkpoint_files import load_objective_state
    from bsl_pipeline.training.trainer import Trainer

    config = tiny_config(tiny_bert_dir, [dataset], tmp_path / "eager",
                         overrides=["train.compile=true", "train.compile_backend=eager"])
    trainer = Trainer(config, disable_progress=True)
    try:
        assert trainer.parts.compile_status == "compiled" and "forward" in vars(trainer.parts.objective)
        result = trainer.fit()
        # state_dict keys are untouched, so checkpoints load into an uncompiled objective.
        state = load_objective_state(result.final_checkpoint)
        assert set(state) == set(trainer.parts.objective.state_dict())
        assert not any("_orig_mod" in k for k in state)
    finally:
        trainer.close()
    assert [r["loss"] for r in result.history] == pytest.approx(GOLDEN["bsl"], rel=1e-5, abs=1e-6)


@pytest.mark.slow
def test_compiled_objective_follows_the_predictor_warmup_into_training(tiny_bert_dir, dataset, tmp_path):
    # The warm-up runs the encoder without gradients and then with them: the compiled forward must see the switch.
    common = ["objective.bsl.predictor_warmup_steps=2", "objective.bsl.predictor_lr=1e-3", "train.max_steps=4"]
    eager = _run(tiny_bert_dir, dataset, tmp_path / "eager", common)
    compiled = _run(tiny_bert_dir, dataset, tmp_path / "compiled",
                    [*common, "train.compile=true", "train.compile_backend=eager"])
    assert [r["phase"] for r in compiled.history] == ["predictor-warmup"] * 2 + ["train"] * 2
    assert [r["loss"] for r in compiled.history] == pytest.approx([r["loss"] for r in eager.history], abs=1e-6)


def test_a_failing_compile_falls_back_to_eager_with_one_warning(tiny_bert_dir, dataset, tmp_path, monkeypatch,
                                                                 caplog):
    import torch._dynamo.exc

    def broken_compile(fn, **options):
        def run(*args, **kwargs):
            raise torch._dynamo.exc.BackendCompilerFailed(lambda: None, RuntimeError("no C++ compiler"), None)
        return run

    monkeypatch.setattr(torch, "compile", broken_compile)
    with caplog.at_level(logging.WARNING, logger="bsl_pipeline.training.accel"):
        result = _run(tiny_bert_dir, dataset, tmp_path / "fallback", ["train.compile=true"])
    warnings = [r for r in caplog.records if r.name == "bsl_pipeline.training.accel"]
    assert len(warnings) == 1 and "eager mode" in warnings[0].getMessage()
    assert [r["loss"] for r in result.history] == pytest.approx(GOLDEN["bsl"], rel=1e-5, abs=1e-6)


def test_compile_where_dynamo_is_unsupported_trains_eagerly(tiny_bert_dir, dataset, tmp_path, monkeypatch):
    import torch._dynamo

    from bsl_pipeline.training.trainer import Trainer

    monkeypatch.setattr(torch._dynamo, "is_dynamo_supported", lambda: False)
    trainer = Trainer(tiny_config(tiny_bert_dir, [dataset], tmp_path / "unsupported",
                                  overrides=["train.compile=true"]), disable_progress=True)
    try:
        assert trainer.parts.compile_status.startswith("eager") and "forward" not in vars(trainer.parts.objective)
    finally:
        trainer.close()


@pytest.mark.slow
def test_inductor_compile_with_buckets_matches_eager(tiny_bert_dir, dataset, tmp_path):
    # Real code generation on CPU (needs a C++ compiler; about a minute per graph on a small machine).
    common = ["model.length_buckets=[32]", "train.max_steps=3"]
    eager = _run(tiny_bert_dir, dataset, tmp_path / "eager", common)
    compiled = _run(tiny_bert_dir, dataset, tmp_path / "inductor", [*common, "train.compile=true"])
    assert [r["loss"] for r in compiled.history] == pytest.approx([r["loss"] for r in eager.history], abs=1e-5)


# -- evaluation and MLM batches by tokens ----------------------------------------------------------------------------
def test_token_budget_batches_encode_the_same_embeddings(tiny_bert_dir):
    from tests.training.test_trainer_utils import make_sentences

    from bsl_pipeline.training.encoder import TransformerEncoder
    from bsl_pipeline.evaluation import load_encoder

    sentences = make_sentences(90, seed=3)
    by_count = load_encoder(str(tiny_bert_dir), device="cpu", batch_size=16)
    by_tokens = load_encoder(str(tiny_bert_dir), device="cpu", max_tokens=120)
    assert isinstance(by_tokens, TransformerEncoder) and by_count.max_tokens == 0
    batches = by_tokens._token_batches(list(dict.fromkeys(sentences)))
    lengths = [len(i) for i in by_tokens.tokenizer(list(dict.fromkeys(sentences)))["input_ids"]]
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    assert all(len(b) * max(lengths[i] for i in b) <= 120 for b in batches if len(b) > 1)
    assert np.allclose(by_count.encode(sentences), by_tokens.encode(sentences), atol=1e-6)
    # Evaluating in bf16 is a different cache entry; float32 keeps the key it always had.
    bf16 = load_encoder(str(tiny_bert_dir), device="cpu", precision="bf16")
    assert bf16.fingerprint != by_count.fingerprint == by_tokens.fingerprint
    assert bf16.autocast_dtype == torch.bfloat16


def test_mlm_token_budget_fills_the_same_words(tiny_roberta_mlm_dir):
    from tests.training.test_trainer_utils import make_sentences

    from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter

    records = [SourceRecord(str(i), s) for i, s in enumerate(make_sentences(60, seed=5))]
    settings = {"model": str(tiny_roberta_mlm_dir), "device": "cpu"}
    by_count = build_augmenter("mlm", {**settings, "batch_size": 7}, progress=False)
    by_tokens = build_augmenter("mlm", {**settings, "max_tokens": 90, "sdpa_backend": "math"}, progress=False)
    assert by_count.fingerprint_hash() == by_tokens.fingerprint_hash()
    views = [[p.view2 for p in aug.augment(records, seed=3)] for aug in (by_count, by_tokens)]
    assert views[0] == views[1]
    assert sum(v != r.text for v, r in zip(views[0], records)) > 40
