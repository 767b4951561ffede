"""One table from experiments/objective_by_data.sh's parts: per data and method, STS-B dev and test (mean ± sd over
seeds), and per data the differences that matter (the unsupervised recipe, BSL, minus the supervised one, mnrl,
and minus sentence-transformers' MNRL where it ran; the supervised recipe minus that MNRL; per-source objectives
minus the supervised recipe) on STS-B dev and test, with their standard errors. Parts scored on the seven STS test
tasks (TASKS=all) get a second table: each task and their average, mean ± sd over seeds, and the same differences
per task.

    .venv/bin/python experiments/objective_by_data_table.py [--out runs/objective_by_data]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path

PARTS = {"views": "augmentation views only", "st-views": "augmentation views only", "nli": "NLI entailment pairs only",
         "both": "both", "both-contrastive": "both", "both-per-source": "both", "st-both": "both",
         "views-small": "views of an 800-sentence sample", "st-views-small": "views of an 800-sentence sample"}
PER_SOURCE = "recipe:supervised [per-source bsl,mnrl]"
NAMES = {"recipe:unsupervised": "unsupervised recipe (BSL)", "recipe:supervised": "supervised recipe (mnrl)",
         "contrastive": "contrastive", "mnrl": "sentence-transformers' MNRL (its trainer)",
         PER_SOURCE: "per-source: BSL on the views, mnrl on the NLI pairs"}

PAIRS = (("recipe:unsupervised", "recipe:supervised"), ("recipe:unsupervised", "mnrl"), ("recipe:supervised", "mnrl"),
         (PER_SOURCE, "recipe:supervised"))
TASKS = ("sts12", "sts13", "sts14", "sts15", "sts16", "stsb", "sickr", "avg")
TITLES = {"sts12": "STS12", "sts13": "STS13", "sts14": "STS14", "sts15": "STS15", "sts16": "STS16", "stsb": "STS-B",
          "sickr": "SICK-R", "avg": "Avg."}


def _mean_sd(values: list[float]) -> tuple[float, float]:
    return statistics.mean(values), statistics.stdev(values) if len(values) > 1 else float("nan")


def _difference(a: list[float], b: list[float]) -> tuple[float, float]:
    """Difference of the means and its standard error (the two sets of seeds independent)."""
    return (statistics.mean(a) - statistics.mean(b),
            math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b)))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="runs/objective_by_data")
    args = p.parse_args()
    lines = ["| data | method | steps | seeds | STS-B dev | STS-B test | test - encoder |",
             "|---|---|---:|---:|---:|---:|---:|"]
    differences = []
    scores: dict[str, dict[str, list[dict[str, float]]]] = {}  # data -> method -> each seed's scores
    before = None
    all_before = None
    for part, data in PARTS.items():
        path = Path(args.out) / part / "results.json"
        if not path.is_file():
            continue
        saved = json.loads(path.read_text(encoding="utf-8"))
        before = saved["before"]
        by_method: dict[str, list[dict]] = {}
        if "sts12" in saved["before"]:
            all_before = saved["before"]
        for run in saved["runs"]:
            if "scores" in run:
                by_method.setdefault(run.get("label", run["method"]), []).append(run)
        for method, runs in by_method.items():
            dev = _mean_sd([r["scores"]["stsb_dev"] for r in runs])
            test = _mean_sd([r["scores"]["stsb"] for r in runs])
            scores.setdefault(data, {})[method] = [r["scores"] for r in runs]
            steps = "/".join(sorted({str(r["steps"]) for r in runs}))
            lines.append(f"| {data} | {NAMES.get(method, method)} | {steps} | {len(runs)} | "
                         f"{dev[0]:.2f} ± {dev[1]:.2f} | {test[0]:.2f} ± {test[1]:.2f} | "
                         f"{test[0] - before['stsb']:+.2f} |")
    if before is None:
        raise SystemExit(f"no results under {args.out}")
    for data, by in scores.items():
        for a, b in PAIRS:
            if len(by.get(a, [])) > 1 and len(by.get(b, [])) > 1:
                dev, dev_se = _difference([r["stsb_dev"] for r in by[a]], [r["stsb_dev"] for r in by[b]])
                test, se = _difference([r["stsb"] for r in by[a]], [r["stsb"] for r in by[b]])
                differences.append(f"| {data} | {NAMES[a]} - {NAMES[b]} | {dev:+.2f} ± {dev_se:.2f} | "
                                   f"{test:+.2f} ± {se:.2f} | {abs(test) / se if se else float('inf'):.1f} |")
    lines.insert(2, f"| - | all-MiniLM-L6-v2 (before) | 0 | - | {before['stsb_dev']:.2f} | {before['stsb']:.2f} | - |")
    print("\n".join(lines))
    if differences:
        print("\n| data | difference | STS-B dev (mean ± SE) | STS-B test (mean ± SE) | test mean / SE |\n"
              "|---|---|---:|---:|---:|")
        print("\n".join(differences))
    if all_before is not None:
        print("\n" + _seven_tasks(all_before, scores))
    return 0


def _seven_tasks(before: dict[str, float], scores: dict[str, dict[str, list[dict[str, float]]]]) -> str:
    """The seven STS test tasks and their average: mean ± sd over seeds per method, then the differences per task
    (mean ± standard error)."""
    head = "| data | method | seeds | " + " | ".join(TITLES[t] for t in TASKS) + " |"
    lines = [head, "|---|---|---:|" + "---:|" * len(TASKS),
             "| - | all-MiniLM-L6-v2 (before) | - | " + " | ".join(f"{before[t]:.2f}" for t in TASKS) + " |"]
    diffs = ["| data | difference | " + " | ".join(TITLES[t] for t in TASKS) + " |", "|---|---|" + "---:|" * len(TASKS)]
    for data, by in scores.items():
        full = {m: runs for m, runs in by.items() if all("sts12" in r for r in runs)}
        for method, runs in full.items():
            cells = [_mean_sd([r[t] for r in runs]) for t in TASKS]
            lines.append(f"| {data} | {NAMES.get(method, method)} | {len(runs)} | "
                         + " | ".join(f"{m:.2f} ± {sd:.2f}" for m, sd in cells) + " |")
        for a, b in PAIRS:
            if len(full.get(a, [])) > 1 and len(full.get(b, [])) > 1:
                cells = [_difference([r[t] for r in full[a]], [r[t] for r in full[b]]) for t in TASKS]
                diffs.append(f"| {data} | {NAMES[a]} - {NAMES[b]} | "
                             + " | ".join(f"{d:+.2f} ± {se:.2f}" for d, se in cells) + " |")
    return "\n".join(lines) + ("\n\n" + "\n".join(diffs) if len(diffs) > 2 else "")


if __name__ == "__main__":
    raise SystemExit(main())
