"""The model names a user types mean the same model in `bsl evaluate` as in `bsl train` (training.recipes.model_source)."""

from __future__ import annotations

import pytest

from bsl_pipeline.evaluation.config import EvaluationConfig
from bsl_pipeline.evaluation.runner import evaluate_models
from bsl_pipeline.pipeline.base.hub import check_model_reference
from bsl_pipeline.training import recipes

BUNDLED_NAMES = ["all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"]


@pytest.mark.parametrize("name", BUNDLED_NAMES)
def test_bundled_names_are_the_bundled_copy_offline(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no folder of that name here
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    source = recipes.model_source(name)
    assert source == recipes.bundled_encoder() and source != name
    check_model_reference(source, "model")  # found without the hub
    (tmp_path / "all-MiniLM-L6-v2").mkdir()  # a folder of that name here is that folder
    assert recipes.model_source("all-MiniLM-L6-v2") == "all-MiniLM-L6-v2"


def test_evaluate_scores_the_bundled_copy_under_its_names(tiny_bert_dir, shared_data, tmp_path, monkeypatch):
    """Evaluate resolves names with train's function: both names score what the bundled directory scores, and the
    table keeps the names as typed. (The bundled directory is the tiny model here, to keep the test fast.)"""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(recipes, "bundled_encoder", lambda: str(tiny_bert_dir))
    config = EvaluationConfig(data_dir=str(shared_data), tasks=["stsb"], cache_dir=None, include_stsb_dev=False,
                              backend="torch")
    results = evaluate_models([*BUNDLED_NAMES, str(tiny_bert_dir)], config, disable_progress=True)
    assert list(results)[:2] == BUNDLED_NAMES
    scores = [result.scores()["stsb"] for result in results.values()]
    assert scores[0] == scores[1] == scores[2]
