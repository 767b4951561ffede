"""Run the STS table (the paper's Table 1) for one or more encoders, and the trainer's fast STS-B dev check.

Numbers: cosine-similarity Spearman x100 per column. STS12-16 use the SentEval "all" aggregate by default (one
correlation over all subsets of the year concatenated); see `evaluation` for why. STS-B is its test split,
SICK-R its test split; `avg` is the plain mean of the columns evaluated (with all seven tasks: the paper's Avg.).
"""

from __future__ import annotations

import dataclasses
import gc
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.evaluation.data_dir import (
    POOLED_STS_SUBSET,
    resolve_data_dir,
    resolve_data_setting,
)
from bsl_pipeline.evaluation.cache import EmbeddingCache
from bsl_pipeline.evaluation.config import EvaluationConfig
from bsl_pipeline.evaluation.data import PairSet, load_stsb_dev
from bsl_pipeline.evaluation.encoders import CallableEncoder, Encoder, load_encoder
from bsl_pipeline.evaluation.metrics import (
    STS_AGGREGATES,
    PairScore,
    YearScore,
    cosine_similarities,
    score_pairs,
    score_year,
)
from bsl_pipeline.evaluation.tasks import (
    TASKS_BY_NAME,
    LoadOptions,
    known_tasks,
    load_task,
    parse_tasks,
)
from bsl_pipeline.evaluation.transfer import (
    ProtocolSettings,
    TransferScore,
    score_transfer_task,
)
from bsl_pipeline.evaluation.transfer_data import TransferTask


@dataclass
class ModelResult:
    """Everything measured for one encoder. `scores()` gives the table row; `to_json()` the JSON entry."""

    name: str
    encoder: dict[str, Any]
    tasks: tuple[str, ...]
    sts_aggregate: str
    sts: dict[str, YearScore] = field(default_factory=dict)            # "sts-year" tasks
    splits: dict[str, dict[str, PairScore]] = field(default_factory=dict)  # "sts-test" tasks: {task: {split: ..}}
    sts17: dict[str, PairScore] = field(default_factory=dict)          # the "sts-pairs" task: {language pair: ..}
    transfer: dict[str, TransferScore] = field(default_factory=dict)
    cache_hits: int = 0
    cache_misses: int = 0

    def task_score(self, task: str) -> PairScore:
        protocol = TASKS_BY_NAME[task].protocol if task in TASKS_BY_NAME else None
        if protocol == "sts-year":
            return self.sts[task].aggregate(self.sts_aggregate)
        if protocol == "sts-test":
            return self.splits[task]["test"]
        raise KeyError(task)

    @property
    def sts_tasks(self) -> tuple[str, ...]:
        """The evaluated Table 1 columns (the tasks `scores()` and its `avg` cover)."""
        return tuple(t for t in self.tasks if TASKS_BY_NAME[t].table == "sts")

    def scores(self) -> dict[str, float]:
        """`{task: cosine Spearman x100, ..., "avg": mean of them}` in Table 1 order (NaN stays NaN); empty when
        no Table 1 column was evaluated."""
        return _with_mean({task: self.task_score(task).spearman for task in self.sts_tasks})

    def transfer_scores(self) -> dict[str, float]:
        """`{task: test accuracy x100, ..., "avg": their mean}` for the evaluated transfer tasks (Table 2)."""
        return _with_mean({task: self.transfer[task].accuracy for task in self.tasks if task in self.transfer})

    def sts17_scores(self) -> dict[str, float]:
        """`{language pair: cosine Spearman x100, ..., "avg": their mean}` (Table 3's columns)."""
        return _with_mean({pair: s.spearman for pair, s in self.sts17.items()})

    def to_json(self) -> dict[str, Any]:
        def clean(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        entry: dict[str, Any] = {k: clean(v) for k, v in self.scores().items()}
        if self.sts17:
            entry["sts17"] = {k: clean(v) for k, v in self.sts17_scores().items()}
        if self.transfer:
            entry["transfer"] = {k: clean(v) for k, v in self.transfer_scores().items()}
        details: dict[str, Any] = {
            "model": self.encoder,
            "metric": "spearman of cosine similarity x100",
            "sts_aggregate": self.sts_aggregate,
            "avg": {"tasks": list(self.sts_tasks), "n_tasks": len(self.sts_tasks)},
        }
        for task in self.tasks:
            protocol = TASKS_BY_NAME[task].protocol
            if protocol == "sts-year":
                details[task] = self.sts[task].to_dict()
            elif protocol == "sts-test":
                details[task] = {split: s.to_dict() for split, s in self.splits[task].items()}
            elif protocol == "sts-pairs":
                details[task] = {"metric": "spearman of cosine similarity x100, per language pair",
                                    "pairs": {pair: s.to_dict() for pair, s in self.sts17.items()}}
            elif task in self.transfer:
                details.setdefault("transfer", {
                    "metric": "test accuracy x100 of a logistic regression on frozen embeddings (SentEval "
                              "protocol, scikit-learn classifier; see evaluation.transfer)"})
                details["transfer"][task] = self.transfer[task].to_dict()
        entry["details"] = details
        return entry


def _with_mean(values: dict[str, float]) -> dict[str, float]:
    if not values:
        return {}
    finite = all(math.isfinite(v) for v in values.values())
    return {**values, "avg": float(np.mean(list(values.values()))) if finite else float("nan")}


def load_eval_data(data_dir: str | Path, tasks: Sequence[str] | str | None = None,
                   include_stsb_dev: bool = True,
                   sts17_pairs: Sequence[str] | str | None = None) -> dict[str, dict[str, PairSet] | TransferTask]:
    """Load and validate every file the chosen tasks need (all errors surface before any model is loaded).

    STS columns and sts17 map to `{subset or language pair: PairSet}`, a transfer task to its `TransferTask`."""
    options = LoadOptions(include_stsb_dev=include_stsb_dev, sts17_pairs=sts17_pairs)
    return {task: load_task(data_dir, task, options) for task in parse_tasks(tasks)}


def _as_encoder(encoder: Encoder | Callable[[list[str]], Any]) -> Encoder:
    if isinstance(encoder, Encoder):
        return encoder
    if callable(encoder):
        return CallableEncoder(encoder)
    raise TypeError(f"expected an Encoder or a callable list[str] -> embeddings, got {type(encoder).__name__}")


def encode_pairsets(encoder: Encoder, pairsets: Sequence[PairSet], cache: EmbeddingCache | None = None,
                    disable_progress: bool | None = None) -> tuple[list[tuple[np.ndarray, np.ndarray]], int, int]:
    """Embeddings (emb1, emb2) per pair set, from the cache where possible; every missing set is encoded in one
    `encoder.encode` call (one progress bar, batches shared across files). Returns (embeddings, hits, misses)."""
    use_cache = cache is not None and encoder.fingerprint is not None
    results: list[tuple[np.ndarray, np.ndarray] | None] = [None] * len(pairsets)
    missing: list[int] = []
    for i, ps in enumerate(pairsets):
        hit = cache.get(encoder.fingerprint, ps.key, len(ps)) if use_cache else None  # type: ignore[union-attr]
        if hit is None:
            missing.append(i)
        else:
            results[i] = hit
    if missing:
        sentences: list[str] = []
        for i in missing:
            sentences.extend(pairsets[i].sentences1)
            sentences.extend(pairsets[i].sentences2)
        emb = np.asarray(encoder.encode(sentences, disable_progress=disable_progress), dtype=np.float32)
        if emb.ndim != 2 or emb.shape[0] != len(sentences):
            raise BSLError(f"encoder {encoder.name!r} returned shape {emb.shape} for {len(sentences)} sentences")
        offset = 0
        for i in missing:
            n = len(pairsets[i])
            e1, e2 = emb[offset:offset + n], emb[offset + n:offset + 2 * n]
            offset += 2 * n
            results[i] = (e1, e2)
            if use_cache:
                cache.put(encoder.fingerprint, pairsets[i].key, e1, e2)  # type: ignore[union-attr,arg-type]
    return results, len(pairsets) - len(missing), len(missing)  # type: ignore[return-value]


def encode_transfer_tasks(encoder: Encoder, tasks: Sequence[TransferTask], cache: EmbeddingCache | None = None,
                          disable_progress: bool | None = None) -> tuple[list[dict[str, np.ndarray]], int, int]:
    """`{sentence: embedding}` per transfer task (each unique sentence once), from the cache where possible; all
    missing tasks are encoded in one `encoder.encode` call. Returns (lookups, hits, misses)."""
    use_cache = cache is not None and encoder.fingerprint is not None
    uniques = [list(dict.fromkeys(task.sentences())) for task in tasks]
    found: list[np.ndarray | None] = [
        cache.get_rows(encoder.fingerprint, task.key, len(u)) if use_cache else None  # type: ignore[union-attr]
        for task, u in zip(tasks, uniques)]
    missing = [i for i, hit in enumerate(found) if hit is None]
    if missing:
        sentences = [s for i in missing for s in uniques[i]]
        emb = np.asarray(encoder.encode(sentences, disable_progress=disable_progress), dtype=np.float32)
        if emb.ndim != 2 or emb.shape[0] != len(sentences):
            raise BSLError(f"encoder {encoder.name!r} returned shape {emb.shape} for {len(sentences)} sentences")
        offset = 0
        for i in missing:
            found[i] = emb[offset:offset + len(uniques[i])]
            offset += len(uniques[i])
            if use_cache:
                cache.put_rows(encoder.fingerprint, tasks[i].key, found[i])  # type: ignore[union-attr,arg-type]
    lookups = [dict(zip(u, e)) for u, e in zip(uniques, found)]  # type: ignore[arg-type]
    return lookups, len(tasks) - len(missing), len(missing)


def _chosen_data(data: str | Path | Mapping[str, Mapping[str, PairSet] | TransferTask],
                 tasks: Sequence[str] | str | None, include_stsb_dev: bool,
                 sts17_pairs: Sequence[str] | str | None) -> dict[str, Any]:
    """The asked tasks' data, loaded from a data dir or picked from what `load_eval_data` returned."""
    chosen = parse_tasks(tasks) if tasks is not None else None
    if isinstance(data, (str, Path)):
        return load_eval_data(data, chosen, include_stsb_dev, sts17_pairs)
    loaded = {t: (v if isinstance(v, TransferTask) else dict(v)) for t, v in data.items()
              if chosen is None or t in chosen}
    missing_tasks = [t for t in (chosen or ()) if t not in loaded]
    if missing_tasks:
        raise BSLError(f"tasks {', '.join(missing_tasks)} were not loaded")
    if not include_stsb_dev:  # the "sts-test" tasks keep only their test split (STS-B drops dev)
        for t in loaded:
            if TASKS_BY_NAME[t].protocol == "sts-test":
                loaded[t] = {split: ps for split, ps in loaded[t].items() if split == "test"}
    return loaded


def _score_sts_tasks(result: ModelResult, sims: dict[str, dict[str, tuple[np.ndarray, np.ndarray]]],
                     pooled: list[str]) -> None:
    for task in result.tasks:
        protocol = TASKS_BY_NAME[task].protocol
        if protocol == "sts-year":
            year = score_year(sims[task])
            if task in pooled:  # one pooled set: the per-subset mean and weighted mean do not exist
                undefined = PairScore(math.nan, math.nan, year.all.n)
                year = dataclasses.replace(year, mean=undefined, wmean=undefined)
            result.sts[task] = year
        elif protocol == "sts-test":
            result.splits[task] = {split: score_pairs(*sims[task][split]) for split in sims[task]}
        elif protocol == "sts-pairs":
            result.sts17 = {pair: score_pairs(*sims[task][pair]) for pair in sims[task]}


def evaluate_encoder(encoder: Encoder | Callable[[list[str]], Any],
                     data: str | Path | Mapping[str, Mapping[str, PairSet] | TransferTask],
                     tasks: Sequence[str] | str | None = None, *, cache_dir: str | Path | None = None,
                     sts_aggregate: str = "all", include_stsb_dev: bool = True,
                     disable_progress: bool | None = None, name: str | None = None,
                     transfer_settings: ProtocolSettings | None = None,
                     sts17_pairs: Sequence[str] | str | None = None) -> ModelResult:
    """The full table for one encoder.

    `encoder` is an `Encoder` (e.g. from `load_encoder`) or any callable `list[str] -> embeddings`. `data` is the
    data dir or what `load_eval_data` returned (load once, evaluate many encoders). Embeddings are cached under
    `cache_dir` when given and the encoder has a fingerprint.
    """
    if sts_aggregate not in STS_AGGREGATES:
        raise BSLError(f"unknown STS aggregate {sts_aggregate!r}; expected one of {', '.join(STS_AGGREGATES)}")
    enc = _as_encoder(encoder)
    loaded = _chosen_data(data, tasks, include_stsb_dev, sts17_pairs)
    task_order = tuple(t for t in known_tasks() if t in loaded)
    transfer_tasks = [loaded[t] for t in task_order if isinstance(loaded[t], TransferTask)]
    pooled = [t for t in task_order
              if TASKS_BY_NAME[t].protocol == "sts-year" and set(loaded[t]) == {POOLED_STS_SUBSET}]
    if pooled and sts_aggregate != "all":
        raise BSLError(f"{', '.join(pooled)}: the data has one pooled file per year (fetched from a hub copy without "
                       f"per-subset breakdown), so sts_aggregate={sts_aggregate} cannot be computed: use 'all', or "
                       f"supply SentEval's STS.input/STS.gs subset files by hand (docs/guide/data.md)")
    flat: list[tuple[str, str, PairSet]] = [(t, s, ps) for t in task_order if not isinstance(loaded[t], TransferTask)
                                            for s, ps in loaded[t].items()]  # type: ignore[union-attr]
    cache = EmbeddingCache(cache_dir) if cache_dir is not None else None
    embeddings, hits, misses = encode_pairsets(enc, [ps for _, _, ps in flat], cache, disable_progress)
    lookups, t_hits, t_misses = encode_transfer_tasks(enc, transfer_tasks, cache, disable_progress)
    hits, misses = hits + t_hits, misses + t_misses
    sims: dict[str, dict[str, tuple[np.ndarray, np.ndarray]]] = {}
    for (task, subset, ps), (e1, e2) in zip(flat, embeddings):
        sims.setdefault(task, {})[subset] = (cosine_similarities(e1, e2), np.asarray(ps.scores))
    result = ModelResult(name=name or enc.name, encoder=enc.describe(), tasks=task_order,
                         sts_aggregate=sts_aggregate, cache_hits=hits, cache_misses=misses)
    _score_sts_tasks(result, sims, pooled)
    settings = transfer_settings or ProtocolSettings()
    for task, lookup in zip(transfer_tasks, lookups):
        def embed(texts: list[str], lookup=lookup) -> np.ndarray:
            return np.stack([lookup[t] for t in texts]).astype(np.float64)

        result.transfer[task.name] = score_transfer_task(task, embed, settings)
    return result


def model_names(specs: Sequence[str]) -> list[str]:
    """Names for the JSON/table: the spec as given, with "#2", "#3" appended to repeats."""
    seen: dict[str, int] = {}
    names = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return names


def evaluate_models(specs: Sequence[str | Path], config: EvaluationConfig,
                    disable_progress: bool | None = None) -> dict[str, ModelResult]:
    """Check the settings (`preflight.check_settings`), then load the data once, then load, evaluate and release
    each model in turn (one in memory at a time). The embedding cache (`config.cache_dir`) may not be, hold or lie
    inside a model or the data dir: the tool never writes over what it reads."""
    from bsl_pipeline.evaluation.preflight import check_settings

    if not specs:
        raise BSLError("no model given")
    check_settings(config)
    data_dir = resolve_data_dir(config.data_dir or None).path
    from bsl_pipeline.pipeline.base.hub import check_model_reference
    from bsl_pipeline.pipeline.base.ownership import check_not_input
    from bsl_pipeline.training.recipes import model_source

    sources = [model_source(str(spec)) for spec in specs]  # the bundled encoder's names, as `bsl train` reads them
    for source in sources:  # every model is checked before the data or any model loads
        check_model_reference(source, "model")
    if config.cache_dir is not None:
        check_not_input(config.cache_dir, [s for s in sources if Path(s).exists()] + [data_dir], "cache_dir")
    data = load_eval_data(data_dir, config.tasks, config.include_stsb_dev, config.sts17_pairs)
    settings = ProtocolSettings(kfold=config.transfer_kfold, seed=config.transfer_seed,
                                max_iter=config.transfer_max_iter, pair_features=config.transfer_pair_features)
    results: dict[str, ModelResult] = {}
    for source, name in zip(sources, model_names([str(s) for s in specs])):
        encoder = load_encoder(source, config.pooling, device=config.device, batch_size=config.batch_size,
                               max_length=config.max_length, name=name, precision=config.precision,
                               max_tokens=config.max_tokens, sdpa_backend=config.sdpa_backend,
                               backend=config.backend)
        try:
            results[name] = evaluate_encoder(encoder, data, cache_dir=config.cache_dir,
                                             sts_aggregate=config.sts_aggregate,
                                             include_stsb_dev=config.include_stsb_dev,
                                             disable_progress=disable_progress, name=name,
                                             transfer_settings=settings)
        finally:
            encoder.release()
            gc.collect()
    return results


# ---------------------------------------------------------------------------------------------------------------
# Fast path for the trainer


def evaluate_pairs(encode_fn: Encoder | Callable[[list[str]], Any], pairs: PairSet,
                   batch_size: int | None = 128) -> PairScore:
    """Cosine Spearman/Pearson x100 of in-memory embeddings on one pair set; no disk cache.

    A plain callable is called on length-sorted chunks of `batch_size` unique sentences (None: all at once) and
    may return a numpy array or a torch tensor (any device)."""
    enc = encode_fn if isinstance(encode_fn, Encoder) else CallableEncoder(encode_fn, batch_size=batch_size)
    (e1, e2), = encode_pairsets(enc, [pairs], cache=None, disable_progress=True)[0]
    return score_pairs(cosine_similarities(e1, e2), pairs.scores)


def evaluate_stsb_dev(encode_fn: Encoder | Callable[[list[str]], Any], data: PairSet | str | Path,
                      batch_size: int | None = 128) -> float:
    """STS-B dev cosine Spearman x100 for the trainer's periodic checks.

    `data` is the result of `load_stsb_dev(data_dir)` (load it once and reuse it) or the data dir itself.
    `encode_fn` must put the model in eval mode itself (dropout would add noise), unless it is a
    `TransformerEncoder`, which does so."""
    pairs = load_stsb_dev(data) if isinstance(data, (str, Path)) else data
    return evaluate_pairs(encode_fn, pairs, batch_size).spearman


@dataclass
class StsbDevEvaluator:
    """The trainer's periodic check (a `training.trainer.Evaluator`): cosine Spearman and Pearson x100 of an
    encoder on STS-B dev, loaded once. Spearman, the first metric, picks the best checkpoint."""

    pairs: PairSet
    name: str = "stsb_dev"

    @property
    def metric_names(self) -> tuple[str, ...]:
        return (f"{self.name}_spearman", f"{self.name}_pearson")

    def __call__(self, encoder: Encoder) -> dict[str, float]:
        score = evaluate_pairs(encoder, self.pairs)
        return dict(zip(self.metric_names, (score.spearman, score.pearson)))


def dev_evaluators(eval_config) -> list[StsbDevEvaluator]:
    """What the `eval` section of a TrainConfig asks the trainer to measure: STS-B dev when `stsb_dir` is set
    (its file is read and checked now, before any model is loaded)."""
    if not eval_config.stsb_dir:
        return []
    return [StsbDevEvaluator(load_stsb_dev(resolve_data_setting(eval_config.stsb_dir, "eval.stsb_dir")))]
