"""The main job end to end on tiny models: corpus -> Prefect augmentation flow -> BSL -> STS-B -> report; then a
rerun that reuses every cached step."""

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from bsl_pipeline.flows.main_job import MainJobConfig, builtin_corpus, run_main_job
from bsl_pipeline.pipeline.base.config import load_config, to_dict

DEMO_YAML = Path(__file__).resolve().parents[2] / "configs" / "demo.yaml"


def test_the_built_in_demo_config_is_configs_demo_yaml():
    assert load_config(MainJobConfig, DEMO_YAML) == MainJobConfig()
    recipe = MainJobConfig().training
    assert (recipe.optim.optimizer, recipe.optim.lr, recipe.train.batch_size, recipe.train.max_steps,
            recipe.model.max_length, recipe.objective.bsl.momentum) == ("adamw", 5e-5, 64, 140, 48, 0.999)
    bsl = recipe.objective.bsl
    assert (bsl.predictor_warmup_steps, bsl.predictor_lr, bsl.symmetric, bsl.online_view) == (50, 1e-3, False, "view2")
    assert MainJobConfig().evaluation.max_length == 256 and MainJobConfig().corpus_limit == 0


def test_the_demo_recipe_is_read_from_the_shipped_configs_demo_yaml():
    from bsl_pipeline.flows.main_job import demo_config_text

    assert demo_config_text() == DEMO_YAML.read_text(encoding="utf-8")  # the package's copy is configs/demo.yaml


def test_the_demo_trains_with_the_default_recipe_and_says_which():
    from bsl_pipeline.flows.main_job import describe_recipe
    from bsl_pipeline.training.recipes import recipe_path, recipe_text

    shipped = DEMO_YAML.parent / "recipes" / "unsupervised.yaml"
    assert recipe_text("unsupervised") == shipped.read_text(encoding="utf-8")
    training = MainJobConfig().training
    assert describe_recipe(training.objective.name, nli_pairs=False) == (
        f"unsupervised ({recipe_path('unsupervised')}): bsl, the method this job demonstrates")
    assert Path(recipe_path("unsupervised")).is_absolute()  # opens from any directory, unlike configs/recipes/...
    assert describe_recipe(training.objective.name, nli_pairs=True).endswith(
        "the job also trains on labeled NLI entailment pairs, data the supervised recipe fits (bsl recipes; "
        "docs/results/training.md)")
    changed = load_config(MainJobConfig, DEMO_YAML, ["training.objective.name=mnrl", "training.optim.lr=1e-4"])
    assert "its objective replaced by training.objective.name=mnrl" in describe_recipe(changed.training.objective.name, False)
    assert changed.training.train.max_steps == 140  # an override changes one key; the recipe keeps the rest


def test_the_report_names_the_loss_the_run_used():
    from bsl_pipeline.flows.main_job import describe_loss
    from bsl_pipeline.training.objectives.bsl import BSLConfig

    assert describe_loss(BSLConfig()) == "symmetric (both directions)"
    assert describe_loss(BSLConfig(symmetric=False, online_view="view2")) == (
        "one direction: the online encoder reads view2")
    assert describe_loss(BSLConfig(symmetric=False, online_view="mixed")).startswith("one direction per pair")


def test_demo_takes_config_flags_and_overrides_like_every_command(tmp_path, capsys):
    import yaml

    from bsl_pipeline.cli.cli import main

    assert main(["demo", "-c", str(DEMO_YAML), "--out", str(tmp_path / "flag"), "--data-dir", "/sts",
                 "--nli", "a.csv", "--nli", "b.csv", "-o", f"out_dir={tmp_path / 'o'}",
                 "-o", "training.train.max_steps=300", "--print-config"]) == 0
    printed = yaml.safe_load(capsys.readouterr().out)
    expected = to_dict(MainJobConfig())
    expected.update(out_dir=str(tmp_path / "o"), nli=["a.csv", "b.csv"])
    expected["evaluation"]["data_dir"] = "/sts"
    expected["training"]["train"]["max_steps"] = 300
    assert printed == expected
    assert not (tmp_path / "o").exists() and not (tmp_path / "flag").exists()


def test_the_built_in_corpus_is_in_domain_when_the_data_dir_has_sts_b_and_sick_train(shared_data, tmp_path):
    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.evaluation.data_dir import DataDir

    cfg = MainJobConfig()
    assert builtin_corpus(cfg, None) == "wordnet-examples"
    assert builtin_corpus(cfg, DataDir(shared_data, "--data-dir")) == "sts-sick-train"
    evaluation_only = DataDir(tmp_path, "--data-dir")  # no train files: e.g. a dir with the test sets alone
    assert builtin_corpus(cfg, evaluation_only) == "wordnet-examples"
    cfg.builtin_corpus = "wordnet-examples"
    assert builtin_corpus(cfg, DataDir(shared_data, "--data-dir")) == "wordnet-examples"
    cfg.builtin_corpus = "sts-sick-train"
    with pytest.raises(BSLError, match=r"needs stsbenchmark/sts-train.csv and sick/SICK_train.txt .* give --data-dir"):
        builtin_corpus(cfg, evaluation_only)


@pytest.mark.slow
def test_main_job_end_to_end_then_cached_rerun(tmp_path, tiny_bert_dir, shared_data):
    corpus = tmp_path / "sentences.txt"
    corpus.write_text("".join(f"The {w} number {i} walks slowly into the old house today.\n" for i, w in
                              enumerate(["dog", "cat", "man", "woman", "child", "car"] * 6)), encoding="utf-8")
    cfg = load_config(MainJobConfig, DEMO_YAML, [
        f"out_dir={tmp_path / 'out'}", f"corpus={corpus}", f"nli=[{shared_data / 'nli/snli/dev.csv'}]", "nli_limit=60",
        "progress=false", f"training.model.name_or_path={tiny_bert_dir}", "training.train.max_steps=6",
        "training.train.batch_size=8", "training.objective.bsl.predictor_warmup_steps=3",
        f"evaluation.data_dir={shared_data}", "evaluation.tasks=[stsb]"])
    first = run_main_job(cfg)
    steps = {s.step: s for s in first.steps}
    assert not steps["augment corpus"].cached and not steps["train"].cached
    assert first.training.step == 6 and first.training.completed
    results = first.results
    assert set(results) == {"before (encoder)", "after BSL"}
    for r in results.values():
        assert -100 <= r["stsb"] <= 100 and r["avg"] == r["stsb"]
    report = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    for needle in ("STS results", "Training loss", "data:image/png;base64,", "synonyms: sample view pairs",
                   "span-mask: sample view pairs", "nli-entailment: sample view pairs", '<tr class="pair"',
                   "steps 1-3: predictor-warmup (shaded)", "3 steps at lr 0.001"):
        assert needle in report, needle
    # Both models are read at evaluation.max_length (capped by the tiny model's 128 positions), not the trained
    # model at its training max_length.
    assert {r["details"]["model"]["max_length"] for r in results.values()} == {min(cfg.evaluation.max_length, 128)}
    assert "note" not in first.facts  # a corpus of its own: no STS sentences, nothing transductive to say

    second = run_main_job(cfg)
    steps2 = {s.step: s for s in second.steps}
    assert steps2["corpus"].cached and steps2["augment corpus"].cached and steps2["train"].cached
    assert steps2["augment dev.csv"].cached
    assert second.results == results
    assert second.training == first.training  # the finished run, as its completion record describes it
    job = json.loads((tmp_path / "out" / "job.json").read_text())
    assert job["total_s"] == second.total_s and job["training"] == asdict(second.training)
    record = json.loads((Path(second.training.run_dir) / "train_done.json").read_text())
    assert Path(second.training.run_dir).name == f"bsl-{record['key']}" and record["step"] == 6


def test_method_params_reach_the_corpus_methods():
    from bsl_pipeline.flows.main_job import corpus_methods

    cfg = load_config(MainJobConfig, DEMO_YAML, ["methods=[synonyms, rewrites, span-mask]",
                                                 "method_params.rewrites.rules=[equivalent, relative]",
                                                 "mlm_model=/models/roberta", "method_params.mlm.top_k=5"])
    methods, params = corpus_methods(cfg)
    assert methods == ["synonyms", "rewrites", "span-mask", "mlm"]
    assert params["rewrites"] == {"rules": ["equivalent", "relative"]}
    assert params["mlm"]["model"] == "/models/roberta" and params["mlm"]["top_k"] == 5
    assert corpus_methods(load_config(MainJobConfig, DEMO_YAML, [])) == (["synonyms", "span-mask"], {})


def test_the_completion_record_of_a_run_is_checked_as_untrusted_input(tmp_path):
    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.training.config import TrainConfig
    from bsl_pipeline.evaluation.train_and_evaluate import DONE_FILE, finished_run

    config = TrainConfig()
    config.train.output_dir = str(tmp_path)
    assert finished_run(config.train, config.export, key="k") is None  # no record: nothing to reuse
    record = tmp_path / DONE_FILE
    for text, problem in [("{not json", "unreadable completion record"),
                          ('["a list"]', "bad or missing format, key, step, total_steps"),
                          ('{"format": 1, "key": "k", "step": "6", "total_steps": 6}', "bad or missing step"),
                          ('{"format": 1, "key": "k", "step": 6, "total_steps": 6, "final_loss": "low"}',
                           "bad or missing final_loss"),
                          ('{"format": 9, "key": "k", "step": 6, "total_steps": 6}', "format 9")]:
        record.write_text(text, encoding="utf-8")
        with pytest.raises(BSLError, match=f"{DONE_FILE}: .*{problem}"):
            finished_run(config.train, config.export, key="k")
    record.write_text('{"format": 1, "key": "other", "step": 6, "total_steps": 6}', encoding="utf-8")
    assert finished_run(config.train, config.export, key="k") is None  # a run of other settings or data
    record.write_text('{"format": 1, "key": "k", "step": 6, "total_steps": 6}', encoding="utf-8")
    # The record's key, but no final/ checkpoint: trained again.
    assert finished_run(config.train, config.export, key="k") is None
