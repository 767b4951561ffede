"""Masked-LM substitution (BSL paper, Table 4 "MLM"): mask ~20% of the words, let a masked LM (roberta-base in the
paper) fill them in, view1 = the original, view2 = the filled-in sentence.

How one batch is made:

* Words are the tokenizer's pre-tokenizer words (`word_ids()` of a fast tokenizer). A word can be masked when it is
  made of letters/digits only and is not glued to a following apostrophe ("isn" of "isn't"); special tokens, and
  special-token strings that appear in the text (tokenized as plain text), are never masked.
* Per record, `fraction * maskable` words are chosen (rounded up or down at random in proportion, at least
  `min_words`, at most `max_words`); all sub-tokens of a chosen word become ONE mask token, so the model predicts a
  whole word.
* ONE forward pass per batch of `batch_size` records, or on a GPU per batch of length-sorted records under a
  padded-token budget (`max_tokens`); logits are computed only at the masked positions; the attention kernels are
  pipeline.base.devices.attention_kernels' choice (`sdpa_backend`), the weights bf16 on a GPU (`precision`).
* Each mask is filled by sampling, in proportion to the model's probabilities, from the `top_k` whole-word
  tokens (word-initial pieces made of letters/digits), excluding special tokens and every spelling of the original
  word. The choice of words and the sampling use `record_rng(seed, source_id)`, so a record gets the same view in
  any batch (up to float differences in the logits that padding can cause).
* view2 is the original string with the chosen words' character spans replaced (in the original word's
  capitalisation): the rest of the sentence stays byte-identical (decoding would rewrite spacing/case).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from bsl_pipeline.pipeline.augment.augmenters.base import (
    Augmenter,
    SourceRecord,
    ViewPair,
    record_rng,
)
from bsl_pipeline.pipeline.augment.augmenters.substitution import match_case, words_to_change
from bsl_pipeline.pipeline.base.config import MAX_BATCH, MAX_BATCH_TOKENS, MAX_SEQUENCE_TOKENS, Range
from bsl_pipeline.pipeline.base.devices import SDPA_BACKEND_HELP, sdpa_backend_problem
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.hub import hub_snapshot, local_model_dir
from bsl_pipeline.pipeline.base.model_limits import usable_positions
from bsl_pipeline.pipeline.base.progress import transformers_bars_hidden
from bsl_pipeline.pipeline.base.token_batches import longest_first, plan_batches
from bsl_pipeline.pipeline.base.weights_only import refusing_pickles

_SMALL_FILE_PATTERNS = ("*.json", "*.txt", "*.model", "vocab*", "merges*")
_IDENTITY_PATTERNS = ("*.json", "*.safetensors", "*.bin", "*.txt", "*.model")


@dataclass
class MLMConfig:
    model: str = field(default="roberta-base", metadata={
        "help": "an AutoModelForMaskedLM directory, or a Hugging Face hub id (used from the local HF cache when "
                "offline)"})
    revision: str | None = field(default=None, metadata={"help": "hub revision (commit/tag) for a hub id"})
    fraction: float = field(default=0.2, metadata={
        "range": Range(0, 1), "help": "share of maskable words masked and refilled (the paper: 20%)"})
    min_words: int = field(default=1, metadata={"range": Range(0, not_above="max_words"),
        "help": "mask at least this many words when the sentence has that many (0: fraction only)"})
    max_words: int | None = field(default=None, metadata={
        "range": Range(1), "help": "mask at most this many words (null: no cap)"})
    top_k: int = field(default=10, metadata={
        "range": Range(1), "help": "sample each fill from the k most probable whole words"})
    # Out of the fingerprint ("fingerprint": False): device, batching and attention kernels do not change which
    # words come out (batching only through float noise in the logits).
    device: str = field(default="auto", metadata={"fingerprint": False,
                                                  "help": "auto (cuda when available), cpu, cuda, cuda:N"})
    precision: Literal["auto", "fp32", "bf16", "fp16"] = field(default="auto", metadata={
        "help": "auto: bf16 (or fp16) on GPU, fp32 on CPU"})
    batch_size: int = field(default=64, metadata={"range": Range(1, MAX_BATCH), "fingerprint": False,
                                                  "help": "sentences per forward pass (when max_tokens is off)"})
    max_tokens: int | None = field(default=None, metadata={"range": Range(0, MAX_BATCH_TOKENS), "fingerprint": False,
        "help": "padded tokens per forward pass over the records of a call, sorted by length; 0 = off (batch_size "
                "sentences); null = auto: 16384 on CUDA, off on CPU"})
    sdpa_backend: str = field(default="auto", metadata={"help": SDPA_BACKEND_HELP, "check": sdpa_backend_problem,
                                                        "fingerprint": False})
    max_length: int = field(default=256, metadata={"range": Range(2, MAX_SEQUENCE_TOKENS),
        "help": "tokens per sentence seen by the model; words beyond are kept but never masked"})


@dataclass
class _Plan:
    """One record's masking plan: input ids with masks, and which words (char spans) they replace."""

    ids: list[int]
    mask_positions: list[int]
    words: list[tuple[int, int, str]]  # (start, end, text) of each masked word, in mask order
    maskable: int
    rng: Any


class MaskedLMAugmenter(Augmenter):
    name = "mlm"
    config_class = MLMConfig
    # Records per call: room to length-sort into token-budget passes on a GPU; on CPU the passes stay batch_size
    # records in input order, as with smaller calls.
    default_batch_size = 1024
    version = "1"

    def __init__(self, config: Any = None):
        super().__init__(config)
        self._dir: Path | None = None
        self.model = None
        self.tokenizer = None

    # -- resources ---------------------------------------------------------------------------------------------
    def model_dir(self) -> Path:
        """The local directory of the model: the configured dir, or the hub id's snapshot in the HF cache."""
        if self._dir is not None:
            return self._dir
        where = "method_params.mlm.model"
        self._dir = (local_model_dir(self.config.model, where)
                     or hub_snapshot(self.config.model, _SMALL_FILE_PATTERNS, where=where,
                                     revision=self.config.revision))
        return self._dir

    def model_identities(self) -> dict[str, str]:
        from bsl_pipeline.pipeline.base.provenance import sha256_dir

        return {f"mlm/{name}": digest for name, digest in sha256_dir(self.model_dir(), _IDENTITY_PATTERNS).items()}

    def setup(self) -> None:
        import torch
        from transformers import AutoModelForMaskedLM, AutoTokenizer

        from bsl_pipeline.pipeline.base.devices import resolve_device, resolve_dtype

        directory = self.model_dir()
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(directory)
            self.device = resolve_device(self.config.device)
            self.dtype = resolve_dtype(self.config.precision, self.device)
            with transformers_bars_hidden(), refusing_pickles(directory):
                model = AutoModelForMaskedLM.from_pretrained(directory, dtype=self.dtype)
        except (OSError, ValueError, KeyError) as exc:
            raise BSLError(f"method_params.mlm.model: cannot load a masked LM from {directory}: {exc}") from None
        if not getattr(self.tokenizer, "is_fast", False):
            raise BSLError(f"method_params.mlm.model: {directory} has no fast tokenizer (tokenizer.json); whole-word "
                           f"masking needs its word ids and character offsets")
        if self.tokenizer.mask_token_id is None:
            raise BSLError(f"method_params.mlm.model: the tokenizer in {directory} has no mask token")
        self.model = model.to(self.device).eval()
        self._max_len = self._max_tokens()
        budget = self.config.max_tokens
        self._token_budget = (16384 if self.device.type == "cuda" else 0) if budget is None else budget
        self._special_strings = sorted({t for t in self.tokenizer.all_special_tokens if t and not t.isalnum()})
        self._build_vocab_tables(torch)

    def _max_tokens(self) -> int:
        limit = self.config.max_length
        positions = usable_positions(self.model.config)
        if positions:
            limit = min(limit, positions)
        tokenizer_limit = getattr(self.tokenizer, "model_max_length", None)
        if tokenizer_limit and tokenizer_limit < 1_000_000:
            limit = min(limit, tokenizer_limit)
        return limit

    def _build_vocab_tables(self, torch) -> None:
        """Which vocabulary entries may fill a mask (whole words) and, per lower-cased spelling, their ids (to
        exclude the original word in any capitalisation)."""
        tok = self.tokenizer
        size = len(tok)
        pieces = tok.convert_ids_to_tokens(list(range(size)))
        texts = tok.batch_decode([[i] for i in range(size)], skip_special_tokens=False,
                                 clean_up_tokenization_spaces=False)
        specials = set(tok.all_special_ids)
        word_start_marker = None
        for marker in ("Ġ", "▁"):  # byte-level BPE (RoBERTa, GPT-2), SentencePiece (XLM-R, ALBERT)
            if sum(1 for p in pieces if p and p.startswith(marker)) > size // 10:
                word_start_marker = marker
                break
        allowed = torch.zeros(size, dtype=torch.bool)
        self._ids_by_word: dict[str, list[int]] = {}
        self._fill_text: list[str] = [""] * size
        for i, (piece, text) in enumerate(zip(pieces, texts)):
            word = text.strip()
            if i in specials or piece is None or not word.isalnum():
                continue
            if word_start_marker is not None:
                if not piece.startswith(word_start_marker):
                    continue
            elif piece.startswith("##"):  # WordPiece continuation
                continue
            allowed[i] = True
            self._fill_text[i] = word
            self._ids_by_word.setdefault(word.lower(), []).append(i)
        if not bool(allowed.any()):
            raise BSLError(f"method_params.mlm.model: no whole-word tokens found in the vocabulary of "
                           f"{self.model_dir()}")
        self._disallowed = (~allowed).to(self.device)

    # -- planning ----------------------------------------------------------------------------------------------
    def _plan(self, record: SourceRecord, enc, row: int, seed: int) -> _Plan:
        text = record.text
        ids = enc["input_ids"][row]
        offsets = enc["offset_mapping"][row]
        word_ids = enc.word_ids(row)
        # word id -> [first token, last token, char start, char end]
        spans: dict[int, list[int]] = {}
        for t, w in enumerate(word_ids):
            if w is None:
                continue
            start, end = offsets[t]
            s = spans.get(w)
            if s is None:
                spans[w] = [t, t, start if end > start else -1, end]
                continue
            s[1] = t
            if end > start:
                s[2] = start if s[2] < 0 else min(s[2], start)
                s[3] = max(s[3], end)
        protected = self._special_spans(text)
        maskable = []
        for w, (first, last, start, end) in spans.items():
            if start < 0 or any(start < p_end and p_start < end for p_start, p_end in protected):
                continue
            word = text[start:end]
            glued = text[end:end + 1] in ("'", "’") and text[end + 1:end + 2].isalpha()
            if word.isalnum() and not glued:
                maskable.append(w)
        rng = record_rng(seed, record.source_id)
        cfg = self.config
        k = words_to_change(len(maskable), cfg.fraction, cfg.min_words, cfg.max_words, rng)
        chosen = sorted(rng.sample(maskable, k), key=lambda w: spans[w][0])
        new_ids: list[int] = []
        mask_positions: list[int] = []
        words = []
        t = 0
        chosen_first = {spans[w][0]: w for w in chosen}
        while t < len(ids):
            w = chosen_first.get(t)
            if w is None:
                new_ids.append(ids[t])
                t += 1
                continue
            first, last, start, end = spans[w]
            mask_positions.append(len(new_ids))
            new_ids.append(self.tokenizer.mask_token_id)
            words.append((start, end, text[start:end]))
            t = last + 1
        return _Plan(new_ids, mask_positions, words, len(maskable), rng)

    def _special_spans(self, text: str) -> list[tuple[int, int]]:
        """Character spans of special-token strings written in the text ("<unk>" in PTB-style corpora, "<mask>"):
        they are tokenized as plain text but are markup, so their letters are never masked."""
        spans = []
        for special in self._special_strings:
            start = text.find(special)
            while start >= 0:
                spans.append((start, start + len(special)))
                start = text.find(special, start + 1)
        return spans

    # -- model -------------------------------------------------------------------------------------------------
    def _mask_logits(self, plans: list[_Plan], full_forward: bool = False):
        """Logits [n_masks, vocab] at every mask of the batch, from one forward pass."""
        import torch

        width = max(len(p.ids) for p in plans)
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        input_ids = torch.full((len(plans), width), pad, dtype=torch.long)
        attention = torch.zeros((len(plans), width), dtype=torch.long)
        rows, cols = [], []
        for i, p in enumerate(plans):
            input_ids[i, :len(p.ids)] = torch.tensor(p.ids, dtype=torch.long)
            attention[i, :len(p.ids)] = 1
            rows.extend([i] * len(p.mask_positions))
            cols.extend(p.mask_positions)
        input_ids = input_ids.to(self.device)
        attention = attention.to(self.device)
        rows_t = torch.tensor(rows, dtype=torch.long, device=self.device)
        cols_t = torch.tensor(cols, dtype=torch.long, device=self.device)
        head = None if full_forward else self._lm_head()
        from bsl_pipeline.pipeline.base.devices import attention_kernels

        with torch.no_grad(), attention_kernels(self.config.sdpa_backend, self.device):
            if head is not None:
                # Only the masked positions go through the vocabulary projection: for roberta-base that avoids a
                # [batch, length, 50k] tensor.
                hidden = self.model.base_model(input_ids=input_ids, attention_mask=attention).last_hidden_state
                logits = head(hidden[rows_t, cols_t])
            else:
                logits = self.model(input_ids=input_ids, attention_mask=attention).logits[rows_t, cols_t]
        return logits.float()

    def _lm_head(self):
        # RoBERTa/XLM-R/CamemBERT/Longformer keep the head in `lm_head`, BERT-likes in `cls`: both map hidden states
        # of any leading shape to vocabulary logits. Other architectures take the full forward pass.
        for attr in ("lm_head", "cls"):
            head = getattr(self.model, attr, None)
            if head is not None and callable(head) and getattr(self.model, "base_model", None) is not self.model:
                return head
        return None

    def _fill(self, plans: list[_Plan]) -> list[list[str | None]]:
        """Per plan, the replacement text of each masked word (None where no candidate was left)."""
        import torch

        if not any(p.mask_positions for p in plans):
            return [[] for _ in plans]
        logits = self._mask_logits(plans)
        logits.masked_fill_(self._disallowed, float("-inf"))
        ex_rows, ex_cols = [], []
        m = 0
        for p in plans:
            for _, _, word in p.words:
                for i in self._ids_by_word.get(word.lower(), ()):
                    ex_rows.append(m)
                    ex_cols.append(i)
                m += 1
        if ex_rows:
            logits[torch.tensor(ex_rows, device=logits.device), torch.tensor(ex_cols, device=logits.device)] = \
                float("-inf")
        k = min(self.config.top_k, logits.shape[1])
        values, ids = logits.topk(k, dim=1)
        probs = torch.softmax(values, dim=1).cpu().tolist()
        ids = ids.cpu().tolist()
        finite = torch.isfinite(values).cpu().tolist()
        out: list[list[str | None]] = []
        m = 0
        for p in plans:
            fills: list[str | None] = []
            for _ in p.words:
                choice = _sample(probs[m], finite[m], p.rng.random())
                fills.append(None if choice is None else self._fill_text[ids[m][choice]])
                m += 1
            out.append(fills)
        return out

    def _fill_in_batches(self, plans: list[_Plan]) -> list[list[str | None]]:
        """`_fill` over all plans: in one pass, or in passes under the token budget (longest first)."""
        if not self._token_budget:
            return self._fill(plans)
        lengths = [len(p.ids) for p in plans]
        fills: list[list[str | None]] = [[] for _ in plans]
        for batch in plan_batches(longest_first(lengths), lengths, self._token_budget, max_sentences=len(plans)):
            for i, f in zip(batch, self._fill([plans[i] for i in batch])):
                fills[i] = f
        return fills

    # -- augmentation ------------------------------------------------------------------------------------------
    def augment_batch(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        self.ensure_ready()
        # Under a token budget the whole call is one chunk: its records are length-sorted into forward passes.
        size = (len(records) or 1) if self._token_budget else self.config.batch_size
        chunks = [records[i:i + size] for i in range(0, len(records), size)]
        if len(chunks) > 1:
            from tqdm.auto import tqdm

            chunks = tqdm(chunks, desc="mlm", unit="batch", disable=self.bars_hidden())
        out: list[ViewPair] = []
        for chunk in chunks:
            out.extend(self._augment_chunk(chunk, seed))
        return out

    def _augment_chunk(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        enc = self.tokenizer([r.text for r in records], return_offsets_mapping=True, truncation=True,
                             max_length=self._max_len, split_special_tokens=True)
        plans = [self._plan(r, enc, i, seed) for i, r in enumerate(records)]
        fills = self._fill_in_batches(plans)
        out = []
        for r, p, f in zip(records, plans, fills):
            if p.maskable == 0:
                out.append(ViewPair.rejected("no_maskable_word", r.text, r.text, maskable=0))
                continue
            parts, last, changes = [], 0, []
            for (start, end, word), new in zip(p.words, f):
                if new is None:
                    continue
                new = match_case(word, new)
                parts.append(r.text[last:start])
                parts.append(new)
                last = end
                changes.append([start, word, new])
            parts.append(r.text[last:])
            view2 = "".join(parts)
            info = {"maskable": p.maskable, "masked": len(p.words), "replaced": len(changes), "changes": changes}
            if view2 == r.text:
                out.append(ViewPair.rejected("no_change", r.text, view2, **info))
                continue
            out.append(ViewPair(r.text, view2, info=info))
        return out


def _sample(probs: list[float], finite: list[bool], u: float) -> int | None:
    """Index drawn from `probs` with the uniform number `u` (inverse CDF), over the finite entries only."""
    total = sum(p for p, ok in zip(probs, finite) if ok)
    if total <= 0:
        return None
    acc = 0.0
    last = None
    for i, (p, ok) in enumerate(zip(probs, finite)):
        if not ok:
            continue
        last = i
        acc += p / total
        if u < acc:
            return i
    return last

