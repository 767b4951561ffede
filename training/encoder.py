"""SentenceEncoder: a Hugging Face encoder plus pooling, the part of every objective that is kept after training."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

import torch
from torch import nn

from pipeline.errors import BSLError

# Names different architectures give their dropout probabilities (BERT/RoBERTa/MiniLM, DistilBERT, ...).
_DROPOUT_ATTRS = ("hidden_dropout_prob", "attention_probs_dropout_prob", "dropout", "attention_dropout")


@contextlib.contextmanager
def quiet_hf_progress() -> Iterator[None]:
    """Hide transformers' per-call "Loading weights" / "Writing model shards" bars (one per checkpoint would
    bury the training bar); restores the previous setting."""
    from transformers.utils import logging as hf_logging

    was_enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_enabled:
            hf_logging.enable_progress_bar()


def load_tokenizer(name_or_path: str):
    from transformers import AutoTokenizer

    try:
        return AutoTokenizer.from_pretrained(name_or_path)
    except (OSError, ValueError) as exc:
        raise BSLError(f"cannot load a tokenizer from {name_or_path!r}: {exc}") from None


def load_hf_encoder(name_or_path: str, dropout: float | None = None):
    from transformers import AutoConfig, AutoModel

    try:
        config = AutoConfig.from_pretrained(name_or_path)
        if dropout is not None:
            if not 0.0 <= dropout < 1.0:
                raise BSLError(f"model.dropout must be in [0, 1), got {dropout}")
            changed = [a for a in _DROPOUT_ATTRS if isinstance(getattr(config, a, None), float)]
            if not changed:
                raise BSLError(f"model.dropout: {name_or_path} has none of the dropout settings "
                               f"{', '.join(_DROPOUT_ATTRS)}")
            for attr in changed:
                setattr(config, attr, dropout)
        with quiet_hf_progress():
            return AutoModel.from_pretrained(name_or_path, config=config)
    except OSError as exc:
        raise BSLError(f"cannot load an encoder from {name_or_path!r}: {exc}") from None


def tokenize(tokenizer, texts: Sequence[str], max_length: int) -> dict[str, torch.Tensor]:
    """Pad to the longest sentence of the batch, truncate to max_length (as sentence-transformers does)."""
    return dict(tokenizer(list(texts), padding=True, truncation=True, max_length=max_length, return_tensors="pt"))


class SentenceEncoder(nn.Module):
    """Token states of a transformer pooled into one vector per sentence (float32 even under autocast)."""

    def __init__(self, model: nn.Module, pooling: str = "mean"):
        super().__init__()
        if pooling not in ("mean", "cls"):
            raise BSLError(f"model.pooling must be 'mean' or 'cls', got {pooling!r}")
        self.model = model
        self.pooling = pooling
        # The HF pooler (dense layer on [CLS]) is not part of any objective here; frozen, it stays as loaded and
        # DDP does not wait for gradients that never come.
        pooler = getattr(model, "pooler", None)
        if isinstance(pooler, nn.Module):
            pooler.requires_grad_(False)

    @classmethod
    def from_pretrained(cls, name_or_path: str, pooling: str = "mean",
                        dropout: float | None = None) -> SentenceEncoder:
        return cls(load_hf_encoder(name_or_path, dropout), pooling)

    @property
    def dim(self) -> int:
        return int(self.model.config.hidden_size)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, **features: torch.Tensor) -> torch.Tensor:
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, **features)
        return pool(out.last_hidden_state, attention_mask, self.pooling)

    def hidden_states(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                      **features: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """Token states of every layer, embeddings first (num_layers + 1 tensors)."""
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, output_hidden_states=True, **features)
        return out.hidden_states

    def save_pretrained(self, path: str | Path, tokenizer=None) -> None:
        with quiet_hf_progress():
            self.model.save_pretrained(path)
        if tokenizer is not None:
            tokenizer.save_pretrained(path)


def pool(token_states: torch.Tensor, attention_mask: torch.Tensor, pooling: str) -> torch.Tensor:
    states = token_states.float()
    if pooling == "cls":
        return states[:, 0]
    mask = attention_mask.unsqueeze(-1).to(states.dtype)
    return (states * mask).sum(1) / mask.sum(1).clamp(min=1e-9)


@torch.no_grad()
def encode(encoder: SentenceEncoder, tokenizer, sentences: Sequence[str], max_length: int, batch_size: int = 128,
           device: torch.device | str | None = None, autocast_dtype: torch.dtype | None = None) -> torch.Tensor:
    """Embeddings (float32, on CPU) in eval mode; sentences are batched by length so padding stays small."""
    device = torch.device(device) if device is not None else next(encoder.parameters()).device
    was_training = encoder.training
    encoder.eval()
    order = sorted(range(len(sentences)), key=lambda i: -len(sentences[i]))
    out = torch.empty(len(sentences), encoder.dim)
    try:
        for start in range(0, len(order), batch_size):
            idx = order[start:start + batch_size]
            features = {k: v.to(device) for k, v in tokenize(tokenizer, [sentences[i] for i in idx],
                                                                max_length).items()}
            with torch.autocast(device.type, dtype=autocast_dtype, enabled=autocast_dtype is not None):
                emb = encoder(**features)
            out[idx] = emb.float().cpu()
    finally:
        encoder.train(was_training)
    return out
