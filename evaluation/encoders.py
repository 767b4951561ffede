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

Encoding (training.encoder.TransformerEncoder) is without gradients, in float32 on CPU and under bf16 autocast on
CUDA (`precision`), batched over unique sentences sorted by length (less padding; on CUDA under a padded-token
budget), with the original order restored; on CPU in fp32 the transformer itself runs in ONNX Runtime where
installed (`backend`, evaluation.backends). Every loaded encoder has a `fingerprint`: a hash of its weight/tokenizer files and the
options that change embeddings (pooling, max length, lower-casing, normalisation), which keys the embedding cache.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.provenance import sha256_file_cached
from bsl_pipeline.pipeline.base.progress import transformers_bars_hidden
from bsl_pipeline.pipeline.base.weights_only import refusing_pickles
from bsl_pipeline.pipeline.base.inside import path_inside
from bsl_pipeline.training.checkpoint_files import CHECKPOINT_JSON, ENCODER_DIR, read_checkpoint_json
from bsl_pipeline.training.encoder import DenseLayer, Encoder, TransformerEncoder, encode_distinct
from bsl_pipeline.training.st_directory import DenseModule, read_sentence_transformers_dir
from bsl_pipeline.evaluation.backends import check_backend, choose_backend, load_onnx_transformer
from bsl_pipeline.evaluation.config import POOLING_MODES

# Encoder, TransformerEncoder and DenseLayer live with the forward pass in training.encoder (one encode/pool stack
# for trainer, evaluation and export); they are named here too because this module builds them.
__all__ = ["CallableEncoder", "DenseLayer", "Encoder", "TransformerEncoder", "detect_model_kind", "load_encoder",
           "read_sentence_transformers_dir"]

#: Bump when the same model and options would produce different embeddings (invalidates cached embeddings).
ENCODER_VERSION = "1"
# Files that do not influence embeddings: left out of the fingerprint so that editing a model card keeps the cache.
_FINGERPRINT_SKIP_SUFFIXES = (".md", ".txt.lock", ".lock")
_FINGERPRINT_SKIP_NAMES = {".gitattributes", "training_args.bin", "optimizer.pt", "scheduler.pt", "rng_state.pth"}


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
        return encode_distinct(sentences, self._encode_chunk, self.batch_size)

    def _encode_chunk(self, chunk: list[str]) -> np.ndarray:
        from bsl_pipeline.evaluation.metrics import as_numpy

        emb = as_numpy(self.fn(chunk))
        if emb.shape[0] != len(chunk):
            raise BSLError(f"encode function of {self.name!r} returned {emb.shape[0]} embeddings for "
                           f"{len(chunk)} sentences")
        return emb


# ---------------------------------------------------------------------------------------------------------------
# Loading from disk / hub


def detect_model_kind(spec: str | Path) -> str:
    """'checkpoint' (trainer), 'sentence-transformers', 'hf-dir', or 'hf-hub' (not a local directory)."""
    path = Path(spec)
    if path.is_dir():
        if (path / CHECKPOINT_JSON).is_file():
            return "checkpoint"
        if (path / "modules.json").is_file():
            return "sentence-transformers"
        return "hf-dir"
    if path.exists():
        raise BSLError(f"{spec}: is a file; expected a model directory or a hub id")
    return "hf-hub"


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


def _check_local_weights(source: str, spec_label: str) -> None:
    """Untrusted weights: a local dir's safetensors headers are checked before safetensors parses them."""
    from bsl_pipeline.pipeline.base.safetensors_check import check_safetensors_dir

    check_safetensors_dir(source, spec_label)


def _load_hf(source: str, spec_label: str, device):
    import torch
    from transformers import AutoModel, AutoTokenizer

    _check_local_weights(source, spec_label)
    try:
        with transformers_bars_hidden(), refusing_pickles(source):
            tokenizer = AutoTokenizer.from_pretrained(source)
            model = AutoModel.from_pretrained(source, dtype=torch.float32)
    except (OSError, ValueError, KeyError, RuntimeError) as exc:  # RuntimeError: a tensor of the wrong shape
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


def _load_dense(module: DenseModule, width: int | None) -> DenseLayer:
    """A Dense module's weights, checked against `width`, the size of the vectors it is given (None: unknown)."""
    folder = module.folder
    if (folder / "model.safetensors").is_file():
        from safetensors.numpy import load_file

        weights = folder / "model.safetensors"
        state = load_file(str(weights))
    elif (folder / "pytorch_model.bin").is_file():
        import torch

        weights = folder / "pytorch_model.bin"
        with refusing_pickles(weights):
            loaded = torch.load(weights, map_location="cpu", weights_only=True)
        if not isinstance(loaded, dict) or not all(isinstance(v, torch.Tensor) for v in loaded.values()):
            raise BSLError(f"{weights}: expected a mapping of tensor names to tensors")
        state = {k: v.numpy() for k, v in loaded.items()}
    else:
        raise BSLError(f"{folder}: Dense module without model.safetensors or pytorch_model.bin")
    if "linear.weight" not in state:
        raise BSLError(f"{folder}: Dense weights lack 'linear.weight' (found {', '.join(sorted(state))})")
    weight = np.asarray(state["linear.weight"], dtype=np.float32)
    bias = state.get("linear.bias")
    bias = None if bias is None else np.asarray(bias, dtype=np.float32)
    if weight.ndim != 2 or bias is not None and bias.shape != weight.shape[:1]:
        raise BSLError(f"{weights}: 'linear.weight' must be a matrix (outputs x inputs) and 'linear.bias' a vector "
                       f"of its outputs, got shapes {weight.shape} and {None if bias is None else bias.shape}")
    if width is not None and weight.shape[1] != width:
        raise BSLError(f"{weights}: the Dense module takes vectors of {weight.shape[1]} numbers, but the module "
                       f"before it gives {width}")
    return DenseLayer(weight, bias, module.activation)


def _load_dense_modules(modules: Sequence[DenseModule], width: int | None) -> list[DenseLayer]:
    """The Dense modules in order, each checked against the output of the one before (the first against the
    pooled vector, `width`)."""
    layers = []
    for module in modules:
        layers.append(_load_dense(module, width))
        width = layers[-1].weight.shape[0]
    return layers


@dataclass
class _Recipe:
    """How to build one encoder from disk: where the transformer is and the options around it."""

    model_source: str
    modes: tuple[str, ...]
    pooling_source: str
    max_length: int | None
    normalize: bool = False
    lowercase: bool = False
    dense: list[DenseModule] = field(default_factory=list)
    dirs: dict[str, Path] = field(default_factory=dict)  # what the fingerprint hashes


def _checkpoint_recipe(root: Path, pooling: str | None, max_length: int | None) -> _Recipe:
    meta_path = root / CHECKPOINT_JSON
    meta = read_checkpoint_json(root, required=("pooling",))
    own = meta["pooling"]
    if own not in ("mean", "cls"):
        raise BSLError(f"{meta_path}: 'pooling' must be \"mean\" or \"cls\", got {own!r}")
    encoder_name = meta.get("encoder", ENCODER_DIR)
    if not isinstance(encoder_name, str) or not encoder_name:
        raise BSLError(f"{meta_path}: 'encoder' must name a sub-directory, got {encoder_name!r}")
    # A checkpoint may come from someone else: the directory it names must stay inside it.
    encoder_dir = path_inside(root, encoder_name, f"{meta_path}: 'encoder'", "the checkpoint directory")
    if not encoder_dir.is_dir():
        raise BSLError(f"{root}: trainer checkpoint without its {encoder_name}/ directory")
    trained_length = meta.get("max_length")
    if max_length is None and trained_length is not None:
        # Evaluate with the truncation the trainer used (its dev checks did the same).
        if not isinstance(trained_length, int) or isinstance(trained_length, bool) or trained_length < 1:
            raise BSLError(f"{meta_path}: 'max_length' must be a positive integer, got {trained_length!r}")
        max_length = trained_length
    return _Recipe(str(encoder_dir), (pooling or own,), "argument" if pooling else str(meta_path), max_length,
                   dirs={"encoder": encoder_dir})


def _sentence_transformers_recipe(root: Path, pooling: str | None, max_length: int | None) -> _Recipe:
    layout = read_sentence_transformers_dir(root)
    dirs = {"transformer": layout.transformer_dir, **{f"dense{i}": d for i, d in enumerate(layout.dense_dirs)}}
    return _Recipe(str(layout.transformer_dir), (pooling,) if pooling else layout.pooling,
                   "argument" if pooling else str(layout.pooling_config),
                   layout.max_seq_length if max_length is None else max_length, normalize=layout.normalize,
                   lowercase=layout.do_lower_case, dense=layout.dense, dirs=dirs)


def check_pooling(pooling: str | None) -> None:
    """An explicit pooling mode (None: the model's own) must be one `load_encoder` implements."""
    if pooling is not None and pooling not in POOLING_MODES:
        raise BSLError(f"unsupported pooling {pooling!r}; expected one of {', '.join(POOLING_MODES)}")


def load_encoder(spec: str | Path, pooling: str | None = None, *, device: str = "auto", batch_size: int = 64,
                 max_length: int | None = None, name: str | None = None, precision: str = "fp32",
                 max_tokens: int | None = None, sdpa_backend: str = "auto",
                 backend: str = "torch") -> TransformerEncoder:
    """Load a trainer checkpoint, a sentence-transformers dir, a Hugging Face dir or a hub id.

    `pooling` None means the model's own choice (checkpoint json / ST Pooling config) or mean for plain HF models;
    an explicit value overrides it. `max_length` None means the model's own limit (ST `max_seq_length`, else the
    tokenizer's and position embeddings', at most 512). `precision` (auto/fp32/bf16/fp16) is the autocast of the
    forward pass; `max_tokens` and `sdpa_backend` as in TransformerEncoder. `backend` (auto/torch/onnx) is where
    the transformer runs (evaluation.backends); `encoder.backend` says which one does."""
    import torch

    from bsl_pipeline.pipeline.base.devices import check_sdpa_backend, resolve_device, resolve_dtype

    spec = str(spec)
    check_pooling(pooling)
    check_sdpa_backend(sdpa_backend, "sdpa_backend")
    check_backend(backend)
    kind = detect_model_kind(spec)
    torch_device = resolve_device(device)
    dtype = resolve_dtype(precision, torch_device)
    autocast = None if dtype == torch.float32 else dtype
    label = name or spec
    if kind == "checkpoint":
        recipe = _checkpoint_recipe(Path(spec), pooling, max_length)
    elif kind == "sentence-transformers":
        recipe = _sentence_transformers_recipe(Path(spec), pooling, max_length)
    else:
        recipe = _Recipe(spec, (pooling or "mean",), "argument" if pooling else "default (mean)", max_length,
                         dirs={"model": Path(spec)} if kind == "hf-dir" else {})
    model, tokenizer = _load_hf(recipe.model_source, label, torch_device)
    hidden = getattr(model.config, "hidden_size", None)
    dense = _load_dense_modules(recipe.dense, hidden * len(recipe.modes) if isinstance(hidden, int) else None)
    encoder = TransformerEncoder(model, tokenizer, recipe.modes, normalize=recipe.normalize,
                                 max_length=recipe.max_length, lowercase=recipe.lowercase, dense=dense,
                                 batch_size=batch_size, device=torch_device, name=label, kind=kind,
                                 source=str(Path(spec).resolve()) if kind != "hf-hub" else spec,
                                 autocast_dtype=autocast, max_tokens=max_tokens, sdpa_backend=sdpa_backend)
    options = {"kind": kind, "pooling": list(recipe.modes), "normalize": recipe.normalize,
               "lowercase": recipe.lowercase, "max_length": encoder.max_length, "dense": len(recipe.dense)}
    if autocast is not None:  # only then: float32 embeddings keep the cache keys they always had
        options["precision"] = str(autocast).removeprefix("torch.")
    extra = f"hub:{spec}:{_parameter_hash(model)}" if kind == "hf-hub" else ""
    encoder.fingerprint = _fingerprint(options, recipe.dirs, extra)
    encoder.pooling_source = recipe.pooling_source
    use_backend(encoder, backend)
    return encoder


def use_backend(encoder: TransformerEncoder, backend: str) -> str:
    """Run `encoder`'s transformer where `backend` (auto/torch/onnx) says it can (evaluation.backends);
    returns the backend that runs and records it in `encoder.backend`."""
    import torch

    chosen, _why = choose_backend(backend, device_type=encoder.device.type, fp32=encoder.autocast_dtype is None,
                                 fingerprint=encoder.fingerprint)
    runtime = None
    if chosen == "onnx":
        runtime = load_onnx_transformer(encoder.model, encoder.tokenizer, encoder.module._forward_keys,
                                        encoder.fingerprint, encoder.max_length,  # type: ignore[arg-type]
                                        threads=torch.get_num_threads())
    encoder.token_states_fn = runtime
    encoder.backend = "onnx" if runtime is not None else "torch"
    return encoder.backend
