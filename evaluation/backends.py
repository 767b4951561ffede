"""Where the evaluation stage runs the transformer: PyTorch, or ONNX Runtime on CPU.

The evaluation encodes tens of thousands of short sentences with frozen weights, which is what inference runtimes
are built for: on this project's CPU, ONNX Runtime runs all-MiniLM-L6-v2 in fp32 markedly faster than PyTorch eager
(fused LayerNorm/GELU/attention kernels, no autograd or dispatcher overhead per op); docs/results/speed.md has
the numbers. Only the transformer's forward pass moves: tokenisation, the length-sorted batches, pooling, Dense
layers and normalisation stay in `training.encoder.TransformerEncoder`, so both backends compute the same thing
in fp32 (an export is checked against the torch forward pass, within CHECK_ATOL/CHECK_RTOL, before it is used).

- `backend: torch` always uses PyTorch; `onnx` asks for ONNX Runtime; `auto` (the default) uses it when it can.
  ONNX Runtime is used only on CPU, in fp32 (lower precision stays an explicit torch autocast setting), for an
  encoder with a fingerprint (a model loaded from disk or the hub). Otherwise, or when `onnxruntime`/`onnx` are
  not installed, the torch path runs, with a warning when `onnx` was asked for explicitly.
- The model is exported once per encoder fingerprint (weights + tokenizer + options) with `torch.onnx.export`
  into the per-user cache, `<user cache>/bsl-pipeline/onnx/<key>/` (`model.onnx` + `export.json` with its sha256),
  built in a staging directory and published whole; nothing is ever written beside the user's model. A cached
  export is reused only when `export.json` carries this user's seal (`pipeline.base.user_cache.seal`: an HMAC under
  a key kept outside the cache) of its metadata, model.onnx's sha256 included, and that checksum still matches:
  anyone can recompute a plain sha256, so a planted export (a restored CI cache, a shared home) is exported again,
  with a warning, instead of deciding the scores.
- Every export (new or reused) is checked against the torch forward pass on a few padded batches before use; a
  graph that disagrees (beyond 1e-4) is not used and the torch path runs, with a warning.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import logging
import shutil
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.provenance import sha256_file_cached
from bsl_pipeline.pipeline.base.publish import publish_directory, staging_dir
from bsl_pipeline.pipeline.base.user_cache import seal, seal_matches, user_cache_root

if TYPE_CHECKING:
    import numpy as np

# Imported by the evaluation config (BACKEND_HELP), hence by `bsl --help`: numpy/torch load inside functions.
log = logging.getLogger(__name__)

BACKENDS = ("auto", "torch", "onnx")
BACKEND_HELP = ("where the transformer runs: auto = ONNX Runtime on CPU in fp32 when installed (exported once per "
                "model into the user cache), else torch; torch; onnx = ONNX Runtime (falls back to torch with a "
                "warning where it cannot run)")
#: Bump when the export would produce a different graph for the same model (invalidates cached exports).
EXPORT_VERSION = "1"
OPSET = 17
#: Accepted difference of token states between the exported graph and the torch forward pass, as in
#: np.allclose: |onnx - torch| <= CHECK_ATOL + CHECK_RTOL * |torch| (fp32 kernels differ in summation order only).
CHECK_ATOL = 1e-4
CHECK_RTOL = 1e-4
_CHECK_SENTENCES = ("a", "the dog runs quickly in the park", "two men are playing music outside the house today",
                    "a woman is eating food")


def missing_packages() -> list[str]:
    """The Python packages the ONNX path needs and this environment lacks (onnxruntime runs, onnx exports)."""
    return [name for name in ("onnxruntime", "onnx") if importlib.util.find_spec(name) is None]


def check_backend(name: str, where: str = "backend") -> None:
    if name not in BACKENDS:
        raise BSLError(f"{where}: unknown backend {name!r}; expected one of {', '.join(BACKENDS)}")


def choose_backend(requested: str, *, device_type: str, fp32: bool, fingerprint: str | None) -> tuple[str, str]:
    """(backend that runs, why). `requested` is auto|torch|onnx; the ONNX path needs a CPU, fp32, a fingerprint
    (to key the export) and the packages."""
    check_backend(requested)
    if requested == "torch":
        return "torch", "asked for"
    reasons = []
    if device_type != "cpu":
        reasons.append(f"device is {device_type} (the ONNX path is CPU-only)")
    if not fp32:
        reasons.append("precision is not fp32 (the ONNX path is fp32-only)")
    if fingerprint is None:
        reasons.append("the encoder has no fingerprint to key the export")
    missing = missing_packages()
    if missing:
        reasons.append(f"{' and '.join(missing)} not installed (pip install {' '.join(missing)})")
    if reasons:
        why = "; ".join(reasons)
        if requested == "onnx":
            log.warning("backend onnx unavailable, using torch: %s", why)
        return "torch", why
    return "onnx", "asked for" if requested == "onnx" else "auto: CPU, fp32, onnxruntime installed"


def export_root() -> Path:
    return user_cache_root() / "bsl-pipeline" / "onnx"


def _export_key(fingerprint: str, input_names: Sequence[str]) -> str:
    import torch

    h = hashlib.sha256(json.dumps({"fingerprint": fingerprint, "inputs": list(input_names), "opset": OPSET,
                                   "export_version": EXPORT_VERSION, "torch": torch.__version__},
                                  sort_keys=True).encode())
    return h.hexdigest()[:32]


def _sealed(folder: Path, meta: dict[str, Any]) -> dict[str, Any]:
    """What an export's seal covers: its metadata (model.onnx's sha256 included) and the folder (the export key)."""
    return {"folder": folder.name, **{k: v for k, v in meta.items() if k != "seal"}}


def _intact(folder: Path, warn: bool = True) -> bool:
    """A published export whose export.json carries this user's seal and whose model.onnx still has the checksum
    it recorded. A folder that is there but fails either check is reported (with `warn`) and replaced."""
    if not (folder / "export.json").exists():
        return False
    try:
        meta = json.loads((folder / "export.json").read_text(encoding="utf-8"))
        ok = (isinstance(meta, dict) and seal_matches(_sealed(folder, meta), meta.get("seal"))
              and meta.get("sha256") == sha256_file_cached(folder / "model.onnx"))
    except (OSError, ValueError):
        ok = False
    if not ok and warn:
        log.warning("warning: ignoring the cached ONNX export %s: not sealed by this user's cache key, or changed "
                    "since (planted, edited or copied from elsewhere); exporting again", folder)
    return ok


class _StatesOnly:
    """The transformer's forward with plain positional inputs, returning only the last hidden state (what
    torch.onnx.export traces)."""

    def __new__(cls, model, input_names: Sequence[str]):
        import torch

        class StatesOnly(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.model = model

            def forward(self, *inputs):
                out = self.model(**dict(zip(input_names, inputs)))
                return out.last_hidden_state if hasattr(out, "last_hidden_state") else out[0]

        return StatesOnly()


@contextlib.contextmanager
def _known_benign_export_warnings_silenced():
    """Silence exactly the warnings `torch.onnx.export` prints for every encoder this module exports, and only
    during the export. They are benign here:
    - TracerWarning "Converting a tensor to a Python boolean" from transformers' mask and SDPA code: the branches it
      freezes (`padding_length > 0` with a key length equal to the mask's length; `is_causal` of an encoder, which
      is False whatever the length) take the same value for every batch shape;
    - UserWarning "If indices include negative values, the exported graph will produce incorrect results" for
      aten::index: the indices the encoders use (position and token-type ids, the mask) are never negative.
    And each export is compared with the torch model on padded batches (`_max_state_difference`) before it is used,
    so an export these warnings did apply to would be refused, not used."""
    import torch

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Converting a tensor to a Python boolean",
                                category=torch.jit.TracerWarning)
        warnings.filterwarnings("ignore", message=r"Exporting aten::index operator .* will produce incorrect results",
                                category=UserWarning)
        yield


def export_model(model, tokenizer, input_names: Sequence[str], fingerprint: str, root: Path | None = None) -> Path:
    """The directory of the ONNX export of `model` for this fingerprint, exported now unless an intact one is
    already published under `root` (default `export_root()`)."""
    import torch

    folder = (root or export_root()) / _export_key(fingerprint, input_names)
    if _intact(folder):
        return folder
    stage = staging_dir(folder)
    try:
        # Padded dummy batch: a trace of an all-ones mask could let the model skip masking for good.
        dummy = tokenizer(list(_CHECK_SENTENCES[:2]), padding=True, return_tensors="pt")
        args = tuple(dummy[name] for name in input_names)
        dynamic = {name: {0: "batch", 1: "sequence"} for name in (*input_names, "last_hidden_state")}
        was_training = model.training
        model.eval()
        try:
            with torch.no_grad(), _known_benign_export_warnings_silenced():
                torch.onnx.export(_StatesOnly(model, input_names), args, str(stage / "model.onnx"),
                                  input_names=list(input_names), output_names=["last_hidden_state"],
                                  dynamic_axes=dynamic, opset_version=OPSET, do_constant_folding=True, dynamo=False)
        finally:
            model.train(was_training)
        meta = {"fingerprint": fingerprint, "inputs": list(input_names), "opset": OPSET,
                "export_version": EXPORT_VERSION, "torch": torch.__version__,
                "sha256": sha256_file_cached(stage / "model.onnx")}
        meta["seal"] = seal(_sealed(folder, meta))
        (stage / "export.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        publish_directory(stage, folder, keep_existing=lambda f: _intact(f, warn=False))
    except Exception as exc:
        shutil.rmtree(stage, ignore_errors=True)
        raise BSLError(f"ONNX export into {folder} failed: {type(exc).__name__}: {exc}") from exc
    return folder


@dataclass
class OnnxTransformer:
    """An ONNX Runtime session of an exported transformer: `__call__(features) -> last hidden state` (float32
    numpy, (batch, seq, dim)) from the tokenizer's numpy features."""

    session: Any
    input_names: tuple[str, ...]
    path: Path

    @classmethod
    def load(cls, folder: Path, threads: int) -> OnnxTransformer:
        import onnxruntime as ort

        meta = json.loads((folder / "export.json").read_text(encoding="utf-8"))
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # No busy-waiting between ops: on a shared CPU spinning threads burn time other processes (and our own
        # tokenizer) need (timings: docs/results/speed.md).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        path = folder / "model.onnx"
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        return cls(session, tuple(meta["inputs"]), path)

    def __call__(self, features: dict[str, np.ndarray]) -> np.ndarray:
        import numpy as np

        feeds = {name: np.ascontiguousarray(features[name], dtype=np.int64) for name in self.input_names}
        return self.session.run(None, feeds)[0]


def _max_state_difference(model, tokenizer, runtime: OnnxTransformer, max_length: int) -> float:
    """The largest |onnx - torch| / (CHECK_ATOL + CHECK_RTOL * |torch|) over the real tokens of a few padded
    batches: <= 1 passes."""
    import numpy as np
    import torch

    worst = 0.0
    for batch in (_CHECK_SENTENCES, _CHECK_SENTENCES[1:2]):
        features = tokenizer(list(batch), padding=True, truncation=True, max_length=max_length, return_tensors="np")
        with torch.no_grad():
            out = model(**{k: torch.from_numpy(np.asarray(features[k])) for k in runtime.input_names})
        states = (out.last_hidden_state if hasattr(out, "last_hidden_state") else out[0]).float().numpy()
        mask = np.asarray(features["attention_mask"], dtype=bool)
        excess = np.abs(runtime(features) - states) / (CHECK_ATOL + CHECK_RTOL * np.abs(states))
        worst = max(worst, float(excess[mask].max()))
    return worst


def onnx_input_names(tokenizer, forward_keys: set[str] | None) -> tuple[str, ...]:
    """The tokenizer outputs the model takes, in the tokenizer's order (input_ids and attention_mask first)."""
    names = [n for n in tokenizer.model_input_names if forward_keys is None or n in forward_keys]
    for required in ("attention_mask", "input_ids"):
        if required not in names:
            names.insert(0, required)
    return tuple(names)


def load_onnx_transformer(model, tokenizer, forward_keys: set[str] | None, fingerprint: str, max_length: int,
                          threads: int, root: Path | None = None) -> OnnxTransformer | None:
    """The checked ONNX Runtime session for `model` (exported or reused), or None with a warning when the export
    fails or disagrees with the torch forward pass."""
    names = onnx_input_names(tokenizer, forward_keys)
    try:
        folder = export_model(model, tokenizer, names, fingerprint, root)
        runtime = OnnxTransformer.load(folder, threads)
        diff = _max_state_difference(model, tokenizer, runtime, max_length)
    except Exception as exc:  # any failure of export or runtime: the torch path still gives the right answer
        log.warning("ONNX backend not used, falling back to torch: %s", exc)
        return None
    if not diff <= 1.0:
        log.warning("ONNX backend not used, falling back to torch: the export of %s differs from the torch forward "
                    "pass by %.1fx the tolerance (atol %.0e, rtol %.0e)", folder, diff, CHECK_ATOL, CHECK_RTOL)
        return None
    return runtime
