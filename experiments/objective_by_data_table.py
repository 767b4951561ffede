"""One table from experiments/objective_by_data.sh's parts: per data and method, STS-B dev and test (mean ± sd over
seeds), and per data the differences on STS-B test that matter (the unsupervised recipe, BSL, minus the supervised
one, mnrl, and minus sentence-transformers' MNRL where it ran; the supervised recipe minus that MNRL) with their
standard errors.

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

PAIRS = (("recipe:unsupervised", "recipe:supervised"), ("recipe:unsupervised", "mnrl"), ("recipe:supervised", "mnrl"))


def _mean_sd(values: list[float]) -> tuple[float, float]:
    return statistics.mean(values), statistics.stdev(values) if len(values) > 1 else float("nan")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="runs/objective_by_data")
    args = p.parse_args()
    lines = ["| data | method | steps | seeds | STS-B dev | STS-B test | test - encoder |",
             "|---|---|---:|---:|---:|---:|---:|"]
    differences = []
    tests: dict[str, dict[str, list[float]]] = {}
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
        for method, runs in by_method.items():
            dev = _mean_sd([r["scores"]["stsb_dev"] for r in runs])
            test = _mean_sd([r["scores"]["stsb"] for r in runs])
            tests.setdefault(data, {})[method] = [r["scores"]["stsb"] for r in runs]
            steps = "/".join(sorted({str(r["steps"]) for r in runs}))
            lines.append(f"| {data} | {NAMES.get(method, method)} | {steps} | {len(runs)} | "
                         f"{dev[0]:.2f} ± {dev[1]:.2f} | {test[0]:.2f} ± {test[1]:.2f} | "
                         f"{test[0] - before['stsb']:+.2f} |")
    if before is None:
        raise SystemExit(f"no results under {args.out}")
    for data, by in tests.items():
        for a, b in PAIRS:
            if len(by.get(a, [])) > 1 and len(by.get(b, [])) > 1:
                diff = statistics.mean(by[a]) - statistics.mean(by[b])
                se = math.sqrt(statistics.variance(by[a]) / len(by[a]) + statistics.variance(by[b]) / len(by[b]))
                differences.append(f"| {data} | {NAMES[a]} - {NAMES[b]} | {diff:+.2f} | {se:.2f} | "
                                   f"{abs(diff) / se if se else float('inf'):.1f} |")
    lines.insert(2, f"| - | all-MiniLM-L6-v2 (before) | 0 | - | {before['stsb_dev']:.2f} | {before['stsb']:.2f} | - |")
    print("\n".join(lines))
    if differences:
        print("\n| data | difference on STS-B test | mean | standard error | mean / SE |\n|---|---|---:|---:|---:|")
        print("\n".join(differences))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
