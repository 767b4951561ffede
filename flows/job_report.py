"""The end-of-job HTML report: view-pair samples per method, dataset statistics, the training loss curve, the
STS table + chart, and beside it the SentEval transfer table and STS 2017 per language pair when those tasks were
evaluated. It only reads what the stages wrote (manifests, the trainer's metrics.csv, the evaluation JSON entries:
`sts12` ... `avg`, `transfer: {task: accuracy, avg}`, `sts17: {pair: spearman, avg}`, as the evaluation
stage's results JSON has them), so it can be rebuilt from them at any time."""

from __future__ import annotations

import base64
import csv
import html
import io
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.run_phases import TRAIN_PHASE
from bsl_pipeline.pipeline.dataset.inspection import CSS, PairQuery, pair_table_html, sample
from bsl_pipeline.pipeline.dataset.manifest import (
    DISTRIBUTION_TITLES,
    Manifest,
    distribution_text,
    figure_text,
    stats_rows,
)
from bsl_pipeline.evaluation.score_columns import (
    STS_COLUMNS,
    STS_TITLES,
    TRANSFER_TITLES,
    sts17_pair_title,
)

#: Headings of the tables beside the STS one.
TRANSFER_HEADING = "SentEval transfer (accuracy)"
STS17_HEADING = "STS 2017 (Spearman x100)"


def _png_data_uri(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def read_metrics_csv(path: str | Path) -> list[dict[str, Any]]:
    """The trainer's metrics.csv rows with a step and a loss: numbers as floats, plus the `phase` text."""
    rows = []
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            parsed: dict[str, Any] = {}
            for k, v in row.items():
                try:
                    parsed[k] = float(v)
                except (TypeError, ValueError):
                    continue
            if row.get("phase"):
                parsed["phase"] = row["phase"]
            if "step" in parsed and "loss" in parsed:
                rows.append(parsed)
    return rows


def warmup_span(rows: list[dict[str, Any]]) -> tuple[str, float, float] | None:
    """(phase, first step, last step) of the warm-up that opens the run (logged rows whose phase is not "train"),
    or None. A logged step is the end of its window, so the span starts at step 0."""
    warm = [r for r in rows if r.get("phase", TRAIN_PHASE) != TRAIN_PHASE]
    if not warm:
        return None
    return str(warm[0]["phase"]), 0.0, max(r["step"] for r in warm)


def loss_curve_uri(rows: list[dict[str, Any]]) -> str | None:
    if not rows:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.2))
    span = warmup_span(rows)
    if span is not None:
        ax.axvspan(span[1], span[2], color="#fc9", alpha=0.35, lw=0, label=f"{span[0]} (encoder frozen)")
    ax.plot([r["step"] for r in rows], [r["loss"] for r in rows], lw=1.4, color="#225", label="loss")
    if span is not None:
        ax.legend(fontsize=8, loc="upper right")
    ax.set_xlabel("step")
    ax.set_ylabel("training loss")
    ax.grid(alpha=0.3)
    uri = _png_data_uri(fig)
    plt.close(fig)
    return uri


def sts_chart_uri(results: dict[str, dict[str, Any]]) -> str | None:
    if not results:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(results)
    cols = [c for c in STS_COLUMNS if any(results[n].get(c) is not None for n in names)]
    fig, ax = plt.subplots(figsize=(8, 3.4))
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        values = [results[name].get(c) or 0.0 for c in cols]
        ax.bar([x + i * width for x in range(len(cols))], values, width, label=name)
    ax.set_xticks([x + width * (len(names) - 1) / 2 for x in range(len(cols))])
    ax.set_xticklabels([STS_TITLES[c] for c in cols])
    ax.set_ylabel("Spearman x100")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    uri = _png_data_uri(fig)
    plt.close(fig)
    return uri


def sts_changes(results: dict[str, dict[str, Any]]) -> dict[str, tuple[float, float, float, int]] | None:
    """Per STS column: (mean, lowest, highest) of after minus before, and how many runs. The first entry of
    `results` is the model before training; every other entry is a run after it (several: seeds of one setting).
    None when there is no before and after pair of numbers."""
    names = list(results)
    if len(names) < 2:
        return None
    before, runs = results[names[0]], [results[n] for n in names[1:]]
    out = {}
    for c in STS_COLUMNS:
        if before.get(c) is None:
            continue
        deltas = [r[c] - before[c] for r in runs if r.get(c) is not None]
        if deltas:
            out[c] = (sum(deltas) / len(deltas), min(deltas), max(deltas), len(deltas))
    return out or None


def change_text(change: float) -> str:
    """A change as the report writes it: signed, with two decimals; one that rounds to zero is "0.00", never
    "-0.00" (no change is no change, whichever side of zero the float fell)."""
    return "0.00" if round(change, 2) == 0 else f"{change:+.2f}"


def sts_change_chart_uri(results: dict[str, dict[str, Any]]) -> str | None:
    """The change per STS task (after minus before, Spearman x100) as bars from 0, with the spread of the runs
    (lowest to highest) where there are several."""
    changes = sts_changes(results)
    if not changes:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = list(changes)
    means = [changes[c][0] for c in cols]
    runs = max(changes[c][3] for c in cols)
    fig, ax = plt.subplots(figsize=(8, 3.0))
    colours = ["#999" if change_text(m) == "0.00" else "#2a6" if m > 0 else "#c33" for m in means]
    bars = ax.bar(range(len(cols)), means, 0.6, color=colours)
    if runs > 1:
        low = [changes[c][0] - changes[c][1] for c in cols]
        high = [changes[c][2] - changes[c][0] for c in cols]
        ax.errorbar(range(len(cols)), means, yerr=[low, high], fmt="none", ecolor="#333", capsize=4, lw=1)
    for bar, m in zip(bars, means):
        x = bar.get_x() + (0.04 if runs > 1 else bar.get_width() / 2)  # beside the spread's line, not on it
        ax.annotate(change_text(m), (x, m), ha="left" if runs > 1 else "center",
                    va="bottom" if m >= 0 else "top", fontsize=8, xytext=(0, 2 if m >= 0 else -2),
                    textcoords="offset points")
    ax.axhline(0, color="#333", lw=0.8)
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels([STS_TITLES[c] for c in cols])
    names = list(results)
    spread = f", mean of {runs} runs (lowest to highest)" if runs > 1 else ""
    ax.set_ylabel("change (Spearman x100)")
    ax.set_title(f"{names[1] if runs == 1 else 'after'} minus {names[0]}{spread}", fontsize=9)
    ax.grid(axis="y", alpha=0.3)
    uri = _png_data_uri(fig)
    plt.close(fig)
    return uri


def _score_table(rows: dict[str, dict[str, Any]], cols: list[str], titles: dict[str, str]) -> str:
    """One row per model label, one column per key of `cols` ("-" where the model has no number)."""
    e = html.escape
    head = "".join(f"<th>{e(titles[c])}</th>" for c in cols)
    body = []
    for name, r in rows.items():
        cells = "".join(f'<td class="num">{"-" if r.get(c) is None else f"{r[c]:.2f}"}</td>' for c in cols)
        body.append(f"<tr><td>{e(name)}</td>{cells}</tr>")
    return f"<table><tr><th>model</th>{head}</tr>{''.join(body)}</table>"


def _has_sts(results: dict[str, dict[str, Any]]) -> bool:
    return any(r.get(c) is not None for r in results.values() for c in STS_COLUMNS)


def _sts_table(results: dict[str, dict[str, Any]]) -> str:
    return _score_table(results, list(STS_COLUMNS), STS_TITLES)


def transfer_and_sts17_tables(results: dict[str, dict[str, Any]]) -> list[tuple[str, str]]:
    """(heading, HTML table) of the SentEval transfer table and the STS 2017 table, for those any entry has:
    transfer columns in SentEval's order, language pairs in the order evaluated, each with its Avg."""
    out = []
    transfer = {name: r.get("transfer") or {} for name, r in results.items()}
    tasks = [t for t in TRANSFER_TITLES if any(t in scores for scores in transfer.values())]
    if tasks:
        out.append((TRANSFER_HEADING, _score_table(transfer, tasks + ["avg"], {**TRANSFER_TITLES, "avg": "Avg."})))
    sts17 = {name: r.get("sts17") or {} for name, r in results.items()}
    pairs = list(dict.fromkeys(p for scores in sts17.values() for p in scores if p != "avg"))
    if pairs:
        out.append((STS17_HEADING, _score_table(sts17, pairs + ["avg"],
                                                {p: sts17_pair_title(p) for p in pairs} | {"avg": "Avg."})))
    return out


def _stats_table(manifest: Manifest) -> str:
    e = html.escape
    rows = stats_rows(manifest)
    if not rows:
        return ""
    headers = list(rows[0])
    body = "".join("<tr>" + "".join(_stat_cell(r[h]) for h in headers) + "</tr>" for r in rows)
    return "<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in headers) + f"</tr>{body}</table>"


def _stat_cell(value: Any) -> str:
    """A cell of the dataset table: numbers right-aligned, fractions to 3 decimals, "-" for none."""
    if isinstance(value, (int, float)):
        return f'<td class="num">{figure_text(value)}</td>'
    return f"<td>{html.escape(figure_text(value))}</td>"


def _judged_table(manifest: Manifest) -> str:
    """The judged views of a dataset (`bsl review`), "" when none; a judgments file of other pairs is named."""
    from bsl_pipeline.pipeline.base.errors import InputError
    from bsl_pipeline.pipeline.dataset.judgments import FIGURE_HEADERS, dataset_figures, figure_rows

    e = html.escape
    try:
        figures = dataset_figures(manifest)
    except InputError as exc:
        return f"<p class='meta'>judged views: not counted ({e(str(exc))})</p>"
    if figures is None:
        return ""
    head = "".join(f"<th>{e(h)}</th>" for h in FIGURE_HEADERS)
    body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in figure_rows(figures))
    dropped = f"<p class='meta'>not counted: {e(figures.dropped)}</p>" if figures.dropped else ""
    return (f"<h3>Judged views (bsl review)</h3><p class='meta'>usable share with its 95% Wilson interval; judged "
            f"by {e(', '.join(figures.reviewers))}; pairs two reviewers marked differently: "
            f"{figures.disagreements}</p><table><tr>{head}</tr>{body}</table>{dropped}")


def render_report(title: str, datasets: list[Manifest], metrics_csv: str | Path | None = None,
                  eval_results: dict[str, dict[str, Any]] | None = None, facts: dict[str, Any] | None = None,
                  samples_per_method: int = 8, seed: int = 0, eval_note: str = "") -> str:
    """`eval_results` maps a model label to its evaluation entry (keys sts12 ... avg, and `transfer` / `sts17` when
    those tasks ran); `eval_note` says what was not evaluated and why (e.g. no evaluation data)."""
    e = html.escape
    parts = [f"<h1>{e(title)}</h1>"]
    if facts:
        parts.append("<table>" + "".join(f"<tr><th>{e(str(k))}</th><td>{e(str(v))}</td></tr>"
                                         for k, v in facts.items()) + "</table>")
    has_sts = bool(eval_results) and _has_sts(eval_results)
    if has_sts or eval_note:
        parts.append("<h2>STS results (Spearman x100 of cosine similarity)</h2>")
    if eval_note:
        parts.append(f"<p class='meta'>{e(eval_note)}</p>")
    if eval_results and has_sts:
        parts.append(_sts_table(eval_results))
        uri = sts_chart_uri(eval_results)
        if uri:
            parts.append(f'<img alt="STS chart" src="{uri}">')
        changes = sts_changes(eval_results)
        if changes and all(change_text(m) == "0.00" for m, _, _, _ in changes.values()):
            parts.append("<h3>Change per task (after minus before)</h3><p class='meta'>no change on any task: the "
                         "trained model scores as the model before training</p>")
        elif (uri := sts_change_chart_uri(eval_results)):
            parts.append("<h3>Change per task (after minus before)</h3><p class='meta'>"
                         + e(" · ".join(f"{STS_TITLES[c]} {change_text(m)}" for c, (m, _, _, _) in changes.items()))
                         + f'</p><img alt="STS change chart" src="{uri}">')
    for heading, table in transfer_and_sts17_tables(eval_results or {}):
        parts.append(f"<h2>{e(heading)}</h2>{table}")
    if metrics_csv and Path(metrics_csv).is_file():
        rows = read_metrics_csv(metrics_csv)
        uri = loss_curve_uri(rows)
        if uri:
            span = warmup_span(rows)
            warm = (f"; steps 1-{span[2]:.0f}: {span[0]} (shaded), only the predictor trains, the encoder and its "
                    f"EMA target stay as they were" if span else "")
            parts.append(f"<h2>Training loss</h2><p class='meta'>{len(rows)} logged steps, last loss "
                         f"{rows[-1]['loss']:.4f}{e(warm)}</p><img alt='loss curve' src='{uri}'>")
    for manifest in datasets:
        manifest.require("source", "stats")
        src, stats = manifest.source, manifest.stats
        parts.append(f"<h2>Dataset {e(manifest.name)}</h2><p class='meta'>corpus {e(src.corpus)}: "
                     f"{src.records_read} records read, {src.records_kept} kept · "
                     f"{stats.pairs} pairs, {stats.rejected} rejected</p>")
        parts.append(_stats_table(manifest))
        parts.append(_judged_table(manifest))
        for method, method_stats in stats.per_method.items():
            rows = sample(manifest, PairQuery(n=samples_per_method, seed=seed, methods=[method]))
            drift = " · ".join(f"{title}: {distribution_text(getattr(method_stats, name))}"
                               for name, title in DISTRIBUTION_TITLES.items())
            parts.append(f"<h3>{e(method)}: sample view pairs</h3><p class='meta'>{e(drift)}</p>"
                         f"{pair_table_html(rows)}")
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>'
            f"<style>{CSS}</style></head><body>{''.join(parts)}</body></html>\n")

