"""How the augmentation loop's (chunk, method) tasks run. The loop itself is `pipeline.augment.job.run_augment`.

`run_augment` reads the corpus, writes each chunk, and hands every (chunk, method) pair to an executor as an
`AugmentTask`; the executor decides only where and when the task runs. `next_result` gives the results back in
the order the tasks were submitted, so every executor writes the same files and the same manifest:

- `SerialExecutor`: each task runs in the calling thread, one after the other (what `bsl augment` uses).
- `ThreadExecutor`: a thread pool in this process; reading the next chunk overlaps augmentation.
- the Prefect flow's executor (in the flows layer): each task a cached, retried Prefect task on the flow's task
  runner (Prefect's thread pool, or Dask worker processes through prefect-dask, one per GPU if asked).

An executor that keeps going after a failed task (`stop_on_failure = False`) raises `TaskFailed` for it from
`next_result`; the loop then collects the other tasks and fails at the end naming the first failure, keeping every
finished task for the rerun.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter
from bsl_pipeline.pipeline.augment.filters import FilterConfig
from bsl_pipeline.pipeline.augment.tasks import ChunkRef, TaskResult, augment_chunk, cancel_running_tasks
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.storage import StorageConfig, use_storage


@dataclass(frozen=True)
class AugmentTask:
    """One (chunk, method) unit of work: everything it needs except the augmenter, which the executor supplies."""

    chunk: ChunkRef
    method: str
    key: str  # `pipeline.augment.tasks.task_key`: what the result is cached under
    dataset_dir: str
    seed: int
    filters: FilterConfig
    batch_size: int
    #: How a worker reaches a dataset dir that is a URL (no credentials: those come from the worker's environment).
    storage: StorageConfig | None = None

    def describe(self) -> str:
        return f"chunk {self.chunk.chunk_id} ({self.chunk.file} #{self.chunk.index_in_file}) x {self.method}"


class TaskFailed(BSLError):
    """A task failed (after the executor's retries) and the executor lets the loop carry on with the others."""

    def __init__(self, task: AugmentTask, cause: BaseException):
        super().__init__(f"{task.describe()}: {type(cause).__name__}: {cause}")
        self.task = task


def run_task(task: AugmentTask, augmenter: Augmenter) -> TaskResult:
    """Run one task with `augmenter` (`pipeline.augment.tasks.augment_chunk`); the same in every executor and process."""
    if task.storage is not None:
        use_storage(task.storage)
    result = augment_chunk(task.chunk, augmenter, task.dataset_dir, task.seed, task.filters, task.batch_size)
    if result.task_key != task.key:
        raise BSLError(f"task key mismatch for {task.describe()}: expected {task.key}, this augmenter gives "
                       f"{result.task_key} (different models, params or code)")
    return result


class Executor(ABC):
    """Runs `AugmentTask`s for `run_augment`: `submit` each task, then `next_result` returns the oldest one's
    result. `run_augment` calls `open` before the first task and `close` after the last (also on errors)."""

    #: True: a failed task's exception ends the job at once. False: `next_result` raises `TaskFailed` for it.
    stop_on_failure: bool = True
    #: Added to the loop's "N of M tasks failed" message (e.g. " after 2 retries").
    failure_note: str = ""

    def __init__(self, max_in_flight: int = 1):
        #: The loop reads the next chunk only while fewer submitted tasks than this are unfinished (0 = no limit).
        self.max_in_flight = max_in_flight
        self.augmenters: dict[str, Augmenter] = {}
        self._pending: deque[tuple[AugmentTask, Any]] = deque()

    def open(self, augmenters: dict[str, Augmenter]) -> None:
        self.augmenters = dict(augmenters)
        self._pending.clear()

    def close(self) -> None:
        """Release what `open` started; tasks not collected yet are abandoned."""

    def submit(self, task: AugmentTask) -> None:
        self._pending.append((task, self._start(task)))

    def cancel(self, interrupted: bool) -> None:
        """The job ends early (an error, or Ctrl-C/SIGTERM when `interrupted`): tasks not started never start, and
        after an interrupt the ones running in this process stop at their next batch (`close` then waits for
        them), so an interrupt ends the job in about one batch's time however many tasks were queued."""
        if interrupted:
            cancel_running_tasks()
        while self._pending:
            _, handle = self._pending.pop()
            self._cancel(handle)

    def _cancel(self, handle: Any) -> None:
        """Withdraw a submitted task that has not started (no-op where nothing is queued)."""

    def pending(self) -> int:
        return len(self._pending)

    def full(self) -> bool:
        return bool(self.max_in_flight) and len(self._pending) >= self.max_in_flight

    def next_result(self) -> tuple[AugmentTask, TaskResult]:
        """The oldest submitted task and its result; blocks until it is done."""
        task, handle = self._pending.popleft()
        try:
            return task, self._result(task, handle)
        except Exception as exc:
            if self.stop_on_failure:
                raise
            raise TaskFailed(task, exc) from exc

    @abstractmethod
    def _start(self, task: AugmentTask) -> Any:
        """Start `task` (or not yet); returns the handle `_result` gets."""

    @abstractmethod
    def _result(self, task: AugmentTask, handle: Any) -> TaskResult:
        """Wait for `task` (or run it now) and return its result."""


class SerialExecutor(Executor):
    """Each task runs in the calling thread when its result is asked for: one at a time, in order."""

    def _start(self, task: AugmentTask) -> None:
        return None

    def _result(self, task: AugmentTask, handle: None) -> TaskResult:
        return run_task(task, self.augmenters[task.method])


class ThreadExecutor(Executor):
    """A pool of `max_workers` threads in this process. Models load once per method; an augmenter instance runs
    one call at a time unless `concurrent_calls` (only for thread-safe augmenters), so different methods, and
    reading the next chunk, overlap."""

    def __init__(self, max_workers: int = 2, max_in_flight: int = 16, concurrent_calls: bool = False):
        if max_workers < 1:
            raise BSLError(f"ThreadExecutor: max_workers must be >= 1, got {max_workers}")
        super().__init__(max_in_flight)
        self.max_workers = max_workers
        self.concurrent_calls = concurrent_calls
        self._pool: ThreadPoolExecutor | None = None
        self._locks: dict[str, threading.Lock] = {}

    def open(self, augmenters: dict[str, Augmenter]) -> None:
        super().open(augmenters)
        self._locks = {method: threading.Lock() for method in self.augmenters}
        self._pool = ThreadPoolExecutor(max_workers=self.max_workers, thread_name_prefix="augment")

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def _start(self, task: AugmentTask) -> Future:
        if self._pool is None:
            raise BSLError("ThreadExecutor: submit before open")
        return self._pool.submit(self._run, task)

    def _run(self, task: AugmentTask) -> TaskResult:
        augmenter = self.augmenters[task.method]
        with self._locks[task.method]:
            augmenter.ensure_ready()  # under the lock: models load once even when several threads start together
            if not self.concurrent_calls:
                return run_task(task, augmenter)
        return run_task(task, augmenter)

    def _cancel(self, handle: Future) -> None:
        handle.cancel()

    def _result(self, task: AugmentTask, handle: Future) -> TaskResult:
        return handle.result()
