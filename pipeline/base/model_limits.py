"""How many tokens a transformer can take: one rule for every stage that truncates input to a model."""

from __future__ import annotations

from typing import Any

#: Model types whose position ids start after the padding index (fairseq's convention, kept by RoBERTa and its
#: descendants), so max_position_embeddings overstates the usable length by pad_token_id + 1
#: (roberta-base: 514 positions, 512 tokens).
OFFSET_POSITION_MODEL_TYPES = frozenset({
    "roberta", "xlm-roberta", "xlm-roberta-xl", "roberta-prelayernorm", "camembert", "longformer", "data2vec-text",
    "xmod", "mpnet", "ernie_m"})


def usable_positions(config: Any) -> int | None:
    """Tokens (special tokens included) the model's position embeddings can take; None when the config does not
    say (`config` is a transformers PretrainedConfig or anything with the same attributes)."""
    positions = getattr(config, "max_position_embeddings", None)
    if not isinstance(positions, int) or positions <= 0:
        return None
    if getattr(config, "model_type", "") in OFFSET_POSITION_MODEL_TYPES:
        positions -= (getattr(config, "pad_token_id", 0) or 0) + 1
    return positions
