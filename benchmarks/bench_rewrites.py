"""Rewriting speed of the `rewrites` augmenter in the working tree against an earlier revision (default `main`), on
the same sentences, machine and thread, in one run. nlpaug has no counterpart of this method, so its anchor is the
method itself at that revision.

    .venv/bin/python benchmarks/bench_rewrites.py [REV] [--sentences 6000] [--repeats 3] [--tolerance 0.05]

* Data: the first `--sentences` distinct sentences of STS-B train + SICK train (the demo's corpus,
  `pipeline.corpus.builtin.write_sts_sick_train`, from the data dir `bsl data fetch` writes).
* REV's `pipeline/` is taken with `git archive` into a temporary folder and imported under the same package name in
  its own process; the working tree's runs in another. Each side builds its augmenter and makes one untimed pass
  (lexicon loaded, caches warm, as in a job over a large corpus); then the sides take turns (each first in every other
  round) in each of `--repeats` rounds, each timing one pass over all the sentences (load from other processes on a
  shared machine hits both alike). The best time of each side is reported, with the ratio of speeds now / REV. The
  exit status is 1 when the working tree is slower than REV by more than `--tolerance`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from bench_env import prepare

REPO = prepare(single_thread=True)


def worker(sentences: Path) -> None:
    """One side: build the augmenter, warm it, then time one pass per line read from stdin (its seed)."""
    import bsl_pipeline.pipeline as package
    from bsl_pipeline.pipeline.augment.augmenters import build_augmenter
    from bsl_pipeline.pipeline.augment.augmenters.base import SourceRecord

    records = [SourceRecord(source_id=str(i), text=t)
               for i, t in enumerate(sentences.read_text(encoding="utf-8").splitlines())]
    aug = build_augmenter("rewrites")
    list(aug.augment(records, seed=0))
    print(f"ready {Path(package.__file__).resolve().parent}", flush=True)
    for line in sys.stdin:
        start = time.perf_counter()
        list(aug.augment(records, seed=int(line)))
        print(time.perf_counter() - start, flush=True)


def demo_sentences(limit: int) -> list[str]:
    from bsl_pipeline.pipeline.corpus.builtin import write_sts_sick_train
    from bsl_pipeline.evaluation.data_dir import resolve_data_dir

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "corpus.txt"
        write_sts_sick_train(resolve_data_dir().path, out)
        return out.read_text(encoding="utf-8").splitlines()[:limit]


def start_side(sentences: Path, pythonpath: str | None) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, **({"PYTHONPATH": pythonpath} if pythonpath else {})}
    proc = subprocess.Popen([sys.executable, __file__, "--worker", str(sentences)], env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=pythonpath or REPO)
    ready = proc.stdout.readline().split()
    if not ready or ready[0] != "ready":
        raise SystemExit(f"a side failed to start (pythonpath {pythonpath})")
    return proc, ready[1]


def timed(proc: subprocess.Popen, seed: int) -> float:
    proc.stdin.write(f"{seed}\n")
    proc.stdin.flush()
    return float(proc.stdout.readline())


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rev", nargs="?", default="main", help="the earlier revision (commit, tag or branch)")
    p.add_argument("--sentences", type=int, default=6000, help="sentences per pass")
    p.add_argument("--repeats", type=int, default=3, help="timed rounds (each side one pass per round)")
    p.add_argument("--tolerance", type=float, default=0.05, help="allowed slowdown before the exit status is 1")
    p.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        worker(args.worker)
        return 0
    texts = demo_sentences(args.sentences)
    with tempfile.TemporaryDirectory() as tmp:
        sentences = Path(tmp) / "sentences.txt"
        sentences.write_text("\n".join(texts) + "\n", encoding="utf-8")
        archive = Path(tmp) / "rev.tar"
        subprocess.run(["git", "-C", str(REPO), "archive", "-o", str(archive), args.rev, "pipeline"], check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(Path(tmp) / "bsl_pipeline", filter="data")
        earlier, where = start_side(sentences, tmp)
        if not Path(where).is_relative_to(Path(tmp)):
            raise SystemExit(f"{args.rev}'s package was not the one imported: {where}")
        now, _ = start_side(sentences, None)
        best = {"rev": float("inf"), "now": float("inf")}
        for seed in range(1, args.repeats + 1):
            sides = [("rev", earlier), ("now", now)]
            for side, proc in sides if seed % 2 else reversed(sides):  # each side goes first in every other round
                best[side] = min(best[side], timed(proc, seed))
        for proc in (earlier, now):
            proc.stdin.close()
            proc.wait()
    speed = {side: len(texts) / seconds for side, seconds in best.items()}
    ratio = speed["now"] / speed["rev"]
    print(f"{len(texts)} sentences, best of {args.repeats} passes, one thread")
    print(f"{args.rev}: {speed['rev']:,.0f} sentences/s; now: {speed['now']:,.0f} sentences/s; "
          f"now / {args.rev}: {ratio:.2f}x")
    return 0 if ratio >= 1 - args.tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
