"""The voice rules of the `rewrites` method (`pipeline.augment.rewrite_rules.voice`) beyond their cases (golden and
refused: `cases/voice.json`, tests/pipeline/augment/test_rewrite_cases.py)."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
from bsl_pipeline.pipeline.augment.rewrite_rules.voice import VOICE_RULES


def test_the_augmenter_applies_the_voice_rules():
    aug = build_augmenter("rewrites", {"rules": list(VOICE_RULES)})
    texts = ["The proposed rule was changed by AMS.", "China rocked by twin earthquakes", "A dog runs on the beach.",
             "A man is slicing a potato.", "A potato is being sliced by a man."]
    pairs = list(aug.augment([SourceRecord(source_id=f"r{i}", text=t) for i, t in enumerate(texts)], 0))
    assert [p.info["rules"] if p.reject is None else p.reject for p in pairs] == [
        ["passive_by"], ["headline_active"], "no_rule_applies", ["caption_passive"], ["caption_active"]]
    assert [p.view2 for p in pairs if p.reject is None] == [
        "AMS changed the proposed rule.", "Twin earthquakes rock China", "A potato is being sliced by a man.",
        "A man is slicing a potato."]
