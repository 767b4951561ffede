"""benchmarks/score_dev.py: a model's scores on the two dev splits, the same numbers `bsl evaluate`'s pair scoring
gives, and nothing from the test files."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def score_dev():
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import score_dev
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    return score_dev


def test_scores_a_model_on_stsb_dev_and_sick_trial(score_dev, tiny_bert_dir, shared_data, tmp_path, capsys):
    from training.evaluation import evaluate_pairs, load_encoder
    from training.evaluation.data import load_sick, load_stsb_dev

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
