"""Looking at view pairs: sample/filter rows, word-level diffs against the source, per-method stats, HTML page.

Sampling streams the shards once with a seeded reservoir, so inspecting a dataset of millions of pairs uses flat
memory.
"""

from __future__ import annotations

import difflib
import html
import logging
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.text import terminal_safe
from bsl_pipeline.pipeline.dataset.manifest import (
    COVERAGE_NOTE,
    DISTRIBUTION_FIELDS,
    Manifest,
    figure_text,
    rejects_text,
    stats_rows,
)
from bsl_pipeline.pipeline.dataset.store import MAX_VIEW_CHARS, iter_batches, load_manifest, verify_dataset

log = logging.getLogger(__name__)

ROW_COLUMNS = ["pair_id", "source", "view1", "view2", "method", "params", "edit_ratio_views", "edit_ratio_view1",
               "edit_ratio_view2", "length_ratio", "identical", "origin", "label", *DISTRIBUTION_FIELDS]
#: Columns that format-1 datasets (written before them) do not have; shown as "-" there.
_FORMAT_2_COLUMNS = set(DISTRIBUTION_FIELDS)


@dataclass
class PairQuery:
    n: int = field(default=10, metadata={"help": "pairs to show (per method in --html)"})
    seed: int = field(default=0, metadata={"help": "seed of the random sample"})
    methods: list[str] | None = field(default=None, metadata={"help": "only these methods"})
    rejects: bool = field(default=False, metadata={"help": "show rejected pairs instead of kept ones"})
    reject_reason: str | None = field(default=None, metadata={
        "help": "only rejects with this reason; a reason without ':' also matches its detailed forms "
                "(no_eligible_word matches no_eligible_word:rare_in_semcor)"})
    min_edit_ratio: float | None = None
    max_edit_ratio: float | None = None
    contains: str | None = field(default=None, metadata={"help": "substring of source, view1 or view2"})


def verify_dataset_and_marks(path_or_dir: str | Path, progress: bool = False, allow_unlisted: bool = False,
                             max_view_chars: int = MAX_VIEW_CHARS,
                             allow_dropped_marks: bool = False) -> tuple[Manifest, int]:
    """What `bsl verify` checks, and `bsl inspect` and `bsl review` before they read: the dataset
    (`store.verify_dataset`: manifest, card, shards) and its judgments file (`judgments.verify_judgments`: a plain
    file at its place, every line a judgment of these pairs that counts; `allow_dropped_marks`: lines that do not
    count only warned about). Raises VerificationError naming the first mismatch; returns the manifest and the
    number of judgment lines that count."""
    from bsl_pipeline.pipeline.dataset.judgments import verify_judgments

    manifest = verify_dataset(path_or_dir, progress=progress, allow_unlisted=allow_unlisted,
                              max_view_chars=max_view_chars)
    return manifest, verify_judgments(manifest, allow_dropped=allow_dropped_marks)


def dataset_inputs(manifest: Manifest) -> list[str | Path]:
    """What the dataset's readers read: its manifest file, its directory and its corpus. A file a command writes
    where the user says (`bsl inspect --html`, `bsl review --export-avoid`) must be none of them nor inside one
    (`pipeline.base.ownership.claim_file`'s `inputs`): in data/ it would break the dataset, in the corpus it would
    be read as records."""
    corpus = manifest.source.corpus if manifest.source is not None else None
    return [p for p in (manifest.path, manifest.root, corpus) if p]


def open_dataset(path_or_dir: str | Path, verify: bool = True, allow_unlisted: bool = False,
                 max_view_chars: int = MAX_VIEW_CHARS, allow_dropped_marks: bool = False) -> Manifest:
    """The manifest `bsl inspect` and `bsl review` show, verified first as `bsl verify` verifies it
    (`verify_dataset_and_marks`; `allow_unlisted` and `max_view_chars` are its options); without `verify`, a loud
    warning says the rows shown may not be what the manifest describes."""
    if verify:
        manifest, _ = verify_dataset_and_marks(path_or_dir, allow_unlisted=allow_unlisted,
                                               max_view_chars=max_view_chars, allow_dropped_marks=allow_dropped_marks)
    else:
        manifest = load_manifest(path_or_dir)
        log.warning("warning: NOT VERIFIED: %s was not checked against its manifest (--no-verify); the rows shown "
                    "may have been changed since it was written", path_or_dir)
    # The statistics `--stats` and `--html` print must be there, so that a foreign manifest fails in one line
    # (their fields were checked when the manifest was read).
    manifest.require("stats", "source")
    return manifest


def reason_matches(reason: str | None, wanted: str) -> bool:
    """`wanted` is the reason, or its kind (the part before the first ':') when `wanted` has no ':' itself."""
    if reason is None:
        return False
    return reason == wanted or (":" not in wanted and reason.split(":", 1)[0] == wanted)


def _matches(row: dict[str, Any], q: PairQuery) -> bool:
    if q.reject_reason is not None and not reason_matches(row.get("reject_reason"), q.reject_reason):
        return False
    ratio = row.get("edit_ratio_views")
    if q.min_edit_ratio is not None and (ratio is None or ratio < q.min_edit_ratio):
        return False
    if q.max_edit_ratio is not None and (ratio is None or ratio > q.max_edit_ratio):
        return False
    if q.contains is not None:
        needle = q.contains.lower()
        if not any(needle in (row.get(c) or "").lower() for c in ("source", "view1", "view2")):
            return False
    return True


def iter_rows(manifest: Manifest, q: PairQuery) -> Iterator[dict[str, Any]]:
    kind = "rejects" if q.rejects or q.reject_reason else "pairs"
    columns = [c for c in ROW_COLUMNS if c not in _FORMAT_2_COLUMNS or (manifest.format_version or 0) >= 2]
    columns += ["stage", "reject_reason"] if kind == "rejects" else []
    for batch in iter_batches(manifest, kind, columns=columns, methods=q.methods):
        for row in batch.to_pylist():
            if _matches(row, q):
                yield row


def sample(manifest: Manifest, q: PairQuery) -> list[dict[str, Any]]:
    """A seeded uniform sample of `q.n` matching rows (reservoir sampling), in dataset order."""
    rng = random.Random(q.seed)
    reservoir: list[tuple[int, dict[str, Any]]] = []
    for i, row in enumerate(iter_rows(manifest, q)):
        if len(reservoir) < q.n:
            reservoir.append((i, row))
        else:
            j = rng.randint(0, i)
            if j < q.n:
                reservoir[j] = (i, row)
    return [row for _, row in sorted(reservoir, key=lambda t: t[0])]


# -- word diffs ----------------------------------------------------------------------------------------------------
def word_diff(a: str, b: str) -> list[tuple[str, str]]:
    """(op, text) segments turning `a` into `b`: op is 'equal', 'delete' or 'insert'."""
    wa, wb = (a or "").split(), (b or "").split()  # whitespace tokens keep the text as written
    out: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=wa, b=wb, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append(("equal", " ".join(wa[i1:i2])))
            continue
        if tag in ("delete", "replace"):
            out.append(("delete", " ".join(wa[i1:i2])))
        if tag in ("insert", "replace"):
            out.append(("insert", " ".join(wb[j1:j2])))
    return out


def render_diff_text(a: str, b: str, color: bool) -> str:
    parts = []
    for op, text in word_diff(a, b):
        if op == "equal":
            parts.append(text)
        elif op == "delete":
            parts.append(f"\033[31;9m{text}\033[0m" if color else f"[-{text}-]")
        else:
            parts.append(f"\033[32;1m{text}\033[0m" if color else f"{{+{text}+}}")
    return " ".join(parts)


def render_diff_html(a: str, b: str) -> str:
    parts = []
    for op, text in word_diff(a, b):
        t = html.escape(text)
        parts.append(t if op == "equal" else f'<del>{t}</del>' if op == "delete" else f'<ins>{t}</ins>')
    return " ".join(parts)


def format_pairs_text(rows: list[dict[str, Any]], color: bool) -> str:
    """The pairs as text for a terminal: their text shown, never acted on (`terminal_safe`)."""
    out = []
    for row in rows:
        row = {k: terminal_safe(v) if isinstance(v, str) else v for k, v in row.items()}
        head = (f"── {row['method']}  pair {row['pair_id']}  edit(v1,v2)={figure_text(row.get('edit_ratio_views'))}  "
                f"changed={figure_text(row.get('changed_word_share'))}  similarity={figure_text(row.get('view_similarity'))}")
        if row.get("reject_reason"):
            head += f"  REJECTED: {row['reject_reason']} ({row.get('stage')})"
        out.append(head)
        out.append(f"  source: {row.get('source') or ''}")
        for view in ("view1", "view2"):
            if row.get(view) is None:
                out.append(f"  {view}:  (none)")
            else:
                out.append(f"  {view}:  {render_diff_text(row.get('source') or '', row[view], color)}")
        out.append(f"  origin: {row.get('origin')}")
    return "\n".join(out)


# -- stats ---------------------------------------------------------------------------------------------------------
#: The terminal's stats table: how many detailed reasons of each reject kind it names (the others are counted as
#: `+K more=M`), and the width its last column, the rejects by reason, wraps at. A row of the table is no wider than
#: the other columns plus REASONS_WIDTH; the card, the HTML page and the manifest keep every reason.
TOP_REASONS = 3
REASONS_WIDTH = 60


def format_stats_text(manifest: Manifest, methods: list[str] | None = None) -> str:
    """The per-method statistics table (only the rows of `methods`, when given: none for `corpus`, whose figures are
    the corpus line), then the corpus line and the judged figures. The rejects by reason name the TOP_REASONS
    largest detailed reasons of each kind (`rejects_text`) and wrap at REASONS_WIDTH characters."""
    every = stats_rows(manifest)
    rows = [r for r in every if methods is None or r["method"] in methods]
    headers = list(every[0]) if every else ["method"]
    reasons = "rejects by reason"
    cells = []
    for r in rows:
        cell = [figure_text(r[h]) for h in headers]
        if reasons in headers:
            text = rejects_text(manifest.stats.per_method[r["method"]].rejects, top=TOP_REASONS)
            cell[headers.index(reasons)] = text
        cells.append(cell)
    last = len(headers) - 1
    # the last column (the rejects by reason) on as many lines as it takes, the other columns on a row's first
    wrapped = [[[c] for c in cell[:last]] + [_wrap_list(cell[last], REASONS_WIDTH)] for cell in cells]
    widths = [max([len(h), *(len(line) for c in wrapped for line in c[i])]) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    indent = " " * sum(w + 2 for w in widths[:last])
    for cell in wrapped:
        lines.append("  ".join(c[0].ljust(w) for c, w in zip(cell, widths)).rstrip())
        lines += [indent + more for more in cell[last][1:]]
    manifest.require("source")
    src = manifest.source
    dropped = ", ".join(f"{k}={v}" for k, v in src.dropped.items()) or "none"
    lines += ["", COVERAGE_NOTE,
              "changed words: share of the source's words a view does not keep; view similarity: cosine of the "
              "views under filters.encoder ('-' = none set); mean (p10/p50/p90) over the kept pairs",
              f"corpus: {src.records_read} records read, {src.records_kept} kept; dropped: {dropped}"]
    judged = judged_views_text(manifest)
    if judged:
        lines += ["", judged]
    return terminal_safe("\n".join(lines))


def _wrap_list(text: str, width: int) -> list[str]:
    """A ", "-separated list on lines of at most `width` characters, broken after a comma (an item longer than
    `width` is broken inside, so no line is wider)."""
    import textwrap

    lines: list[str] = []
    for item in text.split(", "):
        if lines and len(lines[-1]) + len(item) + 2 < width:  # room for the comma after it
            lines[-1] += ", " + item
            continue
        if lines:
            lines[-1] += ","
        lines += textwrap.wrap(item, width - 1, break_on_hyphens=False) or [""]
    return lines


def judged_views_text(manifest: Manifest) -> str:
    """The judged figures (`bsl review`) as text under a heading, "" when no pair is judged; a judgments file of
    other pairs is named, not counted."""
    from bsl_pipeline.pipeline.base.errors import InputError
    from bsl_pipeline.pipeline.dataset.judgments import dataset_figures, format_figures_text

    try:
        figures = dataset_figures(manifest)
    except InputError as exc:
        return f"judged views: not counted: {exc}"
    if figures is None:
        return ""
    return "judged views (bsl review; usable share with its 95% Wilson interval):\n" + format_figures_text(figures)


# -- HTML ----------------------------------------------------------------------------------------------------------
CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em} table{border-collapse:collapse;margin:.5em 0 1.5em}
td,th{border:1px solid #ccc;padding:.3em .6em;vertical-align:top;text-align:left}
th{background:#f3f3f3} .num{text-align:right}
.tabs button{font:inherit;padding:.35em .9em;margin-right:.3em;border:1px solid #999;background:#fafafa;cursor:pointer}
.tabs button.active{background:#225;color:#fff}
.pair td{width:33%} del{background:#fdd;color:#900} ins{background:#dfd;color:#060;text-decoration:none}
.meta{color:#666;font-size:.85em} .reason{color:#a00;font-weight:600}
"""

_JS = """
(function(){
  var buttons=document.querySelectorAll('.tabs button');
  function show(name){
    document.querySelectorAll('section.method').forEach(function(s){s.hidden=(name!=='all'&&s.dataset.method!==name);});
    buttons.forEach(function(b){b.classList.toggle('active',b.dataset.tab===name);});
  }
  buttons.forEach(function(b){b.addEventListener('click',function(){show(b.dataset.tab);});});
  show('all');
  document.body.setAttribute('data-rendered-pairs', document.querySelectorAll('tr.pair').length);
})();
"""


def pair_table_html(rows: list[dict[str, Any]]) -> str:
    """The pairs as a table: the source, then each view as a word diff against it. Where view 1 is the source (the
    methods that keep the sentence as view 1: synonyms, span-mask, mlm, noise, ...), the source is shown once, as
    "source = view 1"; a table with a view 1 that differs has both view columns, and a row whose view 1 is its
    source says so in that cell."""
    e = html.escape
    two_views = any(row.get("view1") is not None and row["view1"] != (row.get("source") or "") for row in rows)
    head = ("<th>source</th><th>view 1 (diff vs source)</th>" if two_views else "<th>source = view 1</th>")
    out = [f'<table class="pairs"><tr>{head}<th>view 2 (diff vs source)</th></tr>']
    for row in rows:
        src = row.get("source") or ""
        views = ("view1", "view2") if two_views else ("view2",)
        cells = [e(src)] + [_view_cell(src, row.get(v)) for v in views]
        meta = (f'edit(v1,v2) {figure_text(row.get("edit_ratio_views"))} · length ratio {figure_text(row.get("length_ratio"))}'
                f' · changed words {figure_text(row.get("changed_word_share"))}'
                f' · view similarity {figure_text(row.get("view_similarity"))} · {e(str(row.get("origin")))}')
        if row.get("reject_reason"):
            meta = f'<span class="reason">rejected: {e(row["reject_reason"])}</span> · ' + meta
        rest = "".join(f"<td>{cell}</td>" for cell in cells[1:])
        out.append(f'<tr class="pair" data-pair-id="{e(row["pair_id"])}"><td>{cells[0]}<div class="meta">{meta}'
                   f'</div></td>{rest}</tr>')
    out.append("</table>")
    return "\n".join(out)


def _view_cell(source: str, view: str | None) -> str:
    if view is None:
        return "<i>(none)</i>"
    if view == source:
        return "<i>= source</i>"
    return render_diff_html(source, view)


def render_html(manifest: Manifest, q: PairQuery) -> str:
    e = html.escape
    manifest.require("stats", "source")
    methods = list(manifest.stats.per_method)
    if q.methods:
        methods = [m for m in methods if m in q.methods]
    stats = stats_rows(manifest)
    headers = list(stats[0]) if stats else []
    stat_html = ["<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in headers) + "</tr>"]
    for r in stats:
        stat_html.append("<tr>" + "".join(
            f'<td class="{"num" if isinstance(r[h], (int, float)) else ""}">{e(figure_text(r[h]))}</td>' for h in headers)
            + "</tr>")
    stat_html.append("</table>")
    sections = []
    for m in methods:
        rows = sample(manifest, PairQuery(**{**vars(q), "methods": [m]}))
        sections.append(f'<section class="method" data-method="{e(m)}"><h2>{e(m)} '
                        f'<span class="meta">({len(rows)} shown)</span></h2>{pair_table_html(rows)}</section>')
    if not q.rejects:
        rejects = sample(manifest, PairQuery(**{**vars(q), "rejects": True, "methods": None}))
        if rejects:
            sections.append('<section class="method" data-method="rejects"><h2>rejects</h2>'
                            f'{pair_table_html(rejects)}</section>')
    tabs = ['<button data-tab="all">all</button>'] + [
        f'<button data-tab="{e(m)}">{e(m)}</button>' for m in methods + (["rejects"] if not q.rejects else [])]
    src = manifest.source
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="generator" content="bsl inspect">
<title>{e(manifest.name)}: view pairs</title>
<style>{CSS}</style></head>
<body>
<h1>{e(manifest.name)}: view pairs</h1>
<p class="meta">corpus {e(src.corpus)} · {src.records_read} records read, {src.records_kept} kept ·
created {e(str(manifest.created))} · code {e(str(manifest.code_version))}</p>
<h2>Per-method statistics</h2>
{''.join(stat_html)}
<div class="tabs">{''.join(tabs)}</div>
{''.join(sections)}
<script>{_JS}</script>
</body></html>
"""

