"""The augmentation flow's settings and how to run it once. No Prefect import at module level: `bsl schedule` and
the CLI parse these before Prefect's environment is set (`flows.prefect_env`).

Deployments are addressed as <flow name>/<deployment name>, e.g. bsl-augment/nightly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from bsl_pipeline.pipeline.base.config import to_dict

FLOW_NAME = "bsl-augment"


@dataclass
class TaskConfig:
    """How the per-(chunk, method) tasks run: cache, retries, back-pressure. A flow-run parameter (`tasks`)."""

    cache: bool = field(default=True, metadata={
        "help": "reuse finished tasks through Prefect's result cache (false: every task runs; finished ones still "
                "return at once from their completion markers)"})
    result_storage: str = field(default="", metadata={
        "help": "directory of Prefect's persisted task results (the cache); '' = <out_dir>/.work/prefect-results; "
                "never in the corpus, nor in the dataset's data/ or rejects/"})
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
    overwrite: bool = field(default=False, metadata={
        "help": "write into an out_dir bsl did not create (what the flow replaces there is moved to "
                ".bsl-replaced/<time>/, never deleted); false = such an out_dir is refused"})
    tasks: TaskConfig = field(default_factory=TaskConfig)
    runner: RunnerConfig = field(default_factory=RunnerConfig)


def flow_parameters(spec: AugmentFlowConfig) -> dict[str, Any]:
    """The flow-run parameters of `spec` (everything but the runner)."""
    return {"corpus": spec.corpus, "out_dir": spec.out_dir, "config_file": spec.config_file,
            "augment": dict(spec.augment), "overrides": list(spec.overrides), "tasks": to_dict(spec.tasks),
            "overwrite": spec.overwrite}
