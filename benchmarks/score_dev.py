"""Score trained models on the dev splits only: STS-B dev and SICK trial (SentEval's "SICK dev"), Spearman x100.

Settings are chosen on dev; this asks whether a second dev split (SICK's, another genre: image captions and video
descriptions rewritten by rules) would have ranked a sweep's candidates the way the test average does. Test files are
never read.

    .venv/bin/python benchmarks/score_dev.py MODEL_DIR [MODEL_DIR ...] [--data-dir DIR] [--json OUT.json]

MODEL_DIR: anything `bsl evaluate` loads (an export of `bsl train`, a sentence-transformers folder). Prints one row per
model and the mean of the two splits.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def _arguments(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("models", nargs="+", type=Path)
    p.add_argument("--data-dir", default=None, help="evaluation data (default: BSL_DATA_DIR, ~/.cache/bsl/data, "
                                                    "../shared/data)")
    p.add_argument("--max-length", type=int, default=256)
    p.add_argument("--json", type=Path, default=None, help="also write the rows here")
    return p.parse_args(argv)


def load_dev_splits(data_dir: str) -> dict:
    """{"stsb_dev": PairSet, "sick_trial": PairSet}: load once, score many models."""
    from bsl_pipeline.training.evaluation.data import load_sick, load_stsb_dev

    return {"stsb_dev": load_stsb_dev(data_dir), "sick_trial": load_sick(data_dir, "trial")}


def score_model(model: str | Path, splits: dict, max_length: int = 256) -> dict[str, float]:
    """Spearman x100 of one model on each dev split (the model loaded once, on CPU, 128 sentences per batch)."""
    from bsl_pipeline.training.evaluation import evaluate_pairs, load_encoder

    encoder = load_encoder(str(model), device="cpu", max_length=max_length, batch_size=128)
    return {name: evaluate_pairs(encoder, pairs, 128).spearman for name, pairs in splits.items()}


def main(argv=None) -> int:
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from bsl_pipeline.pipeline.base.atomic import write_json_atomic
    from bsl_pipeline.training.evaluation.data_dir import resolve_data_dir

    args = _arguments(argv)
    splits = load_dev_splits(str(resolve_data_dir(args.data_dir).path))
    rows = []
    print("| model | STS-B dev | SICK trial | mean |\n|---|---:|---:|---:|")
    for model in args.models:
        if not model.exists():
            raise SystemExit(f"{model}: no such model directory")
        row = {"model": str(model), **score_model(model, splits, args.max_length)}
        row["mean"] = (row["stsb_dev"] + row["sick_trial"]) / 2
        rows.append(row)
        print(f"| {model} | {row['stsb_dev']:.2f} | {row['sick_trial']:.2f} | {row['mean']:.2f} |", flush=True)
    if args.json:
        write_json_atomic(args.json, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
