"""Where data lives: a local path or a URL (`s3://bucket/prefix`, or any protocol fsspec knows), one set of calls.

A location is a `str` or `Path`. It is a URL when it is a string that starts with `<scheme>://` and the scheme is
not `file`; everything else is a local path (so `./s3://x`, a `Path`, or `s3:/x` are files on this disk). Local
locations keep the tool's disk code (`pipeline.base.atomic`: temp file + rename); on an object store a file is one
PUT, which a reader sees whole or not at all.

How to reach the store comes from `StorageConfig` (the `storage` section of a config: `endpoint_url`, `options`,
the writer lease) and from the environment the client library reads itself (`AWS_ACCESS_KEY_ID`,
`AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE`, `AWS_ENDPOINT_URL`, ...). Credentials are never taken from a config (a
config is recorded in manifests and reports), and every error message goes through `redact`.

Faults become one `BSLError` line naming the URL (`storage_errors`): an endpoint that cannot be reached (after the
client's bounded retries), a missing bucket or object, a refused access.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import logging
import os
import re
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.config import Range
from bsl_pipeline.pipeline.base.errors import BSLError, InputError
from bsl_pipeline.pipeline.base.ownership import holder_gone

log = logging.getLogger(__name__)

_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*)://")
_S3 = ("s3", "s3a")
#: Option names that hold credentials: refused in a config (it is recorded in manifests and reports).
SECRET_OPTIONS = frozenset({"key", "secret", "token", "password", "session_token", "access_key", "secret_key",
                            "aws_access_key_id", "aws_secret_access_key", "aws_session_token", "client_secret",
                            "credentials", "account_key", "sas_token"})
#: Environment variables whose values never appear in a message.
SECRET_ENV = ("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID", "AWS_SECURITY_TOKEN",
              "GOOGLE_APPLICATION_CREDENTIALS", "HF_TOKEN")


class StorageError(BSLError):
    """An object store could not be read or written (unreachable, no bucket, access refused)."""


@dataclass
class StorageConfig:
    endpoint_url: str = field(default="", metadata={
        "help": "S3-compatible endpoint for s3:// locations, e.g. http://127.0.0.1:9000 for a MinIO ('' = the "
                "client's default: AWS, or AWS_ENDPOINT_URL; a flow's tasks carry the one the flow machine "
                "resolved to its Dask workers)"})
    options: dict[str, Any] = field(default_factory=dict, metadata={
        "help": "fsspec storage options passed to the filesystem, e.g. storage.options.anon=true (never "
                "credentials: those come from the environment or a profile)"})
    lease_s: int = field(default=120, metadata={
        "range": Range(5, 86_400), "help": "seconds after its last renewal that another host's writer lease on an "
                                           "object-store output counts as stale"})


def check_storage_config(config: StorageConfig, where: str = "storage") -> StorageConfig:
    """Refuse credentials in a config, at any depth of `options`."""
    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if str(k).lower() in SECRET_OPTIONS:
                    raise BSLError(f"{path}.{k}: credentials are not taken from a config (it is recorded in "
                                   f"manifests and reports): set AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or a "
                                   f"profile (AWS_PROFILE) in the environment")
                walk(v, f"{path}.{k}")

    walk(config.options, f"{where}.options")
    return config


_current = StorageConfig()


def use_storage(config: StorageConfig | None) -> None:
    """The storage settings this process reaches URLs with (an entry point sets them from its config)."""
    global _current
    _current = check_storage_config(config or StorageConfig())


def current_storage() -> StorageConfig:
    return _current


def is_url(location: Any) -> bool:
    """A string `<scheme>://...` with a scheme other than `file`; a Path is always local."""
    if not isinstance(location, str):
        return False
    match = _URL.match(location)
    return match is not None and match.group(1).lower() != "file"


def local(location: str | Path) -> Path:
    """A local location as a Path (`file://` stripped)."""
    text = str(location)
    return Path(text[len("file://"):] if text.startswith("file://") else text)


def redact(text: str) -> str:
    """`text` without credentials: user:password in URLs, and the values of credential variables."""
    text = re.sub(r"(://)[^/@\s]+@", r"\1***@", str(text))
    for name in SECRET_ENV:
        value = os.environ.get(name)
        if value and len(value) >= 4:
            text = text.replace(value, "***")
    return text


def join(base: str | Path, *parts: str) -> str | Path:
    if is_url(base):
        return "/".join([str(base).rstrip("/"), *(p.strip("/") for p in parts)])
    return local(base).joinpath(*parts)


def name_of(location: str | Path) -> str:
    return str(location).rstrip("/").rsplit("/", 1)[-1] if is_url(location) else local(location).name


def _options(protocol: str, config: StorageConfig) -> dict[str, Any]:
    options = dict(config.options)
    if protocol in _S3:
        if config.endpoint_url:
            options.setdefault("endpoint_url", config.endpoint_url)
        # Bounded retries: a store that cannot be reached fails within seconds, not minutes.
        options.setdefault("config_kwargs", {"connect_timeout": 5, "read_timeout": 60,
                                             "retries": {"max_attempts": 2, "mode": "standard"}})
    return options


def backend_package(protocol: str) -> str | None:
    """The Python package fsspec needs for `protocol://` (`gs` -> gcsfs), None when fsspec knows no such scheme."""
    from fsspec.registry import known_implementations

    known = known_implementations.get(protocol)
    if known is None:
        return None
    module = known["class"].split(".", 1)[0]
    if module != "fsspec":
        return module
    # A backend inside fsspec itself that needs a further package: fsspec's message names it in quotes.
    named = re.findall(r'"+([A-Za-z0-9_.\-]+)"+', known.get("err", ""))
    return named[0] if named else "fsspec"


def filesystem(url: str, config: StorageConfig | None = None):
    """(fsspec filesystem, path inside it) for a URL. A scheme whose backend is not installed, or that fsspec does
    not know, is one StorageError line naming the scheme (and the package to install)."""
    import fsspec

    protocol = _URL.match(url).group(1).lower()
    config = config or _current
    try:
        fsspec.get_filesystem_class(protocol)
    except ImportError:
        package = backend_package(protocol) or protocol
        raise StorageError(f"{redact(url)}: the {protocol}:// scheme needs the Python package {package}, which is "
                           f"not installed: pip install {package}") from None
    except ValueError:
        raise StorageError(f"{redact(url)}: no fsspec filesystem knows the scheme {protocol}:// (a typo? s3://, "
                           f"gs://, ... with the package for it installed)") from None
    with storage_errors(url, config):
        try:
            fs, path = fsspec.core.url_to_fs(url, **_options(protocol, config))
        except (ImportError, ValueError) as exc:
            raise StorageError(f"{redact(url)}: no filesystem for {protocol}:// ({redact(exc)})") from None
    if protocol in _S3:
        fs.retries = 2  # s3fs's own retries of transient errors, on top of the client's
    return fs, path


def s3_endpoint(config: StorageConfig | None = None) -> str:
    """The S3 endpoint this process reaches s3:// with: `storage.endpoint_url`, else AWS_ENDPOINT_URL_S3, else
    AWS_ENDPOINT_URL; '' = the client's default (AWS)."""
    config = config or _current
    return config.endpoint_url or os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL") or ""


def endpoint_of(url: str, config: StorageConfig | None = None) -> str:
    if _URL.match(url).group(1).lower() in _S3:
        return s3_endpoint(config) or "the default AWS endpoint"
    return _URL.match(url).group(1) + "://"


def _bucket(url: str) -> str:
    return url.split("://", 1)[1].split("/", 1)[0]


@contextlib.contextmanager
def storage_errors(url: str, config: StorageConfig | None = None) -> Iterator[None]:
    """Turn a store's failure into one StorageError line naming the URL (never a credential)."""
    try:
        yield
    except BSLError:
        raise
    except FileNotFoundError as exc:
        text = str(exc)
        if "NoSuchBucket" in text or "bucket does not exist" in text.lower():
            raise StorageError(f"{redact(url)}: bucket {_bucket(url)!r} does not exist (bsl never creates "
                               f"buckets: create it, or fix the URL)") from None
        raise InputError(f"{redact(url)}: not found") from None
    except PermissionError:
        raise StorageError(f"{redact(url)}: access denied by the storage service (check the credentials' "
                           f"permissions on bucket {_bucket(url)!r})") from None
    except Exception as exc:  # noqa: BLE001 - clients raise many types; each becomes one line
        text = f"{type(exc).__name__}: {exc}"
        if _unreachable(exc):
            raise StorageError(f"{redact(url)}: cannot reach the storage endpoint {redact(endpoint_of(url, config))} "
                               f"(gave up after the client's retries)") from None
        if "AccessDenied" in text or "Forbidden" in text or "InvalidAccessKeyId" in text or \
                "SignatureDoesNotMatch" in text:
            raise StorageError(f"{redact(url)}: access denied by the storage service (check the credentials' "
                               f"permissions on bucket {_bucket(url)!r})") from None
        raise StorageError(f"{redact(url)}: storage error ({redact(text)[:300]})") from None


def _unreachable(exc: BaseException) -> bool:
    seen = 0
    while exc is not None and seen < 8:
        name = type(exc).__name__
        if isinstance(exc, (ConnectionError, socket.gaierror, TimeoutError)) or name in {
                "EndpointConnectionError", "ConnectTimeoutError", "ClientConnectorError", "ConnectionClosedError",
                "ServerDisconnectedError", "ClientOSError", "ReadTimeoutError", "ConnectionError"}:
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


# -- one call per operation, local or URL --------------------------------------------------------------------------
def _on_store(url: str, method: str, *args: Any) -> Any:
    """`fs.<method>(path, *args)` of the URL's filesystem, its failures as one line (`storage_errors`)."""
    fs, path = filesystem(url)
    with storage_errors(url):
        return getattr(fs, method)(path, *args)


def exists(location: str | Path) -> bool:
    return _on_store(location, "exists") if is_url(location) else local(location).exists()


def is_file(location: str | Path) -> bool:
    return _on_store(location, "isfile") if is_url(location) else local(location).is_file()


def read_bytes(location: str | Path) -> bytes:
    return _on_store(location, "cat_file") if is_url(location) else local(location).read_bytes()


def read_text(location: str | Path) -> str:
    return read_bytes(location).decode("utf-8")


def write_bytes(location: str | Path, data: bytes) -> None:
    """Atomic: a temp file renamed into place on disk, one PUT on a store."""
    if not is_url(location):
        from bsl_pipeline.pipeline.base.atomic import atomic_path

        with atomic_path(local(location)) as tmp:
            tmp.write_bytes(data)
        return
    _on_store(location, "pipe_file", data)


def create_exclusive(location: str | Path, data: bytes) -> bool:
    """Create the file only if nothing is there (O_EXCL on disk, a PUT with `If-None-Match: *` on S3). False
    when it already exists."""
    if not is_url(location):
        path = local(location)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return False
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        return True
    fs, path = filesystem(location)
    with storage_errors(location):
        try:
            fs.pipe_file(path, data, mode="create")
        except FileExistsError:
            return False
    return True


def json_bytes(data: Any) -> bytes:
    """What `pipeline.base.atomic.write_json_atomic` writes, as bytes."""
    from bsl_pipeline.pipeline.base.atomic import json_text

    return json_text(data).encode("utf-8")


def write_json(location: str | Path, data: Any) -> None:
    if not is_url(location):
        from bsl_pipeline.pipeline.base.atomic import write_json_atomic

        write_json_atomic(local(location), data)
        return
    write_bytes(location, json_bytes(data))


def parquet_bytes(table) -> bytes:
    """What `pipeline.base.atomic.write_parquet_atomic` writes, as bytes (the same writer and options)."""
    from bsl_pipeline.pipeline.base.atomic import write_parquet_to

    buffer = io.BytesIO()
    write_parquet_to(table, buffer)
    return buffer.getvalue()


def write_parquet(table, location: str | Path) -> None:
    if not is_url(location):
        from bsl_pipeline.pipeline.base.atomic import write_parquet_atomic

        write_parquet_atomic(table, local(location))
        return
    write_bytes(location, parquet_bytes(table))


def read_parquet(location: str | Path, columns: list[str] | None = None):
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not is_url(location):
        return pq.read_table(local(location), columns=columns)
    return pq.read_table(pa.BufferReader(read_bytes(location)), columns=columns)


def sha256(location: str | Path) -> str:
    if not is_url(location):
        from bsl_pipeline.pipeline.base.provenance import sha256_file

        return sha256_file(local(location))
    fs, path = filesystem(location)
    digest = hashlib.sha256()
    with storage_errors(location), fs.open(path, "rb", block_size=8 << 20) as fh:
        for block in iter(lambda: fh.read(8 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def listing(location: str) -> dict[str, dict[str, Any]]:
    """Every object under a URL prefix: relative path -> {"size", "etag"}. {} when there is none. A key ending in
    "/" (a folder marker, as a store's console makes) is no file of a dataset: not listed, so never moved."""
    fs, path = filesystem(location)
    with storage_errors(location):
        try:
            found = fs.find(path, detail=True, withdirs=False)
        except FileNotFoundError as exc:
            if "bucket" in str(exc).lower():
                raise
            return {}
    base = path.rstrip("/") + "/"
    return {name[len(base):]: _entry(info) for name, info in found.items()
            if name.startswith(base) and info.get("type") != "directory" and not name.endswith("/")}


def move(source: str, target: str) -> None:
    """Move one object (copy, then remove the original): the set-aside of object stores. One object by its exact
    name (`cp_file`, never `copy`, which reads `[`, `*` and `?` as a glob), and the original is removed only once
    the copy holds as many bytes."""
    fs, src = filesystem(source)
    _, dst = filesystem(target)
    with storage_errors(source):
        fs.invalidate_cache(src)  # sizes from the store now, not from an earlier listing
        size = fs.info(src).get("size")
        fs.cp_file(src, dst)
        fs.invalidate_cache(dst)
        if fs.info(dst).get("size") != size:
            raise StorageError(f"{redact(source)}: its copy at {redact(target)} is incomplete; the original is "
                               f"left in place")
        fs.rm_file(src)


def remove_own(location: str) -> None:
    """Remove an object the tool wrote (a lease, or a manifest or shard of its own that a publish replaces)."""
    fs, path = filesystem(location)
    with storage_errors(location):
        with contextlib.suppress(FileNotFoundError):
            fs.rm_file(path)


def download(url: str, target: Path) -> None:
    from bsl_pipeline.pipeline.base.atomic import atomic_path

    fs, path = filesystem(url)
    with storage_errors(url), atomic_path(target) as tmp:
        fs.get_file(path, str(tmp))


# -- one writer per output on an object store ----------------------------------------------------------------------
LEASE_NAME = ".bsl-lock"


class _LeaseGone(BSLError):
    """The lease object was removed (released) while it was being looked at."""


def _modified(info: dict[str, Any]) -> datetime | None:
    """An object's modification time as the store gives it (S3: LastModified; other fsspec backends: mtime)."""
    value = info.get("LastModified") or info.get("last_modified") or info.get("mtime") or info.get("updated")
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(value, timezone.utc)
    return None


class Lease:
    """The writer lock of an object-store output: the object `<prefix>/.bsl-lock`, created with a conditional PUT
    (`If-None-Match: *`, which S3, MinIO and moto honour), renewed by a background thread every third of
    `lease_s`. A lease is stale when its process is gone (same host) or it was not renewed for `lease_s` seconds
    (another host); a stale lease is removed (after reading it again: still that lease) and taken with the same
    conditional create, so of two writers that find it only one gets it. S3 has no conditional delete that every
    server honours, so two writers that find the same stale lease at the same moment leave a window of one
    request between the second look and the removal."""

    def __init__(self, prefix: str, what: str = "output", config: StorageConfig | None = None,
                 wait_s: float = 0.0, wait_for: tuple[str, ...] = ()):
        self.url = join(prefix, LEASE_NAME)
        self.what = what
        self.config = config or _current
        # While a live holder whose record says it is one of `wait_for` (a short writer, such as one review mark)
        # has the lease, `acquire` tries again for up to `wait_s` seconds.
        self.wait_s = wait_s
        self.wait_for = wait_for
        self.id = uuid.uuid4().hex
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _record(self) -> dict[str, Any]:
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        return {"tool": "bsl", "id": self.id, "what": self.what, "pid": os.getpid(), "host": socket.gethostname(),
                "renewed": now, "renewed_unix": time.time(), "lease_s": self.config.lease_s}

    def _holder(self) -> dict[str, Any] | None:
        try:
            data = json.loads(read_text(self.url))
        except InputError:
            return None
        except (ValueError, UnicodeDecodeError):
            return {}
        return data if isinstance(data, dict) else {}

    def _stale(self, holder: dict[str, Any]) -> bool | None:
        """Whether the lease `holder` read is stale; None when it is gone meanwhile (released)."""
        if holder_gone(holder):
            return True
        lease = holder.get("lease_s") if isinstance(holder.get("lease_s"), int) else self.config.lease_s
        try:
            age = self._age_on_store()
        except _LeaseGone:
            return None
        if age is not None:
            return age > lease
        renewed = holder.get("renewed_unix")  # a store that gives no modification times: the holder's own clock
        return not isinstance(renewed, (int, float)) or time.time() - renewed > lease

    def _age_on_store(self) -> float | None:
        """Seconds since the lease was last written, on the store's own clock (its modification time against the
        store's time now), so that a host whose clock runs ahead never judges a live lease stale. None where the
        store gives no modification times; _LeaseGone when the lease is gone."""
        fs, path = filesystem(self.url)
        with storage_errors(self.url):
            fs.invalidate_cache(path)
            try:
                written = _modified(fs.info(path))
            except FileNotFoundError:
                raise _LeaseGone(self.url) from None
        offset = self._store_clock_offset
        if written is None or offset is None:
            return None
        return (datetime.now(timezone.utc) + offset - written).total_seconds()

    @functools.cached_property
    def _store_clock_offset(self) -> timedelta | None:
        """The store's clock minus this host's, read once per lease from a probe object written (and removed) beside
        it; None where the store gives no modification times."""
        probe = f"{self.url}.probe-{self.id}"
        fs, probe_path = filesystem(probe)
        with storage_errors(probe):
            fs.pipe_file(probe_path, b"")
            try:
                stamped = _modified(fs.info(probe_path))
            finally:
                remove_own(probe)
        return stamped - datetime.now(timezone.utc) if stamped else None

    def acquire(self) -> None:
        """Take the lease, or raise LockedError naming the holder (after waiting up to `wait_s` for a holder of
        `wait_for`)."""
        from bsl_pipeline.pipeline.base.ownership import LockedError

        deadline = time.monotonic() + self.wait_s
        tries = 0
        while tries < 2:
            tries += 1
            if create_exclusive(self.url, json_bytes(self._record())):
                self._thread = threading.Thread(target=self._renew, daemon=True, name="bsl-lease")
                self._thread.start()
                return
            holder = self._holder()
            stale = self._stale(holder) if holder is not None else None
            if stale is None:
                continue  # released between our two looks
            if not stale and holder.get("what") in self.wait_for and time.monotonic() < deadline:
                time.sleep(0.05)
                tries = 0
                continue
            if not stale:
                raise LockedError(
                    f"{redact(self.url)}: another writer holds this {self.what} (pid {holder.get('pid')} on "
                    f"{holder.get('host')}, renewed {holder.get('renewed')}); wait for it, or, if it is gone, "
                    f"wait until its lease of {holder.get('lease_s')} s runs out")
            log.warning("warning: %s: taking over a stale writer lease (pid %s on %s)", redact(self.url),
                        holder.get("pid"), holder.get("host"))
            if self._holder() == holder:  # still that stale lease, not one another writer took meanwhile
                remove_own(self.url)
        raise LockedError(f"{redact(self.url)}: another writer took this {self.what} at the same time")

    def _renew(self) -> None:
        while not self._stop.wait(max(1.0, self.config.lease_s / 3)):
            with contextlib.suppress(BSLError):
                holder = self._holder()
                if holder and holder.get("id") == self.id:
                    write_bytes(self.url, json_bytes(self._record()))

    def release(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        with contextlib.suppress(BSLError):
            holder = self._holder()
            if holder and holder.get("id") == self.id:
                remove_own(self.url)

    def __enter__(self) -> Lease:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


# -- which prefixes the tool may write ------------------------------------------------------------------------------
def stamp() -> str:
    """The UTC time folder name of a set-aside (as `pipeline.base.ownership.replaced_folder` names them)."""
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")


def set_aside_objects(prefix: str, names: list[str], folder: str | None = None) -> str | None:
    """Move objects under `prefix` (relative names) to `<prefix>/.bsl-replaced/<time>/<same name>`, never deleting
    them; returns that folder (relative), None when there was nothing to move."""
    from bsl_pipeline.pipeline.base.ownership import REPLACED_DIR

    if not names:
        return None
    folder = folder or f"{REPLACED_DIR}/{stamp()}"
    for name in names:
        move(join(prefix, name), join(prefix, folder, name))
    return folder


def claim_prefix(prefix: str, kind: str, *, overwrite: bool = False, own_names: tuple[str, ...] = ()) -> None:
    """The object-store form of `pipeline.base.ownership.claim_directory`: `prefix` must be empty or carry this
    tool's marker (`.bsl-output.json`) of `kind` written for this URL; `overwrite=True` adopts any other prefix,
    moving the objects under `own_names` to `.bsl-replaced/<time>/` first (nothing is deleted). The marker is
    created with a conditional PUT, so of two first writers only one claims the prefix."""
    from bsl_pipeline.pipeline.base.ownership import MARKER_NAME, REPLACED_DIR, OwnershipError

    objects = listing(prefix)
    shown = redact(prefix)
    marker = None
    if MARKER_NAME in objects:
        try:
            marker = json.loads(read_text(join(prefix, MARKER_NAME)))
        except (ValueError, UnicodeDecodeError):
            marker = {}
        if not isinstance(marker, dict) or marker.get("tool") != "bsl":
            marker = {}
    if marker:
        if marker.get("kind") != kind:
            raise OwnershipError(f"{shown} holds a bsl {marker.get('kind')}, not a {kind}: choose another prefix")
        if marker.get("path") == prefix:
            return
        problem = f"its marker was written for {redact(str(marker.get('path')))} (copied here)"
        if not overwrite:
            raise OwnershipError(f"{shown} looks like a bsl {kind}, but {problem}: choose another prefix, or pass "
                                 f"--overwrite to adopt it (what it replaces is set aside into {REPLACED_DIR}/)")
    # The lease and its age probes (`.bsl-lock.probe-*`, written and removed by a writer waiting on it) are the tool's.
    foreign = sorted(n for n in objects if n != MARKER_NAME and not n.startswith((LEASE_NAME, REPLACED_DIR)))
    if foreign and not marker:
        if not overwrite:
            listed = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
            raise OwnershipError(f"{shown} holds {len(foreign)} object(s) bsl did not write ({listed}): give an "
                                 f"empty prefix, or pass --overwrite to move them aside into {REPLACED_DIR}/ "
                                 f"(nothing is deleted)")
    if foreign and overwrite:
        mine = [n for n in foreign if n.split("/", 1)[0] in own_names]
        set_aside_objects(prefix, mine)
    record = json_bytes({"tool": "bsl", "kind": kind, "created": datetime.now(timezone.utc).isoformat(),
                         "id": uuid.uuid4().hex, "path": prefix})
    if marker or not create_exclusive(join(prefix, MARKER_NAME), record):
        if marker:
            write_bytes(join(prefix, MARKER_NAME), record)
        # else: another writer claimed it between our two looks; its lease decides who writes


# -- local copies of remote data, and how messages name them --------------------------------------------------------
_copies: dict[str, str] = {}


def remember_copy(root: Path, url: str) -> None:
    """`root` is this process's local copy of `url`: messages about its files name the URL (`shown`)."""
    _copies[str(root)] = url


def copied_from(root: str | Path | None) -> str | None:
    """The URL whose local copy (made by this process) `root` is; None for any other folder."""
    return _copies.get(str(root)) if root is not None else None


def as_url(text: str) -> str:
    """`text` with every path inside a local copy of remote data named by its URL (unchanged otherwise)."""
    for root, url in sorted(_copies.items(), key=lambda item: -len(item[0])):
        text = text.replace(root + "/", redact(url) + "/").replace(root, redact(url))
    return text


def shown(message: str) -> str:
    """A message as a user sees it: paths inside a local copy of remote data named by their URL, no credentials."""
    return redact(as_url(str(message)))


COPY_INDEX = ".bsl-copy.json"


def copy_root(url: str, kind: str = "dataset") -> Path:
    from bsl_pipeline.pipeline.base.user_cache import user_cache_root

    key = hashlib.sha256(f"{kind}\n{url}".encode("utf-8")).hexdigest()[:24]
    return user_cache_root() / "bsl-pipeline" / "copies" / key


def _safe_name(name: str, url: str) -> str:
    from pathlib import PurePosixPath

    pure = PurePosixPath(name)
    if not name or pure.is_absolute() or ".." in pure.parts or "\x00" in name or "\\" in name:
        raise InputError(f"{redact(join(url, name))}: object name points outside its prefix")
    return pure.as_posix()


def local_copy(url: str, files: tuple[str, ...], folders: tuple[str, ...] | None, required: str | None,
               kind: str = "dataset") -> Path:
    """A local copy of the objects `files` and everything under `folders` of the prefix `url`, in the user cache
    (`<cache>/bsl-pipeline/copies/<hash of the URL>/`), brought up to date now: an object is downloaded again only
    when its ETag or size changed since the last copy, and what is gone from the store is gone from the copy (the
    copy is the tool's own cache). Readers check the files as on disk (checksums); messages about them name the
    URL (`shown`). `required`: the object without which there is nothing to copy (InputError naming it; None: at
    least one object). `folders=None`: every object under the prefix. `kind` keeps copies of one URL apart."""
    url = url.rstrip("/")
    root = copy_root(url, kind)
    remember_copy(root, url)
    objects = listing(url)
    if required is not None and required not in objects:
        raise InputError(f"no {required} at {redact(join(url, required))}")
    if not objects:
        raise InputError(f"nothing at {redact(url)}")
    wanted = {_safe_name(n, url): info for n, info in objects.items()
              if n in files or folders is None or n.split("/", 1)[0] in folders}
    index = _copy_index(root)
    for name, info in wanted.items():
        target = root / name
        if index.get(name) == info and target.is_file() and target.stat().st_size == info.get("size"):
            continue
        download(join(url, name), target)
        index[name] = info
    for name in list(index):
        if name not in wanted:
            (root / name).unlink(missing_ok=True)
            del index[name]
    for folder in folders if folders is not None else ("",):  # files in the copy the index does not know
        for path in sorted((root / folder).rglob("*")) if (root / folder).is_dir() else []:
            relative = path.relative_to(root).as_posix()
            if path.is_file() and relative != COPY_INDEX and relative not in index:
                path.unlink()
    for name in files:
        if name not in wanted:
            (root / name).unlink(missing_ok=True)
    write_json(root / COPY_INDEX, index)
    return root


def refresh_copied(url: str, name: str, kind: str = "dataset") -> None:
    """Bring one object of the local copy of `url` (`local_copy`) up to date now: downloaded when its ETag or size
    changed, removed from the copy when it is gone from the store (a file others append to, read again)."""
    url = url.rstrip("/")
    root = copy_root(url, kind)
    name = _safe_name(name, url)
    fs, path = filesystem(join(url, name))
    with storage_errors(join(url, name)):
        fs.invalidate_cache(path)
        try:
            info = fs.info(path)
        except FileNotFoundError:
            info = None
    index = _copy_index(root)
    target = root / name
    if info is None or info.get("type") == "directory":
        target.unlink(missing_ok=True)
        index.pop(name, None)
    else:
        entry = _entry(info)
        if index.get(name) != entry or not target.is_file() or target.stat().st_size != entry["size"]:
            download(join(url, name), target)
            index[name] = entry
    write_json(root / COPY_INDEX, index)


def _entry(info: dict[str, Any]) -> dict[str, Any]:
    """An object's listing entry: what a local copy compares to know whether its file is current."""
    return {"size": info.get("size"), "etag": str(info.get("ETag") or info.get("etag") or "")}


def _copy_index(root: Path) -> dict[str, Any]:
    """What a local copy holds: relative name -> the listing entry ({"size", "etag"}) of the object copied."""
    try:
        index = json.loads((root / COPY_INDEX).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return index if isinstance(index, dict) else {}


def same_bytes(info: dict[str, Any], path: Path) -> bool:
    """An object (its listing entry) holds the bytes of the local file: its size, and the ETag of a single PUT
    (the md5 of the bytes; a multipart or encrypted object's ETag is not, and counts as different)."""
    etag = str(info.get("etag", "")).strip('"')
    if info.get("size") != path.stat().st_size or not etag or "-" in etag:
        return False
    digest = hashlib.md5(usedforsecurity=False)
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return etag == digest.hexdigest()


def seed_copy(url: str, files: dict[str, Path]) -> None:
    """Put files just uploaded to `url` (relative name -> the local file uploaded) into its local copy, so that the
    next `local_copy` finds them current instead of downloading them again; a file whose object does not hold its
    bytes now is left out (downloaded then)."""
    import shutil

    from bsl_pipeline.pipeline.base.atomic import atomic_path

    url = url.rstrip("/")
    root = copy_root(url)
    objects = listing(url)
    index = _copy_index(root)
    for name, path in files.items():
        info = objects.get(name)
        if info is None or not same_bytes(info, path):
            continue
        with atomic_path(root / _safe_name(name, url)) as tmp:
            shutil.copyfile(path, tmp)
        index[name] = info
    write_json(root / COPY_INDEX, index)


def corpus_copy(url: str) -> Path:
    """A local copy of a corpus at a URL (one object, or every object under a prefix) to read as a corpus file or
    directory; rows and manifests name the URL (`as_url`)."""
    url = url.rstrip("/")
    if is_file(url):
        parent, name = url.rsplit("/", 1)
        return local_copy(parent, (name,), (), required=name, kind=f"corpus-file\n{name}") / name
    return local_copy(url, (), None, required=None, kind="corpus")
