"""The SentEval transfer tasks and STS 2017 beyond `bsl evaluate`: the end-of-job report's tables (built from the
evaluation JSON of a real run of the tiny BERT) and the score-table rows the flows publish. The evaluate flow's
artifacts are tested against a Prefect server in tests/flows/test_flows.py."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

SICK_FILES = ("SICK_train.txt", "SICK_trial.txt", "SICK_test_annotated.txt")


def build_tiny_transfer_data(shared_data: Path, out: Path, sick_lines: int = 121) -> Path:
    """STS-B test and the first `sick_lines` lines (header included) of each SICK file: SICK-E's train/dev/test in
    their real format, small enough for the tiny BERT."""
    (out / "stsbenchmark").mkdir(parents=True)
    shutil.copy(shared_data / "stsbenchmark" / "sts-test.csv", out / "stsbenchmark" / "sts-test.csv")
    (out / "sick").mkdir()
    for name in SICK_FILES:
        lines = (shared_data / "sick" / name).read_text(encoding="utf-8").split("\n")
        (out / "sick" / name).write_text("\n".join(lines[:sick_lines]) + "\n", encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def evaluated(tiny_bert_dir, shared_data, fetched_data, tmp_path_factory):
    """`evaluate_models` on the tiny BERT twice under two labels, tasks stsb + sicke + trec + sts17 (two pairs)."""
    from bsl_pipeline.evaluation.config import EvaluationConfig
    from bsl_pipeline.evaluation.runner import evaluate_models

    data = build_tiny_transfer_data(shared_data, tmp_path_factory.mktemp("transfer_report") / "data")
    shutil.copytree(fetched_data / "senteval" / "trec", data / "senteval" / "trec")
    shutil.copytree(fetched_data / "sts" / "sts17", data / "sts" / "sts17")
    config = EvaluationConfig(data_dir=str(data), tasks=["stsb", "sts17", "trec", "sicke"], include_stsb_dev=False,
                              cache_dir=None, device="cpu", transfer_kfold=2, sts17_pairs=["en-en", "en-de"])
    return evaluate_models([str(tiny_bert_dir), str(tiny_bert_dir)], config, disable_progress=True)


def _cells(html_text: str, heading: str) -> list[list[str]]:
    """The rows (header row first) of the table that follows `<h2>heading</h2>`."""
    table = html_text.split(f"<h2>{heading}</h2>", 1)[1].split("</table>", 1)[0]
    return [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row) for row in table.split("</tr>") if "<t" in row]


def test_report_shows_transfer_and_sts17_tables_beside_the_sts_table(evaluated):
    from bsl_pipeline.flows.job_report import (
        STS17_HEADING,
        TRANSFER_HEADING,
        render_report,
    )
    from bsl_pipeline.evaluation.score_tables import results_json

    entries = results_json(evaluated)
    labels = {"before (encoder)": entries[next(iter(entries))], "after BSL": entries[list(entries)[1]]}
    page = render_report("job", [], None, labels, {})
    assert page.index("STS results") < page.index(TRANSFER_HEADING) < page.index(STS17_HEADING)
    transfer = _cells(page, TRANSFER_HEADING)
    assert transfer[0] == ["model", "TREC", "SICK-E", "Avg."]  # SentEval's order, not the order asked
    for row, entry in zip(transfer[1:], labels.values()):
        t = entry["transfer"]
        assert row == [row[0], f"{t['trec']:.2f}", f"{t['sicke']:.2f}", f"{(t['trec'] + t['sicke']) / 2:.2f}"]
    assert [r[0] for r in transfer[1:]] == ["before (encoder)", "after BSL"]
    sts17 = _cells(page, STS17_HEADING)
    assert sts17[0] == ["model", "EN-EN", "EN-DE", "Avg."]
    s = labels["after BSL"]["sts17"]
    assert sts17[2][1:] == [f"{s['en-en']:.2f}", f"{s['en-de']:.2f}", f"{s['avg']:.2f}"]
    sts = _cells(page, "STS results (Spearman x100 of cosine similarity)")
    assert sts[0][:2] == ["model", "STS12"] and sts[1][sts[0].index("STS-B")] == f"{labels['after BSL']['stsb']:.2f}"
    assert sts[1][sts[0].index("Avg.")] == sts[1][sts[0].index("STS-B")]  # transfer and STS17 stay out of Avg.


def test_report_with_transfer_tasks_alone_has_no_empty_sts_table(evaluated):
    from bsl_pipeline.flows.job_report import TRANSFER_HEADING, render_report
    from bsl_pipeline.evaluation.score_tables import results_json

    entry = results_json(evaluated)[str(next(iter(evaluated)))]
    only_transfer = {"transfer": entry["transfer"], "details": entry["details"]}
    page = render_report("job", [], None, {"m": only_transfer}, {})
    assert "STS results" not in page and "STS chart" not in page and "STS 2017" not in page
    assert _cells(page, TRANSFER_HEADING)[1] == ["m", f"{entry['transfer']['trec']:.2f}",
                                                f"{entry['transfer']['sicke']:.2f}", f"{entry['transfer']['avg']:.2f}"]
    note = render_report("job", [], None, {"m": only_transfer}, {}, eval_note="not evaluated: mr")
    assert "not evaluated: mr" in note


def test_flow_outputs_hold_one_row_table_per_metric(evaluated):
    from bsl_pipeline.flows.evaluate_flow import evaluation_outputs, table_artifact_key

    out = evaluation_outputs(evaluated)
    assert list(out["tables"]) == ["sts", "sts17", "transfer"]
    first, second = (r for r in out["results"].values())
    transfer = out["tables"]["transfer"]
    assert [list(row) for row in transfer["rows"]] == [["model", "TREC", "SICK-E", "Avg."]] * 2
    assert transfer["rows"][1]["SICK-E"] == round(second["transfer"]["sicke"], 2)
    assert transfer["rows"][0]["Avg."] == round(first["transfer"]["avg"], 2)
    assert "test accuracy x100" in transfer["note"]
    assert out["tables"]["sts17"]["rows"][0] == {"model": str(next(iter(evaluated))),
                                                 "EN-EN": round(first["sts17"]["en-en"], 2),
                                                 "EN-DE": round(first["sts17"]["en-de"], 2),
                                                 "Avg.": round(first["sts17"]["avg"], 2)}
    assert out["rows"] == out["tables"]["sts"]["rows"] and set(out["rows"][0]) == {"model", "STS-B", "Avg."}
    assert [table_artifact_key("k", t) for t in out["tables"]] == ["k", "k-sts17", "k-transfer"]


def test_an_sts_task_is_one_record_and_its_loader(tmp_path, monkeypatch):
    """A task added to the table as one record (with its loader) is parsed, located, loaded, scored and reported
    like STS-B: its test split is a column of the STS table and enters its average."""
    import numpy as np

    from bsl_pipeline.evaluation import tasks
    from bsl_pipeline.evaluation.data import load_sts_subset
    from bsl_pipeline.evaluation.metrics import cosine_similarities, score_pairs
    from bsl_pipeline.evaluation.runner import evaluate_encoder
    from bsl_pipeline.evaluation.score_tables import format_markdown, format_table, results_json

    toy = tasks.EvalTask("toy", "TOY", "sts/toy", lambda data_dir, task, options: {
        "test": load_sts_subset(data_dir, "toy", "pairs")}, "sts-test")
    monkeypatch.setitem(tasks.TASKS_BY_NAME, "toy", toy)
    folder = tmp_path / "sts" / "toy"
    folder.mkdir(parents=True)
    pairs = [("a b c", "a b d", "4"), ("a a a", "c d e", "0.5"), ("b c d", "b c d e", "3.5"), ("e e", "a", "1")]
    (folder / "STS.input.pairs.txt").write_text("".join(f"{a}\t{b}\n" for a, b, _ in pairs), encoding="utf-8")
    (folder / "STS.gs.pairs.txt").write_text("".join(f"{g}\n" for *_, g in pairs), encoding="utf-8")

    def encode(texts: list[str]) -> np.ndarray:  # letter counts: a real, deterministic sentence encoder
        return np.array([[t.count(c) for c in "abcde"] for t in texts], dtype=np.float32)

    assert tasks.parse_tasks("toy") == ("toy",)
    assert tasks.missing_tasks(tmp_path, ["toy", "stsb"]) == ["stsb"]
    result = evaluate_encoder(encode, tmp_path, "toy", disable_progress=True, name="letters")
    e1, e2 = encode([a for a, _, _ in pairs]), encode([b for _, b, _ in pairs])
    expected = score_pairs(cosine_similarities(e1, e2), [float(g) for *_, g in pairs])
    assert result.splits["toy"]["test"] == expected
    assert result.scores() == {"toy": expected.spearman, "avg": expected.spearman}
    entry = results_json({"letters": result})
    assert entry["toy"] == expected.spearman and entry["details"]["toy"]["test"]["n"] == 4
    assert "TOY" in format_table({"letters": result}).splitlines()[0]
    assert "| TOY | test | 4 |" in format_markdown({"letters": result})


def test_main_job_takes_transfer_tasks_and_names_the_ones_without_data(shared_data):
    from bsl_pipeline.flows.main_job import MainJobConfig, _evaluation_tasks
    from bsl_pipeline.evaluation.data_dir import DataDir

    cfg = MainJobConfig()
    cfg.evaluation.tasks = ["trec", "stsb", "sick-e", "sts17"]
    tasks, note = _evaluation_tasks(cfg, DataDir(shared_data, "--data-dir"))
    assert tasks == ["stsb", "sicke"]  # SICK-E reads sick/, which the reference data has
    assert note.startswith("not evaluated: sts17, trec: run `bsl data fetch --to ")
