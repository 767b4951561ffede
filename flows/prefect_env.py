"""Prefect's environment for every process that runs a flow: offline-safe defaults, set before Prefect is imported.

Prefect reads its settings once, when it is first imported, so whatever runs a flow calls
`configure_prefect_environment()` (or `apply_prefect_env(config)` with the user's `--prefect-home` / `--api-url`)
before it imports a flow module: `bsl flow ...` and `bsl schedule` do, and so does
`flows.augment_run.run_augment_flow`. Processes started from there (Dask workers, flow runs of a served
deployment) inherit the environment.

Defaults (each one can be changed, see `PrefectEnvConfig`):

- `PREFECT_SERVER_ANALYTICS_ENABLED=false` and `DO_NOT_TRACK=1`: no usage analytics. With them on, Prefect tries to
  reach the internet and logs errors on an offline machine.
- `PREFECT_HOME`: where Prefect keeps its profiles and the SQLite database of the temporary server it starts when no
  `PREFECT_API_URL` is set. Left alone unless configured, so `~/.prefect` stays the default.
- `PREFECT_API_URL`: a running server (e.g. `prefect server start --host 127.0.0.1`); unset = Prefect starts a
  temporary local server in each process that runs a flow (about 6 s per process on a 2-core machine; 26-28 s the
  first time under a new `PREFECT_HOME`, when it creates and migrates its SQLite database).
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class PrefectEnvConfig:
    home: str = field(default="", metadata={
        "help": "PREFECT_HOME (profiles, database of the temporary server); '' = $PREFECT_HOME, else ~/.prefect"})
    api_url: str = field(default="", metadata={
        "help": "PREFECT_API_URL of a running server, e.g. http://127.0.0.1:4200/api; '' = $PREFECT_API_URL, "
                "else a temporary local server per process (bsl flow; bsl schedule needs a running server)"})
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
        from bsl_pipeline.pipeline.base.ownership import local_only

        local_only(config.home, "prefect.home (--prefect-home)")
        env["PREFECT_HOME"] = str(Path(config.home).expanduser().resolve())
    if config.api_url:
        env["PREFECT_API_URL"] = config.api_url
    if config.logging_level:
        env["PREFECT_LOGGING_LEVEL"] = config.logging_level.upper()
    env["PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"] = str(config.ephemeral_startup_timeout_s)
    return env


# Where the Prefect API URL of this process was given, when bsl set it (`apply_prefect_env`); and whether the command
# needs a running server (`require_running_server`). Both only shape the error when the server does not answer.
_API_URL: dict[str, Any] = {"given_by": "", "server_required": False}


def apply_prefect_env(config: PrefectEnvConfig | None = None, *, keep_existing: bool = False,
                      api_url_given_by: str = "--api-url") -> dict[str, str]:
    """Put the settings into os.environ (before Prefect is imported). Returns what was set.

    `keep_existing=True` only fills in variables that are not set yet (see `configure_prefect_environment`).
    `api_url_given_by`: where `config.api_url` was given (a flag, a file's key), named when that server does not
    answer (`unreachable_message`)."""
    env = prefect_env(config)
    if config is not None and config.api_url and not (keep_existing and "PREFECT_API_URL" in os.environ):
        _API_URL["given_by"] = api_url_given_by
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


def configure_prefect_environment() -> dict[str, str]:
    """The default settings, filling in only variables that are not set yet (a user's `DO_NOT_TRACK=0` or
    `PREFECT_HOME` wins). Call before anything in this process imports Prefect."""
    return apply_prefect_env(keep_existing=True)


def terminal_without_bsl_tracebacks() -> None:
    """Prefect's console handler prints a record whose exception is a `BSLError` (bad input, a store that cannot be
    reached, ...) without its traceback: the command prints that error as its one line. The record is otherwise
    unchanged, and Prefect's API log (the UI) keeps the traceback; any other exception keeps it everywhere. Call
    after Prefect is imported (it sets up its logging then)."""
    import logging

    from prefect.logging.configuration import ensure_logging_setup
    from prefect.logging.handlers import PrefectConsoleHandler

    ensure_logging_setup()
    loggers = [logging.getLogger(), *(logging.getLogger(n) for n in list(logging.root.manager.loggerDict))]
    for logger in loggers:
        for handler in getattr(logger, "handlers", []):
            if isinstance(handler, PrefectConsoleHandler) and not isinstance(handler.formatter, _BSLErrorsBrief):
                handler.setFormatter(_BSLErrorsBrief(handler.formatter or logging.Formatter()))


class _BSLErrorsBrief:
    """A formatter that formats a copy of a `BSLError` record without its traceback, anything else as `inner` does."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def format(self, record):
        import logging

        from bsl_pipeline.pipeline.base.errors import BSLError

        if record.exc_info and isinstance(record.exc_info[1], BSLError):
            record = logging.makeLogRecord({**record.__dict__, "exc_info": None, "exc_text": None})
        return self.inner.format(record)

    def __getattr__(self, name: str):  # what a handler asks of its formatter beyond format()
        return getattr(self.inner, name)


@contextmanager
def temporary_server() -> Iterator[str | None]:
    """Prefect's temporary local server for this process when no PREFECT_API_URL is set (yields its API URL; None
    when a server is configured, nothing is started then). Stopped when the block ends, also on Ctrl-C.

    Prefect would start the same server on first use, but in this process's group, where the terminal's Ctrl-C
    stops it too while the flow still reports its final state to it (minutes of connection retries). This one runs
    in its own session: Ctrl-C reaches the flow alone, the flow records its end, and then the server is stopped.
    Call after Prefect's settings are applied (`apply_prefect_env`)."""
    from prefect.server.api.server import SubprocessASGIServer
    from prefect.settings import get_current_settings

    if get_current_settings().api.url:
        yield None
        return
    current = SubprocessASGIServer._instances.get(None)
    if current is not None and current.running:  # already started in this process (by Prefect or an outer block)
        yield current.api_url
        return
    SubprocessASGIServer._instances.pop(None, None)
    server = _own_session_server_class()()  # registered as the default instance: Prefect's clients use this one
    try:
        server.start()
        yield server.api_url
    finally:
        _drain_prefect_workers()
        server.stop()


def _drain_prefect_workers(timeout_s: float = 5.0) -> None:
    """Send the logs and events still queued for the API while the server still runs (what Prefect's own test
    harness does before it stops its server); otherwise they are sent at exit, to a stopped server."""
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    for worker in (APILogWorker, EventsWorker):
        try:
            worker.drain_all(timeout=timeout_s)
        except Exception:  # noqa: BLE001 - best effort at shutdown: a worker that never started has nothing queued
            pass


@functools.cache
def _own_session_server_class() -> type:
    """Built on first use, so that importing this module does not import Prefect."""
    import contextlib
    import subprocess
    import tempfile

    import prefect
    from prefect.server.api.server import SubprocessASGIServer
    from prefect.settings import get_current_settings

    from bsl_pipeline.pipeline.base.processes import ISOLATED_ENV, die_with_parent, python_command

    class OwnSessionServer(SubprocessASGIServer):
        """`SubprocessASGIServer` (prefect==3.8.8, pinned) whose uvicorn process starts in a new session and ends
        when this process dies, and imports nothing from the user's working directory (`pipeline.base.processes`):
        Prefect starts `python -m uvicorn`, which would import a `uvicorn.py` from there, and its database
        migrations (alembic's `prepend_sys_path = .`) put "." first on the import path, so the server also runs in
        an empty directory of its own."""

        def _run_uvicorn_command(self) -> subprocess.Popen:
            settings = get_current_settings()
            server_env = {"PREFECT_UI_ENABLED": "0", "PREFECT__SERVER_EPHEMERAL": "1", "PREFECT__SERVER_FINAL": "1",
                          "PREFECT_HOME": str(Path(settings.home).expanduser().resolve()), **ISOLATED_ENV}
            if getattr(self, "_empty_dir", None) is None:
                self._empty_dir = tempfile.mkdtemp(prefix="bsl-prefect-server-")
            return subprocess.Popen(
                python_command("-m", "uvicorn", "--app-dir", str(prefect.__module_path__.parent), "--factory",
                               "prefect.server.api.server:create_app", "--host", "127.0.0.1", "--port",
                               str(self.port), "--log-level", "error", "--lifespan", "on"),
                env={**os.environ, **settings.to_environment_variables(exclude_unset=True), **server_env},
                cwd=self._empty_dir, start_new_session=True, preexec_fn=die_with_parent())

        def stop(self) -> None:
            super().stop()
            empty_dir, self._empty_dir = getattr(self, "_empty_dir", None), None
            if empty_dir is not None:
                with contextlib.suppress(OSError):  # only if still empty: never delete what the server wrote
                    os.rmdir(empty_dir)

    return OwnSessionServer


def api_url_given_by() -> str:
    """Where the configured Prefect API URL was given: the flag or file key bsl set it from, else
    PREFECT_API_URL in the environment, else the active Prefect profile (`prefect config view`)."""
    if _API_URL["given_by"]:
        return _API_URL["given_by"]
    return "PREFECT_API_URL" if os.environ.get("PREFECT_API_URL") else "the Prefect profile's PREFECT_API_URL"


def unreachable_message(url: str) -> str:
    """The error when the Prefect API at `url` does not answer: the URL, where it was given, and the fixes there
    (a temporary local server only where the command can run on one)."""
    given_by = api_url_given_by()
    temporary = not _API_URL["server_required"]
    if given_by == "PREFECT_API_URL":
        other = ("unset PREFECT_API_URL to let bsl start a temporary local server" if temporary
                 else "point PREFECT_API_URL at a running server")
    elif given_by.startswith("the Prefect profile"):
        other = ("`prefect config unset PREFECT_API_URL` to let bsl start a temporary local server" if temporary
                 else "`prefect config set PREFECT_API_URL=<a running server's API>`")
    elif given_by == "--api-url":
        other = ("leave --api-url out to let bsl start a temporary local server" if temporary
                 else "give --api-url a running server's API")
    else:
        other = f"fix {given_by}"
    return (f"Prefect server not reachable at {url} (given by {given_by}): start it with `prefect server start`, "
            f"or {other}")


def require_running_server(command: str) -> str:
    """The configured Prefect API URL, checked to answer (`check_api_reachable`); a BSLError when none is
    configured: `command` needs a server that outlives it (a temporary one runs no schedules, cannot be reached
    from elsewhere and ends with the command)."""
    from bsl_pipeline.pipeline.base.errors import BSLError

    _API_URL["server_required"] = True
    url = check_api_reachable()
    if url is None:
        raise BSLError(f"{command} needs a running Prefect server: start one (`prefect server start --host "
                       f"127.0.0.1`) and give its API with --api-url, the file's prefect.api_url or PREFECT_API_URL "
                       f"(e.g. http://127.0.0.1:4200/api); a temporary server would fire no schedules and end with "
                       f"this command")
    return url


def check_api_reachable(timeout_s: float = 5.0) -> str | None:
    """Raise BSLError naming the URL, where it was given and the fix when the configured Prefect API
    (PREFECT_API_URL or the profile's) does not answer its health check; returns the URL (None when no server is
    configured: a temporary one is started). Call after Prefect's settings are applied, before any work starts."""
    import httpx
    from prefect.settings import get_current_settings

    from bsl_pipeline.pipeline.base.errors import BSLError

    url = get_current_settings().api.url
    if not url:
        return None
    try:
        response = httpx.get(f"{url.rstrip('/')}/health", timeout=timeout_s)
    except httpx.HTTPError:
        raise BSLError(unreachable_message(url)) from None
    if response.status_code != 200:
        raise BSLError(f"{url}/health answered HTTP {response.status_code}: is {url} a Prefect API (it ends in "
                       f"/api, e.g. http://127.0.0.1:4200/api)?")
    return url
