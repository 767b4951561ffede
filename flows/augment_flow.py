"""The augmentation job as a Prefect flow: the library's loop (`pipeline.augment.job.run_augment`) with Prefect's executor.

    corpus --iter_chunks--> write_chunk (flow process, streaming) --submit--> augment_chunk (one Prefect task per
    chunk x method, on the task runner: threads or Dask) --> finalize_dataset (manifest + dataset card)

What the flow adds to `bsl augment` (see `flows.executors`): task caching across runs and processes, retries,
task states, the choice of task runner, and the per-method statistics as a markdown artifact.

- **Resume**: the library writes each task's shards atomically and its completion marker last. A run killed at any
  point reruns only unfinished tasks: a task whose Prefect record is missing or truncated runs again, finds its
  marker and returns it without augmenting; a cached record whose shards were deleted is recomputed.
- **Incremental**: chunks never span files, so a corpus directory that gains files keeps the chunk ids (and cache
  keys) of the files it had; a rerun computes only the new chunks and the manifest gains their shards.
- **Memory**: the corpus streams; the flow holds the current chunk, at most `tasks.max_in_flight` submitted tasks
  (ChunkRefs, not records) and the small per-task results.

Run it with `flows.augment_run.run_augment_flow` or `bsl flow augment`; both set Prefect's environment first.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger

from bsl_pipeline.flows.augment_job import FLOW_NAME, AugmentFlowConfig, RunnerConfig, TaskConfig
from bsl_pipeline.flows.config_layers import layered_config
from bsl_pipeline.flows.executors import PrefectExecutor, check_workers_reach_api, make_task_runner
from bsl_pipeline.pipeline.augment.job import AugmentConfig, build_augmenters, run_augment
from bsl_pipeline.pipeline.augment.tasks import WORK_DIR
from bsl_pipeline.pipeline.base.config import ConfigError, from_dict
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.ownership import check_not_input, local_only
from bsl_pipeline.pipeline.base.storage import is_url, s3_endpoint, shown
from bsl_pipeline.pipeline.dataset.manifest import DATASET_FOLDERS, Manifest

RESULTS_DIR = "prefect-results"
RESULT_STORAGE = "tasks.result_storage (--result-storage)"


def resolve_augment_config(config_file: str = "", augment: dict[str, Any] | None = None,
                           overrides: list[str] | None = None) -> AugmentConfig:
    """defaults <- config_file <- inline `augment` keys <- overrides (see `flows.config_layers.layered_config`)."""
    return layered_config(AugmentConfig, config_file, augment, overrides)


@flow(name=FLOW_NAME, description="Augment a corpus into a view-pair dataset: one cached, retried task per "
                                   "(chunk, method), then the manifest and dataset card.")
def augment_flow(corpus: str, out_dir: str, config_file: str = "", augment: dict[str, Any] | None = None,
                 overrides: list[str] | None = None, tasks: dict[str, Any] | None = None,
                 overwrite: bool = False) -> dict[str, Any]:
    """Parameters are plain data (a deployment can store them): `augment`/`overrides` are AugmentConfig keys,
    `tasks` TaskConfig keys; `overwrite` as `bsl augment --overwrite`. Returns a summary: manifest path, pairs,
    shards, task states."""
    t0 = time.perf_counter()
    config = resolve_augment_config(config_file, augment, overrides)
    task_config = from_dict(TaskConfig, tasks or {}, prefix="tasks")
    check_workers_reach_api()
    if not corpus or not out_dir:
        raise BSLError("the augment flow needs a corpus and an out_dir")
    if is_url(out_dir):
        # On an object store the tasks' completion markers (under the URL) are what a rerun resumes from; Prefect's
        # result records would need a folder every worker shares, so they are kept only where one is given.
        out: Path | str = out_dir.rstrip("/")
        config = with_endpoint_resolved(config)
        if not task_config.result_storage:
            task_config = replace(task_config, cache=False)
    else:
        out = Path(out_dir).expanduser().resolve()
    if task_config.result_storage:
        check_result_storage(task_config.result_storage, corpus, out_dir)
        storage: Path | None = Path(task_config.result_storage).expanduser().resolve()
    else:
        storage = None if is_url(out) else Path(out) / WORK_DIR / RESULTS_DIR
    executor = PrefectExecutor(task_config, storage)
    manifest = run_augment(corpus, out, config, executor=executor, overwrite=overwrite)  # makes both paths absolute
    summary = _summary(manifest, executor, storage, time.perf_counter() - t0)
    get_run_logger().info("dataset %s: %d pairs in %d shards; %d tasks (%s)", summary["name"], summary["pairs"],
                          summary["shards"], summary["tasks"],
                          ", ".join(f"{k}: {v}" for k, v in summary["task_states"].items()))
    _publish_statistics(manifest)
    return summary


def check_result_storage(result_storage: str, corpus: str, out_dir: str) -> None:
    """`tasks.result_storage` is a local folder Prefect writes records into on every run, checked as `--out` and
    `registry_dir` are (`ownership.check_not_input`): never in or around the corpus (the next run would read the
    records as corpus lines), nor in the dataset's data/ or rejects/ (every publish would set them aside, and the
    cache would never hit); elsewhere in --out, such as its default under .work/, is fine. Empty paths (a config
    checked alone) are not compared."""
    local_only(result_storage, RESULT_STORAGE)
    if not result_storage:
        return
    storage = Path(result_storage).expanduser().resolve()
    check_not_input(storage, [corpus] if corpus else [], RESULT_STORAGE)
    if out_dir and not is_url(out_dir):
        out = Path(out_dir).expanduser().resolve()
        if storage.is_relative_to(out):
            check_not_input(storage, [out / folder for folder in DATASET_FOLDERS], RESULT_STORAGE,
                            other="the dataset's folder")


def with_endpoint_resolved(config: AugmentConfig) -> AugmentConfig:
    """`config` with the S3 endpoint this machine resolved (`storage.endpoint_url`, else AWS_ENDPOINT_URL_S3 /
    AWS_ENDPOINT_URL here) written into `storage.endpoint_url`: the storage settings every task carries, so a
    worker on another machine reaches the same store. Credentials never travel: each machine has its own."""
    return replace(config, storage=replace(config.storage, endpoint_url=s3_endpoint(config.storage)))


def _summary(manifest: Manifest, executor: PrefectExecutor, storage: Path | None, seconds: float) -> dict[str, Any]:
    from prefect.runtime import flow_run

    manifest.require("stats", "chunks")
    per_method = manifest.stats.per_method.values()
    tasks = sum(m.tasks for m in per_method)
    return {
        "flow_run_id": str(flow_run.id),
        "manifest": shown(str(manifest.path)),
        "name": manifest.name,
        "pairs": manifest.stats.pairs,
        "shards": len(manifest.shards_of("pairs")),
        "chunks": len(manifest.chunks),
        "tasks": tasks,
        "task_states": dict(sorted(executor.states.items())),
        "computed": tasks - sum(m.tasks_cached for m in per_method),
        "result_storage": str(storage) if storage else "",
        "total_s": round(seconds, 3),
    }


def _publish_statistics(manifest: Manifest) -> None:
    """The per-method statistics as a markdown artifact on the flow run (visible in the UI)."""
    import re

    from prefect.artifacts import create_markdown_artifact

    from bsl_pipeline.pipeline.dataset.inspection import format_stats_text

    key = re.sub(r"[^a-z0-9-]+", "-", f"bsl-augment-{manifest.name}".lower()).strip("-")[:100]
    create_markdown_artifact(
        key=key, description=f"augmentation statistics of {manifest.name}",
        markdown=f"# Dataset `{manifest.name}`\n\n{manifest.stats.pairs} pairs, manifest "
                 f"`{shown(str(manifest.path))}`\n\n```\n{format_stats_text(manifest)}\n```\n")


# -- entry points (`flows.augment_run.run_augment_flow` runs it once; `bsl schedule` serves it) --------------------
def build_augment_flow(runner: RunnerConfig | None = None):
    """`augment_flow` with the task runner `runner` describes (what deployments serve and the CLI runs)."""
    return augment_flow.with_options(task_runner=make_task_runner(runner or RunnerConfig()))


def check_augment_spec(spec: AugmentFlowConfig, require_paths: bool = True) -> AugmentConfig:
    """Fail early (before any Prefect run) on a missing corpus/out_dir (unless not `require_paths`: the settings
    alone, as `--print-config` checks them) or a bad AugmentConfig/TaskConfig. Returns the resolved AugmentConfig."""
    if require_paths and (not spec.corpus or not spec.out_dir):
        raise ConfigError("augment flow: corpus and out_dir are required")
    config = resolve_augment_config(spec.config_file, spec.augment, spec.overrides)
    check_result_storage(spec.tasks.result_storage, spec.corpus, spec.out_dir)
    build_augmenters(config)  # unknown methods / bad method params
    make_task_runner(spec.runner)
    return config
