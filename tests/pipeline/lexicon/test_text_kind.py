"""Sentences that get no view rather than a wrong one (pipeline/lexicon/text_kind.py), for every word-level method:
a URL, a hashtag list, code, all capitals, too few words, another language, each rejected with its reason."""

from __future__ import annotations

import pytest

from bsl_pipeline.pipeline.lexicon.text_kind import TEXT_PROBLEMS, text_problem

NOT_PROSE = [
    ("Check https://example.com for the big dog photos", "url"),
    ("Russ Britt is the Los Angeles Bureau Chief for CBS.MarketWatch.com.", "url"),
    ("#happy #dog #weekend", "hashtags"),
    ("@anna @ben see you there", "hashtags"),
    ("def foo(x): return x", "code"),
    ("if (a == b) { run(); }", "code"),
    ("total = price * count;", "code"),
    ("print(total, count);", "code"),
    ("TROPICAL CYCLONE FORMATION IS NOT EXPECTED.", "all_capitals"),
    ("El perro grande corre rápidamente por el parque.", "not_english"),
    ("Der große Hund läuft schnell nach Hause.", "not_english"),
    ("Le chien court dans le parc avec son ami.", "not_english"),
    ("De hond loopt snel naar huis.", "not_english"),
]
PROSE = [
    "A man is playing a guitar.",
    "Separatists down Ukraine military plane, several dead",  # a headline: no function word, still English
    "Obama signs bill into law",
    "Residents return to Fallujah",  # "return" followed by a word is no code
    "Tapas bar opens in Madrid",
    "I'm really excited about going to Cleveland, James said.",
    "Two dogs run in snow",
    "unsparing and uncompromising in discipline or judgment;",  # a dictionary gloss ends in ";" too
    "(cause to) gradually become weak;",
]


@pytest.mark.parametrize(("text", "reason"), NOT_PROSE)
def test_what_is_not_english_prose_gets_its_reason(text, reason):
    assert reason in TEXT_PROBLEMS
    assert text_problem(text, min_words=3, min_english_share=0.8) == reason


@pytest.mark.parametrize("text", PROSE)
def test_english_prose_headlines_included_passes(text):
    assert text_problem(text, min_words=3, min_english_share=0.8) is None


def test_too_short_and_the_language_check_are_settings():
    assert text_problem("Hello there", min_words=3) == "too_short"
    assert text_problem("Hello there", min_words=2) is None
    assert text_problem("El perro grande corre rápidamente por el parque.", min_english_share=0.0) is None


def test_the_synonyms_method_rejects_them_with_their_reason_and_keeps_english_views():
    from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter

    texts = ["A small kitten is playing with a ball.", "Check https://example.com for the small dog photos",
             "#happy #dog #weekend", "THE SMALL DOG RAN QUICKLY HOME", "El perro pequeño corre por el parque."]
    pairs = list(build_augmenter("synonyms", None).augment([SourceRecord(str(i), t) for i, t in enumerate(texts)], seed=0))
    assert [p.reject for p in pairs] == [None, "url", "hashtags", "all_capitals", "not_english"]
    assert pairs[0].view2 == "A little kitten is playing with a ball."
    off = build_augmenter("synonyms", {"min_english_share": 0.0})
    assert off.fingerprint() != build_augmenter("synonyms", None).fingerprint()
