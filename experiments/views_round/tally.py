"""Tally the blind judgment of this round (make_round.py's samples): usable = meaning kept and fluent, per genre and
method (`rewrites` = the natural sample, `rewrites-new` = the extra views of the rule families added after the
grammatical ones, `synonyms`), with 95% Wilson intervals and the error classes; then rewrites per rule.

    python experiments/views_round/tally.py [--round round2]

The judges saw only round/blind-<block>.tsv (n, source, view) and experiments/judged/RULES-blind-views.md; their
files are round/blind-<block>.judged.tsv, the keys round/blind-<block>.key.tsv.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "judged"))

from tally_views import _rows, wilson  # noqa: E402  (the earlier round's tally: the same reading and interval)
BLOCKS = {"sts14-16": "STS 2014-16", "mnli-mm": "MNLI dev-mismatched", "mnli-mm-hyp": "MNLI dev-mismatched hypotheses"}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--round", default="round")
    folder = HERE / p.parse_args().round
    print("| genre | method | judged | usable | 95% interval | error classes |")
    print("|---|---|---:|---:|---|---|")
    by_rule: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for block, title in BLOCKS.items():
        if not (folder / f"blind-{block}.key.tsv").exists():
            continue  # a round without this genre (round 3: MNLI had no unread premises left)
        key = {r["n"]: r for r in _rows(folder / f"blind-{block}.key.tsv")}
        judged = _rows(folder / f"blind-{block}.judged.tsv")
        assert len(judged) == len(key), (block, len(judged), len(key))
        groups: dict[str, list[dict[str, str]]] = defaultdict(list)
        for row in judged:
            k = key[row["n"]]
            row["usable"] = int(row["meaning_kept"] == "1" and row["fluent"] == "1")
            groups[k["method"]].append(row)
            if k["method"].startswith("rewrites"):
                rule = k["rules"].split("+")[0]
                by_rule[rule][0] += row["usable"]
                by_rule[rule][1] += 1
        for method in ("rewrites", "rewrites-new", "synonyms"):
            rows = groups[method]
            if not rows:
                continue
            usable = sum(r["usable"] for r in rows)
            low, high = wilson(usable, len(rows))
            errors = Counter(e.strip() for r in rows if not r["usable"] for e in r["errors"].split(",") if e.strip())
            classes = ", ".join(f"{e} {n}" for e, n in errors.most_common()) or "-"
            print(f"| {title} | {method} | {len(rows)} | {usable} | {low:.2f}-{high:.2f} | {classes} |")
    print()
    print("| rule (rewrites, both genres, both samples) | judged | usable |")
    print("|---|---:|---:|")
    for rule, (usable, n) in sorted(by_rule.items(), key=lambda item: -item[1][1]):
        print(f"| {rule} | {n} | {usable} |")


if __name__ == "__main__":
    main()
