"""The `rewrites` augmenter: the reasons a sentence gets no view, determinism, fingerprints, and `bsl augment
--methods rewrites` end to end (each rule's cases: tests/pipeline/augment/test_rewrite_cases.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
from bsl_pipeline.pipeline.augment.augmenters.rewrites import (
    RULE_FUNCTIONS, RULES, RewritesConfig, no_rule_reason, tokenize,
)
from bsl_pipeline.pipeline.augment.rewrite_rules.catalog import rule_specs
from bsl_pipeline.pipeline.augment.rewrite_rules.clauses import CLAUSE_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.contractions import CONTRACTION_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.grammar import GRAMMAR_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.order import ORDER_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.sentences import SENTENCE_RULES

# The rules the draw tests below were written for (a rule added later would change which rule is drawn).
DRAWN_RULES = [*CONTRACTION_RULES, *GRAMMAR_RULES, *ORDER_RULES, *CLAUSE_RULES, *SENTENCE_RULES]


def test_number_words_respects_max_number():
    text = "Two young men sitting at the end of a long table eating; there are 3 plates full of food."
    assert RULE_FUNCTIONS["number_words"](text, tokenize(text), RewritesConfig(max_number=2)) is None
    assert "three plates" in RULE_FUNCTIONS["number_words"](text, tokenize(text), RewritesConfig())


def _run(aug, texts, seed=0):
    return list(aug.augment([SourceRecord(source_id=f"r{i}", text=t) for i, t in enumerate(texts)], seed))


def test_sentences_that_get_no_view_say_why():
    aug = build_augmenter("rewrites")
    texts = ["Der Mann spielt eine Gitarre auf der Bühne heute.", "A MAN IS PLAYING A GUITAR ON STAGE.",
             "if (x == 1) { return foo(); }", "A man is playing guitar, see http://example.com/video",
             "#love #summer #beach #fun", "Hi there", "Obama signs the bill into law", "The sky is blue."]
    assert [p.reject for p in _run(aug, texts)] == [
        "not_english", "all_capitals", "code", "url", "hashtags", "too_short",
        "no_rule_applies:split_clauses.question_quotation_or_headline",  # a headline: no final stop
        "no_rule_applies"]  # no rule finds anything to rewrite


def test_no_rule_applies_names_the_guard_of_the_first_rule_that_refused():
    assert no_rule_reason({}) == "no_rule_applies"
    assert no_rule_reason({"there": "group_agreement", "add_is": "has_finite_verb"}) == \
        "no_rule_applies:there.group_agreement"
    text = "A group of children are playing in the park."
    aug = build_augmenter("rewrites", {"rules": ["there", "contract"]})
    refusals: dict[str, str] = {}
    assert aug.applicable(text, refusals) == {} and refusals == {"there": "group_agreement"}
    assert _run(aug, [text])[0].reject == "no_rule_applies:there.group_agreement"
    only_contract = build_augmenter("rewrites", {"rules": ["contract"]})
    assert _run(only_contract, [text])[0].reject == "no_rule_applies"


def test_views_are_source_and_rewrite_deterministic_per_record():
    aug = build_augmenter("rewrites", {"rules": DRAWN_RULES})
    texts = [c.source for rule in DRAWN_RULES for c in rule_specs()[rule].golden]
    records = [SourceRecord(source_id=f"r{i}", text=t) for i, t in enumerate(texts)]
    first = list(aug.augment(records, 0))
    again = list(aug.augment(list(reversed(records)), 0, batch_size=3))
    assert [p.view1 for p in first] == texts
    assert all(p.reject is None and p.view2 != p.view1 for p in first)
    assert [p.view2 for p in reversed(again)] == [p.view2 for p in first]  # order and batching do not matter
    only = {p.view1: p.info["rules"] for p in first}
    assert only["Two dogs are playing in the grass."] in (["front_place"], ["there"])


def test_max_rules_applies_several_rewrites():
    text = "A man is sitting on a bench."
    pair = _run(build_augmenter("rewrites", {"max_rules": 2, "rules": DRAWN_RULES}), [text])[0]
    assert pair.info["rules"] == ["there", "contract"]  # the second rule applies to the first one's result
    assert pair.view2 == "There's a man sitting on a bench."


def test_fingerprint_changes_with_each_setting():
    base = build_augmenter("rewrites").fingerprint_hash()
    changed = [{"rules": ["contract", "expand"]}, {"max_rules": 2}, {"max_number": 9},
               {"min_english_share": 0.5}, {"min_words": 4}]
    hashes = {build_augmenter("rewrites", c).fingerprint_hash() for c in changed}
    assert base not in hashes and len(hashes) == len(changed)


def test_bad_settings_name_the_key():
    from bsl_pipeline.pipeline.base.errors import BSLError

    with pytest.raises(BSLError, match="method_params.rewrites.max_rules"):
        build_augmenter("rewrites", {"max_rules": 0})
    with pytest.raises(BSLError, match="method_params.rewrites.rules"):
        build_augmenter("rewrites", {"rules": ["contract", "contract"]})


def test_bsl_augment_end_to_end_on_real_sentences(tmp_path, shared_data):
    rows = [line.split("\t") for line in (shared_data / "stsbenchmark/sts-dev.csv").read_text().splitlines()[:60]]
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(r[5] for r in rows) + "\n")
    proc = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "augment", str(corpus), "--out",
                           str(tmp_path / "out"), "--methods", "rewrites", "-o", "registry_dir=", "-o",
                           "progress=false"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    import pyarrow.parquet as pq

    stats = manifest["stats"]["per_method"]["rewrites"]
    assert stats["pairs"] > 10 and {r.split(":")[0] for r in stats["rejects"]} == {"no_rule_applies"}, stats
    named = {r.split(":")[1] for r in stats["rejects"] if ":" in r}
    assert named and all(r.split(".")[0] in RULES for r in named), stats
    shown = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "inspect", str(tmp_path / "out"), "--stats"],
                           capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    assert f"no_rule_applies={stats['rejected']} (" in shown.stdout  # the guards that refused, by count
    assert all(f"{guard}=" in shown.stdout for guard in named), shown.stdout
    table = pq.read_table(tmp_path / "out" / "data" / "train-00000-of-00001.parquet").to_pylist()
    assert len(table) == stats["pairs"]
    got = {r["source"]: r["view2"] for r in table}
    guitars = build_augmenter("rewrites").applicable("Three men are playing guitars.")
    assert got["Three men are playing guitars."] in guitars.values()
    assert guitars["there"] == "There are three men playing guitars."
    source = "A man is feeding a mouse to a snake."
    options = build_augmenter("rewrites").applicable(source)  # the view is one of them, drawn per record
    assert got[source] in options.values() and options["there"] == "There is a man feeding a mouse to a snake."
    assert all(json.loads(r["params"])["rules"] for r in table)
