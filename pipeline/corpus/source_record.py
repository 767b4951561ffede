"""The unit every stage after the corpus reader works on."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SourceRecord:
    """One normalised corpus record. `text_b`/`label` are set for sentence-pair (NLI) corpora. `repeats_text`: its
    `text` is that of an earlier record (an NLI premise with its next hypothesis; set only under `corpus.dedupe`),
    so a method that reads only `text` leaves it out (`Augmenter.sources`): each sentence gets one view."""

    source_id: str
    text: str
    text_b: str | None = None
    label: str | None = None
    origin: str = ""
    repeats_text: bool = False
