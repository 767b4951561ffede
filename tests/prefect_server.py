"""A local Prefect server for tests and benchmarks: `prefect server start` on a loopback port, in its own process
group with its own PREFECT_HOME. Benchmarks import it with `sys.path.insert(0, "<repo>/tests")`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bsl_pipeline.flows.prefect_env import PrefectEnvConfig, prefect_env
from bsl_pipeline.pipeline.base.errors import BSLError


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
