"""Masked-LM augmenter on the tiny RoBERTa masked LM (real loading code, random weights)."""

from __future__ import annotations

import hashlib
import random

import pytest
from tiny_models import WORDS

from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
from bsl_pipeline.pipeline.base.errors import BSLError

ALNUM_WORDS = [w for w in WORDS if w.isalnum()]


@pytest.fixture(scope="module")
def make(tiny_roberta_mlm_dir):
    loaded = {}

    def _make(**params):
        key = tuple(sorted(params.items()))
        if key not in loaded:
            aug = build_augmenter("mlm", {"model": str(tiny_roberta_mlm_dir), "device": "cpu", **params},
                                  progress=False)
            aug.ensure_ready()
            loaded[key] = aug
        return loaded[key]

    return _make


@pytest.fixture(scope="module")
def sentences() -> list[str]:
    rng = random.Random(1234)
    return [" ".join(rng.choice(ALNUM_WORDS) for _ in range(rng.randint(4, 14))) for _ in range(200)]


def records(texts, prefix="s"):
    return [SourceRecord(f"{prefix}{i}", t) for i, t in enumerate(texts)]


def vocabulary_words(tokenizer) -> set[str]:
    return {tok[1:].lower() for tok in tokenizer.get_vocab() if tok.startswith("Ġ") and tok[1:].isalnum()}


def test_about_the_requested_fraction_of_words_changes_and_never_to_the_same_word(make, sentences):
    aug = make(fraction=0.2, min_words=0)
    pairs = list(aug.augment(records(sentences), seed=3))
    assert len(pairs) == len(sentences)
    known = vocabulary_words(aug.tokenizer)
    n_words = n_changed = 0
    for text, pair in zip(sentences, pairs):
        before, after = text.split(" "), pair.view2.split(" ")
        assert pair.view1 == text and len(after) == len(before)
        changed = [(a, b) for a, b in zip(before, after) if a != b]
        n_words += len(before)
        n_changed += len(changed)
        assert pair.info["maskable"] == len(before)
        assert len(changed) == pair.info["replaced"] == pair.info["masked"]
        for old, new in changed:
            assert new.lower() != old.lower()
            assert new.lower() in known  # a whole word of the model's vocabulary
        if not changed:
            assert pair.reject == "no_change"
    assert abs(n_changed / n_words - 0.2) < 0.03, n_changed / n_words


def test_at_least_one_word_by_default_and_other_fractions(make, sentences):
    pairs = list(make().augment(records(sentences[:50]), seed=1))
    assert all(p.reject is None and p.info["replaced"] >= 1 for p in pairs)
    for fraction in (0.5, 1.0):
        pairs = list(make(fraction=fraction, min_words=0).augment(records(sentences), seed=2))
        ratio = sum(p.info["replaced"] for p in pairs) / sum(p.info["maskable"] for p in pairs)
        assert abs(ratio - fraction) < 0.03


def test_special_tokens_are_never_masked_or_changed(make):
    aug = make(fraction=1.0)
    texts = ["<s> the dog runs </s>", "a <mask> sat on the <unk> mat <pad>", "</s></s> man <s>",
             "<mask>", "the <mask> <mask> city"]
    pairs = list(aug.augment(records(texts), seed=4))
    specials = ["<s>", "</s>", "<mask>", "<unk>", "<pad>"]
    for text, pair in zip(texts, pairs):
        for special in specials:
            assert pair.view2.count(special) == text.count(special), (text, pair.view2)
        for _, old, _ in pair.info.get("changes", []):
            assert old not in ("s", "mask", "unk", "pad")
    assert pairs[3].reject == "no_maskable_word"
    assert [p.info["maskable"] for p in pairs] == [3, 5, 1, 0, 2]
    # the model input: special tokens at both ends, the mask token only where we put it
    enc = aug.tokenizer(texts, return_offsets_mapping=True, split_special_tokens=True)
    for row, record in enumerate(records(texts)):
        plan = aug._plan(record, enc, row, seed=4)
        assert plan.ids[0] == aug.tokenizer.bos_token_id and plan.ids[-1] == aug.tokenizer.eos_token_id
        assert [i for i, t in enumerate(plan.ids) if t == aug.tokenizer.mask_token_id] == plan.mask_positions
        assert all(0 < i < len(plan.ids) - 1 for i in plan.mask_positions)


def test_punctuation_and_contractions_are_not_masked_and_the_rest_stays_byte_identical(make):
    aug = make(fraction=1.0)
    text = "The dog's  ball, isn't it? Yes -- (the cat) ran!"
    (pair,) = aug.augment([SourceRecord("p", text)], seed=9)
    olds = [old for _, old, _ in pair.info["changes"]]
    assert olds == ["The", "ball", "it", "Yes", "the", "cat", "ran"]
    rebuilt, last = [], 0
    for start, old, new in pair.info["changes"]:
        assert text[start:start + len(old)] == old
        rebuilt += [text[last:start], new]
        last = start + len(old)
    assert "".join(rebuilt) + text[last:] == pair.view2
    assert pair.info["changes"][0][2][0].isupper()  # "The" -> capitalised replacement


def test_deterministic_per_seed_and_independent_of_batching(make, sentences):
    aug = make()
    recs = records(sentences[:40])
    a = [(p.view1, p.view2) for p in aug.augment(recs, seed=5)]
    b = [(p.view1, p.view2) for p in aug.augment(recs, seed=5, batch_size=3)]
    c = [(p.view1, p.view2) for p in aug.augment(recs, seed=6)]
    assert a == b
    assert a != c
    assert [(p.view1, p.view2) for p in aug.augment(recs[7:8], seed=5)] == a[7:8]


def test_one_result_per_input_in_order_with_chunks_and_truncation(make, sentences):
    aug = make(batch_size=8, max_length=16)
    long_text = " ".join(["dog"] * 40 + ["cat"] * 40)
    texts = sentences[:20] + ["", "?!", long_text] + sentences[20:30]
    pairs = aug.augment_batch(records(texts), seed=0)
    assert len(pairs) == len(texts)
    assert [p.view1 for p in pairs] == texts
    assert pairs[20].reject == "no_maskable_word" and pairs[21].reject == "no_maskable_word"
    long_pair = pairs[22]
    assert long_pair.info["maskable"] == 14  # 16 tokens minus <s> and </s>
    assert long_pair.view2.endswith(" ".join(["cat"] * 40))  # past the model's length: untouched


def test_only_masked_positions_are_projected_and_match_the_full_forward(make, sentences):
    import torch

    aug = make()
    recs = records(sentences[:6])
    enc = aug.tokenizer([r.text for r in recs], return_offsets_mapping=True, split_special_tokens=True)
    plans = [aug._plan(r, enc, i, seed=1) for i, r in enumerate(recs)]
    assert aug._lm_head() is not None
    fast = aug._mask_logits(plans)
    full = aug._mask_logits(plans, full_forward=True)
    assert fast.shape == (sum(len(p.mask_positions) for p in plans), len(aug.tokenizer))
    assert torch.allclose(fast, full, atol=1e-5)


def test_model_identities_are_sha256_of_the_model_files(make, tiny_roberta_mlm_dir):
    ids = make().model_identities()
    files = sorted(p for p in tiny_roberta_mlm_dir.iterdir() if p.is_file())
    assert sorted(ids) == sorted(f"mlm/{p.name}" for p in files)
    for p in files:
        assert ids[f"mlm/{p.name}"] == hashlib.sha256(p.read_bytes()).hexdigest()
    assert "batch_size" not in make().fingerprint()["params"]


def test_bad_model_and_config_are_clear_errors(tmp_path):
    empty = tmp_path / "not_a_model"
    empty.mkdir()
    with pytest.raises(BSLError, match="cannot load a masked LM"):
        build_augmenter("mlm", {"model": str(empty), "device": "cpu"}).ensure_ready()
    with pytest.raises(BSLError, match="is not a model directory"):
        build_augmenter("mlm", {"model": str(tmp_path / "missing")}).model_identities()
    with pytest.raises(BSLError, match="could not be fetched"):  # tests run with HF_HUB_OFFLINE=1
        build_augmenter("mlm", {"model": "no-such-org/no-such-model"}).model_identities()
    with pytest.raises(BSLError, match="fraction"):
        build_augmenter("mlm", {"fraction": 2})
    with pytest.raises(BSLError, match="top_k"):
        build_augmenter("mlm", {"top_k": 0})


def test_words_to_change_rounds_at_random_to_the_exact_expected_count():
    from bsl_pipeline.pipeline.augment.augmenters.substitution import words_to_change

    rng = random.Random(0)
    counts = [words_to_change(10, 0.25, 1, None, rng) for _ in range(4000)]
    assert set(counts) == {2, 3} and sum(counts) / len(counts) == pytest.approx(2.5, abs=0.05)
    assert words_to_change(3, 0.1, 1, None, rng) == 1  # at least min_words when there are that many
    assert words_to_change(0, 0.5, 1, None, rng) == 0
    assert words_to_change(40, 0.5, 1, 4, rng) == 4  # capped


def test_usable_positions_subtracts_the_padding_offset_of_roberta_like_models():
    from types import SimpleNamespace

    from bsl_pipeline.pipeline.base.model_limits import usable_positions

    assert usable_positions(SimpleNamespace(model_type="roberta", max_position_embeddings=514, pad_token_id=1)) == 512
    assert usable_positions(SimpleNamespace(model_type="xlm-roberta-xl", max_position_embeddings=514,
                                            pad_token_id=1)) == 512
    assert usable_positions(SimpleNamespace(model_type="bert", max_position_embeddings=512, pad_token_id=0)) == 512
    assert usable_positions(SimpleNamespace(model_type="t5")) is None
