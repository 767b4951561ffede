"""SentEval transfer tasks and STS 2017 in the evaluation stage (evaluation/transfer.py, transfer_data.py)
and their data through `bsl data fetch` (tiny files in the hub copies' real layouts, tests/hub_mirror.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bsl_pipeline.pipeline.base.errors import BSLError, InputError
from bsl_pipeline.evaluation.transfer import (
    INNER_CV_GRID,
    KFOLD_GRID,
    ProtocolSettings,
    dev_split,
    inner_kfold,
    kfold_then_test,
    pair_features,
    stratified_folds,
)


@pytest.fixture(autouse=True, scope="module")
def one_blas_thread():
    """One thread for scikit-learn's BLAS/OpenMP too, as for torch (tests/conftest.py): on a shared 2-core machine
    a 2-thread OpenBLAS made each tiny logistic regression ~14x slower."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        yield


def _separable(n_per_class: int, dim: int = 4, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n_per_class)
    X = rng.normal(size=(2 * n_per_class, dim)) * 0.1
    X[:, 0] += np.where(y == 1, 2.0, -2.0)
    return X, y


# ---------------------------------------------------------------------------------------------------------------
# The protocol


def test_grids_are_senteval_scikit_learn_grids():
    assert INNER_CV_GRID == (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
    assert KFOLD_GRID == (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)


def test_linearly_separable_data_scores_100_under_every_protocol():
    X, y = _separable(15)
    settings = ProtocolSettings(kfold=5)
    acc, dev, chosen = inner_kfold(X, y, settings)
    assert (acc, dev) == (100.0, 100.0) and len(chosen) == 5 and set(chosen) <= set(INNER_CV_GRID)
    X_test, y_test = _separable(5, seed=1)
    acc, dev, c, predicted = kfold_then_test(X, y, X_test, y_test, settings)
    assert (acc, dev) == (100.0, 100.0) and c in KFOLD_GRID and predicted.tolist() == y_test.tolist()
    X_dev, y_dev = _separable(4, seed=2)
    assert dev_split(X, y, X_dev, y_dev, X_test, y_test, settings)[:2] == (100.0, 100.0)


def test_label_noise_lowers_accuracy_by_the_flipped_share():
    # 40 test points, 4 of them with flipped labels: a perfect separator of the clean data scores 90.
    X, y = _separable(20)
    X_test, y_test = _separable(20, seed=3)
    y_test = y_test.copy()
    y_test[[0, 1, 20, 21]] = 1 - y_test[[0, 1, 20, 21]]
    acc, *_ = kfold_then_test(X, y, X_test, y_test, ProtocolSettings(kfold=5))
    assert acc == 90.0


def test_dev_split_picks_c_on_dev_and_matches_a_direct_fit():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(5)
    X = rng.normal(size=(80, 6))
    y = (X[:, 0] + 0.8 * rng.normal(size=80) > 0).astype(int)
    X_dev, X_test = rng.normal(size=(30, 6)), rng.normal(size=(30, 6))
    y_dev, y_test = (X_dev[:, 0] > 0).astype(int), (X_test[:, 0] > 0).astype(int)
    settings = ProtocolSettings()
    acc, dev, c = dev_split(X, y, X_dev, y_dev, X_test, y_test, settings)
    dev_scores = [round(100 * LogisticRegression(C=g, random_state=1111, max_iter=1000).fit(X, y).score(X_dev, y_dev),
                        2) for g in INNER_CV_GRID]
    assert dev == max(dev_scores) and c == INNER_CV_GRID[int(np.argmax(dev_scores))]
    direct = LogisticRegression(C=c, random_state=1111, max_iter=1000).fit(X, y).score(X_test, y_test)
    assert acc == round(100 * direct, 2)


def test_folds_are_stratified_deterministic_and_seeded():
    y = np.array([0] * 30 + [1] * 20)
    folds = stratified_folds(y, 10, 1111)
    assert len(folds) == 10
    assert sorted(np.concatenate([te for _, te in folds]).tolist()) == list(range(50))
    for train, test in folds:
        assert np.bincount(y[test]).tolist() == [3, 2]  # every fold keeps the 3:2 class ratio
        assert not set(train) & set(test)
    again = stratified_folds(y, 10, 1111)
    assert all((a[1] == b[1]).all() for a, b in zip(folds, again))
    other = stratified_folds(y, 10, 7)
    assert any((a[1] != b[1]).any() for a, b in zip(folds, other))


def test_too_few_examples_per_class_for_k_folds_is_an_error():
    with pytest.raises(BSLError, match="10-fold .* at least 10 examples of every class"):
        stratified_folds(np.array([0] * 20 + [1] * 9), 10, 1111)


def test_pair_features_senteval_and_full():
    u = np.array([[1.0, 2.0, 3.0]])
    v = np.array([[3.0, 2.0, -1.0]])
    senteval = pair_features(u, v, "senteval")
    full = pair_features(u, v, "full")
    assert senteval.shape == (1, 6) and full.shape == (1, 12)  # 2x and 4x the embedding size
    assert senteval.tolist() == [[2.0, 0.0, 4.0, 3.0, 4.0, -3.0]]
    assert full.tolist() == [[1.0, 2.0, 3.0, 3.0, 2.0, -1.0, 2.0, 0.0, 4.0, 3.0, 4.0, -3.0]]
    with pytest.raises(BSLError, match="unknown pair_features"):
        pair_features(u, v, "concat")


# ---------------------------------------------------------------------------------------------------------------
# Readers


def _write(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_sick_entailment_reads_the_reference_splits(shared_data):
    from bsl_pipeline.evaluation.tasks import load_task

    task = load_task(shared_data, "sicke")
    assert {name: len(s) for name, s in task.splits.items()} == {"train": 4500, "dev": 500, "test": 4927}
    assert task.classes == ("CONTRADICTION", "ENTAILMENT", "NEUTRAL")
    assert task.splits["train"].sentences1[0].startswith("A group of kids is playing in a yard")
    assert task.splits["train"].labels[0] == "NEUTRAL"


def test_fetched_sick_without_entailment_column_is_named(fetched_data):
    from bsl_pipeline.evaluation.tasks import load_task

    with pytest.raises(InputError, match=r"SICK_train.txt: evaluation file not found|entailment_judgment"):
        load_task(fetched_data, "sicke")


def test_reader_errors_name_file_and_line(tmp_path):
    from bsl_pipeline.evaluation.tasks import load_task

    _write(tmp_path / "senteval" / "mr" / "all.tsv", ["label\tsentence", "pos\tfine", "neg"])
    with pytest.raises(InputError, match=r"all.tsv:3: expected 2 tab-separated fields"):
        load_task(tmp_path, "mr")
    _write(tmp_path / "senteval" / "mr" / "all.tsv", ["sentence\tlabel", "fine\tpos"])
    with pytest.raises(InputError, match=r"all.tsv:1: expected the header label<TAB>sentence"):
        load_task(tmp_path, "mr")
    _write(tmp_path / "senteval" / "trec" / "train.tsv", ["label\tsentence", "HUM\twho", "LOC\twhere"])
    _write(tmp_path / "senteval" / "trec" / "test.tsv", ["label\tsentence", "NUM\thow many"])
    with pytest.raises(InputError, match=r"test.tsv: label\(s\) NUM never occur in the training rows"):
        load_task(tmp_path, "trec")
    with pytest.raises(InputError, match=r"sst2/train.tsv: sst2 file not found; run `bsl data fetch --sets sst2`"):
        load_task(tmp_path, "sst2")


def test_task_names_default_and_groups():
    from bsl_pipeline.evaluation.tasks import ALL_TASKS, parse_tasks

    assert parse_tasks(None) == parse_tasks("all") == ALL_TASKS
    assert parse_tasks("transfer") == ("mr", "cr", "subj", "mpqa", "sst2", "trec", "mrpc", "sicke")
    assert parse_tasks("sick-e,stsb,sts17") == ("stsb", "sts17", "sicke")
    with pytest.raises(InputError, match="unknown task.*sentiment"):
        parse_tasks("mr,sentiment")


# ---------------------------------------------------------------------------------------------------------------
# Fetch: the seven transfer sets and STS 2017 from their hub layouts


def test_fetched_transfer_files_hold_the_hub_rows_with_label_words(fetched_data):
    from bsl_pipeline.evaluation.tasks import load_task

    expected = {"mr": ({"all": 24}, ("neg", "pos")), "cr": ({"all": 22}, ("negative", "positive")),
                "subj": ({"all": 22}, ("objective", "subjective")), "mpqa": ({"all": 20}, ("0", "1")),
                "sst2": ({"train": 20, "dev": 8, "test": 10}, ("negative", "positive")),
                "trec": ({"train": 60, "test": 12}, ("ABBR", "DESC", "ENTY", "HUM", "LOC", "NUM")),
                "mrpc": ({"train": 20, "test": 6}, ("equivalent", "not_equivalent"))}
    for name, (sizes, classes) in expected.items():
        task = load_task(fetched_data, name)
        assert {split: len(s) for split, s in task.splits.items()} == sizes, name
        assert task.classes == classes, name
    mrpc = load_task(fetched_data, "mrpc").splits["train"]
    assert mrpc.sentences1[0] == "the film number 0 was great and lovely"
    assert mrpc.sentences2[0] == "this film number 0 was great and lovely" and mrpc.labels[0] == "equivalent"
    manifest = json.loads((fetched_data / "data_manifests" / "mrpc.json").read_text())
    assert manifest["source"]["id"] == "nyu-mll/glue"
    assert manifest["splits"]["train"]["hub_split"] == "train+validation"
    assert manifest["splits"]["train"]["reference_rows"] == 4076


def test_fetched_sts17_has_one_file_pair_per_language_pair(fetched_data):
    from bsl_pipeline.evaluation.transfer_data import STS17_PAIRS, load_sts17

    folder = fetched_data / "sts" / "sts17"
    assert len(list(folder.glob("STS.input.*.txt"))) == 11
    pairs = load_sts17(fetched_data)
    assert tuple(pairs) == STS17_PAIRS
    assert {len(ps) for ps in pairs.values()} == {12}
    assert pairs["en-es"].sentences1[0] == "es-en sentence 0 about the film"  # read from the hub's es-en file


def test_set_groups_and_names():
    from bsl_pipeline.evaluation.public_data import parse_sets

    assert [s.name for s in parse_sets("transfer")] == ["mr", "cr", "subj", "mpqa", "sst2", "trec", "mrpc"]
    assert [s.config for s in parse_sets("mrpc")] == ["mrpc"]


# ---------------------------------------------------------------------------------------------------------------
# Through a real encoder (the tiny BERT) and the reports


@pytest.fixture(scope="module")
def tiny_bert_result(tiny_bert_dir, fetched_data, shared_data, tmp_path_factory):
    import shutil

    from bsl_pipeline.evaluation import load_encoder
    from bsl_pipeline.evaluation.runner import evaluate_encoder

    data = tmp_path_factory.mktemp("transfer_data")
    shutil.copytree(fetched_data / "senteval", data / "senteval")
    shutil.copytree(fetched_data / "sts" / "sts17", data / "sts" / "sts17")
    (data / "sick").mkdir()
    for name in ("SICK_train.txt", "SICK_trial.txt", "SICK_test_annotated.txt"):  # a slice of the real files
        lines = (shared_data / "sick" / name).read_text(encoding="utf-8").split("\n")
        (data / "sick" / name).write_text("\n".join(lines[:121]) + "\n", encoding="utf-8")
    encoder = load_encoder(tiny_bert_dir, device="cpu")
    cache = tmp_path_factory.mktemp("cache")
    tasks = "stsb,sts17,transfer"
    (data / "stsbenchmark").mkdir()
    shutil.copy(shared_data / "stsbenchmark" / "sts-test.csv", data / "stsbenchmark" / "sts-test.csv")
    first = evaluate_encoder(encoder, data, tasks, cache_dir=cache, include_stsb_dev=False, disable_progress=True,
                             transfer_settings=ProtocolSettings(kfold=2))
    second = evaluate_encoder(encoder, data, tasks, cache_dir=cache, include_stsb_dev=False, disable_progress=True,
                              transfer_settings=ProtocolSettings(kfold=2))
    return first, second, encoder, data


def test_tiny_bert_runs_every_transfer_task_and_sts17(tiny_bert_result):
    result, _, _, _ = tiny_bert_result
    assert list(result.transfer) == ["mr", "cr", "subj", "mpqa", "sst2", "trec", "mrpc", "sicke"]
    sizes = {t: (s.n_train, s.n_test) for t, s in result.transfer.items()}
    assert sizes == {"mr": (24, 24), "cr": (22, 22), "subj": (22, 22), "mpqa": (20, 20), "sst2": (20, 10),
                     "trec": (60, 12), "mrpc": (20, 6), "sicke": (120, 120)}
    for task, score in result.transfer.items():
        assert 0.0 <= score.accuracy <= 100.0 and 0.0 <= score.dev_accuracy <= 100.0, task
    assert result.transfer["mrpc"].f1 is not None
    scores = result.transfer_scores()
    assert scores["avg"] == pytest.approx(np.mean([scores[t] for t in result.transfer]))
    assert list(result.sts17_scores()) == ["en-en", "ar-ar", "es-es", "en-ar", "en-es", "en-tr", "en-de", "en-fr",
                                           "avg"]
    assert list(result.scores()) == ["stsb", "avg"]  # transfer and STS17 stay out of the STS average
    assert result.scores()["avg"] == result.scores()["stsb"]


def test_sts17_scores_are_the_cosine_spearman_of_each_pair(tiny_bert_result):
    from bsl_pipeline.evaluation.metrics import cosine_similarities, score_pairs
    from bsl_pipeline.evaluation.transfer_data import load_sts17

    result, _, encoder, data = tiny_bert_result
    ps = load_sts17(data, ["en-de"])["en-de"]
    e1 = encoder.encode(list(ps.sentences1), disable_progress=True)
    e2 = encoder.encode(list(ps.sentences2), disable_progress=True)
    direct = score_pairs(cosine_similarities(e1, e2), ps.scores)
    assert result.sts17["en-de"].spearman == pytest.approx(direct.spearman, abs=1e-6)
    assert result.sts17["en-de"].n == 12


def test_cached_embeddings_give_the_same_numbers(tiny_bert_result):
    first, second, _, _ = tiny_bert_result
    assert first.cache_misses > 0 and second.cache_misses == 0 and second.cache_hits == first.cache_misses
    assert second.transfer == first.transfer
    assert second.sts17 == first.sts17


def test_json_markdown_and_table_show_the_new_tables(tiny_bert_result):
    from bsl_pipeline.evaluation.score_tables import (
        format_markdown,
        format_table,
        results_json,
    )

    result, _, _, _ = tiny_bert_result
    entry = results_json({"tiny": result})
    assert set(entry["transfer"]) == {"mr", "cr", "subj", "mpqa", "sst2", "trec", "mrpc", "sicke", "avg"}
    assert entry["transfer"]["trec"] == result.transfer["trec"].accuracy
    assert entry["details"]["transfer"]["sicke"]["n_test"] == 120
    assert set(entry["sts17"]) == {"en-en", "ar-ar", "es-es", "en-ar", "en-es", "en-tr", "en-de", "en-fr", "avg"}
    assert entry["details"]["avg"]["tasks"] == ["stsb"]
    table = format_table({"tiny": result})
    assert "SICK-E" in table and "EN-AR" in table and "STS-B" in table
    markdown = format_markdown({"tiny": result})
    assert "## SentEval transfer tasks" in markdown and "## STS 2017" in markdown
    assert "| TREC | 60 | 12 |" in markdown


def test_evaluate_command_takes_transfer_tasks(tiny_bert_dir, tiny_bert_result, tmp_path, capsys):
    from bsl_pipeline.cli.cli import main

    _, _, _, data = tiny_bert_result
    out = tmp_path / "r.json"
    code = main(["evaluate", str(tiny_bert_dir), "--data-dir", str(data), "--tasks", "trec,sts17", "--no-cache",
                 "--no-progress", "--json", str(out), "-o", "transfer_kfold=2", "-o", "sts17_pairs=[en-en,en-fr]"])
    assert code == 0
    entry = json.loads(out.read_text())
    assert set(entry) == {"sts17", "transfer", "details"}
    assert set(entry["sts17"]) == {"en-en", "en-fr", "avg"} and set(entry["transfer"]) == {"trec", "avg"}
    assert "TREC" in capsys.readouterr().out
