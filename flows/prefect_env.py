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

import os
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path


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

    `keep_existing=True` only fills in variables that are not set yet (see `configure_prefect_environment`)."""
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


def configure_prefect_environment() -> dict[str, str]:
    """The default settings, filling in only variables that are not set yet (a user's `DO_NOT_TRACK=0` or
    `PREFECT_HOME` wins). Call before anything in this process imports Prefect."""
    return apply_prefect_env(keep_existing=True)
