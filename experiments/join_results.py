"""Join the results.json of one comparison that compare_peers.py ran in parts (seeds in separate processes, side by
side) into one results.json and table.md: the runs lists concatenated in the order given; the parts must have been
run with the same settings (all arguments but --seeds and --out) and have scored the encoder alike.

    .venv/bin/python experiments/join_results.py --out DIR PART_DIR [PART_DIR ...]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare_peers  # noqa: E402  (the table is compare_peers.py's own)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("parts", nargs="+")
    args = p.parse_args()
    saved = [json.loads((Path(d) / "results.json").read_text(encoding="utf-8")) for d in args.parts]
    first = saved[0]
    for d, s in zip(args.parts[1:], saved[1:]):
        differ = sorted(k for k in set(first["args"]) | set(s["args"]) if k not in ("seeds", "out")
                        and first["args"].get(k) != s["args"].get(k))
        if differ:
            raise SystemExit(f"{d} was run with other settings: {', '.join(differ)}")
        off = [k for k in first["before"] if not math.isclose(first["before"][k], s["before"].get(k, math.nan),
                                                              abs_tol=1e-9)]
        if off:
            raise SystemExit(f"{d} scored the encoder differently: {', '.join(off)}")
    runs = [r for s in saved for r in s["runs"]]
    seeds = ",".join(sorted({str(r["seed"]) for r in runs}, key=int))
    joined = {**first, "args": {**first["args"], "seeds": seeds, "out": args.out}, "runs": runs}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(joined, indent=2), encoding="utf-8")
    table = compare_peers._table(joined["before"], joined["runs"], argparse.Namespace(**joined["args"]))
    (out / "table.md").write_text(table + "\n", encoding="utf-8")
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
