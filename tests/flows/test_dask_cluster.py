"""A real Dask cluster on 127.0.0.1: `dask scheduler` and two `dask worker` processes, `bsl flow augment
--dask-address` spreading tasks over them, one worker SIGKILLed mid-run; the dataset must equal the one `bsl augment`
writes serially (issue 21). Every process is started in its own session and killed in a `finally`."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("prefect-flows")]

REPO_ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
START_TIMEOUT_S = 120  # a busy 2-core machine: a worker imports distributed in ~5-20 s
RUN_TIMEOUT_S = 420
CHUNKS = 60  # one task per chunk: enough of them that the kill lands while many are still to do


def _free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "DASK_"))}
    env.update(PYTHONPATH=str(REPO_ROOT), BSL_NO_PROGRESS="1", OMP_NUM_THREADS="1",
               PREFECT_HOME=str(tmp_path / "prefect-home"), PREFECT_SERVER_ANALYTICS_ENABLED="false",
               DO_NOT_TRACK="1")
    return env


@pytest.fixture(scope="module")
def prefect_api_url(tmp_path_factory) -> str:
    """A Prefect server for the module's flows (a cluster's workers report to it: `--dask-address` needs one); the
    flow process gets it as PREFECT_API_URL, the workers through the task context, as on separate machines."""
    from prefect_server import LocalPrefectServer

    server = LocalPrefectServer(home=tmp_path_factory.mktemp("prefect-home"), startup_timeout_s=START_TIMEOUT_S)
    server.start()
    try:
        yield server.api_url
    finally:
        server.stop()


def _start(args: list[str], env: dict[str, str], log: Path, stdout: Path | None = None) -> subprocess.Popen:
    """ARGS in a session of its own (so a kill reaches all its processes); stderr (and stdout) into `log`."""
    with open(log, "wb") as err, open(stdout or os.devnull, "wb") as out:
        return subprocess.Popen(args, env=env, stdout=out if stdout else err, stderr=err, start_new_session=True,
                                cwd=log.parent)


def _kill(process: subprocess.Popen) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    process.wait(timeout=30)


def _wait_for_workers(address: str, count: int, processes: list[subprocess.Popen], logs: list[Path]) -> list[str]:
    """The workers' addresses once `count` have registered with the scheduler."""
    from distributed import Client

    deadline = time.monotonic() + START_TIMEOUT_S
    with Client(address, timeout=START_TIMEOUT_S) as client:
        while time.monotonic() < deadline:
            workers = list(client.scheduler_info(n_workers=-1)["workers"])
            if len(workers) >= count:
                return workers
            for process, log in zip(processes, logs, strict=True):
                assert process.poll() is None, f"{log.name} exited early: {log.read_text()[-2000:]}"
            time.sleep(0.5)
    raise AssertionError(f"fewer than {count} workers registered within {START_TIMEOUT_S} s")


def _start_cluster(env: dict[str, str], logs: list[Path], processes: list[subprocess.Popen],
                   worker_env=lambda log, env: env) -> str:
    """A scheduler (logging to logs[0]) and one worker per further log, each started in its log's folder with
    `worker_env(log, env)`; returns the scheduler's address once the workers have registered."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    processes.append(_start([str(VENV_BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                             "--dashboard-address", ":0"], env, logs[0]))
    for log in logs[1:]:
        # --no-nanny: the SIGKILL ends the worker for good (a nanny would restart it)
        processes.append(_start([str(VENV_BIN / "dask"), "worker", address, "--nworkers", "1", "--nthreads", "1",
                                 "--no-nanny", "--no-dashboard", "--host", "127.0.0.1",
                                 "--local-directory", str(log.parent)], worker_env(log, env), log))
    _wait_for_workers(address, len(logs) - 1, processes, logs)
    return address


def _kill_a_worker_mid_run(flow: subprocess.Popen, flow_log: Path, worker: subprocess.Popen, done) -> str:
    """Once `done()` (finished tasks) reaches 3, SIGKILL `worker`; the flow must still succeed. Returns its log."""
    deadline = time.monotonic() + RUN_TIMEOUT_S
    while done() < 3:
        assert flow.poll() is None, f"the flow ended before the kill: {flow_log.read_text()[-3000:]}"
        assert time.monotonic() < deadline, "no task finished in time"
        time.sleep(0.1)
    _kill(worker)
    assert done() < CHUNKS  # the kill landed mid-run
    flow.wait(timeout=max(1.0, deadline - time.monotonic()))
    output = flow_log.read_text()
    assert flow.returncode == 0, output[-5000:]
    return output


def _dataset_rows(out: Path) -> list[str]:
    import pyarrow.parquet as pq

    from bsl_pipeline.pipeline.dataset.store import load_manifest, verify_dataset

    verify_dataset(out)
    rows = []
    for shard in load_manifest(out).shards:
        rows += [json.dumps(r, sort_keys=True) for r in pq.read_table(out / shard.path).to_pylist()]
    return sorted(rows)


SETTINGS = ["--methods", "span-mask", "-o", "corpus.chunk_size=4", "-o", "registry_dir=", "-o", "progress=false"]


@pytest.fixture(scope="module")
def serial_run(tmp_path_factory) -> tuple[Path, Path]:
    """The corpus (on the driver's disk) and the dataset `bsl augment` writes from it serially: every cluster run of
    this module must equal it."""
    folder = tmp_path_factory.mktemp("driver")
    corpus = folder / "corpus.txt"
    corpus.write_text("".join(f"sentence number {i} says that the {i % 7} cats sat on {i % 5} mats today\n"
                              for i in range(CHUNKS * 4)), encoding="utf-8")
    serial = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "augment", str(corpus), "--out",
                             str(folder / "serial"), *SETTINGS], env=_env(folder), capture_output=True, text=True,
                            timeout=RUN_TIMEOUT_S)
    assert serial.returncode == 0, serial.stderr[-3000:]
    return corpus, folder / "serial"


def test_flow_on_a_real_cluster_survives_a_killed_worker_and_equals_the_serial_run(tmp_path, serial_run,
                                                                                   prefect_api_url):
    from tests.pipeline.dataset.test_dataset import executor_independent_parts

    from bsl_pipeline.pipeline.dataset.store import load_manifest

    corpus, serial_dir = serial_run
    env = _env(tmp_path)

    logs = [tmp_path / name for name in ("scheduler.log", "worker-a.log", "worker-b.log")]
    processes: list[subprocess.Popen] = []
    try:
        address = _start_cluster(env, logs, processes)
        out = tmp_path / "cluster"
        flow_log, flow_json = tmp_path / "flow.log", tmp_path / "flow.json"
        flow = _start([sys.executable, "-m", "bsl_pipeline.cli", "flow", "augment", str(corpus), "--out", str(out),
                       "--runner", "dask", "--dask-address", address, *SETTINGS, "--json"],
                      {**env, "PREFECT_API_URL": prefect_api_url}, flow_log, stdout=flow_json)
        processes.append(flow)
        # kill one worker once a few tasks are done and most are still to do
        markers = out / ".work" / "tasks"
        output = _kill_a_worker_mid_run(flow, flow_log, processes[1], lambda: len(list(markers.glob("*.done.json"))))
    finally:
        for process in reversed(processes):
            _kill(process)

    summary = json.loads(flow_json.read_text())
    # a task whose worker died after its marker was written is found done when rerun (Cached), the rest recompute
    assert summary["tasks"] == CHUNKS and sum(summary["task_states"].values()) == CHUNKS
    assert set(summary["task_states"]) <= {"Completed", "Cached"}, summary["task_states"]
    assert _dataset_rows(out) == _dataset_rows(serial_dir)
    assert executor_independent_parts(load_manifest(out)) == executor_independent_parts(load_manifest(serial_dir))
    # a successful run ends quietly: no tracebacks of Prefect's services cancelled at interpreter exit
    assert "CancelledError" not in output and "Traceback" not in output, output[-5000:]


def test_cluster_without_a_shared_filesystem_writes_to_the_object_store(tmp_path, s3_server, monkeypatch,
                                                                         serial_run, prefect_api_url):
    """The same cluster, its output on an S3 server: each process starts in its own temporary directory and the
    workers reach the data only through the store (chunks in, task shards and markers out); one worker is killed
    mid-run, and the dataset equals the serial run's, byte for byte. The workers have credentials but no
    AWS_ENDPOINT_URL: the endpoint the flow machine resolved travels with the tasks."""
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    corpus, serial_dir = serial_run
    (tmp_path / "driver").mkdir()
    env = {**_env(tmp_path), **s3_server.env, "XDG_CACHE_HOME": str(tmp_path / "driver" / "cache")}
    bucket = s3_server.bucket()
    client = s3_server.client()
    url = f"s3://{bucket}/cluster"

    def done_markers() -> int:
        listed = client.list_objects_v2(Bucket=bucket, Prefix="cluster/.work/tasks/").get("Contents", [])
        return sum(item["Key"].endswith(".done.json") for item in listed)

    homes = [tmp_path / name for name in ("scheduler", "worker-a", "worker-b")]
    for home in homes:
        home.mkdir()
    logs = [home / "process.log" for home in homes]
    processes: list[subprocess.Popen] = []
    try:
        address = _start_cluster(env, logs, processes, lambda log, env: {
            **{k: v for k, v in env.items() if not k.startswith("AWS_ENDPOINT_URL")},
            "XDG_CACHE_HOME": str(log.parent / "cache"), "TMPDIR": str(log.parent)})
        flow_log, flow_json = tmp_path / "driver" / "flow.log", tmp_path / "driver" / "flow.json"
        flow = _start([sys.executable, "-m", "bsl_pipeline.cli", "flow", "augment", str(corpus), "--out", url,
                       "--runner", "dask", "--dask-address", address, *SETTINGS, "--json"],
                      {**env, "PREFECT_API_URL": prefect_api_url}, flow_log, stdout=flow_json)
        processes.append(flow)
        _kill_a_worker_mid_run(flow, flow_log, processes[1], done_markers)
    finally:
        for process in reversed(processes):
            _kill(process)

    summary = json.loads(flow_json.read_text())
    assert summary["tasks"] == CHUNKS and summary["manifest"] == f"{url}/manifest.json"
    for kind in ("data", "rejects"):
        local = {p.name: p.read_bytes() for p in sorted((serial_dir / kind).glob("*.parquet"))}
        remote = {item["Key"].rsplit("/", 1)[1]: client.get_object(Bucket=bucket, Key=item["Key"])["Body"].read()
                  for item in client.list_objects_v2(Bucket=bucket, Prefix=f"cluster/{kind}/").get("Contents", [])}
        # On the store a shard's name carries its content id (the first 16 hex digits of its sha256).
        assert all(name[-24:-8] == hashlib.sha256(data).hexdigest()[:16] for name, data in remote.items())
        assert {name[:-25] + ".parquet": data for name, data in remote.items()} == local, kind
    # No worker wrote to its own disk: their folders hold only what dask itself keeps there.
    for home in homes[1:]:
        assert not list(home.rglob("*.parquet")) and not list(home.rglob("*.done.json"))
    # No credential in any file the run left: logs, the summary, Prefect's database (its artifacts), the stored data.
    stored = [client.get_object(Bucket=bucket, Key=item["Key"])["Body"].read()
              for item in client.list_objects_v2(Bucket=bucket).get("Contents", [])]
    blobs = [p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()] + stored
    for secret in (s3_server.env["AWS_SECRET_ACCESS_KEY"], s3_server.env["AWS_ACCESS_KEY_ID"]):
        assert not any(secret.encode() in blob for blob in blobs), secret
    for name, value in {**s3_server.env, "XDG_CACHE_HOME": str(tmp_path / "reader-cache")}.items():
        monkeypatch.setenv(name, value)
    assert verify_dataset(url).stats.pairs == json.loads((serial_dir / "manifest.json").read_text())["stats"]["pairs"]
