"""The sentence blocks of this experiment: dev (STS-B dev sentences, SNLI dev premises) for development, fresh
(STS 2014-2016 sentences, MNLI dev_mismatched premises) only for coverage and the blind sample."""

from __future__ import annotations

import csv
import glob
import random
from pathlib import Path

DATA = Path("/work/shared/data")


def _distinct(texts):
    seen, out = set(), []
    for t in texts:
        t = " ".join(t.split())
        if t and t not in seen:
            seen.add(t)
            out.append(t)
    return out


def stsb_dev() -> list[str]:
    rows = (line.rstrip("\n").split("\t") for line in open(DATA / "stsbenchmark/sts-dev.csv", encoding="utf-8"))
    return _distinct(t for r in rows for t in r[5:7])


def snli_dev() -> list[str]:
    with open(DATA / "nli/snli/dev.csv", encoding="utf-8") as f:
        return _distinct(r["premise"] for r in csv.DictReader(f))


def sts14_16() -> list[str]:
    texts = []
    for year in ("sts14", "sts15", "sts16"):
        for path in sorted(glob.glob(str(DATA / "sts" / year / "STS.input.*.txt"))):
            for line in open(path, encoding="utf-8", errors="replace"):
                texts += line.rstrip("\n").split("\t")[:2]
    return _distinct(texts)


def mnli_mm() -> list[str]:
    with open(DATA / "nli/mnli/dev_mismatched.csv", encoding="utf-8") as f:
        return _distinct(r["premise"] for r in csv.DictReader(f))


BLOCKS = {"stsb-dev": stsb_dev, "snli-dev": snli_dev, "sts14-16": sts14_16, "mnli-mm": mnli_mm}
DEV = ("stsb-dev", "snli-dev")
FRESH = ("sts14-16", "mnli-mm")


def block(name: str, n: int | None = None, seed: int = 0) -> list[str]:
    """The block's distinct sentences in a fixed shuffled order (first n)."""
    texts = BLOCKS[name]()
    random.Random(f"{seed}:{name}").shuffle(texts)
    return texts[:n] if n else texts
