"""Mirror-BERT (Liu et al., EMNLP 2021): a sentence and its mirror as a positive pair. The two copies differ by
dropout (the encoder runs in train mode) and by a random span of the second copy replaced with the mask token;
InfoNCE with in-batch negatives, as in training.objectives.contrastive.

Span masking follows the authors' code: a span of `span_mask_length` characters (5 for sentences) at a random
position of the second copy is replaced by " <mask> " (the tokenizer's own mask token); sentences shorter than
`span_mask_min_chars` are left whole. With `views: dataset` the pair comes from the data instead of a mirror.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pipeline.errors import BSLError
from training.objectives.base import Batch
from training.objectives.contrastive import ContrastiveObjective


def span_mask(text: str, span: int, mask_token: str, rng: random.Random, min_chars: int = 0) -> str:
    if span <= 0 or len(text) <= span or len(text) < min_chars:
        return text
    start = rng.randrange(len(text) - span)
    return f"{text[:start]} {mask_token} {text[start + span:]}"


class MirrorObjective(ContrastiveObjective):
    """InfoNCE of ContrastiveObjective; only the views differ (mirrored, span-masked)."""

    name = "mirror"
    config_section = "mirror"

    def __init__(self, encoder, tokenizer, config):
        super().__init__(encoder, tokenizer, config)
        if self.cfg.span_mask_length > 0 and not getattr(tokenizer, "mask_token", None):
            raise BSLError(f"objective.mirror.span_mask_length={self.cfg.span_mask_length} needs a tokenizer with a "
                           f"mask token; {config.model.name_or_path} has none (set span_mask_length=0)")

    def collate(self, view1: Sequence[str], view2: Sequence[str], rng: random.Random) -> Batch:
        first = list(view1)
        second = list(view1) if self.cfg.views == "identical" else list(view2)
        second = [span_mask(t, self.cfg.span_mask_length, self.tokenizer.mask_token, rng,
                            self.cfg.span_mask_min_chars) for t in second]
        return {"view1": self.tokenize(first), "view2": self.tokenize(second)}

