"""The rewrite rules' shared shallow chunker (`pipeline.augment.rewrite_rules.chunker`) on its own, on real
phrases: each feature, and that the rules called on one token list share one analysis."""

from __future__ import annotations

import pytest
from bsl_pipeline.pipeline.augment.rewrite_rules import tokenize
from bsl_pipeline.pipeline.augment.rewrite_rules.chunker import Chunks, chunk, is_content


@pytest.mark.parametrize("sentence,end", [
    ("A man is sitting on a bench.", 7),  # the final period's index
    ("Obama to visit China", 4),  # no final punctuation: the token count
    ("Where is it?", -1),  # a question ends otherwise
])
def test_end(sentence, end):
    assert chunk(sentence).end == end


def test_finite_verbs_are_indices_of_finite_verbs_and_auxiliaries():
    assert chunk("A man is sitting on a bench.").finite_verbs == {2}
    assert chunk("He said the plans were fine.").finite_verbs == {1, 4}  # "plans" is a noun


@pytest.mark.parametrize("word,next_low,finite", [
    ("went", None, True), ("says", None, True), ("won't", None, True),
    ("falls", None, False),  # may be a noun
    ("dirt", None, False),
    ("accompanied", "by", False), ("accompanied", "", False),  # a participle: "dirt accompanied by ..."
    ("accompanied", "the", True),
])
def test_is_finite(word, next_low, finite):
    assert Chunks.is_finite(tokenize(word)[0], next_low) is finite


def test_quoted_phrases_but_not_direct_speech():
    c = chunk('snakes are in the "you don\'t bug me" category')
    assert [t.text for t in c.toks if c.in_quote(t)] == ['"', "you", "don't", "bug", "me", '"']
    assert chunk('"You\'re not going," he said.').quoted == ()  # opens the sentence: direct speech
    assert chunk('He said: "I am here."').quoted == ()  # after a colon
    assert chunk('He said "we are here').quoted == ((8, 20),)  # unclosed: runs to the end


@pytest.mark.parametrize("sentence,part", [
    ("Because it was raining, he stayed home.", (4, 8)),  # (the comma, the end of the main clause)
    ("Yesterday, we met Mr. Smith.", (1, 7)),  # an abbreviation's period inside
    ("In 2010, he said, the firm grew.", None),  # two commas
    ("If so, go.", None),  # a main clause under three tokens
    ("a law,medicine or engineering student, he said.", None),  # a comma without its space
])
def test_opening_part(sentence, part):
    assert chunk(sentence).opening_part == part


def test_balanced_quotes_and_brackets():
    c = chunk('He said (it was "fine") today')
    assert c.balanced(range(len(c.toks)))
    assert not c.balanced(range(4))  # "He said (it": the bracket stays open


def test_noun_phrases_around_a_conjunction():
    c = chunk("a man and a woman are dancing")
    assert (c.noun_phrase_before(2), c.noun_phrase_after(3)) == (0, 5)
    c = chunk("the first and the second")
    assert (c.noun_phrase_before(2), c.noun_phrase_after(3)) == (None, None)  # ordinals are no nouns
    assert chunk("a goose swim in the pond").noun_phrase_after(0) is None  # may end in a verb


def test_content_words_and_their_runs():
    c = chunk("a man in a blue denim shirt and jeans")
    assert [t.text for t in c.toks if is_content(t)] == ["man", "blue", "denim", "shirt", "jeans"]
    assert c.content_end(4, 4) == 7  # "blue denim shirt", then "and"
    assert c.content_end(4, 2) == 6  # at most two words
    assert c.content_end(0, 4) == 0  # "a" is a function word


@pytest.mark.parametrize("sentence,start,sentence_start,gap,end", [
    ("The magnet schools began to grow.", 0, True, 0, 3),
    ("the associated cost is high", 0, True, 0, 3),  # a participle before its noun
    ("a site established for the poor", 0, True, 0, None),  # a reduced relative, no verb
    ("Critics argue that it is wrong", 0, True, 0, None),  # one capitalised word at the start: maybe a noun
    ("John Smith said no", 0, True, 0, 2),
    ("He, however, said no", 0, True, 3, 1),  # the verb after ", however,"
])
def test_subject_end(sentence, start, sentence_start, gap, end):
    assert chunk(sentence).subject_end(start, sentence_start, gap) == end


@pytest.mark.parametrize("part,opens", [
    ("his sister stayed at the party.", True),
    ("she also said so.", True),  # one adverb between
    ("the island was plundered by pirates.", True),
    ("stayed there.", False),  # a verb phrase, no subject
    ("so did she.", False),  # inversion
    ("the island plundered.", False),  # a participle before the end
])
def test_clause_start(part, opens):
    c = chunk(part)
    assert c.clause_start(0, c.end) is opens


def test_one_analysis_per_token_list():
    toks = tokenize("A man is sitting on a bench.")
    first = chunk("A man is sitting on a bench.", toks)
    assert chunk("A man is sitting on a bench.", toks) is first
    assert chunk("A man is sitting on a bench.", tokenize("A man is sitting on a bench.")) is not first
