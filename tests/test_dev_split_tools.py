"""The dev-split tools of benchmarks/: score_dev.py (a model's scores on the two dev splits, the same numbers `bsl
evaluate`'s pair scoring gives, nothing from the test files) and sweep_bsl.py's table of them."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _benchmark(name: str):
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(REPO / "benchmarks"))


@pytest.fixture(scope="module")
def score_dev():
    return _benchmark("score_dev")


def test_scores_a_model_on_stsb_dev_and_sick_trial(score_dev, tiny_bert_dir, shared_data, tmp_path, capsys):
    from bsl_pipeline.training.evaluation import evaluate_pairs, load_encoder
    from bsl_pipeline.training.evaluation.data import load_sick, load_stsb_dev

    out = tmp_path / "dev.json"
    assert score_dev.main([str(tiny_bert_dir), "--data-dir", str(shared_data), "--json", str(out)]) == 0
    (row,) = json.loads(out.read_text(encoding="utf-8"))
    encoder = load_encoder(str(tiny_bert_dir), device="cpu", max_length=256, batch_size=128)
    assert row["stsb_dev"] == pytest.approx(evaluate_pairs(encoder, load_stsb_dev(shared_data), 128).spearman)
    assert row["sick_trial"] == pytest.approx(evaluate_pairs(encoder, load_sick(shared_data, "trial"), 128).spearman)
    assert row["mean"] == pytest.approx((row["stsb_dev"] + row["sick_trial"]) / 2)
    assert f"| {tiny_bert_dir} | {row['stsb_dev']:.2f} | {row['sick_trial']:.2f} |" in capsys.readouterr().out


def test_a_missing_model_dir_is_named(score_dev, shared_data, tmp_path):
    with pytest.raises(SystemExit, match="nowhere: no such model directory"):
        score_dev.main([str(tmp_path / "nowhere"), "--data-dir", str(shared_data)])


def test_sweep_table_ranks_by_stsb_dev_and_shows_sick_trial_where_measured():
    table = _benchmark("sweep_bsl").table([
        {"name": "a", "overrides": [], "stsb_dev": 87.0, "sick_trial": 79.5, "train_seconds": 10},
        {"name": "a", "overrides": [], "stsb_dev": 87.2, "train_seconds": 12},  # a row from before the SICK column
        {"name": "b", "overrides": ["optim.lr=5e-5"], "stsb_dev": 87.3, "sick_trial": 79.0, "train_seconds": 9},
        {"name": "b", "overrides": ["optim.lr=5e-5"], "stsb_dev": 87.1, "sick_trial": 79.2, "train_seconds": 11}])
    assert table.splitlines()[2:] == [
        "| b | optim.lr=5e-5 | 2 | 87.20 | 87.10 | 87.30 | 79.10 | 10 |",
        "| a | - | 2 | 87.10 | 87.00 | 87.20 | 79.50 (1 of 2 seeds) | 11 |"]
