"""How two datasets' views of one method differ: the sources only one of them has a view for, and the sources whose
view changed (each dataset's Parquet shards, read as untrusted input: only the columns named here).

    python experiments/views_round/diff_views.py runs/A/rwm-42/datasets/sentences runs/B/rwm-42/datasets/sentences \
        [--method rewrites] [--show 5]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pyarrow.parquet as pq


def views(dataset: Path, method: str) -> dict[str, str]:
    out = {}
    for shard in sorted((dataset / "data").glob("*.parquet")):
        for row in pq.read_table(shard, columns=["source", "view2", "method"]).to_pylist():
            if row["method"] == method:
                out[row["source"]] = row["view2"]
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("a", type=Path)
    p.add_argument("b", type=Path)
    p.add_argument("--method", default="rewrites")
    p.add_argument("--show", type=int, default=0)
    args = p.parse_args()
    a, b = views(args.a, args.method), views(args.b, args.method)
    changed = [s for s in a.keys() & b.keys() if a[s] != b[s]]
    print(f"{args.method}: {len(a)} views in A, {len(b)} in B; only in A {len(a.keys() - b.keys())}, only in B "
          f"{len(b.keys() - a.keys())}, changed {len(changed)}")
    for s in sorted(changed)[:args.show]:
        print(f"  {s}\n    A: {a[s]}\n    B: {b[s]}")


if __name__ == "__main__":
    main()
