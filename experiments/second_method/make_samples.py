"""The blind sample: the first 100 sentences with a `rewrites` view (defaults, seed 0) in the shuffled order of each
fresh block (STS 2014-2016 sentences, MNLI dev_mismatched premises; never read while developing), written as
samples/blind-<block>.tsv (n, source, view) with samples/blind-<block>.key.tsv (n, block, position, rules) and the
share of the sentences read that got a view.

    OMP_NUM_THREADS=1 .venv/bin/python experiments/second_method/make_samples.py
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from data import FRESH, block

from bsl_pipeline.pipeline.augment.augmenters import build_augmenter
from bsl_pipeline.pipeline.augment.augmenters.base import SourceRecord


def main() -> None:
    aug = build_augmenter("rewrites")
    out = HERE / "samples"
    out.mkdir(exist_ok=True)
    for name in FRESH:
        pairs, read = [], 0
        for i, text in enumerate(block(name, seed=1)):
            read += 1
            p = next(aug.augment([SourceRecord(source_id=f"{name}-{i}", text=text)], seed=0))
            if p.reject is None:
                pairs.append((i, text, p.view2, p.info["rules"]))
            if len(pairs) == 100:
                break
        with open(out / f"blind-{name}.tsv", "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, delimiter="\t", lineterminator="\n")
            w.writerow(["n", "source", "view"])
            for n, (_, src, view, _) in enumerate(pairs, 1):
                w.writerow([n, src, view])
        with open(out / f"blind-{name}.key.tsv", "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, delimiter="\t", lineterminator="\n")
            w.writerow(["n", "block", "position", "rules"])
            for n, (i, _, _, rules) in enumerate(pairs, 1):
                w.writerow([n, name, i, "+".join(rules)])
        print(f"{name}: {len(pairs)} pairs from the first {read} sentences ({len(pairs) / read:.1%} with a view)")


if __name__ == "__main__":
    main()
