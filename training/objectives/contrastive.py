"""Contrastive baseline of BSL's Table 7: InfoNCE over the same view pairs with in-batch negatives.

A batch of n pairs gives 2n sentences; each sentence's positive is the other view of its pair and its negatives are
the other 2(n - 1) sentences. Under DDP the candidates are gathered from all ranks (with gradient), so the loss
equals the single-process loss on the global batch.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from bsl_pipeline.pipeline.base.config import Range, setting
from bsl_pipeline.training.objectives import lazy_objective


@dataclass
class ContrastiveConfig:
    temperature: float = setting("InfoNCE temperature", default=0.05, allowed=Range(0, low_open=True))
    gather_across_ranks: bool = setting("under DDP, negatives come from the global batch", default=True)


config_class = ContrastiveConfig

def info_nce(a, b, temperature: float, gather: bool = True):
    """NT-Xent over pairs (a_i, b_i): mean over all 2n anchors of
    -log exp(cos(x, x+)/t) / sum_{y != x} exp(cos(x, y)/t), y ranging over the 2N sentences of the global batch."""
    import torch
    import torch.nn.functional as F

    from bsl_pipeline.training.distributed import gather_candidates

    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    a = F.normalize(a.float(), dim=-1)
    b = F.normalize(b.float(), dim=-1)
    n = a.shape[0]
    (all_a, all_b), offset = gather_candidates(a, b, gather=gather)
    total = all_a.shape[0]
    anchors = torch.cat([a, b])
    candidates = torch.cat([all_a, all_b])
    logits = anchors @ candidates.T / temperature
    local = torch.arange(n, device=a.device) + offset
    self_idx = torch.cat([local, local + total])
    positive_idx = torch.cat([local + total, local])
    rows = torch.arange(2 * n, device=a.device)
    logits = logits.index_put((rows, self_idx), torch.tensor(float("-inf"), device=a.device))
    return F.cross_entropy(logits, positive_idx)


@functools.cache
def objective_class():
    """`ContrastiveObjective`, defined on first use (an nn.Module needs torch; the settings above do not)."""
    import torch
    import torch.nn.functional as F

    from bsl_pipeline.training.objectives.base import Objective

    class ContrastiveObjective(Objective):
        name = "contrastive"
        metric_names = ("positive_cosine",)

        def __init__(self, encoder, tokenizer, settings: ContrastiveConfig, *, max_length: int):
            """`settings` needs `temperature` and `gather_across_ranks` (Mirror-BERT passes its own section)."""
            super().__init__(encoder, tokenizer, max_length=max_length)
            self.cfg = settings

        def forward(self, batch):
            e1 = self.encoder(**batch["view1"])
            e2 = self.encoder(**batch["view2"])
            loss = info_nce(e1, e2, self.cfg.temperature, self.cfg.gather_across_ranks)
            with torch.no_grad():
                pos_cos = F.cosine_similarity(e1.float(), e2.float()).mean()
            return loss, {"positive_cosine": pos_cos}

    return ContrastiveObjective


__getattr__ = lazy_objective("ContrastiveObjective", objective_class)
