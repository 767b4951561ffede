"""Datasets on an object store: `bsl augment --out s3://...`, verify, inspect, training and Hugging Face datasets
reading it, against a real S3-compatible server (moto's server mode on 127.0.0.1, the `s3_server` fixture)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bsl_pipeline.pipeline.augment.job import run_augment
from bsl_pipeline.pipeline.base import storage
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.dataset.store import verify_dataset
from s3_server import SECRET_KEY
from small_corpus import augment_config, write_corpus

REPO_ROOT = Path(__file__).resolve().parents[3]
BSL = [sys.executable, "-m", "bsl_pipeline.cli"]


def _objects(server, bucket: str, prefix: str) -> dict[str, bytes]:
    client = server.client()
    out = {}
    start = f"{prefix}/" if prefix else ""  # "": every object in the bucket
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=start):
        for item in page.get("Contents", []):
            out[item["Key"][len(start):]] = client.get_object(Bucket=bucket, Key=item["Key"])["Body"].read()
    return out


CONTENT_NAMED = re.compile(r"^((?:data|rejects)/[a-z]+-\d{5}-of-\d{5})-([0-9a-f]{16})\.parquet$")


def _shards(files: dict[str, bytes]) -> dict[str, bytes]:
    """The dataset's shards on the store by their disk names (`train-00000-of-00002.parquet`), each store name
    checked to carry the first 16 hex digits of its bytes' sha256."""
    out = {}
    for name, data in files.items():
        if name.startswith(("data/", "rejects/")):
            match = CONTENT_NAMED.match(name)
            assert match and match.group(2) == hashlib.sha256(data).hexdigest()[:16], name
            out[match.group(1) + ".parquet"] = data
    return out


def _local_shards(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for d in ("data", "rejects")
            for p in sorted((root / d).glob("*"))}


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _cli(args: list[str], env: dict[str, str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(BSL + args, env={**os.environ, **env, "BSL_NO_PROGRESS": "1"}, cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def test_augment_to_s3_equals_disk_and_reads_back(s3_env, cache_home, tmp_path):
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/sets/views"
    disk = run_augment(corpus, tmp_path / "views", augment_config(tmp_path))
    remote = run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    files = _objects(s3_env, bucket, "sets/views")
    # The same shards, byte for byte, as the same run on disk; the manifest is last and names the URL.
    assert _shards(files) == _local_shards(tmp_path / "views")
    assert [s.sha256 for s in remote.shards] == [s.sha256 for s in disk.shards]
    manifest = json.loads(files["manifest.json"])
    assert manifest["dataset_dir"] == url and "storage" not in manifest["config"]
    assert remote.stats.pairs == disk.stats.pairs > 0
    assert any(k.startswith(".work/tasks/") and k.endswith(".done.json") for k in files)
    # Readers: verify and the trainer's reader go through the local copy.
    verified = verify_dataset(url)
    assert verified.stats.pairs == disk.stats.pairs
    # A rerun reuses every task and changes no shard.
    again = run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    assert again.stats.per_method["noise"].tasks_cached == again.stats.per_method["noise"].tasks
    assert _shards(_objects(s3_env, bucket, "sets/views")) == _shards(files)


def test_changed_object_is_refused_by_name(s3_env, cache_home, tmp_path):
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/ds"
    m = run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    verify_dataset(url)  # the local copy is now current
    shard = m.shards_of("pairs")[0].path
    s3_env.client().put_object(Bucket=bucket, Key=f"ds/{shard}", Body=b"not the shard the manifest lists")
    with pytest.raises(BSLError) as err:
        verify_dataset(url)
    assert f"{url}/{shard}" in storage.shown(str(err.value))
    assert "sha256" in str(err.value)


def test_an_unlisted_object_is_named_from_the_listing_and_never_downloaded(s3_env, cache_home, tmp_path,
                                                                            monkeypatch, caplog):
    """Readers read the manifest first: an object under data/ it does not list is refused (or, allowed, warned
    about) by its name in the store's listing, and never downloaded into the copy; one an older copy holds goes."""
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/ds"
    run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    s3_env.client().put_object(Bucket=bucket, Key="ds/data/zz-junk.bin", Body=os.urandom(1 << 20))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "reader-cache"))  # not the copy the writer seeded
    root = storage.copy_root(url)
    (root / "data").mkdir(parents=True)
    (root / "data" / "zz-junk.bin").write_bytes(b"copied by an older reader")
    downloaded = []
    real_download = storage.download
    monkeypatch.setattr(storage, "download", lambda u, t: downloaded.append(u) or real_download(u, t))
    with pytest.raises(BSLError) as err:
        verify_dataset(url)
    assert storage.shown(str(err.value)).startswith(f"{url}: 1 file(s) in data/ or rejects/ not listed in the "
                                                    f"manifest")
    assert str(err.value).endswith("data/zz-junk.bin; remove them (`bsl verify` and `bsl inspect` take "
                                   "--allow-unlisted to only warn about them)")
    manifest = verify_dataset(url, allow_unlisted=True)
    assert f"{url}: 1 file(s)" in caplog.text and "data/zz-junk.bin" in caplog.text
    assert sorted(downloaded) == sorted(f"{url}/{n}" for n in ["manifest.json", "README.md", ".bsl-output.json",
                                                              *(s.path for s in manifest.shards)])
    assert not (root / "data" / "zz-junk.bin").exists()
    assert sorted(p.relative_to(root).as_posix() for p in (root / "data").iterdir()) == \
        sorted(s.path for s in manifest.shards_of("pairs"))


def _no_secret_anywhere(texts: list[str], folders: list[Path], server, bucket: str) -> None:
    from s3_server import ACCESS_KEY

    blobs = [t.encode() for t in texts]
    blobs += [p.read_bytes() for f in folders for p in f.rglob("*") if p.is_file()]
    blobs += list(_objects(server, bucket, "").values()) if bucket else []
    for secret in (SECRET_KEY, ACCESS_KEY):
        assert not any(secret.encode() in b for b in blobs), f"{secret} leaked"


def test_cli_augment_verify_inspect_on_s3_never_show_credentials(s3_server, tmp_path):
    corpus = write_corpus(tmp_path)
    bucket = s3_server.bucket()
    url = f"s3://{bucket}/runs/views"
    env = {**s3_server.env, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    out = [_cli(["augment", str(corpus), "--out", url, "--methods", "noise", "-o", "registry_dir=",
                 "-o", "corpus.chunk_size=8"], env, tmp_path)]
    assert out[-1].returncode == 0, out[-1].stderr
    out.append(_cli(["verify", url], env, tmp_path))
    assert out[-1].returncode == 0 and out[-1].stdout.startswith(f"OK: {url}: dataset views,"), out[-1].stderr
    out.append(_cli(["inspect", url, "--stats"], env, tmp_path))
    assert out[-1].returncode == 0 and "noise" in out[-1].stdout, out[-1].stderr
    out.append(_cli(["inspect", url, "-n", "3", "--no-color"], env, tmp_path))
    assert out[-1].returncode == 0 and "noise" in out[-1].stdout
    out.append(_cli(["inspect", url, "--html", str(tmp_path / "page.html")], env, tmp_path))
    assert out[-1].returncode == 0 and (tmp_path / "page.html").is_file()
    # A refused verify names the object by its URL, never the local copy.
    client = s3_server.client()
    manifest = json.loads(client.get_object(Bucket=bucket, Key="runs/views/manifest.json")["Body"].read())
    shard = manifest["shards"][0]["path"]
    client.put_object(Bucket=bucket, Key=f"runs/views/{shard}", Body=b"edited")
    out.append(_cli(["verify", "-q", url], env, tmp_path))
    assert out[-1].returncode == 1 and out[-1].stderr.count("\n") == 1
    assert f"{url}/{shard}" in out[-1].stderr and "cache" not in out[-1].stderr
    _no_secret_anywhere([o.stdout + o.stderr for o in out], [tmp_path], s3_server, bucket)


def test_unreachable_endpoint_is_one_line_naming_the_url(tmp_path, s3_server):
    from s3_server import free_port

    corpus = write_corpus(tmp_path)
    dead = f"http://127.0.0.1:{free_port()}"
    env = {**s3_server.env, "AWS_ENDPOINT_URL": dead, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    for args in (["verify", "s3://some-bucket/ds"],
                 ["augment", str(corpus), "--out", "s3://some-bucket/ds", "-o", "registry_dir="]):
        done = _cli(args, env, tmp_path, timeout=120)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert "s3://some-bucket/ds" in done.stderr and f"cannot reach the storage endpoint {dead}" in done.stderr


def test_an_endpoint_that_is_not_s3_and_answers_404_is_named(tmp_path, s3_server, monkeypatch):
    """A web server where the S3 endpoint should be (404, no S3 error body, to everything): one line naming the
    endpoint, not "no manifest.json" or "not found" (on a write, too)."""
    import http.server
    import threading

    class NotFound(http.server.BaseHTTPRequestHandler):
        def answer(self) -> None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_PUT = do_POST = do_HEAD = do_DELETE = answer

        def log_message(self, *args) -> None:
            pass

    web = http.server.ThreadingHTTPServer(("127.0.0.1", 0), NotFound)
    threading.Thread(target=web.serve_forever, daemon=True).start()
    try:
        endpoint = f"http://127.0.0.1:{web.server_port}"
        env = {**s3_server.env, "AWS_ENDPOINT_URL": endpoint, "XDG_CACHE_HOME": str(tmp_path / "cache")}
        for args in (["verify", "s3://data/views"],
                     ["augment", str(write_corpus(tmp_path)), "--out", "s3://data/views", "-o", "registry_dir="]):
            done = _cli(args, env, tmp_path, timeout=120)
            assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
            assert (f"s3://data: the storage endpoint {endpoint} answered 404 without an S3 error: is it an S3 "
                    f"endpoint?") in done.stderr
    finally:
        web.shutdown()
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"):
        monkeypatch.delenv(name, raising=False)
    assert storage.endpoint_of("s3://b/x", storage.StorageConfig()) == "the default AWS S3 endpoint"
    assert storage.endpoint_of("s3://b/x", storage.StorageConfig(endpoint_url=endpoint)) == \
        f"the storage endpoint {endpoint}"


def test_missing_bucket_is_one_line(s3_env, tmp_path, cache_home):
    corpus = write_corpus(tmp_path)
    with pytest.raises(BSLError, match=r"s3://no-such-bucket-bsl/ds.*bucket 'no-such-bucket-bsl' does not exist"):
        run_augment(corpus, "s3://no-such-bucket-bsl/ds", augment_config(tmp_path, registry_dir=""))
    with pytest.raises(BSLError, match="bucket 'no-such-bucket-bsl' does not exist"):
        verify_dataset("s3://no-such-bucket-bsl/ds")


def test_access_denied_is_one_line(tmp_path, monkeypatch):
    """moto enforces IAM when INITIAL_NO_AUTH_ACTION_COUNT is set: our planted key is not an IAM user there."""
    from s3_server import start_s3_server

    monkeypatch.setenv("INITIAL_NO_AUTH_ACTION_COUNT", "0")
    server = start_s3_server(tmp_path)
    try:
        env = {**server.env, "XDG_CACHE_HOME": str(tmp_path / "cache")}
        done = _cli(["verify", "s3://guarded/ds"], env, tmp_path, timeout=120)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert "s3://guarded/ds: access denied" in done.stderr
        assert SECRET_KEY not in done.stderr
    finally:
        server.stop()


def test_second_writer_is_refused_and_a_stale_lease_taken_over(s3_env, tmp_path, cache_home):
    from bsl_pipeline.pipeline.base.ownership import LockedError

    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/ds"
    run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    import time

    holder = {"tool": "bsl", "id": "x", "pid": 1, "host": "another-host", "renewed": "now",
              "renewed_unix": time.time(), "lease_s": 120}
    s3_env.client().put_object(Bucket=bucket, Key="ds/.bsl-lock", Body=json.dumps(holder).encode())
    with pytest.raises(LockedError, match=r"ds/.bsl-lock: another writer holds this dataset \(pid 1 on another-host"):
        run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    # Clocks of two hosts differ: a lease written just now whose holder's clock says it was renewed long ago is
    # live, since its age is read on the store's own clock.
    holder["renewed_unix"] = time.time() - 100_000
    s3_env.client().put_object(Bucket=bucket, Key="ds/.bsl-lock", Body=json.dumps(holder).encode())
    with pytest.raises(LockedError, match="another writer holds this dataset"):
        run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    holder["lease_s"] = 1  # not renewed within its lease (on the store's clock): stale
    s3_env.client().put_object(Bucket=bucket, Key="ds/.bsl-lock", Body=json.dumps(holder).encode())
    time.sleep(2.5)
    m = run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    assert m.stats.pairs > 0 and ".bsl-lock" not in _objects(s3_env, bucket, "ds")


def test_of_writers_that_start_together_exactly_one_gets_the_lease(s3_env, cache_home):
    """The conditional create on the real server: four writers at the same moment, one lease."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from bsl_pipeline.pipeline.base.ownership import LockedError

    url = f"s3://{s3_env.bucket()}/together"
    leases = [storage.Lease(url, "dataset") for _ in range(4)]
    start = threading.Barrier(len(leases))

    def take(lease: storage.Lease) -> bool:
        start.wait()
        try:
            lease.acquire()
        except LockedError:
            return False
        return True

    with ThreadPoolExecutor(len(leases)) as pool:
        won = list(pool.map(take, leases))
    assert sorted(won) == [False, False, False, True]
    holder = json.loads(storage.read_text(f"{url}/.bsl-lock"))
    assert holder["id"] == leases[won.index(True)].id
    leases[won.index(True)].release()
    assert not storage.exists(f"{url}/.bsl-lock")


def test_a_live_writer_on_this_host_keeps_its_lease_however_old_unless_its_pid_was_reused_or_is_another_container_s(
        s3_env, cache_home):
    """On this host a lease is stale only when its process is gone, whatever its age (a paused writer keeps it); a
    live pid whose start time is not the record's is another process (the pid was given again), and a record from
    another pid namespace (a container with the same host name) is judged by its age, as another host's."""
    import socket
    import time

    from bsl_pipeline.pipeline.base.ownership import LockedError, _pid_namespace, _process_started

    sleeper = subprocess.Popen(["sleep", "120"])
    try:
        bucket = s3_env.bucket()
        live = {"tool": "bsl", "id": "x", "what": "dataset", "host": socket.gethostname(), "pid": sleeper.pid,
                "pid_ns": _pid_namespace(), "pid_started": _process_started(sleeper.pid), "renewed": "long ago",
                "renewed_unix": time.time() - 100_000, "lease_s": 1}
        assert live["pid_ns"] and isinstance(live["pid_started"], int)
        records = {"live": live, "reused": {**live, "pid_started": live["pid_started"] + 1},
                   "container": {**live, "pid_ns": "pid:[1]"}}
        for prefix, record in records.items():
            s3_env.client().put_object(Bucket=bucket, Key=f"{prefix}/.bsl-lock", Body=json.dumps(record).encode())
        time.sleep(2.5)  # every record is now older than its lease of 1 s on the store's clock
        with pytest.raises(LockedError, match=f"pid {sleeper.pid} on {socket.gethostname()}.*stop that process"):
            storage.Lease(f"s3://{bucket}/live", "dataset").acquire()
        for prefix in ("reused", "container"):
            lease = storage.Lease(f"s3://{bucket}/{prefix}", "dataset")
            lease.acquire()
            assert json.loads(storage.read_text(lease.url))["id"] == lease.id
            lease.release()
    finally:
        sleeper.kill()
        sleeper.wait()


PAUSE_SCRIPT = """
import os, signal, socket, sys
sys.path.insert(0, {tests!r})
socket.gethostname = lambda: "another-host"  # this writer runs on another host
from pathlib import Path
from bsl_pipeline.pipeline.augment.job import run_augment
from bsl_pipeline.pipeline.base import storage
from bsl_pipeline.pipeline.dataset import remote
from small_corpus import augment_config
real, calls = getattr({module}, {call!r}), []
def pausing(*args):
    calls.append(args)
    if {before} and len(calls) == 1:
        os.kill(os.getpid(), signal.SIGSTOP)  # a long pause: a suspended machine, a partition (no renewals)
    done = real(*args)
    if not {before} and len(calls) == 1:
        os.kill(os.getpid(), signal.SIGSTOP)
    return done
setattr({module}, {call!r}, pausing)
config = augment_config(Path({tmp!r}), registry_dir="", seed=1)
config.storage.lease_s = 1
run_augment({corpus!r}, {url!r}, config)
"""


def _stopped(pid: int) -> bool:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T"


@pytest.mark.parametrize("where", ["before the publish", "inside the commit"])
def test_a_writer_that_lost_its_lease_stops_and_publishes_nothing_over_the_new_holder(s3_env, tmp_path, cache_home,
                                                                                      caplog, where):
    """Writer A (another host, a lease of 1 s) pauses before its publish, or right after moving its first shard in;
    writer B finds the lease stale and takes it over; A resumes while B runs: A stops with one line naming B and
    writes nothing more; B's dataset is what the store holds, whole (what A had moved in is set aside, not lost)."""
    import socket
    import time

    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/ds"
    run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    module, call, before = ("remote", "publish_dataset", True) if where == "before the publish" else (
        "storage", "move", False)
    script = PAUSE_SCRIPT.format(tests=str(REPO_ROOT / "tests"), corpus=str(corpus), url=url, tmp=str(tmp_path),
                                 module=module, call=call, before=before)
    a = subprocess.Popen([sys.executable, "-c", script], env={**os.environ, "BSL_NO_PROGRESS": "1"},
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 240
        while not _stopped(a.pid):
            assert a.poll() is None and time.monotonic() < deadline, a.stderr.read() if a.poll() is not None else ""
            time.sleep(0.1)
        time.sleep(2.5)  # A's lease, not renewed while it is paused, is now older than its 1 s on the store's clock
        resumed = []

        def resume_a(_result) -> None:  # B holds the lease now: A goes on, and must stop
            if not resumed:
                os.kill(a.pid, signal.SIGCONT)
                resumed.append(a.communicate(timeout=240))

        with caplog.at_level("WARNING"):
            b = run_augment(corpus, url, augment_config(tmp_path, registry_dir="", seed=2), on_task_done=resume_a)
    finally:
        if a.poll() is None:
            a.kill()
            a.communicate()
    assert f"taking over a stale writer lease (pid {a.pid} on another-host)" in caplog.text
    assert a.returncode == 1
    assert (f"LeaseLost: {url}/.bsl-lock: lost the writer lease to pid {os.getpid()} on {socket.gethostname()}; "
            f"nothing of this run was published") in resumed[0][1]
    files = _objects(s3_env, bucket, "ds")
    assert json.loads(files["manifest.json"])["checksum"] == b.checksum == verify_dataset(url).checksum
    assert _glob(url) == sorted(s.path for s in b.shards_of("pairs"))
    assert ".bsl-lock" not in files and not [k for k in files if k.startswith(".bsl-staging/")]
    aside = sorted(k.split("/", 2)[2] for k in files if k.startswith(".bsl-replaced/"))
    if where == "inside the commit":  # what A moved in and staged before its pause: set aside by B, not lost
        moved_in = [n for n in aside if not n.startswith(".bsl-staging/")]
        assert len(moved_in) == 1 and moved_in[0].startswith("data/") and moved_in[0] not in files
    else:
        assert aside == []  # A had not staged anything yet


def test_foreign_objects_are_refused_then_moved_aside_never_deleted(s3_env, tmp_path, cache_home):
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    client = s3_env.client()
    client.put_object(Bucket=bucket, Key="ds/data/mine.parquet", Body=b"a user's file")
    client.put_object(Bucket=bucket, Key="ds/notes.txt", Body=b"a user's note")
    with pytest.raises(BSLError, match=r"holds 2 object\(s\) bsl did not write"):
        run_augment(corpus, f"s3://{bucket}/ds", augment_config(tmp_path, registry_dir=""))
    run_augment(corpus, f"s3://{bucket}/ds", augment_config(tmp_path, registry_dir=""), overwrite=True)
    files = _objects(s3_env, bucket, "ds")
    assert files["notes.txt"] == b"a user's note"  # not one of the tool's names: left where it is
    kept = [k for k in files if k.startswith(".bsl-replaced/") and k.endswith("data/mine.parquet")]
    assert len(kept) == 1 and files[kept[0]] == b"a user's file"
    verify_dataset(f"s3://{bucket}/ds")


@pytest.mark.parametrize("body, problem", [(b"my own file", "unreadable output marker"),
                                            (b'{"tool": "other", "kind": "dataset"}', "not a bsl output marker")])
def test_a_marker_that_is_not_bsl_s_is_refused_before_any_work_naming_its_url(s3_env, tmp_path, cache_home, body,
                                                                               problem):
    """As on disk: a `.bsl-output.json` bsl did not write stops the run at once, naming the object by its URL (not
    a local temporary path), with or without --overwrite, and nothing is written under the prefix."""
    from bsl_pipeline.pipeline.base.ownership import OwnershipError

    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    s3_env.client().put_object(Bucket=bucket, Key="lonem/.bsl-output.json", Body=body)
    for overwrite in (False, True):
        with pytest.raises(OwnershipError, match=re.escape(f"s3://{bucket}/lonem/.bsl-output.json: {problem}")):
            run_augment(corpus, f"s3://{bucket}/lonem", augment_config(tmp_path, registry_dir=""),
                        overwrite=overwrite)
    assert _objects(s3_env, bucket, "") == {"lonem/.bsl-output.json": body}


def _put_multipart(client, bucket: str, key: str, body: bytes) -> str:
    """`key` written as a multipart upload of one part (as s3fs writes large files): its ETag is no md5 of the
    bytes. Returns the ETag."""
    upload = client.create_multipart_upload(Bucket=bucket, Key=key)
    part = client.upload_part(Bucket=bucket, Key=key, UploadId=upload["UploadId"], PartNumber=1, Body=body)
    client.complete_multipart_upload(Bucket=bucket, Key=key, UploadId=upload["UploadId"],
                                     MultipartUpload={"Parts": [{"ETag": part["ETag"], "PartNumber": 1}]})
    return client.head_object(Bucket=bucket, Key=key)["ETag"]


def test_shards_whose_etag_is_no_md5_are_compared_by_sha256_never_uploaded_again_or_set_aside(s3_env, tmp_path,
                                                                                            cache_home):
    """Multipart uploads (and SSE-KMS objects) have ETags that are not the md5 of their bytes: a rerun that
    changes nothing compares such a shard by its sha256, so it uploads nothing and sets nothing aside; a shard of
    the same size with other bytes is still found, set aside and replaced."""
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/mp"
    client = s3_env.client()
    m = run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    files = _objects(s3_env, bucket, "mp")
    etags = {s.path: _put_multipart(client, bucket, f"mp/{s.path}", files[s.path]) for s in m.shards}
    assert all(e.strip('"').endswith("-1") for e in etags.values())
    run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    after = _objects(s3_env, bucket, "mp")
    assert not [k for k in after if k.startswith((".bsl-replaced/", ".bsl-staging/"))]
    assert {p: client.head_object(Bucket=bucket, Key=f"mp/{p}")["ETag"] for p in etags} == etags  # not re-written
    assert _shards(after) == _shards(files)
    # A killed run's staged copy of a published shard, multipart: removed as a copy of it, not set aside.
    staged = m.shards_of("rejects")[0].path
    _put_multipart(client, bucket, f"mp/.bsl-staging/{staged}", files[staged])
    run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    assert not [k for k in _objects(s3_env, bucket, "mp") if k.startswith((".bsl-replaced/", ".bsl-staging/"))]
    # The same size, other bytes, and an ETag that proves nothing: not the tool's shard, set aside and replaced.
    first = m.shards_of("pairs")[0].path
    changed = bytes(b ^ 0xFF for b in files[first])
    _put_multipart(client, bucket, f"mp/{first}", changed)
    run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    after = _objects(s3_env, bucket, "mp")
    aside = {k.split("/", 2)[2]: v for k, v in after.items() if k.startswith(".bsl-replaced/")}
    assert aside == {first: changed} and _shards(after) == _shards(files)
    verify_dataset(url)


def test_a_rerun_with_other_methods_sets_the_old_dataset_aside_on_a_store_as_on_disk(s3_env, tmp_path, cache_home,
                                                                                      caplog):
    """Other methods make another dataset: none of the old one's shards is dropped as a superseded shard of the
    tool's; all are set aside under the URL's `.bsl-replaced/`, and the warning names that place."""
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/ds"
    run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    before = {k: v for k, v in _objects(s3_env, bucket, "ds").items() if k.startswith(("data/", "rejects/"))}
    with caplog.at_level("WARNING"):
        run_augment(corpus, url, augment_config(tmp_path, registry_dir="", methods=["identity"]))
    files = _objects(s3_env, bucket, "ds")
    aside = {k.split("/", 2)[2]: v for k, v in files.items() if k.startswith(".bsl-replaced/")}
    assert before and all(aside.get(name) == body for name, body in before.items()), sorted(aside)
    assert f"set aside in {url}/.bsl-replaced/" in caplog.text and "bsl-publish-" not in caplog.text
    assert verify_dataset(url).method_names == ["identity"]


def test_another_corpus_into_a_dataset_on_a_store_sets_the_old_one_aside_as_on_disk(s3_env, tmp_path, cache_home,
                                                                                    caplog):
    """The same methods on another corpus make another dataset too: every old shard is set aside under the URL's
    `.bsl-replaced/`, none removed, and the one warning names both corpora."""
    corpus = write_corpus(tmp_path)
    other = tmp_path / "other.txt"
    other.write_text("A dog runs in the park.\nThe sun is bright today.\n", encoding="utf-8")
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/ds"
    run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    before = {k: v for k, v in _objects(s3_env, bucket, "ds").items() if k.startswith(("data/", "rejects/"))}
    with caplog.at_level("WARNING"):
        run_augment(other, url, augment_config(tmp_path, registry_dir=""))
    files = _objects(s3_env, bucket, "ds")
    aside = {k.split("/", 2)[2]: v for k, v in files.items() if k.startswith(".bsl-replaced/")}
    assert before and all(aside.get(name) == body for name, body in before.items()), sorted(aside)
    (line,) = [r.getMessage() for r in caplog.records if "now holds" in r.getMessage()]
    assert f"of {corpus}; it now holds noise" in line and f"of {other} (another corpus)" in line
    assert f"set aside in {url}/.bsl-replaced/" in line
    assert verify_dataset(url).stats.pairs == 2


def test_folder_markers_under_the_prefix_are_left_alone_and_do_not_stop_a_run(s3_env, tmp_path, cache_home):
    """A key ending in "/" (what a console's "create folder" makes, or a sync tool) under `data/` is no dataset
    file: the run publishes around it and leaves it as it was."""
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    client = s3_env.client()
    client.put_object(Bucket=bucket, Key="ds/data/", Body=b"")
    client.put_object(Bucket=bucket, Key="ds/data/dir/", Body=b"a marker with bytes")
    run_augment(corpus, f"s3://{bucket}/ds", augment_config(tmp_path, registry_dir=""))
    run_augment(corpus, f"s3://{bucket}/ds", augment_config(tmp_path, registry_dir="", seed=1))
    files = _objects(s3_env, bucket, "ds")
    assert files["data/"] == b"" and files["data/dir/"] == b"a marker with bytes"
    verify_dataset(f"s3://{bucket}/ds")


def test_overwrite_keeps_every_user_object_even_with_glob_characters_and_never_touches_nearby_prefixes(
        s3_env, tmp_path, cache_home):
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    client = s3_env.client()
    planted = ["p/data/a[1].parquet", "p/data/a1.parquet", "p/data/x*.txt", "p/data/q?.txt", "p/README.md",
               "p/data/odd [1] \u00fc%20+#.parquet", "p/.work/notes", "p", "pp/data/x.parquet", "p2/data/u.parquet",
               "p-old/manifest.json"]
    for key in planted:
        client.put_object(Bucket=bucket, Key=key, Body=f"user object {key}".encode())
    run_augment(corpus, f"s3://{bucket}/p", augment_config(tmp_path, registry_dir=""), overwrite=True)
    stored = _objects(s3_env, bucket, "")
    for key in planted:  # each one's bytes are still there: moved aside under its own name, or untouched
        holders = [k for k, v in stored.items() if v == f"user object {key}".encode()]
        assert len(holders) == 1, (key, holders)
        if not key.startswith("p/"):
            assert holders == [key]
        elif key.startswith(("p/data/", "p/README.md", "p/.work/")):
            assert holders[0].startswith("p/.bsl-replaced/") and holders[0].endswith(key[len("p/"):])
    verify_dataset(f"s3://{bucket}/p")


def test_odd_characters_in_the_url(s3_env, tmp_path, cache_home):
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/odd name+ü %41,=/ds"
    m = run_augment(corpus, url, augment_config(tmp_path, registry_dir="", name="odd"))
    assert verify_dataset(url).stats.pairs == m.stats.pairs > 0
    assert "manifest.json" in _objects(s3_env, bucket, "odd name+ü %41,=/ds")


@pytest.mark.parametrize("tail, problem", [("/x//ds", "an empty path segment"), ("//x/ds", "an empty path segment"),
                                           ("/x/ds//", "an empty path segment"), ("/x/./ds", "a '.' or '..'"),
                                           ("/x/../ds", "a '.' or '..'")])
def test_a_malformed_url_is_refused_before_anything_is_written(s3_env, tmp_path, cache_home, tail, problem):
    """A store takes `s3://b//x` for keys starting with "/", which every later listing of the URL misses: such URLs
    are refused up front, as an output, a corpus or a dataset to read, and nothing is written anywhere."""
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}{tail}"
    config = augment_config(tmp_path)
    for call in (lambda: run_augment(corpus, url, config), lambda: run_augment(url, tmp_path / "out", config),
                 lambda: verify_dataset(url)):
        with pytest.raises(BSLError, match=rf"^{re.escape(url)}: not a usable URL: {re.escape(problem)}"):
            call()
    assert _objects(s3_env, bucket, "") == {}
    assert not (tmp_path / "registry").exists() and not (tmp_path / "out").exists()
    assert not (cache_home / "bsl-pipeline" / "copies").exists()
    assert storage.is_url(f"s3://{bucket}/x/ds/") and storage.is_url(f"s3://{bucket}")
    if tail == "/x//ds":  # the command's one line
        done = _cli(["inspect", url, "--stats"], s3_env.env, tmp_path)
        assert done.returncode == 1 and done.stderr.count("\n") == 1
        assert done.stderr.startswith(f"bsl inspect: error: {url}: not a usable URL: {problem}"), done.stderr


COPY_SCRIPT = """
import hashlib, json, sys
from bsl_pipeline.pipeline.base import storage
from bsl_pipeline.pipeline.base.errors import BSLError
print("ready", flush=True)
sys.stdin.readline()
try:
    root = storage.local_copy(sys.argv[1], ("manifest.json",), ("data",), required="manifest.json")
except BSLError as exc:
    print(json.dumps({"error": str(exc)}))
else:
    print(json.dumps({p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                      for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")}))
"""


def test_readers_of_one_url_at_once_each_get_the_whole_copy(s3_env, tmp_path, cache_home):
    """Processes that copy one URL into one cache at the same moment (ranks of a training run, a verify beside an
    inspect): none removes another's download in flight, and each ends with every object, byte for byte."""
    bucket = s3_env.bucket()
    client = s3_env.client()
    objects = {"manifest.json": b"{}"} | {f"data/train-{i:05d}.parquet": os.urandom(32 << 10) for i in range(80)}
    for name, data in objects.items():
        client.put_object(Bucket=bucket, Key=f"ds/{name}", Body=data)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT / "tests")}
    readers = [subprocess.Popen([sys.executable, "-c", COPY_SCRIPT, f"s3://{bucket}/ds"], env=env, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
               for _ in range(4)]
    for reader in readers:  # all imported and waiting; then all start together
        assert reader.stdout.readline() == "ready\n", reader.stderr.read()
    for reader in readers:
        reader.stdin.write("go\n")
        reader.stdin.flush()
    expected = {name: hashlib.sha256(data).hexdigest() for name, data in objects.items()}
    for reader in readers:
        out, err = reader.communicate(timeout=120)
        assert reader.returncode == 0, err
        assert json.loads(out) == expected


def test_a_copy_keeps_a_download_in_flight_and_removes_a_stale_temp_file(s3_env, cache_home):
    """A temp file in the copy is another process's download while it is written to; one left untouched for an
    hour is from a killed download, and the clean-up removes it."""
    bucket = s3_env.bucket()
    s3_env.client().put_object(Bucket=bucket, Key="ds/data/a.parquet", Body=b"a")
    url = f"s3://{bucket}/ds"
    root = storage.local_copy(url, (), ("data",), required=None)
    in_flight, stale, stray = (root / "data" / n for n in (".b.parquet.k2j4h5g6.tmp", ".c.parquet.x8y7z6w5.tmp",
                                                           "c.parquet"))
    for path in (in_flight, stale, stray):
        path.write_bytes(b"partial")
    os.utime(stale, (stale.stat().st_atime, stale.stat().st_mtime - 2 * 3600))
    assert storage.local_copy(url, (), ("data",), required=None) == root
    assert in_flight.exists() and not stale.exists() and not stray.exists()
    assert (root / "data" / "a.parquet").read_bytes() == b"a"


def test_a_local_path_that_looks_like_a_url_stays_local(s3_env, tmp_path, cache_home, monkeypatch):
    corpus = write_corpus(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert not storage.is_url("./s3://bucket/ds") and storage.is_url("s3://bucket/ds")
    assert not storage.is_url(Path("s3://bucket/ds"))
    m = run_augment(corpus, "./s3://bucket/ds", augment_config(tmp_path, registry_dir=""))
    assert (tmp_path / "s3:" / "bucket" / "ds" / "manifest.json").is_file()
    assert verify_dataset(tmp_path / "s3:" / "bucket" / "ds").stats.pairs == m.stats.pairs


KILL_SCRIPT = """
import os, signal, sys
sys.path.insert(0, {tests!r})
from bsl_pipeline.pipeline.augment.job import run_augment
from bsl_pipeline.pipeline.base import storage
from small_corpus import augment_config
from pathlib import Path
real, calls = getattr(storage, {call!r}), []
def killing(location, *args):
    if "/data/" in str(location) or "/rejects/" in str(location):
        calls.append(location)
        if len(calls) == {at}:
            os.kill(os.getpid(), signal.SIGKILL)  # mid-upload (write_bytes) or mid-commit (move) of the shards
    return real(location, *args)
setattr(storage, {call!r}, killing)
run_augment({corpus!r}, {url!r}, augment_config(Path({tmp!r}), registry_dir="", seed={seed}))
"""


def _killed_run(url: str, corpus: Path, tmp_path: Path, call: str, at: int, seed: int = 0) -> None:
    script = KILL_SCRIPT.format(tests=str(REPO_ROOT / "tests"), corpus=str(corpus), url=url, tmp=str(tmp_path),
                                call=call, at=at, seed=seed)
    done = subprocess.run([sys.executable, "-c", script], env={**os.environ, "BSL_NO_PROGRESS": "1"},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == -signal.SIGKILL, done.stderr


def _glob(url: str) -> list[str]:
    """What a reader's glob over `data/*.parquet` matches now (a fresh filesystem: no listing cache)."""
    fs, path = storage.filesystem(url)
    fs.invalidate_cache()
    return sorted(name.rsplit("/", 2)[-2] + "/" + name.rsplit("/", 1)[-1] for name in fs.glob(f"{path}/data/*.parquet"))


def _glob_load(url: str, server, tmp_path: Path):
    import datasets

    return datasets.load_dataset("parquet", data_files=f"{url}/data/*.parquet", split="train",
                                 storage_options={"endpoint_url": server.endpoint_url},
                                 cache_dir=str(tmp_path / "hf-cache"))


def test_sigkill_during_upload_then_rerun_equals_an_uninterrupted_run(s3_env, tmp_path, cache_home, monkeypatch):
    import datasets

    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", False)  # the store is 127.0.0.1
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/killed"
    _killed_run(url, corpus, tmp_path, "write_bytes", at=2)
    files = _objects(s3_env, bucket, "killed")
    # Killed mid-upload: the shards are under the staging prefix only; data/ and rejects/ hold nothing, so a glob
    # reader finds no file and `bsl verify` no manifest.
    assert "manifest.json" not in files and not _shards(files)
    assert any(k.startswith(".bsl-staging/data/") for k in files)
    assert _glob(url) == []
    with pytest.raises((FileNotFoundError, ValueError), match="data_files|Unable to find"):
        _glob_load(url, s3_env, tmp_path)  # datasets: no file to load
    with pytest.raises(BSLError, match="no manifest"):
        verify_dataset(url)
    # The rerun takes over the dead writer's lease (same host, pid gone), reuses its tasks and staged uploads.
    resumed = run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    assert resumed.stats.per_method["noise"].tasks_cached == resumed.stats.per_method["noise"].tasks
    clean = run_augment(corpus, tmp_path / "clean", augment_config(tmp_path, registry_dir=""))
    files = _objects(s3_env, bucket, "killed")
    assert _shards(files) == _local_shards(tmp_path / "clean")
    assert not [k for k in files if k.startswith((".bsl-staging/", ".bsl-replaced/"))]  # nothing left, nothing aside
    assert verify_dataset(url).stats.pairs == clean.stats.pairs
    assert _glob(url) == sorted(s.path for s in resumed.shards_of("pairs"))
    assert _glob_load(url, s3_env, tmp_path).num_rows == clean.stats.pairs


def test_an_update_keeps_the_old_dataset_until_its_commit_and_never_reuses_a_name(s3_env, tmp_path, cache_home,
                                                                                     monkeypatch):
    import datasets

    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", False)
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/updated"
    old = run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    old_files = _objects(s3_env, bucket, "updated")
    old_names = {s.path for s in old.shards}
    # The update (another seed: other views) killed mid-upload: the old dataset is whole, and all a glob sees.
    _killed_run(url, corpus, tmp_path, "write_bytes", at=2, seed=1)
    assert verify_dataset(url).checksum == old.checksum
    assert _glob(url) == sorted(s.path for s in old.shards_of("pairs"))
    assert _glob_load(url, s3_env, tmp_path).num_rows == old.stats.pairs
    # Killed again mid-commit (its first staged shard moved into data/): `bsl verify` refuses the mix a glob sees.
    _killed_run(url, corpus, tmp_path, "move", at=2, seed=1)
    seen = _glob(url)
    assert set(s.path for s in old.shards_of("pairs")) < set(seen) and len(seen) == len(old.shards_of("pairs")) + 1
    with pytest.raises(BSLError, match="not listed in the manifest"):
        verify_dataset(url)
    new = run_augment(corpus, url, augment_config(tmp_path, registry_dir="", seed=1))
    files = _objects(s3_env, bucket, "updated")
    clean = run_augment(corpus, tmp_path / "clean", augment_config(tmp_path, registry_dir="", seed=1))
    assert _shards(files) == _local_shards(tmp_path / "clean") and verify_dataset(url).checksum == new.checksum
    # Every name stands for one content: the old shards' names that the new dataset does not reuse are gone (the
    # tool's own shards, removed after the commit), and none of them holds other bytes than before.
    assert {s.path for s in new.shards} != old_names
    for name in old_names:
        assert files.get(name, old_files[name]) == old_files[name]
    assert not old_names - {s.path for s in new.shards} & set(files)
    assert not [k for k in files if k.startswith((".bsl-staging/", ".bsl-replaced/"))]
    assert _glob(url) == sorted(s.path for s in new.shards_of("pairs"))
    # What a killed run staged and the next run does not use is moved aside at its end, never deleted.
    _killed_run(url, corpus, tmp_path, "write_bytes", at=2, seed=2)
    staged = {k: v for k, v in _objects(s3_env, bucket, "updated").items() if k.startswith(".bsl-staging/")}
    assert staged
    run_augment(corpus, url, augment_config(tmp_path, registry_dir="", seed=1))
    files = _objects(s3_env, bucket, "updated")
    aside = {k.split("/", 2)[2]: v for k, v in files.items() if k.startswith(".bsl-replaced/")}
    assert aside == staged and not [k for k in files if k.startswith(".bsl-staging/")]
    assert _shards(files) == _local_shards(tmp_path / "clean")


def test_hugging_face_datasets_reads_the_output_from_s3(s3_env, tmp_path, cache_home, monkeypatch):
    import datasets

    # The tests run with HF_HUB_OFFLINE=1, which datasets applies to every remote URL; this one is 127.0.0.1.
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", False)
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/hf"
    m = run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    loaded = datasets.load_dataset("parquet", data_files=f"{url}/data/*.parquet", split="train",
                                   storage_options={"endpoint_url": s3_env.endpoint_url},
                                   cache_dir=str(tmp_path / "hf-cache"))
    assert loaded.num_rows == m.stats.pairs
    assert set(loaded["method"]) == {"noise"}
    # The guide's line: the shard list from the manifest, the commit point.
    import fsspec

    options = {"endpoint_url": s3_env.endpoint_url}
    with fsspec.open(f"{url}/manifest.json", **options) as fh:
        manifest = json.load(fh)
    files = [f"{url}/{shard['path']}" for shard in manifest["shards"] if shard["kind"] == "pairs"]
    listed = datasets.load_dataset("parquet", data_files=files, split="train", storage_options=options,
                                   cache_dir=str(tmp_path / "hf-cache"))
    assert sorted(map(str, listed)) == sorted(map(str, loaded)) and listed.num_rows == m.stats.pairs


def test_training_reads_a_dataset_on_s3_as_it_reads_the_same_dataset_on_disk(s3_env, tmp_path, cache_home,
                                                                               tiny_bert_dir):
    from tests.training.test_trainer_utils import tiny_config

    from bsl_pipeline.training import train

    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/train-data"
    run_augment(corpus, url, augment_config(tmp_path, registry_dir="", name="views"))
    run_augment(corpus, tmp_path / "views", augment_config(tmp_path, registry_dir=""))
    steps = ["train.max_steps=3"]
    from_store = train(tiny_config(tiny_bert_dir, [url], tmp_path / "run-s3", overrides=steps), disable_progress=True)
    from_disk = train(tiny_config(tiny_bert_dir, [tmp_path / "views"], tmp_path / "run-disk", overrides=steps),
                      disable_progress=True)
    losses = [[row["loss"] for row in run.history] for run in (from_store, from_disk)]
    assert from_store.completed and len(losses[0]) == 3 and losses[0] == losses[1]
    # Stopped after step 1 and resumed: the same three losses.
    first = train(tiny_config(tiny_bert_dir, [url], tmp_path / "run-split", overrides=[*steps, "train.stop_at_step=1"]),
                  disable_progress=True)
    second = train(tiny_config(tiny_bert_dir, [url], tmp_path / "run-split", overrides=[*steps, "train.resume=auto"]),
                   disable_progress=True)
    assert first.step == 1 and [r["loss"] for r in first.history + second.history] == losses[0]
    # A shard changed on the store after the manifest: refused, named.
    shard = verify_dataset(url).shards_of("pairs")[0].path
    s3_env.client().put_object(Bucket=bucket, Key=f"train-data/{shard}", Body=b"changed")
    with pytest.raises(BSLError) as err:
        train(tiny_config(tiny_bert_dir, [url], tmp_path / "run-s3b", overrides=steps), disable_progress=True)
    assert f"{url}/{shard}" in storage.shown(str(err.value))
    # Checkpoints go to a local directory: a URL is refused, clearly.
    with pytest.raises(BSLError, match="train.output_dir=s3://.*written to a local directory"):
        train(tiny_config(tiny_bert_dir, [tmp_path / "views"], f"s3://{bucket}/runs", overrides=steps),
              disable_progress=True)


def test_job_report_and_review_read_a_dataset_on_s3(s3_server, tmp_path, monkeypatch):
    from bsl_pipeline.flows.job_report import render_report
    from bsl_pipeline.pipeline.dataset.store import load_manifest

    for name, value in {**s3_server.env, "XDG_CACHE_HOME": str(tmp_path / "cache")}.items():
        monkeypatch.setenv(name, value)
    corpus = write_corpus(tmp_path)
    bucket = s3_server.bucket()
    url = f"s3://{bucket}/reviewed"
    m = run_augment(corpus, url, augment_config(tmp_path, registry_dir=""))
    page = render_report("job", [load_manifest(url)], samples_per_method=3)
    assert f"Dataset {m.name}" in page and "noise" in page and SECRET_KEY not in page
    env = {**s3_server.env, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    summary = _cli(["review", url, "--summary"], env, tmp_path)
    assert summary.returncode == 0, summary.stderr
    assert f"no judged pairs in {url}/judgments.jsonl" in summary.stdout and "cache" not in summary.stdout


def test_signed_manifest_and_markers_and_the_registry_copy_on_s3(s3_env, tmp_path, cache_home, monkeypatch):
    from bsl_pipeline.pipeline.dataset.store import load_manifest

    monkeypatch.setenv("BSL_MANIFEST_KEY", "a key only this test knows")
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    url = f"s3://{bucket}/signed"
    run_augment(corpus, url, augment_config(tmp_path, name="signed"))
    stored = json.loads(_objects(s3_env, bucket, "signed")["manifest.json"])
    assert stored["signature"] and verify_dataset(url).dataset_dir == url
    markers = [json.loads(v) for k, v in _objects(s3_env, bucket, "signed").items() if k.endswith(".done.json")]
    assert markers and all(m.get("signature") for m in markers)
    again = run_augment(corpus, url, augment_config(tmp_path, name="signed"))
    assert again.stats.per_method["noise"].tasks_cached == again.stats.per_method["noise"].tasks
    # The registry copy names the URL, and reading it reads the dataset there.
    registered = tmp_path / "registry" / "datasets" / "signed.json"
    assert json.loads(registered.read_text())["dataset_dir"] == url
    assert verify_dataset(registered).stats.pairs == again.stats.pairs
    monkeypatch.setenv("BSL_MANIFEST_KEY", "another key")
    with pytest.raises(BSLError, match="signature"):
        verify_dataset(url)
    assert load_manifest(url).name == "signed"


def test_a_scheme_whose_backend_is_not_installed_is_one_line_naming_the_package(tmp_path):
    import importlib.util

    missing = [(scheme, package) for scheme, package in (("gs", "gcsfs"), ("az", "adlfs"), ("oci", "ocifs"))
               if importlib.util.find_spec(package) is None]
    if not missing:
        pytest.skip("gcsfs, adlfs and ocifs are all installed here")
    scheme, package = missing[0]
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    corpus = write_corpus(tmp_path)
    for args in (["verify", f"{scheme}://bucket/views"],
                 ["augment", str(corpus), "--out", f"{scheme}://bucket/views", "--methods", "noise"]):
        done = _cli(args, env, tmp_path)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert f"{scheme}://bucket/views: the {scheme}:// scheme needs the Python package {package}" in done.stderr
        assert f"pip install {package}" in done.stderr
    with pytest.raises(BSLError, match="no fsspec filesystem knows the scheme nosuch://"):
        storage.exists("nosuch://bucket/views")


def test_credentials_in_a_config_are_refused_and_never_shown(tmp_path, monkeypatch):
    corpus = write_corpus(tmp_path)
    config = augment_config(tmp_path, registry_dir="")
    config.storage.options = {"client_kwargs": {"aws_secret_access_key": SECRET_KEY}}
    with pytest.raises(BSLError, match="storage.options.client_kwargs.aws_secret_access_key: credentials are not "
                                       "taken from a config") as err:
        run_augment(corpus, "s3://bucket/ds", config)
    assert SECRET_KEY not in str(err.value)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
    assert storage.redact(f"http://user:{SECRET_KEY}@host/x failed: {SECRET_KEY}") == "http://***@host/x failed: ***"


def test_a_corpus_on_s3_is_read_and_named_by_its_url(s3_env, tmp_path, cache_home, monkeypatch):
    import pyarrow.parquet as pq

    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    s3_env.client().put_object(Bucket=bucket, Key="in/corpus.txt", Body=corpus.read_bytes())
    source = f"s3://{bucket}/in/corpus.txt"
    m = run_augment(source, tmp_path / "ds", augment_config(tmp_path, registry_dir=""))
    local = run_augment(corpus, tmp_path / "local", augment_config(tmp_path, registry_dir=""))
    assert m.source.corpus == source and [f["path"] for f in m.source.files] == [source]
    assert m.source.files[0]["sha256"] == local.source.files[0]["sha256"] and m.stats.pairs == local.stats.pairs
    origins = pq.read_table(tmp_path / "ds" / m.shards_of("pairs")[0].path).column("origin").to_pylist()
    assert origins and all(o.startswith(f"{source}:") for o in origins)
    # Another machine's copy (another cache) gives the same chunks: every task is reused.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other-cache"))
    again = run_augment(source, tmp_path / "ds", augment_config(tmp_path, registry_dir=""))
    assert again.stats.per_method["noise"].tasks_cached == again.stats.per_method["noise"].tasks
    # A prefix is a corpus directory; a missing one is one line naming it.
    folder = run_augment(f"s3://{bucket}/in", f"s3://{bucket}/out", augment_config(tmp_path, registry_dir=""))
    assert folder.stats.pairs == m.stats.pairs
    with pytest.raises(BSLError, match=f"nothing at s3://{bucket}/missing"):
        run_augment(f"s3://{bucket}/missing", tmp_path / "none", augment_config(tmp_path, registry_dir=""))


def test_an_output_inside_its_corpus_url_is_refused(s3_env, tmp_path, cache_home):
    from bsl_pipeline.pipeline.base.ownership import OwnershipError

    bucket = s3_env.bucket()
    s3_env.client().put_object(Bucket=bucket, Key="in/corpus.txt", Body=write_corpus(tmp_path).read_bytes())
    with pytest.raises(OwnershipError, match="overlap"):
        run_augment(f"s3://{bucket}/in", f"s3://{bucket}/in/ds", augment_config(tmp_path, registry_dir=""))
    assert list(_objects(s3_env, bucket, "in")) == ["corpus.txt"]
