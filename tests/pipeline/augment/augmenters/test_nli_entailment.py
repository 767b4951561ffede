"""NLI entailment pairs as views: label handling, and the exact pairs of the shared SNLI dev files."""

from __future__ import annotations

import csv
from collections import Counter

import pytest

from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter


def run(records):
    return build_augmenter("nli-entailment").augment_batch(records, seed=0)


def test_entailment_pairs_become_views_and_everything_else_is_kept_as_a_reject():
    recs = [
        SourceRecord("1", "A man plays.", "Someone plays.", "entailment"),
        SourceRecord("2", "A man plays.", "A woman sleeps.", "contradiction"),
        SourceRecord("3", "A man plays.", "A man plays well.", "neutral"),
        SourceRecord("4", "A man plays.", "A person plays.", "0"),  # `datasets` ClassLabel ints
        SourceRecord("5", "A man plays.", "Nobody plays.", "2"),
        SourceRecord("6", "A man plays.", "A man plays a game.", "1"),
        SourceRecord("7", "A man plays.", None, "entailment"),
        SourceRecord("8", "A man plays.", "   ", "entailment"),
        SourceRecord("9", "A man plays.", "Maybe.", None),
        SourceRecord("10", "A man plays.", "Maybe.", "-"),
        SourceRecord("11", "A man plays.", "Maybe.", "maybe"),
        SourceRecord("12", "A man plays.", "Someone plays.", "Entailment"),
    ]
    out = run(recs)
    assert len(out) == len(recs)
    assert [p.reject for p in out] == [None, "not_entailment", "not_entailment", None, "not_entailment",
                                       "not_entailment", "not_a_sentence_pair", "not_a_sentence_pair",
                                       "no_gold_label", "no_gold_label", "unknown_label", None]
    assert [p.info["label"] for p in out[:6]] == ["entailment", "contradiction", "neutral", "entailment",
                                                  "contradiction", "neutral"]
    assert (out[0].view1, out[0].view2) == ("A man plays.", "Someone plays.")
    assert (out[1].view1, out[1].view2) == ("A man plays.", "A woman sleeps.")  # rejects keep both sentences
    assert out[10].info["label"] == "maybe"


# -- the shared SNLI dev files ------------------------------------------------------------------------------------

def _ws(text: str) -> str:
    return " ".join(text.split())


def independent_csv_pairs(path) -> set[tuple[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return {(_ws(r["premise"]), _ws(r["hypothesis"])) for r in csv.DictReader(fh) if r["label"] == "entailment"}


def independent_senteval_pairs(directory) -> set[tuple[str, str]]:
    def lines(name):
        with open(directory / name, encoding="utf-8") as fh:
            return fh.read().splitlines()

    return {(_ws(a), _ws(b)) for a, b, label in zip(lines("s1.dev"), lines("s2.dev"), lines("labels.dev"))
            if label.strip() == "entailment"}


def source_records(path, fmt) -> list[SourceRecord]:
    """What the corpus stage hands to augmenters: normalised text, one record per distinct (premise, hypothesis)."""
    from bsl_pipeline.pipeline.base.text import normalize, stable_id
    from bsl_pipeline.pipeline.corpus.readers import read_records

    seen, out = set(), []
    for raw in read_records(path, format=fmt):
        text, text_b = normalize(raw.text), normalize(raw.text_b) if raw.text_b is not None else None
        sid = stable_id(text, text_b or "")
        if sid in seen:
            continue
        seen.add(sid)
        out.append(SourceRecord(sid, text, text_b, raw.label, raw.origin))
    return out


@pytest.mark.parametrize("fmt", ["csv", "auto"])
def test_snli_dev_csv_gives_exactly_its_distinct_entailment_pairs(shared_data, fmt):
    path = shared_data / "nli" / "snli" / "dev.csv"
    expected = independent_csv_pairs(path)
    assert len(expected) == 3323  # 3325 entailment rows, 2 repeated pairs (SOURCE.txt)
    out = list(build_augmenter("nli-entailment").augment(source_records(path, fmt), seed=0))
    accepted = [(p.view1, p.view2) for p in out if p.reject is None]
    assert len(accepted) == len(set(accepted)) == 3323
    assert set(accepted) == expected
    assert Counter(p.reject for p in out if p.reject) == {"not_entailment": 9829 - 3323}
    assert Counter(p.info["label"] for p in out) == {"entailment": 3323, "contradiction": 3275, "neutral": 3231}


@pytest.mark.parametrize("fmt", ["senteval", "auto"])
def test_snli_senteval_triples_give_exactly_their_distinct_entailment_pairs(shared_data, fmt):
    directory = shared_data / "nli" / "snli" / "senteval_tok"
    expected = independent_senteval_pairs(directory)
    assert len(expected) == 3327  # 3329 entailment lines, 2 exact duplicate pairs (SOURCE.txt)
    out = list(build_augmenter("nli-entailment").augment(source_records(directory / "s1.dev", fmt), seed=0))
    accepted = {(p.view1, p.view2) for p in out if p.reject is None}
    assert sum(p.reject is None for p in out) == len(accepted) == 3327
    assert accepted == expected
    assert {p.reject for p in out if p.reject} == {"not_entailment"}
