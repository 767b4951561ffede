"""Turn evaluation results into the printed table, JSON, Markdown and a PNG bar chart.

JSON shape (`results_json`):

- one model: `{"sts12": x, ..., "sts16": x, "stsb": x, "sickr": x, "avg": x, "details": {...}}`
- several models: `{"<model name>": {<the same keys as for one model>}, ...}`, in command-line order; the name
  is the model argument as given ("#2" appended to a repeated one).

Each x is the cosine Spearman x100 of that column (null where undefined, e.g. a model whose similarities are all
equal); only the evaluated tasks appear, and `avg` is their mean. `details` holds:
`model` (kind, pooling, max_length, fingerprint, ...), `metric`, `sts_aggregate` (which per-year aggregate the
sts1x keys and avg use), `avg.tasks`, and per task:
`sts1x: {"all"|"mean"|"wmean": {spearman, pearson, n}, "subsets": {<subset>: {spearman, pearson, n}}}`,
`stsb: {"test": {...}, "dev": {...}}`, `sickr: {"test": {...}}`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pipeline.base.atomic import atomic_path, write_json_atomic, write_text_atomic
from pipeline.evaldata.sts_columns import STS_TITLES
from training.evaluation.data import ALL_TASKS, STS_SUBSETS
from training.evaluation.runner import ModelResult


def results_json(results: Mapping[str, ModelResult]) -> dict[str, Any]:
    if len(results) == 1:
        return next(iter(results.values())).to_json()
    return {name: r.to_json() for name, r in results.items()}


def _fmt(x: float | None, width: int = 0) -> str:
    text = "n/a" if x is None or not math.isfinite(x) else f"{x:.2f}"
    return text.rjust(width) if width else text


def _columns(results: Mapping[str, ModelResult]) -> list[str]:
    tasks = {t for r in results.values() for t in r.tasks}
    return [t for t in ALL_TASKS if t in tasks] + ["avg"]


def _title(col: str) -> str:
    return STS_TITLES[col]


def format_table(results: Mapping[str, ModelResult]) -> str:
    """A plain-text table, one row per model (the paper's Table 1 layout)."""
    cols = _columns(results)
    name_w = max([len("Model")] + [len(n) for n in results])
    col_w = [max(len(_title(c)), 6) for c in cols]
    lines = ["  ".join(["Model".ljust(name_w)] + [_title(c).rjust(w) for c, w in zip(cols, col_w)])]
    lines.append("-" * len(lines[0]))
    for name, r in results.items():
        scores = r.scores()
        lines.append("  ".join([name.ljust(name_w)] + [_fmt(scores.get(c), w) for c, w in zip(cols, col_w)]))
    first = next(iter(results.values()))
    note = (f"cosine Spearman x100; STS12-16: '{first.sts_aggregate}' aggregate over subsets; "
            f"STS-B: test; SICK-R: test")
    return "\n".join(lines + [note])


def format_markdown(results: Mapping[str, ModelResult]) -> str:
    cols = _columns(results)
    first = next(iter(results.values()))
    out = ["# STS evaluation", "",
           f"Spearman correlation x100 between the cosine similarity of the two sentence embeddings and the gold "
           f"score. STS12-STS16: SentEval '{first.sts_aggregate}' aggregate of each year's subsets; STS-B: test "
           f"split; SICK-R: test split; Avg.: mean of the columns shown.", "",
           "| Model | " + " | ".join(_title(c) for c in cols) + " |",
           "|---|" + "---:|" * len(cols)]
    for name, r in results.items():
        scores = r.scores()
        out.append(f"| {_md_escape(name)} | " + " | ".join(_fmt(scores.get(c)) for c in cols) + " |")
    for name, r in results.items():
        out += ["", f"## {_md_escape(name)}", ""]
        enc = r.encoder
        out.append(f"Kind: {enc.get('kind', '?')}; pooling: {enc.get('pooling', '?')}; "
                   f"max length: {enc.get('max_length', '?')}; fingerprint: `{str(enc.get('fingerprint'))[:16]}`")
        out += ["", "| Task | Subset | n | Spearman | Pearson |", "|---|---|---:|---:|---:|"]
        for task in r.tasks:
            if task in STS_SUBSETS:
                year = r.sts[task]
                for subset, s in year.subsets.items():
                    out.append(f"| {STS_TITLES[task]} | {subset} | {s.n} | {_fmt(s.spearman)} | {_fmt(s.pearson)} |")
                for agg in ("all", "mean", "wmean"):
                    s = year.aggregate(agg)
                    mark = "**" if agg == r.sts_aggregate else ""
                    out.append(f"| {STS_TITLES[task]} | {mark}{agg}{mark} | {s.n} | {_fmt(s.spearman)} | "
                               f"{_fmt(s.pearson)} |")
            else:
                splits = r.stsb if task == "stsb" else r.sickr
                for split, s in splits.items():
                    out.append(f"| {STS_TITLES[task]} | {split} | {s.n} | {_fmt(s.spearman)} | {_fmt(s.pearson)} |")
    return "\n".join(out) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def write_json(results: Mapping[str, ModelResult], path: str | Path) -> None:
    write_json_atomic(path, results_json(results))


def write_markdown(results: Mapping[str, ModelResult], path: str | Path) -> None:
    write_text_atomic(path, format_markdown(results))


def write_plot(results: Mapping[str, ModelResult], path: str | Path) -> None:
    """A grouped bar chart: one group per column (tasks + Avg.), one bar per model."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    cols = _columns(results)
    names = list(results)
    n_models = len(names)
    x = np.arange(len(cols))
    width = 0.8 / n_models
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(cols) + 0.4 * n_models * len(cols) / 2), 4.5))
    try:
        for i, name in enumerate(names):
            scores = results[name].scores()
            values = [scores.get(c, float("nan")) for c in cols]
            heights = [v if math.isfinite(v) else 0.0 for v in values]
            bars = ax.bar(x - 0.4 + width * (i + 0.5), heights, width, label=_short_label(name))
            if n_models <= 3:
                for bar, v in zip(bars, values):
                    ax.annotate(_fmt(v), (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                                ha="center", va="bottom", fontsize=7, xytext=(0, 2), textcoords="offset points")
        ax.set_xticks(x)
        ax.set_xticklabels([_title(c) for c in cols])
        ax.set_ylabel("Spearman x100 (cosine)")
        finite = [v for r in results.values() for v in r.scores().values() if math.isfinite(v)]
        ax.set_ylim(min([0.0] + finite), 100)
        ax.set_title("STS evaluation")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
        fig.tight_layout()
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format="png", dpi=120)
    finally:
        plt.close(fig)


def _short_label(name: str, limit: int = 40) -> str:
    # Checkpoint paths are long; the tail (run/checkpoint name) is what tells bars apart.
    return name if len(name) <= limit else "…" + name[-(limit - 1):]
