"""NLI label normalisation shared by every NLI format."""

from __future__ import annotations

NLI_LABELS = ("entailment", "neutral", "contradiction")
# `datasets` (SNLI, MNLI, GLUE) encode labels as ClassLabel ints in this order; -1 means no gold label.
_INT_LABELS = {0: "entailment", 1: "neutral", 2: "contradiction"}
_ALIASES = {"entails": "entailment", "entailed": "entailment", "contradict": "contradiction",
            "contradictory": "contradiction"}


def normalize_label(value: object) -> str | None:
    """Map a label from any supported format to entailment/neutral/contradiction; None for no gold label."""
    if value is None:
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return _INT_LABELS.get(value)
    text = str(value).strip().lower()
    if text in NLI_LABELS:
        return text
    if text in _ALIASES:
        return _ALIASES[text]
    if text.lstrip("-").isdigit():
        return _INT_LABELS.get(int(text))
    return None  # '-', 'hidden', '' : no gold label
