"""The dev-split scoring of the evaluation stage (evaluation/dev_scores.py): a model's scores on STS-B dev
and SICK trial, the same numbers `bsl evaluate`'s pair scoring gives, nothing from the test files; and the table
that ranks a sweep's settings by them."""

from __future__ import annotations

import pytest

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.evaluation.dev_scores import (
    DEV_TABLE_HEAD,
    dev_sweep_table,
    dev_table_row,
    load_dev_splits,
    score_model_on_dev,
)


def test_scores_a_model_on_stsb_dev_and_sick_trial(tiny_bert_dir, shared_data):
    from bsl_pipeline.evaluation import evaluate_pairs, load_encoder
    from bsl_pipeline.evaluation.data import load_sick, load_stsb_dev

    splits = load_dev_splits(shared_data)
    assert list(splits) == ["stsb_dev", "sick_trial"]
    row = score_model_on_dev(tiny_bert_dir, splits)
    encoder = load_encoder(str(tiny_bert_dir), device="cpu", max_length=256, batch_size=128)
    assert row["model"] == str(tiny_bert_dir)
    assert row["stsb_dev"] == pytest.approx(evaluate_pairs(encoder, load_stsb_dev(shared_data), 128).spearman)
    assert row["sick_trial"] == pytest.approx(evaluate_pairs(encoder, load_sick(shared_data, "trial"), 128).spearman)
    assert row["mean"] == pytest.approx((row["stsb_dev"] + row["sick_trial"]) / 2)
    assert dev_table_row(row) == (f"| {tiny_bert_dir} | {row['stsb_dev']:.2f} | {row['sick_trial']:.2f} | "
                                  f"{row['mean']:.2f} |")
    assert DEV_TABLE_HEAD.splitlines()[0] == "| model | STS-B dev | SICK trial | mean |"


def test_a_missing_model_dir_is_named(shared_data, tmp_path):
    with pytest.raises(InputError, match="nowhere: no such model directory"):
        score_model_on_dev(tmp_path / "nowhere", load_dev_splits(shared_data))


def test_sweep_table_ranks_by_stsb_dev_and_shows_sick_trial_where_measured():
    table = dev_sweep_table([
        {"name": "a", "overrides": [], "stsb_dev": 87.0, "sick_trial": 79.5, "train_seconds": 10},
        {"name": "a", "overrides": [], "stsb_dev": 87.2, "train_seconds": 12},  # a row without the SICK score
        {"name": "b", "overrides": ["optim.lr=5e-5"], "stsb_dev": 87.3, "sick_trial": 79.0, "train_seconds": 9},
        {"name": "b", "overrides": ["optim.lr=5e-5"], "stsb_dev": 87.1, "sick_trial": 79.2, "train_seconds": 11}])
    assert table.splitlines()[2:] == [
        "| b | optim.lr=5e-5 | 2 | 87.20 | 87.10 | 87.30 | 79.10 | 10 |",
        "| a | - | 2 | 87.10 | 87.00 | 87.20 | 79.50 (1 of 2 seeds) | 11 |"]
