"""Tally a judged sample: `python experiments/judged/tally.py experiments/judged/before.tsv experiments/judged/after.tsv`.
Prints meaning kept / fluent / both, the error classes (a pair may have several), and the change rates.

A judged blind file (make_blind.py) is tallied per version with its key:
`python experiments/judged/tally.py --key experiments/judged/blind-4.key.tsv experiments/judged/blind-4.tsv`."""

from __future__ import annotations

import argparse
import csv
from collections import Counter, defaultdict

CLASSES = ("sense", "grammar", "pos", "phrase", "rare", "entity")


def read(path: str) -> tuple[list[str], list[dict[str, str]]]:
    lines = open(path, encoding="utf-8").read().splitlines()
    return lines, list(csv.DictReader([l for l in lines if not l.startswith("#")], delimiter="\t"))


def report(name: str, rows: list[dict[str, str]]) -> None:
    errors = Counter(c for r in rows for c in filter(None, r["errors"].split(",")))
    meaning = sum(r["meaning_kept"] == "1" for r in rows)
    fluent = sum(r["fluent"] == "1" for r in rows)
    both = sum(r["meaning_kept"] == "1" and r["fluent"] == "1" for r in rows)
    share = ""
    if rows and "changed" in rows[0]:
        share = f" | changed share of words per pair {sum(int(r['changed']) / int(r['words']) for r in rows) / len(rows):.3f}"
    print(f"{name}: pairs {len(rows)} | meaning kept {meaning} | fluent {fluent} | both {both}{share}")
    print("  errors: " + ", ".join(f"{c} {errors[c]}" for c in CLASSES))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--key", help="key file of a blind sample (make_blind.py): tally per version")
    args = parser.parse_args()
    for path in args.files:
        lines, rows = read(path)
        if args.key:
            version = {r["n"]: r["version"] for r in read(args.key)[1]}
            by_version = defaultdict(list)
            for r in rows:
                by_version[version[r["n"]]].append(r)
            for name, found in sorted(by_version.items()):
                report(f"{path} [{name}]", found)
            continue
        report(path, rows)
        for line in lines[:3]:
            print("  " + line[:160])


if __name__ == "__main__":
    main()
