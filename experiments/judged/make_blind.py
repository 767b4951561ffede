"""Mix two judged-sample files of the same block into one blind file for a judge who must not know which version made
which pair (issue 17, round four):

    python experiments/judged/make_blind.py --a v5=experiments/judged/after-4.tsv \\
        --b v4=experiments/judged/after-4-v4.tsv --out experiments/judged/blind-4.tsv \\
        --key experiments/judged/blind-4.key.tsv

The blind file has only `n, source, view` and the empty judgment columns of RULES.md (meaning_kept, fluent,
errors, note), its rows shuffled with a fixed seed; the key file maps n to the version and source_id. A judged blind
file is tallied per version with `tally.py --key` (it joins the key).
"""

from __future__ import annotations

import argparse
import csv
import random
from pathlib import Path

SEED = 4


def read_pairs(path: Path) -> list[dict[str, str]]:
    lines = [line for line in path.read_text("utf-8").splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, help="VERSION=PATH of a sample file (make_samples.py)")
    parser.add_argument("--b", required=True, help="VERSION=PATH of the other one")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--key", type=Path, required=True)
    args = parser.parse_args()
    rows = []
    for spec in (args.a, args.b):
        version, path = spec.split("=", 1)
        rows += [(version, r) for r in read_pairs(Path(path))]
    random.Random(SEED).shuffle(rows)
    with open(args.out, "w", newline="", encoding="utf-8") as out, \
            open(args.key, "w", newline="", encoding="utf-8") as key:
        blind = csv.writer(out, delimiter="\t", lineterminator="\n")
        keys = csv.writer(key, delimiter="\t", lineterminator="\n")
        blind.writerow(["n", "source", "view", "meaning_kept", "fluent", "errors", "note"])
        keys.writerow(["n", "version", "source_id"])
        for n, (version, r) in enumerate(rows, 1):
            blind.writerow([n, r["source"], r["view"], "", "", "", ""])
            keys.writerow([n, version, r["source_id"]])
    print(f"{args.out}: {len(rows)} pairs; key {args.key}")


if __name__ == "__main__":
    main()
