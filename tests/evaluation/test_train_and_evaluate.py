"""Train -> evaluate's cache rule on the tiny BERT: the completion record stays that of the run that was trained."""

from __future__ import annotations

import json

import pytest
from tests.training.test_trainer_utils import tiny_config, write_dataset


def test_a_finished_run_of_other_settings_is_refused_and_keeps_its_record(tiny_bert_dir, tmp_path):
    """A rerun in the same output dir with another lr (train.resume=auto, the flow's default) trains nothing:
    it must not record these settings' key for the run, which a later reuse would take as the run of them."""
    from bsl_pipeline.evaluation.train_and_evaluate import DONE_FILE, run_key, train_or_reuse
    from bsl_pipeline.pipeline.base.errors import BSLError

    data = write_dataset(tmp_path / "views", 24, shards=1)
    out = tmp_path / "run"
    common = ["train.max_steps=2", "train.resume=auto"]
    first = tiny_config(tiny_bert_dir, [data], out, overrides=common)
    run, reused = train_or_reuse(first, disable_progress=True)
    assert not reused and run.completed
    record = (out / DONE_FILE).read_text()
    other = tiny_config(tiny_bert_dir, [data], out, overrides=[*common, "optim.lr=5e-4"])
    with pytest.raises(BSLError, match=r"trained with other settings \(optim\.lr 0\.001 -> 0\.0005\)"):
        train_or_reuse(other, disable_progress=True)
    assert (out / DONE_FILE).read_text() == record
    assert json.loads(record)["key"] == run_key(first) != run_key(other)
    # The run's own settings are still reused.
    assert train_or_reuse(first, disable_progress=True)[1]
