"""Loss values of every objective against hand computations, and the pieces they are built from (predictor, EMA,
batch norm, schedule, registry). Fast: tensors and the tiny BERT only."""

from __future__ import annotations

import copy
import math
import random

import pytest
import torch
from tests.training.test_trainer_utils import make_sentences, perturb, tiny_config
from torch import nn


# -- BSL ------------------------------------------------------------------------------------------------------------
def test_bsl_loss_equals_hand_computed_value():
    from bsl_pipeline.training.objectives.bsl import bsl_loss, negative_cosine

    z1 = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
    h2 = torch.tensor([[1.0, 1.0], [0.0, -1.0]])
    z2 = torch.tensor([[0.0, 2.0], [1.0, 1.0]])
    h1 = torch.tensor([[3.0, 0.0], [1.0, 1.0]])
    # D(z1, h2): rows -cos = -1/sqrt(2) and +1 -> mean (1 - 1/sqrt(2)) / 2; D(z2, h1): rows 0 and -1 -> -1/2.
    d12 = (1 - 1 / math.sqrt(2)) / 2
    assert negative_cosine(z1, h2).item() == pytest.approx(d12, abs=1e-7)
    assert negative_cosine(z2, h1).item() == pytest.approx(-0.5, abs=1e-7)
    # 1/2 D(z1, h2) + 1/2 D(z2~, h1~) = -sqrt(2)/8.
    assert bsl_loss(z1, z2, h1, h2).item() == pytest.approx(-math.sqrt(2) / 8, abs=1e-7)
    assert bsl_loss(z1, z2, h1, h2, symmetric=False).item() == pytest.approx(d12, abs=1e-7)


def test_bsl_loss_stops_gradient_on_the_target_side():
    from bsl_pipeline.training.objectives.bsl import bsl_loss

    z1, z2, h1, h2 = (torch.randn(4, 3, requires_grad=True) for _ in range(4))
    bsl_loss(z1, z2, h1, h2).backward()
    assert z1.grad is not None and z2.grad is not None
    assert h1.grad is None and h2.grad is None


def test_predictor_is_three_linear_layers_kd_kd_d_with_batchnorm_relu_between():
    from bsl_pipeline.training.predictor import Predictor

    p = Predictor(dim=4, k=8)
    kinds = [type(m).__name__ for m in p.net]
    assert kinds == ["Linear", "GlobalBatchNorm1d", "ReLU", "Linear", "GlobalBatchNorm1d", "ReLU", "Linear"]
    shapes = [(m.in_features, m.out_features) for m in p.net if isinstance(m, nn.Linear)]
    assert shapes == [(4, 32), (32, 32), (32, 4)]
    assert p(torch.randn(5, 4)).shape == (5, 4)


@pytest.mark.parametrize("residual", [False, True])
def test_predictor_forward_views_equals_one_call_per_view_outputs_gradients_and_running_stats(residual):
    from bsl_pipeline.training.predictor import Predictor

    torch.manual_seed(0)
    batched = Predictor(dim=6, k=4, residual=residual)
    if residual:  # away from the zero init, so the MLP branch counts in the comparison
        nn.init.normal_(batched.net[-1].weight, std=0.1)
    per_view = copy.deepcopy(batched)
    views = [torch.randn(5, 6, requires_grad=True), torch.randn(7, 6, requires_grad=True)]
    copies = [v.detach().clone().requires_grad_(True) for v in views]
    out = batched.forward_views(*views)
    ref = [per_view(v) for v in copies]
    for a, b in zip(out, ref):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)
    (out[0].pow(2).sum() + out[1].sum()).backward()
    (ref[0].pow(2).sum() + ref[1].sum()).backward()
    for a, b in zip(views + list(batched.parameters()), copies + list(per_view.parameters())):
        torch.testing.assert_close(a.grad, b.grad, rtol=1e-5, atol=1e-6)
    for name, value in batched.state_dict().items():  # BatchNorm statistics: per view, in view order
        torch.testing.assert_close(value, per_view.state_dict()[name], rtol=1e-6, atol=1e-7)


def test_residual_predictor_starts_as_the_identity_and_learns_a_correction():
    from bsl_pipeline.training.predictor import Predictor

    torch.manual_seed(0)
    p = Predictor(dim=6, k=2, residual=True)
    x = torch.randn(8, 6)
    assert torch.equal(p(x), x) and all(torch.equal(a, b) for a, b in zip(p.forward_views(x[:3], x[3:]),
                                                                            (x[:3], x[3:])))
    target = torch.randn(8, 6)
    opt = torch.optim.SGD(p.parameters(), lr=0.1)
    before = (p(x) - target).pow(2).mean().item()
    for _ in range(20):
        opt.zero_grad()
        (p(x) - target).pow(2).mean().backward()
        opt.step()
    assert (p(x) - target).pow(2).mean().item() < 0.5 * before


def test_global_batchnorm_is_plain_batchnorm_outside_ddp():
    from bsl_pipeline.training.distributed import GlobalBatchNorm1d

    torch.manual_seed(0)
    ours, ref = GlobalBatchNorm1d(6), nn.BatchNorm1d(6)
    x = torch.randn(10, 6) * 3 + 1
    torch.testing.assert_close(ours(x), ref(x))
    torch.testing.assert_close(ours.running_var, ref.running_var)


def test_ema_update_is_exact_for_parameters_and_float_buffers_and_copies_int_buffers():
    from bsl_pipeline.training.ema import ema_update_

    torch.manual_seed(0)
    online = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    online(torch.randn(8, 3))  # moves running_mean/var and num_batches_tracked away from the target's
    target = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    before = copy.deepcopy(target.state_dict())
    ema_update_(target, online, 0.9)
    for name, value in target.state_dict().items():
        o, t = online.state_dict()[name], before[name]
        if value.is_floating_point():
            torch.testing.assert_close(value, 0.9 * t + 0.1 * o, rtol=1e-6, atol=1e-8)
        else:
            assert torch.equal(value, o), name
    frozen = copy.deepcopy(target.state_dict())
    ema_update_(target, online, 1.0)
    assert all(torch.equal(v, frozen[k]) for k, v in target.state_dict().items() if v.is_floating_point())


@pytest.fixture(scope="module")
def tiny(tiny_bert_dir, tmp_path_factory):
    from bsl_pipeline.training.encoder import SentenceEncoder, load_tokenizer

    tokenizer = load_tokenizer(str(tiny_bert_dir))

    def build(objective: str, overrides: list[str] | None = None):
        cfg = tiny_config(tiny_bert_dir, [], tmp_path_factory.mktemp("unused"), objective=objective,
                          overrides=overrides)
        from bsl_pipeline.training.objectives import build_objective

        torch.manual_seed(0)
        encoder = SentenceEncoder.from_pretrained(str(tiny_bert_dir), cfg.model.pooling, cfg.model.dropout)
        return build_objective(cfg.objective, encoder, tokenizer, max_length=cfg.model.max_length), cfg

    return build


def test_bsl_objective_loss_is_the_symmetric_loss_of_its_parts(tiny):
    from bsl_pipeline.training.objectives.bsl import bsl_loss

    objective, _ = tiny("bsl")
    objective.train()
    sents = make_sentences(6, seed=1)
    batch = objective.collate(sents, [s + " quickly" for s in sents], random.Random(0))
    loss, metrics = objective(batch)
    e1, e2 = objective.encoder(**batch["view1"]), objective.encoder(**batch["view2"])
    h1, h2 = objective.target(**batch["view1"]), objective.target(**batch["view2"])
    expected = bsl_loss(objective.predictor(e1), objective.predictor(e2), h1, h2)
    assert loss.item() == pytest.approx(expected.item(), abs=1e-6)
    # The target starts as an exact copy of the online encoder.
    torch.testing.assert_close(h1, e1)
    assert set(metrics) == set(objective.metric_names)


def test_bsl_asymmetric_loss_runs_one_online_and_one_target_pass(tiny):
    from bsl_pipeline.training.objectives.bsl import negative_cosine

    objective, _ = tiny("bsl", ["objective.bsl.symmetric=false"])
    objective.train()
    sents = make_sentences(6, seed=1)
    batch = objective.collate(sents, [s + " quickly" for s in sents], random.Random(0))
    calls = []
    for name in ("encoder", "target"):
        getattr(objective, name).register_forward_hook(lambda m, a, kw, out, name=name: calls.append(name),
                                                       with_kwargs=True)
    loss, _ = objective(batch)
    assert calls == ["encoder", "target"]
    calls.clear()
    with torch.no_grad():
        e1, h2 = objective.encoder(**batch["view1"]), objective.target(**batch["view2"])
    assert loss.item() == pytest.approx(negative_cosine(objective.predictor(e1), h2).item(), abs=1e-6)


def test_bsl_asymmetric_loss_from_the_augmented_view_predicts_the_source(tiny):
    from bsl_pipeline.training.objectives.bsl import negative_cosine

    objective, _ = tiny("bsl", ["objective.bsl.symmetric=false", "objective.bsl.online_view=view2"])
    objective.train()
    sents = make_sentences(6, seed=1)
    batch = objective.collate(sents, [s + " quickly" for s in sents], random.Random(0))
    seen = []
    for name in ("encoder", "target"):
        getattr(objective, name).register_forward_hook(
            lambda m, a, kw, out, name=name: seen.append((name, kw["input_ids"].shape)), with_kwargs=True)
    loss, _ = objective(batch)
    # The augmented view is longer here, so the shapes tell which side read which view.
    assert batch["view1"]["input_ids"].shape != batch["view2"]["input_ids"].shape
    assert seen == [("encoder", batch["view2"]["input_ids"].shape), ("target", batch["view1"]["input_ids"].shape)]
    with torch.no_grad():
        e2, h1 = objective.encoder(**batch["view2"]), objective.target(**batch["view1"])
    assert loss.item() == pytest.approx(negative_cosine(objective.predictor(e2), h1).item(), abs=1e-6)


def test_bsl_mixed_direction_swaps_each_pair_by_the_batch_generator(tiny):
    from bsl_pipeline.training.objectives.bsl import negative_cosine

    objective, _ = tiny("bsl", ["objective.bsl.symmetric=false", "objective.bsl.online_view=mixed"])
    objective.train()
    sents = make_sentences(40, seed=3)
    augmented = [s + " quickly" for s in sents]
    draws = random.Random(7)
    swapped = [draws.random() < 0.5 for _ in sents]
    assert 5 < sum(swapped) < 35
    batch = objective.collate(sents, augmented, random.Random(7))
    expected_online = [a if swap else s for s, a, swap in zip(sents, augmented, swapped)]
    expected_target = [s if swap else a for s, a, swap in zip(sents, augmented, swapped)]
    assert torch.equal(batch["view1"]["input_ids"], objective.tokenize(expected_online)["input_ids"])
    assert torch.equal(batch["view2"]["input_ids"], objective.tokenize(expected_target)["input_ids"])
    # Same generator seed, same draws: a resumed run collates the same batch.
    again = objective.collate(sents, augmented, random.Random(7))
    assert torch.equal(again["view1"]["input_ids"], batch["view1"]["input_ids"])
    loss, _ = objective(batch)
    with torch.no_grad():
        e, h = objective.encoder(**batch["view1"]), objective.target(**batch["view2"])
    assert loss.item() == pytest.approx(negative_cosine(objective.predictor(e), h).item(), abs=1e-6)


def test_bsl_online_view_is_refused_with_the_symmetric_loss():
    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.training.config import TrainConfig

    with pytest.raises(BSLError, match="online_view"):
        load_config(TrainConfig, None, ["objective.name=bsl", "objective.bsl.online_view=view2"])


def test_bsl_target_gets_no_gradient_and_is_not_trainable(tiny):
    objective, _ = tiny("bsl")
    objective.train()
    sents = make_sentences(4, seed=2)
    loss, _ = objective(objective.collate(sents, sents[::-1], random.Random(0)))
    loss.backward()
    assert all(not p.requires_grad and p.grad is None for p in objective.target.parameters())
    assert any(p.grad is not None for p in objective.encoder.parameters())
    assert all(p.grad is not None for p in objective.predictor.parameters())


def test_bsl_target_mode_follows_target_dropout_option(tiny):
    objective, _ = tiny("bsl", ["objective.bsl.target_dropout=false"])
    objective.train()
    assert objective.encoder.training and not objective.target.training
    objective, _ = tiny("bsl", ["objective.bsl.target_dropout=true"])
    objective.train()
    assert objective.target.training


# -- contrastive / Mirror-BERT --------------------------------------------------------------------------------------
def _info_nce_by_hand(a: torch.Tensor, b: torch.Tensor, t: float) -> float:
    """The paper's Table 7 setting written out: 2n sentences; for each, its pair partner is the positive and the
    other 2(n-1) sentences are the negatives."""
    xs = [x / x.norm() for x in torch.cat([a, b])]
    n = a.shape[0]
    total = 0.0
    for i, x in enumerate(xs):
        pos = (i + n) % (2 * n)
        denom = sum(math.exp(float(x @ xs[j]) / t) for j in range(2 * n) if j != i)
        total += -math.log(math.exp(float(x @ xs[pos]) / t) / denom)
    return total / (2 * n)


def test_info_nce_equals_hand_computation():
    from bsl_pipeline.training.objectives.contrastive import info_nce

    torch.manual_seed(0)
    a, b = torch.randn(4, 5), torch.randn(4, 5)
    assert info_nce(a, b, 0.1).item() == pytest.approx(_info_nce_by_hand(a, b, 0.1), rel=1e-5)
    # Two orthogonal pairs, each pair identical: cos(pos) = 1, cos(neg) = 0, so with t = 1
    # loss = -log(e / (e + 2)) for every anchor.
    a = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
    assert info_nce(a, a.clone(), 1.0).item() == pytest.approx(-math.log(math.e / (math.e + 2)), abs=1e-6)


def test_contrastive_objective_loss(tiny):
    from bsl_pipeline.training.objectives.contrastive import info_nce

    objective, cfg = tiny("contrastive")
    objective.train()
    sents = make_sentences(5, seed=3)
    batch = objective.collate(sents, [s + " today" for s in sents], random.Random(0))
    loss, _ = objective(batch)
    e1, e2 = objective.encoder(**batch["view1"]), objective.encoder(**batch["view2"])
    assert loss.item() == pytest.approx(_info_nce_by_hand(e1.detach(), e2.detach(), 0.05), rel=1e-5)


@pytest.mark.parametrize("symmetric", [False, True])
def test_mnrl_objective_equals_sentence_transformers_loss_and_gradients(tiny_bert_dir, symmetric):
    """The same tiny BERT (mean pooling) in both, dropout off, the same batch: loss to 1e-5, gradients to 1e-5."""
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.base.modules.transformer import Transformer
    from sentence_transformers.sentence_transformer import losses
    from sentence_transformers.sentence_transformer.modules.pooling import Pooling

    from bsl_pipeline.training.objectives.mnrl import MNRLConfig
    from bsl_pipeline.training.encoder import SentenceEncoder, load_tokenizer
    from bsl_pipeline.training.objectives.mnrl import MNRLObjective

    sents = make_sentences(7, seed=5)
    rng = random.Random(1)
    view2 = [perturb(s, rng) for s in sents]
    ours = MNRLObjective(SentenceEncoder.from_pretrained(str(tiny_bert_dir), "mean", None),
                         load_tokenizer(str(tiny_bert_dir)), MNRLConfig(symmetric=symmetric), max_length=32)
    st = SentenceTransformer(modules=[Transformer(str(tiny_bert_dir), max_seq_length=32),
                                      Pooling(32, pooling_mode="mean")], device="cpu")
    # symmetric: what MultipleNegativesSymmetricRankingLoss is (now a deprecated alias of these arguments)
    theirs = losses.MultipleNegativesRankingLoss(st, **({"directions": ("query_to_doc", "doc_to_query"),
                                                          "partition_mode": "per_direction"} if symmetric else {}))
    ours.eval(), theirs.eval()
    loss, metrics = ours(ours.collate(sents, view2, random.Random(0)))
    reference = theirs([st.tokenize(sents), st.tokenize(view2)], None)
    assert loss.item() > 0.5 and loss.item() == pytest.approx(reference.item(), abs=1e-5)
    loss.backward(), reference.backward()
    ours_grads = dict(ours.encoder.named_parameters())
    compared = 0
    for name, p in st[0].auto_model.named_parameters():
        mine = next(v for k, v in ours_grads.items() if k.endswith(name))
        torch.testing.assert_close(mine.grad, p.grad, rtol=1e-4, atol=1e-5)
        compared += 1
    assert compared > 10 and 0 < metrics["positive_cosine"].item() < 1


def test_mnrl_loss_equals_hand_computation_and_differs_from_info_nce():
    from bsl_pipeline.training.objectives.contrastive import info_nce
    from bsl_pipeline.training.objectives.mnrl import mnrl_loss

    torch.manual_seed(0)
    a, p = torch.randn(4, 5), torch.randn(4, 5)
    an, pn = a / a.norm(dim=1, keepdim=True), p / p.norm(dim=1, keepdim=True)

    def ranking(x, y):  # mean over rows i of -log softmax_j(20 cos(x_i, y_j))[i]
        return sum(-math.log(math.exp(20 * float(x[i] @ y[i])) / sum(math.exp(20 * float(x[i] @ y[j]))
                                                                      for j in range(4))) for i in range(4)) / 4

    assert mnrl_loss(a, p, 20.0).item() == pytest.approx(ranking(an, pn), rel=1e-5)
    assert mnrl_loss(a, p, 20.0, symmetric=True).item() == pytest.approx((ranking(an, pn) + ranking(pn, an)) / 2,
                                                                         rel=1e-5)
    assert abs(mnrl_loss(a, p, 20.0).item() - info_nce(a, p, 0.05).item()) > 1e-3
    with pytest.raises(ValueError, match="scale must be > 0"):
        mnrl_loss(a, p, 0.0)


def test_mirror_masks_spans_with_the_span_mask_augmenters_rule(tiny):
    from bsl_pipeline.pipeline.augment.augmenters import build_augmenter

    objective, _ = tiny("mirror")
    augmenter = build_augmenter("span-mask", {"span_length": 5, "min_chars": 30, "mask_token": "[MASK]"})
    text = "the man is playing with the ball in the park"
    for seed in range(50):
        masked = objective.mask(text, random.Random(seed))
        expected, info = augmenter.mask(text, random.Random(seed))
        assert masked == expected and masked.count("[MASK]") == 1
        left, right = text[:info["start"]].rstrip(), text[info["start"] + 5:].lstrip()
        assert masked == " ".join(p for p in (left, "[MASK]", right) if p)
    assert objective.mask("short text", random.Random(3)) == "short text"
    unmasked, _ = tiny("mirror", ["objective.mirror.span_mask_length=0"])
    assert unmasked.mask(text, random.Random(3)) == text


def test_mirror_objective_mirrors_view1_and_masks_the_copy(tiny):
    from bsl_pipeline.training.objectives.contrastive import info_nce

    objective, cfg = tiny("mirror")
    objective.train()
    sents = ["the man is playing with the ball in the park today",
             "two women are sitting outside the big white house", "a dog runs"]
    batch = objective.collate(sents, ["ignored"] * 3, random.Random(0))
    tok = objective.tokenizer
    first = tok.batch_decode(batch["view1"]["input_ids"], skip_special_tokens=True)
    second = tok.batch_decode(batch["view2"]["input_ids"])
    assert first == sents
    assert "[MASK]" in second[0] and "[MASK]" in second[1] and "[MASK]" not in second[2]
    loss, _ = objective(batch)
    e1, e2 = objective.encoder(**batch["view1"]), objective.encoder(**batch["view2"])
    assert loss.item() == pytest.approx(_info_nce_by_hand(e1.detach(), e2.detach(), 0.04), rel=1e-5)
    assert loss.item() == pytest.approx(info_nce(e1, e2, 0.04).item(), abs=1e-6)


def test_objectives_are_built_from_their_own_section_only(tiny_bert_dir):
    from bsl_pipeline.training.config import ObjectiveConfig
    from bsl_pipeline.training.objectives.contrastive import ContrastiveConfig
    from bsl_pipeline.training.objectives.mirror import MirrorConfig
    from bsl_pipeline.training.encoder import SentenceEncoder, load_tokenizer
    from bsl_pipeline.training.objectives import build_objective
    from bsl_pipeline.training.objectives.contrastive import ContrastiveObjective

    tokenizer = load_tokenizer(str(tiny_bert_dir))
    encoder = SentenceEncoder.from_pretrained(str(tiny_bert_dir))
    # Direct construction: the section, the encoder, the tokenizer and the token limit are all it needs.
    settings = ContrastiveConfig(temperature=0.2, gather_across_ranks=False)
    objective = ContrastiveObjective(encoder, tokenizer, settings, max_length=6)
    objective.eval()
    sents = make_sentences(4, seed=8)
    batch = objective.collate(sents, [s + " today" for s in sents], random.Random(0))
    assert batch["view1"]["input_ids"].shape[1] == 6  # truncated to the given max_length
    e1, e2 = objective.encoder(**batch["view1"]), objective.encoder(**batch["view2"])
    assert objective(batch)[0].item() == pytest.approx(_info_nce_by_hand(e1.detach(), e2.detach(), 0.2), rel=1e-5)
    # Through the registry: the configured objective gets its own section object, not another one.
    config = ObjectiveConfig(name="mirror", mirror=MirrorConfig(temperature=0.5, span_mask_length=3))
    mirror = build_objective(config, encoder, tokenizer, max_length=9)
    assert mirror.cfg is config.mirror and mirror.max_length == 9
    assert build_objective(ObjectiveConfig(name="contrastive"), encoder, tokenizer, max_length=9).cfg.temperature == 0.05


# -- SG-OPT ---------------------------------------------------------------------------------------------------------
def _l_opt3_by_hand(c: torch.Tensor, h: torch.Tensor, t: float) -> float:
    """SG-BERT eq. for L_opt3, looped: positive phi(c_i, h_ik); negatives every layer's view of every other
    sentence; mean over i and k."""
    cos = lambda u, v: float(u @ v / (u.norm() * v.norm()))  # noqa: E731
    b, layers = h.shape[:2]
    total = 0.0
    for i in range(b):
        neg = sum(math.exp(cos(c[i], h[m, n]) / t) for m in range(b) if m != i for n in range(layers))
        for k in range(layers):
            pos = math.exp(cos(c[i], h[i, k]) / t)
            total += -math.log(pos / (pos + neg))
    return total / (b * layers)


def test_sg_opt_contrastive_equals_hand_computation():
    from bsl_pipeline.training.objectives.sg_opt import sg_opt_contrastive

    torch.manual_seed(0)
    c, h = torch.randn(3, 4), torch.randn(3, 2, 4)
    assert sg_opt_contrastive(c, h, 0.5).item() == pytest.approx(_l_opt3_by_hand(c, h, 0.5), rel=1e-5)


def test_layer_views_max_pool_ignores_padding():
    from bsl_pipeline.training.objectives.sg_opt import layer_views

    states = [torch.tensor([[[1.0, 5.0], [2.0, 0.0], [100.0, 100.0]]]),
              torch.tensor([[[0.0, 1.0], [-1.0, 3.0], [100.0, 100.0]]])]
    mask = torch.tensor([[1, 1, 0]])
    assert layer_views(states, mask, "max").tolist() == [[[2.0, 5.0], [0.0, 3.0]]]
    assert layer_views(states, mask, "mean").tolist() == [[[1.5, 2.5], [-0.5, 2.0]]]


def test_sg_opt_objective_loss_and_weight_regulariser(tiny):
    from bsl_pipeline.training.objectives.sg_opt import layer_views, sg_opt_contrastive

    objective, cfg = tiny("sg_opt")
    objective.train()
    assert not any(p.requires_grad for p in objective.encoder.model.embeddings.parameters())
    sents = make_sentences(4, seed=4)
    batch = objective.collate(sents, sents, random.Random(0))
    x = batch["sentences"]
    loss, metrics = objective(batch)
    views = layer_views(objective.frozen.hidden_states(**x), x["attention_mask"], "max")
    assert views.shape[1] == objective.encoder.model.config.num_hidden_layers + 1
    expected = sg_opt_contrastive(objective.projection(objective.encoder(**x)), objective.projection(views), 0.01)
    assert loss.item() == pytest.approx(expected.item(), abs=1e-5)
    assert metrics["weight_distance"].item() == 0.0
    # Moving one tuned weight by 0.01 everywhere adds lambda * numel * 1e-4 to the loss.
    weight = objective.encoder.model.encoder.layer[0].attention.self.query.weight
    with torch.no_grad():
        weight.add_(0.01)
    _, metrics = objective(batch)
    assert metrics["weight_distance"].item() == pytest.approx(weight.numel() * 1e-4, rel=1e-4)


# -- schedule and registry -----------------------------------------------------------------------------------------
def test_lr_schedule_values():
    from bsl_pipeline.training.schedule import lr_at, warmup_steps_for

    kw = dict(base_lr=1.0, total_steps=10, warmup=2)
    assert [lr_at(s, schedule="constant", **kw) for s in (0, 1, 2, 9)] == [0.5, 1.0, 1.0, 1.0]
    assert lr_at(2, schedule="linear", **kw) == 1.0
    assert lr_at(6, schedule="linear", **kw) == pytest.approx(0.5)
    assert lr_at(10, schedule="linear", **kw) == pytest.approx(0.0)
    assert lr_at(6, schedule="cosine", **kw) == pytest.approx(0.5)
    assert lr_at(10, schedule="cosine", min_lr_ratio=0.1, **kw) == pytest.approx(0.1)
    assert warmup_steps_for(100, 0, 0.1) == 10 and warmup_steps_for(100, 7, 0.1) == 7


def test_objective_registry():
    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.training.config import ObjectiveConfig
    from bsl_pipeline.training.objectives.bsl import BSLConfig
    from bsl_pipeline.training.objectives.contrastive import ContrastiveConfig
    from bsl_pipeline.training.objectives.mirror import MirrorConfig
    from bsl_pipeline.training.objectives.mnrl import MNRLConfig
    from bsl_pipeline.training.objectives.sg_opt import SGOptConfig
    from bsl_pipeline.training.objectives import OBJECTIVES, objective_class, objective_settings

    sections = {"bsl": BSLConfig, "contrastive": ContrastiveConfig, "mnrl": MNRLConfig, "mirror": MirrorConfig,
                "sg_opt": SGOptConfig}
    assert set(OBJECTIVES) == set(sections)
    for name in OBJECTIVES:
        assert objective_class(name).name == name
        assert type(objective_settings(ObjectiveConfig(), name)) is sections[name]
    with pytest.raises(BSLError, match="unknown objective 'simclr'"):
        objective_class("simclr")


@pytest.mark.parametrize("name", ["bsl", "contrastive", "mnrl", "mirror", "sg_opt"])
def test_an_objective_pickles_and_its_class_is_the_one_its_module_names(tiny, name):
    """The classes are defined on first use (their settings load without torch) yet named as module-level classes:
    `torch.save`/pickle of an objective (what a user's `mp.spawn` or a whole-model save does) round-trips."""
    import importlib
    import io
    import pickle

    from bsl_pipeline.training.objectives import OBJECTIVES

    module, class_name = OBJECTIVES[name].split(":")
    cls = getattr(importlib.import_module(module), class_name)
    assert cls.__qualname__ == class_name and pickle.loads(pickle.dumps(cls)) is cls
    objective, _ = tiny(name)
    buffer = io.BytesIO()
    torch.save(objective, buffer)
    buffer.seek(0)
    again = torch.load(buffer, weights_only=False)  # our own object, just written: not untrusted input
    assert type(again) is cls
    assert all(torch.equal(a, b) for a, b in zip(objective.state_dict().values(), again.state_dict().values()))
