"""transformers translation back end: seq2seq model directories or Hugging Face ids (FSMT `facebook/wmt19-en-de`,
Marian `Helsinki-NLP/opus-mt-en-fr`, ...) through AutoModelForSeq2SeqLM / AutoTokenizer.

Imported only when a pivot uses transformers.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.hub import hub_snapshot, local_model_dir
from bsl_pipeline.pipeline.base.progress import transformers_bars_hidden
from bsl_pipeline.pipeline.base.weights_only import refusing_pickles

#: What a seq2seq checkpoint directory needs besides its weights (tokenizer and generation settings included).
_SIDE_FILES = ("*.json", "*.spm", "*.model", "merges.txt", "vocab*.txt")


def resolve_model_dir(model: str, where: str) -> Path:
    """A local directory, or a Hugging Face id resolved to its local snapshot (downloaded only when online)."""
    return local_model_dir(model, where) or hub_snapshot(model, _SIDE_FILES, where=where)


def model_files(model_dir: Path, where: str) -> dict[str, Path]:
    """Config, tokenizer files and the weights transformers will actually load (safetensors before .bin)."""
    if not (model_dir / "config.json").is_file():
        raise BSLError(f"{where}: not a transformers model directory (no config.json): {model_dir}")
    weights = sorted(model_dir.glob("*.safetensors")) or sorted(model_dir.glob("pytorch_model*.bin"))
    if not weights:
        raise BSLError(f"{where}: no model weights (*.safetensors or pytorch_model*.bin) in {model_dir}")
    files: dict[str, Path] = {}
    for pattern in _SIDE_FILES:
        for f in sorted(model_dir.glob(pattern)):
            if f.is_file():
                files[f.name] = f
    files.update({w.name: w for w in weights})
    return files


@functools.lru_cache(maxsize=1)
def _shared_cross_attention_cache_class() -> type:
    from transformers.cache_utils import EncoderDecoderCache

    class SharedCrossAttentionCache(EncoderDecoderCache):
        """Beam search gathers every cached row from the beam it continues, at every step. Cross-attention keys and
        values depend only on the source sentence, all beams of a sentence hold the same ones, and a beam only
        ever continues a beam of its own sentence: gathering them copies identical rows. Only the self-attention
        half is reordered; the output is the same."""

        def reorder_cache(self, beam_idx):
            self.self_attention_cache.reorder_cache(beam_idx)

    return SharedCrossAttentionCache


def _beam_cache(config: Any) -> Any:
    """A fresh cache for one beam-search call."""
    from transformers.cache_utils import DynamicCache

    return _shared_cross_attention_cache_class()(DynamicCache(config=config), DynamicCache(config=config))


class HFTranslator:
    """One direction (e.g. en->fr) of a transformers encoder-decoder model."""

    def __init__(self, model_dir: Path, *, device: Any, dtype: Any, where: str):
        from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

        self.where = where
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(model_dir)
            with transformers_bars_hidden(), refusing_pickles(model_dir):
                model = AutoModelForSeq2SeqLM.from_pretrained(model_dir, dtype=dtype)
        except (OSError, ValueError, KeyError) as exc:
            raise BSLError(f"{where}: cannot load a seq2seq model from {model_dir}: {exc}") from None
        if not model.config.is_encoder_decoder:
            raise BSLError(f"{where}: {model_dir} is not an encoder-decoder (translation) model")
        # The length limit is set per batch (max_new_tokens); a max_length stored in the checkpoint would only make
        # generate() warn about both being set on every call.
        model.generation_config.max_length = None
        self.model = model.to(device).eval()
        self.device = device
        limits = [getattr(model.config, "max_position_embeddings", None),
                  getattr(self.tokenizer, "model_max_length", None)]
        limits = [int(x) for x in limits if isinstance(x, int) and 0 < x < 1_000_000]
        self.max_input_tokens = min(limits) if limits else None

    def encode(self, texts: Sequence[str]) -> list[list[int]]:
        # Over-long inputs are rejected by the caller, never silently truncated.
        return self.tokenizer(list(texts), truncation=False, verbose=False)["input_ids"]

    def generate(self, encoded: Sequence[Sequence[int]], *, beam: int, sampling: bool, topk: int,
                 temperature: float, max_new_tokens: int) -> list[str]:
        import torch

        batch = self.tokenizer.pad({"input_ids": [list(e) for e in encoded]}, padding=True, return_tensors="pt")
        config = copy.deepcopy(self.model.generation_config)
        config.max_new_tokens = max_new_tokens
        config.num_return_sequences = 1
        if sampling:
            config.update(do_sample=True, num_beams=1, top_k=topk, temperature=temperature, top_p=None)
        else:
            config.update(do_sample=False, num_beams=beam, top_k=None, temperature=None, top_p=None)
        extra = {"past_key_values": _beam_cache(self.model.config)} if config.num_beams > 1 else {}
        with torch.inference_mode():
            out = self.model.generate(input_ids=batch["input_ids"].to(self.device),
                                      attention_mask=batch["attention_mask"].to(self.device),
                                      generation_config=config, **extra)
        return self.tokenizer.batch_decode(out, skip_special_tokens=True)
