"""Coverage and the blind sample on sentences nobody has read: the fresh blocks (STS 2014-2016 sentences, MNLI
dev_mismatched premises) from position 1,500 of their shuffled order, without any sentence that occurs in a file
of experiments/ (earlier samples, judged files).

For each block: the share of its first `--sentences` such sentences that get a `rewrites` view, a `synonyms` view
(both at their defaults, seed 0) and either, the mean changed-word share of each method's views, rejects by reason;
then the blind sample: the first 100 sentences with a rewrites view, the first 50 with a synonyms view and 50 more
rewrites views made by the rule families added after the grammatical ones (`rewrites-new`: from the sentences after
the first sample's), shuffled together into round/blind-<block>.tsv (n, source, view) with the key
round/blind-<block>.key.tsv (n, method, position, rules). The judge sees only the first file and
experiments/judged/RULES-blind-views.md.

    OMP_NUM_THREADS=1 .venv/bin/python experiments/views_round/make_round.py > experiments/views_round/coverage.txt
    # the second round (rewrites v4): sentences from position 3,000, 100 rewrites and 30 synonyms views per genre
    OMP_NUM_THREADS=1 .venv/bin/python experiments/views_round/make_round.py --skip 3000 --round round2 \
        --synonyms 30 --new 0 > experiments/views_round/coverage-round2.txt
    # the third round (rewrites v6, synonyms v12): STS 2014-2016 from position 4,500 (MNLI has no unread premises)
    OMP_NUM_THREADS=1 .venv/bin/python experiments/views_round/make_round.py --skip 4500 --round round3 \
        --synonyms 30 --new 50 > experiments/views_round/coverage-round3.txt
    # the fourth round (rewrites v8): STS 2014-2016 from position 6,000, extra views of clause and marker rules
    OMP_NUM_THREADS=1 .venv/bin/python experiments/views_round/make_round.py --skip 6000 --round round4 \
        --sentences 6000 --synonyms 20 --new 50 --new-rules \
        split_clauses,back_clause,back_phrase,will_going,that,relative > experiments/views_round/coverage-round4.txt
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "experiments" / "second_method"))

from data import FRESH, block  # noqa: E402

from bsl_pipeline.pipeline.augment.augmenters import build_augmenter  # noqa: E402
from bsl_pipeline.pipeline.augment.augmenters.base import SourceRecord  # noqa: E402
from bsl_pipeline.pipeline.augment.filters import changed_word_share  # noqa: E402
from bsl_pipeline.pipeline.augment.rewrite_rules.contractions import CONTRACTION_RULES  # noqa: E402
from bsl_pipeline.pipeline.augment.rewrite_rules.grammar import GRAMMAR_RULES  # noqa: E402
from bsl_pipeline.pipeline.augment.rewrite_rules.order import ORDER_RULES  # noqa: E402


def seen_sentences(own: Path) -> set[str]:
    """Every cell of every .tsv under experiments/ except the files of this round and of later rounds (folders of
    this one that sort after it: "round" < "round2"), so that a round's sentences stay the same when later rounds
    are added."""
    seen = set()
    for path in (REPO / "experiments").rglob("*.tsv"):
        if any(parent.parent == HERE and parent.name >= own.name for parent in path.parents):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                seen.update(" ".join(c.split()) for c in line.rstrip("\n").split("\t"))
    return seen


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--sentences", type=int, default=1500)
    p.add_argument("--no-sample", action="store_true")
    p.add_argument("--skip", type=int, default=1500, help="start at this position of each fresh block")
    p.add_argument("--round", default="round", help="folder (under this one) of the samples; its own files are "
                   "left out of the sentences already read")
    p.add_argument("--synonyms", type=int, default=50, help="synonyms views in the sample")
    p.add_argument("--new", type=int, default=50, help="extra views of the newer rule families in the sample")
    p.add_argument("--new-rules", default="", help="comma-separated rules the extra views come from (default: every "
                   "rule outside the grammatical family)")
    p.add_argument("--blocks", default=",".join(FRESH), help="comma-separated fresh blocks (data.py's BLOCKS)")
    args = p.parse_args()
    out = HERE / args.round
    seen = seen_sentences(out)
    methods = {m: build_augmenter(m) for m in ("rewrites", "synonyms")}
    out.mkdir(exist_ok=True)
    for name in args.blocks.split(","):
        texts = [t for t in block(name, skip=args.skip) if t not in seen][:args.sentences]
        records = [SourceRecord(source_id=f"{name}-{i}", text=t) for i, t in enumerate(texts)]
        if not records:
            print(f"# {name}: no unread sentences from position {args.skip}\n")
            continue
        pairs = {m: list(a.augment(records, seed=0)) for m, a in methods.items()}
        n = len(records)
        print(f"# {name}: {n} sentences (positions {args.skip}+ of the shuffled block, none read before)")
        got = {m: [x.reject is None for x in v] for m, v in pairs.items()}
        for m, v in pairs.items():
            kept = [x for x in v if x.reject is None]
            share = sum(changed_word_share(x.view1, x.view2) for x in kept) / max(1, len(kept))
            print(f"{m:9s} view for {len(kept):5d} ({len(kept) / n:.1%}); mean changed-word share {share:.3f}")
            print("   rejects:", dict(Counter(x.reject.split(":")[0] for x in v if x.reject).most_common()))
        either = sum(a or b for a, b in zip(got["rewrites"], got["synonyms"]))
        print(f"either    view for {either:5d} ({either / n:.1%})")
        rules = Counter(x.info["rules"][0] for x in pairs["rewrites"] if x.reject is None)
        print("   rewrites by rule:", dict(rules.most_common()))
        print()
        if args.no_sample:
            continue
        chosen = []
        for m, k in (("rewrites", 100), ("synonyms", args.synonyms)):
            rows = [(i, x) for i, x in enumerate(pairs[m]) if x.reject is None][:k]
            chosen += [(m, i, records[i].text, x.view2, "+".join(x.info.get("rules", []))) for i, x in rows]
        # and 50 more rewrites views drawn by the rules added after the grammatical ones, from the sentences after
        # the natural sample's, so that the new rule families are judged on more than their share of it
        last = max((i for m, i, *_ in chosen if m == "rewrites"), default=len(records))
        wanted = set(args.new_rules.split(",")) if args.new_rules else None
        first = {**GRAMMAR_RULES, **CONTRACTION_RULES, **ORDER_RULES}  # the first families (once all grammar's)
        rows = [(i, x) for i, x in enumerate(pairs["rewrites"]) if i > last and x.reject is None
                and (x.info["rules"][0] in wanted if wanted else x.info["rules"][0] not in first)][:args.new]
        chosen += [("rewrites-new", i, records[i].text, x.view2, "+".join(x.info["rules"])) for i, x in rows]
        random.Random(f"round:{name}").shuffle(chosen)
        with open(out / f"blind-{name}.tsv", "w", newline="", encoding="utf-8") as f, \
                open(out / f"blind-{name}.key.tsv", "w", newline="", encoding="utf-8") as g:
            w = csv.writer(f, delimiter="\t", lineterminator="\n")
            k = csv.writer(g, delimiter="\t", lineterminator="\n")
            w.writerow(["n", "source", "view"])
            k.writerow(["n", "method", "position", "rules"])
            for n_, (m, i, src, view, rule) in enumerate(chosen, 1):
                w.writerow([n_, src, view])
                k.writerow([n_, m, i, rule])


if __name__ == "__main__":
    main()
