"""Tally the blind judgment of the views samples (synonyms today, synonyms checked in context, rewrites), per
method and genre: usable = meaning kept and fluent, and the error classes.

    python experiments/judged/tally_views.py

The judge saw only `blind-views-{sts,mnli}.tsv` (n, source, view) and RULES-blind-views.md; the keys map each n to
the sample it came from (`file`, `file_n`): `rewrites` (experiments/second_method/samples/) or `synctx`
(experiments/synonym_context/samples/, whose own key says `new` = checked in context, `old` = today's defaults).
"""

from __future__ import annotations

import csv
import math
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SYNCTX_KEYS = {"sts": "blind-sts-fresh.key.tsv", "mnli": "blind-mnli-mm-fresh.key.tsv"}


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def wilson(usable: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = usable / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    print("| genre | method | judged | usable | 95% interval | error classes |")
    print("|---|---|---:|---:|---|---|")
    for genre in ("sts", "mnli"):
        key = {r["n"]: r for r in _rows(HERE / f"blind-views-{genre}.key.tsv")}
        versions = {r["n"]: r["version"] for r in
                    _rows(REPO / "experiments/synonym_context/samples" / SYNCTX_KEYS[genre])}
        tally: dict[str, list] = defaultdict(lambda: [0, 0, Counter()])
        for row in _rows(HERE / f"blind-views-{genre}.judged.tsv"):
            k = key[row["n"]]
            method = "rewrites" if k["file"] == "rewrites" else {
                "new": "synonyms checked in context", "old": "synonyms (today's defaults)"}[versions[k["file_n"]]]
            entry = tally[method]
            entry[0] += 1
            entry[1] += row["meaning_kept"].strip() == "1" and row["fluent"].strip() == "1"
            entry[2].update(e.strip() for e in row["errors"].split(",") if e.strip())
        for method, (n, usable, errors) in sorted(tally.items()):
            low, high = wilson(usable, n)
            shown = ", ".join(f"{e} {c}" for e, c in errors.most_common())
            print(f"| {genre} | {method} | {n} | {usable} | {low:.2f}-{high:.2f} | {shown} |")


if __name__ == "__main__":
    main()
