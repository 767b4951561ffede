"""Case and whitespace noise: a cheap, model-free view (view1 = source, view2 = noised copy)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bsl_pipeline.pipeline.augment.augmenters.base import (
    Augmenter,
    SourceRecord,
    ViewPair,
    record_rng,
)
from bsl_pipeline.pipeline.base.config import Range


@dataclass
class NoiseConfig:
    fraction: float = field(default=0.3, metadata={
        "range": Range(0, 1), "help": "share of words whose case is flipped"})
    drop_punctuation: bool = field(default=True, metadata={"help": "also drop each punctuation token w.p. fraction"})


class CaseWhitespaceNoiseAugmenter(Augmenter):
    name = "noise"
    config_class = NoiseConfig
    default_batch_size = 4096

    def augment_batch(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        out = []
        for r in records:
            rng = record_rng(seed, r.source_id)
            tokens, changed = [], 0
            for tok in r.text.split(" "):
                if self.config.drop_punctuation and not any(c.isalnum() for c in tok) and rng.random() < self.config.fraction:
                    changed += 1
                    continue
                if rng.random() < self.config.fraction and tok.lower() != tok.upper():
                    new = tok.lower() if tok != tok.lower() else tok.capitalize()
                    changed += new != tok
                    tok = new
                tokens.append(tok)
            out.append(ViewPair(r.text, " ".join(tokens), info={"changed": changed}))
        return out
