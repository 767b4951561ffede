"""A Dask cluster writing to an object store against a serial run writing to local disk, in one run.

Serial: `bsl augment CORPUS --out <local dir>`. Cluster: a `dask scheduler` and two `dask worker` processes on
127.0.0.1 (one thread each, each started in its own temporary directory with its own cache: no shared filesystem),
and `bsl flow augment CORPUS --out s3://... --runner dask --dask-address ...`, the output on moto's S3 server on
127.0.0.1 (`tests/s3_server.py`), reporting to a Prefect server on 127.0.0.1 (`--dask-address` needs
PREFECT_API_URL). Both are timed from the command's start to its exit (the cluster and the Prefect server are
started before the clock). The shards must be equal byte for byte (their
sha256 in both manifests, and the objects' bytes against the files).

Usage: python benchmarks/bench_cluster.py [--lines 20000] [--methods synonyms,span-mask] [--chunk-size 1000]
                                          [--repeats 2]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_env import prepare  # noqa: E402

REPO = prepare(single_thread=True)
BIN = Path(sys.executable).parent


def start(args: list[str], env: dict[str, str], home: Path) -> subprocess.Popen:
    log = open(home / "process.log", "wb")  # noqa: SIM115 - the process writes it while it runs
    return subprocess.Popen(args, env=env, stdout=log, stderr=log, cwd=home, start_new_session=True)


def start_cluster(work: Path, env: dict[str, str], workers: int) -> tuple[str, list[subprocess.Popen]]:
    from distributed import Client
    from s3_server import free_port

    address = f"tcp://127.0.0.1:{free_port()}"
    homes = [work / name for name in ["scheduler", *(f"worker-{i}" for i in range(workers))]]
    for home in homes:
        home.mkdir()
    processes = [start([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                        "--dashboard-address", ":0"], env, homes[0])]
    for home in homes[1:]:
        processes.append(start([str(BIN / "dask"), "worker", address, "--nworkers", "1", "--nthreads", "1",
                                "--no-dashboard", "--host", "127.0.0.1", "--local-directory", str(home)],
                               {**env, "XDG_CACHE_HOME": str(home / "cache"), "TMPDIR": str(home)}, home))
    with Client(address, timeout=120) as client:
        client.wait_for_workers(workers, timeout=180)
    return address, processes


def timed(args: list[str], env: dict[str, str]) -> float:
    begin = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - begin
    if done.returncode != 0:
        sys.exit(f"{' '.join(args[:4])} ... failed:\n{done.stderr[-3000:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--methods", default="synonyms,span-mask")
    parser.add_argument("--chunk-size", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()

    from bench_flows import make_corpus
    from prefect_server import LocalPrefectServer
    from s3_server import start_s3_server

    work = Path(tempfile.mkdtemp(prefix="bsl-bench-cluster-"))
    server = start_s3_server(work)
    prefect = LocalPrefectServer(home=work / "prefect-server")
    processes: list[subprocess.Popen] = []
    try:
        prefect.start()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "DASK_"))}
        env.update(server.env, PYTHONPATH=str(REPO), BSL_NO_PROGRESS="1", OMP_NUM_THREADS="1",
                   PREFECT_HOME=str(work / "prefect-home"), PREFECT_SERVER_ANALYTICS_ENABLED="false",
                   DO_NOT_TRACK="1", XDG_CACHE_HOME=str(work / "cache"), PREFECT_API_URL=prefect.api_url)
        bucket = server.bucket("bench")
        corpus = work / "corpus.txt"
        make_corpus(corpus, args.lines)
        settings = ["--methods", args.methods, "-o", f"corpus.chunk_size={args.chunk_size}", "-o", "registry_dir=",
                    "-o", "progress=false"]
        address, processes = start_cluster(work, env, 2)
        bsl = [sys.executable, "-m", "bsl_pipeline.cli"]
        times: dict[str, list[float]] = {"serial": [], "cluster": []}
        for i in range(args.repeats):  # fresh outputs each time: nothing reused
            times["serial"].append(timed([*bsl, "augment", str(corpus), "--out", str(work / f"serial-{i}"),
                                          *settings], env))
            times["cluster"].append(timed([*bsl, "flow", "augment", str(corpus), "--out", f"s3://{bucket}/run-{i}",
                                           "--runner", "dask", "--dask-address", address, *settings], env))
            print(f"repeat {i}: serial on disk {times['serial'][-1]:.1f} s, cluster on s3 "
                  f"{times['cluster'][-1]:.1f} s", flush=True)

        client = server.client()
        serial = json.loads((work / "serial-0" / "manifest.json").read_text())
        for i in range(args.repeats):
            remote = json.loads(client.get_object(Bucket=bucket, Key=f"run-{i}/manifest.json")["Body"].read())
            # The same bytes in the same order; on a store a shard's name also carries its content id.
            assert [(s["path"], s["sha256"]) for s in remote["shards"]] == \
                [(content_named(s["path"], s["sha256"]), s["sha256"]) for s in serial["shards"]], \
                "the cluster's shards differ from serial's"
            for shard in remote["shards"]:
                body = client.get_object(Bucket=bucket, Key=f"run-{i}/{shard['path']}")["Body"].read()
                assert hashlib.sha256(body).hexdigest() == shard["sha256"], shard["path"]
        pairs, shards = serial["stats"]["pairs"], len(serial["shards"])
        best_serial, best_cluster = min(times["serial"]), min(times["cluster"])
        print(f"\n{args.lines} lines ({args.methods}, {-(-args.lines // args.chunk_size)} chunks): {pairs} pairs, "
              f"{shards} shards, equal sha256 in every run")
        print(f"serial on disk {best_serial:.1f} s, cluster of 2 workers on s3 {best_cluster:.1f} s "
              f"(best of {args.repeats}), ratio cluster/serial {best_cluster / best_serial:.3f}")
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=30)
        prefect.stop()
        server.stop()


def content_named(path: str, sha256: str) -> str:
    """A disk shard's path as the store names it (`pipeline.augment.job.shard_file_name` with `content_named`)."""
    from bsl_pipeline.pipeline.augment.job import CONTENT_ID_CHARS

    return path.removesuffix(".parquet") + f"-{sha256[:CONTENT_ID_CHARS]}.parquet"


if __name__ == "__main__":
    main()
