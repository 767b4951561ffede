"""A local copy of the public sets in the Hugging Face hub's file layout, built from the reference files in
../shared/data, so `bsl data fetch --mirror` can be tested offline.

Each hub dataset becomes `<mirror>/<owner>/<name>/` with the columns its hub copy has (MTEB's sentence1, sentence2,
score; the NLI sets' premise, hypothesis and ClassLabel label), in both file layouts the hub uses: `<split>.parquet`
(the MTEB sets) and `data/<split>-00000-of-00001.parquet` (SNLI, MultiNLI). Contents are the reference files'
pairs, not the hub's: STS12-16 are written pooled as on the hub (subsets concatenated in SentEval's order), SICK-R
is the SemEval-2014 test split, and the NLI train splits are small stand-ins (one SNLI train row has no gold label,
as 785 of the real ones do).
"""

from __future__ import annotations

import csv
from pathlib import Path

NLI_LABELS = ["entailment", "neutral", "contradiction"]


def _write(rows: dict[str, list], path: Path, label_names: list[str] | None = None) -> None:
    from datasets import ClassLabel, Dataset, Features, Value

    features = Features({name: (ClassLabel(names=label_names) if name == "label" and label_names else
                                Value("float64") if name == "score" else Value("string")) for name in rows})
    path.parent.mkdir(parents=True, exist_ok=True)
    Dataset.from_dict(rows, features=features).to_parquet(str(path))


def _sts_rows(pairsets) -> dict[str, list]:
    rows: dict[str, list] = {"split": [], "sentence1": [], "sentence2": [], "score": []}
    for ps in pairsets:
        rows["split"] += ["test"] * len(ps)
        rows["sentence1"] += list(ps.sentences1)
        rows["sentence2"] += list(ps.sentences2)
        rows["score"] += list(ps.scores)
    return rows


def _stsb_rows(path: Path) -> dict[str, list]:
    keys = ("genre", "dataset", "year", "sid", "score", "sentence1", "sentence2")
    rows: dict[str, list] = {k: [] for k in keys}
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.strip():
            for key, value in zip(keys, line.split("\t")[:7]):
                rows[key].append(float(value) if key == "score" else value)
    return rows


def _nli_rows(records: list[tuple[str, str, str]]) -> dict[str, list]:
    return {"premise": [r[0] for r in records], "hypothesis": [r[1] for r in records],
            "label": [NLI_LABELS.index(r[2]) if r[2] in NLI_LABELS else -1 for r in records]}


def _csv_records(path: Path) -> list[tuple[str, str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return [(r["premise"], r["hypothesis"], r["label"]) for r in csv.DictReader(fh)]


def _senteval_records(folder: Path, split: str) -> list[tuple[str, str, str]]:
    parts = [(folder / f"{kind}.{split}").read_text(encoding="utf-8").split("\n") for kind in ("s1", "s2", "labels")]
    return [(a, b, label) for a, b, label in zip(*parts) if label]


def build_hub_mirror(shared: Path, out: Path) -> Path:
    """Write the mirror of every set `bsl data fetch` knows under `out`; returns `out`."""
    from training.evaluation.data import STS_SUBSETS, load_sick, load_sts_year

    for year in STS_SUBSETS:
        _write(_sts_rows(load_sts_year(shared, year).values()), out / "mteb" / f"{year}-sts" / "test.parquet")
    for split, hub_split in (("train", "train"), ("dev", "validation"), ("test", "test")):
        _write(_stsb_rows(shared / "stsbenchmark" / f"sts-{split}.csv"),
               out / "mteb" / "stsbenchmark-sts" / f"{hub_split}.parquet")
    _write(_sts_rows([load_sick(shared, "test")]), out / "mteb" / "sickr-sts" / "test.parquet")
    snli = shared / "nli" / "snli"
    train = _senteval_records(snli / "senteval_tok", "dev")[:300] + [("A man sleeps.", "A man is awake.", "-")]
    for hub_split, records in (("train", train), ("validation", _csv_records(snli / "dev.csv")),
                               ("test", _senteval_records(snli / "senteval_tok", "test"))):
        _write(_nli_rows(records), out / "stanfordnlp" / "snli" / "data" / f"{hub_split}-00000-of-00001.parquet",
               NLI_LABELS)
    mnli = shared / "nli" / "mnli"
    for hub_split, records in (("train", _csv_records(mnli / "dev_matched.csv")[:300]),
                               ("validation_matched", _csv_records(mnli / "dev_matched.csv")),
                               ("validation_mismatched", _csv_records(mnli / "dev_mismatched.csv"))):
        _write(_nli_rows(records), out / "nyu-mll" / "multi_nli" / "data" / f"{hub_split}-00000-of-00001.parquet",
               NLI_LABELS)
    return out
