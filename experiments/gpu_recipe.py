"""The GPU recipe against sentence-transformers' MNRL on the same views: seven STS test tasks per run.

    python experiments/gpu_recipe.py --minilm DIR --out DIR [--steps 2000] [--seeds 42,43,44] [--methods bsl,mnrl]
        [--data-dir DIR] [--parallel N]

- `bsl`: `configs/train_bsl_minilm_gpu.yaml` as written (its datasets, batch, optimizer, predictor warm-up, STS-B dev
  every 100 steps, export of the final model), with `train.max_steps=--steps`, `train.seed` and the output dir
  set, plus any `--set KEY=VALUE`.
- `mnrl`: sentence-transformers' `MultipleNegativesRankingLoss` in its `SentenceTransformerTrainer` on the pairs of
  the same datasets (view1, view2), the recipe's batch, max length, learning rate, weight decay and linear schedule
  with 10% warm-up, bf16 on CUDA (`experiments/compare_peers.py`'s `train_st`).
- `encoder`: the starting model, untrained.

Every run is evaluated by the evaluation stage on STS12-16, STS-B test and SICK-R (Spearman x100, max length 256)
and on STS-B dev. Each (method, seed) is its own process; `--parallel N` runs N of them at once on the one device
(a MiniLM step leaves most of a large GPU idle): scores only, no timings are taken from such runs
(`benchmarks/bench_gpu.py` measures speed, alone on the device). Results: <out>/results.json (every run, written
as each finishes) and <out>/table.md (mean and spread over seeds; gain over the encoder; BSL minus MNRL).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "experiments"))

from compare_peers import ALL_TASKS, evaluate  # the seven STS tasks and their evaluation
RECIPE = REPO / "configs" / "train_bsl_minilm_gpu.yaml"


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--minilm", required=True, help="all-MiniLM-L6-v2 model dir (the encoder every run starts from)")
    p.add_argument("--out", required=True, help="results folder")
    p.add_argument("--data-dir", default="", help="STS data dir; default: the one every command finds")
    p.add_argument("--steps", type=int, default=2000, help="optimizer steps of every run")
    p.add_argument("--seeds", default="42,43,44")
    p.add_argument("--methods", default="bsl,mnrl", help="comma-separated: bsl, mnrl")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override on the BSL recipe")
    p.add_argument("--parallel", type=int, default=1, help="runs at once on the one device")
    p.add_argument("--device", default="auto", help="auto (cuda when available) or cpu")
    p.add_argument("--eval-max-length", type=int, default=256)
    p.add_argument("--one", help=argparse.SUPPRESS)  # METHOD:SEED, a child process's single run
    return p.parse_args(argv)


def recipe_sources() -> list[str]:
    import yaml

    recipe = yaml.safe_load(RECIPE.read_text(encoding="utf-8"))
    return [str(Path(s["path"]).resolve()) for s in recipe["data"]["sources"]]


def train_bsl(args, seed: int, out: Path) -> dict:
    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.evaluation import dev_evaluators
    from bsl_pipeline.training import train
    from bsl_pipeline.training.config import TrainConfig

    overrides = [f"model.name_or_path={args.minilm}", f"train.max_steps={args.steps}", f"train.seed={seed}",
                 f"train.output_dir={out}", f"train.device={args.device}", *args.set]
    config = load_config(TrainConfig, str(RECIPE), overrides)
    result = train(config, evaluators=dev_evaluators(config.eval), disable_progress=True)
    return {"export": str(result.export_dir), "steps": result.step, "best_dev": result.best_metric,
            "overrides": overrides}


def train_mnrl(args, seed: int, out: Path) -> dict:
    import torch
    from compare_peers import load_pairs, train_st

    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.config import TrainConfig

    recipe = load_config(TrainConfig, str(RECIPE), [])
    peer = SimpleNamespace(max_length=recipe.model.max_length, batch_size=recipe.train.batch_size,
                           lr=recipe.optim.lr)
    device = "cuda" if args.device == "auto" and torch.cuda.is_available() else \
        ("cpu" if args.device == "auto" else args.device)
    r = train_st("mnrl", load_pairs(recipe_sources()), peer, args.minilm, args.steps, seed, out, device=device)
    return {"export": r["export"], "steps": args.steps}


def one_run(args) -> int:
    """A child: train one (method, seed), evaluate it, write <out>/runs/<method>-<seed>.json."""
    method, seed = args.one.split(":")
    seed_n = int(seed)
    out = Path(args.out)
    where = out / f"{method}-seed{seed}"
    start = time.perf_counter()
    if method == "encoder":
        r: dict = {"export": args.minilm}
    else:
        r = (train_bsl if method == "bsl" else train_mnrl)(args, seed_n, where)
    r["train_seconds"] = time.perf_counter() - start
    r["scores"] = evaluate(r["export"], SimpleNamespace(tasks="all", eval_max_length=args.eval_max_length), None,
                           args.data_dir, device=args.device, batch_size=None)
    r.update(method=method, seed=seed_n)
    (out / "runs").mkdir(parents=True, exist_ok=True)
    (out / "runs" / f"{method}-{seed}.json").write_text(json.dumps(r, indent=2), encoding="utf-8")
    print(f"{method} seed {seed}: avg {r['scores']['avg']:.2f} dev {r['scores']['stsb_dev']:.2f} "
          f"({r['train_seconds']:.0f} s)", flush=True)
    return 0


def spread(values: list[float]) -> str:
    mean = statistics.fmean(values)
    return f"{mean:.2f} ± {statistics.stdev(values):.2f}" if len(values) > 1 else f"{mean:.2f}"


def table(runs: list[dict]) -> str:
    by: dict[str, list[dict]] = {}
    for r in runs:
        by.setdefault(r["method"], []).append(r)
    cols = ("stsb_dev", *ALL_TASKS, "avg")
    lines = ["| method | seeds | " + " | ".join(cols) + " |", "|---|---|" + "---|" * len(cols)]
    for method, rs in by.items():
        lines.append(f"| {method} | {len(rs)} | " + " | ".join(
            spread([r["scores"][c] for r in rs]) for c in cols) + " |")
    base = by.get("encoder", [None])[0]
    for method in ("bsl", "mnrl"):
        if base and method in by:
            gains = [r["scores"]["avg"] - base["scores"]["avg"] for r in by[method]]
            lines.append(f"\n{method} - encoder (avg of 7): {spread(gains)}")
    if "bsl" in by and "mnrl" in by:
        pairs = {r["seed"]: r["scores"]["avg"] for r in by["mnrl"]}
        diffs = [r["scores"]["avg"] - pairs[r["seed"]] for r in by["bsl"] if r["seed"] in pairs]
        if diffs:
            lines.append(f"bsl - mnrl, same seed (avg of 7): {spread(diffs)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("BSL_NO_PROGRESS", "1")
    args = _arguments(argv)
    if args.one:
        return one_run(args)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    jobs = [f"{m}:{s}" for s in args.seeds.split(",") for m in args.methods.split(",")] + ["encoder:0"]
    child = [sys.executable, str(Path(__file__).resolve()), *(argv if argv is not None else sys.argv[1:])]
    running: list[tuple[str, subprocess.Popen]] = []
    failed: list[str] = []
    while jobs or running:
        while jobs and len(running) < max(1, args.parallel):
            job = jobs.pop(0)
            log = open(out / f"log-{job.replace(':', '-')}.txt", "w", encoding="utf-8")  # noqa: SIM115
            running.append((job, subprocess.Popen([*child, "--one", job], stdout=log, stderr=subprocess.STDOUT)))
            print(f"started {job}", flush=True)
        time.sleep(2)
        for job, proc in list(running):
            if proc.poll() is not None:
                running.remove((job, proc))
                print(f"{job} finished with {proc.returncode}", flush=True)
                if proc.returncode:
                    failed.append(job)
        runs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((out / "runs").glob("*.json"))] \
            if (out / "runs").is_dir() else []
        (out / "results.json").write_text(json.dumps({"args": vars(args), "runs": runs}, indent=2),
                                          encoding="utf-8")
        (out / "table.md").write_text(table(runs) + "\n", encoding="utf-8")
    print(table(runs))
    if failed:
        print(f"failed: {', '.join(failed)} (logs in {out})")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
