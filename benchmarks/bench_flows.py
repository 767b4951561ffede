"""Prefect overhead of the augmentation flow against the plain library loop, and the flow's peak RSS as the corpus
grows 10x.

1. Overhead (goal <= 5%): the same corpus (default 100k generated sentences), the same method (`synonyms` when it
   works here, else `noise`), the same library calls: `pipeline.augment.job.run_augment` (the plain loop) vs
   `flows.augment_run.run_augment_flow` (cache on, results persisted) with the default thread runner ("flow":
   chunk reading overlaps augmentation) and with one task at a time ("flow-seq": the loop's order, so the difference
   is Prefect's cost), each in a fresh process writing a fresh dataset dir, alternating, `--repeats` times; the best
   time of each is compared. The timed span is the call itself (corpus -> manifest); imports, interpreter start and
   the one-time model (WordNet) load, identical in both and done before the clock starts, are reported separately.
   The flow talks to a local Prefect server started by this script on a loopback port (`--api-url` to use another);
   without a server each process would first start Prefect's temporary one (several seconds).
2. Memory (goal flat, < 1.5 GB): the flow's peak RSS (getrusage of the flow process, which with the thread runner
   also runs every task) at each of `--sizes` lines with the cheap `noise` method. The Prefect server is a separate
   long-running process and is not included.

Usage: python benchmarks/bench_flows.py [--lines 100000] [--sizes 100000,1000000] [--repeats 2] [--workdir DIR]
       [--method auto|synonyms|noise] [--skip-overhead] [--skip-memory] [--api-url URL]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "tests"))  # prefect_server: the tests' local Prefect server

# Content words WordNet knows (so the synonym augmenter has work to do) plus function words.
NOUNS = ("dog cat man woman child house tree park street car ball game city music water river bridge market school "
         "garden tower teacher doctor student book letter road village forest mountain ship train window door table "
         "friend family story picture song dinner morning evening storm light fire stone field").split()
VERBS = ("sees finds likes watches carries builds paints follows visits opens closes reads writes helps calls "
         "meets leaves holds moves buys sells").split()
ADJECTIVES = ("old new big small quiet loud happy sad bright dark warm cold quick slow strong weak young ancient "
              "beautiful strange").split()
PLACES = ("near the", "under the", "behind the", "beside the", "across the", "inside the")


def make_corpus(path: Path, n: int, seed: int = 0) -> None:
    """n distinct English-like sentences (a running number keeps them distinct)."""
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(f"The {rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} {rng.choice(VERBS)} a "
                     f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} {rng.choice(PLACES)} {rng.choice(NOUNS)} "
                     f"on day {i}.\n")


# -- child processes ---------------------------------------------------------------------------------------------------
def child(args: argparse.Namespace) -> None:
    t_start = time.perf_counter()
    from bsl_pipeline.pipeline.augment.job import AugmentConfig, build_augmenters

    config = AugmentConfig(methods=[args.method], registry_dir="", progress=False)
    if args.kind.startswith("flow"):
        from bsl_pipeline.flows.prefect_env import configure_prefect_environment

        configure_prefect_environment()
        import bsl_pipeline.flows.augment_flow  # noqa: F401 -- Prefect is imported before the clock starts
    imported = time.perf_counter()
    # One-time model/WordNet loading is the same in both and not Prefect's doing: done before the clock starts.
    augmenters = build_augmenters(config)
    for augmenter in augmenters.values():
        augmenter.ensure_ready()
    ready = time.perf_counter()
    if args.kind.startswith("flow"):
        from bsl_pipeline.flows.augment_job import (
            AugmentFlowConfig,
            RunnerConfig,
            TaskConfig,
        )
        from bsl_pipeline.flows.augment_run import run_augment_flow
        from bsl_pipeline.flows.executors import AugmenterSpec, adopt_augmenter
        from bsl_pipeline.pipeline.base.config import to_dict

        for method, augmenter in augmenters.items():  # the flow process is the thread runner's worker
            adopt_augmenter(AugmenterSpec.of(method, augmenter), augmenter)
        spec = AugmentFlowConfig(corpus=args.corpus, out_dir=args.out, augment=to_dict(config))
        if args.kind == "flow-seq":  # one task at a time, collected before the next chunk is read: the loop's order
            spec.runner, spec.tasks = RunnerConfig(max_workers=1), TaskConfig(max_in_flight=1)
        t = time.perf_counter()
        summary = run_augment_flow(spec)
        seconds = time.perf_counter() - t
        pairs, extra = summary["pairs"], {"task_states": summary["task_states"]}
    else:
        from bsl_pipeline.pipeline.augment.job import run_augment

        t = time.perf_counter()
        manifest = run_augment(args.corpus, args.out, config, augmenters=augmenters)
        seconds = time.perf_counter() - t
        pairs, extra = manifest.stats.pairs, {}
    print("RESULT " + json.dumps({"seconds": seconds, "import_s": imported - t_start, "setup_s": ready - imported,
                                  "pairs": pairs, "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                                  **extra}))


def run_child(kind: str, corpus: Path, out: Path, method: str, env: dict[str, str]) -> dict:
    shutil.rmtree(out, ignore_errors=True)  # always a fresh dataset dir: no completion markers, no cached results
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, __file__, "--child", kind, "--corpus", str(corpus), "--out", str(out),
                           "--method", method], env=env, capture_output=True, text=True, cwd=REPO_ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"{kind} run failed:\n{proc.stderr[-4000:]}")
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))
    return {**json.loads(line[len("RESULT "):]), "process_s": time.perf_counter() - t}


def pick_method(requested: str) -> str:
    if requested != "auto":
        return requested
    try:
        from bsl_pipeline.pipeline.augment.augmenters import build_augmenter
        from bsl_pipeline.pipeline.corpus.source_record import SourceRecord

        augmenter = build_augmenter("synonyms")
        (pair,) = list(augmenter.augment([SourceRecord("x", "The old dog sees a quick cat near the river.")], 0))
        return "synonyms" if pair.reject is None and pair.view2 != pair.view1 else "noise"
    except Exception as exc:  # not implemented / no WordNet here
        print(f"synonyms unavailable ({type(exc).__name__}: {exc}); using noise", flush=True)
        return "noise"


# -- main --------------------------------------------------------------------------------------------------------------
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=100_000, help="corpus size of the overhead comparison")
    ap.add_argument("--sizes", default="100000,1000000", help="corpus sizes of the memory measurement")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--method", default="auto", help="overhead method: auto (synonyms if it works), synonyms, noise")
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--api-url", default=None, help="use this Prefect API instead of starting a local server")
    ap.add_argument("--skip-overhead", action="store_true")
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--child", choices=("loop", "flow", "flow-seq"), help=argparse.SUPPRESS)
    ap.add_argument("--corpus", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        args.kind = args.child
        child(args)
        return

    from prefect_server import LocalPrefectServer

    from bsl_pipeline.flows.prefect_env import prefect_env

    work = Path(args.workdir or tempfile.mkdtemp(prefix="bsl-bench-flows-"))
    work.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, **prefect_env(), "BSL_NO_PROGRESS": "1", "OMP_NUM_THREADS": "1",
           "PREFECT_HOME": str(work / "prefect-home"), "PREFECT_LOGGING_LEVEL": "WARNING"}
    server = None
    if args.api_url:
        env["PREFECT_API_URL"] = args.api_url
    else:
        t = time.perf_counter()
        server = LocalPrefectServer(home=work / "prefect-home").start()
        env["PREFECT_API_URL"] = server.api_url
        print(f"local Prefect server {server.api_url} healthy after {time.perf_counter() - t:.1f} s", flush=True)
    try:
        if not args.skip_overhead:
            overhead(args, work, env)
        if not args.skip_memory:
            memory(args, work, env)
    finally:
        if server is not None:
            server.stop()


def overhead(args: argparse.Namespace, work: Path, env: dict[str, str]) -> None:
    method = pick_method(args.method)
    corpus = work / f"corpus_{args.lines}.txt"
    if not corpus.exists():
        make_corpus(corpus, args.lines)
    print(f"overhead: {args.lines} sentences, method {method}, {args.repeats} repeats, default chunk size "
          f"(10000 -> {-(-args.lines // 10000)} tasks); flow = default thread runner (2 workers, chunk reading "
          f"overlaps augmentation), flow-seq = 1 worker, max_in_flight 1 (one task at a time: the loop's order)",
          flush=True)
    kinds = ("loop", "flow", "flow-seq")
    runs: dict[str, list[dict]] = {k: [] for k in kinds}
    for i in range(args.repeats):
        for kind in kinds:
            r = run_child(kind, corpus, work / f"ds_{kind}_{method}_{i}", method, env)
            runs[kind].append(r)
            print(f"  {kind:8} #{i}: call {r['seconds']:7.2f} s | imports {r['import_s']:5.2f} s | model setup "
                  f"{r['setup_s']:5.2f} s | process {r['process_s']:7.2f} s | peak RSS {r['rss_mib']:6.0f} MiB | "
                  f"{r['pairs']} pairs" + (f" | tasks {r['task_states']}" if "task_states" in r else ""), flush=True)
    best = {k: min(r["seconds"] for r in runs[k]) for k in kinds}
    best_p = {k: min(r["process_s"] for r in runs[k]) for k in kinds}
    assert len({runs[k][0]["pairs"] for k in kinds}) == 1, "flow and loop made different datasets"
    for kind in ("flow-seq", "flow"):
        print(f"overhead ({method}, best of {args.repeats}): {kind}/loop call time {best[kind] / best['loop']:.3f} "
              f"({best[kind] - best['loop']:+.2f} s, {100 * (best[kind] - best['loop']) / best['loop']:+.1f}%; goal "
              f"<= +5%) | whole process incl. imports {best_p[kind] / best_p['loop']:.3f} "
              f"({best_p[kind] - best_p['loop']:+.2f} s)", flush=True)


def memory(args: argparse.Namespace, work: Path, env: dict[str, str]) -> None:
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    for n in sizes:
        corpus = work / f"corpus_{n}.txt"
        if not corpus.exists():
            make_corpus(corpus, n)
        r = run_child("flow", corpus, work / f"ds_mem_{n}", "noise", env)
        rows.append((n, r))
        print(f"memory: flow, noise, {n:>9} sentences: peak RSS {r['rss_mib']:6.0f} MiB | call {r['seconds']:7.1f} s "
              f"({n / r['seconds']:.0f} sentences/s) | {r['pairs']} pairs | tasks {r['task_states']}", flush=True)
    if len(rows) > 1:
        (n0, a), (n1, b) = rows[0], rows[-1]
        print(f"memory: corpus x{n1 / n0:.0f} -> flow peak RSS x{b['rss_mib'] / a['rss_mib']:.2f} "
              f"({a['rss_mib']:.0f} -> {b['rss_mib']:.0f} MiB; goal flat, < 1536 MiB)", flush=True)


if __name__ == "__main__":
    main()
