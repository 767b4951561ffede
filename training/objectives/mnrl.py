"""Multiple negatives ranking (sentence-transformers' MultipleNegativesRankingLoss) over view pairs."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from bsl_pipeline.pipeline.base.config import Range, setting
from bsl_pipeline.training.objectives import lazy_objective


@dataclass
class MNRLConfig:
    scale: float = setting("similarity scale: logits = scale * cosine (sentence-transformers' MNRL: 20, i.e. a "
                           "temperature of 0.05)", default=20.0, allowed=Range(0, low_open=True))
    symmetric: bool = setting("also rank the anchors for each positive and average the two losses "
                              "(sentence-transformers' MultipleNegativesSymmetricRankingLoss); false = anchor (view1) "
                              "to positives (view2) only", default=False)
    gather_across_ranks: bool = setting("under DDP, candidates come from the global batch", default=True)


config_class = MNRLConfig


def mnrl_loss(anchors, positives, scale: float, symmetric: bool = False, gather: bool = True):
    """Cross-entropy of `scale * cos(anchor_i, positive_j)` with target j = i, over this rank's anchors and the
    positives of the global batch; `symmetric` averages it with the same loss read the other way (each positive
    ranks the global batch's anchors)."""
    import torch
    import torch.nn.functional as F

    from bsl_pipeline.training.distributed import gather_candidates

    if scale <= 0:
        raise ValueError(f"scale must be > 0, got {scale}")
    a = F.normalize(anchors.float(), dim=-1)
    p = F.normalize(positives.float(), dim=-1)
    (all_a, all_p), offset = gather_candidates(a, p, gather=gather)
    target = torch.arange(a.shape[0], device=a.device) + offset
    loss = F.cross_entropy(a @ all_p.T * scale, target)
    if symmetric:
        loss = (loss + F.cross_entropy(p @ all_a.T * scale, target)) / 2
    return loss


@functools.cache
def objective_class():
    """`MNRLObjective`, defined on first use (an nn.Module needs torch; the settings above do not)."""
    import torch
    import torch.nn.functional as F

    from bsl_pipeline.training.objectives.base import Objective

    class MNRLObjective(Objective):
        """In-batch negatives ranking (`mnrl_loss`): each view1 (the anchor) must pick its own view2 (the positive)
        among all view2 of the global batch (gathered with gradient under DDP, so the loss equals the single-process
        loss on the global batch). Unlike the `contrastive` objective (NT-Xent over the 2n sentences) an anchor's
        candidates are the positives only, never the other anchors.

        Fits labeled pairs whose in-batch partners are true negatives (NLI entailments, question-answer pairs); on
        augmentation views of one sentence the other pairs are near-duplicates of little use as negatives, where the
        `bsl` objective needs none (docs/guide/training.md, "Which objective for which data").
        """

        name = "mnrl"
        metric_names = ("positive_cosine",)

        def __init__(self, encoder, tokenizer, settings: MNRLConfig, *, max_length: int):
            super().__init__(encoder, tokenizer, max_length=max_length)
            self.cfg = settings

        def forward(self, batch):
            anchors = self.encoder(**batch["view1"])
            positives = self.encoder(**batch["view2"])
            loss = mnrl_loss(anchors, positives, self.cfg.scale, self.cfg.symmetric, self.cfg.gather_across_ranks)
            with torch.no_grad():
                positive_cosine = F.cosine_similarity(anchors.float(), positives.float()).mean()
            return loss, {"positive_cosine": positive_cosine}

    return MNRLObjective


__getattr__ = lazy_objective("MNRLObjective", objective_class)
