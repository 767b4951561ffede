"""Score trained models on the dev splits only: STS-B dev and SICK trial (SentEval's "SICK dev"), Spearman x100
(`evaluation.dev_scores`; test files are never read).

    .venv/bin/python experiments/score_dev.py MODEL_DIR [MODEL_DIR ...] [--data-dir DIR] [--json OUT.json]

MODEL_DIR: anything `bsl evaluate` loads (an export of `bsl train`, a sentence-transformers folder). Prints one row per
model and the mean of the two splits.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def _arguments(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("models", nargs="+", type=Path)
    p.add_argument("--data-dir", default=None, help="evaluation data (default: BSL_DATA_DIR, ~/.cache/bsl/data, "
                                                    "../shared/data)")
    p.add_argument("--max-length", type=int, default=256)
    p.add_argument("--json", type=Path, default=None, help="also write the rows here")
    return p.parse_args(argv)


def main(argv=None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from bsl_pipeline.pipeline.base.atomic import write_json_atomic
    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.evaluation.data_dir import resolve_data_dir
    from bsl_pipeline.evaluation.dev_scores import (
        DEV_TABLE_HEAD,
        dev_table_row,
        load_dev_splits,
        score_model_on_dev,
    )

    args = _arguments(argv)
    try:
        splits = load_dev_splits(resolve_data_dir(args.data_dir).path)
        rows = []
        print(DEV_TABLE_HEAD)
        for model in args.models:
            rows.append(score_model_on_dev(model, splits, args.max_length))
            print(dev_table_row(rows[-1]), flush=True)
    except BSLError as exc:
        raise SystemExit(str(exc)) from None
    if args.json:
        write_json_atomic(args.json, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
