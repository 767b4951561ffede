"""A model's scores on the dev splits only: STS-B dev and SICK trial (SentEval's "SICK dev"), cosine Spearman x100.

Settings are chosen on dev; SICK trial (another genre: image captions and video descriptions rewritten by rules)
sits beside STS-B dev so that a choice can be checked on a second split. Test files are never read here.

    splits = load_dev_splits(data_dir)          # once
    row = score_model_on_dev(model_dir, splits)  # {"model", "stsb_dev", "sick_trial", "mean"}, per model
    print(DEV_TABLE_HEAD); print(dev_table_row(row))

`dev_sweep_table(rows)` ranks several settings (each trained with one or more seeds) by their mean STS-B dev
score. `experiments/score_dev.py` is the command-line front end.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from pathlib import Path

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.evaluation.data import PairSet, load_sick, load_stsb_dev

#: The Markdown head of `dev_table_row`'s rows.
DEV_TABLE_HEAD = "| model | STS-B dev | SICK trial | mean |\n|---|---:|---:|---:|"


def load_dev_splits(data_dir: str | Path) -> dict[str, PairSet]:
    """{"stsb_dev": PairSet, "sick_trial": PairSet}: load once, score many models."""
    return {"stsb_dev": load_stsb_dev(data_dir), "sick_trial": load_sick(data_dir, "trial")}


def score_on_dev(model: str | Path, splits: Mapping[str, PairSet], max_length: int = 256,
                 batch_size: int = 128, device: str = "cpu") -> dict[str, float]:
    """Spearman x100 of one model on each split (the model loaded once, `batch_size` sentences per batch)."""
    from bsl_pipeline.evaluation.encoders import load_encoder
    from bsl_pipeline.evaluation.runner import evaluate_pairs

    encoder = load_encoder(str(model), device=device, max_length=max_length, batch_size=batch_size)
    return {name: evaluate_pairs(encoder, pairs, batch_size).spearman for name, pairs in splits.items()}


def score_model_on_dev(model: str | Path, splits: Mapping[str, PairSet], max_length: int = 256) -> dict:
    """One table row: {"model": model as given, "stsb_dev", "sick_trial", "mean" of the two}. `model` is a local
    directory (an export of `bsl train`, a sentence-transformers folder, a trainer checkpoint); a missing one is
    an error naming it."""
    if not Path(model).exists():
        raise InputError(f"{model}: no such model directory")
    row = {"model": str(model), **score_on_dev(model, splits, max_length)}
    row["mean"] = (row["stsb_dev"] + row["sick_trial"]) / 2
    return row


def dev_table_row(row: Mapping) -> str:
    return f"| {row['model']} | {row['stsb_dev']:.2f} | {row['sick_trial']:.2f} | {row['mean']:.2f} |"


def dev_sweep_table(rows: list[Mapping]) -> str:
    """Markdown table of a sweep's rows (`name`, `overrides`, `stsb_dev`, `train_seconds`, and `sick_trial` where
    measured), one line per setting name, best mean STS-B dev first: the seeds, the mean, min and max STS-B dev,
    the mean SICK trial over the seeds that have it (and how many when not all do), the mean training time."""
    groups: dict[str, list[Mapping]] = {}
    for r in rows:
        groups.setdefault(r["name"], []).append(r)
    lines = ["| setting | overrides | seeds | STS-B dev (mean) | min | max | SICK trial (mean) | train s |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for name, rs in sorted(groups.items(), key=lambda kv: -statistics.mean(r["stsb_dev"] for r in kv[1])):
        devs = [r["stsb_dev"] for r in rs]
        sick = [r["sick_trial"] for r in rs if "sick_trial" in r]
        sick_cell = "-" if not sick else (
            f"{statistics.mean(sick):.2f}" + (f" ({len(sick)} of {len(rs)} seeds)" if len(sick) != len(rs) else ""))
        lines.append(f"| {name} | {' '.join(rs[0]['overrides']) or '-'} | {len(rs)} | {statistics.mean(devs):.2f} | "
                     f"{min(devs):.2f} | {max(devs):.2f} | {sick_cell} | "
                     f"{statistics.mean(r['train_seconds'] for r in rs):.0f} |")
    return "\n".join(lines)
