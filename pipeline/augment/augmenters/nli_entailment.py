"""NLI entailment pairs as views (BSL paper, Table 4 "NLI_entail"): view1 = premise, view2 = hypothesis of every
pair labelled entailment.

Input records come from the NLI corpus readers: `text` = premise, `text_b` = hypothesis, `label` normalised to
entailment/neutral/contradiction (the integer labels of Hugging Face `datasets`, "0"/"1"/"2", are accepted too).
Nothing is dropped: every other record becomes a reject with its reason, and `info["label"]` records the label.

Reject reasons: `not_a_sentence_pair` (no hypothesis), `not_entailment` (neutral/contradiction), `no_gold_label`
(no label, '-' or -1: annotators did not agree), `unknown_label` (a label no NLI format uses).
A pair whose premise equals its hypothesis is passed on as it is; the filter stage rejects identical views.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter, SourceRecord, ViewPair
from bsl_pipeline.pipeline.corpus.readers.nli_labels import normalize_label

# Spellings of "no gold label" (annotators disagreed, or a hidden test label); any other unmapped label is unknown.
_NO_GOLD = {"", "-", "-1", "none", "null", "hidden"}


@dataclass
class NLIEntailmentConfig:
    """No parameters: the pairs are the data."""


def nli_label(value: object) -> str | None:
    """entailment/neutral/contradiction for every label spelling the readers know (`datasets` integers
    included), None for no gold label; raises ValueError for anything else."""
    label = normalize_label(value)
    if label is None and value is not None and str(value).strip().lower() not in _NO_GOLD:
        raise ValueError(str(value))
    return label


class NLIEntailmentAugmenter(Augmenter):
    name = "nli-entailment"
    needs_pairs = True
    config_class = NLIEntailmentConfig
    default_batch_size = 8192
    version = "1"
    # Hypotheses are often far shorter than premises ("A man plays a guitar on stage." -> "A man plays."): a
    # length-ratio bound would drop a third of the genuine entailment pairs.
    filter_defaults = {"min_length_ratio": 0.0, "max_length_ratio": 1e9}

    def augment_batch(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        out = []
        for r in records:
            if r.text_b is None or not r.text_b.strip():
                out.append(ViewPair.rejected("not_a_sentence_pair", r.text, r.text_b, label=r.label))
                continue
            try:
                label = nli_label(r.label)
            except ValueError:
                out.append(ViewPair.rejected("unknown_label", r.text, r.text_b, label=r.label))
                continue
            if label is None:
                out.append(ViewPair.rejected("no_gold_label", r.text, r.text_b, label=r.label))
            elif label != "entailment":
                out.append(ViewPair.rejected("not_entailment", r.text, r.text_b, label=label))
            else:
                out.append(ViewPair(r.text, r.text_b, info={"label": label}))
        return out
