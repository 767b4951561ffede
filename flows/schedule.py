"""`bsl schedule FILE.yaml`: deployments from a YAML file, served by this process (a Prefect `Runner`, as
`prefect.serve` runs it).

The file is a `ScheduleConfig` (dataclasses via pipeline.base.config, like every other config; unknown keys are errors):

```yaml
prefect:                       # flows.prefect_env.PrefectEnvConfig
  api_url: http://127.0.0.1:4200/api
deployments:
  - name: nightly
    flow: augment              # augment | train | evaluate
    cron: "0 2 * * *"          # or interval_s: 3600; neither = run only when triggered
    timezone: Europe/Berlin
    augment:                   # flows.augment_job.AugmentFlowConfig
      corpus: /data/corpus/    # a directory that grows: each run augments only the new files' chunks
      out_dir: /data/datasets/nightly
      augment: {methods: [synonyms], corpus: {chunk_size: 10000}}
  - name: bsl-nightly
    flow: train
    cron: "0 4 * * *"
    train: {manifests: [/data/datasets/nightly], config_file: configs/train_bsl.yaml}
```

Each entry becomes the deployment `<flow name>/<name>` (`bsl-augment/nightly`, `bsl-train/bsl-nightly`), registered
with the server at start-up; this process then polls for scheduled or triggered runs (`prefect deployment run
'bsl-train/bsl-nightly'`) and executes each in a subprocess, until stopped with Ctrl-C or SIGTERM (a process
supervisor's stop): the schedules are paused on shutdown, as `prefect.serve` does, and the command ends with one
line and exit code 130 (143 for SIGTERM). It needs a running server (`prefect.api_url`, --api-url or
PREFECT_API_URL): a temporary one, which Prefect starts when none is given, creates no scheduled runs, cannot be
reached to trigger one and ends with the process, so serving on it is refused.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from bsl_pipeline.flows import augment_job, evaluate_job, train_job
from bsl_pipeline.flows.augment_job import AugmentFlowConfig
from bsl_pipeline.flows.evaluate_job import EvaluateFlowConfig
from bsl_pipeline.flows.prefect_env import PrefectEnvConfig, apply_prefect_env
from bsl_pipeline.flows.train_job import TrainFlowConfig
from bsl_pipeline.pipeline.base.config import ConfigError, load_config
from bsl_pipeline.pipeline.base.errors import BSLError

log = logging.getLogger(__name__)

# Deployments are addressed as <flow name>/<deployment name>, e.g. bsl-augment/nightly.
FLOW_NAMES = {"augment": augment_job.FLOW_NAME, "train": train_job.FLOW_NAME, "evaluate": evaluate_job.FLOW_NAME}


@dataclass
class DeploymentConfig:
    name: str = field(default="", metadata={"help": "deployment name (required); the full name is <flow>/<name>"})
    flow: Literal["augment", "train", "evaluate"] = field(default="augment", metadata={
        "help": "which flow: augment (bsl-augment), train (bsl-train) or evaluate (bsl-evaluate)"})
    cron: str = field(default="", metadata={"help": "cron schedule, e.g. '0 2 * * *' (02:00 daily); '' = none"})
    interval_s: float = field(default=0.0, metadata={"help": "run every N seconds (0 = no interval schedule)"})
    timezone: str = field(default="UTC", metadata={"help": "time zone of the cron schedule (IANA name)"})
    paused: bool = field(default=False, metadata={"help": "register with the schedule paused"})
    description: str = field(default="", metadata={"help": "shown in the UI"})
    tags: list[str] = field(default_factory=list, metadata={"help": "deployment tags"})
    augment: AugmentFlowConfig = field(default_factory=AugmentFlowConfig)
    train: TrainFlowConfig = field(default_factory=TrainFlowConfig)
    evaluate: EvaluateFlowConfig = field(default_factory=EvaluateFlowConfig)


@dataclass
class ScheduleConfig:
    prefect: PrefectEnvConfig = field(default_factory=PrefectEnvConfig)
    limit: int = field(default=0, metadata={"help": "flow runs at once in this serve process (0 = no limit)"})
    deployments: list[DeploymentConfig] = field(default_factory=list, metadata={"help": "the deployments"})


def load_schedule(path: str | Path, overrides: list[str] | None = None) -> ScheduleConfig:
    """Parse and check the file's shape (no Prefect import: settings are applied after this)."""
    config = load_config(ScheduleConfig, path, overrides)
    if not config.deployments:
        raise ConfigError(f"{path}: no deployments")
    seen = set()
    for i, d in enumerate(config.deployments):
        where = f"{path}: deployments[{i}]"
        if not d.name:
            raise ConfigError(f"{where}: name is required")
        if (d.flow, d.name) in seen:
            raise ConfigError(f"{where}: deployment {d.flow}/{d.name} appears twice")
        seen.add((d.flow, d.name))
        if d.cron and d.interval_s:
            raise ConfigError(f"{where} ({d.name}): give cron or interval_s, not both")
        if d.interval_s < 0:
            raise ConfigError(f"{where} ({d.name}): interval_s must be >= 0")
    return config


def check_deployment(d: DeploymentConfig) -> None:
    """Resolve the flow's own config now, so a typo fails at start-up rather than at 2 a.m."""
    try:
        if d.flow == "augment":
            from bsl_pipeline.flows.augment_flow import check_augment_spec

            check_augment_spec(d.augment)
        elif d.flow == "train":
            from bsl_pipeline.flows.train_flow import check_train_spec

            check_train_spec(d.train)
        else:
            from bsl_pipeline.flows.evaluate_flow import check_evaluate_spec

            check_evaluate_spec(d.evaluate)
    except BSLError as exc:  # a bad config, an unknown method
        raise ConfigError(f"deployment {d.name!r} ({d.flow}): {exc}") from None


def check_schedule_paths(config: ScheduleConfig) -> list[str]:
    """Check what the schedule's deployments read and write. A model must exist now (or be made by a deployment of
    the same file: an evaluate deployment's model under a train deployment's output directory), and an augment
    deployment's output must be claimable: ConfigError naming the first that is not. The data a deployment reads
    when it runs (an augment deployment's corpus, a train deployment's dataset that no augment deployment of the
    file writes) may appear later: each one missing now is a warning, logged and returned, saying that it must
    exist when the deployment runs."""
    from bsl_pipeline.pipeline.augment.job import DATASET_KIND, earlier_dataset
    from bsl_pipeline.pipeline.base import storage
    from bsl_pipeline.pipeline.base.hub import check_model_reference
    from bsl_pipeline.pipeline.base.ownership import check_claimable
    from bsl_pipeline.training.recipes import model_source

    def resolved(path: str) -> Path:
        return Path(path.split("{")[0] or ".").expanduser().resolve()

    made_datasets = {resolved(d.augment.out_dir) for d in config.deployments if d.flow == "augment"}
    run_roots = []
    for d in config.deployments:
        if d.flow == "train":
            from bsl_pipeline.flows.train_flow import spec_train_config

            out = spec_train_config(d.train)
            if out.train.output_dir:
                run_roots.append(resolved(out.train.output_dir))
    warnings = []

    def missing(path: str) -> bool:
        """Not there yet on this machine; a store URL is not looked up at check time (no credentials needed)."""
        return not storage.is_url(path) and not Path(path).expanduser().exists()

    def read_later(where: str, what: str, path: str, note: str = "") -> None:
        warnings.append(f"{where}: {what} {path} does not exist yet; it must exist when the deployment runs{note}")
        log.warning("%s", warnings[-1])

    for d in config.deployments:
        where = f"deployment {d.name!r} ({d.flow})"
        try:
            if d.flow == "augment":
                if missing(d.augment.corpus):
                    read_later(where, "corpus", d.augment.corpus)
                check_claimable(d.augment.out_dir, DATASET_KIND, overwrite=d.augment.overwrite,
                                recognise=earlier_dataset)
            elif d.flow == "train":
                from bsl_pipeline.flows.train_flow import spec_train_config

                train = spec_train_config(d.train)
                for src in train.data.sources:
                    if missing(src.path) and resolved(src.path) not in made_datasets:
                        read_later(where, "dataset", src.path, " (no augment deployment of this file writes it)")
                check_model_reference(train.model.name_or_path, "model.name_or_path")
            else:
                for model in d.evaluate.models:
                    path = resolved(model)
                    if any(path == root or root in path.parents for root in run_roots):
                        continue
                    check_model_reference(model_source(model), "model")
        except BSLError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    return warnings


def flow_and_parameters(d: DeploymentConfig) -> tuple[Any, dict[str, Any]]:
    """The flow object (with its task runner) and the default parameters of a deployment entry."""
    if d.flow == "augment":
        from bsl_pipeline.flows.augment_flow import build_augment_flow
        from bsl_pipeline.flows.augment_job import flow_parameters

        return build_augment_flow(d.augment.runner), flow_parameters(d.augment)
    if d.flow == "train":
        from bsl_pipeline.flows.train_flow import train_flow, train_parameters

        return train_flow, train_parameters(d.train)
    from bsl_pipeline.flows.evaluate_flow import evaluate_flow, evaluate_parameters

    return evaluate_flow, evaluate_parameters(d.evaluate)


def build_deployments(config: ScheduleConfig, check: bool = True) -> list[Any]:
    """RunnerDeployments for `prefect.serve` (Prefect must be configured: call after `apply_prefect_env`)."""
    from prefect.schedules import Cron, Interval
    from prefect.types.entrypoint import EntrypointType

    if check:
        for d in config.deployments:
            check_deployment(d)
        check_schedule_paths(config)
    deployments = []
    for d in config.deployments:
        flow_obj, parameters = flow_and_parameters(d)
        schedules = []
        if d.cron:
            schedules.append(Cron(d.cron, timezone=d.timezone))
        if d.interval_s:
            schedules.append(Interval(d.interval_s, timezone=d.timezone))
        deployments.append(flow_obj.to_deployment(
            name=d.name, schedules=schedules or None, paused=d.paused, parameters=parameters,
            description=d.description or None, tags=list(d.tags) or None,
            entrypoint_type=EntrypointType.MODULE_PATH))
    return deployments


def describe(config: ScheduleConfig) -> str:
    lines = []
    for d in config.deployments:
        when = (f"cron '{d.cron}' ({d.timezone})" if d.cron else f"every {d.interval_s:g} s" if d.interval_s
                else "on demand")
        lines.append(f"{FLOW_NAMES[d.flow]}/{d.name}: {when}{' (paused)' if d.paused else ''}")
    return "\n".join(lines)


class _QuietPause(logging.Filter):
    """Drops the runner's two INFO lines about pausing on shutdown: after Ctrl-C the command prints one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno <= logging.INFO and str(record.msg).startswith(
            ("Pausing all deployments", "All deployments have been paused")))


def serve_schedule(config: ScheduleConfig, check: bool = True, on_serving: Callable[[], None] | None = None,
                   api_url_given_by: str = "prefect.api_url") -> None:
    """Register every deployment and serve them until interrupted (blocks). What `prefect.serve` does, except that
    Ctrl-C reaches the caller as KeyboardInterrupt and SIGTERM as `Terminated` (one, in the main thread: the serving
    is cancelled as asyncio cancels it on Ctrl-C, instead of Prefect's SIGTERM handler, which exits 0 without
    awaiting its own stop); the runner's shutdown has paused the schedules by then. Refused (BSLError) without a
    running server: on a temporary one the schedules would never fire and nothing could trigger a run
    (`prefect_env.require_running_server`); `api_url_given_by` names where `config.prefect.api_url` was given, for
    that error. `on_serving` is called once the server has accepted every deployment, just before the polling
    starts."""
    import asyncio
    import signal

    from bsl_pipeline.flows.prefect_env import require_running_server
    from bsl_pipeline.pipeline.base.processes import Terminated

    apply_prefect_env(config.prefect, api_url_given_by=api_url_given_by)
    require_running_server("bsl schedule")
    from prefect.runner import Runner

    deployments = build_deployments(config, check=check)
    runner = Runner(pause_on_shutdown=True, limit=config.limit or None)
    for deployment in deployments:
        runner.add_deployment(deployment)
    if on_serving is not None:
        on_serving()
    quiet = _QuietPause()
    runner_log = logging.getLogger("prefect.runner")
    runner_log.addFilter(quiet)
    terminated: list[bool] = []

    async def serve() -> None:
        serving, loop = asyncio.current_task(), asyncio.get_running_loop()

        def on_sigterm(*_: Any) -> None:  # `Runner.start` installs this as the SIGTERM handler (main thread only)
            if terminated:  # a second SIGTERM while the first one's shutdown runs
                raise Terminated(signal.SIGTERM)
            terminated.append(True)
            loop.call_soon_threadsafe(serving.cancel)

        runner.handle_sigterm = on_sigterm
        await runner.start()

    try:
        asyncio.run(serve())
    except asyncio.CancelledError:
        if terminated:
            raise Terminated(signal.SIGTERM) from None
        raise
    finally:
        runner_log.removeFilter(quiet)
