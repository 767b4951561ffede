"""Prefect flows against a real Prefect API: a `prefect server start` on a loopback port, started once for this
module with its own PREFECT_HOME and stopped at the end. No mocks: runs, task states and artifacts are read back
from the server's REST API.

The test-only augmenter below (`counting`) logs every `setup()` and batch to a file named by $BSL_TEST_COUNTER_FILE
(one line each, with the process id), which is how the tests prove that a cached run never called it and that
Dask workers load it once each. $BSL_TEST_KILL_AFTER=N makes it SIGKILL its own process at its N-th batch;
$BSL_TEST_FAIL_ONCE=FILE makes its first batch raise (and create FILE), to exercise retries.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from bsl_pipeline.flows.prefect_env import configure_prefect_environment
from bsl_pipeline.pipeline.augment.augmenters import REGISTRY
from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter, SourceRecord, ViewPair

configure_prefect_environment()  # before anything here imports Prefect, as every process that runs a flow does
pytestmark = pytest.mark.xdist_group("prefect-flows")  # one worker, one server

TESTS_DIR = Path(__file__).resolve().parents[1]
REPO_ROOT = TESTS_DIR.parent
COUNTER_ENV = "BSL_TEST_COUNTER_FILE"
KILL_ENV = "BSL_TEST_KILL_AFTER"
FAIL_ONCE_ENV = "BSL_TEST_FAIL_ONCE"
SERVER_START_TIMEOUT_S = 150  # a fresh database is migrated first; ~20 s on a busy 2-core machine
RUN_TIMEOUT_S = 180

_batches_in_this_process = 0


def _log_call(*parts: object) -> None:
    path = os.environ.get(COUNTER_ENV)
    if path:
        with open(path, "a", encoding="utf-8") as fh:  # one short append per call: survives a SIGKILL
            fh.write(" ".join(str(p) for p in parts) + "\n")


class CountingAugmenter(Augmenter):
    """Test-only: view2 = the words in reverse order; logs setup() and every batch (see module docstring)."""

    name = "counting"
    default_batch_size = 4

    def setup(self) -> None:
        _log_call("setup", os.getpid())

    def augment_batch(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        global _batches_in_this_process
        _batches_in_this_process += 1
        _log_call("batch", os.getpid(), len(records))
        fail_once = os.environ.get(FAIL_ONCE_ENV)
        if fail_once and not os.path.exists(fail_once):
            Path(fail_once).touch()
            raise RuntimeError("transient failure (test)")
        kill_after = int(os.environ.get(KILL_ENV) or 0)
        if kill_after and _batches_in_this_process >= kill_after:
            os.kill(os.getpid(), signal.SIGKILL)
        return [ViewPair(r.text, " ".join(reversed(r.text.split(" ")))) for r in records]


REGISTRY.setdefault("counting", f"{__name__}:CountingAugmenter")

SENTENCES = [f"Sentence {i} is about the {w} near the old {v}." for i, (w, v) in
             enumerate(zip(["dog", "cat", "tree", "child", "ball", "car", "house", "woman"] * 6,
                           ["river", "bridge", "market", "school", "garden", "tower"] * 8))]


# -- fixtures ----------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def prefect_server(tmp_path_factory):
    from prefect_server import LocalPrefectServer

    home = tmp_path_factory.mktemp("prefect-home")
    server = LocalPrefectServer(home=home, startup_timeout_s=SERVER_START_TIMEOUT_S)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def prefect_api(prefect_server):
    """This process's Prefect client points at the module's server (settings are fixed at import, so override)."""
    from prefect.settings import PREFECT_API_URL, PREFECT_HOME, temporary_settings

    with temporary_settings({PREFECT_API_URL: prefect_server.api_url, PREFECT_HOME: str(prefect_server.home)}):
        try:
            yield prefect_server
        finally:
            _drain_prefect_workers()


def _drain_prefect_workers() -> None:
    """Send this process's queued logs and events while the server is still up; otherwise they are retried
    against the stopped server when the interpreter exits (about a minute of connection errors)."""
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    APILogWorker.drain_all(timeout=15)
    EventsWorker.drain_all(timeout=15)


@pytest.fixture
def counter(tmp_path, monkeypatch):
    path = tmp_path / "calls.log"
    path.touch()
    monkeypatch.setenv(COUNTER_ENV, str(path))
    return path


def _calls(path: Path, kind: str) -> list[list[str]]:
    return [line.split()[1:] for line in path.read_text().splitlines() if line.startswith(kind + " ")]


def _subprocess_env(server, **extra: str) -> dict[str, str]:
    env = server.env()
    env.update(PREFECT_HOME=str(server.home), BSL_NO_PROGRESS="1", OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join([str(TESTS_DIR), str(REPO_ROOT), os.environ.get("PYTHONPATH", "")]))
    env.update(extra)
    return env


def _bsl(args: list[str], env: dict[str, str], timeout: float = RUN_TIMEOUT_S) -> subprocess.CompletedProcess:
    """`bsl ARGS` in a new process that has the test augmenter registered (it imports this module)."""
    code = ("import sys; import tests.flows.test_flows; from bsl_pipeline.cli.cli import main; "
            "sys.exit(main(sys.argv[1:]))")
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                          timeout=timeout, cwd=REPO_ROOT)


def _write_corpus(directory: Path, name: str, sentences: list[str]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_text("\n".join(sentences) + "\n", encoding="utf-8")


def _spec(corpus: Path, out: Path, methods=("counting", "noise"), **runner):
    from bsl_pipeline.flows.augment_job import AugmentFlowConfig, RunnerConfig

    return AugmentFlowConfig(corpus=str(corpus), out_dir=str(out),
                             augment={"methods": list(methods), "registry_dir": "", "progress": False,
                                      "corpus": {"chunk_size": 8}},
                             runner=RunnerConfig(**runner))


def _cli_args(corpus: Path, out: Path, methods=("counting", "noise")) -> list[str]:
    return ["flow", "augment", str(corpus), "--out", str(out), "--methods", ",".join(methods),
            "-o", "registry_dir=", "-o", "progress=false", "-o", "corpus.chunk_size=8", "--json"]


def _rows(out: Path) -> list[str]:
    """Every pair and reject row of a dataset (sorted, duplicates kept)."""
    import pyarrow.parquet as pq

    from bsl_pipeline.pipeline.dataset.store import load_manifest

    manifest = load_manifest(out)
    rows = []
    for shard in manifest.shards:
        rows += [json.dumps(r, sort_keys=True) for r in pq.read_table(out / shard.path).to_pylist()]
    return sorted(rows)


def _api(server, method: str, path: str, body: dict | None = None):
    import httpx

    # A busy SQLite-backed server answers 503 while its database is locked (seen under `pytest -n 2`); Prefect's own
    # client retries those with backoff, and so does this test client, a few times.
    for attempt in range(5):
        response = httpx.request(method, server.api_url + path, json=body, timeout=30)
        if response.status_code not in (502, 503) or attempt == 4:
            break
        time.sleep(0.5 * 2 ** attempt)
    response.raise_for_status()
    return response.json()


def _task_states(server, flow_run_id: str) -> dict[str, int]:
    runs = _api(server, "POST", "/task_runs/filter", {"flow_runs": {"id": {"any_": [flow_run_id]}}})
    states: dict[str, int] = {}
    for run in runs:
        states[run["state"]["name"]] = states.get(run["state"]["name"], 0) + 1
    return states


# -- augmentation flow -------------------------------------------------------------------------------------------------
def test_rerun_in_new_process_is_cached_and_a_growing_corpus_adds_only_new_chunks(tmp_path, prefect_api, counter):
    from bsl_pipeline.flows.augment_run import run_augment_flow
    from bsl_pipeline.pipeline.augment.job import run_augment
    from bsl_pipeline.pipeline.dataset.store import load_manifest

    corpus, out = tmp_path / "corpus", tmp_path / "ds"
    _write_corpus(corpus, "a.txt", SENTENCES[:24])  # 3 chunks x 2 methods
    first = run_augment_flow(_spec(corpus, out))
    assert first["task_states"] == {"Completed": 6} and first["computed"] == 6
    assert len(_calls(counter, "batch")) == 6  # 3 chunks x 2 batches of 4
    run_augment(corpus, tmp_path / "plain", _plain_config())
    assert _rows(out) == _rows(tmp_path / "plain")  # the flow writes what the plain library loop writes
    first_shards = [s.sha256 for s in load_manifest(out).shards]
    counter.write_text("")

    # a new process: every task comes from Prefect's persisted results; the augmenter is never called
    proc = _bsl(_cli_args(corpus, out), _subprocess_env(prefect_api, **{COUNTER_ENV: str(counter)}))
    assert proc.returncode == 0, proc.stderr[-3000:]
    second = json.loads(proc.stdout[proc.stdout.index("{"):])
    assert second["task_states"] == {"Cached": 6} and second["computed"] == 0
    assert counter.read_text() == ""  # neither setup() nor a batch
    assert _task_states(prefect_api, second["flow_run_id"]) == {"Cached": 6}  # as the server recorded them
    second_manifest = load_manifest(out)
    assert [s.sha256 for s in second_manifest.shards] == first_shards
    assert second_manifest.stats.per_method["counting"].tasks_cached == 3

    # the directory grows: only the new file's 2 chunks are augmented; a cached task whose shard was deleted is redone
    _write_corpus(corpus, "b.txt", SENTENCES[24:40])
    gone = next((out / ".work" / "tasks").glob("*-noise-*.pairs.parquet"))
    gone.unlink()
    third = run_augment_flow(_spec(corpus, out))
    assert third["task_states"] == {"Cached": 5, "Completed": 4, "Recomputed": 1}
    assert len(_calls(counter, "batch")) == 4  # 2 new chunks x 2 batches
    manifest = load_manifest(out)
    assert len(manifest.shards_of("pairs")) == 10
    assert manifest.stats.per_method["counting"].pairs == 40 and gone.is_file()


def _plain_config():
    from bsl_pipeline.pipeline.augment.job import AugmentConfig

    config = AugmentConfig(methods=["counting", "noise"], registry_dir="", progress=False)
    config.corpus.chunk_size = 8
    return config


def test_killed_run_resumes_with_exactly_the_rows_of_an_uninterrupted_run(tmp_path, prefect_api, counter):
    from bsl_pipeline.flows.augment_run import run_augment_flow
    from bsl_pipeline.pipeline.augment.job import run_augment

    corpus = tmp_path / "corpus"
    _write_corpus(corpus, "a.txt", SENTENCES[:32])  # 4 chunks x 2 methods
    run_augment(corpus, tmp_path / "clean", _plain_config())  # the uninterrupted reference (library loop)

    out = tmp_path / "killed"
    env = _subprocess_env(prefect_api, **{COUNTER_ENV: str(counter), KILL_ENV: "5"})  # dies in its 5th batch
    proc = _bsl(_cli_args(corpus, out), env)
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-3000:]
    assert not (out / "manifest.json").exists()
    done_before = len(list((out / ".work" / "tasks").glob("*.done.json")))
    assert 0 < done_before < 8

    resumed = run_augment_flow(_spec(corpus, out))
    assert sum(resumed["task_states"].values()) == 8
    assert resumed["computed"] == 8 - done_before  # finished tasks are not redone
    assert _rows(out) == _rows(tmp_path / "clean")  # no duplicated, no missing rows


def test_serial_thread_and_prefect_executors_write_byte_identical_datasets(tmp_path, prefect_api, counter):
    from tests.pipeline.dataset.test_dataset import executor_independent_parts

    from bsl_pipeline.flows.augment_run import run_augment_flow
    from bsl_pipeline.pipeline.augment.executors import SerialExecutor, ThreadExecutor
    from bsl_pipeline.pipeline.augment.job import run_augment
    from bsl_pipeline.pipeline.dataset.store import load_manifest

    corpus = tmp_path / "corpus"
    _write_corpus(corpus, "a.txt", SENTENCES[:24])  # 3 chunks x 2 methods
    serial = run_augment(corpus, tmp_path / "serial", _plain_config(), executor=SerialExecutor())
    thread = run_augment(corpus, tmp_path / "thread", _plain_config(), executor=ThreadExecutor(max_workers=2))
    summary = run_augment_flow(_spec(corpus, tmp_path / "prefect"))
    assert summary["task_states"] == {"Completed": 6}
    reference = executor_independent_parts(serial)
    assert len([path for path, _, _ in reference[0] if path.startswith("data/")]) == 6
    stats = reference[1]
    assert stats["pairs"] + stats["rejected"] == 48 and stats["per_method"]["counting"]["pairs"] == 24
    assert executor_independent_parts(thread) == reference
    assert executor_independent_parts(load_manifest(tmp_path / "prefect")) == reference


def test_dask_runner_with_two_worker_processes_gives_the_rows_of_the_thread_runner(tmp_path, prefect_api, counter,
                                                                                   monkeypatch):
    from tests.pipeline.dataset.test_dataset import executor_independent_parts

    from bsl_pipeline.flows.augment_run import run_augment_flow
    from bsl_pipeline.pipeline.dataset.store import load_manifest

    # worker processes import this module (the test augmenter) from the tests dir
    monkeypatch.setenv("PYTHONPATH",
                       os.pathsep.join([str(TESTS_DIR), str(REPO_ROOT), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("PREFECT_API_URL", prefect_api.api_url)
    monkeypatch.setenv("PREFECT_HOME", str(prefect_api.home))
    corpus = tmp_path / "corpus"
    _write_corpus(corpus, "a.txt", SENTENCES[:32])
    thread = run_augment_flow(_spec(corpus, tmp_path / "thread", kind="thread", max_workers=2))
    counter.write_text("")
    dask = run_augment_flow(_spec(corpus, tmp_path / "dask", kind="dask", dask_workers=2,
                                  dask_threads_per_worker=1))
    assert thread["task_states"] == dask["task_states"] == {"Completed": 8}
    assert _rows(tmp_path / "dask") == _rows(tmp_path / "thread")
    assert (executor_independent_parts(load_manifest(tmp_path / "dask"))
            == executor_independent_parts(load_manifest(tmp_path / "thread")))  # byte-identical shards, same stats
    setups = [pid for pid, in _calls(counter, "setup")]
    batch_pids = {pid for pid, _ in _calls(counter, "batch")}
    assert len(setups) == len(set(setups)) <= 2  # models loaded once per worker process, not per task
    assert batch_pids <= set(setups) and str(os.getpid()) not in batch_pids
    assert len(_calls(counter, "batch")) == 8  # 4 chunks x 2 batches, each computed once


def test_a_failing_task_is_retried_with_backoff(tmp_path, prefect_api, counter, monkeypatch):
    from bsl_pipeline.flows.augment_run import run_augment_flow
    from bsl_pipeline.pipeline.base.errors import BSLError

    corpus = tmp_path / "corpus"
    _write_corpus(corpus, "a.txt", SENTENCES[:8])
    monkeypatch.setenv(FAIL_ONCE_ENV, str(tmp_path / "failed-once"))
    spec = _spec(corpus, tmp_path / "ds", methods=("counting",))
    spec.tasks.retries, spec.tasks.retry_delay_s = 2, 0.2
    summary = run_augment_flow(spec)
    assert summary["task_states"] == {"Completed": 1} and (tmp_path / "failed-once").is_file()
    (run,) = _api(prefect_api, "POST", "/task_runs/filter", {"flow_runs": {"id": {"any_": [summary["flow_run_id"]]}}})
    assert run["run_count"] == 2 and run["state"]["type"] == "COMPLETED"
    # without retries the flow finishes the other tasks, then fails naming the task
    spec.tasks.retries, spec.out_dir = 0, str(tmp_path / "ds2")
    monkeypatch.setenv(FAIL_ONCE_ENV, str(tmp_path / "failed-again"))
    with pytest.raises(BSLError, match="1 of 1 augmentation tasks failed.*transient failure"):
        run_augment_flow(spec)


def test_gpu_cluster_starts_one_worker_per_gpu_each_seeing_only_its_own_device():
    """The device assignment of `runner.gpus`, checked without GPUs: each worker process's CUDA_VISIBLE_DEVICES."""
    from distributed import Client

    from bsl_pipeline.flows.augment_job import RunnerConfig
    from bsl_pipeline.flows.executors import gpu_cluster, make_task_runner

    with gpu_cluster("0,1") as cluster, Client(cluster) as client:
        seen = client.run(lambda: os.environ.get("CUDA_VISIBLE_DEVICES"))
    assert sorted(seen.values()) == ["0", "1"]
    runner = make_task_runner(RunnerConfig(kind="dask", gpus="auto"))
    assert runner.cluster_class is gpu_cluster and runner.cluster_kwargs["gpus"] == "auto"


# -- scheduling on the real server ----------------------------------------------------------------------------------
def test_schedule_registers_a_cron_deployment_and_a_triggered_run_writes_a_manifest(tmp_path, prefect_api):
    from prefect_server import stop_process_group

    corpus, out = tmp_path / "corpus", tmp_path / "nightly"
    _write_corpus(corpus, "a.txt", SENTENCES[:16])
    schedule = tmp_path / "schedule.yaml"
    schedule.write_text(f"""
deployments:
  - name: nightly-test
    flow: augment
    cron: "0 3 * * *"
    timezone: UTC
    tags: [test]
    augment:
      corpus: {corpus}
      out_dir: {out}
      augment: {{methods: [noise], registry_dir: "", progress: false, corpus: {{chunk_size: 8}}}}
      runner: {{kind: thread, max_workers: 1}}
""")
    env = _subprocess_env(prefect_api, PREFECT_RUNNER_POLL_FREQUENCY="1")
    log = open(tmp_path / "serve.log", "w")
    serve = subprocess.Popen([sys.executable, "-m", "bsl_pipeline.cli", "schedule", str(schedule)], env=env,
                             stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=REPO_ROOT)
    try:
        deployment = _wait_for(lambda: _deployment(prefect_api, "nightly-test"), 120, serve, tmp_path / "serve.log")
        assert [s["schedule"].get("cron") for s in deployment["schedules"]] == ["0 3 * * *"]
        assert deployment["tags"] == ["test"] and deployment["parameters"]["out_dir"] == str(out)
        run = _api(prefect_api, "POST", f"/deployments/{deployment['id']}/create_flow_run", {})
        final = _wait_for(lambda: _finished(prefect_api, run["id"]), RUN_TIMEOUT_S, serve, tmp_path / "serve.log")
        assert final["state"]["type"] == "COMPLETED", (tmp_path / "serve.log").read_text()[-3000:]
        manifest = json.loads((out / "manifest.json").read_text())
        assert manifest["stats"]["per_method"]["noise"]["tasks"] == 2
        assert _task_states(prefect_api, run["id"]) == {"Completed": 2}
    finally:
        stop_process_group(serve)
        log.close()
    assert serve.poll() is not None


def _deployment(server, name: str):
    found = _api(server, "POST", "/deployments/filter", {"deployments": {"name": {"any_": [name]}}})
    return found[0] if found else None


def _finished(server, flow_run_id: str):
    run = _api(server, "GET", f"/flow_runs/{flow_run_id}")
    return run if run["state"]["type"] in ("COMPLETED", "FAILED", "CRASHED", "CANCELLED") else None


def _wait_for(probe, timeout_s: float, process: subprocess.Popen, log: Path):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        if process.poll() is not None:
            pytest.fail(f"serve process exited with {process.returncode}: {log.read_text()[-3000:]}")
        time.sleep(0.5)
    pytest.fail(f"not done after {timeout_s} s: {log.read_text()[-3000:]}")


# -- training and evaluation -------------------------------------------------------------------------------------------
def test_train_flow_verifies_trains_and_publishes_the_evaluation_table(tmp_path, prefect_api, tiny_bert_dir,
                                                                       shared_data):
    from bsl_pipeline.flows.train_flow import train_flow
    from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment
    from bsl_pipeline.pipeline.base.errors import VerificationError

    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(SENTENCES[:24]) + "\n")
    dataset = tmp_path / "ds"
    run_augment(corpus, dataset, AugmentConfig(methods=["noise"], registry_dir="", progress=False))
    train = {"model": {"name_or_path": str(tiny_bert_dir), "max_length": 32},
             "train": {"output_dir": str(tmp_path / "run"), "max_steps": 2, "batch_size": 8, "device": "cpu",
                       "tensorboard": False, "log_every": 1},
             "eval": {"at_end": False}, "objective": {"bsl": {"predictor_warmup_steps": 0}}}
    evaluation = {"data_dir": str(shared_data), "tasks": ["stsb"], "include_stsb_dev": False, "cache_dir": None,
                  "device": "cpu", "batch_size": 128}
    result = train_flow(manifests=[str(dataset)], train=train, evaluate=True, evaluation=evaluation,
                        artifact_key="test-sts")
    assert result["verified"][0]["pairs"] > 0 and result["verified"][0]["checksum"]
    assert result["train"]["step"] == 2 and Path(result["train"]["export_dir"], "modules.json").is_file()
    (row,) = result["evaluation"]["rows"]
    assert row["model"] == result["train"]["export_dir"] and isinstance(row["STS-B"], float)
    artifacts = _api(prefect_api, "POST", "/artifacts/filter", {"artifacts": {"key": {"any_": ["test-sts"]}}})
    assert artifacts and artifacts[0]["type"] == "table" and "STS-B" in json.dumps(artifacts[0]["data"])

    # a changed shard stops the flow before any training
    shard = dataset / "data" / "train-00000-of-00001.parquet"
    data = shard.read_bytes()
    shard.unlink()  # a hard link into .work: replace, do not write through
    shard.write_bytes(data[:-16] + b"\0" * 16)
    train["train"]["output_dir"] = str(tmp_path / "run2")
    with pytest.raises(VerificationError):
        train_flow(manifests=[str(dataset)], train=train)
    assert not (tmp_path / "run2").exists()


def test_evaluate_flow_publishes_the_transfer_table_beside_the_sts_table(tmp_path, prefect_api, tiny_bert_dir,
                                                                       shared_data):
    from tests.evaluation.test_transfer_reporting import build_tiny_transfer_data

    from bsl_pipeline.flows.evaluate_flow import evaluate_flow

    data = build_tiny_transfer_data(shared_data, tmp_path / "data")
    evaluation = {"data_dir": str(data), "tasks": ["stsb", "sicke"], "include_stsb_dev": False, "cache_dir": None,
                  "device": "cpu", "batch_size": 128}
    result = evaluate_flow(models=[str(tiny_bert_dir)], evaluation=evaluation, artifact_key="test-eval")
    entry = result["results"]
    assert set(entry) == {"stsb", "avg", "transfer", "details"} and entry["avg"] == entry["stsb"]
    assert set(result["table_artifact_ids"]) == {"test-eval", "test-eval-transfer"}
    assert entry["details"]["transfer"]["sicke"]["n_test"] == 120

    def artifact(key: str) -> dict:
        (found,) = _api(prefect_api, "POST", "/artifacts/filter", {"artifacts": {"key": {"any_": [key]}}})
        return found

    transfer = artifact("test-eval-transfer")
    assert transfer["id"] == result["table_artifact_ids"]["test-eval-transfer"] and transfer["type"] == "table"
    rows = json.loads(transfer["data"]) if isinstance(transfer["data"], str) else transfer["data"]
    sicke = round(entry["transfer"]["sicke"], 2)
    assert rows == [{"model": str(tiny_bert_dir), "SICK-E": sicke, "Avg.": sicke}]
    assert "test accuracy x100" in transfer["description"]
    sts = artifact("test-eval")
    sts_rows = json.loads(sts["data"]) if isinstance(sts["data"], str) else sts["data"]
    assert sts_rows == [{"model": str(tiny_bert_dir), "STS-B": round(entry["stsb"], 2), "Avg.": round(entry["avg"], 2)}]
    details = artifact("test-eval-details")["data"]
    assert "## SentEval transfer tasks" in details and f"| {sicke:.2f} |" in details


def test_the_train_flow_and_the_main_job_reuse_one_finished_run(tmp_path, prefect_api, tiny_bert_dir, monkeypatch):
    """One train -> evaluate (evaluation.train_and_evaluate): a run either of them finished is the other's too, and
    the second call trains nothing."""
    import shutil

    from bsl_pipeline.flows.main_job import MainJobConfig, run_main_job
    from bsl_pipeline.flows.train_flow import train_flow
    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.trainer import Trainer

    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(SENTENCES[:24]) + "\n")
    cfg = load_config(MainJobConfig, REPO_ROOT / "configs" / "demo.yaml", [
        f"out_dir={tmp_path / 'out'}", f"corpus={corpus}", "methods=[noise]", "nli_from_data_dir=false",
        "evaluate=false", "use_prefect=false", "progress=false", f"training.model.name_or_path={tiny_bert_dir}",
        "training.train.max_steps=2", "training.train.batch_size=8", "training.train.tensorboard=false",
        "training.objective.bsl.predictor_warmup_steps=1"])
    first = run_main_job(cfg)
    run_dir = Path(first.training.run_dir)
    assert first.training.step == 2 and not {s.step: s for s in first.steps}["train"].cached
    run_config = tmp_path / "run_config.yaml"  # the run's full config, as the trainer recorded it
    shutil.copy(run_dir / "config.yaml", run_config)
    trained_at = (run_dir / "final" / "bsl_checkpoint.json").stat().st_mtime_ns

    def no_training(self):
        raise AssertionError("a finished run was trained again")

    with monkeypatch.context() as m:
        m.setattr(Trainer, "fit", no_training)
        reused = train_flow(config_file=str(run_config))["train"]  # the flow verifies, then sets data.verify=false
    assert reused["reused"] and reused["run_dir"] == str(run_dir) and reused["step"] == 2
    assert reused["export_dir"] == first.training.export_dir
    assert (run_dir / "final" / "bsl_checkpoint.json").stat().st_mtime_ns == trained_at

    # the other way round: the flow trains the run, the main job finds it finished
    shutil.rmtree(run_dir)
    trained = train_flow(config_file=str(run_config))["train"]
    assert not trained["reused"] and trained["step"] == 2 and trained["run_dir"] == str(run_dir)
    with monkeypatch.context() as m:
        m.setattr(Trainer, "fit", no_training)
        second = run_main_job(cfg)
    assert {s.step: s for s in second.steps}["train"].cached and second.training.run_dir == str(run_dir)


def test_flow_train_takes_the_run_arguments_of_bsl_train_and_its_printed_config_reruns_the_same_run(
        tmp_path, prefect_api, tiny_bert_dir):
    """`bsl flow train` lacked bsl train's --recipe, --overwrite and --min-usable (declared once, for both): a real
    flow run from the command line trains the recipe's objective into a run directory it did not create only with
    --overwrite, --min-usable refuses before the flow starts, and the document --print-config printed, given as
    --config, is the same run (reused, nothing trained)."""
    import yaml

    from tests.training.test_trainer_utils import write_dataset

    dataset = write_dataset(tmp_path / "ds", n_pairs=32, shards=1)
    run = tmp_path / "run"
    run.mkdir()
    (run / "notes.txt").write_text("mine\n", encoding="utf-8")
    env = _subprocess_env(prefect_api)
    argv = ["flow", "train", "-m", str(dataset), "--recipe", "supervised", "--output-dir", str(run), "-o",
            f"model.name_or_path={tiny_bert_dir}", "-o", "model.max_length=32", "-o", "train.batch_size=8", "-o",
            "train.max_steps=2", "-o", "train.device=cpu", "-o", "train.tensorboard=false", "-o",
            "train.save_every=0", "--api-url", prefect_api.api_url]
    for refusal, extra in (("was not created by bsl (notes.txt)", []),
                           ("no judged pairs", ["--overwrite", "--min-usable", "0.5"])):
        refused = _bsl([*argv, *extra], env)
        assert refused.returncode == 1 and refusal in refused.stderr, refused.stderr
        assert sorted(p.name for p in run.iterdir()) == ["notes.txt"]

    done = _bsl([*argv, "--overwrite"], env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("trained to step 2/2; checkpoint: "), done.stdout
    from bsl_pipeline.training.recipes import recipe_path

    # It names the recipe and its installed file in bsl train's start line (recipe_start_line), before the flow runs.
    start = [line for line in done.stderr.splitlines() if line.startswith("bsl flow train: recipe ")]
    assert len(start) == 1 and start[0].startswith(
        f"bsl flow train: recipe supervised (--recipe; {recipe_path('supervised')}: mnrl, lr 2e-05, 2 steps of batch 8"
    ) and f" on {tiny_bert_dir}; other recipes: bsl recipes" in start[0], done.stderr
    trained = yaml.safe_load((run / "config.yaml").read_text(encoding="utf-8"))
    assert (trained["objective"]["name"], trained["optim"]["lr"], trained["train"]["overwrite"]) == (
        "mnrl", 2e-05, True)  # the supervised recipe's objective and learning rate, and --overwrite
    assert (run / "notes.txt").read_text(encoding="utf-8") == "mine\n"  # nothing of the run replaced it

    printed = _bsl([*argv, "--overwrite", "--print-config"], env)
    assert printed.returncode == 0, printed.stderr
    (tmp_path / "flow.yaml").write_text(printed.stdout, encoding="utf-8")
    again = _bsl(["flow", "train", "--config", str(tmp_path / "flow.yaml"), "--api-url", prefect_api.api_url], env)
    assert again.returncode == 0, again.stdout + again.stderr
    assert again.stdout.startswith("reused the finished run to step 2/2; "), again.stdout


# -- configuration and CLI (no server) ---------------------------------------------------------------------------------
def test_schedule_file_is_checked_before_serving(tmp_path, capsys):
    from bsl_pipeline.cli.cli import main
    from bsl_pipeline.flows.schedule import load_schedule
    from bsl_pipeline.pipeline.base.config import ConfigError

    example = load_schedule(REPO_ROOT / "configs" / "schedule.example.yaml")
    assert {d.flow for d in example.deployments} == {"augment", "train"}
    assert all(d.cron for d in example.deployments)
    bad = tmp_path / "bad.yaml"
    bad.write_text("deployments:\n  - name: x\n    flow: augment\n    cronn: '0 2 * * *'\n")
    with pytest.raises(ConfigError, match="cronn"):
        load_schedule(bad)
    with pytest.raises(SystemExit) as exit_info:
        main(["schedule", "--help"])
    assert exit_info.value.code == 0
    help_text = capsys.readouterr().out
    assert "prefect deployment run" in help_text and "deployments[].cron" in help_text


def test_schedule_check_does_not_look_for_a_store_url_corpus_on_disk(tmp_path):
    """A corpus on a store (`s3://...`) is not a local path that "does not exist yet": `--check` says nothing of
    it (and needs no credentials); a local corpus that is missing is still a warning."""
    from small_corpus import run_bsl

    schedule = tmp_path / "s.yaml"
    for corpus, warned in (("s3://bucket/corpus/", False), (str(tmp_path / "nothing-here"), True)):
        schedule.write_text(f"deployments:\n  - name: n\n    flow: augment\n    augment: {{corpus: '{corpus}', "
                            f"out_dir: {tmp_path / 'out'}, augment: {{methods: [noise]}}}}\n")
        proc = run_bsl("schedule", str(schedule), "--check")
        assert proc.returncode == 0, proc.stderr
        assert (f"corpus {corpus} does not exist yet" in proc.stderr) is warned, proc.stderr
        assert proc.stdout.strip().splitlines()[-1] == "bsl-augment/n: on demand"


def test_a_url_for_the_result_storage_or_prefect_home_is_refused_before_any_run(tmp_path):
    """Both are local folders: a URL there is one line naming the setting, before a server or run starts."""
    from bsl_pipeline.flows.augment_flow import check_augment_spec
    from bsl_pipeline.flows.augment_job import AugmentFlowConfig, TaskConfig
    from bsl_pipeline.flows.prefect_env import PrefectEnvConfig, prefect_env
    from bsl_pipeline.pipeline.base.ownership import OwnershipError

    spec = AugmentFlowConfig(corpus="c.txt", out_dir="s3://b/ds", augment={"methods": ["noise"]},
                             tasks=TaskConfig(result_storage="s3://b/results"))
    with pytest.raises(OwnershipError, match=r"^tasks.result_storage \(--result-storage\) s3://b/results: this is "
                                             r"written to this disk"):
        check_augment_spec(spec)
    with pytest.raises(OwnershipError, match=r"^prefect.home \(--prefect-home\) s3://b/h: this is written"):
        prefect_env(PrefectEnvConfig(home="s3://b/h"))



def test_result_storage_in_the_corpus_or_the_datasets_folders_is_refused_before_and_in_the_run(tmp_path, prefect_api,
                                                                                             counter):
    """Prefect's records under `tasks.result_storage` are written on every run: inside the corpus the next run would
    read them as corpus lines, inside the dataset's data/ or rejects/ every publish would set them aside. Refused as
    an --out there is (one line, before any server or run starts), and by the flow itself (a deployment's run
    with its parameters changed); a folder elsewhere in --out (its default is under .work/) or beside it is not."""
    from bsl_pipeline.flows.augment_flow import build_augment_flow, check_result_storage
    from bsl_pipeline.flows.augment_job import TaskConfig, flow_parameters
    from bsl_pipeline.pipeline.base.ownership import OwnershipError

    corpus, out = tmp_path / "corpus", tmp_path / "ds"
    _write_corpus(corpus, "a.txt", SENTENCES[:8])
    cases = {corpus / "results": "and input", out / "data": "and the dataset's folder",
             out / "rejects" / "r": "and the dataset's folder"}
    for storage, says in cases.items():
        proc = _bsl([*_cli_args(corpus, out), "--result-storage", str(storage)], _subprocess_env(prefect_api))
        assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr[-3000:]
        assert f"tasks.result_storage (--result-storage) {storage} {says}" in proc.stderr and "overlap" in proc.stderr
    spec = _spec(corpus, out)
    spec.tasks = TaskConfig(result_storage=str(out / "data"))
    with pytest.raises(OwnershipError, match="and the dataset's folder .* overlap"):
        build_augment_flow(spec.runner)(**flow_parameters(spec))  # a real run, without the CLI's early check
    assert sorted(p.name for p in corpus.iterdir()) == ["a.txt"] and not out.exists() and counter.read_text() == ""
    for fine in (out / ".work" / "records", tmp_path / "records"):
        check_result_storage(str(fine), str(corpus / "a.txt"), str(out))

def test_worker_augmenter_is_built_once_and_checks_the_fingerprint(counter):
    from bsl_pipeline.flows.executors import AugmenterSpec, worker_augmenter
    from bsl_pipeline.pipeline.augment.augmenters import build_augmenter
    from bsl_pipeline.pipeline.base.errors import BSLError

    spec = AugmenterSpec.of("counting", build_augmenter("counting", {}))
    first = worker_augmenter(spec)
    assert worker_augmenter(spec) is first
    assert len(_calls(counter, "setup")) <= 1  # 0 when an earlier test of this process already built it
    with pytest.raises(BSLError, match="fingerprint"):
        worker_augmenter(AugmenterSpec("counting", CountingAugmenter, {}, "0" * 16))
    # The job's progress setting travels with the spec (it is no method setting, so not in params).
    quiet = AugmenterSpec.of("counting", build_augmenter("counting", {}, progress=False))
    assert quiet.progress is False and spec.progress is True
    assert worker_augmenter(quiet).progress is False and worker_augmenter(spec).progress is True


def test_offline_prefect_env_defaults_and_user_values_win(monkeypatch):
    import os
    import warnings

    from bsl_pipeline.flows.prefect_env import PrefectEnvConfig, apply_prefect_env, prefect_env

    env = prefect_env(PrefectEnvConfig(ephemeral_startup_timeout_s=90))
    assert env["PREFECT_SERVER_ANALYTICS_ENABLED"] == "false" and env["DO_NOT_TRACK"] == "1"
    assert env["PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"] == "90"
    monkeypatch.setenv("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "300")
    monkeypatch.delenv("DO_NOT_TRACK", raising=False)
    with warnings.catch_warnings():  # "Prefect was imported before its settings were set": expected in a test run
        warnings.simplefilter("ignore")
        apply_prefect_env(keep_existing=True)
    assert os.environ["PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"] == "300" and os.environ["DO_NOT_TRACK"] == "1"
