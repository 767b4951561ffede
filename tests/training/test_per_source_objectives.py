"""Per-source objectives (`data.sources[i].objective`): every batch comes from one source and trains the one model
with that source's objective, through the trainer's own loop."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from tests.training.test_trainer_utils import tiny_config, write_dataset

from bsl_pipeline.pipeline.base.errors import BSLError


@pytest.fixture(scope="module")
def datasets(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("per_source_datasets")
    return {"views": write_dataset(root / "views", 48, method="noise", seed=0),
            "pairs": write_dataset(root / "pairs", 24, method="nli-entailment", seed=1, shards=1)}


def _per_source_config(model_dir, datasets, out, objectives=("bsl", "mnrl"), overrides=()):
    config = tiny_config(model_dir, [datasets["views"], datasets["pairs"]], out, objective="bsl",
                         overrides=list(overrides))
    for source, name in zip(config.data.sources, objectives):
        source.objective = name
    return config


def test_each_batch_comes_from_one_source_by_weight_and_replays(datasets):
    from bsl_pipeline.training.batch_source import BatchSource
    from bsl_pipeline.training.data import PairStream

    config = _per_source_config("unused", datasets, "unused")
    from bsl_pipeline.training.data import resolve_sources

    sources = resolve_sources(config.data)
    texts = [set(), set()]
    for i, s in enumerate(sources):
        stream = PairStream([s], 3)
        texts[i] = {stream.next_pair()[0] for _ in range(s.pairs)}
    batches = BatchSource(PairStream(sources, 3, batch_pairs=4), 4)
    seen = []
    for _ in range(60):
        view1, _ = batches.next_batch()
        source = batches.last_source
        assert set(view1) <= texts[source]
        seen.append(source)
    # Picked by weight (pairs: 48 against 24), and never a batch of both.
    assert 30 <= seen.count(0) <= 52 and seen.count(1) >= 8
    position = batches.position
    resumed = BatchSource(PairStream(sources, 3, batch_pairs=4), 4)
    resumed.restore(position)
    follow = BatchSource(PairStream(sources, 3, batch_pairs=4), 4)
    for _ in range(60):
        follow.next_batch()
    for _ in range(10):
        assert resumed.next_batch() == follow.next_batch()
        assert resumed.last_source == follow.last_source
    # Without per-source objectives nothing changes: the mixer picks each pair's source.
    assert BatchSource(PairStream(sources, 3), 4).last_source is None


def test_a_batch_trains_with_its_sources_objective(tiny_bert_dir, datasets, tmp_path):
    import random

    from bsl_pipeline.training.trainer import build_trainer

    trainer = build_trainer(_per_source_config(tiny_bert_dir, datasets, tmp_path / "run"))
    try:
        objective = trainer.parts.objective
        assert list(objective.objectives) == ["bsl", "mnrl"]
        assert objective.objectives["mnrl"].encoder is objective.encoder is objective.objectives["bsl"].encoder
        objective.begin_step(0)
        view1, view2 = ["a man runs in the park", "the dog plays"], ["a man is running", "a dog is playing"]
        for source, name in enumerate(["bsl", "mnrl"]):
            batch = objective.collate(view1, view2, random.Random(0), source)
            assert int(batch["source"]["index"][0]) == source
            torch.manual_seed(0)
            loss, metrics = objective(batch)
            torch.manual_seed(0)
            own_loss, own_metrics = objective.objectives[name](batch)
            assert torch.allclose(loss, own_loss)
            assert set(metrics) == {"embedding_std", "positive_cosine"}
            for key, value in metrics.items():
                assert (torch.isnan(value) if key not in own_metrics else torch.equal(value, own_metrics[key]))
    finally:
        trainer.close()


def test_a_per_source_run_trains_and_logs_both_objectives(tiny_bert_dir, datasets, tmp_path):
    import csv

    from bsl_pipeline.training import train

    config = _per_source_config(tiny_bert_dir, datasets, tmp_path / "run", overrides=["train.max_steps=12"])
    result = train(config, disable_progress=True)
    assert result.completed and result.step == 12
    with open(tmp_path / "run" / "metrics.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    # Each logged step is one batch of one source: exactly one of the two objectives' metrics is a number.
    measured = [(r["embedding_std"] not in ("", "nan"), r["positive_cosine"] not in ("", "nan")) for r in rows]
    assert all(a != b for a, b in measured)
    assert any(a for a, _ in measured) and any(b for _, b in measured)


def test_one_source_naming_its_objective_trains_exactly_as_the_plain_objective(tiny_bert_dir, datasets, tmp_path):
    from bsl_pipeline.training import train
    from bsl_pipeline.training.checkpoint_files import load_objective_state

    plain = tiny_config(tiny_bert_dir, [datasets["pairs"]], tmp_path / "plain", objective="mnrl")
    named = tiny_config(tiny_bert_dir, [datasets["pairs"]], tmp_path / "named", objective="bsl")
    named.data.sources[0].objective = "mnrl"
    losses = [[row["loss"] for row in train(c, disable_progress=True).history] for c in (plain, named)]
    assert losses[0] == losses[1]
    a = load_objective_state(tmp_path / "plain" / "final")
    b = load_objective_state(tmp_path / "named" / "final")
    for key, value in a.items():
        assert torch.equal(value, b["objectives.mnrl." + key] if key.startswith("encoder.") else b[key])


def test_bad_per_source_settings_are_named(tiny_bert_dir, datasets, tmp_path):
    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.config import TrainConfig

    base = {"model": {"name_or_path": str(tiny_bert_dir)}, "train": {"output_dir": str(tmp_path / "x")},
            "data": {"sources": [{"path": str(datasets["views"]), "objective": "bsl"},
                                 {"path": str(datasets["pairs"]), "objective": "nce"}]}}
    with pytest.raises(BSLError, match=r"data\.sources\[1\]\.objective.*unknown objective 'nce'"):
        load_config(TrainConfig, None, [], base=base)
    base["data"]["sources"][1]["objective"] = "mnrl"
    with pytest.raises(BSLError, match="length_grouping_window.*one source"):
        load_config(TrainConfig, None, ["data.length_grouping_window=4"], base=base)
