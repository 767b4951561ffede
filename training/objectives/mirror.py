"""Mirror-BERT (Liu et al., EMNLP 2021): a sentence and its mirror as a positive pair. The two copies differ by
dropout (the encoder runs in train mode) and by a random span of the second copy replaced with the mask token;
InfoNCE with in-batch negatives, as in training.objectives.contrastive.

Span masking is the dataset-time rule of pipeline.augment.augmenters.span_mask (`mask_span`, documented there against the
authors' code): `span_mask_length` characters (5 for sentences) at a uniformly drawn position of the second copy
become the tokenizer's own mask token; sentences shorter than `span_mask_min_chars` are left whole. With
`views: dataset` the pair comes from the data instead of a mirror.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bsl_pipeline.pipeline.augment.augmenters.span_mask import mask_span
from bsl_pipeline.pipeline.base.config import Range, setting
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.training.objectives import contrastive, lazy_objective


@dataclass
class MirrorConfig:
    temperature: float = setting("InfoNCE temperature (Mirror-BERT sentences: 0.04)",
                                 default=0.04, allowed=Range(0, low_open=True))
    views: Literal["identical", "dataset"] = setting("identical: both views are view1 (Mirror-BERT); dataset: "
                                                     "view1/view2 from the data", default="identical")
    span_mask_length: int = setting("characters of the second view replaced by one mask token (Mirror-BERT "
                                    "sentences: 5); 0 = no masking", default=5, allowed=Range(0))
    span_mask_min_chars: int = setting("sentences shorter than this are not masked", default=30, allowed=Range(0))
    gather_across_ranks: bool = setting("under DDP, negatives come from the global batch", default=True)


config_class = MirrorConfig


@functools.cache
def objective_class():
    """`MirrorObjective`, defined on first use (an nn.Module needs torch; the settings above do not)."""

    class MirrorObjective(contrastive.objective_class()):
        """InfoNCE of ContrastiveObjective; only the views differ (mirrored, span-masked)."""

        name = "mirror"

        def __init__(self, encoder, tokenizer, settings: MirrorConfig, *, max_length: int):
            super().__init__(encoder, tokenizer, settings, max_length=max_length)
            if settings.span_mask_length > 0 and not getattr(tokenizer, "mask_token", None):
                model = getattr(tokenizer, "name_or_path", "") or type(tokenizer).__name__
                raise BSLError(f"objective.mirror.span_mask_length={settings.span_mask_length} needs a tokenizer "
                               f"with a mask token; {model} has none (set span_mask_length=0)")

        def mask(self, text: str, rng: random.Random) -> str:
            """`text` with one span masked, or unchanged when masking is off or the text is too short."""
            if self.cfg.span_mask_length <= 0:
                return text
            masked = mask_span(text, self.cfg.span_mask_length, self.tokenizer.mask_token, rng,
                               min_chars=self.cfg.span_mask_min_chars)
            return text if masked is None else masked[0]

        def collate(self, view1: Sequence[str], view2: Sequence[str], rng: random.Random):
            first = list(view1)
            second = list(view1) if self.cfg.views == "identical" else list(view2)
            return {"view1": self.tokenize(first), "view2": self.tokenize([self.mask(t, rng) for t in second])}

    return MirrorObjective


__getattr__ = lazy_objective("MirrorObjective", objective_class)
