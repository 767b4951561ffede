"""Parallel sentence pairs as views (the BSL paper's multilingual views, §4.3, from translations a user already
has): view1 = the sentence, view2 = its translation.

Input records come from the parallel corpus reader (`corpus.format=parallel`): `text` = first side, `text_b` =
second side, `label` = the language pair (`en-de`) when `corpus.languages` is set. Like `nli-entailment`, the
pair is the data: nothing is generated. Every pair records `source_lang`/`target_lang` (from the label) in its
info. A record without a second side (a plain-text corpus given to this method) is a `not_a_sentence_pair`
reject; identical sides are rejected by the filter stage (`identical_views`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter, SourceRecord, ViewPair


@dataclass
class ParallelConfig:
    """No parameters: the pairs are the data."""


def pair_languages(label: str | None) -> dict[str, Any]:
    """`en-de` -> {"source_lang": "en", "target_lang": "de"}; nothing when the corpus named no languages."""
    if not label or label.count("-") != 1:
        return {}
    first, second = label.split("-")
    return {"source_lang": first, "target_lang": second}


class ParallelAugmenter(Augmenter):
    name = "parallel"
    needs_pairs = True
    config_class = ParallelConfig
    default_batch_size = 8192
    version = "1"

    def augment_batch(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        out = []
        for r in records:
            info = pair_languages(r.label)
            if r.text_b is None or not r.text_b.strip():
                out.append(ViewPair.rejected("not_a_sentence_pair", r.text, r.text_b, **info))
            else:
                out.append(ViewPair(r.text, r.text_b, info=info))
        return out
