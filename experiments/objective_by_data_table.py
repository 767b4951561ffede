"""One table from experiments/objective_by_data.sh's parts: per data and method, STS-B dev and test (mean ± sd over
seeds), and per data the unsupervised recipe (BSL) minus the supervised one (mnrl) with its standard error.

    .venv/bin/python experiments/objective_by_data_table.py [--out runs/objective_by_data]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path

PARTS = {"views": "augmentation views only", "st-views": "augmentation views only", "nli": "NLI entailment pairs only",
         "both": "both", "both-contrastive": "both"}
NAMES = {"recipe:unsupervised": "unsupervised recipe (BSL)", "recipe:supervised": "supervised recipe (mnrl)",
         "contrastive": "contrastive", "mnrl": "sentence-transformers' MNRL (its trainer)"}


def _mean_sd(values: list[float]) -> tuple[float, float]:
    return statistics.mean(values), statistics.stdev(values) if len(values) > 1 else float("nan")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="runs/objective_by_data")
    args = p.parse_args()
    lines = ["| data | method | steps | seeds | STS-B dev | STS-B test | test - encoder |",
             "|---|---|---:|---:|---:|---:|---:|"]
    differences = []
    before = None
    for part, data in PARTS.items():
        path = Path(args.out) / part / "results.json"
        if not path.is_file():
            continue
        saved = json.loads(path.read_text(encoding="utf-8"))
        before = saved["before"]
        by_method: dict[str, list[dict]] = {}
        for run in saved["runs"]:
            if "scores" in run:
                by_method.setdefault(run["method"], []).append(run)
        tests = {}
        for method, runs in by_method.items():
            dev = _mean_sd([r["scores"]["stsb_dev"] for r in runs])
            test = _mean_sd([r["scores"]["stsb"] for r in runs])
            tests[method] = [r["scores"]["stsb"] for r in runs]
            steps = "/".join(sorted({str(r["steps"]) for r in runs}))
            lines.append(f"| {data} | {NAMES.get(method, method)} | {steps} | {len(runs)} | "
                         f"{dev[0]:.2f} ± {dev[1]:.2f} | {test[0]:.2f} ± {test[1]:.2f} | "
                         f"{test[0] - before['stsb']:+.2f} |")
        bsl, mnrl = tests.get("recipe:unsupervised"), tests.get("recipe:supervised")
        if bsl and mnrl and len(bsl) > 1 and len(mnrl) > 1:
            diff = statistics.mean(bsl) - statistics.mean(mnrl)
            se = math.sqrt(statistics.variance(bsl) / len(bsl) + statistics.variance(mnrl) / len(mnrl))
            differences.append(f"| {data} | {diff:+.2f} | {se:.2f} | {abs(diff) / se if se else float('inf'):.1f} |")
    if before is None:
        raise SystemExit(f"no results under {args.out}")
    lines.insert(2, f"| - | all-MiniLM-L6-v2 (before) | 0 | - | {before['stsb_dev']:.2f} | {before['stsb']:.2f} | - |")
    print("\n".join(lines))
    if differences:
        print("\n| data | BSL - mnrl, STS-B test | standard error | difference / SE |\n|---|---:|---:|---:|")
        print("\n".join(differences))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
