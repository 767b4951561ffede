"""Coverage of the `rewrites` method (and of `synonyms`, and of either) on a block of sentences: the share of
sentences that get a view, by rule and by reject reason; with --show N, N random views per rule.

    OMP_NUM_THREADS=1 .venv/bin/python experiments/second_method/coverage.py --block stsb-dev --block snli-dev \
        [--show 8]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from data import block

from bsl_pipeline.pipeline.augment.augmenters import build_augmenter
from bsl_pipeline.pipeline.augment.augmenters.base import SourceRecord


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--block", action="append", required=True)
    p.add_argument("--sentences", type=int, default=1500)
    p.add_argument("--show", type=int, default=0)
    p.add_argument("--no-synonyms", action="store_true")
    p.add_argument("--rule", action="append", help="show only these rules")
    args = p.parse_args()
    rewrites = build_augmenter("rewrites")
    synonyms = None if args.no_synonyms else build_augmenter("synonyms")
    for name in args.block:
        texts = block(name, args.sentences)
        records = [SourceRecord(source_id=f"{name}-{i}", text=t) for i, t in enumerate(texts)]
        out = list(rewrites.augment(records, seed=0))
        syn = list(synonyms.augment(records, seed=0)) if synonyms else [None] * len(out)
        reasons, rules, examples = Counter(), Counter(), defaultdict(list)
        applies = Counter()
        either = 0
        for r, o, s in zip(records, out, syn):
            for rule in rewrites.applicable(r.text) if o.reject is None else ():
                applies[rule] += 1
            if o.reject is None:
                rules[o.info["rules"][0]] += 1
                examples[o.info["rules"][0]].append((r.text, o.view2))
            else:
                reasons[o.reject] += 1
            either += (o.reject is None) or (s is not None and s.reject is None)
        n = len(records)
        got = n - sum(reasons.values())
        print(f"# block {name}: {n} sentences")
        print(f"rewrites: view for {got} ({got / n:.1%})")
        if synonyms:
            syn_got = sum(s.reject is None for s in syn)
            print(f"synonyms: view for {syn_got} ({syn_got / n:.1%}); either: {either} ({either / n:.1%})")
        print("  rule drawn / rule applies:")
        for rule in sorted(applies, key=lambda k: -applies[k]):
            print(f"    {rule:16s} {rules[rule]:5d} {applies[rule]:5d} ({applies[rule] / n:.1%})")
        print("  rejects:", dict(reasons.most_common()))
        if args.show:
            rng = random.Random(1)
            for rule, pairs in sorted(examples.items()):
                if args.rule and rule not in args.rule:
                    continue
                print(f"\n  == {rule}")
                for src, view in rng.sample(pairs, min(args.show, len(pairs))):
                    print(f"   {src}\n   {view}\n")
        print()


if __name__ == "__main__":
    main()
