"""Dataset directories: Hugging Face layout of view-pair shards, reading them back, verifying checksums.

```
<dataset>/README.md, manifest.json
<dataset>/data/train-00000-of-0000N.parquet        view pairs
<dataset>/rejects/rejects-00000-of-0000M.parquet   rejects with stage + reason
<dataset>/.work/                                   chunks, task outputs, completion markers
```
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base import storage
from bsl_pipeline.pipeline.base.atomic import write_json_atomic
from bsl_pipeline.pipeline.base.config import MAX_VIEW_CHARS
from bsl_pipeline.pipeline.base.errors import BSLError, InputError, VerificationError
from bsl_pipeline.pipeline.base.ownership import MARKER_NAME, entry_kind, read_json_file, read_marker
from bsl_pipeline.pipeline.base.fingerprint import keyed_digest
from bsl_pipeline.pipeline.base.progress import progress_disabled
from bsl_pipeline.pipeline.base.provenance import sha256_file
from bsl_pipeline.pipeline.base.text import first_few
from bsl_pipeline.pipeline.dataset.card import (
    card_front_matter_problem,
    card_sha256,
    card_shard_files,
    loading_files_problem,
)
from bsl_pipeline.pipeline.dataset.manifest import (
    KEY_ENV,
    Manifest,
    check_manifest_checksum,
    load_manifest,
    resolve_inside,
)

__all__ = ["Manifest", "load_manifest", "with_shards", "verify_dataset", "iter_pair_batches", "iter_batches",
           "shard_paths", "open_shard", "unlisted_files", "intact_marker", "write_parquet_unless_same"]

log = logging.getLogger(__name__)
SHARD_DIRS = ("data", "rejects")
SHARD_KINDS = ("pairs", "rejects")
# A manifest, or its registry copy, lists the shards: far larger is not one the tool wrote.
MAX_RECORD_BYTES = 64 << 20


def shard_paths(manifest: Manifest, kind: str = "pairs", methods: list[str] | None = None) -> list[Path]:
    """The shard files of one kind, each through the manifest path check (callers may pass an edited copy)."""
    root = _root(manifest)
    return [resolve_inside(root, s.path, f"{manifest.where}: shard") for s in manifest.shards_of(kind, methods)]


def _root(manifest: Manifest) -> Path:
    if manifest.root is None:
        raise InputError(f"{manifest.where}: not loaded from a dataset directory (use load_manifest)")
    return manifest.root


def with_shards(manifest: Manifest, shards: list) -> Manifest:
    """The same dataset read through other shards of it (e.g. in another order); still path-checked on reading."""
    return replace(manifest, shards=list(shards))


def unlisted_files(manifest: Manifest) -> list[str]:
    """Files under data/ and rejects/ that the manifest does not list: `datasets.load_dataset(dir)` with a glob
    would read them as part of the dataset. For a dataset at a URL, the objects there as the store lists them (its
    local copy never downloads them)."""
    root = _root(manifest)
    listed = {s.path for s in manifest.shards}
    remote = storage.unlisted_objects(root)
    if remote is not None:
        return [name for name in remote if name not in listed]
    found = []
    for name in SHARD_DIRS:
        folder = root / name
        if folder.is_dir() and not folder.is_symlink():
            found += [p.relative_to(root).as_posix() for p in sorted(folder.rglob("*"))
                      if p.is_symlink() or not p.is_dir()]
    return [f for f in found if f not in listed]


def _shard_schema(kind: str):
    from bsl_pipeline.pipeline.dataset.schema import PAIR_SCHEMA, REJECT_SCHEMA  # pyarrow: loaded by readers only

    return PAIR_SCHEMA if kind == "pairs" else REJECT_SCHEMA


def _optional_columns() -> frozenset[str]:
    from bsl_pipeline.pipeline.dataset.schema import COLUMNS_ADDED_IN_FORMAT_2

    return COLUMNS_ADDED_IN_FORMAT_2


def shard_schema_problem(schema, kind: str) -> str | None:
    """What is wrong with a shard's Arrow schema for its kind (None when nothing): every column of
    PAIR_SCHEMA / REJECT_SCHEMA present with its exact type (extra columns are allowed; the quality columns added
    in format 2 may be absent from a format-1 shard)."""
    for expected in _shard_schema(kind):
        index = schema.get_field_index(expected.name)
        if index < 0 and expected.name in _optional_columns():
            continue
        if index < 0:
            return f"required column {expected.name!r} is missing"
        if schema.field(index).type != expected.type:
            return f"column {expected.name!r} is {schema.field(index).type}, expected {expected.type}"
    return None


def not_a_shard_file(path: Path) -> str | None:
    """Why a shard's path holds no file to read: "missing", or what is there instead (a folder, a FIFO, whose
    reading would never end, a link to one); None for a file. Nothing there is opened."""
    if path.is_file():
        return None
    kind = entry_kind(path)
    if kind == "a symbolic link":
        kind = f"a symbolic link to {entry_kind(path.resolve()) or 'nothing'}"
    return "missing" if kind is None else f"{kind}, not a plain file"


def open_shard(path: Path, kind: str | None = None):
    """A shard as a pyarrow ParquetFile; with `kind`, its schema is checked first (InputError, one line)."""
    import pyarrow.parquet as pq

    problem = not_a_shard_file(path)
    if problem:
        raise InputError(f"shard {path} is {problem}")
    try:
        pf = pq.ParquetFile(path)
    except Exception as exc:  # ArrowInvalid/OSError for truncated or corrupt files
        raise InputError(f"shard {path} is not a readable Parquet file ({exc}); rerun `bsl verify` and "
                         f"re-create the dataset") from None
    problem = shard_schema_problem(pf.schema_arrow, kind) if kind in SHARD_KINDS else None
    if problem:
        raise InputError(f"shard {path}: {problem} (not a bsl {kind} shard; run `bsl verify`)")
    return pf


#: The commands that take the options of `verify_dataset` (`--allow-unlisted`, `--max-view-chars`); its errors name
#: them, since training and the flows verify with the defaults.
VERIFY_OPTIONS = "`bsl verify` and `bsl inspect`"


def _content_problem(pf, kind: str, methods: set[str], max_view_chars: int) -> str | None:
    """Row-level checks of one shard: no nulls where the schema (or, for pairs, training) needs a value, only the
    manifest's methods, views no longer than `max_view_chars` (0 = no limit). Reads only those columns."""
    import pyarrow.compute as pc

    schema = _shard_schema(kind)
    required = [f.name for f in schema if not f.nullable] + (["view1", "view2"] if kind == "pairs" else [])
    views = ["view1", "view2"] if kind == "pairs" and max_view_chars else []
    columns = list(dict.fromkeys(required + ["method"] + views))
    row = 0
    for batch in pf.iter_batches(batch_size=8192, columns=columns):
        for name in required:
            column = batch.column(columns.index(name))
            if column.null_count:
                first = row + column.is_null().to_pylist().index(True)
                return f"row {first}: column {name!r} is null"
        found = set(pc.unique(batch.column(columns.index("method"))).to_pylist()) - methods
        if found:
            return f"unknown method value(s) {sorted(found)!r} (the manifest has {sorted(methods)!r})"
        for name in views:
            lengths = pc.utf8_length(batch.column(columns.index(name)))
            longest = pc.max(lengths).as_py() or 0
            if longest > max_view_chars:
                first = row + lengths.to_pylist().index(longest)
                return (f"row {first}: {name} has {longest} characters, more than the maximum view length "
                        f"{max_view_chars} ({VERIFY_OPTIONS} take --max-view-chars N)")
        row += batch.num_rows
    return None


def _check_card(manifest: Manifest) -> None:
    """The dataset card (README.md) must name exactly the manifest's shards: it is what `datasets.load_dataset`
    reads, so a card left from another write (a kill between the two files) fails here rather than there."""
    card = _root(manifest) / "README.md"
    named = card_shard_files(card)
    for kind, config in (("pairs", "default"), ("rejects", "rejects")):
        listed = [s.path for s in manifest.shards_of(kind)]
        if named.get(config, []) != listed:
            raise VerificationError(f"{card}: the dataset card's {config!r} config does not name the manifest's "
                                    f"{kind} shards: {_difference(named.get(config, []), listed)} (written by "
                                    f"another run, or the write was interrupted): rerun `bsl augment`")
    problem = card_front_matter_problem(card, manifest)
    if problem:
        raise VerificationError(f"{card}: {problem}; the card decides what `datasets.load_dataset` reads, so it "
                                f"must be the one `bsl augment` wrote (rerun it to write the card again)")
    problem = loading_files_problem(card.parent)
    if problem:
        raise VerificationError(f"{card.parent}: {problem}")
    _warn_if_card_edited(card, manifest)


def _difference(named: list[str], listed: list[str]) -> str:
    """How the files a card's config names differ from the shards the manifest lists, entry by entry."""
    extra = [path for path in dict.fromkeys(named) if path not in listed]
    absent = [path for path in listed if path not in named]
    twice = [path for path in dict.fromkeys(named) if named.count(path) > 1]
    parts = [f"it names {first_few(extra)}, which the manifest does not list"] if extra else []
    parts += [f"it does not name {first_few(absent)}"] if absent else []
    parts += [f"it names {first_few(twice)} more than once"] if twice else []
    return "; ".join(parts) or "it names them in another order"


def _warn_if_card_edited(card: Path, manifest: Manifest) -> None:
    """A warning, not a failure, when the card's text (less the judged-views block) is not what the manifest's
    `card_sha256` records: past the front matter checked above, the card is prose for people, which users may edit
    as their own (a rerun of `bsl augment` sets an edited card aside rather than replacing it), and nothing reads it
    as data. A manifest written before the digest was recorded has nothing to compare with."""
    if manifest.card_sha256 is None:
        return
    try:
        same = card_sha256(card.read_text(encoding="utf-8")) == manifest.card_sha256
    except UnicodeDecodeError:
        same = False
    if not same:
        log.warning("warning: %s: the dataset card is not the one `bsl augment` wrote with the manifest (its sha256 "
                    "differs from the manifest's card_sha256: edited by hand?); its text may not describe the "
                    "dataset, whose figures are the manifest's", card)


# -- which dataset, which write of it ------------------------------------------------------------------------------
def _read_json_object(path: Path) -> dict[str, Any] | None:
    """A plain file's JSON object, else None. The path may come from a marker anyone could have written: a link,
    FIFO or device there is never read (`read_json_file`)."""
    try:
        data = read_json_file(path, MAX_RECORD_BYTES)
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _marker(root: Path) -> dict[str, Any]:
    try:
        return read_marker(root) or {}
    except BSLError as exc:
        raise VerificationError(str(exc)) from None


def _recorded_version(record: dict[str, Any] | None, dataset_id: str | None) -> int:
    """The version `record` (a marker, a manifest or a registry entry) holds for `dataset_id`; 0 when none."""
    if not record or record.get("dataset_id") != dataset_id:
        return 0
    version = record.get("version")
    return version if isinstance(version, int) and not isinstance(version, bool) and version > 0 else 0


def next_identity(dataset_dir: str | Path, registry_entry: Path | None) -> tuple[str, int]:
    """The (dataset id, version) of the write about to happen in `dataset_dir`: the id its marker (else its current
    manifest) holds, or a new one; the version one above every version recorded for that id (marker, manifest,
    registry entry)."""
    root = Path(dataset_dir)
    marker = _marker(root)
    previous = _read_json_object(root / "manifest.json")
    ids = [r.get("dataset_id") for r in (marker, previous) if r]
    dataset_id = next((i for i in ids if isinstance(i, str) and len(i) == 32), None) or uuid.uuid4().hex
    registered = _read_json_object(registry_entry) if registry_entry is not None else None
    version = max(_recorded_version(r, dataset_id) for r in (marker, previous, registered)) + 1
    return dataset_id, version


def record_identity(dataset_dir: str | Path, manifest: Manifest, registry_entry: Path | None) -> None:
    """After the manifest is written: the directory's marker holds the dataset's id, this version and where it is
    registered, so that `verify_dataset` refuses another dataset's files or an older write put back here."""
    root = Path(dataset_dir)
    marker = _marker(root)
    if not marker:
        return
    write_json_atomic(root / MARKER_NAME, {**marker, "dataset_id": manifest.dataset_id, "version": manifest.version,
                                           "registry": str(registry_entry.resolve()) if registry_entry else None})


def _check_identity(manifest: Manifest) -> None:
    """The manifest is the dataset the directory's marker names, in a version no older than the marker's or the
    registry entry's (the signature covers the id and version, so neither can be edited under the key)."""
    root = _root(manifest)
    marker = _marker(root)
    recorded_id = marker.get("dataset_id")
    if not isinstance(recorded_id, str):
        return  # a dataset from before identities, or a copy without its marker: nothing to compare with
    where = f"{manifest.where}: "
    if manifest.dataset_id != recorded_id:
        raise VerificationError(f"{where}manifest is of dataset {manifest.dataset_id}, but {root / MARKER_NAME} "
                                f"records dataset {recorded_id}: another dataset's files were copied here")
    newest, source = _recorded_version(marker, recorded_id), root / MARKER_NAME
    registry = marker.get("registry")
    if isinstance(registry, str) and registry:
        registered = _recorded_version(_read_json_object(Path(registry)), recorded_id)
        if registered > newest:
            newest, source = registered, Path(registry)
    if (manifest.version or 0) < newest:
        raise VerificationError(f"{where}manifest is version {manifest.version} of dataset {recorded_id}, but "
                                f"{source} records version {newest}: an older write was put back (rollback)")


def verify_dataset(path_or_dir: str | Path, progress: bool = False, allow_unlisted: bool = False,
                   max_view_chars: int = MAX_VIEW_CHARS) -> Manifest:
    """Check the manifest's own checksum (and signature), that it is the dataset (id) and the newest version the
    directory's marker and registry entry record, that no shard is listed twice, that the dataset card names exactly
    its shards (its `configs` exactly as `bsl augment` writes them; the rest of its text differing from the
    manifest's `card_sha256` is only a warning), that data/ and rejects/ hold no file it does not list (only a
    warning with `allow_unlisted`), then every shard's sha256, row count and schema (column types,
    nulls, known methods, views of at most `max_view_chars` characters; 0 = no limit). Raises VerificationError
    naming the first mismatch; returns the manifest."""
    if max_view_chars < 0:
        raise InputError(f"max_view_chars must be >= 0 (0 = no limit), got {max_view_chars}")
    manifest = load_manifest(path_or_dir)
    check_manifest_checksum(manifest)
    _check_identity(manifest)
    listed: dict[Path, int] = {}
    for i, shard in enumerate(manifest.shards):  # a shard listed twice would be read twice
        path = resolve_inside(_root(manifest), shard.path, f"{manifest.where}: shards[{i}].path").resolve()
        if path in listed:
            raise VerificationError(f"{manifest.where}: shards[{i}] lists {path} again (first as "
                                    f"shards[{listed[path]}]); a reader would read its rows twice")
        listed[path] = i
    _check_card(manifest)
    methods = set(manifest.method_names)
    unlisted = unlisted_files(manifest)
    if unlisted:
        message = (f"{manifest.root}: {len(unlisted)} file(s) in data/ or rejects/ not listed in the manifest "
                   f"(a glob such as `datasets.load_dataset` uses would read them): {first_few(unlisted)}")
        if not allow_unlisted:
            raise VerificationError(message + f"; remove them ({VERIFY_OPTIONS} take --allow-unlisted to only "
                                    f"warn about them)")
        log.warning("warning: %s", storage.shown(message))
    shards = manifest.shards
    if not progress_disabled(not progress):
        from tqdm import tqdm

        shards = tqdm(shards, desc="verify", unit="shard")
    for i, shard in enumerate(shards):
        path = resolve_inside(_root(manifest), shard.path, f"{manifest.where}: shards[{i}].path")
        problem = not_a_shard_file(path)
        if problem:
            raise VerificationError(f"{path}: shard listed in the manifest is {problem}")
        digest = sha256_file(path)
        if digest != shard.sha256:
            raise VerificationError(f"{path}: sha256 {digest[:12]}... does not match the manifest "
                                    f"({shard.sha256[:12]}...)")
        try:
            pf = open_shard(path, shard.kind)
        except InputError as exc:
            raise VerificationError(str(exc)) from None
        rows = pf.metadata.num_rows
        if rows != shard.rows:
            raise VerificationError(f"{path}: {rows} rows, manifest says {shard.rows}")
        allowed = methods | {"corpus"} if shard.kind == "rejects" else methods
        problem = _content_problem(pf, shard.kind, allowed, max_view_chars if shard.kind == "pairs" else 0)
        if problem:
            raise VerificationError(f"{path}: {problem}")
    return manifest


def iter_batches(path_or_dir: str | Path | Manifest, kind: str = "pairs", columns: list[str] | None = None,
                 methods: list[str] | None = None, batch_size: int = 8192) -> Iterator[Any]:
    """Stream pyarrow RecordBatches of the dataset's pair (or reject) shards, in manifest order."""
    manifest = path_or_dir if isinstance(path_or_dir, Manifest) else load_manifest(path_or_dir)
    for path in shard_paths(manifest, kind, methods):
        pf = open_shard(path, kind)
        try:
            yield from pf.iter_batches(batch_size=batch_size, columns=columns)
        except (OSError, ValueError) as exc:
            raise InputError(f"shard {path}: corrupt data ({exc})") from None


def iter_pair_batches(path_or_dir: str | Path | Manifest, columns: list[str] | None = None,
                      methods: list[str] | None = None, batch_size: int = 8192) -> Iterator[Any]:
    return iter_batches(path_or_dir, "pairs", columns, methods, batch_size)



# -- reusing cached work (<dataset>/.work/) -------------------------------------------------------------------------
MARKER_SIGNATURE = "signature"


def _marker_key() -> str | None:
    return os.environ.get(KEY_ENV) or None


def sign_marker(record: dict[str, Any]) -> dict[str, Any]:
    """`record` with, when BSL_MANIFEST_KEY is set, an HMAC-SHA256 `signature` over all of it (the outputs' sha256
    included), so that a marker someone without the key wrote or edited is never reused under the key."""
    body = {k: v for k, v in record.items() if k != MARKER_SIGNATURE}
    key = _marker_key()
    return {**body, MARKER_SIGNATURE: keyed_digest(body, key)} if key else body


def intact_marker(marker: str | Path, outputs: dict[str, str | Path]) -> dict[str, Any] | None:
    """A completion marker's record when it parses, carries a valid signature when BSL_MANIFEST_KEY is set, and
    each output still has the sha256 the marker recorded under that output's key; None otherwise (with a warning),
    so the work is redone and a damaged, edited or unauthenticated output is never registered again. The returned
    record leaves the signature out."""
    if not (storage.is_file(marker) and all(storage.is_file(p) for p in outputs.values())):
        return None
    try:
        record = json.loads(storage.read_text(marker))
    except (ValueError, UnicodeDecodeError):
        record = None
    if not isinstance(record, dict):
        log.warning("warning: %s is not a readable completion marker; recomputing its task", marker)
        return None
    signature = record.pop(MARKER_SIGNATURE, None)
    key = _marker_key()
    if key and not (isinstance(signature, str)
                    and hmac.compare_digest(signature, keyed_digest(record, key))):
        log.warning("warning: %s is not signed with %s (written without the key, or edited since); recomputing "
                    "its task", marker, KEY_ENV)
        return None
    for key, path in outputs.items():
        if not record.get(key) or storage.sha256(path) != record[key]:
            log.warning("warning: %s does not have the sha256 its marker recorded (changed or damaged since it "
                        "was written); recomputing it", path)
            return None
    return record


def write_parquet_unless_same(table, path: str | Path) -> None:
    """Write `table` atomically unless `path` (a file or a URL) already holds exactly it: a cached file is re-read
    on every reuse, so an edited or damaged one is replaced, never trusted."""
    if storage.is_file(path):
        try:
            if storage.read_parquet(path).equals(table):
                return
        except Exception:  # pyarrow raises several types for damaged files; rewriting is the answer to all
            pass
        log.warning("warning: %s does not hold what the corpus gives now; rewriting it", path)
    storage.write_parquet(table, path)
