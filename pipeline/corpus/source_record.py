"""The unit every stage after the corpus reader works on."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SourceRecord:
    """One normalised corpus record. `text_b`/`label` are set for sentence-pair (NLI) corpora."""

    source_id: str
    text: str
    text_b: str | None = None
    label: str | None = None
    origin: str = ""
