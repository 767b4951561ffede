"""Random span masking (Mirror-BERT, paper 003 §2): one view is the sentence, the other has a random consecutive
span of k units replaced by a mask string. Mirror-BERT's sentence-level setting is k = 5 (its Table 13: 2-10 work,
15-20 hurt), applied to one side of the pair only; the other difference between the views comes from dropout in the
encoder.

Settings taken from the authors' released code (`erase_and_mask` in cambridgeltl/mirror-bert), which the paper
leaves unstated:
* the unit is the character (`unit="char"`): 5 consecutive characters, which may cut words;
* strings shorter than 30 characters (or not longer than k) are NOT masked: both views are the sentence itself.
  Identical views are the point of Mirror-BERT (dropout makes them differ in the encoder), so they are a legitimate
  output here (`identical_views_ok`); `short_texts="reject"` turns them into rejects (`too_short`) for objectives
  that need two different strings;
* the masked text is `left + " " + mask + " " + right`, with the literal "[MASK]" even for RoBERTa (the authors
  note it did not hurt); set `mask_token` to the model's own mask token (e.g. "<mask>") to use it.
Three deliberate differences from that code: the span is cut at the sampled position (the code splits at the first
occurrence of the span's text, which may be earlier); every start position 0..len-k is possible (the code never
picks the last one); and whitespace at the cut is folded into the single space around the mask, with none at either
end of the text (byte-level BPE tokenizers would otherwise see a double space). `unit="word"` masks k
whitespace-separated words instead. `mask_span` is the rule; the Mirror-BERT training objective applies the same
function at collate time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bsl_pipeline.pipeline.augment.augmenters.base import (
    Augmenter,
    SourceRecord,
    ViewPair,
    record_rng,
)
from bsl_pipeline.pipeline.base.config import Range


def mask_span(text: str, span_length: int, mask_token: str, rng, *, unit: str = "char",
              min_chars: int = 0) -> tuple[str, int, str] | None:
    """The one span-masking rule (this augmenter and the Mirror-BERT objective use it): `span_length` units
    starting at a uniformly drawn position 0..n-k are replaced by `mask_token`, with one space on each side of it
    (whitespace next to the cut is folded into that space; none at either end of the text). Returns (masked text,
    start unit, masked span), or None when `text` is shorter than `min_chars` characters or has no more than
    `span_length` units. `rng` needs only `randrange` (random.Random)."""
    if len(text) < min_chars:
        return None
    if unit == "char":
        if len(text) <= span_length:
            return None
        start = rng.randrange(len(text) - span_length + 1)
        left, span, right = text[:start], text[start:start + span_length], text[start + span_length:]
        return " ".join(part for part in (left.rstrip(), mask_token, right.lstrip()) if part), start, span
    words = text.split()
    if len(words) <= span_length:
        return None
    start = rng.randrange(len(words) - span_length + 1)
    span = " ".join(words[start:start + span_length])
    return " ".join(words[:start] + [mask_token] + words[start + span_length:]), start, span


@dataclass
class SpanMaskConfig:
    span_length: int = field(default=5, metadata={
        "range": Range(1), "help": "k: units replaced by one mask (Mirror-BERT: 5)"})
    unit: Literal["char", "word"] = field(default="char", metadata={
        "help": "char: k characters (Mirror-BERT's code); word: k whitespace-separated words"})
    mask_token: str = field(default="[MASK]", metadata={
        "help": "string put in place of the span ('[MASK]' as in Mirror-BERT; '<mask>' for RoBERTa)",
        "check": lambda token: None if token.strip() else "must not be empty"})
    min_chars: int = field(default=30, metadata={"range": Range(0),
        "help": "texts shorter than this many characters are not masked (Mirror-BERT: 30; 0: off)"})
    short_texts: Literal["identical", "reject"] = field(default="identical", metadata={
        "help": "texts too short to mask: identical views (Mirror-BERT) or reject 'too_short'"})
    masked_view: Literal["second", "random"] = field(default="second", metadata={
        "help": "which view is masked: the second (Mirror-BERT's code), or either at random"})


class SpanMaskAugmenter(Augmenter):
    name = "span-mask"
    config_class = SpanMaskConfig
    identical_views_ok = True
    default_batch_size = 8192
    version = "1"

    def mask(self, text: str, rng) -> tuple[str, dict[str, Any]] | None:
        """`text` with one random span masked, and what was masked; None when the text is too short."""
        cfg = self.config
        masked = mask_span(text, cfg.span_length, cfg.mask_token, rng, unit=cfg.unit, min_chars=cfg.min_chars)
        if masked is None:
            return None
        view, start, span = masked
        return view, {"start": start, "span": span}

    def augment_batch(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        out = []
        for r in records:
            rng = record_rng(seed, r.source_id)
            masked = self.mask(r.text, rng)
            if masked is None:
                if self.config.short_texts == "reject":
                    out.append(ViewPair.rejected("too_short", r.text, r.text, chars=len(r.text)))
                else:
                    out.append(ViewPair(r.text, r.text, info={"masked": False}))
                continue
            text, info = masked
            first = self.config.masked_view == "random" and rng.random() < 0.5
            view1, view2 = (text, r.text) if first else (r.text, text)
            out.append(ViewPair(view1, view2, info={"masked": True, "masked_view": 1 if first else 2, **info}))
        return out
