"""Peak memory of `bsl augment`, `bsl verify` and `bsl inspect` as the corpus grows 10x (100k -> 1M lines).

Each command runs in its own process; peak RSS comes from getrusage of that child. Memory should stay flat:
the only state that grows with the corpus is the de-duplication id set (~60 bytes per distinct sentence).
Usage: python benchmarks/bench_scale.py [--sizes 100000,1000000] [--method noise] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = ("the a dog cat man woman child house tree park street car ball game city music water red blue green "
         "runs walks sits plays eats sees quickly slowly happily old new big small near under over with").split()


def make_corpus(path: Path, n: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 18))) + f" {i}.\n")


_MEASURE = ("import resource, subprocess, sys; "
            "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def run(cmd: list[str]) -> tuple[float, float]:
    """(seconds, peak RSS MiB) of one command, measured by a wrapper process whose only child it is."""
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _MEASURE, *cmd], check=True, capture_output=True, text=True)
    return time.perf_counter() - t, int(out.stdout.split()[-1]) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--method", default="noise")
    ap.add_argument("--workdir", default=None)
    args = ap.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="bsl-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    bsl = [sys.executable, "-m", "bsl_pipeline.cli"]
    results = []
    for n in (int(s) for s in args.sizes.split(",")):
        corpus = work / f"corpus_{n}.txt"
        if not corpus.exists():
            make_corpus(corpus, n)
        out = work / f"ds_{n}"
        row = {"lines": n}
        row["augment_s"], row["augment_mib"] = run(bsl + ["augment", str(corpus), "--out", str(out), "--methods",
                                                          args.method, "-o", "registry_dir=", "-o", "progress=false"])
        row["verify_s"], row["verify_mib"] = run(bsl + ["verify", str(out), "-q"])
        row["inspect_s"], row["inspect_mib"] = run(bsl + ["inspect", str(out), "-n", "20", "--min-edit", "0.2"])
        results.append(row)
        print(f"{n:>9} lines: augment {row['augment_s']:7.1f} s peak {row['augment_mib']:6.0f} MiB | "
              f"verify {row['verify_s']:5.1f} s peak {row['verify_mib']:6.0f} MiB | "
              f"inspect {row['inspect_s']:5.1f} s peak {row['inspect_mib']:6.0f} MiB", flush=True)
    if len(results) > 1:
        a, b = results[0], results[-1]
        print(f"growth x{b['lines'] / a['lines']:.0f}: augment peak RSS ratio {b['augment_mib'] / a['augment_mib']:.2f}, "
              f"throughput {a['lines'] / a['augment_s']:.0f} -> {b['lines'] / b['augment_s']:.0f} lines/s")


if __name__ == "__main__":
    main()
