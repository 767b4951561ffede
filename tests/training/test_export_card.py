"""The export's model card (training/export.py model_card)."""

from __future__ import annotations

from types import SimpleNamespace

from bsl_pipeline.training.export import model_card


def test_an_unmeasured_metric_is_left_out_of_the_card():
    card = model_card({"run": {"steps": 6, "stsb_dev_spearman (last)": 71.5, "dev metric (best)": None,
                               "exported": "final"}},
                      encoder=SimpleNamespace(pooling="mean", dim=32), max_length=16, normalize=False)
    run = card.split("## Training run", 1)[1]
    assert "- steps: 6" in run and "- stsb_dev_spearman (last): 71.5" in run and "- exported: final" in run
    assert "None" not in card and "(best)" not in card
