"""Tally a judged sample: `python benchmarks/judged/tally.py benchmarks/judged/before.tsv benchmarks/judged/after.tsv`.
Prints meaning kept / fluent / both, the error classes (a pair may have several), and the change rates."""

from __future__ import annotations

import csv
import sys
from collections import Counter

CLASSES = ("sense", "grammar", "pos", "phrase", "rare", "entity")

for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8").read().splitlines()
    rows = list(csv.DictReader([l for l in lines if not l.startswith("#")], delimiter="\t"))
    errors = Counter(c for r in rows for c in filter(None, r["errors"].split(",")))
    meaning = sum(r["meaning_kept"] == "1" for r in rows)
    fluent = sum(r["fluent"] == "1" for r in rows)
    both = sum(r["meaning_kept"] == "1" and r["fluent"] == "1" for r in rows)
    share = sum(int(r["changed"]) / int(r["words"]) for r in rows) / len(rows)
    print(f"{path}: pairs {len(rows)} | meaning kept {meaning} | fluent {fluent} | both {both} | "
          f"changed share of words per pair {share:.3f}")
    print("  errors: " + ", ".join(f"{c} {errors[c]}" for c in CLASSES))
    for line in lines[:3]:
        print("  " + line[:160])
