"""Dataset manifests: what a dataset is made of, where it came from, and checksums to prove it.

A manifest is untrusted input (a dataset directory may come from anyone). It is read in one place,
`Manifest.from_json`, into a typed object: every field a reader uses is checked there (a `ManifestError` names the
file and the field, e.g. `stats.per_method.noise.pairs`), and `load_manifest` also checks that every shard path it
names stays inside the dataset directory, before any shard is opened. Readers use attributes, never string keys.
`Manifest.to_json()` gives back exactly what `write_manifest` writes (same keys, same order, same values), so
checksums and signatures of existing datasets are unchanged.

Only `name` and `shards` are required (what verifying and reading pairs need). The descriptive parts (`source`,
`methods`, `chunks`, `stats`, `timings`, ...) are None when a manifest leaves them out, and checked in full when it
has them; a reader that shows them asks for them with `require(...)`.

What the checksums promise: `checksum` is a plain sha256 of the manifest, and each shard's `sha256` is a plain
sha256 of the file, so together they detect accidents (a truncated copy, a flipped bit, a hand edit that forgot to
update them), not tampering: anyone can recompute them. With `BSL_MANIFEST_KEY` set, the manifest also carries
`signature`, an HMAC-SHA256 under that key, and verification with the key set requires it to match: then only
people holding the key can change a dataset without `bsl verify` noticing.
"""

from __future__ import annotations

import dataclasses
import hmac
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.atomic import write_json_atomic
from bsl_pipeline.pipeline.base.errors import InputError, VerificationError
from bsl_pipeline.pipeline.base.fingerprint import digest, keyed_digest
from bsl_pipeline.pipeline.base.inside import path_inside

MANIFEST_NAME = "manifest.json"
#: The folders of a dataset that hold its shards (pairs, rejects).
DATASET_FOLDERS = ("data", "rejects")
# 2: pair shards gained changed_word_share and view_similarity, method stats their distributions. Format-1 datasets
# still read (their stats show no distributions); rebuilding one with `bsl augment` redoes every task (the filter
# settings, part of each task's key, gained fields).
FORMAT_VERSION = 2
KEY_ENV = "BSL_MANIFEST_KEY"
SHARD_KINDS = ("pairs", "rejects")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_DATASET_ID = re.compile(r"^[0-9a-f]{32}$")


class ManifestError(VerificationError, InputError):
    """A manifest that is not what `bsl augment` writes: the message names the file and the field. Both a failed
    verification (`bsl verify`) and bad input (every reader)."""


# -- reading JSON values, each named by its dotted field ----------------------------------------------------------
class _Problem(Exception):
    """A field that is not what it must be; `from_json` adds the manifest's path."""


def _is_count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _get(data: dict[str, Any], key: str, where: str, ok: Callable[[Any], bool], want: str) -> Any:
    value = data.get(key)
    if key not in data or not ok(value):
        raise _Problem(f"{where}{key} must be {want}, got {value!r}" if key in data else f"{where}{key} is missing")
    return value


def _str(data: dict[str, Any], key: str, where: str) -> str:
    return _get(data, key, where, lambda v: isinstance(v, str), "a string")


def _count(data: dict[str, Any], key: str, where: str) -> int:
    return _get(data, key, where, _is_count, "a count (integer >= 0)")


def _number(data: dict[str, Any], key: str, where: str, *, none_ok: bool = False) -> float | None:
    return _get(data, key, where, lambda v: _is_number(v) or (none_ok and v is None),
                "a number" + (" or null" if none_ok else ""))


def _object(data: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    return _get(data, key, where, lambda v: isinstance(v, dict), "an object")


def _counts(data: dict[str, Any], key: str, where: str) -> dict[str, int]:
    """An object of name -> count (rejects by reason, dropped lines by reason)."""
    value = _object(data, key, where)
    for name, n in value.items():
        if not _is_count(n):
            raise _Problem(f"{where}{key}.{name} must be a count (integer >= 0), got {n!r}")
    return value


def _entries(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _Problem(f"{where.rstrip('.')} must be an object, got {data!r}")
    return data


# -- the parts of a manifest ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ShardEntry:
    """One published Parquet file: `path` relative to the dataset directory, its kind, rows and sha256."""

    path: str
    kind: str
    rows: int
    sha256: str
    method: str | None = None
    chunk: str | None = None

    @classmethod
    def from_json(cls, data: Any, where: str) -> ShardEntry:
        data = _entries(data, where + ".")
        path = data.get("path")
        if not isinstance(path, str) or not path:
            raise _Problem(f"{where}.path must be a non-empty string, got {path!r}")
        if data.get("kind") not in SHARD_KINDS:
            raise _Problem(f"{where}.kind must be one of {', '.join(SHARD_KINDS)}, got {data.get('kind')!r}")
        rows = _count(data, "rows", where + ".")
        sha = data.get("sha256")
        if not isinstance(sha, str) or not _SHA256.match(sha):
            raise _Problem(f"{where}.sha256 must be 64 lowercase hex digits, got {sha!r}")
        optional = {k: _str(data, k, where + ".") for k in ("method", "chunk") if k in data}
        return cls(path=path, kind=data["kind"], rows=rows, sha256=sha, **optional)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "kind": self.kind}
        out.update({k: v for k, v in (("method", self.method), ("chunk", self.chunk)) if v is not None})
        return {**out, "rows": self.rows, "sha256": self.sha256}


@dataclass(frozen=True)
class SourceInfo:
    """The corpus the dataset was made from: what was read, kept and dropped, and each file's identity."""

    corpus: str
    files: list[dict[str, Any]]
    records_read: int
    records_kept: int
    dropped: dict[str, int]
    replacement_chars: int
    # The corpus files `corpus.limit` left unread: not part of the dataset, not a change of the corpus.
    not_read: list[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, data: Any, where: str = "source.") -> SourceInfo:
        data = _entries(data, where)
        files = _get(data, "files", where, lambda v: isinstance(v, list) and all(isinstance(f, dict) for f in v),
                     "a list of objects")
        not_read = _get(data, "not_read", where, lambda v: isinstance(v, list) and all(isinstance(f, str) for f in v),
                        "a list of paths") if "not_read" in data else []
        return cls(corpus=_str(data, "corpus", where), files=files, records_read=_count(data, "records_read", where),
                   records_kept=_count(data, "records_kept", where), dropped=_counts(data, "dropped", where),
                   replacement_chars=_count(data, "replacement_chars", where), not_read=not_read)

    def to_json(self) -> dict[str, Any]:
        return {"corpus": self.corpus, "files": self.files, "records_read": self.records_read,
                "records_kept": self.records_kept, "dropped": self.dropped,
                "replacement_chars": self.replacement_chars, **({"not_read": self.not_read} if self.not_read else {})}


@dataclass(frozen=True)
class MethodInfo:
    """One method's fingerprint (what determines its output) and the filters it ran with."""

    name: str
    version: Any
    params: dict[str, Any]
    models: dict[str, Any]
    code_version: str
    filters: dict[str, Any]

    @classmethod
    def from_json(cls, data: Any, where: str) -> MethodInfo:
        data = _entries(data, where)
        if "version" not in data:
            raise _Problem(f"{where}version is missing")
        return cls(name=_str(data, "name", where), version=data["version"], params=_object(data, "params", where),
                   models=_object(data, "models", where), code_version=_str(data, "code_version", where),
                   filters=_object(data, "filters", where))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "params": self.params, "models": self.models,
                "code_version": self.code_version, "filters": self.filters}


@dataclass(frozen=True)
class ChunkEntry:
    """A chunk of the corpus: which file, its place in it, records kept and dropped."""

    chunk_id: str
    file: str
    index_in_file: int
    rows: int
    dropped: int

    @classmethod
    def from_json(cls, data: Any, where: str) -> ChunkEntry:
        data = _entries(data, where)
        return cls(chunk_id=_str(data, "chunk_id", where), file=_str(data, "file", where),
                   index_in_file=_count(data, "index_in_file", where), rows=_count(data, "rows", where),
                   dropped=_count(data, "dropped", where))

    def to_json(self) -> dict[str, Any]:
        return {"chunk_id": self.chunk_id, "file": self.file, "index_in_file": self.index_in_file,
                "rows": self.rows, "dropped": self.dropped}


@dataclass(frozen=True)
class QualityDistribution:
    """How one quality field is spread over a method's kept pairs: mean and the 10th/50th/90th percentiles (numpy's
    linear interpolation) of the `n` pairs that have a value."""

    n: int
    mean: float
    p10: float
    p50: float
    p90: float

    @classmethod
    def from_json(cls, data: Any, where: str) -> QualityDistribution:
        data = _entries(data, where)
        return cls(n=_count(data, "n", where), mean=_number(data, "mean", where), p10=_number(data, "p10", where),
                   p50=_number(data, "p50", where), p90=_number(data, "p90", where))

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


#: The quality fields whose per-method distributions `MethodStats` holds (pair shard columns of the same names).
DISTRIBUTION_FIELDS = ("changed_word_share", "view_similarity")


@dataclass(frozen=True)
class MethodStats:
    """What one method produced: pairs kept, rejects by reason, quality means, time and cache use."""

    pairs: int
    rejected: int
    rejects: dict[str, int]
    identical: int
    identical_pct: float
    mean_edit_ratio: float | None
    mean_length_ratio: float | None
    seconds: float
    tasks: int
    tasks_cached: int
    # None: no kept pair has a value (no pairs; view_similarity without an encoder) or a format-1 manifest. Written
    # only when present, so a format-1 manifest reads back to exactly what it was.
    changed_word_share: QualityDistribution | None = None
    view_similarity: QualityDistribution | None = None

    @classmethod
    def from_json(cls, data: Any, where: str) -> MethodStats:
        data = _entries(data, where)
        distributions = {name: QualityDistribution.from_json(data[name], f"{where}{name}.")
                         for name in DISTRIBUTION_FIELDS if data.get(name) is not None}
        return cls(pairs=_count(data, "pairs", where), rejected=_count(data, "rejected", where),
                   rejects=_counts(data, "rejects", where), identical=_count(data, "identical", where),
                   identical_pct=_number(data, "identical_pct", where),
                   mean_edit_ratio=_number(data, "mean_edit_ratio", where, none_ok=True),
                   mean_length_ratio=_number(data, "mean_length_ratio", where, none_ok=True),
                   seconds=_number(data, "seconds", where), tasks=_count(data, "tasks", where),
                   tasks_cached=_count(data, "tasks_cached", where), **distributions)

    @property
    def coverage_pct(self) -> float | None:
        """Share (%) of the records the method read that got a kept pair (pairs over pairs + rejects); None when it
        read none. For a method with one view per sentence: the share of the distinct sentences that got a view (of
        an NLI corpus, each premise once: `Augmenter.sources`)."""
        read = self.pairs + self.rejected
        return round(100 * self.pairs / read, 1) if read else None

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        for name in DISTRIBUTION_FIELDS:
            if out[name] is None:
                del out[name]
        return out


@dataclass(frozen=True)
class DatasetStats:
    """Totals over all methods, and each method's `MethodStats` in the order of the config's methods."""

    rows_in: int
    pairs: int
    rejected: int
    rejects: dict[str, int]
    corpus_dropped: dict[str, int]
    identical_views: int
    mean_edit_ratio: float | None
    per_method: dict[str, MethodStats]

    @classmethod
    def from_json(cls, data: Any, where: str = "stats.") -> DatasetStats:
        data = _entries(data, where)
        per_method = _object(data, "per_method", where)
        return cls(rows_in=_count(data, "rows_in", where), pairs=_count(data, "pairs", where),
                   rejected=_count(data, "rejected", where), rejects=_counts(data, "rejects", where),
                   corpus_dropped=_counts(data, "corpus_dropped", where),
                   identical_views=_count(data, "identical_views", where),
                   mean_edit_ratio=_number(data, "mean_edit_ratio", where, none_ok=True),
                   per_method={m: MethodStats.from_json(s, f"{where}per_method.{m}.") for m, s in per_method.items()})

    def to_json(self) -> dict[str, Any]:
        return {"rows_in": self.rows_in, "pairs": self.pairs, "rejected": self.rejected, "rejects": self.rejects,
                "corpus_dropped": self.corpus_dropped, "identical_views": self.identical_views,
                "mean_edit_ratio": self.mean_edit_ratio,
                "per_method": {m: s.to_json() for m, s in self.per_method.items()}}


@dataclass(frozen=True)
class Timings:
    """Seconds spent reading chunks, waiting on the executor, finalizing, and in all."""

    read_chunk_s: float
    augment_s: float
    total_s: float
    finalize_s: float

    @classmethod
    def from_json(cls, data: Any, where: str = "timings.") -> Timings:
        data = _entries(data, where)
        return cls(**{f.name: _number(data, f.name, where) for f in dataclasses.fields(cls)})

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


# Top-level keys in the order `write_manifest` writes them (checksum last), each with the reader of its part.
_PARTS: dict[str, Callable[[Any, str], Any]] = {
    "format_version": lambda v, w: _count({"format_version": v}, "format_version", ""),
    "name": lambda v, w: _str({"name": v}, "name", ""),
    "dataset_id": lambda v, w: _get({"dataset_id": v}, "dataset_id", "", lambda x: isinstance(x, str) and
                                    bool(_DATASET_ID.match(x)), "32 lowercase hex digits"),
    "version": lambda v, w: _get({"version": v}, "version", "", lambda x: _is_count(x) and x >= 1,
                                 "an integer >= 1"),
    "created": lambda v, w: _str({"created": v}, "created", ""),
    "code_version": lambda v, w: _str({"code_version": v}, "code_version", ""),
    "dataset_dir": lambda v, w: _str({"dataset_dir": v}, "dataset_dir", ""),
    "config": lambda v, w: _entries(v, "config."),
    "source": lambda v, w: SourceInfo.from_json(v),
    "methods": lambda v, w: {m: MethodInfo.from_json(x, f"methods.{m}.") for m, x in _entries(v, "methods.").items()},
    "chunks": lambda v, w: [ChunkEntry.from_json(c, f"chunks[{i}].") for i, c in enumerate(_list(v, "chunks"))],
    "shards": lambda v, w: [ShardEntry.from_json(s, f"shards[{i}]") for i, s in enumerate(_list(v, "shards"))],
    "stats": lambda v, w: DatasetStats.from_json(v),
    "timings": lambda v, w: Timings.from_json(v),
    "annotations": lambda v, w: _annotations(v),
    "card_sha256": lambda v, w: _get({"card_sha256": v}, "card_sha256", "", lambda x: isinstance(x, str) and
                                     bool(_SHA256.match(x)), "64 lowercase hex digits"),
    "signature": lambda v, w: _str({"signature": v}, "signature", ""),
    "checksum": lambda v, w: _str({"checksum": v}, "checksum", ""),
}


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _Problem(f"'{where}' must be a list, got {type(value).__name__}")
    return value


@dataclass
class Manifest:
    """A dataset's manifest, typed. `path` (the manifest file) and `root` (the dataset directory) are set by
    `load_manifest`; they are not part of the JSON."""

    name: str
    shards: list[ShardEntry]
    format_version: int | None = None
    # Which dataset this is and which write of it: covered by the checksum and the signature, and also recorded in
    # the directory's output marker and the registry entry, so that another dataset's signed files copied over
    # this one, or an older signed write of it put back, fail `bsl verify` (`pipeline.dataset.store`).
    dataset_id: str | None = None
    version: int | None = None
    created: str | None = None
    code_version: str | None = None
    dataset_dir: str | None = None
    config: dict[str, Any] | None = None
    source: SourceInfo | None = None
    methods: dict[str, MethodInfo] | None = None
    chunks: list[ChunkEntry] | None = None
    stats: DatasetStats | None = None
    timings: Timings | None = None
    annotations: dict[str, dict[str, Any]] | None = None  # name -> {"path": ...}: see ANNOTATIONS
    # sha256 of the card the tool wrote with this manifest, less its judged-views block (`pipeline.dataset.card`):
    # a later run knows the card for the tool's whatever template wrote it.
    card_sha256: str | None = None
    signature: str | None = None
    checksum: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # keys this version does not know, kept as written
    path: Path | None = field(default=None, compare=False, repr=False)
    root: Path | None = field(default=None, compare=False, repr=False)
    raw: dict[str, Any] | None = field(default=None, compare=False, repr=False)  # the JSON as read (checksums)

    @classmethod
    def from_json(cls, data: Any, path: str | Path) -> Manifest:
        """Check and type a manifest's JSON; a ManifestError names `path` and the first field that is wrong."""
        if not isinstance(data, dict) or "shards" not in data:
            raise ManifestError(f"{path}: not a dataset manifest (no 'shards')")
        parts: dict[str, Any] = {}
        try:
            if "name" not in data:
                raise _Problem("name is missing")
            for key, read in _PARTS.items():
                if key in data:
                    parts[key] = read(data[key], key)
        except _Problem as problem:
            raise ManifestError(f"{path}: malformed manifest: {problem}") from None
        extra = {k: v for k, v in data.items() if k not in _PARTS and not k.startswith("_")}
        return cls(**parts, extra=extra, path=Path(path), raw=data)

    def to_json(self) -> dict[str, Any]:
        """The manifest as `write_manifest` writes it: known keys in their order, unknown ones before the
        signature and checksum, absent parts left out."""
        out: dict[str, Any] = {}
        for key in _PARTS:
            if key in ("signature", "checksum"):
                out.update(self.extra)
            value = getattr(self, key)
            if value is None:
                continue
            if key == "methods":
                value = {m: v.to_json() for m, v in value.items()}
            elif key in ("chunks", "shards"):
                value = [v.to_json() for v in value]
            elif hasattr(value, "to_json"):
                value = value.to_json()
            out[key] = value
        return out

    # -- what readers ask -----------------------------------------------------------------------------------------
    @property
    def where(self) -> str:
        return str(self.path) if self.path else f"manifest of {self.name}"

    def require(self, *parts: str) -> None:
        """Raise a ManifestError naming the parts (e.g. "stats", "source") this manifest leaves out."""
        missing = [p for p in parts if getattr(self, p) is None]
        if missing:
            raise ManifestError(f"{self.where}: manifest has no {', '.join(missing)} (not written by `bsl augment`?)")

    def shards_of(self, kind: str, methods: list[str] | None = None) -> list[ShardEntry]:
        return [s for s in self.shards if s.kind == kind and (methods is None or s.method in methods)]

    @property
    def method_names(self) -> list[str]:
        """The methods the dataset was made with (its `methods` part, else those its shards name)."""
        if self.methods is not None:
            return list(self.methods)
        return list(dict.fromkeys(s.method for s in self.shards if s.method and s.method != "corpus"))

    def is_other_dataset(self, methods: list[str], source: SourceInfo | None) -> bool:
        """Whether a run with `methods` on the corpus `source` makes another dataset than this one: what it
        replaces of this one is then all set aside, none of it dropped as the tool's own superseded shards."""
        return bool(self.what_differs(methods, source))

    def what_differs(self, methods: list[str], source: SourceInfo | None) -> list[str]:
        """What makes a run with `methods` on `source` another dataset than this one, in words ([] = the same
        dataset, made again): other methods; another corpus (its place); a corpus whose files this one was made
        from are gone or hold other bytes (their sha256). A corpus that only gained files is the same one, grown;
        a file the run did not read (`corpus.limit` stopped before it, `SourceInfo.not_read`) is not judged: other
        settings on the same corpus make the same dataset."""
        differs = []
        if set(self.method_names) != set(methods):
            differs.append("other methods")
        if self.source is not None and source is not None:
            if self.source.corpus != source.corpus:
                differs.append("another corpus")
            else:
                now = {f.get("path"): f for f in source.files}
                unread = set(source.not_read)
                changed = [str(f.get("path")) for f in self.source.files
                           if f.get("path") not in unread and now.get(f.get("path")) != f]
                if changed:
                    more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
                    differs.append(f"the corpus changed: {changed[0]}{more} gone or edited")
        return differs


# -- checksums, writing, loading ----------------------------------------------------------------------------------
def _body(manifest: dict[str, Any], leave_out: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in manifest.items() if k not in leave_out and not k.startswith("_")}


def manifest_checksum(manifest: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of everything but the checksum itself: detects edits to the manifest."""
    return digest(_body(manifest, ("checksum",)))


def manifest_signature(manifest: dict[str, Any], key: str) -> str:
    """HMAC-SHA256 under `key` of everything but the checksum and the signature."""
    return keyed_digest(_body(manifest, ("checksum", "signature")), key)


def _signing_key() -> str | None:
    return os.environ.get(KEY_ENV) or None


def write_manifest(manifest: Manifest | dict[str, Any], path: str | Path) -> None:
    """Write with a fresh checksum, and a signature when BSL_MANIFEST_KEY is set (a stale one is dropped). A dict
    is written as it is (tests and tools that write a manifest by hand)."""
    data = manifest.to_json() if isinstance(manifest, Manifest) else manifest
    data = {k: v for k, v in data.items() if k not in ("checksum", "signature") and not k.startswith("_")}
    key = _signing_key()
    if key:
        data["signature"] = manifest_signature(data, key)
    data["checksum"] = manifest_checksum(data)
    write_json_atomic(path, data)


def manifest_path(path_or_dir: str | Path) -> Path:
    p = Path(path_or_dir)
    return p / MANIFEST_NAME if p.is_dir() else p


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        if path.name != MANIFEST_NAME and path.suffix.lower() != ".json":
            raise InputError(f"{path}: not a dataset manifest (a dataset directory or its {MANIFEST_NAME} is "
                             f"expected; a text corpus is augmented into one first: bsl augment {path} --out "
                             f"DATASET_DIR)") from None
        raise InputError(f"{path}: not valid JSON ({exc})") from None


def load_manifest(path_or_dir: str | Path) -> Manifest:
    """Read a manifest (or a dataset dir's manifest) into a `Manifest`, check its fields and that every shard path
    stays inside the dataset directory; sets `path` (the manifest file) and `root` (that directory). A URL
    (`s3://...`) is read through a local copy of the dataset (`pipeline.base.storage.local_copy`)."""
    from bsl_pipeline.pipeline.base.storage import is_url, local_copy

    if is_url(path_or_dir):
        from bsl_pipeline.pipeline.base.ownership import MARKER_NAME

        files = (MANIFEST_NAME, "README.md", MARKER_NAME, *(a["path"] for a in ANNOTATIONS.values()))
        path_or_dir = local_copy(str(path_or_dir), files, DATASET_FOLDERS, required=MANIFEST_NAME,
                                 listed=_listed_shards)
    path = manifest_path(path_or_dir)
    if not path.is_file():
        raise InputError(f"no manifest at {path} (is {path_or_dir} a dataset directory made by `bsl augment`?)")
    manifest = Manifest.from_json(_read_json(path), path)
    root = _dataset_root(path, manifest)
    for i, shard in enumerate(manifest.shards):
        resolve_inside(root, shard.path, f"{path}: shards[{i}].path")
    manifest.root = root
    return manifest


def _listed_shards(root: Path) -> list[str]:
    """The shard paths the manifest in a local copy of a URL lists: the only objects under data/ and rejects/ the
    copy downloads (others are named by the listing, never fetched). [] when it cannot be read: `load_manifest`
    then says why."""
    try:
        shards = json.loads((root / MANIFEST_NAME).read_text(encoding="utf-8"))["shards"]
        return [s["path"] for s in shards if isinstance(s, dict) and isinstance(s.get("path"), str)]
    except (OSError, ValueError, UnicodeDecodeError, RecursionError, KeyError, TypeError):
        return []


def _dataset_root(path: Path, manifest: Manifest) -> Path:
    """A dataset's own manifest.json: its directory. Any other file is a registered copy (data_manifests/): its
    `dataset_dir` counts only if that directory holds the same manifest."""
    if path.name == MANIFEST_NAME:
        return path.parent
    if not manifest.dataset_dir:
        raise InputError(f"{path}: a registered manifest must name its dataset_dir")
    from bsl_pipeline.pipeline.base.storage import is_url

    if is_url(manifest.dataset_dir):  # a dataset on an object store: its own manifest, read through the local copy
        own_manifest = load_manifest(manifest.dataset_dir)
        if own_manifest.checksum != manifest.checksum:
            raise InputError(f"{path}: differs from the manifest of {manifest.dataset_dir}, the dataset it names "
                             f"(register it again)")
        return own_manifest.root
    root = Path(manifest.dataset_dir)
    own = root / MANIFEST_NAME
    if not own.is_file():
        raise InputError(f"{path}: names dataset_dir {root}, which has no {MANIFEST_NAME}")
    recorded = _read_json(own)
    if not isinstance(recorded, dict) or recorded.get("checksum") != manifest.checksum:
        raise InputError(f"{path}: differs from {own}, the manifest of the dataset it names (register it again)")
    return root


def resolve_inside(root: str | Path, relative: str, where: str) -> Path:
    """The check for every path a manifest names (`pipeline.base.inside.path_inside`, the one check of paths that
    untrusted files name): relative, no '..', and (symlinks followed) inside the dataset directory `root`."""
    return path_inside(root, relative, where, "the dataset directory")


def check_manifest_checksum(manifest: Manifest) -> None:
    """The manifest's own checksum, and with BSL_MANIFEST_KEY set its signature, over the JSON as it was read."""
    data = manifest.raw if manifest.raw is not None else manifest.to_json()
    recorded = manifest.checksum
    if recorded is None:
        raise VerificationError(f"{manifest.where}: manifest has no checksum")
    actual = manifest_checksum(data)
    if actual != recorded:
        raise VerificationError(f"{manifest.where}: manifest was modified after it was written "
                                f"(checksum {actual[:12]}... != recorded {recorded[:12]}...)")
    key = _signing_key()
    if key is None:
        return
    signature = manifest.signature
    if signature is None:
        raise VerificationError(f"{manifest.where}: manifest is not signed, but {KEY_ENV} is set (write it "
                                f"with the key set, or unset the key to check the plain checksum only)")
    if not hmac.compare_digest(signature, manifest_signature(data, key)):
        raise VerificationError(f"{manifest.where}: manifest signature does not match {KEY_ENV} (changed by "
                                f"someone without the key, or signed with another key)")


def unchecked_signature_note(manifest: Manifest) -> str:
    """What `check_manifest_checksum` left unchecked of a signed manifest: "signature not checked: BSL_MANIFEST_KEY
    unset" when the manifest carries a signature and the key is not set (the plain checksum alone was checked),
    else "" (no signature, or the key set and the signature checked)."""
    if manifest.signature is None or _signing_key() is not None:
        return ""
    return f"signature not checked: {KEY_ENV} unset"


def register(manifest_file: Path, registry_dir: str | Path, name: str) -> Path:
    """Copy a dataset's manifest into the registry as `<registry>/datasets/<name>.json` (atomic). `name` must be
    one file name (`check_output_name`), so the copy never lands outside `<registry>/datasets/`."""
    from bsl_pipeline.pipeline.base.ownership import check_output_name

    check_output_name(name, "dataset name")
    manifest = json.loads(Path(manifest_file).read_text(encoding="utf-8"))
    folder = Path(registry_dir) / "datasets"
    target = folder / f"{name}.json"
    if target.resolve().parent != folder.resolve():
        raise InputError(f"registry copy {target} would land outside {folder} (a symlink?)")
    write_json_atomic(target, manifest)
    return target


#: How the per-method quality distributions are titled in the card, `bsl inspect --stats` and the report.
#: What the stats tables' coverage column means (inspect --stats, card).
COVERAGE_NOTE = ("coverage: share of the records a method read that got a kept pair (for one view per sentence: "
                 "the distinct sentences that got a view, an NLI premise counted once; the others are its rejects, "
                 "by reason)")


DISTRIBUTION_TITLES = {"changed_word_share": "changed words mean (p10/p50/p90)",
                       "view_similarity": "view similarity mean (p10/p50/p90)"}


def distribution_text(d: QualityDistribution | None) -> str:
    """`mean (p10/p50/p90)` with two decimals, "-" when not measured."""
    if d is None:
        return "-"
    return f"{d.mean:.2f} ({d.p10:.2f}/{d.p50:.2f}/{d.p90:.2f})"


def figure_text(value: Any, digits: int = 3) -> str:
    """A figure as the stats tables show it (terminal, card, HTML page): a float with `digits` decimals, "-" for
    none, anything else as `str` gives it."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def stats_rows(manifest: Manifest) -> list[dict[str, Any]]:
    """One row per method: the stats table of the dataset card, `bsl inspect --stats`, the HTML page and the
    report."""
    manifest.require("stats")
    rows = []
    for method, s in manifest.stats.per_method.items():
        rows.append({"method": method, "pairs": s.pairs, "coverage %": "-" if s.coverage_pct is None else f"{s.coverage_pct:.1f}",
                     "identical %": s.identical_pct,
                     "mean edit ratio": s.mean_edit_ratio, "mean length ratio": s.mean_length_ratio,
                     **{title: distribution_text(getattr(s, name)) for name, title in DISTRIBUTION_TITLES.items()},
                     "rejected": s.rejected,
                     "rejects by reason": rejects_text(s.rejects)})
    return rows


def rejects_text(rejects: dict[str, int], top: int | None = None) -> str:
    """'kind=N' per reject kind (the reason before its first ':'), its detailed reasons in brackets, most first:
    `no_eligible_word=256 (no_substitute:multiword=178, no_substitute:unseen_lemma=28, ...)`. `top`: name only the
    `top` largest detailed reasons of each kind, the others as one `+K more=M` (K reasons, M rejects, K > 1: one
    reason is named rather than folded), so the figures still add up (the terminal's table; the card and the HTML
    page name every reason)."""
    kinds: dict[str, dict[str, int]] = {}
    for reason, count in rejects.items():
        kind, _, detail = reason.partition(":")
        kinds.setdefault(kind, {})[detail] = kinds.get(kind, {}).get(detail, 0) + count
    parts = []
    for kind, details in kinds.items():
        text = f"{kind}={sum(details.values())}"
        named = sorted(((d, n) for d, n in details.items() if d), key=lambda item: (-item[1], item[0]))
        folded = top is not None and len(named) > top + 1
        shown = [f"{d}={n}" for d, n in (named[:top] if folded else named)]
        if folded:
            shown.append(f"+{len(named) - top} more={sum(n for _, n in named[top:])}")
        if shown:
            text += " (" + ", ".join(shown) + ")"
        parts.append(text)
    return ", ".join(parts) or "-"


#: Files beside the shards that every manifest `bsl augment` writes names under `annotations`, outside the shards'
#: checksums: people's marks, added after the dataset was written (`pipeline.dataset.judgments`). Their paths are
#: checked to stay inside the dataset (`resolve_inside`) where they are read.
ANNOTATIONS = {"judgments": {"path": "judgments.jsonl", "format": "jsonl", "checksummed": False,
                             "written_by": "bsl review"}}


def _annotations(value: Any) -> dict[str, dict[str, Any]]:
    for name, entry in _entries(value, "annotations.").items():
        _str(_entries(entry, f"annotations.{name}."), "path", f"annotations.{name}.")
    return value
