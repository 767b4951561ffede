"""The main job (`bsl demo`, `make demo`): corpus -> view pairs -> BSL training -> STS before/after -> one report.

    1. corpus      built in: the distinct sentences of STS-B train + SICK train from the data dir (no labels,
                   nothing that occurs in dev/test), or WordNet's example sentences without one (or corpus=FILE);
                   plus NLI files for entailment pairs (--nli, by default the data dir's nli/snli/dev.csv)
    2. augment     the Prefect augmentation flow (cached per chunk x method) for each corpus
    3. train       BSL on all-MiniLM-L6-v2 (or training.model.name_or_path) from the datasets' manifests, the
                   predictor alone for its first steps (the warm-up that keeps the trained encoder from degrading)
    4. evaluate    STS12-16, STS-B, SICK-R before and after training (evaluation.tasks; it may also name the
                   SentEval transfer tasks, `transfer` for all eight, and sts17), on the data dir found as every
                   command finds it (--data-dir, $BSL_DATA_DIR, ~/.cache/bsl/data, ../shared/data); without one
                   the job says "evaluation skipped: run `bsl data fetch`" in its summary and report
    5. report      <out>/report.html: view-pair samples per method, dataset stats, loss curve, STS table + chart,
                   and beside it the transfer accuracies and STS 2017 per language pair when they were evaluated

Every step is cached: a rerun with the same settings reuses the corpus, every augmentation task (Prefect cache),
the finished training run (its completion record train_done.json, keyed by the settings and the datasets' pair
shards: evaluation.train_and_evaluate, as `bsl flow train`) and the cached embeddings, and only rebuilds the report. `<out>/job.json` records each step's time and whether it was cached.

The settings are MainJobConfig: job keys, plus `training` (a TrainConfig: the unsupervised recipe,
configs/recipes/unsupervised.yaml) and `evaluation` (an EvaluationConfig). configs/demo.yaml holds the built-in
defaults; --config/-o/--print-config as every command: --print-config, and the job before its first step, refuse
the training and evaluation settings that `bsl train` and `bsl evaluate` refuse.
"""

from __future__ import annotations

import copy
import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from bsl_pipeline.pipeline.base.atomic import write_json_atomic, write_text_atomic
from bsl_pipeline.pipeline.base.config import from_dict, parse_yaml, to_dict
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.dataset.manifest import Manifest
from bsl_pipeline.evaluation.data_dir import (
    FETCH_COMMAND,
    DataDir,
    default_data_dir,
    locate_data_dir,
)
from bsl_pipeline.training.config import DataSourceConfig, TrainConfig
from bsl_pipeline.training.objectives.bsl import BSLConfig
from bsl_pipeline.evaluation.config import EvaluationConfig
from bsl_pipeline.training.recipes import (
    DEFAULT_RECIPE,
    bundled_encoder,
    bundled_recipe,
    recipe_path,
    recipe_source,
)
from bsl_pipeline.evaluation.train_and_evaluate import (
    StepDone,
    StepRecord,
    StepStarted,
    StepTimer,
    TrainedRun,
    run_key,
    train_and_evaluate,
)


DEMO_CONFIG = "demo.yaml"  # in the package bsl_pipeline.configs (the repository's configs/)


def demo_config_text() -> str:
    """The text of configs/demo.yaml, the one source of the demo's job and evaluation defaults, shipped inside the
    package."""
    from importlib.resources import files

    return files("bsl_pipeline.configs").joinpath(DEMO_CONFIG).read_text(encoding="utf-8")


def demo_section(name: str) -> dict[str, Any]:
    """One top-level section of configs/demo.yaml (e.g. `evaluation`) as a dict."""
    data = parse_yaml(demo_config_text(), f"bsl_pipeline/configs/{DEMO_CONFIG}")
    if not isinstance(data, dict) or not isinstance(data.get(name), dict):
        raise BSLError(f"bsl_pipeline/configs/{DEMO_CONFIG}: no `{name}:` section (the demo's built-in settings)")
    return data[name]


def demo_training() -> TrainConfig:
    """The demo's recipe: the default recipe, configs/recipes/unsupervised.yaml (BSL post-training of an already
    trained encoder on CPU); a `training:` section in the job's config overrides it.
    The job fills in model.name_or_path when empty, adds its datasets to data.sources and, with train.output_dir
    empty, writes the run to <out_dir>/runs/bsl-<run_key> (evaluation.train_and_evaluate.run_key: the fingerprint of
    the settings and the datasets' pair shards)."""
    return from_dict(TrainConfig, bundled_recipe(), prefix=recipe_source(DEFAULT_RECIPE))


def demo_evaluation() -> EvaluationConfig:
    """STS before/after training: configs/demo.yaml `evaluation:`."""
    return from_dict(EvaluationConfig, demo_section("evaluation"), prefix="evaluation")


@dataclass
class MainJobConfig:
    out_dir: str = field(default="demo_out", metadata={"help": "where everything is written"})
    overwrite: bool = field(default=False, metadata={
        "help": "write into an out_dir bsl did not create: what the job replaces there is moved to "
                ".bsl-replaced/<time>/, never deleted"})
    corpus: str = field(default="", metadata={"help": "sentence corpus file or directory; '' = builtin_corpus"})
    builtin_corpus: Literal["auto", "sts-sick-train", "wordnet-examples"] = field(default="auto", metadata={
        "help": "sts-sick-train: the distinct sentences of STS-B train + SICK train from the data dir (no labels, "
                "none that occur in dev/test; they overlap STS12-16 test sentences: transductive); "
                "wordnet-examples: WordNet's example sentences (OS WordNet package); auto: the first when the data "
                "dir has both train files, else the second"})
    corpus_limit: int = field(default=0, metadata={"help": "sentences taken from the corpus (0 = all)"})
    nli: list[str] = field(default_factory=list, metadata={
        "help": "NLI files (SNLI/MNLI in any supported format) whose entailment pairs become views"})
    nli_limit: int = field(default=0, metadata={"help": "records read from each NLI file (0 = all)"})
    nli_from_data_dir: bool = field(default=True, metadata={
        "help": "with nli empty, use the data dir's nli/snli/dev.csv when it has one"})
    methods: list[str] = field(default_factory=lambda: ["synonyms", "span-mask"], metadata={
        "help": "methods applied to the sentence corpus"})
    method_params: dict[str, dict[str, Any]] = field(default_factory=dict, metadata={
        "help": "settings of the corpus's methods, as `bsl augment`'s method_params (e.g. -o "
                "method_params.rewrites.rules=[equivalent,relative])"})
    mlm_model: str = field(default="", metadata={"help": "masked-LM dir or hub id; set to add the `mlm` method"})
    backtranslation: dict[str, Any] = field(default_factory=dict, metadata={
        "help": "back-translation params (e.g. {preset: wmt19-de, forward: {model: DIR}, ...}); set to add it"})
    use_prefect: bool = field(default=True, metadata={
        "help": "run augmentation as the Prefect flow (false: the same library loop, no Prefect)"})
    seed: int = field(default=0, metadata={"help": "seed of augmentation (training.train.seed seeds training)"})
    progress: bool = field(default=True, metadata={"help": "show progress bars"})
    training: TrainConfig = field(default_factory=demo_training, metadata={
        "help": "the BSL run (every `bsl train` key); model.name_or_path '' = all-MiniLM-L6-v2 (PyPI package)"})
    evaluate: bool = field(default=True, metadata={"help": "evaluate before/after training (false: skip it)"})
    evaluation: EvaluationConfig = field(default_factory=demo_evaluation, metadata={
        "help": "STS (and transfer / sts17 when in tasks) before/after (every `bsl evaluate` key); data_dir '' = the "
                "data dir found as docs/guide/data.md says"})


@dataclass
class MainJobResult:
    """What `run_main_job` did (also written to `<out_dir>/job.json`). `results` maps a model label ("before
    (encoder)", "after BSL") to its evaluation entry (keys sts12 ... avg; `transfer` {task: accuracy x100, avg}
    and `sts17` {pair: Spearman x100, avg} when those tasks ran: evaluation.score_tables' JSON), None
    when nothing was evaluated;
    `evaluation_note` says what was not evaluated and why."""

    config: dict[str, Any]
    steps: list[StepRecord]
    total_s: float
    report: str
    results: dict[str, dict[str, Any]] | None
    evaluation_note: str
    training: TrainedRun
    facts: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def corpus_methods(cfg: MainJobConfig) -> tuple[list[str], dict[str, dict[str, Any]]]:
    """The methods applied to the sentence corpus and their `method_params`: `methods` with `method_params`, plus
    `mlm` when `mlm_model` is set and `backtranslation` when its params are."""
    methods = list(cfg.methods)
    params: dict[str, dict[str, Any]] = {name: dict(values) for name, values in cfg.method_params.items()}
    if cfg.mlm_model:
        methods.append("mlm")
        params["mlm"] = {"model": cfg.mlm_model, **params.get("mlm", {})}
    if cfg.backtranslation:
        methods.append("backtranslation")
        params["backtranslation"] = dict(cfg.backtranslation)
    return methods, params


def builtin_corpus(cfg: MainJobConfig, data: DataDir | None) -> str:
    """The built-in corpus the job uses when `corpus` is ''."""
    from bsl_pipeline.pipeline.corpus.builtin import sts_sick_splits

    has_train = data is not None and all((data.path / s.path).is_file() for s in sts_sick_splits()["train"])
    if cfg.builtin_corpus == "auto":
        return "sts-sick-train" if has_train else "wordnet-examples"
    if cfg.builtin_corpus == "sts-sick-train" and not has_train:
        where = data.describe() if data is not None else "none was found"
        raise BSLError(f"builtin_corpus=sts-sick-train needs stsbenchmark/sts-train.csv and sick/SICK_train.txt in "
                       f"the data dir ({where}): run `{FETCH_COMMAND}`, give --data-dir, or set "
                       f"builtin_corpus=wordnet-examples")
    return cfg.builtin_corpus


def _corpus(cfg: MainJobConfig, out: Path, data: DataDir | None) -> tuple[Path, bool]:
    from bsl_pipeline.pipeline.corpus.builtin import write_sts_sick_train, write_wordnet_examples

    if cfg.corpus:
        return Path(cfg.corpus), True
    name = builtin_corpus(cfg, data)
    path = out / "corpus" / f"{name}.txt"
    cached = path.is_file()
    if name == "sts-sick-train":
        write_sts_sick_train(data.path, path, overwrite=True)  # redone (< 1 s) in case the data dir changed; a
        # different old file is set aside in corpus/.bsl-replaced/
    elif not cached:  # WordNet's examples never change: the job's own copy is reused
        write_wordnet_examples(path)
    return path, cached


def _augment(corpus: Path, dataset_dir: Path, augment: dict[str, Any], cfg: MainJobConfig) -> tuple[Manifest, bool]:
    from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment

    augment = {**augment, "registry_dir": str(dataset_dir.parent.parent / "data_manifests"),
               "progress": cfg.progress, "seed": cfg.seed}
    if cfg.use_prefect:
        from bsl_pipeline.flows.augment_job import AugmentFlowConfig
        from bsl_pipeline.flows.augment_run import run_augment_flow
        from bsl_pipeline.pipeline.dataset.store import load_manifest

        summary = run_augment_flow(AugmentFlowConfig(corpus=str(corpus), out_dir=str(dataset_dir), augment=augment))
        return load_manifest(summary["manifest"]), summary["computed"] == 0
    manifest = run_augment(corpus, dataset_dir, from_dict(AugmentConfig, augment))
    manifest.require("stats")
    return manifest, all(m.tasks == m.tasks_cached for m in manifest.stats.per_method.values())


def _training_config(cfg: MainJobConfig, encoder: str, datasets: list[Manifest], out: Path) -> TrainConfig:
    training = copy.deepcopy(cfg.training)
    training.model.name_or_path = encoder
    # weight None: proportional to the pairs, i.e. one stream over all of them (the corpus views dominate).
    training.data.sources += [DataSourceConfig(path=str(m.root)) for m in datasets]
    if not training.train.output_dir:
        training.train.output_dir = str(out / "runs" / f"bsl-{run_key(training)}")
    return training


def _evaluation_config(cfg: MainJobConfig, out: Path, data_dir: Path, tasks: list[str]) -> EvaluationConfig:
    evaluation = copy.deepcopy(cfg.evaluation)
    evaluation.data_dir, evaluation.tasks = str(data_dir), list(tasks)
    if evaluation.cache_dir == "":
        evaluation.cache_dir = str(out / "cache" / "embeddings")
    return evaluation


def check_job_settings(cfg: MainJobConfig, *, printing: bool = False) -> None:
    """Refuse what the job's training and evaluation would refuse in their settings, before any work: the
    training settings (`training.preflight.check_settings`) with the model the job trains (the bundled encoder when
    none is named) and, when the job evaluates, the evaluation settings (`evaluation.preflight.check_settings`).
    `bsl demo --print-config` (`printing`: hub names are not looked up) and `run_main_job` call it."""
    from bsl_pipeline.evaluation.preflight import check_settings as check_evaluation_settings
    from bsl_pipeline.training.preflight import check_settings as check_training_settings

    training = copy.deepcopy(cfg.training)
    training.model.name_or_path = training.model.name_or_path or bundled_encoder()
    if not training.train.output_dir:  # the run's directory is named after its datasets, under out_dir/runs
        training.train.output_dir = str(Path(cfg.out_dir) / "runs")
    check_training_settings(training, printing=printing)
    if cfg.evaluate:
        check_evaluation_settings(cfg.evaluation)


def _find_data(cfg: MainJobConfig) -> DataDir | None:
    found = locate_data_dir(cfg.evaluation.data_dir or None)
    if found is not None and not found.path.is_dir():
        raise BSLError(f"evaluation data dir {found.describe()} is not a directory: run "
                       f"`{FETCH_COMMAND} --to {found.path}`, or point it at one")
    return found


def _nli_files(cfg: MainJobConfig, data: DataDir | None) -> list[str]:
    if cfg.nli or not cfg.nli_from_data_dir or data is None:
        return list(cfg.nli)
    snli_dev = data.path / "nli" / "snli" / "dev.csv"
    return [str(snli_dev)] if snli_dev.is_file() else []


def _evaluation_tasks(cfg: MainJobConfig, data: DataDir | None) -> tuple[list[str], str]:
    """The tasks the before/after evaluation runs on, and a note naming what it skips and how to get the data."""
    from bsl_pipeline.evaluation.tasks import missing_tasks, parse_tasks

    if not cfg.evaluate:
        return [], "evaluation skipped: evaluate=false"
    tasks = list(parse_tasks(cfg.evaluation.tasks))
    missing = tasks if data is None else missing_tasks(data.path, tasks)
    if not missing:
        return tasks, ""
    fetch = FETCH_COMMAND if data is None or data.origin == "data cache" else f"{FETCH_COMMAND} --to {data.path}"
    why = (f"no evaluation data found: no --data-dir, BSL_DATA_DIR unset, {default_data_dir()} empty, no "
           f"../shared/data" if data is None else f"{data.describe()} has no {', '.join(missing)}")
    if len(missing) == len(tasks):
        return [], f"evaluation skipped: run `{fetch}` ({why})"
    return [t for t in tasks if t not in missing], f"not evaluated: {', '.join(missing)}: run `{fetch}` ({why})"


DEMO_KIND = "demo"  # the output marker's kind of a main-job directory (pipeline.base.ownership)
# What the job writes in its out_dir (with overwrite, these are set aside in a foreign directory, never deleted).
DEMO_ENTRIES = ("corpus", "datasets", "runs", "cache", "data_manifests", "report.html", "job.json",
                "sts_results.json")


def _earlier_demo(directory: Path) -> bool:
    """An out_dir this job wrote before output markers: its job.json is the job's summary."""
    try:
        summary = json.loads((directory / "job.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(summary, dict) and {"config", "steps", "total_s", "report"} <= set(summary)


def _claim_out_dir(cfg: MainJobConfig, data: DataDir | None, nli_files: list[str]) -> Path:
    """The job's out_dir: new, empty or a main-job directory (`pipeline.base.ownership`), apart from its inputs."""
    from bsl_pipeline.pipeline.base.ownership import check_not_input, claim_directory, local_only

    local_only(cfg.out_dir, "out_dir")
    out = Path(cfg.out_dir).expanduser()
    inputs = [p for p in [cfg.corpus, *nli_files, data.path if data is not None else ""] if p]
    check_not_input(out, inputs, "out_dir")
    return claim_directory(out, DEMO_KIND, overwrite=cfg.overwrite, own_names=DEMO_ENTRIES, recognise=_earlier_demo)


def run_main_job(cfg: MainJobConfig, on_step_start: StepStarted | None = None,
                 on_step_done: StepDone | None = None) -> MainJobResult:
    """Run the job's steps (each reused from cache when it can be), write the report and `<out_dir>/job.json`.

    Train -> evaluate is `evaluation.train_and_evaluate.train_and_evaluate` (what the train flow runs too): it
    reuses a finished run by its completion record and evaluation reuses the cached embeddings.
    `on_step_start(name)` / `on_step_done(record)` are told about each step before the report (`bsl demo` prints
    them)."""
    from bsl_pipeline.flows.job_report import render_report

    check_job_settings(cfg)
    data = _find_data(cfg)
    nli_files = _nli_files(cfg, data)
    eval_tasks, eval_note = _evaluation_tasks(cfg, data)
    for p in nli_files:
        if not Path(p).exists():
            raise BSLError(f"NLI file not found: {p}")
    if cfg.training.train.max_steps:  # known before any work (with epochs only the data says the steps)
        from bsl_pipeline.training.phases import check_warmup_leaves_training

        check_warmup_leaves_training(cfg.training.objective, cfg.training.train.max_steps, prefix="training.")
    out = _claim_out_dir(cfg, data, nli_files)
    steps = StepTimer(on_step_start, on_step_done)
    t0 = time.perf_counter()

    corpus = steps.run("corpus", _corpus, cfg, out, data)
    methods, params = corpus_methods(cfg)
    datasets = [steps.run("augment corpus", _augment, corpus, out / "datasets" / "sentences",
                          {"methods": methods, "method_params": params,
                           "corpus": {"limit": cfg.corpus_limit, "min_words": 4}}, cfg)]
    for i, nli in enumerate(nli_files):
        name = f"nli-{i}-{Path(nli).name.split('.')[0]}"
        datasets.append(steps.run(f"augment {Path(nli).name}", _augment, Path(nli), out / "datasets" / name,
                                  {"methods": ["nli-entailment"], "corpus": {"limit": cfg.nli_limit}}, cfg))

    encoder = cfg.training.model.name_or_path or bundled_encoder()
    done = train_and_evaluate(_training_config(cfg, encoder, datasets, out),
                              _evaluation_config(cfg, out, data.path, eval_tasks) if eval_tasks else None,
                              baselines=[encoder], disable_progress=not cfg.progress, steps=steps)
    trained, results = done.run, None
    if done.evaluation is not None:
        labels = ("before (encoder)", "after BSL")
        results = {label: r.to_json() for label, r in zip(labels, done.evaluation.values())}
        write_json_atomic(out / "sts_results.json", results)

    facts = _facts(cfg, encoder, trained, datasets, data)
    report = out / "report.html"
    start = time.perf_counter()
    write_text_atomic(report, render_report("BSL main job", datasets, trained.metrics_csv, results, facts,
                                            eval_note=eval_note))
    steps.records.append(StepRecord("report", round(time.perf_counter() - start, 2), False))
    summary = MainJobResult(config=to_dict(cfg), steps=steps.records, total_s=round(time.perf_counter() - t0, 2),
                            report=str(report), results=results, evaluation_note=eval_note, training=trained,
                            facts=facts)
    write_json_atomic(out / "job.json", summary.to_json())
    return summary


TRANSDUCTIVE_NOTE = ("the sts-sick-train corpus holds STS-B train sentences, which STS-B drew from STS12-16: so "
                     "training saw some STS12-16 test sentences (never their scores; the transductive setting "
                     "BERT-flow also used). It holds no STS-B dev/test or SICK trial/test sentence.")


def describe_loss(bsl: BSLConfig) -> str:
    """BSL's loss in the report's words."""
    if bsl.symmetric:
        return "symmetric (both directions)"
    if bsl.online_view == "mixed":
        return "one direction per pair, drawn at random (the online encoder reads view1 or view2)"
    return f"one direction: the online encoder reads {bsl.online_view}"


def describe_recipe(objective: str, nli_pairs: bool) -> str:
    """Which recipe the demo trained with (its installed file, `recipe_path`; its objective replaced by `objective`
    when they differ) and why, in the report's words."""
    recipe_objective = from_dict(TrainConfig, bundled_recipe(), prefix=recipe_source(DEFAULT_RECIPE)).objective.name
    text = f"{DEFAULT_RECIPE} ({recipe_path(DEFAULT_RECIPE)}): {recipe_objective}, the method this job demonstrates"
    if objective != recipe_objective:
        text += f", its objective replaced by training.objective.name={objective}"
    if nli_pairs:
        text += ("; the job also trains on labeled NLI entailment pairs, data the supervised recipe fits "
                 "(bsl recipes; docs/results/training.md)")
    return text


def _facts(cfg: MainJobConfig, encoder: str, trained: TrainedRun, datasets: list[Manifest],
           data: DataDir | None) -> dict[str, Any]:
    bsl = cfg.training.objective.bsl
    nli_pairs = any("nli-entailment" in (m.methods or {}) for m in datasets)
    facts = {"recipe": describe_recipe(cfg.training.objective.name, nli_pairs),
             "encoder": encoder, "training run": trained.run_dir, "steps": trained.step,
             "batch size": cfg.training.train.batch_size, "learning rate": cfg.training.optim.lr,
             "predictor warm-up": f"{bsl.predictor_warmup_steps} steps at lr {bsl.predictor_lr or 'optim.lr'}",
             "loss": describe_loss(bsl),
             "EMA momentum": bsl.momentum, "datasets": ", ".join(m.name for m in datasets),
             "evaluation data": data.describe() if data is not None else "none found"}
    if not cfg.corpus and builtin_corpus(cfg, data) == "sts-sick-train":
        facts["note"] = TRANSDUCTIVE_NOTE
    return facts
