"""The Prefect executor of the augmentation loop (`pipeline.augment.job.run_augment`) and the task runners it runs on.

- **Tasks**: each (chunk, method) task is a Prefect task run: retried with exponential backoff, its result (the
  library's `TaskResult` as plain JSON) persisted under `tasks.result_storage` and cached under
  `pipeline.augment.tasks.task_key` + a hash of the dataset directory, so a rerun in a new process finds it `Cached`
  without calling the augmenter. The persisted records are untrusted input (`flows.result_cache`): one naming
  another serializer, or not parsing, is discarded unread and the task runs again. A cached task's files come from
  the library's completion marker, never from the record; one whose shards were deleted is recomputed.
- **Runners**: Prefect's thread pool in the flow process (default), or Dask through prefect-dask: a local cluster
  of worker processes, an existing cluster (`runner.dask_address`; the dataset directory must then be on a shared
  filesystem), or one worker per GPU (`runner.gpus`, each worker started with `CUDA_VISIBLE_DEVICES=<its GPU>` so
  `device: auto` in the augmenter picks exactly that GPU).
- **Models once per worker**: tasks carry an `AugmenterSpec` (method, class, params, fingerprint), never a model;
  each worker process builds an augmenter once per (method, fingerprint) and loads its models once
  (`worker_augmenter`). With the thread runner the flow process is the worker and reuses the flow's instances.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from prefect import Task, get_run_logger
from prefect.cache_policies import NO_CACHE
from prefect.futures import PrefectFuture
from prefect.task_runners import ThreadPoolTaskRunner
from prefect.tasks import exponential_backoff

from bsl_pipeline.flows.augment_job import RunnerConfig, TaskConfig
from bsl_pipeline.flows.result_cache import discard_untrusted_record, pinned_serializer
from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter
from bsl_pipeline.pipeline.augment.executors import AugmentTask, Executor, run_task
from bsl_pipeline.pipeline.augment.tasks import TaskResult, load_task_result
from bsl_pipeline.pipeline.base.config import ConfigError
from bsl_pipeline.pipeline.base.errors import BSLError


# -- augmenters on workers ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AugmenterSpec:
    """What a worker needs to build an augmenter: no model objects travel with tasks. The class travels by
    reference (its module is imported on the worker), so augmenters registered at run time work too."""

    method: str
    augmenter_class: type[Augmenter]
    params: dict[str, Any] = field(hash=False)
    fingerprint: str
    progress: bool = True  # the job's `progress` (`Augmenter.progress`)

    @classmethod
    def of(cls, method: str, augmenter: Augmenter) -> "AugmenterSpec":
        return cls(method, type(augmenter), augmenter.params(), augmenter.fingerprint_hash(), augmenter.progress)

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
            augmenter = spec.augmenter_class(dict(spec.params))
            got = augmenter.fingerprint_hash()
            if got != spec.fingerprint:
                raise BSLError(f"method {spec.method!r}: this worker's augmenter has fingerprint {got}, the flow's "
                               f"{spec.fingerprint} (different models, params or code on this worker)")
            _AUGMENTERS[spec.key] = augmenter
        augmenter.progress = spec.progress  # the job's setting, not part of the key: the latest job's applies
        augmenter.ensure_ready()  # idempotent; under the lock so models load once even with several threads
    return augmenter


# -- the Prefect task --------------------------------------------------------------------------------------------------
def _dir_hash(path: str) -> str:
    from bsl_pipeline.pipeline.base.storage import is_url

    return hashlib.sha256((path if is_url(path) else str(Path(path).resolve())).encode()).hexdigest()[:8]


def cache_key(context: Any, parameters: dict[str, Any]) -> str:
    """Prefect cache key: the library's task key + the dataset dir (a cached result names files inside it)."""
    task: AugmentTask = parameters["task"]
    return f"bsl-{task.key}-d{_dir_hash(task.dataset_dir)}"


@dataclass(frozen=True)
class TrustedCacheKey:
    """The tasks' cache key function: `cache_key`, after discarding an untrusted record stored under that key
    (`flows.result_cache`), so Prefect never deserialises one. Runs wherever the task runs (Dask workers too)."""

    result_storage: str
    max_record_bytes: int = 1 << 20  # a record holds one TaskResult (~1 KB)

    def __call__(self, context: Any, parameters: dict[str, Any]) -> str:
        key = cache_key(context, parameters)
        discard_untrusted_record(Path(self.result_storage) / key, self.max_record_bytes, get_run_logger())
        return key


def augment_chunk_task_fn(task: AugmentTask, spec: AugmenterSpec, concurrent_calls: bool = False) -> dict[str, Any]:
    """One (chunk, method) task with this worker's augmenter (`pipeline.augment.executors.run_task`). Returns the
    TaskResult as a plain dict (persisted as JSON)."""
    augmenter = worker_augmenter(spec)
    with nullcontext() if concurrent_calls else _locks(spec.key)[1]:
        return asdict(run_task(task, augmenter))


def make_augment_task(tasks: TaskConfig, result_storage: Path | None) -> Task:
    options: dict[str, Any] = dict(
        name="augment-chunk", task_run_name="augment-{task.method}-{task.chunk.chunk_id}",
        retries=tasks.retries, retry_jitter_factor=0.2 if tasks.retries else None,
        retry_delay_seconds=exponential_backoff(backoff_factor=tasks.retry_delay_s) if tasks.retries else 0,
    )
    if tasks.cache:
        options.update(cache_key_fn=TrustedCacheKey(str(result_storage)), persist_result=True,
                       result_storage=result_storage, result_serializer=pinned_serializer(),
                       cache_result_in_memory=False)
    else:
        options.update(cache_policy=NO_CACHE, persist_result=False)
    return Task(fn=augment_chunk_task_fn, **options)


class PrefectExecutor(Executor):
    """Each task a Prefect task run on the task runner of the flow run that calls `run_augment`; counts the task
    states (Completed, Cached, Recomputed, Failed). A failed task (after its retries) does not stop the others."""

    stop_on_failure = False

    def __init__(self, tasks: TaskConfig, result_storage: Path | None):  # None: tasks.cache is off
        super().__init__(max_in_flight=tasks.max_in_flight)
        self.failure_note = f" after {tasks.retries} retries"
        self.concurrent_calls = tasks.concurrent_augmenter_calls
        self.task = make_augment_task(tasks, result_storage)
        self.specs: dict[str, AugmenterSpec] = {}
        self.states: Counter = Counter()

    def open(self, augmenters: dict[str, Augmenter]) -> None:
        super().open(augmenters)
        self.specs = {method: AugmenterSpec.of(method, a) for method, a in self.augmenters.items()}
        for method, spec in self.specs.items():
            adopt_augmenter(spec, self.augmenters[method])

    def _start(self, task: AugmentTask, refresh_cache: bool = False) -> PrefectFuture:
        prefect_task = self.task.with_options(refresh_cache=True) if refresh_cache else self.task
        return prefect_task.submit(task=task, spec=self.specs[task.method], concurrent_calls=self.concurrent_calls)

    def _cancel(self, handle: PrefectFuture) -> None:
        handle.wrapped_future.cancel()  # a thread pool's or Dask's future: withdrawn unless already running

    def _result(self, task: AugmentTask, handle: PrefectFuture) -> TaskResult:
        try:
            payload, state = handle.result(), handle.state.name
            # A cache hit only says "done": what the task wrote is read from its completion marker, as `bsl
            # augment` reads it, never from the record (which could name any file).
            result = load_task_result(task.dataset_dir, task.key) if state == "Cached" else TaskResult(**payload)
            if result is None:
                # A cached record whose shards are gone (e.g. .work/tasks cleaned): compute it again.
                get_run_logger().warning("cached result of %s has no files on disk; recomputing", task.key)
                result, state = TaskResult(**self._start(task, refresh_cache=True).result()), "Recomputed"
        except Exception:
            self.states["Failed"] += 1
            raise
        self.states[state] += 1
        return result


# -- task runners ------------------------------------------------------------------------------------------------------
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


_SCRATCH: list[tempfile.TemporaryDirectory] = []  # the private scratch folders of this process' local clusters


def private_scratch_directory() -> str:
    """A new folder only this user can enter (mode 0700), for a local cluster's scratch space; removed when this
    process exits. Dask puts its scheduler's and workers' scratch folders first on their processes' `sys.path`, and
    by default takes `$TMPDIR/dask-scratch-space` whenever that exists and is writable: in a shared /tmp it may be
    another user's folder, holding modules of theirs that the cluster would import."""
    scratch = tempfile.TemporaryDirectory(prefix="bsl-dask-")
    _SCRATCH.append(scratch)
    return scratch.name


def local_cluster(local_directory: str | None = None, **kwargs: Any):
    """Dask's LocalCluster (`kwargs` as its own), its scheduler and workers with scratch space in `local_directory`
    (a private folder of its own when none is given), made when the cluster starts."""
    from distributed import LocalCluster

    scratch = local_directory or private_scratch_directory()
    return LocalCluster(local_directory=scratch, scheduler_kwargs={"local_directory": scratch}, **kwargs)


def gpu_cluster(gpus: str = "auto", threads_per_worker: int = 1, local_directory: str | None = None, **kwargs: Any):
    """A local Dask cluster with one worker process per GPU; worker i runs with CUDA_VISIBLE_DEVICES=<gpu i>, so
    it sees exactly one device (cuda:0 inside the worker) and loads its models there once. Scratch space goes to
    `local_directory` (a private folder of its own when none is given)."""
    from distributed import Nanny, Scheduler, SpecCluster

    scratch = local_directory or private_scratch_directory()
    workers = {f"gpu-{g}": {"cls": Nanny, "options": {"nthreads": threads_per_worker, "local_directory": scratch,
                                                      "env": {"CUDA_VISIBLE_DEVICES": g}}}
               for g in resolve_gpus(gpus)}
    scheduler = {"cls": Scheduler, "options": {"host": "127.0.0.1", "dashboard_address": "127.0.0.1:0",
                                               "local_directory": scratch}}
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
    return DaskTaskRunner(cluster_class=local_cluster, cluster_kwargs={
        "n_workers": runner.dask_workers, "threads_per_worker": runner.dask_threads_per_worker,
        "processes": True, "host": "127.0.0.1", "dashboard_address": "127.0.0.1:0"})


def check_workers_reach_api() -> None:
    """Inside a flow run: fail early when a Dask runner's worker processes would have no Prefect API to report to."""
    from prefect.context import FlowRunContext
    from prefect.settings import get_current_settings

    ctx = FlowRunContext.get()
    runner = getattr(ctx, "task_runner", None)
    if runner is not None and not isinstance(runner, ThreadPoolTaskRunner) and not get_current_settings().api.url:
        raise BSLError("the Dask runner needs a Prefect API its worker processes can reach: set PREFECT_API_URL "
                       "(e.g. a `prefect server start --host 127.0.0.1`), or start the flow with "
                       "bsl_pipeline.flows.augment_run.run_augment_flow / `bsl flow augment`, which start a temporary server")


def check_api_for_cluster(runner: RunnerConfig) -> None:
    """An existing Dask cluster (`dask_address`) needs PREFECT_API_URL: its workers, on other machines or living on
    after this command, would report to a temporary server on this machine's loopback that is not theirs, or that
    is gone after the run (their task runs lost). A local cluster ends with the command: the temporary server
    serves it (`api_for_worker_processes`)."""
    from prefect.settings import get_current_settings

    if runner.kind == "dask" and runner.dask_address and not get_current_settings().api.url:
        raise BSLError(f"--dask-address {runner.dask_address}: the workers of an existing Dask cluster report task "
                       f"states to the Prefect API, and without PREFECT_API_URL this command's temporary server "
                       f"listens on this machine's loopback and ends with it: set PREFECT_API_URL (or --api-url) to "
                       f"a `prefect server start` every machine reaches "
                       f"(docs/guide/flows.md#running-on-a-dask-cluster-across-machines)")


@contextmanager
def api_for_worker_processes(runner: RunnerConfig) -> Iterator[None]:
    """Dask workers are other processes and must report to the flow's Prefect API. Without PREFECT_API_URL each
    of them would start its own temporary server (on the same database) and time out; so start the temporary
    server here, before the flow, and hand its URL to the flow and, through the task context, to the workers (of a
    local cluster: an existing one is refused without PREFECT_API_URL, `check_api_for_cluster`)."""
    from prefect.settings import (
        PREFECT_API_URL,
        get_current_settings,
        temporary_settings,
    )

    check_api_for_cluster(runner)
    if runner.kind != "dask" or get_current_settings().api.url:
        yield
        return
    from bsl_pipeline.flows.prefect_env import temporary_server

    with temporary_server() as api_url, temporary_settings({PREFECT_API_URL: api_url}):
        yield
