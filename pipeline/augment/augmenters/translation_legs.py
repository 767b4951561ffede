"""What every augmenter that runs machine translation shares: one direction of translation (a "leg": a fairseq
hub-layout directory or hub name, or a transformers seq2seq directory or Hugging Face id, the backend detected per
leg unless set), its loading and identity, and length-sorted batched decoding.

`TranslatingAugmenter` is the base of `backtranslation` (en -> pivot -> en) and `translation` (en -> target
language); a subclass names its legs in `legs()` and builds view pairs from `translate()`. `TranslationSettings`
holds the decoding, batching and reject settings both configs share.

Sentences are translated in length-sorted batches under a padded-token budget and put back in input order, with
the attention kernels of pipeline.base.devices.attention_kernels (`sdpa_backend`; on a GPU never cuDNN attention,
which would build a new plan at every decoding step as the cached length grows).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter
from bsl_pipeline.pipeline.base.config import MAX_BATCH, MAX_BATCH_TOKENS, MAX_SEQUENCE_TOKENS, ConfigError, Range
from bsl_pipeline.pipeline.base.devices import (
    SDPA_BACKEND_HELP,
    attention_kernels,
    sdpa_backend_problem,
)
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.token_batches import plan_batches
from bsl_pipeline.pipeline.base.user_cache import user_cache_root

Backend = Literal["auto", "fairseq", "transformers"]

BACKEND_HELP = ("auto: per leg, fairseq for hub-layout dirs and dotted fairseq hub names (transformer.wmt19.en-de), "
                "transformers for dirs with config.json and org/name ids")


@dataclass
class TranslationSettings:
    """Decoding, batching and reject settings of every translating augmenter (subclassed by their configs)."""

    decoding: Literal["beam", "sampling"] = field(default="beam", metadata={
        "help": "beam search, or top-k sampling (seeded: same seed and batch give the same output)"})
    beam: int = field(default=5, metadata={"range": Range(1, 1024), "help": "beam size (decoding=beam)"})
    sampling_topk: int = field(default=10, metadata={
        "range": Range(1), "help": "sample from the k most likely tokens (decoding=sampling)"})
    temperature: float = field(default=1.0, metadata={
        "range": Range(0, low_open=True), "help": "sampling temperature (decoding=sampling)"})
    max_len_a: float = field(default=1.2, metadata={"range": Range(0),
        "help": "generate at most a * (longest source in the batch, in subword tokens) + b tokens (fairseq's "
                "usual WMT setting 1.2/10; also stops a looping output early)"})
    max_len_b: int = field(default=10, metadata={"range": Range(0), "help": "see max_len_a"})
    max_output_tokens: int = field(default=256, metadata={
        "range": Range(1, MAX_SEQUENCE_TOKENS), "help": "hard cap on generated tokens per sentence"})
    max_input_tokens: int = field(default=250, metadata={"range": Range(1, MAX_SEQUENCE_TOKENS),
        "help": "longer inputs (in subword tokens, or the model's own limit if lower) are rejected as "
                "input_too_long, never truncated"})
    max_tokens: int = field(default=0, metadata={"range": Range(0, MAX_BATCH_TOKENS),
        "help": "padded source tokens per batch; sentences are length-sorted into batches under this budget. "
                "0 = auto: 2048 on CPU, 8192 on GPU"})
    max_sentences: int = field(default=256, metadata={"range": Range(1, MAX_BATCH), "help": "sentences per batch at most"})
    device: str = field(default="auto", metadata={"help": "auto (cuda if available), cpu, cuda, cuda:N"})
    precision: Literal["auto", "fp32", "bf16", "fp16"] = field(default="auto", metadata={
        "help": "auto: bf16 (else fp16) on GPU, fp32 on CPU"})
    # Which kernel computes attention, not what it computes: out of the fingerprint.
    sdpa_backend: str = field(default="auto", metadata={"help": SDPA_BACKEND_HELP, "check": sdpa_backend_problem,
                                                        "fingerprint": False})
    bpe: Literal["subword_nmt", "fastbpe"] = field(default="subword_nmt", metadata={
        "help": "fairseq BPE: subword_nmt (pure Python; fastBPE codes are converted into cache_dir) or fastbpe "
                "(needs the fastBPE package)"})
    allow_identical: bool = field(default=False, metadata={
        "help": "keep outputs identical to the source (and two identical views) instead of rejecting them"})
    min_length_ratio: float = field(default=0.5, metadata={"range": Range(0),
        "help": "reject when words(output) / words(source) is below this (0 = off)"})
    max_length_ratio: float = field(default=2.0, metadata={"range": Range(0),
        "help": "reject when words(output) / words(source) is above this (0 = off)"})
    trusted_classes: list[str] = field(default_factory=list, metadata={
        "help": "fairseq: extra module.Class names weights-only checkpoint loading may construct "
                "(argparse.Namespace is always allowed); only for checkpoints you trust"})
    cache_dir: str = field(default="", metadata={"fingerprint": False,
        "help": "where converted BPE codes are kept (unset: $XDG_CACHE_HOME/bsl-pipeline, else "
                "~/.cache/bsl-pipeline)"})

    def config_problems(self) -> list[tuple[str, str]]:
        """The rule no `Range` can say: both bounds on (0 = off) must be ordered."""
        if self.min_length_ratio and self.max_length_ratio and self.min_length_ratio > self.max_length_ratio:
            problem = f"{self.min_length_ratio!r} must not exceed max_length_ratio ({self.max_length_ratio!r})"
            return [("min_length_ratio", problem)]
        return []


@dataclass(frozen=True)
class Leg:
    """One translation direction, resolved to files on disk."""

    where: str  # config path, for messages and model identity keys
    backend: str
    model_dir: Path
    checkpoints: tuple[str, ...] = ()

    @property
    def model_key(self) -> tuple[str, Path, tuple[str, ...]]:
        return (self.backend, self.model_dir, self.checkpoints)


def derive_seed(base: int, *parts: Any) -> int:
    h = hashlib.blake2b(str(base).encode(), digest_size=8)
    for p in parts:
        h.update(b"/" + str(p).encode())
    return int.from_bytes(h.digest(), "little") & 0x7FFF_FFFF_FFFF_FFFF


def same_text(a: str, b: str) -> bool:
    """Equal up to whitespace."""
    return " ".join(a.split()) == " ".join(b.split())


def _words(text: str) -> int:
    return len(text.split())


class TranslatingAugmenter(Augmenter):
    """Base of the augmenters that translate: resolves, identifies, loads and runs their legs."""

    config_class = TranslationSettings
    # Large record batches give length-sorting room to form tight translation batches.
    default_batch_size = 512

    def __init__(self, config: Any = None):
        super().__init__(config)
        self._translators: dict[tuple[str, Path, tuple[str, ...]], Any] = {}
        self._device: Any = None

    # -- configuration -----------------------------------------------------------------------------------------
    def legs(self) -> dict[str, Leg]:
        """Identity prefix (`first_pivot.forward`, `de`, ...) -> leg, for every leg this configuration uses."""
        raise NotImplementedError

    def _cache_dir(self) -> Path:
        if self.config.cache_dir:
            return Path(self.config.cache_dir).expanduser()
        return user_cache_root() / "bsl-pipeline"

    @staticmethod
    def _detect_backend(model: str, backend: str) -> str:
        from bsl_pipeline.pipeline.augment.augmenters.translation_fairseq import looks_like_hub_name

        if backend != "auto":
            return backend
        path = Path(model).expanduser()
        if path.is_dir():
            if (path / "config.json").is_file():
                return "transformers"
            if any(path.glob("dict.*.txt")) or any(path.glob("*.pt")):
                return "fairseq"
            return "transformers"  # let the transformers loader say what is missing
        return "fairseq" if looks_like_hub_name(model) else "transformers"

    def resolve_leg(self, where: str, model: str, backend: str, checkpoints: str,
                    checkpoints_key: str = "") -> Leg:
        """A model (local dir, fairseq hub name or Hugging Face id) as a leg, downloading hub names if online.
        `checkpoints_key` names the config key of `checkpoints` in messages (default `<where>_checkpoints`)."""
        backend = self._detect_backend(model, backend)
        if backend == "fairseq":
            from bsl_pipeline.pipeline.augment.augmenters import translation_fairseq as fs

            model_dir = fs.resolve_model_dir(model, where)
            names = fs.checkpoint_names(model_dir, checkpoints, where)
            fs.model_files(model_dir, names, where)  # fail early, naming the missing file
            return Leg(where, "fairseq", model_dir, tuple(names))
        from bsl_pipeline.pipeline.augment.augmenters import translation_hf as hf

        if checkpoints:
            raise ConfigError(f"{checkpoints_key or where + '_checkpoints'}: only for fairseq models ({model!r} is a "
                              f"transformers model)")
        model_dir = hf.resolve_model_dir(model, where)
        hf.model_files(model_dir, where)
        return Leg(where, "transformers", model_dir)

    @staticmethod
    def leg_files(leg: Leg) -> dict[str, Path]:
        if leg.backend == "fairseq":
            from bsl_pipeline.pipeline.augment.augmenters import translation_fairseq as fs

            return fs.model_files(leg.model_dir, leg.checkpoints, leg.where)
        from bsl_pipeline.pipeline.augment.augmenters import translation_hf as hf

        return hf.model_files(leg.model_dir, leg.where)

    def model_identities(self) -> dict[str, str]:
        from bsl_pipeline.pipeline.base.provenance import sha256_file_cached

        out: dict[str, str] = {}
        for prefix, leg in self.legs().items():
            for fname, path in self.leg_files(leg).items():
                out[f"{prefix}/{fname}"] = sha256_file_cached(path)
        return out

    # -- models ------------------------------------------------------------------------------------------------
    def setup(self) -> None:
        import torch

        from bsl_pipeline.pipeline.base.devices import resolve_device, resolve_dtype

        where = f"method_params.{self.name}"
        try:
            device = resolve_device(self.config.device)
        except RuntimeError:
            raise ConfigError(f"{where}.device: {self.config.device!r} is not a device "
                              "(auto, cpu, cuda, cuda:N)") from None
        if device.type == "cuda" and not torch.cuda.is_available():
            raise BSLError(f"{where}.device={self.config.device}: no CUDA device is available")
        dtype = resolve_dtype(self.config.precision, device)
        if device.type == "cpu" and dtype == torch.float16:
            raise ConfigError(f"{where}.precision=fp16 needs a GPU (use fp32 or bf16 on CPU)")
        self._device = device
        for leg in self.legs().values():
            if leg.model_key not in self._translators:  # a model used by two legs is loaded once
                self._translators[leg.model_key] = self._load(leg, device, dtype)

    def _load(self, leg: Leg, device: Any, dtype: Any) -> Any:
        if leg.backend == "fairseq":
            from bsl_pipeline.pipeline.augment.augmenters.translation_fairseq import (
                FairseqTranslator,
            )

            return FairseqTranslator(leg.model_dir, leg.checkpoints, bpe=self.config.bpe,
                                     cache_dir=self._cache_dir(), trusted_classes=self.config.trusted_classes,
                                     device=device, dtype=dtype, where=leg.where)
        from bsl_pipeline.pipeline.augment.augmenters.translation_hf import HFTranslator

        return HFTranslator(leg.model_dir, device=device, dtype=dtype, where=leg.where)

    # -- translation -------------------------------------------------------------------------------------------
    def translator(self, leg: Leg) -> Any:
        """The loaded model of a leg (FairseqTranslator or HFTranslator)."""
        self.ensure_ready()
        return self._translators[leg.model_key]

    @contextmanager
    def _seeded(self, seed: int) -> Iterator[None]:
        """Sampling draws from torch's global generator: seed it for this batch without disturbing the caller's."""
        import torch

        cuda = [self._device.index or 0] if self._device is not None and self._device.type == "cuda" else []
        with torch.random.fork_rng(devices=cuda):
            torch.manual_seed(seed)
            yield

    def translate(self, leg: Leg, texts: Sequence[str], seed: int) -> list[str | None]:
        """Translate in length-sorted batches; results in input order, None where the input is too long."""
        if self.config.decoding == "beam":
            # Beam search is deterministic, so a sentence that occurs twice (NLI premises come three times, one per
            # hypothesis) is translated once. Sampling keeps duplicates: each record gets its own draw.
            unique = list(dict.fromkeys(texts))
            if len(unique) < len(texts):
                done = dict(zip(unique, self._translate_batches(leg, unique, seed)))
                return [done[t] for t in texts]
        return self._translate_batches(leg, texts, seed)

    def _translate_batches(self, leg: Leg, texts: Sequence[str], seed: int) -> list[str | None]:
        from tqdm import tqdm

        if not texts:
            return []
        cfg = self.config
        translator = self.translator(leg)
        encoded = translator.encode(texts)
        lengths = [len(e) for e in encoded]
        limit = min(x for x in (cfg.max_input_tokens, translator.max_input_tokens) if x)
        order = sorted((i for i, n in enumerate(lengths) if n <= limit), key=lambda i: (-lengths[i], i))
        out: list[str | None] = [None] * len(texts)
        desc = f"{self.name} " + leg.where.rsplit(f".{self.name}.", 1)[-1]
        # delay: a bar only for batches that take a while, not one per small call.
        with tqdm(total=len(order), desc=desc, unit="sent", disable=self.bars_hidden(), delay=2.0, leave=False,
                  file=sys.stderr) as bar:
            for k, batch in enumerate(plan_batches(order, lengths, self._max_tokens(), cfg.max_sentences)):
                budget = min(int(cfg.max_len_a * lengths[batch[0]] + cfg.max_len_b), cfg.max_output_tokens)
                with self._seeded(derive_seed(seed, k)), attention_kernels(cfg.sdpa_backend, self._device):
                    texts_out = translator.generate(
                        [encoded[i] for i in batch], beam=cfg.beam, sampling=cfg.decoding == "sampling",
                        topk=cfg.sampling_topk, temperature=cfg.temperature, max_new_tokens=max(budget, 1))
                for i, text in zip(batch, texts_out):
                    out[i] = text
                bar.update(len(batch))
        return out

    def _max_tokens(self) -> int:
        if self.config.max_tokens:
            return self.config.max_tokens
        return 8192 if self._device is not None and self._device.type == "cuda" else 2048

    def _length_ok(self, source: str, output: str) -> tuple[bool, float]:
        ratio = _words(output) / max(_words(source), 1)
        cfg = self.config
        ok = (not cfg.min_length_ratio or ratio >= cfg.min_length_ratio) and (
            not cfg.max_length_ratio or ratio <= cfg.max_length_ratio)
        return ok, round(ratio, 3)
