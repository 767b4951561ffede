"""Synonym augmenter params written flat in the tests ({"min_zipf": 0.0, "fraction": 1.0}), nested into the config's
groups (method_params.synonyms.words.min_zipf) by the rule dataclasses' own field names."""

from __future__ import annotations

import dataclasses
from typing import Any

from bsl_pipeline.pipeline.lexicon.eligible_words import SentenceRules
from bsl_pipeline.pipeline.lexicon.substitutes import SubstituteRules

GROUPS = {f.name: group for group, cls in (("words", SubstituteRules), ("sentence", SentenceRules))
          for f in dataclasses.fields(cls)}


def nested(params: dict[str, Any]) -> dict[str, Any]:
    """`params` with each rule setting moved under its group (`words` or `sentence`)."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        group = GROUPS.get(key)
        if group is None:
            out[key] = value
        else:
            out.setdefault(group, {})[key] = value
    return out
