"""Identity views (view1 = view2 = source): the input of dropout-based objectives such as Mirror-BERT."""

from __future__ import annotations

from collections.abc import Sequence

from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter, SourceRecord, ViewPair


class IdentityAugmenter(Augmenter):
    name = "identity"
    identical_views_ok = True
    default_batch_size = 4096

    def augment_batch(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        return [ViewPair(r.text, r.text) for r in records]
