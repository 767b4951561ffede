"""BSL inside sentence-transformers (training/integrations/st_bsl.py): the same losses as `bsl train` on the same
batches, the predictor warm-up, and the EMA rule for the target, with sentence-transformers' own trainer on the
tiny BERT."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import torch
from tests.training.test_trainer_utils import tiny_config, write_dataset

pytest.importorskip("sentence_transformers")
pytest.importorskip("accelerate")  # SentenceTransformerTrainer needs it

STEPS = 6
WARMUP = 2
MOMENTUM = 0.9
# bsl train's side of the comparison: batch 8 in file order, two predictor-only steps, then a linear schedule.
OVERRIDES = ["data.shuffle=false", "train.max_steps=6", f"objective.bsl.predictor_warmup_steps={WARMUP}",
             "objective.bsl.predictor_lr=5e-3", f"objective.bsl.momentum={MOMENTUM}", "optim.schedule=linear",
             "optim.warmup_ratio=0.25"]


@pytest.fixture(scope="module")
def setup(tiny_bert_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("st_bsl")
    # Dropout off in the checkpoint itself, so that both trainers load the same deterministic encoder.
    model_dir = root / "tiny_bert_no_dropout"
    shutil.copytree(tiny_bert_dir, model_dir)
    config = json.loads((model_dir / "config.json").read_text())
    config.update(hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
    (model_dir / "config.json").write_text(json.dumps(config))
    # 48 pairs = 6 batches of 8: one pass, no epoch boundary.
    data = write_dataset(root / "pairs", 48, method="noise", seed=3, shards=1)
    return model_dir, data, root


def _st_model(model_dir: Path, max_length: int):
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(model_dir), device="cpu")
    model.max_seq_length = max_length
    return model


def _sequential_batches(dataset, batch_size, drop_last, **_):
    from sentence_transformers.base.sampler import DefaultBatchSampler
    from torch.utils.data import SequentialSampler

    return DefaultBatchSampler(SequentialSampler(dataset), batch_size=batch_size, drop_last=drop_last)


def _st_trainer(model, loss, data_dir: Path, out: Path, cfg, callback):
    from datasets import load_dataset
    from sentence_transformers import SentenceTransformerTrainer
    from sentence_transformers.sentence_transformer.training_args import (
        SentenceTransformerTrainingArguments,
    )

    from bsl_pipeline.training.integrations.st_bsl import bsl_optimizers

    # What `bsl augment` writes loads as a Hugging Face dataset; BSL reads its two view columns.
    train = load_dataset(str(data_dir), split="train").select_columns(["view1", "view2"])
    o = cfg.optim
    args = SentenceTransformerTrainingArguments(
        str(out), max_steps=cfg.train.max_steps, per_device_train_batch_size=cfg.train.batch_size,
        max_grad_norm=0, logging_steps=1, save_strategy="no", report_to=[], use_cpu=True, seed=cfg.train.seed,
        batch_sampler=_sequential_batches, disable_tqdm=True)
    optimizers = bsl_optimizers(loss, o, total_steps=cfg.train.max_steps)
    return SentenceTransformerTrainer(model=model, args=args, train_dataset=train, loss=loss, optimizers=optimizers,
                                      callbacks=[callback])


def test_st_trainer_gives_bsl_trains_losses_and_weights(setup, tmp_path):
    from bsl_pipeline.training.objectives.bsl import BSLConfig
    from bsl_pipeline.training.integrations.st_bsl import BSLCallback, BSLLoss
    from bsl_pipeline.training.trainer import Trainer

    model_dir, data, _ = setup
    cfg = tiny_config(model_dir, [data], tmp_path / "ours", overrides=OVERRIDES)
    ours = Trainer(cfg, disable_progress=True)
    try:
        predictor_init = {k: v.clone() for k, v in ours.parts.objective.predictor.state_dict().items()}
        result = ours.fit()
    finally:
        ours.close()
    our_losses = [row["loss"] for row in result.history]
    assert len(our_losses) == STEPS

    model = _st_model(model_dir, cfg.model.max_length)
    loss = BSLLoss(model, BSLConfig(**vars(cfg.objective.bsl)))
    loss.predictor.load_state_dict(predictor_init)  # the same random start as bsl train's predictor
    seen: list[float] = []
    loss.register_forward_hook(lambda module, inputs, output: seen.append(output.item()))
    callback = BSLCallback(loss, max_grad_norm=cfg.optim.max_grad_norm)
    trainer = _st_trainer(model, loss, data, tmp_path / "st", cfg, callback)
    trainer.train()

    assert seen == pytest.approx(our_losses, abs=1e-5)
    assert callback.applied_steps == STEPS and callback.skipped_steps == 0
    # The two runs end with the same online encoder, predictor and EMA target.
    ours_online = ours.parts.objective.encoder.model.state_dict()
    for name, value in model[0].auto_model.state_dict().items():
        torch.testing.assert_close(value, ours_online[name], rtol=0, atol=1e-5)
    ours_target = ours.parts.objective.target.model.state_dict()
    for name, value in loss.target[0].auto_model.state_dict().items():
        torch.testing.assert_close(value, ours_target[name], rtol=0, atol=1e-5)
    for name, value in loss.predictor.state_dict().items():
        torch.testing.assert_close(value, ours.parts.objective.predictor.state_dict()[name], rtol=0, atol=1e-5)


def _params(module) -> list[torch.Tensor]:
    return [p.detach().clone() for p in module.parameters()]


def test_warmup_freezes_encoder_and_target_then_the_target_follows_the_ema_rule(setup, tmp_path):
    from bsl_pipeline.training.objectives.bsl import BSLConfig
    from bsl_pipeline.training.integrations.st_bsl import BSLCallback, BSLLoss

    model_dir, data, _ = setup
    cfg = tiny_config(model_dir, [data], tmp_path / "unused", overrides=OVERRIDES)
    model = _st_model(model_dir, cfg.model.max_length)
    loss = BSLLoss(model, BSLConfig(**vars(cfg.objective.bsl)))
    start = _params(model)
    history: list[tuple[list[torch.Tensor], list[torch.Tensor], list[torch.Tensor]]] = []

    class Watch(BSLCallback):
        def on_step_end(self, args, state, control, **kwargs):
            history.append((_params(loss.target), _params(model), _params(loss.predictor)))

    callback = Watch(loss, max_grad_norm=1.0)
    _st_trainer(model, loss, data, tmp_path / "st", cfg, callback).train()
    assert len(history) == STEPS
    # Predictor warm-up: the predictor trains, the encoder and its target stay exactly as loaded.
    predictor_moves = []
    for target, online, predictor in history[:WARMUP]:
        assert all(torch.equal(a, b) for a, b in zip(online, start))
        assert all(torch.equal(a, b) for a, b in zip(target, start))
        predictor_moves.append(predictor)
    assert any(not torch.equal(a, b) for a, b in zip(predictor_moves[0], predictor_moves[1]))
    # Afterwards every applied step: target <- m * target + (1 - m) * online.
    for (t_old, _, _), (t_new, o_new, _) in zip(history[WARMUP - 1:], history[WARMUP:]):
        assert any(not torch.equal(a, b) for a, b in zip(t_old, t_new))
        for t, t0, o in zip(t_new, t_old, o_new):
            torch.testing.assert_close(t, MOMENTUM * t0 + (1 - MOMENTUM) * o, rtol=1e-6, atol=1e-7)


def test_skipped_optimizer_step_leaves_the_target_alone(setup):
    from bsl_pipeline.training.objectives.bsl import BSLConfig
    from bsl_pipeline.training.integrations.st_bsl import BSLCallback, BSLLoss

    model_dir, _, _ = setup
    model = _st_model(model_dir, 32)
    loss = BSLLoss(model, BSLConfig(predictor_warmup_steps=0, predictor_k=2))
    callback = BSLCallback(loss)
    before = _params(loss.target)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(1.0)  # the online encoder moved, as after a step

    class Skipped:
        step_was_skipped = True

    callback.on_optimizer_step(None, None, None, optimizer=Skipped())
    assert all(torch.equal(a, b) for a, b in zip(_params(loss.target), before))
    callback.on_optimizer_step(None, None, None, optimizer=object())
    assert callback.skipped_steps == 1 and callback.applied_steps == 1
    assert all(not torch.equal(a, b) for a, b in zip(_params(loss.target), before))


def test_loss_refuses_other_than_pairs(setup):
    from bsl_pipeline.training.objectives.bsl import BSLConfig
    from bsl_pipeline.training.integrations.st_bsl import BSLLoss

    model_dir, _, _ = setup
    model = _st_model(model_dir, 32)
    loss = BSLLoss(model, BSLConfig(predictor_k=2))
    features = model.tokenize(["a man runs in the park"])
    with pytest.raises(ValueError, match="pairs"):
        loss([features], None)


def test_loss_refuses_the_mixed_direction_it_cannot_draw(setup):
    from bsl_pipeline.training.objectives.bsl import BSLConfig
    from bsl_pipeline.training.integrations.st_bsl import BSLLoss

    model_dir, _, _ = setup
    with pytest.raises(ValueError, match="mixed"):
        BSLLoss(_st_model(model_dir, 32), BSLConfig(predictor_k=2, symmetric=False, online_view="mixed"))
    BSLLoss(_st_model(model_dir, 32), BSLConfig(predictor_k=2, symmetric=False, online_view="view2"))
