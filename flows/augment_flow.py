"""The augmentation job as a Prefect flow: the library's three steps, scheduled, cached and resumable.

    corpus --iter_chunks--> write_chunk (flow process, streaming) --submit--> augment_chunk (one task per chunk x
    method, on the task runner) --> finalize_dataset (manifest + dataset card)

- **Cache**: each task's Prefect cache key is `pipeline.build.task_key` (chunk content hash + augmenter fingerprint
  + seed + filters) plus a hash of the dataset directory. Results are small JSON records (the task's `TaskResult`,
  no pickles) persisted under `tasks.result_storage` (default `<out_dir>/.work/prefect-results`), so a rerun in a
  new process finds every finished task as `Cached` without calling the augmenter.
- **Resume**: the library writes each task's shards atomically and its completion marker last. A run killed at any
  point reruns only unfinished tasks: a task whose Prefect record is missing or truncated runs again, finds its
  marker and returns it without augmenting; a cached record whose shards were deleted is recomputed.
- **Incremental**: chunks never span files, so a corpus directory that gains files keeps the chunk ids (and cache
  keys) of the files it had; a rerun computes only the new chunks and the manifest gains their shards.
- **Models once per worker**: tasks get an `AugmenterSpec` (method, class path, params, fingerprint), never a
  model; each worker process builds an augmenter once per (method, fingerprint) and calls `ensure_ready()` once
  (`worker_augmenter`). With the thread runner the flow process is the worker and reuses the flow's instances.
- **Runners**: a thread pool in the flow process (default), or Dask (`runner.kind: dask`): a local cluster of worker
  processes, an existing cluster (`runner.dask_address`, many machines; the dataset directory must then be on a
  shared filesystem), or one worker per GPU (`runner.gpus`, each worker process started with
  `CUDA_VISIBLE_DEVICES=<its GPU>` so `device: auto` in the augmenter picks exactly that GPU).
- **Memory**: the corpus streams; the flow holds the current chunk, at most `tasks.max_in_flight` submitted tasks
  (ChunkRefs, not records) and the small per-task results.
"""

from __future__ import annotations

import flows  # noqa: F401  (offline-safe Prefect env before prefect is imported)

import hashlib
import importlib
import os
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from prefect import Task, flow, get_run_logger
from prefect.cache_policies import NO_CACHE
from prefect.futures import PrefectFuture
from prefect.task_runners import ThreadPoolTaskRunner
from prefect.tasks import exponential_backoff

from pipeline.augmenters import REGISTRY
from pipeline.augmenters.base import Augmenter
from pipeline.build import (WORK_DIR, AugmentConfig, ChunkRef, TaskResult, augment_chunk, build_augmenters, filters_for,
                            finalize_dataset, load_task_result, task_key, write_chunk)
from pipeline.config import ConfigError, from_dict, to_dict
from pipeline.corpus import CorpusStats, iter_chunks
from pipeline.errors import BSLError
from pipeline.filters import FilterConfig
from flows.settings import FLOW_NAMES, AugmentFlowConfig, RunnerConfig, TaskConfig, layered_config  # noqa: F401

FLOW_NAME = FLOW_NAMES["augment"]
RESULTS_DIR = "prefect-results"


def resolve_augment_config(config_file: str = "", augment: dict[str, Any] | None = None,
                           overrides: list[str] | None = None) -> AugmentConfig:
    """defaults <- config_file <- inline `augment` keys <- overrides (see `flows.settings.layered_config`)."""
    return layered_config(AugmentConfig, config_file, augment, overrides)


def flow_parameters(spec: AugmentFlowConfig) -> dict[str, Any]:
    """The flow-run parameters of `spec` (everything but the runner)."""
    return {"corpus": spec.corpus, "out_dir": spec.out_dir, "config_file": spec.config_file,
            "augment": dict(spec.augment), "overrides": list(spec.overrides), "tasks": to_dict(spec.tasks)}


# -- augmenters on workers ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AugmenterSpec:
    """What a worker needs to build an augmenter: no model objects travel with tasks."""

    method: str
    class_path: str  # "module:Class", resolved in the flow process (works for augmenters registered at run time)
    params: dict[str, Any] = field(hash=False)
    fingerprint: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.method, self.fingerprint)


_AUGMENTERS: dict[tuple[str, str], Augmenter] = {}
_BUILD_LOCKS: dict[tuple[str, str], threading.Lock] = {}
_CALL_LOCKS: dict[tuple[str, str], threading.Lock] = {}
_REGISTRY_LOCK = threading.Lock()


def _locks(key: tuple[str, str]) -> tuple[threading.Lock, threading.Lock]:
    with _REGISTRY_LOCK:
        return _BUILD_LOCKS.setdefault(key, threading.Lock()), _CALL_LOCKS.setdefault(key, threading.Lock())


def adopt_augmenter(spec: AugmenterSpec, augmenter: Augmenter) -> None:
    """Make an already built augmenter this process's instance for `spec` (the flow process of a thread runner)."""
    with _REGISTRY_LOCK:
        _AUGMENTERS.setdefault(spec.key, augmenter)


def worker_augmenter(spec: AugmenterSpec) -> Augmenter:
    """This process's augmenter for `spec`: built and made ready (models loaded) once, then reused by every task."""
    build_lock, _ = _locks(spec.key)
    with build_lock:
        augmenter = _AUGMENTERS.get(spec.key)
        if augmenter is None:
            module_name, class_name = spec.class_path.split(":")
            augmenter = getattr(importlib.import_module(module_name), class_name)(dict(spec.params))
            got = augmenter.fingerprint_hash()
            if got != spec.fingerprint:
                raise BSLError(f"method {spec.method!r}: this worker's augmenter has fingerprint {got}, the flow's "
                               f"{spec.fingerprint} (different models, params or code on this worker)")
            _AUGMENTERS[spec.key] = augmenter
        augmenter.ensure_ready()  # idempotent; under the lock so models load once even with several threads
    return augmenter


# -- the task ----------------------------------------------------------------------------------------------------------
def _dir_hash(path: str) -> str:
    return hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:8]


def cache_key(context: Any, parameters: dict[str, Any]) -> str:
    """Prefect cache key: the library's task key + the dataset dir (a cached result names files inside it)."""
    return f"bsl-{parameters['key']}-d{_dir_hash(parameters['dataset_dir'])}"


def augment_chunk_task_fn(ref: ChunkRef, spec: AugmenterSpec, key: str, dataset_dir: str, seed: int,
                          filters: FilterConfig, batch_size: int, concurrent_calls: bool = False) -> dict[str, Any]:
    """One (chunk, method) task: `pipeline.build.augment_chunk` with this worker's augmenter. Returns the
    TaskResult as a plain dict (persisted as JSON)."""
    augmenter = worker_augmenter(spec)
    with nullcontext() if concurrent_calls else _locks(spec.key)[1]:
        result = augment_chunk(ref, augmenter, dataset_dir, seed, filters, batch_size)
    if result.task_key != key:
        raise BSLError(f"task key mismatch for chunk {ref.chunk_id} x {spec.method}: flow {key}, worker "
                       f"{result.task_key}")
    return asdict(result)


def make_augment_task(tasks: TaskConfig, result_storage: Path) -> Task:
    options: dict[str, Any] = dict(
        name="augment-chunk", task_run_name="augment-{spec.method}-{ref.chunk_id}",
        retries=tasks.retries, retry_jitter_factor=0.2 if tasks.retries else None,
        retry_delay_seconds=exponential_backoff(backoff_factor=tasks.retry_delay_s) if tasks.retries else 0,
    )
    if tasks.cache:
        options.update(cache_key_fn=cache_key, persist_result=True, result_storage=result_storage,
                       result_serializer="json", cache_result_in_memory=False)
    else:
        options.update(cache_policy=NO_CACHE, persist_result=False)
    return Task(fn=augment_chunk_task_fn, **options)


# -- runners -----------------------------------------------------------------------------------------------------------
def resolve_gpus(gpus: str) -> list[str]:
    """'auto' -> the visible GPUs (CUDA_VISIBLE_DEVICES, else torch's device count); '0,2' -> ['0', '2']."""
    if gpus.strip() != "auto":
        ids = [g.strip() for g in gpus.split(",") if g.strip()]
    elif os.environ.get("CUDA_VISIBLE_DEVICES", "").strip():
        ids = [g.strip() for g in os.environ["CUDA_VISIBLE_DEVICES"].split(",") if g.strip()]
    else:
        import torch

        ids = [str(i) for i in range(torch.cuda.device_count())]
    if not ids:
        raise BSLError(f"runner.gpus={gpus!r}: no GPU found")
    return ids


def gpu_cluster(gpus: str = "auto", threads_per_worker: int = 1, **kwargs: Any):
    """A local Dask cluster with one worker process per GPU; worker i runs with CUDA_VISIBLE_DEVICES=<gpu i>, so
    it sees exactly one device (cuda:0 inside the worker) and loads its models there once."""
    from distributed import Nanny, Scheduler, SpecCluster

    workers = {f"gpu-{g}": {"cls": Nanny, "options": {"nthreads": threads_per_worker,
                                                      "env": {"CUDA_VISIBLE_DEVICES": g}}}
               for g in resolve_gpus(gpus)}
    scheduler = {"cls": Scheduler, "options": {"host": "127.0.0.1", "dashboard_address": "127.0.0.1:0"}}
    return SpecCluster(workers=workers, scheduler=scheduler, **kwargs)


def make_task_runner(runner: RunnerConfig):
    if runner.kind == "thread":
        if runner.gpus:
            raise ConfigError("runner.gpus needs runner.kind=dask (one worker process per GPU)")
        if runner.max_workers < 1:
            raise ConfigError(f"runner.max_workers must be >= 1, got {runner.max_workers}")
        return ThreadPoolTaskRunner(max_workers=runner.max_workers)
    if runner.kind != "dask":
        raise ConfigError(f"runner.kind must be thread or dask, got {runner.kind!r}")
    from prefect_dask import DaskTaskRunner

    if runner.dask_address:
        return DaskTaskRunner(address=runner.dask_address)
    if runner.gpus:
        return DaskTaskRunner(cluster_class=gpu_cluster, cluster_kwargs={
            "gpus": runner.gpus, "threads_per_worker": runner.dask_threads_per_worker})
    return DaskTaskRunner(cluster_class="distributed.LocalCluster", cluster_kwargs={
        "n_workers": runner.dask_workers, "threads_per_worker": runner.dask_threads_per_worker,
        "processes": True, "host": "127.0.0.1", "dashboard_address": "127.0.0.1:0"})


# -- the flow ----------------------------------------------------------------------------------------------------------
@dataclass
class _Submitted:
    ref: ChunkRef
    spec: AugmenterSpec
    key: str
    future: PrefectFuture


@flow(name=FLOW_NAME, description="Augment a corpus into a view-pair dataset: one cached, retried task per "
                                   "(chunk, method), then the manifest and dataset card.")
def augment_flow(corpus: str, out_dir: str, config_file: str = "", augment: dict[str, Any] | None = None,
                 overrides: list[str] | None = None, tasks: dict[str, Any] | None = None) -> dict[str, Any]:
    """Parameters are plain data (a deployment can store them): `augment`/`overrides` are AugmentConfig keys,
    `tasks` TaskConfig keys. Returns a summary: manifest path, pairs, shards, task states."""
    config = resolve_augment_config(config_file, augment, overrides)
    task_config = from_dict(TaskConfig, tasks or {}, prefix="tasks")
    return _run(corpus, out_dir, config, task_config)


def _run(corpus: str, out_dir: str, config: AugmentConfig, task_config: TaskConfig) -> dict[str, Any]:
    from tqdm import tqdm

    logger = get_run_logger()
    t0 = time.perf_counter()
    _check_workers_reach_api()
    if not corpus or not out_dir:
        raise BSLError("the augment flow needs a corpus and an out_dir")
    corpus_path = Path(corpus).expanduser().resolve()
    out = Path(out_dir).expanduser().resolve()
    out.mkdir(parents=True, exist_ok=True)
    storage = (Path(task_config.result_storage).expanduser().resolve() if task_config.result_storage
               else out / WORK_DIR / RESULTS_DIR)

    augmenters = build_augmenters(config)
    specs = {}
    for method, augmenter in augmenters.items():
        specs[method] = AugmenterSpec(method, REGISTRY[method], augmenter.params(), augmenter.fingerprint_hash())
        adopt_augmenter(specs[method], augmenter)
    task = make_augment_task(task_config, storage)

    stats = CorpusStats()
    chunks: list[ChunkRef] = []
    results: list[TaskResult] = []
    states: Counter = Counter()
    failures: list[str] = []
    pending: deque[_Submitted] = deque()
    method_filters = {m: filters_for(config, a) for m, a in augmenters.items()}
    timings = {"read_chunk_s": 0.0, "wait_s": 0.0}
    disable = not config.progress or os.environ.get("BSL_NO_PROGRESS") == "1"
    bar = tqdm(desc="augment (flow)", unit="rec", total=None, disable=disable)

    def submit(item_ref: ChunkRef, spec: AugmenterSpec, key: str, t: Task = task) -> PrefectFuture:
        return t.submit(ref=item_ref, spec=spec, key=key, dataset_dir=str(out), seed=config.seed,
                        filters=method_filters[spec.method], batch_size=config.batch_size,
                        concurrent_calls=task_config.concurrent_augmenter_calls)

    def collect(item: _Submitted) -> None:
        wait_start = time.perf_counter()
        try:
            payload = item.future.result()
            state_name = item.future.state.name
            if load_task_result(out, payload["task_key"]) is None:
                # A cached record whose shards are gone (e.g. .work/tasks cleaned): compute it again.
                logger.warning("cached result of %s has no files on disk; recomputing", item.key)
                payload = submit(item.ref, item.spec, item.key, task.with_options(refresh_cache=True)).result()
                state_name = "Recomputed"
        except Exception as exc:  # after retries; keep collecting so finished tasks are kept for the rerun
            failures.append(f"chunk {item.ref.chunk_id} ({item.ref.file} #{item.ref.index_in_file}) x "
                            f"{item.spec.method}: {type(exc).__name__}: {exc}")
            states["Failed"] += 1
            return
        finally:
            timings["wait_s"] += time.perf_counter() - wait_start
        result = TaskResult(**payload)
        result.cached = result.cached or state_name == "Cached"
        states[state_name] += 1
        results.append(result)
        if item.spec.method == config.methods[0]:
            bar.update(item.ref.rows)

    read_start = time.perf_counter()
    for chunk in iter_chunks(corpus_path, config.corpus, stats):
        ref = write_chunk(chunk, out)
        del chunk  # only the ChunkRef travels on; the records are on disk
        chunks.append(ref)
        timings["read_chunk_s"] += time.perf_counter() - read_start
        for method, spec in specs.items():
            key = task_key(ref.chunk_id, augmenters[method], config.seed, method_filters[method])
            pending.append(_Submitted(ref, spec, key, submit(ref, spec, key)))
        # Back-pressure before the next chunk is read (1 = strictly one task at a time, the plain loop's order).
        while task_config.max_in_flight and len(pending) >= task_config.max_in_flight:
            collect(pending.popleft())
        read_start = time.perf_counter()
    while pending:
        collect(pending.popleft())
    bar.close()
    if failures:
        raise BSLError(f"{len(failures)} of {len(failures) + len(results)} augmentation tasks failed after "
                       f"{task_config.retries} retries (finished tasks are kept: rerun to resume); first: "
                       f"{failures[0]}")
    if not chunks:
        raise BSLError(f"{corpus}: no records to augment")
    timings = {k: round(v, 3) for k, v in timings.items()}
    timings["total_s"] = round(time.perf_counter() - t0, 3)
    manifest = finalize_dataset(out, config, corpus_path, stats, chunks, results, augmenters, timings)
    from prefect.runtime import flow_run

    summary = {
        "flow_run_id": str(flow_run.id),
        "manifest": str(out / "manifest.json"),
        "name": manifest["name"],
        "pairs": manifest["stats"]["pairs"],
        "shards": len([s for s in manifest["shards"] if s["kind"] == "pairs"]),
        "chunks": len(chunks),
        "tasks": len(results),
        "task_states": dict(sorted(states.items())),
        "computed": sum(not r.cached for r in results),
        "result_storage": str(storage),
        "total_s": round(time.perf_counter() - t0, 3),
    }
    logger.info("dataset %s: %d pairs in %d shards; %d tasks (%s)", summary["name"], summary["pairs"],
                summary["shards"], summary["tasks"], ", ".join(f"{k}: {v}" for k, v in summary["task_states"].items()))
    _publish_summary(manifest)
    return summary


def _check_workers_reach_api() -> None:
    from prefect.context import FlowRunContext
    from prefect.settings import get_current_settings

    ctx = FlowRunContext.get()
    runner = getattr(ctx, "task_runner", None)
    if runner is not None and not isinstance(runner, ThreadPoolTaskRunner) and not get_current_settings().api.url:
        raise BSLError("the Dask runner needs a Prefect API its worker processes can reach: set PREFECT_API_URL "
                       "(e.g. a `prefect server start --host 127.0.0.1`), or start the flow with "
                       "flows.augment_flow.run_augment_flow / `bsl flow augment`, which start a temporary server")


def _publish_summary(manifest: dict[str, Any]) -> None:
    """The per-method statistics as a markdown artifact on the flow run (visible in the UI)."""
    import re

    from prefect.artifacts import create_markdown_artifact

    from pipeline.inspect import format_stats_text

    key = re.sub(r"[^a-z0-9-]+", "-", f"bsl-augment-{manifest['name']}".lower()).strip("-")[:100]
    create_markdown_artifact(
        key=key, description=f"augmentation statistics of {manifest['name']}",
        markdown=f"# Dataset `{manifest['name']}`\n\n{manifest['stats']['pairs']} pairs, manifest "
                 f"`{manifest['dataset_dir']}/manifest.json`\n\n```\n{format_stats_text(manifest)}\n```\n")


# -- entry points ------------------------------------------------------------------------------------------------------
def build_augment_flow(runner: RunnerConfig | None = None):
    """`augment_flow` with the task runner `runner` describes (what deployments serve and the CLI runs)."""
    return augment_flow.with_options(task_runner=make_task_runner(runner or RunnerConfig()))


def check_augment_spec(spec: AugmentFlowConfig) -> AugmentConfig:
    """Fail early (before any Prefect run) on a missing corpus/out_dir or a bad AugmentConfig/TaskConfig."""
    if not spec.corpus or not spec.out_dir:
        raise ConfigError("augment flow: corpus and out_dir are required")
    config = resolve_augment_config(spec.config_file, spec.augment, spec.overrides)
    build_augmenters(config)  # unknown methods / bad method params
    make_task_runner(spec.runner)
    return config


@contextmanager
def api_for_worker_processes(runner: RunnerConfig) -> Iterator[None]:
    """Dask workers are other processes and must report to the flow's Prefect API. Without PREFECT_API_URL each
    of them would start its own temporary server (on the same database) and time out; so start the temporary
    server here, before the flow, and hand its URL to the flow and, through the task context, to the workers."""
    from prefect.settings import PREFECT_API_URL, get_current_settings, temporary_settings

    if runner.kind != "dask" or get_current_settings().api.url:
        yield
        return
    from prefect.server.api.server import SubprocessASGIServer

    server = SubprocessASGIServer()
    server.start()  # stopped at interpreter exit, as Prefect does with its own temporary server
    with temporary_settings({PREFECT_API_URL: server.api_url}):
        yield


def run_augment_flow(spec: AugmentFlowConfig) -> dict[str, Any]:
    """Run the flow once in this process (a temporary Prefect server unless PREFECT_API_URL is set)."""
    check_augment_spec(spec)
    with api_for_worker_processes(spec.runner):
        return build_augment_flow(spec.runner)(**flow_parameters(spec))
