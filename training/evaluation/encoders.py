"""Load any sentence encoder the project meets and turn sentences into embeddings.

Three on-disk kinds are recognised (`detect_model_kind`):

- **trainer checkpoint**: a directory with `bsl_checkpoint.json` (`{"pooling": "mean"|"cls", "max_length": int,
  "encoder": "encoder", ...}`) and `encoder/` (a `save_pretrained` transformer + tokenizer). The checkpoint's
  pooling and max_length are used unless given explicitly.
- **sentence-transformers directory**: has `modules.json`. It is read here, without the sentence-transformers
  library (a test-only dependency): the Transformer module's folder is loaded with `AutoModel`/`AutoTokenizer`,
  its `sentence_bert_config.json` gives `max_seq_length`/`do_lower_case`, the Pooling module's `config.json` gives
  the pooling mode(s) (new `pooling_mode` key or the legacy `pooling_mode_*_tokens` flags), and Dense / Normalize
  modules are applied in order. Other module types are refused with an error naming them.
- **Hugging Face model**: any other directory, or a hub id (loaded the usual way; needs network or a warm hub
  cache). Pooling: mean (default) or CLS.

Encoding is in float32 and inference mode, batched over unique sentences sorted by length (less padding), with
the original order restored. Every encoder has a `fingerprint`: a hash of its weight/tokenizer files and the
options that change embeddings (pooling, max length, lower-casing, normalisation), which keys the embedding cache.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.errors import BSLError
from pipeline.provenance import sha256_file_cached
from training.evaluation.config import POOLING_MODES

#: Bump when the same model and options would produce different embeddings (invalidates cached embeddings).
ENCODER_VERSION = "1"
DEFAULT_MAX_LENGTH = 512
CHECKPOINT_FILE = "bsl_checkpoint.json"
# Model types whose position ids start after the padding index, so max_position_embeddings overstates the usable
# length by pad_token_id + 1 (roberta-base: 514 positions, 512 tokens).
_OFFSET_POSITION_MODEL_TYPES = {"roberta", "xlm-roberta", "camembert", "longformer", "data2vec-text", "xmod",
                                "roberta-prelayernorm", "mpnet", "ernie_m"}
# Files that do not influence embeddings: left out of the fingerprint so that editing a model card keeps the cache.
_FINGERPRINT_SKIP_SUFFIXES = (".md", ".txt.lock", ".lock")
_FINGERPRINT_SKIP_NAMES = {".gitattributes", "training_args.bin", "optimizer.pt", "scheduler.pt", "rng_state.pth"}
_ACTIVATIONS = {"Tanh", "Identity", "ReLU", "GELU", "Sigmoid"}


def progress_disabled(disable_progress: bool | None) -> bool:
    if disable_progress is not None:
        return disable_progress
    return os.environ.get("BSL_NO_PROGRESS", "") not in ("", "0")


def _length_order(sentences: Sequence[str]) -> list[int]:
    # Longest first: the first batch shows at once whether memory suffices, and similar lengths share a batch.
    return sorted(range(len(sentences)), key=lambda i: -len(sentences[i]))


class Encoder:
    """Interface the evaluation runner uses: `encode(sentences) -> (n, dim) float32 array` plus identity."""

    name: str = "encoder"
    #: None means "do not cache": the runner only caches embeddings of encoders with a stable identity.
    fingerprint: str | None = None

    def encode(self, sentences: Sequence[str], disable_progress: bool | None = None) -> np.ndarray:
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "fingerprint": self.fingerprint}


@dataclass
class CallableEncoder(Encoder):
    """Wraps an in-memory function `list[str] -> np.ndarray | torch.Tensor` (e.g. the trainer's online encoder).

    With `batch_size` set, the function is called on length-sorted chunks of that size, so it may be a plain
    forward pass; otherwise it gets every unique sentence in one call. Give a `fingerprint` only if the function's
    output for a sentence can never change under that name (weights frozen), else the cache would serve stale
    embeddings."""

    fn: Callable[[list[str]], Any]
    name: str = "in-memory"
    fingerprint: str | None = None
    batch_size: int | None = None

    def encode(self, sentences: Sequence[str], disable_progress: bool | None = None) -> np.ndarray:
        from training.evaluation.metrics import as_numpy

        unique = list(dict.fromkeys(sentences))
        if not unique:
            return np.zeros((0, 0), dtype=np.float32)
        order = _length_order(unique) if self.batch_size else list(range(len(unique)))
        step = self.batch_size or len(unique)
        parts: list[np.ndarray] = []
        for start in range(0, len(order), step):
            chunk = [unique[i] for i in order[start:start + step]]
            emb = as_numpy(self.fn(chunk))
            if emb.shape[0] != len(chunk):
                raise BSLError(f"encode function of {self.name!r} returned {emb.shape[0]} embeddings for "
                               f"{len(chunk)} sentences")
            parts.append(emb)
        stacked = np.concatenate(parts, axis=0).astype(np.float32)
        out = np.empty_like(stacked)
        out[np.asarray(order)] = stacked
        index = {s: i for i, s in enumerate(unique)}
        return out[[index[s] for s in sentences]]


@dataclass
class DenseLayer:
    """A sentence-transformers Dense module: linear map then an activation (weights as float32 numpy)."""

    weight: np.ndarray  # (out, in)
    bias: np.ndarray | None
    activation: str


class TransformerEncoder(Encoder):
    """A Hugging Face transformer + tokenizer + pooling (+ optional Dense layers and L2 normalisation).

    Built by `load_encoder` from disk, or directly from in-memory objects (the trainer's online encoder):
    `TransformerEncoder(model, tokenizer, pooling="mean").encode(sentences)`. The model is put in eval mode for
    encoding and its previous train/eval mode is restored afterwards.
    """

    def __init__(self, model, tokenizer, pooling: str | Sequence[str] = "mean", *, normalize: bool = False,
                 max_length: int | None = None, lowercase: bool = False, dense: Sequence[DenseLayer] = (),
                 batch_size: int = 64, device=None, name: str = "in-memory", fingerprint: str | None = None,
                 kind: str = "in-memory", source: str = ""):
        modes = (pooling,) if isinstance(pooling, str) else tuple(pooling)
        bad = [m for m in modes if m not in POOLING_MODES]
        if not modes or bad:
            raise BSLError(f"{name}: unsupported pooling {', '.join(bad) or '(none)'}; "
                           f"expected one of {', '.join(POOLING_MODES)}")
        if batch_size < 1:
            raise BSLError(f"batch size must be >= 1, got {batch_size}")
        self.model = model
        self.tokenizer = tokenizer
        self.pooling = modes
        self.normalize = normalize
        self.lowercase = lowercase
        self.dense = list(dense)
        self.batch_size = batch_size
        self.name = name
        self.fingerprint = fingerprint
        self.kind = kind
        self.source = source
        self.max_length = resolve_max_length(model.config, tokenizer, max_length)
        if device is None:
            device = next(model.parameters()).device
        self.device = device
        self._forward_keys = _forward_parameters(model)
        self._dense_torch = None
        self.pooling_source = "argument"

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "source": self.source, "pooling": "+".join(self.pooling),
                "pooling_from": self.pooling_source,
                "normalize": self.normalize, "max_length": self.max_length, "lowercase": self.lowercase,
                "dense_layers": len(self.dense), "fingerprint": self.fingerprint}

    def _dense_modules(self):
        import torch

        if self._dense_torch is None:
            layers = []
            for d in self.dense:
                lin = torch.nn.Linear(d.weight.shape[1], d.weight.shape[0], bias=d.bias is not None)
                with torch.no_grad():
                    lin.weight.copy_(torch.from_numpy(d.weight))
                    if d.bias is not None:
                        lin.bias.copy_(torch.from_numpy(d.bias))
                act = getattr(torch.nn, d.activation)()
                layers.append(torch.nn.Sequential(lin, act).to(self.device).eval())
            self._dense_torch = layers
        return self._dense_torch

    def encode(self, sentences: Sequence[str], disable_progress: bool | None = None,
               batch_size: int | None = None) -> np.ndarray:
        import torch
        from tqdm.auto import tqdm

        sentences = list(sentences)
        unique = list(dict.fromkeys(sentences))
        order = _length_order(unique)
        bs = batch_size or self.batch_size
        out: np.ndarray | None = None
        was_training = self.model.training
        self.model.eval()
        try:
            with torch.inference_mode(), tqdm(total=len(unique), desc=f"encode {self.name}", unit="sent",
                                              file=sys.stderr, disable=progress_disabled(disable_progress),
                                              leave=False) as bar:
                for start in range(0, len(order), bs):
                    idx = order[start:start + bs]
                    emb = self._encode_batch([unique[i] for i in idx])
                    if out is None:
                        out = np.empty((len(unique), emb.shape[1]), dtype=np.float32)
                    out[idx] = emb
                    bar.update(len(idx))
        finally:
            self.model.train(was_training)
        if out is None:
            return np.zeros((0, 0), dtype=np.float32)
        index = {s: i for i, s in enumerate(unique)}
        return out[[index[s] for s in sentences]]

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        import torch

        if self.lowercase:
            texts = [t.lower() for t in texts]
        # numpy -> torch.from_numpy is a quarter faster than return_tensors="pt" here (tiny models are
        # tokenizer-bound).
        batch = self.tokenizer(texts, padding=True, truncation=True, max_length=self.max_length,
                               return_tensors="np")
        tensors = {k: torch.from_numpy(np.asarray(v)).to(self.device) for k, v in batch.items()}
        inputs = {k: v for k, v in tensors.items() if self._forward_keys is None or k in self._forward_keys}
        output = self.model(**inputs)
        hidden = output.last_hidden_state if hasattr(output, "last_hidden_state") else output[0]
        emb = pool(hidden.float(), tensors["attention_mask"], self.pooling)
        for layer in self._dense_modules():
            emb = layer(emb)
        if self.normalize:
            emb = torch.nn.functional.normalize(emb, p=2, dim=1)
        return emb.float().cpu().numpy()


def _forward_parameters(model) -> set[str] | None:
    params = inspect.signature(model.forward).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return None
    return set(params)


def pool(hidden, attention_mask, modes: Sequence[str]):
    """Sentence vectors from token states (batch, seq, dim) with a right-padded mask; modes are concatenated in
    the given order, with the same definitions as sentence-transformers' Pooling module."""
    import torch

    mask = attention_mask.to(hidden.dtype).unsqueeze(-1)
    outputs = []
    for mode in modes:
        if mode == "cls":
            outputs.append(hidden[:, 0])
        elif mode == "max":
            outputs.append(hidden.masked_fill(mask == 0, float("-inf")).max(dim=1).values)
        elif mode in ("mean", "mean_sqrt_len_tokens"):
            summed = (hidden * mask).sum(dim=1)
            count = torch.clamp(mask.sum(dim=1), min=1e-9)
            outputs.append(summed / (count if mode == "mean" else torch.sqrt(count)))
        elif mode == "weightedmean":
            weights = torch.arange(1, hidden.shape[1] + 1, device=hidden.device, dtype=hidden.dtype).view(1, -1, 1)
            wmask = mask * weights
            outputs.append((hidden * wmask).sum(dim=1) / torch.clamp(wmask.sum(dim=1), min=1e-9))
        elif mode == "lasttoken":
            last = (attention_mask.sum(dim=1) - 1).clamp(min=0).long()
            outputs.append(hidden[torch.arange(hidden.shape[0], device=hidden.device), last])
        else:
            raise BSLError(f"unsupported pooling mode {mode!r}")
    return torch.cat(outputs, dim=-1)


def resolve_max_length(config, tokenizer, requested: int | None) -> int:
    """The number of tokens a sentence is truncated to: the requested/configured length, capped by what the
    tokenizer declares and by the model's position embeddings (a longer input would crash the model)."""
    limits = [requested if requested is not None else DEFAULT_MAX_LENGTH]
    tok_max = getattr(tokenizer, "model_max_length", None)
    # An explicit length (argument or sentence-transformers' max_seq_length) overrides the tokenizer's declared
    # limit, as in sentence-transformers; only the position embeddings still cap it.
    if requested is None and isinstance(tok_max, int) and 0 < tok_max < 1_000_000:
        limits.append(tok_max)
    positions = getattr(config, "max_position_embeddings", None)
    if isinstance(positions, int) and positions > 0:
        if getattr(config, "model_type", "") in _OFFSET_POSITION_MODEL_TYPES:
            positions -= (getattr(config, "pad_token_id", 0) or 0) + 1
        limits.append(positions)
    return max(1, min(limits))


# ---------------------------------------------------------------------------------------------------------------
# Loading from disk / hub


def detect_model_kind(spec: str | Path) -> str:
    """'checkpoint' (trainer), 'sentence-transformers', 'hf-dir', or 'hf-hub' (not a local directory)."""
    path = Path(spec)
    if path.is_dir():
        if (path / CHECKPOINT_FILE).is_file():
            return "checkpoint"
        if (path / "modules.json").is_file():
            return "sentence-transformers"
        return "hf-dir"
    if path.exists():
        raise BSLError(f"{spec}: is a file; expected a model directory or a hub id")
    return "hf-hub"


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BSLError(f"{path}: file not found") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        line = getattr(exc, "lineno", 1)
        raise BSLError(f"{path}:{line}: invalid JSON: {exc}") from None


def _hash_files(h, root: Path, label: str) -> None:
    for f in sorted(root.iterdir()):
        if not f.is_file() or f.name in _FINGERPRINT_SKIP_NAMES or f.name.endswith(_FINGERPRINT_SKIP_SUFFIXES):
            continue
        h.update(f"{label}/{f.name}={sha256_file_cached(f)}\n".encode())


def _fingerprint(options: dict[str, Any], dirs: dict[str, Path], extra: str = "") -> str:
    h = hashlib.sha256(f"bsl-eval-encoder:{ENCODER_VERSION}\n".encode())
    h.update(json.dumps(options, sort_keys=True).encode())
    for label, d in sorted(dirs.items()):
        _hash_files(h, d, label)
    h.update(extra.encode())
    return h.hexdigest()


def _load_hf(source: str, spec_label: str, device):
    import torch
    from transformers import AutoModel, AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(source)
        model = AutoModel.from_pretrained(source, dtype=torch.float32)
    except (OSError, ValueError, KeyError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise BSLError(f"{spec_label}: cannot load a transformer from {source}: {first}") from None
    model.to(device)
    model.eval()
    return model, tokenizer


def _parameter_hash(model) -> str:
    # Hub models have no local files to hash at a stable path; their weights are their identity.
    import torch

    h = hashlib.sha256()
    for name, tensor in sorted(model.state_dict().items()):
        h.update(name.encode())
        h.update(tensor.detach().cpu().contiguous().view(-1).view(torch.uint8).numpy().tobytes())
    return h.hexdigest()


def _st_pooling_modes(config: dict[str, Any], path: Path) -> tuple[str, ...]:
    if "pooling_mode" in config:
        mode = config["pooling_mode"]
        modes = (mode,) if isinstance(mode, str) else tuple(mode)
    else:
        legacy = (("pooling_mode_cls_token", "cls"), ("pooling_mode_max_tokens", "max"),
                  ("pooling_mode_mean_tokens", "mean"), ("pooling_mode_mean_sqrt_len_tokens", "mean_sqrt_len_tokens"),
                  ("pooling_mode_weightedmean_tokens", "weightedmean"), ("pooling_mode_lasttoken", "lasttoken"))
        modes = tuple(mode for key, mode in legacy if config.get(key))
        if not modes:
            modes = ("mean",)
    bad = [m for m in modes if m not in POOLING_MODES]
    if bad:
        raise BSLError(f"{path}: unsupported pooling mode(s) {', '.join(map(str, bad))}")
    return modes


def _load_dense(folder: Path) -> DenseLayer:
    config = _read_json(folder / "config.json")
    activation = str(config.get("activation_function", "torch.nn.modules.linear.Identity")).rsplit(".", 1)[-1]
    if activation not in _ACTIVATIONS:
        raise BSLError(f"{folder / 'config.json'}: unsupported Dense activation {activation!r} "
                       f"(supported: {', '.join(sorted(_ACTIVATIONS))})")
    if (folder / "model.safetensors").is_file():
        from safetensors.numpy import load_file

        state = load_file(str(folder / "model.safetensors"))
    elif (folder / "pytorch_model.bin").is_file():
        import torch

        state = {k: v.numpy() for k, v in torch.load(folder / "pytorch_model.bin", map_location="cpu",
                                                      weights_only=True).items()}
    else:
        raise BSLError(f"{folder}: Dense module without model.safetensors or pytorch_model.bin")
    if "linear.weight" not in state:
        raise BSLError(f"{folder}: Dense weights lack 'linear.weight' (found {', '.join(sorted(state))})")
    bias = state.get("linear.bias")
    return DenseLayer(np.asarray(state["linear.weight"], dtype=np.float32),
                      None if bias is None else np.asarray(bias, dtype=np.float32), activation)


@dataclass
class _STLayout:
    transformer_dir: Path
    max_seq_length: int | None = None
    do_lower_case: bool = False
    pooling: tuple[str, ...] = ("mean",)
    pooling_config: Path | None = None
    dense_dirs: list[Path] = field(default_factory=list)
    normalize: bool = False


def read_sentence_transformers_dir(root: Path) -> _STLayout:
    """Parse a sentence-transformers model directory (modules.json and the module configs)."""
    modules_path = root / "modules.json"
    modules = _read_json(modules_path)
    if not isinstance(modules, list) or not modules:
        raise BSLError(f"{modules_path}: expected a non-empty JSON list of modules")
    try:
        modules = sorted(modules, key=lambda m: int(m.get("idx", 0)))
    except (AttributeError, TypeError, ValueError):
        raise BSLError(f"{modules_path}: every module must be an object with an integer 'idx'") from None
    layout: _STLayout | None = None
    seen_pooling = False
    for pos, module in enumerate(modules):
        kind = str(module.get("type", "")).rsplit(".", 1)[-1]
        folder = root / str(module.get("path", ""))
        where = f"{modules_path}: module {module.get('idx', pos)} ({module.get('type', '?')})"
        if pos == 0:
            if kind != "Transformer":
                raise BSLError(f"{where}: the first module must be a Transformer")
            layout = _STLayout(transformer_dir=folder)
            for cfg_name in ("sentence_bert_config.json", "sentence_roberta_config.json",
                             "sentence_distilbert_config.json", "sentence_camembert_config.json",
                             "sentence_albert_config.json", "sentence_xlm-roberta_config.json"):
                if (folder / cfg_name).is_file():
                    cfg = _read_json(folder / cfg_name)
                    task = cfg.get("transformer_task", "feature-extraction")
                    if task != "feature-extraction":
                        raise BSLError(f"{folder / cfg_name}: transformer_task {task!r} is not supported "
                                       f"(only feature-extraction encoders)")
                    layout.max_seq_length = cfg.get("max_seq_length")
                    layout.do_lower_case = bool(cfg.get("do_lower_case", False))
                    break
            continue
        assert layout is not None
        if kind == "Pooling":
            layout.pooling_config = folder / "config.json"
            layout.pooling = _st_pooling_modes(_read_json(layout.pooling_config), layout.pooling_config)
            seen_pooling = True
        elif kind == "Dense" and seen_pooling:
            layout.dense_dirs.append(folder)
        elif kind == "Normalize" and pos == len(modules) - 1:
            layout.normalize = True
        else:
            raise BSLError(f"{where}: module type not supported by the evaluator (supported: Transformer, "
                           f"Pooling, Dense after Pooling, Normalize last)")
    if not seen_pooling:
        raise BSLError(f"{modules_path}: no Pooling module; token embeddings cannot be compared as sentences")
    assert layout is not None
    return layout


def load_encoder(spec: str | Path, pooling: str | None = None, *, device: str = "auto", batch_size: int = 64,
                 max_length: int | None = None, name: str | None = None) -> TransformerEncoder:
    """Load a trainer checkpoint, a sentence-transformers dir, a Hugging Face dir or a hub id.

    `pooling` None means the model's own choice (checkpoint json / ST Pooling config) or mean for plain HF models;
    an explicit value overrides it. `max_length` None means the model's own limit (ST `max_seq_length`, else the
    tokenizer's and position embeddings', at most 512)."""
    from pipeline.devices import resolve_device

    spec = str(spec)
    if pooling is not None and pooling not in POOLING_MODES:
        raise BSLError(f"unsupported pooling {pooling!r}; expected one of {', '.join(POOLING_MODES)}")
    kind = detect_model_kind(spec)
    torch_device = resolve_device(device)
    root = Path(spec)
    label = name or spec
    normalize = False
    lowercase = False
    dense: list[DenseLayer] = []
    dirs: dict[str, Path] = {}
    pooling_source = "argument"

    if kind == "checkpoint":
        meta_path = root / CHECKPOINT_FILE
        meta = _read_json(meta_path)
        if not isinstance(meta, dict):
            raise BSLError(f"{meta_path}:1: expected a JSON object")
        own = meta.get("pooling")
        if own not in ("mean", "cls"):
            raise BSLError(f"{meta_path}: 'pooling' must be \"mean\" or \"cls\", got {own!r}")
        encoder_name = meta.get("encoder", "encoder")
        if not isinstance(encoder_name, str) or not encoder_name or Path(encoder_name).is_absolute():
            raise BSLError(f"{meta_path}: 'encoder' must name a sub-directory, got {encoder_name!r}")
        encoder_dir = root / encoder_name
        if not encoder_dir.is_dir():
            raise BSLError(f"{root}: trainer checkpoint without its {encoder_name}/ directory")
        trained_length = meta.get("max_length")
        if max_length is None and trained_length is not None:
            # Evaluate with the truncation the trainer used (its dev checks did the same).
            if not isinstance(trained_length, int) or isinstance(trained_length, bool) or trained_length < 1:
                raise BSLError(f"{meta_path}: 'max_length' must be a positive integer, got {trained_length!r}")
            max_length = trained_length
        modes: tuple[str, ...] = (pooling or own,)
        pooling_source = "argument" if pooling else str(meta_path)
        model, tokenizer = _load_hf(str(encoder_dir), label, torch_device)
        dirs["encoder"] = encoder_dir
    elif kind == "sentence-transformers":
        layout = read_sentence_transformers_dir(root)
        modes = (pooling,) if pooling else layout.pooling
        pooling_source = "argument" if pooling else str(layout.pooling_config)
        normalize = layout.normalize
        lowercase = layout.do_lower_case
        dense = [_load_dense(d) for d in layout.dense_dirs]
        if max_length is None:
            max_length = layout.max_seq_length
        model, tokenizer = _load_hf(str(layout.transformer_dir), label, torch_device)
        dirs["transformer"] = layout.transformer_dir
        for i, d in enumerate(layout.dense_dirs):
            dirs[f"dense{i}"] = d
    else:
        modes = (pooling or "mean",)
        pooling_source = "argument" if pooling else "default (mean)"
        model, tokenizer = _load_hf(spec, label, torch_device)
        if kind == "hf-dir":
            dirs["model"] = root

    encoder = TransformerEncoder(model, tokenizer, modes, normalize=normalize, max_length=max_length,
                                 lowercase=lowercase, dense=dense, batch_size=batch_size, device=torch_device,
                                 name=label, kind=kind, source=str(Path(spec).resolve()) if kind != "hf-hub" else spec)
    options = {"kind": kind, "pooling": list(modes), "normalize": normalize, "lowercase": lowercase,
               "max_length": encoder.max_length, "dense": len(dense)}
    extra = f"hub:{spec}:{_parameter_hash(model)}" if kind == "hf-hub" else ""
    encoder.fingerprint = _fingerprint(options, dirs, extra)
    encoder.pooling_source = pooling_source
    return encoder
