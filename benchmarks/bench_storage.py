"""Object storage against local disk, in one run: the same work written to (or read from) an S3-compatible server
on 127.0.0.1 and to a local directory.

1. Augmentation (goal <= 1.2x): `pipeline.augment.job.run_augment` of the same generated corpus with the same
   methods (default synonyms + span-mask), once with `--out` a fresh local directory and once a fresh `s3://`
   prefix, alternating, `--repeats` times; the best time of each is compared. Models (WordNet) are loaded once
   before the clock starts. The server is moto's server mode (`tests/s3_server.py`), a Python process on this
   machine: it measures the tool's own cost of going through the store (requests, the local staging, the upload
   order), not a real network.
2. Training (goal <= 1.05x): `training.train` of the tiny BERT (`tests/tiny_models.py`) for `--steps` steps on the
   dataset made in 1, read from its directory and from its URL; the mean `step_time_s` of steps 2..N (after the
   first pass has brought the local copy up to date) is compared.

Usage: python benchmarks/bench_storage.py [--lines 5000] [--methods synonyms,span-mask] [--repeats 2] [--steps 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_env import prepare  # noqa: E402

prepare(single_thread=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--methods", default="synonyms,span-mask")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args()

    from bench_flows import make_corpus
    from s3_server import start_s3_server

    from bsl_pipeline.pipeline.augment.job import AugmentConfig, build_augmenters, run_augment

    work = Path(tempfile.mkdtemp(prefix="bsl-bench-storage-"))
    os.environ["XDG_CACHE_HOME"] = str(work / "cache")
    server = start_s3_server(work)
    try:
        os.environ.update(server.env)
        bucket = server.bucket("bench")
        corpus = work / "corpus.txt"
        make_corpus(corpus, args.lines)
        config = AugmentConfig(methods=args.methods.split(","), registry_dir="", progress=False)
        augmenters = build_augmenters(config)
        for augmenter in augmenters.values():
            augmenter.ensure_ready()
        times: dict[str, list[float]] = {"disk": [], "s3": []}
        for i in range(args.repeats):
            for where, out in (("disk", str(work / f"disk-{i}")), ("s3", f"s3://{bucket}/run-{i}")):
                start = time.perf_counter()
                manifest = run_augment(corpus, out, config, augmenters=augmenters)
                times[where].append(time.perf_counter() - start)
                print(f"augment to {where}: {times[where][-1]:.2f} s ({manifest.stats.pairs} pairs)", flush=True)
        disk, s3 = min(times["disk"]), min(times["s3"])
        print(f"\naugment {args.lines} lines ({args.methods}): disk {disk:.2f} s, s3 {s3:.2f} s, "
              f"ratio s3/disk {s3 / disk:.3f}")

        from tiny_models import build_tiny_bert
        from tests.training.test_trainer_utils import tiny_config

        from bsl_pipeline.training import train

        model = build_tiny_bert(work / "tiny-bert")
        step_times = {}
        for where, data in (("disk", work / "disk-0"), ("s3", f"s3://{bucket}/run-0")):
            config_t = tiny_config(model, [data], work / f"train-{where}",
                                   overrides=[f"train.max_steps={args.steps}", "eval.at_end=false"])
            result = train(config_t, disable_progress=True)
            step_times[where] = statistics.mean(r["step_time_s"] for r in result.history[1:])
            print(f"train from {where}: mean step {step_times[where] * 1000:.1f} ms", flush=True)
        print(f"train step ({args.steps} steps, tiny BERT): ratio s3/disk "
              f"{step_times['s3'] / step_times['disk']:.3f}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
