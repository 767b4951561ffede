"""Global training batches in order: plain slices of the pair stream, or length-grouped inside a shuffle window.

`BatchSource` turns the endless `PairStream` into batches of `batch_size` (view1, view2) pairs:

- grouping off (`data.length_grouping_window` 0 or 1): batch i is pairs [i*B, (i+1)*B) of the stream, as always;
- grouping on (window W): the stream is cut into windows of W*B pairs; the pairs of a window are sorted by length
  (characters of the longer view), cut into W batches of similar lengths, and those batches are taken in an order
  shuffled by (seed, window number). Which pairs a run sees, and when (to within a window), is still the shuffled
  stream's; only which pairs share a batch changes, so there is less padding.

`position` is what a checkpoint records: the stream position at the start of the current window plus the number
of batches already taken from it (`window_offset`; always 0 without grouping, where the position is the stream's
own, as before). `restore` replays the stream to the window start, rebuilds the window and skips those batches,
so a resumed run takes exactly the batches an uninterrupted one would.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from bsl_pipeline.training.data import PairStream

Batch = tuple[list[str], list[str]]


class BatchSource:
    def __init__(self, stream: PairStream, batch_size: int, window: int = 0, seed: int = 0):
        self.stream = stream
        self.batch_size = batch_size
        self.window = max(1, window)
        self.seed = seed
        self.batches = 0  # global batches taken so far
        self._pending: deque[Batch] = deque()
        self._window_start: dict[str, Any] = {}
        self._window_first_batch = 0

    @property
    def grouping(self) -> bool:
        return self.window > 1

    def next_batch(self) -> Batch:
        """The next global batch (view1 texts, view2 texts)."""
        if not self.grouping:
            batch = self.stream.next_batch(self.batch_size)
        else:
            if not self._pending:
                self._window_start = self.stream.position
                self._window_first_batch = self.batches
                self._pending = deque(self._grouped_window(self.batches // self.window))
            batch = self._pending.popleft()
        self.batches += 1
        return batch

    def _grouped_window(self, number: int) -> list[Batch]:
        v1, v2 = self.stream.next_batch(self.window * self.batch_size)
        order = sorted(range(len(v1)), key=lambda i: (max(len(v1[i]), len(v2[i])), i))
        size = self.batch_size
        batches = [([v1[i] for i in order[k:k + size]], [v2[i] for i in order[k:k + size]])
                   for k in range(0, len(order), size)]
        random.Random(f"bsl-length-groups:{self.seed}:{number}").shuffle(batches)
        return batches

    @property
    def pairs_used(self) -> int:
        """Pairs in the batches taken so far (the stream may have read up to a window further)."""
        return self.batches * self.batch_size

    @property
    def position(self) -> dict[str, Any]:
        if self._pending:
            return {**self._window_start, "batches": self.batches,
                    "window_offset": self.batches - self._window_first_batch}
        return {**self.stream.position, "batches": self.batches, "window_offset": 0}

    def restore(self, position: dict[str, Any]) -> None:
        """Continue from a recorded `position` (a fresh source only); checkpoints written before batches were
        counted hold the stream position alone, which is a batch boundary without grouping."""
        self.stream.restore(position)
        offset = int(position.get("window_offset", 0))
        self.batches = int(position.get("batches", self.stream.drawn // self.batch_size)) - offset
        for _ in range(offset):
            self.next_batch()
