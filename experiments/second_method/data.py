"""The sentence blocks of this experiment: dev (STS-B dev sentences, SNLI dev premises; for the rules for news,
forum and fiction text also STS 2012-2013 test sentences and MNLI dev_matched premises) for development, fresh
(STS 2014-2016 sentences, MNLI dev_mismatched premises, then its hypotheses) only for coverage and the blind samples: their first 1,500
sentences (in the shuffled order) for the first samples, the next 1,500 (`block(..., skip=1500)`) for the later."""

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


def _sts(years) -> list[str]:
    texts = []
    for year in years:
        for path in sorted(glob.glob(str(DATA / "sts" / year / "STS.input.*.txt"))):
            for line in open(path, encoding="utf-8", errors="replace"):
                texts += line.rstrip("\n").split("\t")[:2]
    return _distinct(texts)


def sts14_16() -> list[str]:
    return _sts(("sts14", "sts15", "sts16"))


def sts12_13() -> list[str]:
    return _sts(("sts12", "sts13"))


def _mnli(split: str, column: str = "premise") -> list[str]:
    with open(DATA / f"nli/mnli/{split}.csv", encoding="utf-8") as f:
        return _distinct(r[column] for r in csv.DictReader(f))


def mnli_mm() -> list[str]:
    return _mnli("dev_mismatched")


def mnli_m() -> list[str]:
    return _mnli("dev_matched")


def mnli_mm_hypotheses() -> list[str]:
    """The hypotheses of MNLI dev_mismatched (written by crowdworkers for the premises' genres), none that is also a
    premise: fresh sentences once the premises had all been read."""
    premises = set(mnli_mm())
    return [t for t in _mnli("dev_mismatched", "hypothesis") if t not in premises]


BLOCKS = {"stsb-dev": stsb_dev, "snli-dev": snli_dev, "sts12-13": sts12_13, "mnli-m": mnli_m,
          "sts14-16": sts14_16, "mnli-mm": mnli_mm, "mnli-mm-hyp": mnli_mm_hypotheses}
DEV = ("stsb-dev", "snli-dev", "sts12-13", "mnli-m")
FRESH = ("sts14-16", "mnli-mm")


def block(name: str, n: int | None = None, seed: int = 0, skip: int = 0) -> list[str]:
    """The block's distinct sentences in a fixed shuffled order (n of them after the first `skip`)."""
    texts = BLOCKS[name]()
    random.Random(f"{seed}:{name}").shuffle(texts)
    return texts[skip:skip + n] if n else texts[skip:]
