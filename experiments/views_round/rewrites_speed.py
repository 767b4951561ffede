"""Throughput of the `rewrites` augmenter against its version before a change, in one run on the same 9,000
development sentences (3,000 each of SNLI dev premises, STS 2012-13, MNLI dev_matched), one thread, each side's
best of two passes after a warm-up. nlpaug has no counterpart of this method, so the comparison is with itself.

    OMP_NUM_THREADS=1 .venv/bin/python experiments/views_round/rewrites_speed.py REV   # e.g. a commit before v3
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "experiments" / "second_method"))

from data import block  # noqa: E402

from bsl_pipeline.pipeline.augment.augmenters import build_augmenter  # noqa: E402
from bsl_pipeline.pipeline.augment.augmenters.base import SourceRecord  # noqa: E402


def old_augmenter(rev: str):
    """The augmenter of `rev` when its rules were all in rewrites.py (before the rewrite_rules package)."""
    source = subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:pipeline/augment/augmenters/rewrites.py"],
                            check=True, capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "old_rewrites.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("old_rewrites", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_rewrites"] = module
    spec.loader.exec_module(module)
    return module.RewritesAugmenter({})


def main() -> None:
    texts = block("snli-dev", 3000) + block("sts12-13", 3000) + block("mnli-m", 3000)
    records = [SourceRecord(source_id=str(i), text=t) for i, t in enumerate(texts)]
    for name, aug in ((sys.argv[1], old_augmenter(sys.argv[1])), ("now", build_augmenter("rewrites"))):
        list(aug.augment(records[:200], seed=0))
        best = min(_timed(aug, records, seed) for seed in (0, 1))
        print(f"{name}: {len(records) / best:,.0f} sentences/s")


def _timed(aug, records, seed: int) -> float:
    start = time.perf_counter()
    list(aug.augment(records, seed=seed))
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
