"""Mirror-BERT random span masking: span length, positions, short texts, determinism."""

from __future__ import annotations

from collections import Counter

import pytest

from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, augmenter_class, build_augmenter
from bsl_pipeline.pipeline.base.errors import BSLError

TEXT = "A man is playing a large flute on the stage."  # 44 characters


def one(aug, text, seed, source_id="x"):
    (pair,) = aug.augment([SourceRecord(source_id, text)], seed=seed)
    return pair


def test_char_span_of_five_is_replaced_by_one_mask_in_the_second_view():
    aug = build_augmenter("span-mask")
    for seed in range(200):
        pair = one(aug, TEXT, seed)
        start, span = pair.info["start"], pair.info["span"]
        assert pair.reject is None and pair.view1 == TEXT and pair.info["masked_view"] == 2
        assert span == TEXT[start:start + 5] and len(span) == 5
        left, right = TEXT[:start].rstrip(), TEXT[start + 5:].lstrip()
        assert pair.view2 == " ".join(p for p in (left, "[MASK]", right) if p)
        assert pair.view2.count("[MASK]") == 1


def test_every_start_position_is_possible_and_roughly_uniform():
    aug = build_augmenter("span-mask")
    starts = Counter(one(aug, TEXT, seed).info["start"] for seed in range(4000))
    positions = len(TEXT) - 5 + 1
    assert set(starts) == set(range(positions))  # first and last span included
    expected = 4000 / positions
    assert all(0.5 * expected < n < 1.6 * expected for n in starts.values())


def test_short_texts_give_identical_views_or_a_reject():
    assert augmenter_class("span-mask").identical_views_ok
    aug = build_augmenter("span-mask")
    short = "A dog runs in the park."  # 23 characters < 30
    pair = one(aug, short, 0)
    assert pair.reject is None and pair.view1 == pair.view2 == short and pair.info == {"masked": False}
    exactly_30 = "A dog runs in the green park!"
    exactly_30 += "!" * (30 - len(exactly_30))
    assert one(aug, exactly_30, 0).info["masked"] is True
    rejecting = build_augmenter("span-mask", {"short_texts": "reject"})
    pair = one(rejecting, short, 0)
    assert pair.reject == "too_short" and pair.view1 == pair.view2 == short
    no_minimum = build_augmenter("span-mask", {"min_chars": 0})
    assert one(no_minimum, "abcdef", 0).info["masked"] is True
    assert one(no_minimum, "abcde", 0).info == {"masked": False}  # not longer than the span


def test_word_unit_masks_k_consecutive_words():
    aug = build_augmenter("span-mask", {"unit": "word", "span_length": 3, "mask_token": "<mask>", "min_chars": 0})
    words = TEXT.split()
    for seed in range(50):
        pair = one(aug, TEXT, seed)
        start = pair.info["start"]
        assert 0 <= start <= len(words) - 3
        assert pair.info["span"] == " ".join(words[start:start + 3])
        assert pair.view2.split() == words[:start] + ["<mask>"] + words[start + 3:]
    assert one(aug, "one two three", 0).info == {"masked": False}


def test_random_masked_view_masks_either_side():
    aug = build_augmenter("span-mask", {"masked_view": "random"})
    sides = Counter()
    for seed in range(400):
        pair = one(aug, TEXT, seed)
        side = pair.info["masked_view"]
        sides[side] += 1
        assert (pair.view2 if side == 1 else pair.view1) == TEXT
        assert "[MASK]" in (pair.view1 if side == 1 else pair.view2)
    assert 150 < sides[1] < 250


def test_deterministic_per_seed_and_record_independent_of_batching():
    aug = build_augmenter("span-mask")
    recs = [SourceRecord(f"r{i}", f"{TEXT} Number {i} follows here.") for i in range(100)]
    a = [(p.view1, p.view2) for p in aug.augment(recs, seed=1)]
    assert a == [(p.view1, p.view2) for p in aug.augment(recs, seed=1, batch_size=7)]
    assert a != [(p.view1, p.view2) for p in aug.augment(recs, seed=2)]
    assert [(p.view1, p.view2) for p in aug.augment(recs[5:6], seed=1)] == a[5:6]


def test_bad_config_is_a_clear_error():
    with pytest.raises(BSLError, match="span_length"):
        build_augmenter("span-mask", {"span_length": 0})
    with pytest.raises(BSLError, match="unit"):
        build_augmenter("span-mask", {"unit": "sentence"})
    with pytest.raises(BSLError, match="mask_token"):
        build_augmenter("span-mask", {"mask_token": " "})
