"""The pairs a review shows: a seeded sample stratified per method, leaving out every pair already judged.

Each method gets its share of the sample (`n` split evenly, or `n` each with `per_method`), drawn by the seeded
reservoir of `pipeline.dataset.inspection.sample` from the method's kept pairs that carry no live mark (a skipped
pair counts as judged: it is not shown again); the methods' pairs are then interleaved in a seeded order, so that
a reviewer cannot tell the method from where a pair stands. The same dataset, judgments, `n` and seed give the same
pairs.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from bsl_pipeline.pipeline.dataset.inspection import iter_rows, PairQuery
from bsl_pipeline.pipeline.dataset.manifest import Manifest


@dataclass(frozen=True)
class ReviewItem:
    """One pair to judge: the source with the sources around it, the view shown (the one that is not the source
    itself), the other view, and the method (hidden on the page until marked)."""

    pair_id: str
    method: str
    source: str
    view: str
    other_view: str
    origin: str
    before: str = ""  # the source before it in the dataset (context)
    after: str = ""  # the source after it

    def to_json(self, reveal: bool) -> dict[str, Any]:
        out = {"pair_id": self.pair_id, "source": self.source, "view": self.view, "other_view": self.other_view,
               "origin": self.origin, "before": self.before, "after": self.after}
        if reveal:
            out["method"] = self.method
        return out


def split_counts(n: int, methods: list[str], per_method: bool) -> dict[str, int]:
    """How many pairs each method gets: `n` each, or `n` split as evenly as it goes (the first methods get the
    remainder)."""
    if per_method or not methods:
        return {m: n for m in methods}
    base, extra = divmod(n, len(methods))
    return {m: base + (i < extra) for i, m in enumerate(methods)}


def _view_to_show(row: dict[str, Any]) -> tuple[str, str]:
    """(view shown, other view): the view that is not the source itself, else view2 (the augmented one)."""
    source, v1, v2 = row.get("source") or "", row.get("view1") or "", row.get("view2") or ""
    if v2 == source and v1 != source:
        return v1, v2
    return v2, v1


def review_sample(manifest: Manifest, n: int, seed: int, judged: set[str], per_method: bool = False,
                  methods: list[str] | None = None) -> list[ReviewItem]:
    """The pairs to show, stratified per method and interleaved (module docstring); `judged` pair ids are left
    out."""
    manifest.require("stats")
    names = [m for m in manifest.stats.per_method if methods is None or m in methods]
    counts = split_counts(n, names, per_method)
    items: list[ReviewItem] = []
    for index, method in enumerate(names):
        want = counts[method]
        if not want:
            continue
        rng = random.Random(f"{seed}:{method}")
        reservoir: list[tuple[int, dict[str, Any]]] = []
        seen = 0
        previous: dict[str, Any] | None = None
        for row in iter_rows(manifest, PairQuery(methods=[method])):
            # The neighbouring sources (as the dataset holds them) are the context a reviewer sees.
            row["_before"] = (previous or {}).get("source") or ""
            if previous is not None:
                previous["_after"] = row.get("source") or ""
            previous = row
            if row["pair_id"] in judged:
                continue
            if len(reservoir) < want:
                reservoir.append((seen, row))
            else:
                j = rng.randint(0, seen)
                if j < want:
                    reservoir[j] = (seen, row)
            seen += 1
        for _, row in sorted(reservoir, key=lambda t: t[0]):
            view, other = _view_to_show(row)
            items.append(ReviewItem(pair_id=row["pair_id"], method=method, source=row.get("source") or "",
                                    view=view, other_view=other, origin=str(row.get("origin") or ""),
                                    before=row["_before"], after=row.get("_after") or ""))
    random.Random(f"{seed}:order").shuffle(items)
    return items


def pair_changes(params: str) -> list[list[Any]]:
    """The substitutions a synonyms pair records in its `params` JSON (the augmenter's info: `changes`, and
    `changes_view1` with views: both): [token index, word, substitute, ...]."""
    try:
        info = json.loads(params)
    except ValueError:
        return []
    if not isinstance(info, dict):
        return []
    return [c for key in ("changes", "changes_view1") for c in info.get(key) or []
            if isinstance(c, list) and len(c) >= 3]
