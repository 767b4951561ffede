"""Evaluation stage: the STS table of the BSL paper (Table 1) for any sentence encoder.

What is measured
----------------
For every sentence pair, the cosine similarity of the two embeddings; per data set, Spearman's rank correlation
(and Pearson's) between those similarities and the gold scores, x100. The columns are:

- ``sts12`` ... ``sts16``: SemEval STS 2012-2016 (3108 / 1500 / 3750 / 3000 / 1186 gold-scored pairs; STS13 has
  no SMT subset, which is not redistributable; STS15/16 inputs contain unscored pairs, which are skipped).
  Each year is reported three ways, as SentEval does: ``all`` (one correlation over all subsets concatenated),
  ``mean`` and ``wmean`` (mean / pair-count-weighted mean of the per-subset correlations).
  **The table and the average use ``all``.** The BSL paper states only that it uses SentEval and follows prior
  work (SBERT, IS-BERT) with cosine Spearman; it does not name the aggregate. Its Table 1 copies the GloVe/BERT/
  InferSent/USE/SBERT/SRoBERTa rows from Reimers & Gurevych (2019) and the BERT-flow rows from Li et al. (2020),
  and those papers report the concatenated ("all") setting (the comparison of settings in SimCSE, Gao et al. 2021,
  App. B, lists them so), so BSL's own rows must be read the same way. ``--sts-aggregate mean|wmean`` switches
  the table to the other settings; the JSON details always hold all three.
- ``stsb``: STS Benchmark test (1379 pairs); dev (1500) is in the details.
- ``sickr``: SICK relatedness test (4927 pairs).
- ``avg``: the plain mean of the evaluated columns (with all seven: the paper's "Avg.").

Beyond Table 1 (``--tasks``): ``sts17`` (STS 2017, cosine Spearman x100 per language pair, Table 3's columns) and
the SentEval transfer tasks ``mr cr subj mpqa sst2 trec mrpc sicke`` (Table 2; test accuracy of a logistic
regression on the frozen embeddings, SentEval's protocol: see ``evaluation.transfer``). Their numbers
are reported apart from the STS table and never enter its ``avg``.

Text is fed to the model's own tokenizer exactly as in the files (no Moses tokenisation, unlike SentEval's copies
of STS12-16), so numbers can differ slightly from SentEval-tokenised ones.

Public API
----------
- ``load_encoder(spec, pooling=None, *, device="auto", batch_size=64, max_length=None, name=None,
  precision="fp32", max_tokens=None, sdpa_backend="auto")`` -> ``TransformerEncoder`` (trainer checkpoint dir,
  sentence-transformers dir, HF dir or hub id).
- ``TransformerEncoder(model, tokenizer, pooling="mean", ...)``: wrap in-memory HF objects; ``.encode(list[str])``.
- ``evaluate_encoder(encoder_or_fn, data_dir_or_loaded, tasks=None, *, cache_dir=None, sts_aggregate="all")``
  -> ``ModelResult`` (``.scores()`` = table row incl. ``avg``; ``.to_json()`` = JSON entry).
- ``evaluate_models(specs, EvaluationConfig(...))`` -> ``{name: ModelResult}`` (what ``bsl evaluate`` runs).
- For the trainer: ``dev_evaluators(train_config.eval)`` -> the evaluator objects it calls during training
  (``StsbDevEvaluator``: ``evaluator(encoder) -> {"stsb_dev_spearman": ..., "stsb_dev_pearson": ...}``).
- Fast path for any encode function: ``pairs = load_stsb_dev(data_dir)`` once, then
  ``evaluate_stsb_dev(encode_fn, pairs) -> float`` (Spearman x100; ``encode_fn``: ``list[str]`` -> numpy array
  or torch tensor; called on length-sorted chunks of 128 sentences; nothing written to disk).
- ``load_eval_data``, ``load_sts_year``, ``load_stsb``, ``load_sick``: the loaders (raise ``BSLError`` naming
  the file and line on bad input).
- ``results_json``, ``format_table``, ``format_markdown``, ``write_plot``: reporting (JSON shape in
  ``evaluation.score_tables``).

Names resolve lazily so that importing this package does not import numpy, torch or transformers.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "ALL_TASKS": "tasks", "STS_SUBSETS": "data", "PairSet": "data", "load_sts_subset": "data",
    "load_sts_year": "data", "load_stsb": "data", "load_stsb_dev": "data", "load_sick": "data",
    "load_task": "tasks", "parse_tasks": "tasks", "known_tasks": "tasks", "TASKS": "tasks", "EvalTask": "tasks",
    "TRANSFER_TASKS": "tasks", "STS17_PAIRS": "transfer_data", "TransferTask": "transfer_data",
    "load_sick_entailment": "transfer_data", "load_sts17": "transfer_data",
    "ProtocolSettings": "transfer", "TransferScore": "transfer", "score_transfer_task": "transfer",
    "pair_features": "transfer",
    "EvaluationConfig": "config", "POOLING_MODES": "config",
    "Encoder": "encoders", "CallableEncoder": "encoders", "TransformerEncoder": "encoders",
    "load_encoder": "encoders", "detect_model_kind": "encoders",
    "PairScore": "metrics", "YearScore": "metrics", "spearman": "metrics", "pearson": "metrics",
    "cosine_similarities": "metrics", "score_pairs": "metrics", "score_year": "metrics",
    "EmbeddingCache": "cache",
    "ModelResult": "runner", "load_eval_data": "runner", "evaluate_encoder": "runner", "evaluate_models": "runner",
    "evaluate_pairs": "runner", "evaluate_stsb_dev": "runner", "StsbDevEvaluator": "runner",
    "dev_evaluators": "runner",
    "results_json": "score_tables", "format_table": "score_tables", "format_markdown": "score_tables",
    "write_json": "score_tables", "write_markdown": "score_tables", "write_plot": "score_tables",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'bsl_pipeline.evaluation' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"bsl_pipeline.evaluation.{module}"), name)
    globals()[name] = value
    return value
