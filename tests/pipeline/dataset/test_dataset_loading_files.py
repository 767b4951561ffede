"""`bsl verify` refuses files beside the card that `datasets.load_dataset(<dir>)` would read (a planted
`dataset_infos.json` changes its column types; a `.huggingface.yaml` overrides the card's configs)."""

from __future__ import annotations

import json

import pytest

from bsl_pipeline.pipeline.augment.job import run_augment
from bsl_pipeline.pipeline.base.errors import VerificationError
from bsl_pipeline.pipeline.dataset.store import verify_dataset
from small_corpus import augment_config, write_corpus


@pytest.mark.parametrize("name, text", [
    ("dataset_infos.json", json.dumps({"default": {"features": {"source": {"dtype": "int64", "_type": "Value"}}}})),
    (".huggingface.yaml", "configs:\n- config_name: default\n  data_files: ../elsewhere/*.parquet\n"),
])
def test_verify_refuses_a_planted_loading_file(tmp_path, name, text):
    out = tmp_path / "ds"
    run_augment(write_corpus(tmp_path), out, augment_config(tmp_path))
    verify_dataset(out)
    (out / name).write_text(text)
    with pytest.raises(VerificationError, match=f"{name} beside the card"):
        verify_dataset(out)
