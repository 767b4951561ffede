"""BSL's predictor warm-up (issue 10): only the predictor trains for the first N steps, the online encoder and the
EMA target stay bit-identical, the encoder's schedule starts after it, the phase is logged, and a run killed in the
middle of the warm-up resumes exactly."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import torch
from tests.training.test_trainer_utils import assert_same_final_state, tiny_config, write_dataset


WARMUP = ["objective.bsl.predictor_warmup_steps=3", "objective.bsl.predictor_lr=5e-3"]


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    return write_dataset(tmp_path_factory.mktemp("warmup_data") / "pairs", 64, method="noise", seed=3)


def _clone(module) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in module.state_dict().items()}


def _equal(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def _read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_warmup_trains_only_the_predictor_then_the_encoder_and_its_ema(tiny_bert_dir, data, tmp_path):
    from bsl_pipeline.training.trainer import Trainer

    cfg = tiny_config(tiny_bert_dir, [data], tmp_path / "run",
                      overrides=WARMUP + ["objective.bsl.momentum=0.9", "model.dropout=0.1",
                                          "optim.weight_decay=0.1"])
    trainer = Trainer(cfg, disable_progress=True)
    try:
        obj = trainer.parts.objective
        encoder0, target0 = _clone(obj.encoder), _clone(obj.target)
        predictor_before = _clone(obj.predictor)
        encoder_params = {id(p) for p in obj.encoder.parameters()}
        for _ in range(3):
            stats = trainer.train_step()
            trainer.state.step += 1
            assert stats["stepped"] and stats["phase"] == "predictor-warmup"
            assert stats["lrs"] == {"encoder": 0.0, "predictor": 5e-3}
            # Weight decay 0.1 and dropout are on: still not one bit of the encoder or the target moves.
            assert _equal(_clone(obj.encoder), encoder0) and _equal(_clone(obj.target), target0)
            assert not _equal(_clone(obj.predictor), predictor_before)
            predictor_before = _clone(obj.predictor)
            assert not any(id(p) in encoder_params for p in trainer.optimizer.state)
        stats = trainer.train_step()
        assert stats["phase"] == "train" and stats["lrs"]["encoder"] == 1e-3
        online = _clone(obj.encoder)
        assert not _equal(online, encoder0)
        for name, value in obj.target.state_dict().items():
            if value.is_floating_point():
                torch.testing.assert_close(value, 0.9 * encoder0[name] + 0.1 * online[name], rtol=1e-6, atol=1e-8)
    finally:
        trainer.close()


def test_phase_lrs_start_the_encoder_schedule_after_the_warmup():
    from bsl_pipeline.training.schedule import lr_at, phase_lrs

    kw = dict(head_steps=4, base_lr=2e-5, total_steps=10, warmup=2, schedule="linear")
    assert [phase_lrs(s, head_lr=1e-3, **kw) for s in range(4)] == [(0.0, 1e-3)] * 4
    for step in range(4, 14):
        encoder = lr_at(step - 4, base_lr=2e-5, total_steps=10, warmup=2, schedule="linear")
        assert phase_lrs(step, head_lr=1e-3, **kw) == pytest.approx((encoder, encoder * 50))
        assert phase_lrs(step, head_lr=None, **kw) == (encoder, encoder)
    assert phase_lrs(4, head_lr=1e-3, **kw)[0] == pytest.approx(1e-5)  # first warmup step of the encoder: lr/2
    assert phase_lrs(0, head_lr=None, **kw) == (0.0, 2e-5)  # no predictor_lr: the warm-up runs at optim.lr


def test_metrics_tensorboard_and_progress_bar_show_the_phase(tiny_bert_dir, data, tmp_path, capsys):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from bsl_pipeline.training.schedule import lr_at
    from bsl_pipeline.training.trainer import train

    out = tmp_path / "run"
    cfg = tiny_config(tiny_bert_dir, [data], out,
                      overrides=WARMUP + ["train.max_steps=7", "train.log_every=2", "train.tensorboard=true",
                                          "optim.schedule=linear", "optim.warmup_ratio=0.5"])
    train(cfg, disable_progress=False)
    rows = _read_csv(out / "metrics.csv")
    # The log window also closes at the end of the warm-up (step 3), so no row mixes the two phases.
    assert [int(r["step"]) for r in rows] == [2, 3, 4, 6, 7]
    assert [r["phase"] for r in rows] == ["predictor-warmup"] * 2 + ["train"] * 3
    # The encoder's schedule runs over the 4 steps after the warm-up, with 2 warmup steps of its own; a row
    # carries the lr of its window's last step (logged step 6 = the encoder's step 2, counted from 0).
    expected = [0.0, 0.0] + [lr_at(s, base_lr=1e-3, total_steps=4, warmup=2, schedule="linear") for s in (0, 2, 3)]
    assert expected[2:] == pytest.approx([5e-4, 1e-3, 5e-4])
    assert [float(r["lr"]) for r in rows] == pytest.approx(expected)
    assert [float(r["lr_predictor"]) for r in rows] == pytest.approx([5e-3, 5e-3] + [5 * lr for lr in expected[2:]])
    events = EventAccumulator(str(out / "tensorboard"))
    events.Reload()
    texts = events.Tensors("train/phase/text_summary")
    assert [(t.step, t.tensor_proto.string_val[0].decode()) for t in texts] == [(2, "predictor-warmup"),
                                                                                 (4, "train")]
    assert [e.value for e in events.Scalars("train/lr")][:2] == [0.0, 0.0]
    err = capsys.readouterr().err
    assert "train bsl [predictor-warmup]" in err and "train bsl [train]" in err
    # The report's loss curve shades the warm-up and says what it was.
    from bsl_pipeline.flows.job_report import (
        read_metrics_csv,
        render_report,
        warmup_span,
    )

    assert warmup_span(read_metrics_csv(out / "metrics.csv")) == ("predictor-warmup", 0.0, 3.0)
    page = render_report("run", [], out / "metrics.csv")
    assert "steps 1-3: predictor-warmup (shaded), only the predictor trains" in page
    assert "shaded" not in render_report("run", [], _without_phase(out / "metrics.csv", tmp_path / "plain.csv"))


def _without_phase(src: Path, dst: Path) -> Path:
    rows = _read_csv(src)
    with open(dst, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, [k for k in rows[0] if k != "phase"], extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return dst


@pytest.mark.parametrize("stop_at", [2, 3])
def test_resume_in_the_middle_of_the_warmup_equals_an_uninterrupted_run(tiny_bert_dir, data, tmp_path, stop_at):
    from bsl_pipeline.training.trainer import train

    # Dropout on and gradient accumulation: RNG state, data position and the optimizer state (which holds nothing
    # for the encoder yet) must all come back for the rest of the warm-up and the steps after it to match.
    common = WARMUP + ["model.dropout=0.1", "optim.grad_accum_steps=2", "train.batch_size=4", "train.max_steps=6",
                       "optim.schedule=linear", "optim.warmup_steps=1", "objective.bsl.momentum=0.9"]

    def config(out, extra):
        return tiny_config(tiny_bert_dir, [data], out, overrides=common + extra)

    whole = train(config(tmp_path / "whole", []), disable_progress=True)
    first = train(config(tmp_path / "split", [f"train.stop_at_step={stop_at}"]), disable_progress=True)
    assert first.step == stop_at and not first.completed
    second = train(config(tmp_path / "split", ["train.resume=auto"]), disable_progress=True)
    assert second.completed and second.metrics["resumed_from"] == first.final_checkpoint

    losses = [r["loss"] for r in first.history + second.history]
    assert losses == pytest.approx([r["loss"] for r in whole.history], abs=1e-6)
    assert_same_final_state(whole.final_checkpoint, second.final_checkpoint)
    assert [r["phase"] for r in _read_csv(tmp_path / "split" / "metrics.csv")] == \
        ["predictor-warmup"] * 3 + ["train"] * 3


def test_warmup_settings_are_checked(tiny_bert_dir, data, tmp_path):
    from bsl_pipeline.pipeline.base.errors import BSLError

    with pytest.raises(BSLError, match=r"objective.bsl.predictor_warmup_steps: -1 is out of range \(>= 0\)"):
        tiny_config(tiny_bert_dir, [data], tmp_path / "run", overrides=["objective.bsl.predictor_warmup_steps=-1"])
    with pytest.raises(BSLError, match=r"objective.bsl.predictor_lr: 0.0 is out of range \(> 0\)"):
        tiny_config(tiny_bert_dir, [data], tmp_path / "run", overrides=["objective.bsl.predictor_lr=0"])
    # A config built in code is checked by the trainer as well.
    cfg = tiny_config(tiny_bert_dir, [data], tmp_path / "run")
    cfg.objective.bsl.predictor_warmup_steps, cfg.objective.bsl.predictor_lr = -1, 0.0
    with pytest.raises(BSLError, match=r"predictor_warmup_steps: -1 is out of range \(>= 0\); "
                                      r"objective\.bsl\.predictor_lr: 0\.0 is out of range \(> 0\)"):
        cfg.validate()
