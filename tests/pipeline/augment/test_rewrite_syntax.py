"""The rewrite rules' shared syntactic tests (`pipeline.augment.rewrite_rules.syntax`) on their own, on tokens of real
phrases."""

from __future__ import annotations

import pytest
from bsl_pipeline.pipeline.augment.rewrite_rules import tokenize
from bsl_pipeline.pipeline.augment.rewrite_rules.syntax import (
    has_finite_verb, is_finite_form, is_finite_verb, is_plural_noun_token,
)


@pytest.mark.parametrize("word,finite", [
    ("said", True), ("has", True), ("is", True), ("went", True),  # past, -s forms and auxiliaries
    ("plans", False), ("results", False),  # -s forms that are nouns
    ("Said", False), ("IS", False),  # not lower-case: a title or a name
    ("walking", False), ("table", False),
])
def test_is_finite_verb(word, finite):
    assert is_finite_verb(tokenize(word)[0]) is finite


@pytest.mark.parametrize("word,finite", [
    ("went", True), ("says", True), ("spread", True),  # past, -s and present forms
    ("plans", True),  # also a noun: the callers decide
    ("walking", False), ("seen", False), ("happy", False), ("the", False),
])
def test_is_finite_form(word, finite):
    assert is_finite_form(word) is finite


@pytest.mark.parametrize("words,finite", [
    ("he works", True), ("men pose", True), ("A child rides", True), ("they'll", True), ("it's", True),
    ("The increased volatility", False),  # a past form after a determiner
    ("the volatility of producer and consumer prices", False),  # "prices" after "of": a noun
    ("a man in a blue shirt", False),
])
def test_has_finite_verb(words, finite):
    assert has_finite_verb(tokenize(words)) is finite


@pytest.mark.parametrize("word,plural", [
    ("dogs", True), ("people", True), ("children", True), ("hoodies", True),  # unknown to lemminflect, in -s
    ("glass", False), ("Dogs", False), ("dog", False), ("this", False),
])
def test_is_plural_noun_token(word, plural):
    assert is_plural_noun_token(tokenize(word)[0]) is plural
