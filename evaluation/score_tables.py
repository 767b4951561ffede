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

With `sts17` among the tasks the entry also has `"sts17": {"en-en": x, ..., "avg": x}` (cosine Spearman x100 per
language pair; details: `sts17.pairs.<pair>: {spearman, pearson, n}`); with transfer tasks,
`"transfer": {"mr": acc, ..., "avg": acc}` (test accuracy x100; details: `transfer.<task>: {accuracy,
dev_accuracy, n_train, n_test, C, [f1]}`). Neither enters the STS `avg`; without any Table 1 column the STS keys
and `avg` are absent.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.atomic import atomic_path, write_json_atomic, write_text_atomic
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.evaluation.runner import ModelResult
from bsl_pipeline.evaluation.score_columns import TRANSFER_TITLES, sts17_pair_title
from bsl_pipeline.evaluation.tasks import ALL_TASKS, TASKS, TASKS_BY_NAME, known_tasks


def results_json(results: Mapping[str, ModelResult]) -> dict[str, Any]:
    if len(results) == 1:
        return next(iter(results.values())).to_json()
    return {name: r.to_json() for name, r in results.items()}


def _fmt(x: float | None, width: int = 0) -> str:
    text = "n/a" if x is None or not math.isfinite(x) else f"{x:.2f}"
    return text.rjust(width) if width else text


def _columns(results: Mapping[str, ModelResult]) -> list[str]:
    tasks = {t for r in results.values() for t in r.sts_tasks}
    sts = [t for t in known_tasks() if t in tasks]
    return sts + ["avg"] if sts else []


def _sts_titles(cols: list[str]) -> dict[str, str]:
    return {c: "Avg." if c == "avg" else TASKS_BY_NAME[c].title for c in cols}


def _title(col: str) -> str:
    return _sts_titles([col])[col]


def _extra_tables(results: Mapping[str, ModelResult]) -> list[tuple[str, list[str], dict[str, str], str]]:
    """(heading, columns, titles, note) of the STS17 and transfer tables, for the ones any model has."""
    out = []
    pairs = list(dict.fromkeys(p for r in results.values() for p in r.sts17))
    if pairs:
        out.append(("STS 2017", pairs + ["avg"], {p: sts17_pair_title(p) for p in pairs} | {"avg": "Avg."},
                    "STS 2017: cosine Spearman x100 per language pair"))
    tasks = [t for t in TRANSFER_TITLES if any(t in r.transfer for r in results.values())]
    if tasks:
        out.append(("SentEval transfer tasks", tasks + ["avg"], {**TRANSFER_TITLES, "avg": "Avg."},
                    ("transfer tasks: test accuracy x100 of a logistic regression on frozen embeddings (SentEval "
                     f"protocol: 10-fold CV for {_titles('cv')}, own splits for {_titles('kfold', 'dev')})")))
    return out


def _titles(*protocols: str) -> str:
    return "/".join(t.title for t in TASKS if t.protocol in protocols)


def _sts_note(first: ModelResult) -> str:
    return (f"cosine Spearman x100; STS12-16: '{first.sts_aggregate}' aggregate over subsets; STS-B: test; "
            f"SICK-R: test")


def _extra_scores(r: ModelResult, heading: str) -> dict[str, float]:
    return r.sts17_scores() if heading == "STS 2017" else r.transfer_scores()


@dataclass(frozen=True)
class ScoreTable:
    """One table of results as rows of plain values (for table artifacts and JSON): `name` is "sts", "sts17" or
    "transfer"; each row is `{"model": name, <column title>: score rounded to 2 decimals or None, ...}`."""

    name: str
    heading: str
    note: str
    rows: list[dict[str, str | float | None]]


def _rounded(x: float | None) -> float | None:
    return round(float(x), 2) if x is not None and math.isfinite(x) else None


def _value_rows(results: Mapping[str, ModelResult], cols: list[str], titles: Mapping[str, str],
                row_scores) -> list[dict[str, str | float | None]]:
    rows: list[dict[str, str | float | None]] = []
    for name, r in results.items():
        scores = row_scores(r)
        rows.append({"model": name} | {titles[c]: _rounded(scores.get(c)) for c in cols})
    return rows


def table_sections(results: Mapping[str, ModelResult]) -> list[ScoreTable]:
    """The tables `format_table` prints, as rows of values: the STS table (when a Table 1 column was evaluated),
    then STS 2017 and the transfer tasks (when evaluated); same columns, titles and notes as the printed ones."""
    out = []
    cols = _columns(results)
    if cols:
        first = next(iter(results.values()))
        out.append(ScoreTable("sts", "STS", _sts_note(first),
                              _value_rows(results, cols, _sts_titles(cols), ModelResult.scores)))
    for heading, extra_cols, titles, note in _extra_tables(results):
        name = "sts17" if heading == "STS 2017" else "transfer"
        out.append(ScoreTable(name, heading, note, _value_rows(results, extra_cols, titles,
                                                               lambda r, h=heading: _extra_scores(r, h))))
    return out


def _text_table(results: Mapping[str, ModelResult], cols: list[str], titles: Mapping[str, str],
                row_scores) -> list[str]:
    name_w = max([len("Model")] + [len(n) for n in results])
    col_w = [max(len(titles[c]), 6) for c in cols]
    lines = ["  ".join(["Model".ljust(name_w)] + [titles[c].rjust(w) for c, w in zip(cols, col_w)])]
    lines.append("-" * len(lines[0]))
    for name, r in results.items():
        scores = row_scores(r)
        lines.append("  ".join([name.ljust(name_w)] + [_fmt(scores.get(c), w) for c, w in zip(cols, col_w)]))
    return lines


def format_table(results: Mapping[str, ModelResult]) -> str:
    """A plain-text table, one row per model (the paper's Table 1 layout)."""
    cols = _columns(results)
    lines: list[str] = []
    if cols:
        lines = _text_table(results, cols, _sts_titles(cols), ModelResult.scores)
        lines.append(_sts_note(next(iter(results.values()))))
    for heading, extra_cols, titles, note in _extra_tables(results):
        if lines:
            lines.append("")
        lines += _text_table(results, extra_cols, titles, lambda r, h=heading: _extra_scores(r, h)) + [note]
    return "\n".join(lines)


MARKDOWN_MARK = "written by bsl evaluate"  # a comment in the Markdown saying where it came from (never a proof)


def format_markdown(results: Mapping[str, ModelResult]) -> str:
    cols = _columns(results)
    first = next(iter(results.values()))
    out = ["# Evaluation"]
    if cols:
        out += ["", (f"Spearman correlation x100 between the cosine similarity of the two sentence embeddings and "
                     f"the gold score. STS12-STS16: SentEval '{first.sts_aggregate}' aggregate of each year's "
                     f"subsets; STS-B: test split; SICK-R: test split; Avg.: mean of the columns shown."), "",
                "| Model | " + " | ".join(_title(c) for c in cols) + " |",
                "|---|" + "---:|" * len(cols)]
        for name, r in results.items():
            scores = r.scores()
            out.append(f"| {_md_escape(name)} | " + " | ".join(_fmt(scores.get(c)) for c in cols) + " |")
    for heading, extra_cols, titles, note in _extra_tables(results):
        out += ["", f"## {heading}", "", note[0].upper() + note[1:] + ".", "",
                "| Model | " + " | ".join(titles[c] for c in extra_cols) + " |", "|---|" + "---:|" * len(extra_cols)]
        for name, r in results.items():
            scores = _extra_scores(r, heading)
            out.append(f"| {_md_escape(name)} | " + " | ".join(_fmt(scores.get(c)) for c in extra_cols) + " |")
    for name, r in results.items():
        out += ["", f"## {_md_escape(name)}", ""]
        enc = r.encoder
        out.append(f"Kind: {enc.get('kind', '?')}; pooling: {enc.get('pooling', '?')}; "
                   f"max length: {enc.get('max_length', '?')}; fingerprint: `{str(enc.get('fingerprint'))[:16]}`")
        if any(task not in r.transfer for task in r.tasks):
            out += ["", "| Task | Subset | n | Spearman | Pearson |", "|---|---|---:|---:|---:|"]
        for task in r.tasks:
            protocol, title = TASKS_BY_NAME[task].protocol, TASKS_BY_NAME[task].title
            if protocol == "sts-year":
                year = r.sts[task]
                for subset, s in year.subsets.items():
                    out.append(f"| {title} | {subset} | {s.n} | {_fmt(s.spearman)} | {_fmt(s.pearson)} |")
                for agg in ("all", "mean", "wmean"):
                    s = year.aggregate(agg)
                    mark = "**" if agg == r.sts_aggregate else ""
                    out.append(f"| {title} | {mark}{agg}{mark} | {s.n} | {_fmt(s.spearman)} | "
                               f"{_fmt(s.pearson)} |")
            elif protocol == "sts-test":
                for split, s in r.splits[task].items():
                    out.append(f"| {title} | {split} | {s.n} | {_fmt(s.spearman)} | {_fmt(s.pearson)} |")
            elif protocol == "sts-pairs":
                for pair, s in r.sts17.items():
                    out.append(f"| {title} | {pair} | {s.n} | {_fmt(s.spearman)} | "
                               f"{_fmt(s.pearson)} |")
        if r.transfer:
            out += ["", "| Transfer task | train | test | C | dev/CV acc. | test acc. | F1 |",
                    "|---|---:|---:|---|---:|---:|---:|"]
            for task, t in r.transfer.items():
                c = ", ".join(f"{x:g}" for x in t.c) if isinstance(t.c, list) else f"{t.c:g}"
                out.append(f"| {TRANSFER_TITLES[task]} | {t.n_train} | {t.n_test} | {c} | {_fmt(t.dev_accuracy)} | "
                           f"{_fmt(t.accuracy)} | {_fmt(t.f1) if t.f1 is not None else ''} |")
    return "\n".join(out + ["", f"<!-- {MARKDOWN_MARK} -->"]) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def write_json(results: Mapping[str, ModelResult], path: str | Path) -> None:
    write_json_atomic(path, results_json(results))


def write_markdown(results: Mapping[str, ModelResult], path: str | Path) -> None:
    write_text_atomic(path, format_markdown(results))


PLOT_SOFTWARE = "bsl evaluate"  # the PNG's Software text (what made it; never a proof of ownership)


def plot_range(scores: list[float]) -> tuple[float, float]:
    """The y-axis of the plot: from 10 below the lowest score (in steps of 10, not below 0 unless a score is) to
    100, so that the differences between models show (STS scores of trained encoders sit between 60 and 90)."""
    if not scores:
        return 0.0, 100.0
    low = min(scores)
    bottom = math.floor((low - 10) / 10) * 10 if low < 0 else max(0.0, math.floor((low - 10) / 10) * 10)
    return float(bottom), 100.0


def write_plot(results: Mapping[str, ModelResult], path: str | Path) -> None:
    """A grouped bar chart: one group per column (tasks + Avg.), one bar per model."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    cols = _columns(results)
    if not cols:
        raise BSLError("the plot shows the STS table (Table 1): evaluate at least one of "
                       f"{', '.join(ALL_TASKS)} to plot")
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
        ax.set_ylim(*plot_range(finite))
        ax.set_title("STS evaluation")
        ax.grid(axis="y", alpha=0.3)
        # Below the axes, never over the bars.
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=min(n_models, 3), frameon=False)
        fig.tight_layout()
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format="png", dpi=120, bbox_inches="tight", metadata={"Software": PLOT_SOFTWARE})
    finally:
        plt.close(fig)


def _short_label(name: str, limit: int = 40) -> str:
    # Checkpoint paths are long; the tail (run/checkpoint name) is what tells bars apart.
    return name if len(name) <= limit else "…" + name[-(limit - 1):]
