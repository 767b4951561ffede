"""Training data: view pairs streamed from one or more datasets, mixed by weight, shuffled by seed, resumable.

Datasets are read only through `pipeline.dataset.store` (load_manifest / verify_dataset / iter_pair_batches); this
module is the one place that talks to it, so every shard it opens has passed the manifest path check (inside the
dataset directory) and, with data.verify, its checksum.

The stream is a pure function of (sources, seed): each source is read shard by shard (in an order shuffled per
pass) through a shuffle buffer reseeded for every pass over it, and a seeded mixer picks the source of each next
pair by weight. A source that runs out starts its next pass, so the stream never ends; the trainer decides how
many steps to take. The data position recorded in checkpoints is the number of pairs drawn; resuming replays the
stream up to there without tokenising (exact, and cheap next to training).

A run reads one version of each dataset. It records what it read (`Source.manifest_checksum` and `shards_digest`,
the digest of its shards' sha256; both in every checkpoint) and re-checks it: at every pass over a source the
manifest on disk must still have that checksum, and every shard is read whole into memory, hashed, and parsed from
those same bytes only when the sha256 is the manifest's. A dataset re-augmented (republished) while a run reads it
stops the run with one line naming the dataset (`DatasetChangedError`), at once or at its next shard, so a run
never trains on a mix of two versions; a shard that does not match an unchanged manifest (damaged beforehand, which
data.verify=false does not check, or a writer mid-publish) stops it naming the shard. Resuming checks both records
against the checkpoint's. Readers take no
lock: the writer publishes a dataset by swapping it in whole, and the reader notices the swap.
"""

from __future__ import annotations

import bisect
import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from bsl_pipeline.pipeline.base.errors import BSLError, InputError
from bsl_pipeline.pipeline.base.fingerprint import digest
from bsl_pipeline.pipeline.dataset.manifest import Manifest

COLUMNS = ["view1", "view2", "method"]


class DatasetChangedError(InputError):
    """A dataset a run reads is no longer what the run started with: rewritten (re-augmented) while the run read it,
    or a shard that does not match the manifest."""


@dataclass
class Source:
    """One configured dataset (optionally restricted to some methods) with what the trainer needs to know."""

    path: str
    methods: list[str] | None
    weight: float
    pairs: int
    name: str
    manifest_checksum: str
    manifest: Manifest | None = field(repr=False, default=None)
    shards_digest: str = ""              # digest of the (path, sha256) of its pair shards: what the run reads

    def describe(self) -> dict[str, Any]:
        return {"path": self.path, "name": self.name, "methods": self.methods, "weight": self.weight,
                "pairs": self.pairs, "manifest_checksum": self.manifest_checksum,
                "shards_digest": self.shards_digest}

    def changed(self, what: str) -> DatasetChangedError:
        return DatasetChangedError(f"dataset {self.name} ({self.path}) changed while this run read it ({what}); a "
                                   f"run reads one version of its data: start a new run (or wait for the writer "
                                   f"to finish)")

    def shard_mismatch(self, shard: str, what: str) -> DatasetChangedError:
        """A shard that is not what the manifest records (`what`): a changed manifest says the dataset was rewritten
        while the run read it; under the same manifest the shard was damaged (beforehand: data.verify=false does not
        check) or a writer is changing it, and this run cannot tell which."""
        self.check_unchanged()
        return DatasetChangedError(f"dataset {self.name} ({self.path}): shard {shard} {what}: it was damaged, or a "
                                   f"writer is changing the dataset; run `bsl verify {self.path}` (once a writer, "
                                   f"if any, has finished)")

    def check_unchanged(self) -> None:
        """The manifest on disk is still the one this run started with."""
        from bsl_pipeline.pipeline.dataset.store import load_manifest

        try:
            now = _manifest_identity(load_manifest(self.path))
        except InputError as exc:
            raise self.changed(f"its manifest cannot be read now: {exc}") from None
        if now != self.manifest_checksum:
            raise self.changed(f"manifest checksum {self.manifest_checksum[:12]}... is now {now[:12]}...")


def shards_digest(manifest: Manifest) -> str:
    return digest([[s.path, s.sha256] for s in manifest.shards_of("pairs")])


def _manifest_identity(manifest: Manifest) -> str:
    """The recorded checksum, else the checksum the manifest would carry (a hand-written one without it)."""
    if manifest.checksum:
        return manifest.checksum
    return digest(manifest.raw if manifest.raw is not None else manifest.to_json())


def _count_pairs(manifest: Manifest, methods: list[str] | None, read_batch_size: int) -> int:
    """Pairs the source will yield; from the manifest's shard row counts when every shard names its method."""
    from bsl_pipeline.pipeline.dataset.store import iter_pair_batches

    shards = manifest.shards_of("pairs")
    if shards and all(s.method for s in shards):
        return sum(s.rows for s in shards if methods is None or s.method in methods)
    total = 0
    for batch in iter_pair_batches(manifest, columns=["method"], methods=methods, batch_size=read_batch_size):
        if methods is None:
            total += batch.num_rows
        else:
            total += sum(1 for m in batch.column("method").to_pylist() if m in methods)
    return total


def resolve_sources(data_config, verify: bool | None = None) -> list[Source]:
    """Load (and by default verify) every configured dataset; fill in default weights (proportional to pairs)."""
    from bsl_pipeline.pipeline.dataset.store import load_manifest, verify_dataset

    if not data_config.sources:
        raise BSLError("no training data: set data.sources in the config or pass --manifest DATASET")
    verify = data_config.verify if verify is None else verify
    sources: list[Source] = []
    for i, src in enumerate(data_config.sources):
        if not src.path:
            raise BSLError(f"data.sources[{i}].path is empty")
        manifest = verify_dataset(src.path) if verify else load_manifest(src.path)
        methods = list(src.methods) if src.methods else None
        if methods:
            known = set(manifest.methods or {}) | {s.method for s in manifest.shards}
            unknown = [m for m in methods if m not in known]
            if unknown:
                raise BSLError(f"data.sources[{i}] ({src.path}): method(s) {', '.join(unknown)} not in this "
                               f"dataset (it has {', '.join(sorted(m for m in known if m))})")
        pairs = _count_pairs(manifest, methods, data_config.read_batch_size)
        if pairs == 0:
            what = f" for methods {', '.join(methods)}" if methods else ""
            raise BSLError(f"data.sources[{i}] ({src.path}) has no pairs{what}")
        if src.weight is not None and not src.weight > 0:
            raise BSLError(f"data.sources[{i}].weight must be > 0, got {src.weight}")
        sources.append(Source(path=str(src.path), methods=methods,
                              weight=float(src.weight) if src.weight is not None else float(pairs),
                              pairs=pairs, name=manifest.name,
                              manifest_checksum=_manifest_identity(manifest), manifest=manifest,
                              shards_digest=shards_digest(manifest)))
    return sources


class _SourceStream:
    """Endless pairs of one source: pass after pass, each through a buffer shuffle seeded by (seed, source, pass)."""

    def __init__(self, source: Source, index: int, seed: int, shuffle: bool, buffer_size: int,
                 read_batch_size: int, skipped: dict[str, int]):
        self.source = source
        self.index = index
        self.seed = seed
        self.shuffle = shuffle
        self.buffer_size = max(1, buffer_size)
        self.read_batch_size = read_batch_size
        self.skipped = skipped
        self.epoch = 0
        self.drawn = 0
        self._it = self._endless()

    def _batches(self, manifest: Manifest) -> Iterator[Any]:
        """The pair shards' record batches, each shard read whole, hashed and parsed from the bytes hashed."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        from bsl_pipeline.pipeline.dataset.store import not_a_shard_file, shard_paths

        shards = manifest.shards_of("pairs", self.source.methods)
        for shard, path in zip(shards, shard_paths(manifest, "pairs", self.source.methods)):
            problem = not_a_shard_file(path)  # a FIFO would never end
            if problem:
                raise self.source.shard_mismatch(shard.path, f"is {problem}")
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise self.source.shard_mismatch(shard.path, f"cannot be read ({exc.strerror or exc})") from None
            found = hashlib.sha256(data).hexdigest()
            if found != shard.sha256:
                raise self.source.shard_mismatch(shard.path, f"has sha256 {found[:12]}..., not the manifest's "
                                                             f"{shard.sha256[:12]}...")
            try:
                yield from pq.ParquetFile(pa.BufferReader(data)).iter_batches(batch_size=self.read_batch_size,
                                                                              columns=COLUMNS)
            except (OSError, ValueError, pa.ArrowException) as exc:
                raise InputError(f"shard {path} is not a readable pair shard ({exc}); run `bsl verify`") from None

    def _rows(self, manifest: Manifest) -> Iterator[tuple[str, str]]:
        methods = self.source.methods
        for batch in self._batches(manifest):
            v1s = batch.column("view1").to_pylist()
            v2s = batch.column("view2").to_pylist()
            ms = batch.column("method").to_pylist()
            for v1, v2, m in zip(v1s, v2s, ms):
                if methods is not None and m not in methods:
                    continue
                if not v1 or not v2 or not v1.strip() or not v2.strip():
                    # Counted (reported in the run's metrics), not dropped silently.
                    self.skipped["empty_view"] = self.skipped.get("empty_view", 0) + 1
                    continue
                yield v1, v2

    def _one_pass(self, epoch: int) -> Iterator[tuple[str, str]]:
        from bsl_pipeline.pipeline.dataset.store import with_shards

        if not self.shuffle:
            yield from self._rows(self.source.manifest)
            return
        rng = random.Random(f"bsl-data:{self.seed}:{self.index}:{epoch}")
        # Shard order is shuffled too, so a buffer smaller than the dataset still mixes pairs from all of it.
        shards = list(self.source.manifest.shards)
        rng.shuffle(shards)
        buffer: list[tuple[str, str]] = []
        for row in self._rows(with_shards(self.source.manifest, shards)):
            if len(buffer) < self.buffer_size:
                buffer.append(row)
                continue
            j = rng.randrange(self.buffer_size)
            yield buffer[j]
            buffer[j] = row
        rng.shuffle(buffer)
        yield from buffer

    def _endless(self) -> Iterator[tuple[str, str]]:
        while True:
            self.source.check_unchanged()
            got = 0
            for row in self._one_pass(self.epoch):
                got += 1
                yield row
            if got == 0:
                raise InputError(f"{self.source.path}: no usable pairs (all {self.source.pairs} have an empty view)")
            self.epoch += 1

    def next(self) -> tuple[str, str]:
        row = next(self._it)
        self.drawn += 1
        return row


class PairStream:
    """The mixed, shuffled, endless stream of (view1, view2) pairs; `position` is what a checkpoint records."""

    def __init__(self, sources: list[Source], seed: int, shuffle: bool = True, shuffle_buffer: int = 100_000,
                 read_batch_size: int = 8192):
        if not sources:
            raise BSLError("PairStream needs at least one source")
        self.sources = sources
        self.seed = seed
        self.skipped: dict[str, int] = {}
        self._streams = [_SourceStream(s, i, seed, shuffle, shuffle_buffer, read_batch_size, self.skipped)
                         for i, s in enumerate(sources)]
        total = sum(s.weight for s in sources)
        self._cumulative = []
        acc = 0.0
        for s in sources:
            acc += s.weight / total
            self._cumulative.append(acc)
        self._mixer = random.Random(f"bsl-mix:{seed}")
        self.drawn = 0

    def _pick(self) -> int:
        if len(self._streams) == 1:
            return 0
        return min(bisect.bisect_right(self._cumulative, self._mixer.random()), len(self._streams) - 1)

    def next_pair(self) -> tuple[str, str]:
        row = self._streams[self._pick()].next()
        self.drawn += 1
        return row

    def next_batch(self, n: int) -> tuple[list[str], list[str]]:
        v1: list[str] = []
        v2: list[str] = []
        for _ in range(n):
            a, b = self.next_pair()
            v1.append(a)
            v2.append(b)
        return v1, v2

    def skip(self, n: int) -> None:
        for _ in range(n):
            self.next_pair()

    @property
    def position(self) -> dict[str, Any]:
        return {"pairs_drawn": self.drawn,
                "per_source_drawn": [s.drawn for s in self._streams],
                "per_source_epoch": [s.epoch for s in self._streams],
                "skipped": dict(self.skipped)}

    def restore(self, position: dict[str, Any]) -> None:
        """Fast-forward a fresh stream to a recorded position and check it lands where the recording says."""
        if self.drawn != 0:
            raise BSLError("restore() needs a fresh PairStream")
        self.skip(int(position["pairs_drawn"]))
        expected = [int(x) for x in position.get("per_source_drawn", [])]
        actual = [s.drawn for s in self._streams]
        if expected and expected != actual:
            raise BSLError(f"data position does not replay: pairs per source {actual} != recorded {expected}; "
                           f"the datasets or their weights changed since the checkpoint")
