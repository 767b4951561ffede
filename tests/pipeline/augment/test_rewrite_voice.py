"""The rules of the `rewrites` method that change the voice (`passive_by` of `rewrite_rules.voice`, `headline_active`
of `headlines`, `caption_passive` and `caption_active` of `captions`) beyond their cases (golden and refused:
`cases/<family>.json`, tests/pipeline/augment/test_rewrite_cases.py)."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter


def test_the_augmenter_applies_the_rules_that_change_the_voice():
    aug = build_augmenter("rewrites", {"rules": ["passive_by", "headline_active", "caption_passive", "caption_active"]})
    texts = ["The proposed rule was changed by AMS.", "China rocked by twin earthquakes", "A dog runs on the beach.",
             "A man is slicing a potato.", "A potato is being sliced by a man."]
    pairs = list(aug.augment([SourceRecord(source_id=f"r{i}", text=t) for i, t in enumerate(texts)], 0))
    assert [p.info["rules"] if p.reject is None else p.reject for p in pairs] == [
        ["passive_by"], ["headline_active"], "no_rule_applies", ["caption_passive"], ["caption_active"]]
    assert [p.view2 for p in pairs if p.reject is None] == [
        "AMS changed the proposed rule.", "Twin earthquakes rock China", "A potato is being sliced by a man.",
        "A man is slicing a potato."]
