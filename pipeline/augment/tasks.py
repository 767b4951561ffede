"""The augmentation job's units of work: chunks written to disk (step 1) and one task = one chunk augmented by one
method (step 2), each with a completion marker so that a rerun reuses finished work. `pipeline.augment.job` runs
them through an executor (`pipeline.augment.executors`), which imports this module and never the job itself."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter, SourceRecord
from bsl_pipeline.pipeline.augment.filters import (
    VIEW_SIMILARITY,
    FilterConfig,
    build_filters,
    empty_view,
    first_reject,
    measure_pair,
)
from bsl_pipeline.pipeline.base import storage
from bsl_pipeline.pipeline.base.atomic import write_json_atomic, write_parquet_atomic
from bsl_pipeline.pipeline.base.config import MAX_VIEW_CHARS, to_dict
from bsl_pipeline.pipeline.base.fingerprint import fingerprint
from bsl_pipeline.pipeline.base.text import stable_id
from bsl_pipeline.pipeline.corpus.chunks import Chunk, DroppedRecord
from bsl_pipeline.pipeline.dataset.schema import (
    CHUNK_SCHEMA,
    PAIR_COLUMNS,
    PAIR_SCHEMA,
    REJECT_SCHEMA,
)
from bsl_pipeline.pipeline.dataset.store import intact_marker, sign_marker, write_parquet_unless_same

WORK_DIR = ".work"


@dataclass
class ChunkRef:
    """A chunk written to disk: what a task needs to find and identify it."""

    chunk_id: str
    path: str
    rows: int
    dropped_path: str | None
    dropped_rows: int
    file: str
    index_in_file: int


@dataclass
class TaskResult:
    """What one (chunk, method) task produced; also the content of its completion marker."""

    task_key: str
    chunk_id: str
    method: str
    pairs_path: str
    rejects_path: str
    pairs: int
    rejects: dict[str, int]
    identical: int
    sum_edit_ratio_views: float
    sum_length_ratio: float
    seconds: float
    cached: bool = False
    pairs_sha256: str = ""
    rejects_sha256: str = ""


# -- step 1: chunks -----------------------------------------------------------------------------------------------
#: A corpus reject's text is kept up to this many characters; a longer one (a too-long line) is stored truncated,
#: with its length.
REJECT_TEXT_CHARS = 1000


def _reject_text(text: str) -> str:
    if len(text) <= REJECT_TEXT_CHARS:
        return text
    return f"{text[:REJECT_TEXT_CHARS]} [... truncated: {len(text)} characters]"


def _dropped_row(d: DroppedRecord) -> dict[str, Any]:
    row = {name: None for name in REJECT_SCHEMA.names}
    row.update(pair_id=stable_id("corpus", d.raw.origin), source_id=d.source_id, source=_reject_text(d.raw.text),
               method="corpus", params="{}", seed=0, label=d.raw.label, origin=d.raw.origin, stage="corpus",
               reject_reason=d.reason)
    return row


def _table(rows: list[dict[str, Any]], schema):
    import pyarrow as pa

    return pa.Table.from_pylist(rows, schema=schema)


def write_chunk(chunk: Chunk, dataset_dir: str | Path) -> ChunkRef:
    """Write a chunk's records (and its dropped lines as corpus rejects); skipped when already written. The dataset
    dir may be a URL (`pipeline.base.storage`)."""
    work = storage.join(_dir(dataset_dir), WORK_DIR, "chunks")
    chunk_id = chunk.chunk_id
    path = storage.join(work, f"{chunk_id}.parquet")
    dropped_path = storage.join(work, f"{chunk_id}.dropped.parquet") if chunk.dropped else None
    rows = [{"source_id": r.source_id, "text": r.text, "text_b": r.text_b, "label": r.label,
             "origin": r.origin, "repeats_text": r.repeats_text} for r in chunk.records]
    if dropped_path is not None:
        write_parquet_unless_same(_table([_dropped_row(d) for d in chunk.dropped], REJECT_SCHEMA), dropped_path)
    write_parquet_unless_same(_table(rows, CHUNK_SCHEMA), path)
    return ChunkRef(chunk_id, str(path), len(chunk.records), str(dropped_path) if dropped_path else None,
                    len(chunk.dropped), chunk.file, chunk.index_in_file)


def read_chunk(ref: ChunkRef) -> list[SourceRecord]:
    data = storage.read_parquet(ref.path).to_pydict()
    return [SourceRecord(source_id=data["source_id"][i], text=data["text"][i], text_b=data["text_b"][i],
                         label=data["label"][i], origin=data["origin"][i], repeats_text=data["repeats_text"][i])
            for i in range(len(data["source_id"]))]


# -- step 2: augment one chunk with one method --------------------------------------------------------------------
def task_key(chunk_id: str, augmenter: Augmenter, seed: int, filters: FilterConfig) -> str:
    """Cache key: chunk content (the chunk id hashes every field of every record, label and origin included) +
    augmenter fingerprint + seed + filters (with the similarity encoder's file checksums when one is set). Same
    key -> same output."""
    settings = to_dict(filters)
    if filters.encoder:
        from bsl_pipeline.pipeline.augment.view_similarity import encoder_identity

        settings["encoder_files"] = encoder_identity(filters.encoder)
    filt = fingerprint(settings, 8)
    return f"{chunk_id}-{augmenter.name}-{augmenter.fingerprint_hash()}-s{seed}-f{filt}"


def _dir(dataset_dir: str | Path) -> str | Path:
    """A dataset dir as a location: a URL stays a string, anything else is a Path."""
    return dataset_dir if storage.is_url(dataset_dir) else Path(dataset_dir)


def _task_paths(dataset_dir: str | Path, key: str) -> tuple[Any, Any, Any]:
    base = storage.join(dataset_dir, WORK_DIR, "tasks")
    return tuple(storage.join(base, f"{key}.{part}") for part in ("pairs.parquet", "rejects.parquet", "done.json"))


def load_task_result(dataset_dir: str | Path, key: str) -> TaskResult | None:
    """The finished result of a task, or None when it has not completed (marker missing, outputs gone, or not
    what the marker recorded). Its paths are this directory's files, whatever the marker says."""
    pairs, rejects, marker = _task_paths(_dir(dataset_dir), key)
    record = intact_marker(marker, {"pairs_sha256": pairs, "rejects_sha256": rejects})
    if record is None or record.get("task_key") != key:  # a marker copied from another task is not this task's
        return None
    try:
        return TaskResult(**{**record, "pairs_path": str(pairs), "rejects_path": str(rejects), "cached": True})
    except TypeError:  # a marker of another shape: redo the task
        return None


def _view_similarities(filters: FilterConfig, rows: dict[int, dict[str, Any]]) -> dict[int, float]:
    """Row number -> the encoder's cosine of view1 and view2, for the whole chunk in one pass; {} when off."""
    if not filters.encoder or not rows:
        return {}
    from bsl_pipeline.pipeline.augment.view_similarity import view_similarities

    values = view_similarities(filters.encoder, [r["view1"] for r in rows.values()],
                               [r["view2"] for r in rows.values()])
    return dict(zip(rows, values, strict=True))


def _too_long(outcome) -> str | None:
    """A view longer than a dataset may hold (`bsl verify` and training would refuse the whole dataset)."""
    return "view_too_long" if max(len(outcome.view1), len(outcome.view2)) > MAX_VIEW_CHARS else None


class TaskCancelled(KeyboardInterrupt):
    """The job was interrupted (`cancel_running_tasks`): a task still running in this process stops at its next
    batch and writes nothing (the rerun runs it). A KeyboardInterrupt, so that no executor retries it."""


_CANCELLED = threading.Event()


def cancel_running_tasks() -> None:
    """Ctrl-C or SIGTERM reached the job: every task running in this process (in other threads) stops at its next
    batch instead of finishing its chunk."""
    _CANCELLED.set()


def allow_tasks() -> None:
    """A job starts: tasks run again (after an earlier interrupted job in this process)."""
    _CANCELLED.clear()


def _check_cancelled(ref: ChunkRef, method: str) -> None:
    if _CANCELLED.is_set():
        raise TaskCancelled(f"chunk {ref.chunk_id} x {method}: cancelled")


def augment_chunk(ref: ChunkRef, augmenter: Augmenter, dataset_dir: str | Path, seed: int = 0,
                  filters: FilterConfig | None = None, batch_size: int = 0) -> TaskResult:
    """Augment one chunk with one method, filter, and write its pair + reject shards and completion marker."""
    filters = filters or FilterConfig()
    dataset_dir = _dir(dataset_dir)
    key = task_key(ref.chunk_id, augmenter, seed, filters)
    done = load_task_result(dataset_dir, key)
    if done is not None:
        return done
    _check_cancelled(ref, augmenter.name)
    start = time.perf_counter()
    records = augmenter.sources(read_chunk(ref))
    pair_rows: list[dict[str, Any]] = []
    reject_rows: list[dict[str, Any]] = []
    reasons: Counter = Counter()
    identical = 0
    sum_edit = sum_len = 0.0
    method_id = f"{augmenter.name}:{augmenter.fingerprint_hash()}:{seed}"
    pair_filters = build_filters(filters, augmenter.identical_views_ok)
    outcomes = augmenter.augment(records, seed, batch_size or None)
    pending: list[tuple[dict[str, Any], str | None, str]] = []
    for record, outcome in zip(records, outcomes, strict=True):
        _check_cancelled(ref, augmenter.name)  # between batches: the augmenter computes one batch at a time
        row = {"pair_id": stable_id(method_id, record.source_id), "source_id": record.source_id,
               "source": record.text, "view1": outcome.view1, "view2": outcome.view2, "method": augmenter.name,
               # what this pair used; the method's settings are written once, in the manifest's methods.<m>.params
               "params": json.dumps(outcome.info, sort_keys=True, ensure_ascii=False),
               "seed": seed, "label": record.label, "origin": record.origin}
        reason, stage = outcome.reject, "augment"
        if reason is None:
            reason, stage = empty_view(outcome.view1, outcome.view2) or _too_long(outcome), "filter"
        pending.append((row, reason, stage))
    similarity = _view_similarities(filters, {i: row for i, (row, reason, _) in enumerate(pending) if reason is None})
    for i, (row, reason, stage) in enumerate(pending):
        if reason is None:
            pair = measure_pair(row["source"], row["view1"], row["view2"], {VIEW_SIMILARITY: similarity.get(i)})
            row.update(vars(pair.quality), view_similarity=pair.measures[VIEW_SIMILARITY])
            reason = first_reject(pair_filters, pair)
        if reason is None:
            pair_rows.append(row)
            identical += row["identical"]
            sum_edit += row["edit_ratio_views"]
            sum_len += row["length_ratio"]
        else:
            reasons[reason] += 1
            reject_rows.append({**{c: None for c in REJECT_SCHEMA.names}, **row, "stage": stage,
                                "reject_reason": reason})
    pairs_path, rejects_path, marker = _task_paths(dataset_dir, key)
    write = storage.write_parquet if storage.is_url(dataset_dir) else write_parquet_atomic
    write(_table([{c: r.get(c) for c in PAIR_COLUMNS} for r in pair_rows], PAIR_SCHEMA), pairs_path)
    write(_table(reject_rows, REJECT_SCHEMA), rejects_path)
    result = TaskResult(task_key=key, chunk_id=ref.chunk_id, method=augmenter.name, pairs_path=str(pairs_path),
                        rejects_path=str(rejects_path), pairs=len(pair_rows), rejects=dict(reasons),
                        identical=identical, sum_edit_ratio_views=sum_edit, sum_length_ratio=sum_len,
                        seconds=time.perf_counter() - start, pairs_sha256=storage.sha256(pairs_path),
                        rejects_sha256=storage.sha256(rejects_path))
    # Last: marks the task complete. Signed under BSL_MANIFEST_KEY (the outputs' sha256 included), so that under the
    # key only markers written by a key holder are reused (`load_task_result`).
    (storage.write_json if storage.is_url(dataset_dir) else write_json_atomic)(marker, sign_marker(vars(result)))
    return result
