"""The augmentation job: three plain library steps and the one loop that runs them (`run_augment`).

1. `write_chunk`: a corpus chunk (see `pipeline.corpus.chunks`) -> `.work/chunks/<chunk_id>.parquet` (+ its dropped lines)
2. `augment_chunk`: (chunk, method) -> pair shard + reject shard + a completion marker, under `.work/tasks/`
3. `finalize_dataset`: copy the task outputs into the Hugging Face layout, write the manifest and dataset card

`run_augment` streams the corpus through step 1, hands step 2 to an executor (`pipeline.augment.executors`: serial,
threads; the Prefect flow brings its own: Prefect tasks on threads or Dask) and ends with step 3; `bsl augment` and the
Prefect flow both call it. Every output is written atomically and step 2 writes its marker last, so a run killed
at any point resumes without duplicated or missing rows: finished tasks are found by their marker, unfinished
ones are redone. What a rerun reuses is checked first (a marker's outputs against the sha256 it recorded, a chunk
against the corpus), and published shards are copies, so editing one never reaches the cache.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.augment.augmenters import build_augmenter
from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter
from bsl_pipeline.pipeline.augment.executors import AugmentTask, Executor, SerialExecutor, TaskFailed
from bsl_pipeline.pipeline.augment.filters import FilterConfig
from bsl_pipeline.pipeline.augment.tasks import WORK_DIR, ChunkRef, TaskResult, allow_tasks, task_key, write_chunk
from bsl_pipeline.pipeline.base.config import MAX_BATCH, SEED_RANGE, Range, to_dict
from bsl_pipeline.pipeline.base.errors import WRITE_ERROR_FIXES, BSLError
from bsl_pipeline.pipeline.base.ownership import (
    OwnershipError,
    WriterLock,
    check_not_input,
    check_output_name,
    claim_directory,
    local_only,
)
from bsl_pipeline.pipeline.base.provenance import code_version, sha256_file
from bsl_pipeline.pipeline.base.publish import (
    Discard,
    listed_files,
    publish_directory,
    remove_stale_staging,
    require_folder,
    retire,
    staging_dir,
)
from bsl_pipeline.pipeline.base.storage import Lease, LeaseLost, StorageConfig, as_url, is_url, name_of, use_storage
from bsl_pipeline.pipeline.corpus.chunks import (
    CorpusConfig,
    CorpusStats,
    expected_records,
    iter_chunks,
)
from bsl_pipeline.pipeline.corpus.source_manifest import source_files_info
from bsl_pipeline.pipeline.dataset.manifest import (
    ANNOTATIONS,
    DISTRIBUTION_FIELDS,
    FORMAT_VERSION,
    MANIFEST_NAME,
    ChunkEntry,
    DatasetStats,
    Manifest,
    MethodInfo,
    MethodStats,
    QualityDistribution,
    ShardEntry,
    SourceInfo,
    Timings,
    load_manifest,
    register,
    write_manifest,
)
from bsl_pipeline.pipeline.dataset.store import next_identity, record_identity

log = logging.getLogger(__name__)

# What `bsl augment` writes in its --out directory (with --overwrite, these are set aside, never deleted).
DATASET_ENTRIES = ("data", "rejects", "README.md", MANIFEST_NAME, ".work")


@dataclass
class AugmentConfig:
    name: str = field(default="", metadata={"help": "dataset name (default: the output directory's name)"})
    methods: list[str] = field(default_factory=lambda: ["noise"], metadata={
        "help": "augmentation methods, comma-separated (see `bsl methods`)"})
    method_params: dict[str, dict[str, Any]] = field(default_factory=dict, metadata={
        "help": "per-method parameters, e.g. method_params.synonyms.fraction=0.3"})
    seed: int = field(default=0, metadata={
        "range": SEED_RANGE, "help": "seed of every random choice (same seed -> same dataset)"})
    batch_size: int = field(default=0, metadata={
        "range": Range(0, MAX_BATCH), "help": "records per augmenter call (0 = the method's default)"})
    registry_dir: str = field(default="data_manifests", metadata={
        "help": "register the manifest under <registry_dir>/datasets/<name>.json ('' = do not register)"})
    progress: bool = field(default=True, metadata={"help": "show progress bars"})
    corpus: CorpusConfig = field(default_factory=CorpusConfig)
    filters: FilterConfig = field(default_factory=FilterConfig)
    method_filters: dict[str, dict[str, Any]] = field(default_factory=dict, metadata={
        "help": "per-method filter overrides, e.g. method_filters.backtranslation.max_length_ratio=1.5"})
    storage: StorageConfig = field(default_factory=StorageConfig)


def recorded_config(config: AugmentConfig) -> dict[str, Any]:
    """The settings a manifest records: all but `storage` (where the dataset is written is not what it is)."""
    return {k: v for k, v in to_dict(config).items() if k != "storage"}


def filters_for(config: AugmentConfig, augmenter: Augmenter) -> FilterConfig:
    """The filters one method runs with: the global `filters`, where one is left at its default the method's own
    default (`Augmenter.filter_defaults`), then the user's `method_filters.<method>`. A global setting the user
    changed applies to every method, over a method's own default."""
    from bsl_pipeline.pipeline.base.config import from_dict

    general, untouched = to_dict(config.filters), to_dict(FilterConfig())
    own = {key: value for key, value in augmenter.filter_defaults.items() if general[key] == untouched[key]}
    merged = {**general, **own, **config.method_filters.get(augmenter.name, {})}
    return from_dict(FilterConfig, merged, prefix=f"method_filters.{augmenter.name}")


# -- step 3: the dataset -----------------------------------------------------------------------------------------
def listed_shards(old: dict[str, str], folder: str) -> Discard:
    """A `discard` for the replaced `data/` or `rejects/`: a file the dataset's manifest listed (`old`: shard path
    -> sha256) that still has that sha256, i.e. a shard this tool wrote and nobody edited since; anything else in
    the folder (a user's file, an edited shard) is set aside."""
    return listed_files(old, folder)


#: Hex digits of a shard's sha256 in its name on an object store (`shard_file_name`).
CONTENT_ID_CHARS = 16


def shard_file_name(prefix: str, i: int, n: int, sha256: str, content_named: bool) -> str:
    """`<prefix>-0000i-of-0000N.parquet` (the Hugging Face layout); `content_named`: with `-<first 16 hex digits of
    its sha256>` before `.parquet`, so that a name never stands for other bytes (a dataset on an object store)."""
    return f"{prefix}-{i:05d}-of-{n:05d}" + (f"-{sha256[:CONTENT_ID_CHARS]}" if content_named else "") + ".parquet"


def _publish(files: list[tuple[Path, dict[str, Any], str | None]], target_dir: Path,
             prefix: str, discard: Discard | None = None, content_named: bool = False) -> list[dict[str, Any]]:
    """Place files as `<prefix>-0000i-of-0000N.parquet` in `target_dir` (`shard_file_name`), swapped in as a whole.
    Each entry's sha256 is that of this process's private staged copy, which must equal the expected one (a task's
    completion marker) where given: nothing is read back after publishing, when another process might have replaced
    it. Of the folder it replaces, only files `discard` vouches for are dropped; the rest is set aside."""
    parent, name = target_dir.parent, target_dir.name
    remove_stale_staging(parent, name, discard)
    shutil.rmtree(parent / f".{name}.staging", ignore_errors=True)  # fixed names of earlier versions
    if require_folder(parent / f".{name}.old", "its own retired copy of a folder"):
        retire(parent / f".{name}.old", parent, name, discard)
    staging = staging_dir(target_dir)
    try:
        entries = []
        n = len(files)
        for i, (src, meta, expected) in enumerate(files):
            copied = staging / f".{prefix}-{i:05d}.copying"
            shutil.copyfile(src, copied)  # a copy: editing a published shard must not edit the cache
            digest = sha256_file(copied)
            if expected is not None and digest != expected:
                raise BSLError(f"{src} changed after its task finished (sha256 {digest[:12]}... != its completion "
                               f"marker's {expected[:12]}...); rerun to recompute it")
            shard_name = shard_file_name(prefix, i, n, digest, content_named)
            os.replace(copied, staging / shard_name)
            entries.append({"path": f"{name}/{shard_name}", **meta, "sha256": digest})
        publish_directory(staging, target_dir, discard=discard or (lambda _relative, _path: False))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return entries


def _publish_shards(dataset_dir: Path, chunks: list[ChunkRef], results: list[TaskResult],
                    old: dict[str, str], content_named: bool = False) -> list[ShardEntry]:
    """Pair and reject shards (results in chunk, then method order) in the HF layout, with their checksums. `old`
    (shard path -> sha256 of the manifest being replaced): the shards that may be dropped from the old folders.
    `content_named`: names that carry the shard's content id (`shard_file_name`)."""
    pair_files = [(Path(r.pairs_path), {"kind": "pairs", "method": r.method, "chunk": r.chunk_id, "rows": r.pairs},
                   r.pairs_sha256) for r in results if r.pairs]
    if not pair_files and results:  # keep one (empty) shard so the dataset still loads
        r = results[0]
        pair_files = [(Path(r.pairs_path), {"kind": "pairs", "method": r.method, "chunk": r.chunk_id, "rows": 0},
                       r.pairs_sha256)]
    reject_files = [(Path(r.rejects_path), {"kind": "rejects", "method": r.method, "chunk": r.chunk_id,
                                            "rows": sum(r.rejects.values())}, r.rejects_sha256)
                    for r in results if r.rejects]
    # Dropped corpus lines have no marker: write_chunk rewrote them from this run's corpus read, under our lock.
    reject_files += [(Path(c.dropped_path), {"kind": "rejects", "method": "corpus", "chunk": c.chunk_id,
                                             "rows": c.dropped_rows}, None) for c in chunks if c.dropped_path]
    shards = (_publish(pair_files, dataset_dir / "data", "train", listed_shards(old, "data"), content_named)
              + _publish(reject_files, dataset_dir / "rejects", "rejects", listed_shards(old, "rejects"),
                         content_named))
    return [ShardEntry(**s) for s in shards]


def _distributions(results: list[TaskResult]) -> dict[str, QualityDistribution | None]:
    """Each of DISTRIBUTION_FIELDS over the kept pairs of these task outputs (read back from their pair shards,
    one column at a time): None where no pair has a value."""
    import numpy as np
    import pyarrow.parquet as pq

    out: dict[str, QualityDistribution | None] = {}
    for name in DISTRIBUTION_FIELDS:
        parts = [pq.read_table(r.pairs_path, columns=[name]).column(name).drop_null().to_numpy()
                 for r in results if r.pairs]
        values = np.concatenate(parts).astype(np.float64) if parts else np.empty(0)
        if not len(values):
            out[name] = None
            continue
        p10, p50, p90 = (round(float(q), 6) for q in np.quantile(values, [0.1, 0.5, 0.9]))
        out[name] = QualityDistribution(n=len(values), mean=round(float(values.mean()), 6), p10=p10, p50=p50,
                                        p90=p90)
    return out


def _method_stats(results: list[TaskResult]) -> MethodStats:
    pairs = sum(r.pairs for r in results)
    rejects: Counter = Counter()
    for r in results:
        rejects.update(r.rejects)
    return MethodStats(
        pairs=pairs, rejected=sum(rejects.values()), rejects=dict(sorted(rejects.items())),
        identical=sum(r.identical for r in results),
        identical_pct=round(100 * sum(r.identical for r in results) / pairs, 3) if pairs else 0.0,
        mean_edit_ratio=round(sum(r.sum_edit_ratio_views for r in results) / pairs, 6) if pairs else None,
        mean_length_ratio=round(sum(r.sum_length_ratio for r in results) / pairs, 6) if pairs else None,
        seconds=round(sum(r.seconds for r in results if not r.cached), 3),
        tasks=len(results), tasks_cached=sum(r.cached for r in results),
        **_distributions(results),
    )


def _dataset_stats(config: AugmentConfig, corpus_stats: CorpusStats, results: list[TaskResult]) -> DatasetStats:
    per_method = {m: _method_stats([r for r in results if r.method == m]) for m in config.methods}
    all_rejects: Counter = Counter()
    for m in per_method.values():
        all_rejects.update(m.rejects)
    total_pairs = sum(m.pairs for m in per_method.values())
    return DatasetStats(
        rows_in=corpus_stats.records_kept, pairs=total_pairs, rejected=sum(all_rejects.values()),
        rejects=dict(sorted(all_rejects.items())), corpus_dropped=dict(sorted(corpus_stats.dropped.items())),
        identical_views=sum(m.identical for m in per_method.values()),
        mean_edit_ratio=round(sum(r.sum_edit_ratio_views for r in results) / total_pairs, 6) if total_pairs
        else None,
        per_method=per_method,
    )


def finalize_dataset(dataset_dir: str | Path, config: AugmentConfig, corpus: str | Path, corpus_stats: CorpusStats,
                     chunks: list[ChunkRef], results: list[TaskResult], augmenters: dict[str, Augmenter],
                     timings: dict[str, float], recorded_dir: str | None = None) -> Manifest:
    """Publish shards in the HF layout, write manifest + dataset card, register the manifest. Returns it, as
    loaded back from the file (checked like any other). `recorded_dir`: the dataset's place when `dataset_dir` is
    only where it is staged (a URL's dataset, `_finalize_remote`, whose shard names also carry their content id:
    an object store has no directory to swap in, so a name must never stand for other bytes)."""
    from bsl_pipeline.pipeline.dataset.card import write_dataset_card

    start = time.perf_counter()
    dataset_dir = Path(dataset_dir)
    name = config.name or dataset_dir.resolve().name
    order = {c.chunk_id: i for i, c in enumerate(chunks)}
    method_order = {m: i for i, m in enumerate(config.methods)}
    results = sorted(results, key=lambda r: (order[r.chunk_id], method_order.get(r.method, 99)))
    previous = _previous_dataset(dataset_dir)
    corpus_info = corpus_stats.as_dict()
    source = SourceInfo(corpus=as_url(str(corpus)),
                        files=[{**f, "path": as_url(f["path"])}
                               for f in source_files_info(corpus_stats.files, corpus_stats.read_stats)],
                        records_read=corpus_info["records_read"], records_kept=corpus_info["records_kept"],
                        dropped=corpus_info["dropped"], replacement_chars=corpus_info["replacement_chars"],
                        not_read=[as_url(p) for p in corpus_stats.not_read])
    differs = previous.what_differs(config.methods, source) if previous is not None else []
    # Another dataset (other methods, another or a changed corpus): its shards are all set aside, not dropped.
    old_shards = {} if previous is None or differs else {s.path: s.sha256 for s in previous.shards}
    shards = _publish_shards(dataset_dir, chunks, results, old_shards, content_named=recorded_dir is not None)
    stats = _dataset_stats(config, corpus_stats, results)
    if differs:
        log.warning("warning: %s", _replaced_note(recorded_dir or dataset_dir, previous, differs, config.methods,
                                                  source, stats))
    # The caller's total_s stops where finalizing starts; the manifest's "in all" includes this step.
    finalize_s = time.perf_counter() - start
    registry_entry = (Path(config.registry_dir) / "datasets" / f"{name}.json").resolve() if config.registry_dir \
        else None
    dataset_id, version = next_identity(dataset_dir, registry_entry)
    manifest = Manifest(
        format_version=FORMAT_VERSION,
        name=name,
        dataset_id=dataset_id,
        version=version,
        created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        code_version=code_version(),
        dataset_dir=recorded_dir or str(dataset_dir.resolve()),
        config=recorded_config(config),
        source=source,
        methods={m: MethodInfo(**augmenters[m].fingerprint(), filters=to_dict(filters_for(config, augmenters[m])))
                 for m in config.methods},
        chunks=[ChunkEntry(chunk_id=c.chunk_id, file=c.file, index_in_file=c.index_in_file, rows=c.rows,
                           dropped=c.dropped_rows) for c in chunks],
        shards=shards,
        stats=stats,
        timings=Timings(read_chunk_s=timings["read_chunk_s"], augment_s=timings["augment_s"],
                        total_s=round(timings["total_s"] + finalize_s, 3), finalize_s=round(finalize_s, 3)),
        annotations=ANNOTATIONS,  # people's judgments, outside the checksums
    )
    manifest_file = dataset_dir / MANIFEST_NAME
    # The card first, the manifest last: killed in between, the old manifest no longer matches the new shards and
    # `bsl verify` fails (it also checks that the card names the manifest's shards), never an OK over a card that
    # `datasets.load_dataset` cannot read.
    _keep_edited_card(dataset_dir, previous)
    _set_aside_replaced_judgments(dataset_dir, manifest)
    write_dataset_card(dataset_dir, manifest)
    write_manifest(manifest, manifest_file)
    if config.registry_dir:
        register(manifest_file, config.registry_dir, name)
    record_identity(dataset_dir, manifest, registry_entry)
    return load_manifest(manifest_file)


def check_registry(config: AugmentConfig, corpus: Path, out_dir: Path | str) -> None:
    """Where the manifest's registry copy goes (`<registry_dir>/datasets/<name>.json`) must be safe to write: not
    in the corpus (the next run would read it as corpus), not through a symlinked folder, and not the copy of
    another dataset that has the same name (two --out with the same last name)."""
    if not config.registry_dir:
        return
    local_only(config.registry_dir, "registry_dir")
    registry = Path(config.registry_dir).expanduser()
    name = config.name or name_of(out_dir)
    for folder in (registry, registry / "datasets"):
        if folder.is_symlink():
            raise OwnershipError(f"registry_dir: {folder} is a symlink; bsl does not write through it (give the "
                                 f"folder itself with -o registry_dir=..., or '' to not register)")
    check_not_input(registry, [corpus], "registry_dir")
    copy = registry / "datasets" / f"{name}.json"
    try:
        other = json.loads(copy.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError):
        other = None
    other_dir = other.get("dataset_dir") if isinstance(other, dict) else None
    if other_dir == str(out_dir):
        return
    if isinstance(other_dir, str) and not _holds_manifest(other_dir, config.storage, copy, name):
        return  # the copy of a dataset that is gone: registering this one replaces it
    raise OwnershipError(f"{copy} registers {other_dir or 'something else (not a bsl manifest copy)'} under the "
                         f"name {name!r}: give this dataset another name (--name), or another registry_dir")


def _holds_manifest(location: str, settings: StorageConfig, copy: Path, name: str) -> bool:
    """Whether the dataset a registry copy names still holds its manifest: on this disk, or on its store for a
    URL. A store that cannot say refuses the name (one line) rather than re-point the copy."""
    from bsl_pipeline.pipeline.base import storage

    if not is_url(location):
        return (Path(location) / MANIFEST_NAME).is_file()
    use_storage(settings)
    try:
        return storage.is_file(storage.join(location, MANIFEST_NAME))
    except BSLError as exc:
        raise OwnershipError(f"{copy} registers {storage.redact(location)} under the name {name!r}, and whether "
                             f"it is still there cannot be checked ({exc}): give this dataset another name "
                             f"(--name), or another registry_dir") from None


def _previous_dataset(dataset_dir: Path) -> Manifest | None:
    """The manifest this run replaces, when there is a readable one."""
    try:
        return load_manifest(dataset_dir / MANIFEST_NAME) if (dataset_dir / MANIFEST_NAME).is_file() else None
    except BSLError:
        return None


def _replaced_note(place: str | Path, previous: Manifest, differs: list[str], methods: list[str],
                   source: SourceInfo, stats: DatasetStats) -> str:
    """One line: which dataset this run replaces (at `place`, a folder or a URL) and why it is another one
    (`differs`, `Manifest.what_differs`), by methods, pairs and corpus."""
    from bsl_pipeline.pipeline.base import storage

    def pairs(per_method: dict[str, Any]) -> str:
        return ", ".join(f"{m} {getattr(s, 'pairs', '?')}" for m, s in per_method.items())

    before = previous.stats.per_method if previous.stats is not None else {}
    total = previous.stats.pairs if previous.stats is not None else "?"
    was = previous.source.corpus if previous.source is not None else "?"
    return storage.redact(
        f"{place} held methods {','.join(previous.method_names)} ({total} pairs: {pairs(before)}) of {was}; it now "
        f"holds {','.join(methods)} ({stats.pairs} pairs: {pairs(stats.per_method)}) of {source.corpus} "
        f"({', '.join(differs)}): the old shards are set aside in {storage.join(str(place), '.bsl-replaced')}/")


def _keep_edited_card(dataset_dir: Path, previous: Manifest | None) -> None:
    """Set the dataset card aside (with a warning) when it is not the card this tool wrote for the manifest being
    replaced: a hand edit is kept in `.bsl-replaced/<time>/README.md`, never lost on a rerun."""
    from bsl_pipeline.pipeline.base.ownership import set_aside
    from bsl_pipeline.pipeline.dataset.card import card_is_ours

    card = dataset_dir / "README.md"
    if not card.is_file() and not card.is_symlink():
        return
    try:
        ours = previous is not None and card_is_ours(card.read_text(encoding="utf-8"), previous)
    except (OSError, UnicodeDecodeError, BSLError):
        ours = False
    if not ours:
        kept = set_aside(dataset_dir, ["README.md"])
        log.warning("warning: %s is not the card bsl wrote (edited by hand?): kept as %s", card, kept / "README.md")


def _set_aside_replaced_judgments(dataset_dir: Path, manifest: Manifest) -> None:
    """Set the judgments file aside (with a warning) when its marks judge other pairs than the ones being published
    (the pairs were rebuilt: other settings, another corpus): kept in `.bsl-replaced/<time>/judgments.jsonl`, so
    that the new dataset verifies and `bsl review` judges its pairs anew. Marks of these very pairs (an unchanged
    rerun) stay."""
    from bsl_pipeline.pipeline.base.ownership import set_aside
    from bsl_pipeline.pipeline.dataset.judgments import (
        JUDGMENTS_NAME,
        judges_other_pairs,
        pairs_checksum,
        replaced_judgments_note,
    )

    path = dataset_dir / JUDGMENTS_NAME
    other = judges_other_pairs(path, pairs_checksum(manifest))
    if other:
        kept = set_aside(dataset_dir, [JUDGMENTS_NAME])
        log.warning("warning: %s", replaced_judgments_note(str(path), other, str(kept / JUDGMENTS_NAME),
                                                           str(dataset_dir)))


# -- the whole job: one loop, any executor -------------------------------------------------------------------------
def build_augmenters(config: AugmentConfig) -> dict[str, Augmenter]:
    for key in ("method_params", "method_filters"):
        unknown = set(getattr(config, key)) - set(config.methods)
        if unknown:
            raise BSLError(f"{key} given for method(s) not in methods: {', '.join(sorted(unknown))}")
    if not config.methods:
        raise BSLError("no methods given (e.g. --methods synonyms,span-mask)")
    augmenters = {m: build_augmenter(m, config.method_params.get(m), progress=config.progress)
                  for m in config.methods}
    for augmenter in augmenters.values():
        filters_for(config, augmenter)  # method_filters.<method>: unknown keys, bad values
    return augmenters


def _earlier_dataset(directory: Path) -> bool:
    """A dataset directory written by a version of this tool from before output markers."""
    try:
        version = load_manifest(directory).format_version
        return isinstance(version, int) and 1 <= version <= FORMAT_VERSION
    except BSLError:
        return False


DATASET_KIND = "dataset"  # the output marker's kind of a dataset directory (pipeline.base.ownership)
earlier_dataset = _earlier_dataset


@contextlib.contextmanager
def _os_errors_as_one_line(out_dir: Path):
    """A full disk, a read-only file system or a refused permission stops the job with one line naming the path."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in WRITE_ERROR_FIXES:
            raise
        raise BSLError(f"{exc.filename or out_dir}: {exc.strerror or exc} (finished tasks are kept under "
                       f"{out_dir}/.work: free space or fix the permissions, then rerun to resume)") from None


def run_augment(corpus: str | Path, out_dir: str | Path, config: AugmentConfig,
                augmenters: dict[str, Augmenter] | None = None,
                on_task_done: Callable[[TaskResult], None] | None = None,
                executor: Executor | None = None, overwrite: bool = False) -> Manifest:
    """Read, chunk, augment (skipping finished tasks), filter and publish a dataset. Returns the manifest.
    Relative paths are taken from the current directory and recorded absolute.

    The one augmentation loop: `executor` (default `SerialExecutor`) only decides where each (chunk, method) task
    runs; whatever it is, the same tasks give the same files and manifest. `on_task_done` sees each result.

    `out_dir` must be new, empty, or a dataset this tool wrote (`pipeline.base.ownership`), and apart from the
    corpus; `overwrite=True` adopts another directory, setting aside (never deleting) what the job replaces. The
    run holds the directory's writer lock: a second writer is refused."""

    t0 = time.perf_counter()
    if is_url(corpus) and is_url(out_dir):
        inside = [str(u).rstrip("/") + "/" for u in (corpus, out_dir)]
        if inside[0].startswith(inside[1]) or inside[1].startswith(inside[0]):
            raise OwnershipError(f"--out {out_dir} and input {corpus} overlap: choose an --out outside the input "
                                 f"(the tool never writes over what it reads)")
    if is_url(corpus):  # read from a local copy; rows and the manifest name the URL
        from bsl_pipeline.pipeline.base.storage import corpus_copy

        use_storage(config.storage)
        corpus = corpus_copy(str(corpus))
    if is_url(out_dir):
        return _run_augment_remote(corpus, str(out_dir), config, augmenters, on_task_done, executor, overwrite, t0)
    # Absolute paths, here for every entry point: rows name their corpus file (`origin`, from which reject ids
    # derive) and markers name their shards, so any spelling of the same paths, from any directory, gives the same
    # bytes and a resumable dataset.
    corpus, out_dir = Path(corpus).expanduser().resolve(), Path(out_dir).expanduser().resolve()
    check_output_name(config.name or out_dir.name, "dataset name (--name, default: the --out directory's name)")
    if not corpus.exists():  # before any model loads or the output directory is made
        raise BSLError(f"corpus not found: {corpus}")
    check_not_input(out_dir, [corpus], "--out")
    check_registry(config, corpus, out_dir)
    augmenters = augmenters or build_augmenters(config)
    check_pair_methods(corpus, config, augmenters)
    with _os_errors_as_one_line(out_dir):
        claim_directory(out_dir, "dataset", overwrite=overwrite, own_names=DATASET_ENTRIES,
                        recognise=_earlier_dataset)
        with WriterLock(out_dir, "dataset"):
            for folder in (WORK_DIR, f"{WORK_DIR}/chunks", f"{WORK_DIR}/tasks"):  # never written through a link
                require_folder(out_dir / folder, "its own work folder")
            return _run_locked(corpus, out_dir, config, augmenters, on_task_done, executor, t0)


def _run_locked(corpus: Path, out_dir: Path, config: AugmentConfig, augmenters: dict[str, Augmenter],
                on_task_done: Callable[[TaskResult], None] | None, executor: Executor | None,
                t0: float, lease: Lease | None = None) -> dict[str, Any]:
    if lease is not None:  # a URL's writer: stop at the next task once a renewal found the lease taken over
        on_task_done = _checking_lease(lease, on_task_done)
    loop = _AugmentLoop(out_dir, config, augmenters, executor or SerialExecutor(), on_task_done)
    loop.run(corpus)
    if loop.failures:
        raise BSLError(f"{len(loop.failures)} of {len(loop.failures) + len(loop.results)} augmentation tasks failed"
                       f"{loop.executor.failure_note} (finished tasks are kept: rerun to resume); first: "
                       f"{loop.failures[0]}")
    if not loop.chunks:
        raise BSLError(f"{corpus}: no records to augment")
    timings = {k: round(v, 3) for k, v in loop.timings.items()}
    timings["total_s"] = round(time.perf_counter() - t0, 3)
    if lease is not None:
        return _finalize_remote(out_dir, config, corpus, loop.stats, loop.chunks, loop.results, augmenters, timings,
                                lease)
    return finalize_dataset(out_dir, config, corpus, loop.stats, loop.chunks, loop.results, augmenters, timings)


def _run_augment_remote(corpus: str | Path, url: str, config: AugmentConfig,
                        augmenters: dict[str, Augmenter] | None,
                        on_task_done: Callable[[TaskResult], None] | None, executor: Executor | None,
                        overwrite: bool, t0: float) -> Manifest:
    """`run_augment` to an object store: the same loop, with the prefix claimed and leased instead of the
    directory (`pipeline.base.storage.claim_prefix`, `Lease`) and the dataset published by `_finalize_remote`."""
    from bsl_pipeline.pipeline.base.storage import claim_prefix
    from bsl_pipeline.pipeline.dataset.remote import dataset_lease

    use_storage(config.storage)
    url = url.rstrip("/")
    corpus = Path(corpus).expanduser().resolve()
    check_output_name(config.name or name_of(url), "dataset name (--name, default: the --out prefix's last part)")
    if not corpus.exists():
        raise BSLError(f"corpus not found: {corpus}")
    check_registry(config, corpus, url)
    augmenters = augmenters or build_augmenters(config)
    claim_prefix(url, DATASET_KIND, overwrite=overwrite, own_names=DATASET_ENTRIES)
    with dataset_lease(url, config.storage) as lease:
        return _run_locked(corpus, url, config, augmenters, on_task_done, executor, t0, lease)


def _checking_lease(lease: Lease, on_task_done: Callable[[TaskResult], None] | None) -> Callable[[TaskResult], None]:
    def done(result: TaskResult) -> None:
        try:
            lease.check_held()
        except LeaseLost as lost:
            raise LeaseLost(f"{lost}; nothing of this run was published") from None
        if on_task_done is not None:
            on_task_done(result)

    return done


def _finalize_remote(url: str, config: AugmentConfig, corpus: Path, corpus_stats: CorpusStats,
                     chunks: list[ChunkRef], results: list[TaskResult], augmenters: dict[str, Augmenter],
                     timings: dict[str, float], lease: Lease) -> Manifest:
    """Build the dataset's files in a private local folder from the task outputs on the store (each checked
    against its completion marker), exactly as `finalize_dataset` does on disk, then publish them to `url` with
    the manifest last (`pipeline.dataset.remote.publish_dataset`), confirming before each step that `lease` is
    still this writer's."""
    import tempfile
    from dataclasses import replace

    from bsl_pipeline.pipeline.base.storage import seed_copy
    from bsl_pipeline.pipeline.dataset.remote import publish_dataset, pull_checked, pull_identity

    with tempfile.TemporaryDirectory(prefix="bsl-publish-") as tmp:
        stage = Path(tmp) / name_of(url)
        (stage / ".work").mkdir(parents=True)
        pull_identity(url, stage)
        previous = _previous_dataset(stage)
        local_results = [replace(r, pairs_path=str(pull_checked(r.pairs_path, stage / ".work" / f"{i}.pairs.parquet",
                                                                r.pairs_sha256)),
                                 rejects_path=str(pull_checked(r.rejects_path,
                                                               stage / ".work" / f"{i}.rejects.parquet",
                                                               r.rejects_sha256)))
                         for i, r in enumerate(results)]
        local_chunks = [replace(c, dropped_path=str(pull_checked(c.dropped_path, stage / ".work" / f"{i}.dropped",
                                                                 "")) if c.dropped_path else None)
                        for i, c in enumerate(chunks)]
        built = finalize_dataset(stage, config, corpus, corpus_stats, local_chunks, local_results, augmenters,
                                 timings, recorded_dir=url)
        publish_dataset(stage, url, previous, built, lease.confirm)
        seed_copy(url, {p.relative_to(stage).as_posix(): p for p in stage.rglob("*")
                        if p.is_file() and ".work" not in p.relative_to(stage).parts})
    return load_manifest(url)


def check_pair_methods(corpus: str | Path, config: AugmentConfig, augmenters: dict[str, Augmenter],
                       records_read: int = 100) -> None:
    """A method that needs sentence pairs (`Augmenter.needs_pairs`: nli-entailment, parallel) on a corpus whose
    first `records_read` records have no second sentence would reject every line: refused before any work."""
    needing = [method for method, augmenter in augmenters.items() if augmenter.needs_pairs]
    if not needing:
        return
    from itertools import islice

    from bsl_pipeline.pipeline.corpus.readers import read_records

    c = config.corpus
    records = read_records(corpus, format=c.format, field=c.field, encoding_errors=c.encoding_errors,
                           on_bad_line=c.on_bad_line, columns=list(c.columns) or None, header=c.header,
                           languages=c.languages)
    try:
        first = list(islice(records, records_read))
    finally:
        records.close()
    if first and not any(r.text_b for r in first):
        raise BSLError(f"{corpus}: --methods {','.join(needing)} needs sentence pairs (premise and hypothesis, or a "
                       f"sentence and its translation), and the first {len(first)} records have one sentence each "
                       f"(read as corpus.format={c.format}): give an NLI file (SNLI/MNLI .txt or .jsonl, a "
                       f"premise,hypothesis CSV) or aligned pairs (corpus.format=parallel), or choose another method")


class _AugmentLoop:
    """One pass over a corpus: chunks are written as they are read, their tasks go to the executor, and results
    are collected oldest first whenever the executor has `max_in_flight` unfinished tasks (then all at the end)."""

    def __init__(self, out_dir: Path, config: AugmentConfig, augmenters: dict[str, Augmenter],
                 executor: Executor, on_task_done: Callable[[TaskResult], None] | None):
        self.out_dir, self.config, self.augmenters = out_dir, config, augmenters
        self.executor, self.on_task_done = executor, on_task_done
        self.filters = {m: filters_for(config, a) for m, a in augmenters.items()}
        self.stats = CorpusStats()
        self.chunks: list[ChunkRef] = []
        self.results: list[TaskResult] = []
        self.failures: list[str] = []
        self.timings = {"read_chunk_s": 0.0, "augment_s": 0.0}  # augment_s: time spent waiting on the executor

    def run(self, corpus: str | Path) -> None:
        from tqdm import tqdm

        from bsl_pipeline.pipeline.base.progress import progress_disabled

        # Until the first task is done (the methods load their models in it: seconds), a line that says so, not a
        # bar frozen at 0; then the records read (kept or dropped) out of the corpus's lines.
        self.bar = tqdm(desc="augment: preparing (the methods load their models)", unit="rec",
                        bar_format="{desc} ...", disable=progress_disabled(not self.config.progress))
        self.bar.refresh()
        self.started = False
        allow_tasks()
        try:
            self.executor.open(self.augmenters)
        except BaseException:
            self.bar.close()  # the error's line on a line of its own
            raise
        try:
            # The bar's total (a pass over the corpus's lines), counted only where a bar is drawn.
            self.total = None if self.bar.disable else expected_records(corpus, self.config.corpus)
            read_start = time.perf_counter()
            for chunk in iter_chunks(corpus, self.config.corpus, self.stats):
                ref = write_chunk(chunk, self.out_dir)
                del chunk  # only the ChunkRef travels on; the records are on disk
                self.chunks.append(ref)
                self.timings["read_chunk_s"] += time.perf_counter() - read_start
                self._submit(ref)
                while self.executor.full():
                    self._collect()
                read_start = time.perf_counter()
            self.total = self.stats.records_read  # exact now that the corpus is read
            if self.started:
                self.bar.total = self.total
                self.bar.refresh()
            while self.executor.pending():
                self._collect()
        except BaseException as exc:
            self.executor.cancel(interrupted=not isinstance(exc, Exception))  # Ctrl-C, SIGTERM, Prefect's signals
            raise
        finally:
            self.executor.close()
            self.bar.close()

    def _submit(self, ref: ChunkRef) -> None:

        start = time.perf_counter()
        for method, augmenter in self.augmenters.items():
            filters = self.filters[method]
            key = task_key(ref.chunk_id, augmenter, self.config.seed, filters)
            self.executor.submit(AugmentTask(ref, method, key, str(self.out_dir), self.config.seed, filters,
                                             self.config.batch_size,
                                             self.config.storage if is_url(self.out_dir) else None))
        self.timings["augment_s"] += time.perf_counter() - start

    def _collect(self) -> None:

        start = time.perf_counter()
        try:
            task, result = self.executor.next_result()
        except TaskFailed as failed:  # the executor keeps going: finished tasks stay on disk for the rerun
            task, result = failed.task, None
            self.failures.append(str(failed))
        self.timings["augment_s"] += time.perf_counter() - start
        if result is not None:
            self.results.append(result)
            if self.on_task_done:
                self.on_task_done(result)
        if task.method == next(iter(self.augmenters)):
            if not self.started:
                self.started = True
                self.bar.bar_format = None
                self.bar.set_description("augment", refresh=False)
                self.bar.reset(total=self.total)
            self.bar.update(task.chunk.rows + task.chunk.dropped_rows)
