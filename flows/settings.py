"""Offline-safe Prefect settings for every process that runs a flow, and a local Prefect server for tests/benchmarks.

Prefect reads its settings once, when it is first imported. `apply_prefect_env()` therefore has to run before
`import prefect`; importing the `flows` package does it with the defaults (its `__init__` calls it), and the CLI
calls it again with `--prefect-home` / `--api-url` before it imports a flow module.

Defaults (each one can be changed, see `PrefectEnvConfig`):

- `PREFECT_SERVER_ANALYTICS_ENABLED=false` and `DO_NOT_TRACK=1`: no usage analytics. With them on, Prefect tries to
  reach the internet and logs errors on an offline machine.
- `PREFECT_HOME`: where Prefect keeps its profiles and the SQLite database of the temporary server it starts when no
  `PREFECT_API_URL` is set. Left alone unless configured, so `~/.prefect` stays the default.
- `PREFECT_API_URL`: a running server (e.g. `prefect server start --host 127.0.0.1`); unset = Prefect starts a
  temporary local server in each process that runs a flow (a few seconds per process).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pipeline.errors import BSLError

DEFAULT_ARTIFACT_KEY = "bsl-sts-evaluation"
# Prefect flow names; deployments are addressed as <flow name>/<deployment name>, e.g. bsl-augment/nightly.
FLOW_NAMES = {"augment": "bsl-augment", "train": "bsl-train", "evaluate": "bsl-evaluate"}


@dataclass
class PrefectEnvConfig:
    home: str = field(default="", metadata={
        "help": "PREFECT_HOME (profiles, database of the temporary server); '' = $PREFECT_HOME, else ~/.prefect"})
    api_url: str = field(default="", metadata={
        "help": "PREFECT_API_URL of a running server, e.g. http://127.0.0.1:4200/api; '' = $PREFECT_API_URL, "
                "else a temporary local server per process"})
    analytics: bool = field(default=False, metadata={
        "help": "allow Prefect's usage analytics (needs the internet); false sets "
                "PREFECT_SERVER_ANALYTICS_ENABLED=false and DO_NOT_TRACK=1"})
    logging_level: str = field(default="", metadata={"help": "PREFECT_LOGGING_LEVEL ('' = Prefect's INFO)"})
    ephemeral_startup_timeout_s: int = field(default=120, metadata={
        "help": "seconds to wait for Prefect's temporary server to start (Prefect's own default, 20, is too short "
                "on a busy 2-core machine)"})


def prefect_env(config: PrefectEnvConfig | None = None) -> dict[str, str]:
    """The environment variables `config` stands for (only the ones it sets)."""
    config = config or PrefectEnvConfig()
    env: dict[str, str] = {}
    if not config.analytics:
        env["PREFECT_SERVER_ANALYTICS_ENABLED"] = "false"
        env["DO_NOT_TRACK"] = "1"
    if config.home:
        env["PREFECT_HOME"] = str(Path(config.home).expanduser().resolve())
    if config.api_url:
        env["PREFECT_API_URL"] = config.api_url
    if config.logging_level:
        env["PREFECT_LOGGING_LEVEL"] = config.logging_level.upper()
    env["PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"] = str(config.ephemeral_startup_timeout_s)
    return env


def apply_prefect_env(config: PrefectEnvConfig | None = None, *, keep_existing: bool = False) -> dict[str, str]:
    """Put the settings into os.environ (before Prefect is imported). Returns what was set.

    `keep_existing=True` only fills in variables that are not set yet (what importing `flows` does, so that a
    user's `DO_NOT_TRACK=0` or `PREFECT_HOME` wins over the defaults)."""
    env = prefect_env(config)
    changed = {}
    for key, value in env.items():
        if keep_existing and key in os.environ:
            continue
        if os.environ.get(key) != value:
            changed[key] = value
        os.environ[key] = value
    if changed and "prefect" in sys.modules:
        warnings.warn(f"Prefect was imported before its settings were set ({', '.join(sorted(changed))}); they "
                      f"apply to processes started from now on, not to this one", RuntimeWarning, stacklevel=2)
    return env


# -- flow settings (dataclasses, no Prefect import: `bsl schedule` parses them before Prefect is configured) --------
def layered_config(cls: type, config_file: str = "", inline: dict[str, Any] | None = None,
                   overrides: list[str] | None = None):
    """defaults <- config_file <- inline keys <- `key=value` overrides, type-checked into `cls`.

    What flows and schedule entries use: a shared YAML file (the one the stage's own command takes with
    --config), keys written inline in the schedule entry, then overrides."""
    from pipeline.config import load_config, load_yaml, merge_dicts

    base = load_yaml(config_file) if config_file else {}
    if inline:
        base = merge_dicts(base, inline)
    return load_config(cls, None, list(overrides or []), base=base or None)


@dataclass
class TaskConfig:
    """How the per-(chunk, method) tasks run: cache, retries, back-pressure. A flow-run parameter (`tasks`)."""

    cache: bool = field(default=True, metadata={
        "help": "reuse finished tasks through Prefect's result cache (false: every task runs; finished ones still "
                "return at once from their completion markers)"})
    result_storage: str = field(default="", metadata={
        "help": "directory of Prefect's persisted task results (the cache); '' = <out_dir>/.work/prefect-results"})
    retries: int = field(default=2, metadata={"help": "retries of a failed task"})
    retry_delay_s: float = field(default=5.0, metadata={
        "help": "delay before the first retry; doubles with each further retry (exponential backoff, +-20% "
                "jitter)"})
    max_in_flight: int = field(default=16, metadata={
        "help": "reading the next chunk waits while this many submitted tasks are unfinished (bounds queued work; "
                "1 = one task at a time, the plain loop's order; 0 = no limit)"})
    concurrent_augmenter_calls: bool = field(default=False, metadata={
        "help": "let several threads of one worker use the same augmenter instance at once (only for thread-safe "
                "augmenters); false = one call at a time per instance and process"})


@dataclass
class RunnerConfig:
    """Where tasks run. Fixed when the flow (or deployment) is built, not a flow-run parameter."""

    kind: Literal["thread", "dask"] = field(default="thread", metadata={
        "help": "thread: a thread pool in the flow process; dask: Dask worker processes (a local cluster, "
                "`dask_address`, or one worker per GPU with `gpus`)"})
    max_workers: int = field(default=2, metadata={"help": "threads of the thread runner"})
    dask_address: str = field(default="", metadata={
        "help": "scheduler address of a running Dask cluster (tcp://host:8786) for many machines; '' = start a "
                "local cluster"})
    dask_workers: int = field(default=2, metadata={"help": "worker processes of the local Dask cluster"})
    dask_threads_per_worker: int = field(default=1, metadata={"help": "threads per Dask worker process"})
    gpus: str = field(default="", metadata={
        "help": "local Dask cluster with one worker per GPU, each started with CUDA_VISIBLE_DEVICES=<that GPU>: "
                "'auto' (every visible GPU) or ids '0,1,3'; '' = no GPU assignment"})


@dataclass
class AugmentFlowConfig:
    """One augmentation flow: what `bsl flow augment` runs and what a schedule file's `augment:` section holds."""

    corpus: str = field(default="", metadata={"help": "corpus file or directory (required)"})
    out_dir: str = field(default="", metadata={"help": "dataset directory (required)"})
    config_file: str = field(default="", metadata={
        "help": "AugmentConfig YAML (the file `bsl augment --config` takes); '' = none"})
    augment: dict[str, Any] = field(default_factory=dict, metadata={
        "help": "AugmentConfig keys inline (over config_file), e.g. {methods: [synonyms], corpus: {chunk_size: "
                "5000}}"})
    overrides: list[str] = field(default_factory=list, metadata={
        "help": "AugmentConfig overrides key=value, applied last (e.g. seed=1)"})
    tasks: TaskConfig = field(default_factory=TaskConfig)
    runner: RunnerConfig = field(default_factory=RunnerConfig)


@dataclass
class TrainFlowConfig:
    """One training flow: what `bsl flow train` runs and a schedule file's `train:` section holds."""

    manifests: list[str] = field(default_factory=list, metadata={
        "help": "dataset dirs or manifest JSONs; replace data.sources (like `bsl train --manifest`); [] = keep "
                "the config's data.sources"})
    config_file: str = field(default="", metadata={"help": "TrainConfig YAML (as `bsl train --config`)"})
    train: dict[str, Any] = field(default_factory=dict, metadata={
        "help": "TrainConfig keys inline (over config_file), e.g. {train: {output_dir: runs/nightly/{date}}}; "
                "{date} (UTC) and {flow_run} (run name) in train.output_dir are filled in per run"})
    overrides: list[str] = field(default_factory=list, metadata={"help": "TrainConfig overrides key=value"})
    verify: bool = field(default=True, metadata={
        "help": "verify every shard checksum in a flow task first (the trainer then skips its own pass)"})
    retries: int = field(default=0, metadata={
        "help": "retries of the training task; a retry resumes from the latest checkpoint"})
    evaluate: bool = field(default=False, metadata={
        "help": "after training, run the evaluation flow on the exported model (else the final checkpoint)"})
    evaluation: dict[str, Any] = field(default_factory=dict, metadata={
        "help": "EvaluationConfig keys for that evaluation (data_dir is required)"})
    artifact_key: str = field(default=DEFAULT_ARTIFACT_KEY, metadata={"help": "table artifact key of it"})


@dataclass
class EvaluateFlowConfig:
    """One evaluation flow: what `bsl flow evaluate` runs and a schedule file's `evaluate:` section holds."""

    models: list[str] = field(default_factory=list, metadata={
        "help": "trainer checkpoint dirs, sentence-transformers dirs, HF dirs (or hub ids when online)"})
    config_file: str = field(default="", metadata={"help": "EvaluationConfig YAML (as `bsl evaluate --config`)"})
    evaluation: dict[str, Any] = field(default_factory=dict, metadata={
        "help": "EvaluationConfig keys inline (over config_file), e.g. {data_dir: ../shared/data, tasks: [stsb]}"})
    overrides: list[str] = field(default_factory=list, metadata={"help": "EvaluationConfig overrides key=value"})
    artifact_key: str = field(default=DEFAULT_ARTIFACT_KEY, metadata={
        "help": "key of the table artifact (lowercase letters, digits, dashes); details go to <key>-details"})


# -- a local server (tests, benchmarks, `bsl flow server`-like use from Python) --------------------------------------
def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def wait_healthy(api_url: str, timeout_s: float, process: subprocess.Popen | None = None,
                 log_file: Path | None = None) -> None:
    """Poll `<api_url>/health` until it answers 200; raise BSLError after `timeout_s` or if `process` exits."""
    import httpx

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise BSLError(f"Prefect server exited with code {process.returncode} before it was healthy"
                           + _log_tail(log_file))
        try:
            if httpx.get(f"{api_url}/health", timeout=2.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    raise BSLError(f"Prefect server at {api_url} not healthy after {timeout_s:.0f} s" + _log_tail(log_file))


def _log_tail(log_file: Path | None, chars: int = 2000) -> str:
    if log_file is None or not log_file.is_file():
        return ""
    return "; log tail:\n" + log_file.read_text(errors="replace")[-chars:]


class LocalPrefectServer:
    """`prefect server start --host 127.0.0.1 --port N` in its own process group with its own PREFECT_HOME.

        with LocalPrefectServer(home=tmp / "prefect") as server:
            env = {**os.environ, "PREFECT_API_URL": server.api_url}

    Binds the loopback interface only. `stop()` ends the whole process group (the server and its services), also
    when the server never became healthy."""

    def __init__(self, home: str | Path, port: int = 0, host: str = "127.0.0.1", ui: bool = False,
                 startup_timeout_s: float = 120.0, extra_env: dict[str, str] | None = None):
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise BSLError(f"LocalPrefectServer binds loopback only, got host {host!r}")
        self.home = Path(home)
        self.host = host
        self.port = port or free_port(host)
        self.ui = ui
        self.startup_timeout_s = startup_timeout_s
        self.extra_env = extra_env or {}
        self.process: subprocess.Popen | None = None
        self.log_file = self.home / "server.log"

    @property
    def api_url(self) -> str:
        return f"http://{self.host}:{self.port}/api"

    @property
    def ui_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def env(self) -> dict[str, str]:
        """Environment for client processes that should use this server."""
        return {**os.environ, **prefect_env(), "PREFECT_API_URL": self.api_url}

    def start(self) -> "LocalPrefectServer":
        self.home.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, **prefect_env(PrefectEnvConfig(home=str(self.home))), **self.extra_env}
        env.pop("PREFECT_API_URL", None)
        cmd = [sys.executable, "-m", "prefect", "server", "start", "--host", self.host, "--port", str(self.port),
               "--analytics-off", "--ui" if self.ui else "--no-ui"]
        with open(self.log_file, "ab") as log:
            self.process = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            wait_healthy(self.api_url, self.startup_timeout_s, self.process, self.log_file)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self, timeout_s: float = 15.0) -> None:
        proc, self.process = self.process, None
        if proc is None:
            return
        stop_process_group(proc, timeout_s)

    def __enter__(self) -> "LocalPrefectServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def stop_process_group(proc: subprocess.Popen, timeout_s: float = 15.0) -> None:
    """SIGTERM the process group `proc` leads (started with start_new_session=True), then SIGKILL it."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            pass
    # Children (uvicorn, services, flow-run subprocesses) may outlive the leader: end the whole group.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
