"""Token states to sentence vectors: the one pooling implementation, shared by the trainer/evaluation stack and the
augmentation job's optional view-similarity encoder (`pipeline.augment.view_similarity`), which sits below training
and so cannot import it. torch is imported inside `pool`, so that importing this module (for `POOLING_MODES`, from
configs) stays cheap."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bsl_pipeline.pipeline.base.errors import BSLError

#: Pooling modes of sentence-transformers' Pooling module that `pool` implements (training itself uses mean or cls;
#: the evaluation stage reads models that use any of them).
POOLING_MODES = ("mean", "cls", "max", "mean_sqrt_len_tokens", "weightedmean", "lasttoken")


def pool(token_states: Any, attention_mask: Any, modes: Sequence[str]) -> Any:
    """Sentence vectors (float32 torch tensor) from token states (batch, seq, dim) and a right-padded mask; several
    modes are concatenated in the given order, each defined as in sentence-transformers' Pooling module."""
    import torch

    states = token_states.float()
    mask = attention_mask.to(states.dtype).unsqueeze(-1)
    outputs = []
    for mode in modes:
        if mode == "cls":
            outputs.append(states[:, 0])
        elif mode == "max":
            outputs.append(states.masked_fill(mask == 0, float("-inf")).max(dim=1).values)
        elif mode in ("mean", "mean_sqrt_len_tokens"):
            summed = (states * mask).sum(dim=1)
            count = mask.sum(dim=1).clamp(min=1e-9)
            outputs.append(summed / (count if mode == "mean" else torch.sqrt(count)))
        elif mode == "weightedmean":
            weights = torch.arange(1, states.shape[1] + 1, device=states.device, dtype=states.dtype).view(1, -1, 1)
            weighted = mask * weights
            outputs.append((states * weighted).sum(dim=1) / weighted.sum(dim=1).clamp(min=1e-9))
        elif mode == "lasttoken":
            last = (attention_mask.sum(dim=1) - 1).clamp(min=0).long()
            outputs.append(states[torch.arange(states.shape[0], device=states.device), last])
        else:
            raise BSLError(f"unsupported pooling mode {mode!r}; expected one of {', '.join(POOLING_MODES)}")
    return outputs[0] if len(outputs) == 1 else torch.cat(outputs, dim=-1)
