"""The main job end to end on tiny models: corpus -> Prefect augmentation flow -> BSL -> STS-B -> report; then a
rerun that reuses every cached step."""

import json

import pytest

from flows.main_job import MainJobConfig, run_main_job


@pytest.mark.slow
def test_main_job_end_to_end_then_cached_rerun(tmp_path, tiny_bert_dir, shared_data):
    corpus = tmp_path / "sentences.txt"
    corpus.write_text("".join(f"The {w} number {i} walks slowly into the old house today.\n" for i, w in
                              enumerate(["dog", "cat", "man", "woman", "child", "car"] * 6)), encoding="utf-8")
    cfg = MainJobConfig(out_dir=str(tmp_path / "out"), corpus=str(corpus), nli=[str(shared_data / "nli/snli/dev.csv")],
                        nli_limit=60, data_dir=str(shared_data), encoder=str(tiny_bert_dir), train_steps=6,
                        batch_size=8, eval_tasks=["stsb"], progress=False)
    first = run_main_job(cfg)
    steps = {s["step"]: s for s in first["steps"]}
    assert not steps["augment corpus"]["cached"] and not steps["train"]["cached"]
    assert first["training"]["steps"] == 6
    results = first["results"]
    assert set(results) == {"before (encoder)", "after BSL"}
    for r in results.values():
        assert -100 <= r["stsb"] <= 100 and r["avg"] == r["stsb"]
    report = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    for needle in ("STS results", "Training loss", "data:image/png;base64,", "synonyms: sample view pairs",
                   "span-mask: sample view pairs", "nli-entailment: sample view pairs", '<tr class="pair"'):
        assert needle in report, needle

    second = run_main_job(cfg)
    steps2 = {s["step"]: s for s in second["steps"]}
    assert steps2["corpus"]["cached"] and steps2["augment corpus"]["cached"] and steps2["train"]["cached"]
    assert steps2["augment dev.csv"]["cached"]
    assert second["results"] == results
    assert json.loads((tmp_path / "out" / "job.json").read_text())["total_s"] == second["total_s"]
