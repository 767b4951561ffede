"""Settings of the evaluation stage; kept free of numpy/torch so `bsl --help` stays fast."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from bsl_pipeline.pipeline.base.config import MAX_BATCH, MAX_BATCH_TOKENS, MAX_SEQUENCE_TOKENS, Range
from bsl_pipeline.pipeline.base.devices import SDPA_BACKEND_HELP
from bsl_pipeline.training.config import POOLING_MODES
from bsl_pipeline.evaluation.backends import BACKEND_HELP
from bsl_pipeline.evaluation.tasks import ALL_TASKS
from bsl_pipeline.evaluation.transfer_data import STS17_PAIRS

__all__ = ["DEFAULT_CACHE_DIR", "POOLING_MODES", "EvaluationConfig"]
DEFAULT_CACHE_DIR = ".bsl_cache/evaluation"


@dataclass
class EvaluationConfig:
    """Settings of `bsl evaluate` (YAML / `-o key=value` / the command-line flags)."""

    data_dir: str = field(default="", metadata={
        "help": "folder with sts/, stsbenchmark/, sick/; '' = $BSL_DATA_DIR, else ~/.cache/bsl/data (filled by "
                "`bsl data fetch`), else ../shared/data (docs/guide/data.md)"})
    tasks: list[str] = field(default_factory=lambda: list(ALL_TASKS), metadata={
        "help": "what to evaluate: sts12..sts16, stsb, sickr (Table 1; 'all' = these seven, the default), sts17 "
                "(STS 2017 per language pair), the SentEval transfer tasks mr, cr, subj, mpqa, sst2, trec, mrpc, "
                "sicke ('transfer' = all eight)"})
    pooling: str | None = field(default=None, metadata={
        "help": "override pooling (mean|cls|max|...); null = the model's own (checkpoint/ST config) else mean"})
    batch_size: int = field(default=64, metadata={"range": Range(1, MAX_BATCH), "help": "sentences per forward pass (when "
                                                                     "max_tokens is off)"})
    max_tokens: int | None = field(default=None, metadata={"range": Range(0, MAX_BATCH_TOKENS),
        "help": "padded tokens per forward pass, sentences sorted by token length; 0 = off (batch_size "
                "sentences); null = auto: 16384 on CUDA, off on CPU"})
    device: str = field(default="auto", metadata={"help": "auto (cuda if available), cpu, cuda, cuda:1, ..."})
    precision: Literal["auto", "fp32", "bf16", "fp16"] = field(default="auto", metadata={
        "help": "autocast of the forward pass: auto = bf16 on CUDA (else fp16 where bf16 is missing), fp32 on CPU; "
                "the embedding cache keeps precisions apart"})
    sdpa_backend: str = field(default="auto", metadata={"help": SDPA_BACKEND_HELP})
    backend: Literal["auto", "torch", "onnx"] = field(default="auto", metadata={"help": BACKEND_HELP})
    max_length: int | None = field(default=None, metadata={"range": Range(2, MAX_SEQUENCE_TOKENS),
        "help": "truncate sentences to this many tokens; null = the model's own limit (at most 512)"})
    cache_dir: str | None = field(default=DEFAULT_CACHE_DIR, metadata={
        "help": "embedding cache folder; null disables caching"})
    sts_aggregate: Literal["all", "mean", "wmean"] = field(default="all", metadata={
        "help": "per-year STS12-16 number used in the table and avg (SentEval 'all' = subsets concatenated)"})
    include_stsb_dev: bool = field(default=True, metadata={"help": "also report STS-B dev (details only)"})
    sts17_pairs: list[str] = field(default_factory=lambda: list(STS17_PAIRS), metadata={
        "help": "STS 2017 language pairs scored by the sts17 task (the BSL paper's eight by default; also ko-ko, "
                "en-it, en-nl)"})
    transfer_kfold: int = field(default=10, metadata={"range": Range(2), "help": (
        "folds of the transfer tasks' cross-validation (SentEval's kfold; 10 = its setting 'comparable to the "
        "literature')")})
    transfer_seed: int = field(default=1111, metadata={"range": Range(0), "help": (
        "seed of the transfer tasks' fold shuffling and classifier (SentEval's default 1111)")})
    transfer_max_iter: int = field(default=1000, metadata={"range": Range(1), "help": (
        "lbfgs iterations of each logistic regression of the transfer tasks")})
    transfer_pair_features: Literal["senteval", "full"] = field(default="senteval", metadata={
        "help": "MRPC / SICK-E classifier input: senteval = [|u-v|, u*v] as SentEval; full = [u, v, |u-v|, u*v]"})
