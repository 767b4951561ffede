"""The trainer's input pipeline: this process's slice of each global batch, tokenised (the objective's `collate`),
padded to a length bucket, pinned, and handed over in training order; optionally made in worker processes so that
reading, mixing and tokenising the next batches overlap the current step.

    loader = BatchLoader(source, BatchPreparer(...), workers=2, prefetch=4, pin_memory=True)
    ready = loader.next()          # ReadyBatch: features, token counts, the data position after this batch
    loader.close()

Order and resumption do not depend on the number of workers. With W workers (a torch DataLoader over an
iterable), worker w owns global batches w, w+W, w+2W, ... counted from where the loader starts: every worker
reads and mixes the whole stream (cheap next to tokenising), tokenises only its own batches, and the DataLoader
hands them out round-robin, i.e. in stream order. Every batch travels with the data position after it, so the
trainer checkpoints the position of what it trained on, not of what the workers have read ahead. The randomness
of collation (Mirror's span masks) is seeded by the batch's global index (= step * grad_accum_steps + micro),
as the serial trainer always did. Workers are forked (nothing is pickled) and each opens the datasets afresh:
`new_source()` restored to the loader's start position, so no open file or reader is shared between processes.
Where fork is unavailable the loader works in-process.
"""

from __future__ import annotations

import logging
import multiprocessing
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import torch

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.token_batches import bucket_length, pad_right
from bsl_pipeline.training.batch_source import BatchSource

log = logging.getLogger(__name__)

Features = dict[str, dict[str, torch.Tensor]]


class ReadyBatch(NamedTuple):
    features: Features           # per view: input_ids, attention_mask, ... (CPU, pinned when asked)
    tokens: int                  # non-padding tokens over all views
    padded_tokens: int           # tokens including padding (what the model computes on)
    position: dict[str, Any]     # BatchSource.position after this batch


@dataclass
class BatchPreparer:
    """Global batch -> this rank's collated slice. `collate(view1, view2, rng)` is the objective's."""

    collate: Callable[[Sequence[str], Sequence[str], random.Random], Features]
    seed: int
    rank: int
    local_batch: int
    grad_accum_steps: int
    buckets: Sequence[int] = ()
    max_length: int = 0
    pad_id: int = 0

    def __call__(self, index: int, view1: list[str], view2: list[str]) -> tuple[Features, int, int]:
        lo, hi = self.rank * self.local_batch, (self.rank + 1) * self.local_batch
        step, micro = divmod(index, self.grad_accum_steps)
        rng = random.Random(f"bsl-collate:{self.seed}:{step}:{micro}:{self.rank}")
        features = self.collate(view1[lo:hi], view2[lo:hi], rng)
        if self.buckets:
            # One padded length for all views of a batch: a compiled step then meets one shape per bucket.
            longest = max(f["attention_mask"].shape[1] for f in features.values())
            length = bucket_length(longest, self.buckets, self.max_length)
            features = {k: pad_right(f, length, self.pad_id) for k, f in features.items()}
        tokens = sum(int(f["attention_mask"].sum()) for f in features.values())
        padded = sum(f["attention_mask"].numel() for f in features.values())
        return features, tokens, padded


class _ReadyBatches(torch.utils.data.IterableDataset):
    """The endless sequence of ReadyBatch from a BatchSource; in a worker, only that worker's share, from its own
    source restored to `start`."""

    def __init__(self, source: BatchSource, prepare: BatchPreparer, new_source: Callable[[], BatchSource],
                 start: dict[str, Any]):
        self.source = source
        self.prepare = prepare
        self.new_source = new_source
        self.start = start

    def __iter__(self) -> Iterator[ReadyBatch | BSLError]:
        info = torch.utils.data.get_worker_info()
        workers, me = (1, 0) if info is None else (info.num_workers, info.id)
        k = 0
        try:
            source = self.source if info is None else self._own_source()
            while True:
                index = source.batches
                view1, view2 = source.next_batch()
                if k % workers == me:
                    yield ReadyBatch(*self.prepare(index, view1, view2), source.position)
                k += 1
        except BSLError as exc:
            # Handed over as an item: the trainer re-raises it with its own message (a DataLoader would wrap it
            # in a worker traceback).
            yield exc

    def _own_source(self) -> BatchSource:
        source = self.new_source()
        if self.start.get("batches") or self.start.get("pairs_drawn"):
            source.restore(self.start)
        return source


class BatchLoader:
    """Ready batches from `source`, serially (workers=0) or from forked worker processes with prefetch; a worker
    reads from `new_source()` (a fresh BatchSource like `source`) moved to where `source` stands."""

    def __init__(self, source: BatchSource, prepare: BatchPreparer, *, new_source: Callable[[], BatchSource],
                 workers: int = 0, prefetch: int = 2, pin_memory: bool = False):
        self.position = source.position
        dataset = _ReadyBatches(source, prepare, new_source, self.position)
        if workers > 0 and "fork" not in multiprocessing.get_all_start_methods():
            log.warning("data.workers=%d needs the fork start method, which this platform lacks; the input "
                        "pipeline runs in the training process", workers)
            workers = 0
        self.workers = workers
        if workers == 0 and not pin_memory:
            self._loader = None
            self._it: Iterator[Any] = iter(dataset)
            return
        self._loader = torch.utils.data.DataLoader(
            dataset, batch_size=None, num_workers=workers, pin_memory=pin_memory,
            prefetch_factor=prefetch if workers else None, in_order=True,
            multiprocessing_context="fork" if workers else None,
            # Its own generator: a DataLoader draws worker seeds from the one it is given, and drawing from the
            # global one would shift dropout (we seed nothing in the workers; collation is seeded per batch).
            generator=torch.Generator(), worker_init_fn=_forget_parent_thread_exits if workers else None)
        self._it = iter(self._loader)

    def next(self) -> ReadyBatch:
        item = next(self._it)
        if isinstance(item, BSLError):
            raise item
        self.position = item.position
        return item

    def close(self) -> None:
        """Stop the workers (the DataLoader iterator shuts them down when it is released)."""
        self._it = iter(())
        self._loader = None


def _forget_parent_thread_exits(worker_id: int) -> None:
    """A forked worker inherits the exit callbacks the parent's threads registered (Prefect's services do, when
    training runs inside a flow); run in the worker they fail, the worker ends with exit code 1 and the DataLoader
    takes the whole run down. They belong to the parent: drop them in the worker."""
    callbacks = getattr(threading, "_threading_atexits", None)
    if isinstance(callbacks, list):
        callbacks.clear()
