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
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.config import Range
from bsl_pipeline.pipeline.base.errors import BSLError, InputError
from bsl_pipeline.pipeline.base.urls import _URL, SECRET_ENV, is_url, redact, url_problem  # noqa: F401 (the storage API)

log = logging.getLogger(__name__)

_S3 = ("s3", "s3a")
#: Option names that hold credentials: refused in a config (it is recorded in manifests and reports).
SECRET_OPTIONS = frozenset({"key", "secret", "token", "password", "session_token", "access_key", "secret_key",
                            "aws_access_key_id", "aws_secret_access_key", "aws_session_token", "client_secret",
                            "credentials", "account_key", "sas_token"})


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


def local(location: str | Path) -> Path:
    """A local location as a Path (`file://` stripped)."""
    text = str(location)
    return Path(text[len("file://"):] if text.startswith("file://") else text)


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
    """The endpoint a URL is reached at, as a message names it: "the storage endpoint http://host:9000", "the
    default AWS S3 endpoint", or "the gs:// service"."""
    protocol = _URL.match(url).group(1).lower()
    if protocol in _S3:
        endpoint = s3_endpoint(config)
        return f"the storage endpoint {endpoint}" if endpoint else "the default AWS S3 endpoint"
    return f"the {protocol}:// service"


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
        if _not_s3(exc):
            raise _not_s3_error(url, config) from None
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
            raise StorageError(f"{redact(url)}: cannot reach {redact(endpoint_of(url, config))} (gave up after the "
                               f"client's retries)") from None
        if _not_s3(exc):
            raise _not_s3_error(url, config) from None
        if "AccessDenied" in text or "Forbidden" in text or "InvalidAccessKeyId" in text or \
                "SignatureDoesNotMatch" in text:
            raise StorageError(f"{redact(url)}: access denied by the storage service (check the credentials' "
                               f"permissions on bucket {_bucket(url)!r})") from None
        raise StorageError(f"{redact(url)}: storage error ({redact(text)[:300]})") from None


def _not_s3(exc: BaseException) -> bool:
    """A 404 with no S3 error code to a request whose answer has a body (a listing, GET or PUT; a HEAD's 404 never
    has one): every S3 server says NoSuchBucket or NoSuchKey there, so the endpoint is something else (a web server,
    a console's port, a path in front of the API)."""
    seen = 0
    while exc is not None and seen < 8:
        response = getattr(exc, "response", None)
        if isinstance(response, dict) and isinstance(getattr(exc, "operation_name", None), str):
            status = (response.get("ResponseMetadata") or {}).get("HTTPStatusCode")
            code = str((response.get("Error") or {}).get("Code") or "")
            return status == 404 and code in ("", "404") and not exc.operation_name.startswith("Head")
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def _not_s3_error(url: str, config: StorageConfig | None) -> StorageError:
    bucket = f"{url.split('://', 1)[0]}://{_bucket(url)}"
    return StorageError(f"{redact(bucket)}: {redact(endpoint_of(url, config))} answered 404 without an S3 error: is "
                        f"it an S3 endpoint? (AWS_ENDPOINT_URL or storage.endpoint_url)")


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
    fs.invalidate_cache(path)  # the object as it is now, not as an earlier listing saw it (s3fs checks its ETag)
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
            if "bucket" in str(exc).lower() or _not_s3(exc):
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


class LeaseLost(BSLError):
    """Another writer took this writer's object-store lease over (it judged it stale: its renewals had stopped for
    `lease_s`, during a long pause, a suspended machine or a network partition)."""


def _modified(info: dict[str, Any]) -> datetime | None:
    """An object's modification time as the store gives it (S3: LastModified; other fsspec backends: mtime)."""
    value = info.get("LastModified") or info.get("last_modified") or info.get("mtime") or info.get("updated")
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(value, timezone.utc)
    return None


def _etag(info: dict[str, Any]) -> str:
    return str(info.get("ETag") or info.get("etag") or "")


def _precondition_failed(exc: BaseException) -> bool:
    """A conditional write refused: the object's ETag is not the one named (412), or another conditional write to
    it is under way (409, AWS)."""
    response = getattr(exc.__cause__, "response", None) or getattr(exc, "response", None)
    code = str(((response or {}).get("Error") or {}).get("Code", ""))
    return code in {"PreconditionFailed", "412", "ConditionalRequestConflict", "409"}


def put_conditional(location: str, data: bytes, etag: str | None) -> str | None:
    """Write `data` to the object at the URL `location` only if nothing is there (`etag=None`: `If-None-Match: *`)
    or only while the object is the version whose ETag is `etag` (`If-Match`). AWS S3, MinIO and moto refuse the
    write atomically when the condition does not hold; other protocols look, then write (fsspec has no conditional
    write). Returns the written object's ETag ("" when the store gives none), None when the condition failed."""
    fs, path = filesystem(location)
    with storage_errors(location):
        try:
            if etag is None:
                written = fs.pipe_file(path, data, mode="create")
            elif _URL.match(location).group(1).lower() in _S3:
                written = fs.pipe_file(path, data, IfMatch=etag)
            else:
                fs.invalidate_cache(path)
                if _etag(fs.info(path)) != etag:
                    return None
                written = fs.pipe_file(path, data)
        except (FileExistsError, FileNotFoundError):
            return None
        except OSError as exc:
            if _precondition_failed(exc):
                return None
            raise
    fs.invalidate_cache(path)
    return _etag(written) if isinstance(written, dict) else ""


class Lease:
    """The writer lock of an object-store output: the object `<prefix>/.bsl-lock`, created with a conditional PUT
    (`If-None-Match: *`, which S3, MinIO and moto honour) and renewed by a background thread every third of
    `lease_s`, each renewal replacing exactly the version it read (`If-Match`), so it never writes over a lease
    another writer took meanwhile. A lease on this host (`ownership.holder_on_this_host`) is stale only when its
    process is gone, whatever its age (a live writer, paused or not, keeps it); another host's when it was not
    renewed for `lease_s` seconds on the store's clock. A stale lease is taken over by replacing that version
    (`If-Match` on the ETag whose age was judged), so of two writers that find it only one gets it.

    A writer calls `confirm()` before each step that publishes: it renews the lease the same way, or raises
    LeaseLost naming the writer that took it over (then the writer stops, touching nothing that one wrote)."""

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
        self.lost: str | None = None  # why the lease is no longer this writer's, once a renewal found out
        self._stop = threading.Event()
        self._lock = threading.Lock()  # one renewal at a time: the thread's and `confirm`'s
        self._thread: threading.Thread | None = None

    def _record(self) -> dict[str, Any]:
        from bsl_pipeline.pipeline.base.ownership import process_identity

        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        return {"tool": "bsl", "id": self.id, "what": self.what, **process_identity(), "renewed": now,
                "renewed_unix": time.time(), "lease_s": self.config.lease_s}

    def _read(self) -> tuple[dict[str, Any], str, datetime | None] | None:
        """The lease now, as one version of the object: (its record, its ETag, its modification time); None when
        there is none. A record that is not a JSON object reads as {} (stale by age only)."""
        fs, path = filesystem(self.url)
        for _ in range(3):
            with storage_errors(self.url):
                fs.invalidate_cache(path)
                try:
                    with fs.open(path, "rb") as fh:  # s3fs reads the version whose ETag it was opened on
                        info, data = dict(getattr(fh, "details", None) or fs.info(path)), fh.read()
                except FileNotFoundError:
                    return None
                except OSError as exc:
                    if type(exc).__name__ == "FileExpired":  # renewed while read: read the new version
                        continue
                    raise
            try:
                record = json.loads(data.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                record = {}
            return (record if isinstance(record, dict) else {}), _etag(info), _modified(info)
        raise StorageError(f"{redact(self.url)}: the lease keeps changing while it is read")

    def _holder(self) -> dict[str, Any] | None:
        read = self._read()
        return read[0] if read is not None else None

    def _stale(self, holder: dict[str, Any], written: datetime | None) -> bool:
        """Whether the lease `holder` (that version last written at `written`, on the store's clock) is stale."""
        from bsl_pipeline.pipeline.base.ownership import holder_gone, holder_on_this_host

        if holder_on_this_host(holder):
            return holder_gone(holder)  # a live process keeps its lease, however long since it renewed it
        lease = holder.get("lease_s") if isinstance(holder.get("lease_s"), int) else self.config.lease_s
        offset = self._store_clock_offset if written is not None else None
        if offset is not None:  # on the store's own clock: a host whose clock runs ahead never judges a live lease
            return (datetime.now(timezone.utc) + offset - written).total_seconds() > lease
        renewed = holder.get("renewed_unix")  # a store that gives no modification times: the holder's own clock
        return not isinstance(renewed, (int, float)) or time.time() - renewed > lease

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

    def _describe(self, holder: dict[str, Any] | None) -> str:
        holder = holder or {}
        return f"pid {holder.get('pid')} on {holder.get('host')}"

    def acquire(self) -> None:
        """Take the lease, or raise LockedError naming the holder (after waiting up to `wait_s` for a holder of
        `wait_for`)."""
        from bsl_pipeline.pipeline.base.ownership import LockedError, holder_on_this_host

        deadline = time.monotonic() + self.wait_s
        tries = 0
        while tries < 2:
            tries += 1
            if put_conditional(self.url, json_bytes(self._record()), None) is not None:
                return self._start()
            read = self._read()
            if read is None:
                continue  # released between our two looks
            holder, version, written = read
            stale = self._stale(holder, written)
            if not stale and holder.get("what") in self.wait_for and time.monotonic() < deadline:
                time.sleep(0.05)
                tries = 0
                continue
            if not stale:
                raise LockedError(
                    f"{redact(self.url)}: another writer holds this {self.what} ({self._describe(holder)}, renewed "
                    f"{holder.get('renewed')}); wait for it, or, " + (
                        "if it must not finish, stop that process (a lease of a live process on this host is never "
                        "taken over)" if holder_on_this_host(holder) else
                        f"if it is gone, wait until its lease of {holder.get('lease_s')} s runs out"))
            log.warning("warning: %s: taking over a stale writer lease (%s)", redact(self.url),
                        self._describe(holder))
            # Replace exactly the version judged stale: a writer that renewed it, or took it over, meanwhile wins.
            if put_conditional(self.url, json_bytes(self._record()), version) is not None:
                return self._start()
        raise LockedError(f"{redact(self.url)}: another writer took this {self.what} at the same time")

    def _start(self) -> None:
        self._thread = threading.Thread(target=self._renew, daemon=True, name="bsl-lease")
        self._thread.start()

    def confirm(self) -> None:
        """Renew the lease now (replacing exactly the version read, `If-Match`), or raise LeaseLost naming the
        writer that took it over: call it before each step that publishes."""
        with self._lock:
            if self.lost is None:
                read = self._read()
                if read is None or read[0].get("id") != self.id:
                    self.lost = self._lost_to(read[0] if read else None)
                elif put_conditional(self.url, json_bytes(self._record()), read[1]) is None:
                    self.lost = self._lost_to(self._holder())
            if self.lost is not None:
                raise LeaseLost(self.lost)

    def check_held(self) -> None:
        """LeaseLost when a renewal already found the lease taken over (no request: cheap enough for each task)."""
        if self.lost is not None:
            raise LeaseLost(self.lost)

    def _lost_to(self, holder: dict[str, Any] | None) -> str:
        taker = f"to {self._describe(holder)}" if holder else (
            "(its lease object is gone: another writer took it over and has finished, or it was removed)")
        return f"{redact(self.url)}: lost the writer lease {taker}"

    def _renew(self) -> None:
        while not self._stop.wait(max(1.0, self.config.lease_s / 3)):
            try:
                self.confirm()
            except LeaseLost:
                return  # `lost` says why; the writer stops at its next check
            except BSLError as exc:  # the store cannot be reached now: tried again at the next tick
                log.debug("%s: renewal failed (%s)", redact(self.url), exc)

    def release(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        with contextlib.suppress(BSLError), self._lock:
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
    marker = _prefix_marker(prefix, objects.get(MARKER_NAME))
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
    if marker:
        write_bytes(join(prefix, MARKER_NAME), record)
    elif not create_exclusive(join(prefix, MARKER_NAME), record):
        # Something was created there between our two looks: another bsl writer's claim of this prefix (its lease
        # decides who writes), or anything else, which is refused as above.
        raced = _prefix_marker(prefix, {})
        if raced.get("kind") != kind or raced.get("path") != prefix:
            raise OwnershipError(f"{shown}: another writer claimed this prefix for something else meanwhile "
                                 f"({MARKER_NAME} is now a bsl {raced.get('kind')} of {raced.get('path')}): "
                                 f"choose another prefix")


def _prefix_marker(prefix: str, info: dict[str, Any] | None) -> dict[str, Any] | None:
    """The output marker at `prefix` (its listing entry `info`; None: there is none), read as
    `pipeline.base.ownership.read_marker` reads one on disk: OwnershipError naming its URL when it is not a bsl
    marker (unreadable, too large, not JSON, another tool's file), before any work."""
    from bsl_pipeline.pipeline.base.ownership import MARKER_NAME, MAX_MARKER_BYTES, OwnershipError

    if info is None:
        return None
    url = join(prefix, MARKER_NAME)
    if isinstance(info.get("size"), int) and info["size"] > MAX_MARKER_BYTES:
        raise OwnershipError(f"{redact(url)}: unreadable output marker (over {MAX_MARKER_BYTES} bytes)")
    try:
        data = json.loads(read_text(url))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise OwnershipError(f"{redact(url)}: unreadable output marker ({redact(str(exc))[:200]})") from None
    if not isinstance(data, dict) or data.get("tool") != "bsl" or not isinstance(data.get("kind"), str):
        raise OwnershipError(f"{redact(url)}: not a bsl output marker (another tool's file, or a changed one): "
                             f"move it away, or choose another prefix")
    return data


# -- local copies of remote data, and how messages name them --------------------------------------------------------
_copies: dict[str, str] = {}
_unlisted: dict[str, list[str]] = {}


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
#: The file whose flock readers of one URL take turns on while they bring its copy up to date (`copy_lock`).
COPY_LOCK = ".bsl-copy.lock"
#: A temp file (`pipeline.base.atomic.atomic_path`: `.<name>.<random>.tmp`) not written to for this long is left
#: from a killed download; a younger one is another process's download in flight.
_STALE_TEMP_S = 3600


@contextlib.contextmanager
def copy_lock(root: Path) -> Iterator[None]:
    """Hold the copy at `root` for one update: an exclusive `flock` on `<root>/.bsl-copy.lock`, so any number of
    readers of one URL (ranks of one training run, a verify beside an inspect, processes of several hosts sharing
    the cache on a file system with locks) take turns downloading into it, and each finds what the one before it
    fetched current. The kernel lets go of the lock when its holder dies. Where the file system refuses locks, the
    update goes on unlocked; the clean-up still leaves other processes' downloads in flight alone."""
    import fcntl

    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root / COPY_LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError as exc:
            log.debug("%s: no lock on the local copy (%s)", root, exc)
        yield
    finally:
        os.close(fd)  # lets go of the flock


def _in_flight(path: Path) -> bool:
    """A temp file of an atomic write (a download into the copy) that was written to recently: another process's,
    in flight, never removed by a clean-up."""
    name = path.name
    if not (name.startswith(".") and name.endswith(".tmp")):
        return False
    try:
        return time.time() - path.stat().st_mtime < _STALE_TEMP_S
    except FileNotFoundError:
        return True  # renamed into place, or removed, meanwhile: not ours to touch either way


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
               kind: str = "dataset", listed: Callable[[Path], Collection[str]] | None = None) -> Path:
    """A local copy of the objects `files` and everything under `folders` of the prefix `url`, in the user cache
    (`<cache>/bsl-pipeline/copies/<hash of the URL>/`), brought up to date now: an object is downloaded again only
    when its ETag or size changed since the last copy, and what is gone from the store is gone from the copy (the
    copy is the tool's own cache). Readers check the files as on disk (checksums); messages about them name the
    URL (`shown`). `required`: the object without which there is nothing to copy (InputError naming it; None: at
    least one object). `folders=None`: every object under the prefix. `kind` keeps copies of one URL apart.
    `listed(root)`, asked once `files` are current in the copy (a dataset's manifest), names the objects under
    `folders` to copy; any other object there is never downloaded (and removed from the copy), only named by the
    listing: `unlisted_objects(root)`."""
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
    unlisted = None
    with copy_lock(root):
        index = _copy_index(root)
        if listed is not None:  # the files first (`listed` reads them), then only what they list
            _fetch(url, root, index, {n: info for n, info in wanted.items() if n in files})
            names = set(listed(root))
            unlisted = sorted(n for n in wanted if n not in files and n not in names)
            wanted = {n: info for n, info in wanted.items() if n not in unlisted}
        _fetch(url, root, index, wanted)
        _clean_copy(root, index, wanted, files, folders)
    if unlisted is None:
        _unlisted.pop(str(root), None)
    else:
        _unlisted[str(root)] = unlisted
    return root


def unlisted_objects(root: str | Path) -> list[str] | None:
    """The objects under the copied folders that the last `local_copy` into `root` by this process was told not to
    copy (`listed`), by their relative names; None when `root` is no such copy."""
    return _unlisted.get(str(root))


def _fetch(url: str, root: Path, index: dict[str, Any], wanted: dict[str, dict[str, Any]]) -> None:
    """Download each of `wanted` (relative name -> listing entry) whose copy is not current, under `copy_lock`."""
    for name, info in wanted.items():
        target = root / name
        if index.get(name) == info and target.is_file() and target.stat().st_size == info.get("size"):
            continue
        download(join(url, name), target)
        index[name] = info


def _clean_copy(root: Path, index: dict[str, Any], wanted: dict[str, dict[str, Any]], files: tuple[str, ...],
                folders: tuple[str, ...] | None) -> None:
    """Remove from the copy what is not `wanted`, under `copy_lock`, and write its index."""
    for name in list(index):
        if name not in wanted:
            (root / name).unlink(missing_ok=True)
            del index[name]
    for folder in folders if folders is not None else ("",):  # files in the copy the index does not know
        for path in sorted((root / folder).rglob("*")) if (root / folder).is_dir() else []:
            relative = path.relative_to(root).as_posix()
            if path.is_file() and relative not in (COPY_INDEX, COPY_LOCK) and relative not in index and \
                    not _in_flight(path):
                path.unlink(missing_ok=True)
    for name in files:
        if name not in wanted:
            (root / name).unlink(missing_ok=True)
    write_json(root / COPY_INDEX, index)


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
    with copy_lock(root):
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


def same_bytes(info: dict[str, Any], path: Path, url: str | None = None) -> bool:
    """An object (its listing entry) holds the bytes of the local file. Sizes that differ prove it does not; an
    ETag equal to the bytes' md5 (a single unencrypted PUT) proves it does. Any other ETag proves nothing (a
    multipart upload's is `<md5 of the parts' md5s>-<parts>`, an SSE-KMS object's is no md5 of the bytes): with
    the object's `url` given, it is then downloaded and its sha256 compared with the file's; without it, it counts
    as different."""
    etag = str(info.get("etag", "")).strip('"')
    if info.get("size") != path.stat().st_size:
        return False
    if etag and "-" not in etag:
        digest = hashlib.md5(usedforsecurity=False)
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        if etag == digest.hexdigest():
            return True
    if url is None:
        return False
    from bsl_pipeline.pipeline.base.provenance import sha256_file

    return sha256(url) == sha256_file(path)


def seed_copy(url: str, files: dict[str, Path]) -> None:
    """Put files just uploaded to `url` (relative name -> the local file uploaded) into its local copy, so that the
    next `local_copy` finds them current instead of downloading them again; a file whose object does not hold its
    bytes now is left out (downloaded then)."""
    import shutil

    from bsl_pipeline.pipeline.base.atomic import atomic_path

    url = url.rstrip("/")
    root = copy_root(url)
    objects = listing(url)
    with copy_lock(root):
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
