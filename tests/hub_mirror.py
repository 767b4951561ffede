"""A local copy of the public sets in the Hugging Face hub's file layout, built from the reference files in
../shared/data, so `bsl data fetch --mirror` can be tested offline.

Each hub dataset becomes `<mirror>/<owner>/<name>/` with the columns its hub copy has (MTEB's sentence1, sentence2,
score; the NLI sets' premise, hypothesis and ClassLabel label), in both file layouts the hub uses: `<split>.parquet`
(the MTEB sets) and `data/<split>-00000-of-00001.parquet` (SNLI, MultiNLI). Contents are the reference files'
pairs, not the hub's: STS12-16 are written pooled as on the hub (subsets concatenated in SentEval's order), SICK-R
is the SemEval-2014 test split, and the NLI train splits are small stand-ins (one SNLI train row has no gold label,
as 785 of the real ones do). The SentEval transfer sets and STS 2017 are tiny synthetic rows in their hub copies'
layouts (`build_transfer_mirror`).
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
    from bsl_pipeline.evaluation.data import STS_SUBSETS, load_sick, load_sts_year

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
    return build_transfer_mirror(out)


# ---------------------------------------------------------------------------------------------------------------
# The SentEval transfer sets and STS 2017: tiny synthetic rows in each hub copy's real file layout and columns
# (the reference files are not in ../shared/data). Sentences carry their class in a keyword, so a classifier on
# any reasonable encoder separates them; counts are small but allow 10-fold stratified cross-validation.

TRANSFER_WORDS = {"neg": ("dull", "awful", "boring"), "pos": ("great", "lovely", "superb")}
STS17_LANGS = ("ar-ar", "en-ar", "en-de", "en-en", "en-tr", "es-en", "es-es", "fr-en", "it-en", "ko-ko", "nl-en")


def transfer_sentences(label: str, n: int, offset: int = 0) -> list[str]:
    words = TRANSFER_WORDS[label]
    return [f"the film number {offset + i} was {words[i % 3]} and {words[(i + 1) % 3]}" for i in range(n)]


def _jsonl(rows: list[dict], path: Path, gzipped: bool = False) -> None:
    import gzip
    import json

    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    if gzipped:
        with gzip.open(path, "wt", encoding="utf-8") as fh:
            fh.write(text)
    else:
        path.write_text(text, encoding="utf-8")


def _binary_rows(n_per_class: int, offset: int, label_text: tuple[str, str] | None = None) -> list[dict]:
    rows = []
    for label, name in ((0, "neg"), (1, "pos")):
        for text in transfer_sentences(name, n_per_class, offset):
            row = {"text": text, "label": label}
            if label_text:
                row["label_text"] = label_text[label]
            rows.append(row)
    return rows


def _parquet_rows(rows: list[dict], path: Path, class_labels: dict[str, list[str]] | None = None) -> None:
    from datasets import ClassLabel, Dataset, Features, Value

    class_labels = class_labels or {}
    sample = rows[0]
    features = Features({k: ClassLabel(names=class_labels[k]) if k in class_labels else
                         Value("int64") if isinstance(v, int) else Value("float64") if isinstance(v, float)
                         else Value("string") for k, v in sample.items()})
    path.parent.mkdir(parents=True, exist_ok=True)
    Dataset.from_list(rows, features=features).to_parquet(str(path))


def build_transfer_mirror(out: Path) -> Path:
    """The hub copies `bsl data fetch` reads for mr, cr, subj, mpqa, sst2, trec, mrpc and sts17, in their layouts:
    parquet files named after the split (rotten_tomatoes), `<split>.jsonl` with text/label/label_text (SetFit, whose
    SST-2 names its dev split dev.jsonl and whose CR repo also holds SentEval's raw custrev.pos/neg), `data/<split>-*`
    parquet (jxm/mpqa, with its dev split), the parquet export `default/<split>/0000.parquet` (CogComp/trec),
    a multi-config repo whose README lists each config's files (nyu-mll/glue), `test/<pair>.jsonl.gz` with a lang
    column (mteb/sts17-crosslingual-sts)."""
    rt = out / "cornell-movie-review-data" / "rotten_tomatoes"
    for split, n, offset in (("train", 8, 0), ("validation", 2, 100), ("test", 2, 200)):
        _parquet_rows(_binary_rows(n, offset), rt / f"{split}.parquet", {"label": ["neg", "pos"]})
    cr = out / "SetFit" / "SentEval-CR"
    _jsonl(_binary_rows(8, 0, ("negative", "positive")), cr / "train.jsonl")
    _jsonl(_binary_rows(3, 100, ("negative", "positive")), cr / "test.jsonl")
    (cr / "custrev.pos").write_text("\n".join(transfer_sentences("pos", 3)) + "\n", encoding="utf-8")
    (cr / "custrev.neg").write_text("\n".join(transfer_sentences("neg", 3)) + "\n", encoding="utf-8")
    subj = out / "SetFit" / "subj"
    _jsonl(_binary_rows(9, 0, ("objective", "subjective")), subj / "train.jsonl")
    _jsonl(_binary_rows(2, 100, ("objective", "subjective")), subj / "test.jsonl")
    mpqa = out / "jxm" / "mpqa" / "data"
    for split, n, offset in (("train", 8, 0), ("test", 2, 100), ("dev", 1, 0)):
        rows = [{"sentence": r["text"], "label": r["label"]} for r in _binary_rows(n, offset)]
        _parquet_rows(rows, mpqa / f"{split}-00000-of-00001.parquet")
    sst2 = out / "SetFit" / "sst2"
    for split, n, offset in (("train", 10, 0), ("dev", 4, 100), ("test", 5, 200)):
        _jsonl(_binary_rows(n, offset, ("negative", "positive")), sst2 / f"{split}.jsonl")
    coarse = ["ABBR", "ENTY", "DESC", "HUM", "LOC", "NUM"]
    questions = {"DESC": "what does {} mean", "HUM": "who invented {}", "LOC": "where is {} located",
                 "NUM": "how many {} are there", "ENTY": "which animal eats {}", "ABBR": "what is {} short for"}
    things = ["radar", "paper", "glass", "cheese", "silk", "tea", "salt", "ink", "soap", "wool", "iron", "rice"]
    for split, picked in (("train", things[:10]), ("test", things[10:])):
        rows = [{"text": questions[c].format(t), "coarse_label": coarse.index(c), "fine_label": 0}
                for c in coarse for t in picked]
        _parquet_rows(rows, out / "CogComp" / "trec" / "default" / split / "0000.parquet",
                      {"coarse_label": coarse, "fine_label": ["ABBR:abb"]})
    glue = out / "nyu-mll" / "glue"
    for split, n, offset in (("train", 8, 0), ("validation", 2, 100), ("test", 3, 200)):
        rows = []
        for i, (a, b) in enumerate(zip(transfer_sentences("pos", n, offset), transfer_sentences("neg", n, offset))):
            rows.append({"sentence1": a, "sentence2": a.replace("the film", "this film"), "label": 1, "idx": 2 * i})
            rows.append({"sentence1": a, "sentence2": b, "label": 0, "idx": 2 * i + 1})
        _parquet_rows(rows, glue / "mrpc" / f"{split}-00000-of-00001.parquet",
                      {"label": ["not_equivalent", "equivalent"]})
    _parquet_rows([{"sentence": "a sentence", "label": 1, "idx": 0}], glue / "cola" / "train-00000-of-00001.parquet",
                  {"label": ["unacceptable", "acceptable"]})
    (glue / "README.md").write_text(
        "---\nconfigs:\n- config_name: cola\n  data_files:\n  - split: train\n    path: cola/train-*\n"
        "- config_name: mrpc\n  data_files:\n  - split: train\n    path: mrpc/train-*\n  - split: validation\n"
        "    path: mrpc/validation-*\n  - split: test\n    path: mrpc/test-*\n---\n", encoding="utf-8")
    sts17 = out / "mteb" / "sts17-crosslingual-sts" / "test"
    for k, lang in enumerate(STS17_LANGS):
        rows = [{"sentence1": f"{lang} sentence {i} about the film", "sentence2": f"{lang} other text {i * k}",
                 "score": round(5.0 * ((i * (k + 3)) % 11) / 10, 1), "lang": lang} for i in range(12)]
        _jsonl(rows, sts17 / f"{lang}.jsonl.gz", gzipped=True)
    return out
