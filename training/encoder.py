"""Sentences to embeddings, written once for the trainer, the evaluation stage and the export.

- `tokenize`, `pool` and `SentenceEncoder` (a Hugging Face encoder plus pooling, the part of every objective kept
  after training) are the forward pass: tokenisation as sentence-transformers does it, the pooling modes of its
  Pooling module, float32 sentence vectors even under autocast.
- `Encoder` is what evaluators call: `encode(sentences) -> (n, dim) float32 array`, plus an identity (`name`,
  `fingerprint`) that keys the evaluation stage's embedding cache.
- `TransformerEncoder` is the batched inference around a SentenceEncoder (`encode_distinct`). The trainer wraps its
  online encoder in one for dev evaluation; the evaluation stage's `load_encoder` builds one from disk.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.model_limits import usable_positions
from bsl_pipeline.pipeline.base.pooling import pool
from bsl_pipeline.pipeline.base.progress import progress_disabled
from bsl_pipeline.pipeline.base.progress import transformers_bars_hidden
from bsl_pipeline.pipeline.base.token_batches import plan_batches
from bsl_pipeline.pipeline.base.weights_only import refusing_pickles
from bsl_pipeline.training.accel import forward_context
from bsl_pipeline.training.config import POOLING_MODES

# Names different architectures give their dropout probabilities (BERT/RoBERTa/MiniLM, DistilBERT, ...).
_DROPOUT_ATTRS = ("hidden_dropout_prob", "attention_probs_dropout_prob", "dropout", "attention_dropout")
#: Token limit when neither the caller nor the model says (sentence-transformers' usual maximum).
DEFAULT_MAX_LENGTH = 512


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
        with transformers_bars_hidden(), refusing_pickles(name_or_path):
            return AutoModel.from_pretrained(name_or_path, config=config)
    except OSError as exc:
        raise BSLError(f"cannot load an encoder from {name_or_path!r}: {exc}") from None


# -- the forward pass -------------------------------------------------------------------------------------------
def tokenize(tokenizer, texts: Sequence[str], max_length: int) -> dict[str, torch.Tensor]:
    """Pad to the longest sentence of the batch, truncate to max_length (as sentence-transformers does)."""
    # numpy -> torch.from_numpy is a quarter faster than return_tensors="pt" (tiny models are tokenizer-bound).
    batch = tokenizer(list(texts), padding=True, truncation=True, max_length=max_length, return_tensors="np")
    return {k: torch.from_numpy(np.asarray(v)) for k, v in batch.items()}


def _forward_parameters(model: nn.Module) -> set[str] | None:
    """The inputs `model.forward` accepts (None: it takes **kwargs, so anything the tokenizer makes)."""
    params = inspect.signature(model.forward).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return None
    return set(params)


class SentenceEncoder(nn.Module):
    """Token states of a transformer pooled into one vector per sentence (float32 even under autocast)."""

    def __init__(self, model: nn.Module, pooling: str | Sequence[str] = "mean", *, freeze_pooler: bool = True):
        super().__init__()
        modes = (pooling,) if isinstance(pooling, str) else tuple(pooling)
        bad = [m for m in modes if m not in POOLING_MODES]
        if not modes or bad:
            raise BSLError(f"unsupported pooling {', '.join(map(str, bad)) or '(none)'}; expected one of "
                           f"{', '.join(POOLING_MODES)}")
        self.model = model
        self.pooling_modes = modes
        self._forward_keys = _forward_parameters(model)
        # The HF pooler (dense layer on [CLS]) is not part of any objective here; frozen, it stays as loaded and
        # DDP does not wait for gradients that never come.
        pooler = getattr(model, "pooler", None)
        if freeze_pooler and isinstance(pooler, nn.Module):
            pooler.requires_grad_(False)

    @classmethod
    def from_pretrained(cls, name_or_path: str, pooling: str = "mean",
                        dropout: float | None = None) -> SentenceEncoder:
        return cls(load_hf_encoder(name_or_path, dropout), pooling)

    @property
    def pooling(self) -> str:
        return "+".join(self.pooling_modes)

    @property
    def dim(self) -> int:
        """Size of the sentence vector (token state size times the number of pooling modes)."""
        return int(self.model.config.hidden_size) * len(self.pooling_modes)

    def _inputs(self, features: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        keys = self._forward_keys
        return features if keys is None else {k: v for k, v in features.items() if k in keys}

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, **features: torch.Tensor) -> torch.Tensor:
        out = self.model(**self._inputs({"input_ids": input_ids, "attention_mask": attention_mask, **features}))
        states = out.last_hidden_state if hasattr(out, "last_hidden_state") else out[0]
        return pool(states, attention_mask, self.pooling_modes)

    def hidden_states(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                      **features: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """Token states of every layer, embeddings first (num_layers + 1 tensors)."""
        out = self.model(**self._inputs({"input_ids": input_ids, "attention_mask": attention_mask, **features}),
                         output_hidden_states=True)
        return out.hidden_states

    def save_pretrained(self, path: str | Path, tokenizer=None) -> None:
        with transformers_bars_hidden():
            self.model.save_pretrained(path)
        if tokenizer is not None:
            tokenizer.save_pretrained(path)


# -- encoding lists of sentences --------------------------------------------------------------------------------
class Encoder:
    """What evaluators use: `encode(sentences) -> (n, dim) float32 array`, plus an identity for caching."""

    name: str = "encoder"
    #: None means "do not cache": embeddings are cached only for encoders with a stable identity.
    fingerprint: str | None = None

    def encode(self, sentences: Sequence[str], disable_progress: bool | None = None) -> np.ndarray:
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "fingerprint": self.fingerprint}


def encode_distinct(sentences: Sequence[str], encode_chunk: Callable[[list[str]], np.ndarray],
                    batch_size: int | None, *, progress: str | None = None, disable_progress: bool | None = None,
                    plan: Callable[[list[str]], list[list[int]]] | None = None) -> np.ndarray:
    """Rows of `encode_chunk`'s embeddings in the order of `sentences`, each distinct sentence encoded once: in
    chunks of `batch_size`, longest first (the first batch shows at once whether memory suffices, and similar
    lengths share a batch; ties in text order, so the batches and the float rounding inside them depend only on
    which sentences are encoded, not on the order they come in), or in one call in input order when `batch_size`
    is None; or in the batches `plan` makes of the distinct sentences (lists of their indices). `progress` names a
    bar."""
    from tqdm.auto import tqdm

    unique = list(dict.fromkeys(sentences))
    if not unique:
        return np.zeros((0, 0), dtype=np.float32)
    if plan is not None:
        batches = plan(unique)
    else:
        order = sorted(range(len(unique)), key=lambda i: (-len(unique[i]), unique[i])) if batch_size else \
            list(range(len(unique)))
        step = batch_size or len(unique)
        batches = [order[start:start + step] for start in range(0, len(order), step)]
    out: np.ndarray | None = None
    with tqdm(total=len(unique), desc=progress, unit="sent", file=sys.stderr, leave=False,
              disable=progress is None or progress_disabled(disable_progress)) as bar:
        for idx in batches:
            emb = encode_chunk([unique[i] for i in idx])
            if out is None:
                out = np.empty((len(unique), emb.shape[1]), dtype=np.float32)
            out[idx] = emb
            bar.update(len(idx))
    index = {s: i for i, s in enumerate(unique)}
    return out[[index[s] for s in sentences]]


def resolve_max_length(config, tokenizer, requested: int | None) -> int:
    """The number of tokens a sentence is truncated to: the requested/configured length, capped by what the
    tokenizer declares and by the model's position embeddings (a longer input would crash the model)."""
    limits = [requested if requested is not None else DEFAULT_MAX_LENGTH]
    tok_max = getattr(tokenizer, "model_max_length", None)
    # An explicit length (argument or sentence-transformers' max_seq_length) overrides the tokenizer's declared
    # limit, as in sentence-transformers; only the position embeddings still cap it.
    if requested is None and isinstance(tok_max, int) and 0 < tok_max < 1_000_000:
        limits.append(tok_max)
    positions = usable_positions(config)
    if positions is not None:
        limits.append(positions)
    return max(1, min(limits))


@dataclass
class DenseLayer:
    """A sentence-transformers Dense module: linear map then an activation (weights as float32 numpy)."""

    weight: np.ndarray  # (out, in)
    bias: np.ndarray | None
    activation: str


class TransformerEncoder(Encoder):
    """Batched inference with a SentenceEncoder (+ optional Dense layers and L2 normalisation).

    `model` is a SentenceEncoder (the trainer's online encoder; its pooling is used) or a Hugging Face model that
    is wrapped with `pooling` (default mean). The model is put in eval mode for encoding and its previous mode is
    restored afterwards; `autocast_dtype` runs the forward pass under autocast (the trainer's precision).
    `max_tokens` > 0 forms batches under that padded-token budget (sentences sorted by token length) instead of
    `batch_size` sentences; 0 = off; None = auto: 16384 on CUDA (a GPU wants full batches whatever the sentence
    length), off on CPU.
    `sdpa_backend` picks the attention kernels (pipeline.base.devices.attention_kernels).
    """

    def __init__(self, model, tokenizer, pooling: str | Sequence[str] | None = None, *, normalize: bool = False,
                 max_length: int | None = None, lowercase: bool = False, dense: Sequence[DenseLayer] = (),
                 batch_size: int = 64, device=None, autocast_dtype: torch.dtype | None = None,
                 max_tokens: int | None = None, sdpa_backend: str = "auto",
                 name: str = "in-memory", fingerprint: str | None = None, kind: str = "in-memory", source: str = ""):
        if batch_size < 1:
            raise BSLError(f"batch size must be >= 1, got {batch_size}")
        try:
            self.module = self._as_module(model, pooling)
        except BSLError as exc:
            raise BSLError(f"{name}: {exc}") from None
        self.tokenizer = tokenizer
        self.normalize = normalize
        self.lowercase = lowercase
        self.dense = list(dense)
        self.batch_size = batch_size
        self.autocast_dtype = autocast_dtype
        self.name = name
        self.fingerprint = fingerprint
        self.kind = kind
        self.source = source
        self.max_length = resolve_max_length(self.module.model.config, tokenizer, max_length)
        self.device = torch.device(device) if device is not None else next(self.module.parameters()).device
        self.max_tokens = (16384 if self.device.type == "cuda" else 0) if max_tokens is None else max_tokens
        self.sdpa_backend = sdpa_backend
        self._dense_torch: list[nn.Module] | None = None
        self.pooling_source = "argument"
        #: Evaluation only (evaluation.backends): a function from the tokenizer's numpy features to the
        #: transformer's last hidden state (numpy) that replaces its torch forward pass; pooling, Dense layers and
        #: normalisation still run here. None (the trainer's case) = the torch module.
        self.token_states_fn: Callable[[dict[str, np.ndarray]], np.ndarray] | None = None
        self.backend = "torch"

    @staticmethod
    def _as_module(model, pooling: str | Sequence[str] | None) -> SentenceEncoder:
        if not isinstance(model, SentenceEncoder):
            return SentenceEncoder(model, pooling or "mean", freeze_pooler=False)
        wanted = None if pooling is None else ((pooling,) if isinstance(pooling, str) else tuple(pooling))
        if wanted is not None and wanted != model.pooling_modes:
            raise BSLError(f"pooling {'+'.join(wanted)} differs from the encoder's own ({model.pooling})")
        return model

    @property
    def model(self):
        return self.module.model

    @property
    def pooling(self) -> tuple[str, ...]:
        return self.module.pooling_modes

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "source": self.source, "pooling": "+".join(self.pooling),
                "pooling_from": self.pooling_source,
                "normalize": self.normalize, "max_length": self.max_length, "lowercase": self.lowercase,
                "dense_layers": len(self.dense), "fingerprint": self.fingerprint, "backend": self.backend}

    def release(self) -> None:
        """Drop the model (and free GPU memory) once this encoder is no longer needed."""
        self.module = self.tokenizer = self._dense_torch = self.token_states_fn = None  # type: ignore[assignment]
        if self.device.type == "cuda":
            torch.cuda.empty_cache()

    def encode(self, sentences: Sequence[str], disable_progress: bool | None = None,
               batch_size: int | None = None) -> np.ndarray:
        was_training = self.module.model.training
        self.module.eval()
        try:
            with torch.no_grad():
                return encode_distinct(list(sentences), self._encode_batch, batch_size or self.batch_size,
                                       progress=f"encode {self.name}", disable_progress=disable_progress,
                                       plan=self._token_batches if self.max_tokens and not batch_size else None)
        finally:
            self.module.train(was_training)

    def _token_batches(self, texts: list[str]) -> list[list[int]]:
        """Indices of `texts` in batches of at most max_tokens padded tokens, longest first."""
        if self.lowercase:
            texts = [t.lower() for t in texts]
        ids = self.tokenizer(texts, truncation=True, max_length=self.max_length)["input_ids"]
        lengths = [len(i) for i in ids]
        # Ties in text order, as in encode_distinct: batches depend on which sentences, not on their order.
        order = sorted(range(len(texts)), key=lambda i: (-lengths[i], texts[i]))
        return plan_batches(order, lengths, self.max_tokens, max_sentences=len(texts))

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        if self.lowercase:
            texts = [t.lower() for t in texts]
        features = {k: v.to(self.device) for k, v in tokenize(self.tokenizer, texts, self.max_length).items()}
        if self.token_states_fn is not None:
            states = torch.from_numpy(self.token_states_fn({k: v.numpy() for k, v in features.items()}))
            emb = pool(states, features["attention_mask"], self.module.pooling_modes)
        else:
            with forward_context(self.device, self.autocast_dtype, self.sdpa_backend):
                emb = self.module(**features)
        for layer in self._dense_modules():
            emb = layer(emb)
        if self.normalize:
            emb = torch.nn.functional.normalize(emb, p=2, dim=1)
        return emb.float().cpu().numpy()

    def _dense_modules(self) -> list[nn.Module]:
        if self._dense_torch is None:
            layers = []
            for d in self.dense:
                linear = nn.Linear(d.weight.shape[1], d.weight.shape[0], bias=d.bias is not None)
                with torch.no_grad():
                    linear.weight.copy_(torch.from_numpy(d.weight))
                    if d.bias is not None:
                        linear.bias.copy_(torch.from_numpy(d.bias))
                layers.append(nn.Sequential(linear, getattr(nn, d.activation)()).to(self.device).eval())
            self._dense_torch = layers
        return self._dense_torch
