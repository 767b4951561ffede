"""Training as a Prefect flow: verify the datasets' shards, then train -> (optionally) evaluate.

Training reads the cached shards of finished augmentation runs through their manifests; it never augments.
Train -> evaluate is `evaluation.train_and_evaluate.train_and_evaluate`, the one orchestration the main job (`bsl
demo`) runs too; this flow only wraps it in a task:

    verify-dataset (one task per manifest: pipeline.dataset.store.verify_dataset, every shard's sha256 and row count)
      -> train-and-evaluate (training.train, the trainer's own checksum pass skipped when the flow just verified;
         a finished run of the same settings and data in train.output_dir is reused, nothing is trained; then the
         STS evaluation of the exported model when evaluate=true)
      -> the evaluation's table and markdown artifacts (as the evaluate flow publishes them)

A retried `train-and-evaluate` task resumes from the run's latest checkpoint (train.resume=auto) instead of
starting over, and reuses a run that finished before the evaluation failed.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from bsl_pipeline.flows.config_layers import layered_config
from bsl_pipeline.flows.evaluate_flow import (
    check_artifact_key,
    evaluation_outputs,
    publish_evaluation,
    resolve_evaluation_config,
)
from bsl_pipeline.flows.evaluate_job import DEFAULT_ARTIFACT_KEY
from bsl_pipeline.flows.train_job import FLOW_NAME, TrainFlowConfig
from bsl_pipeline.pipeline.base.config import ConfigError, from_dict, to_dict

if TYPE_CHECKING:
    from bsl_pipeline.training.config import TrainConfig


def resolve_train_config(manifests: list[str] | None = None, config_file: str = "",
                         train: dict[str, Any] | None = None, overrides: list[str] | None = None, *,
                         recipe: str = "", require_datasets: bool = True):
    """defaults (or `recipe`) <- config_file <- inline keys <- overrides, then `manifests` replace data.sources (as
    `bsl train --manifest`). No recipe, no config_file and no model: the bundled encoder and the default recipe, as
    `bsl train` (training.recipes.with_recipe). A config without datasets is refused unless not `require_datasets`
    (the settings alone, as `--print-config` checks them)."""
    return resolve_train_run(manifests, config_file, train, overrides, recipe=recipe,
                             require_datasets=require_datasets)[0]


def resolve_train_run(manifests: list[str] | None = None, config_file: str = "",
                      train: dict[str, Any] | None = None, overrides: list[str] | None = None, *,
                      recipe: str = "", require_datasets: bool = True):
    """`resolve_train_config`, and the recipe that applied (None: none), as `with_recipe` returns them."""
    from bsl_pipeline.training.config import DataSourceConfig, TrainConfig
    from bsl_pipeline.training.recipes import with_recipe

    config, recipe_used = with_recipe(
        lambda base: layered_config(TrainConfig, config_file, train, overrides, defaults=base), config_file,
        recipe or None)
    if manifests:
        config.data.sources = [DataSourceConfig(path=str(m)) for m in manifests]
    if require_datasets and not config.data.sources:
        raise ConfigError("train flow: no datasets (give manifests, or data.sources in the config)")
    return config, recipe_used


def spec_train_config(spec: TrainFlowConfig, *, require_datasets: bool = True):
    """The TrainConfig a flow of settings `spec` trains with (`resolve_train_config` of its fields)."""
    return spec_train_run(spec, require_datasets=require_datasets)[0]


def spec_train_run(spec: TrainFlowConfig, *, require_datasets: bool = True):
    """`spec_train_config`, and the recipe that applied (None: none): what `bsl flow train` names when it starts."""
    return resolve_train_run(spec.manifests, spec.config_file, spec.train, spec.overrides, recipe=spec.recipe,
                             require_datasets=require_datasets)


def resolve_flow_evaluation(evaluate: bool, evaluation: dict[str, Any] | None, artifact_key: str):
    """The EvaluationConfig of the evaluation after training (its artifact key checked); None without one."""
    if not evaluate:
        return None
    check_artifact_key(artifact_key)
    return resolve_evaluation_config(evaluation=evaluation or {})


def expand_run_placeholders(path: str) -> str:
    """`{date}` -> the UTC date (YYYY-MM-DD), `{flow_run}` -> the flow run's name: a scheduled deployment then
    trains into a fresh directory each time (and a retried run of the same day resumes with train.resume=auto)."""
    if "{" not in path:
        return path
    from datetime import datetime, timezone

    from prefect.runtime import flow_run

    return path.replace("{date}", datetime.now(timezone.utc).strftime("%Y-%m-%d")).replace(
        "{flow_run}", str(flow_run.name or "local"))


@task(name="verify-dataset", task_run_name="verify-{path}", cache_policy=NO_CACHE)
def verify_dataset_task(path: str) -> dict[str, Any]:
    """`pipeline.dataset.store.verify_dataset`: manifest checksum + every shard's sha256 and row count."""
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    manifest = verify_dataset(path)
    pairs = manifest.shards_of("pairs")
    return {"path": path, "name": manifest.name, "checksum": manifest.checksum, "shards": len(pairs),
            "pairs": sum(s.rows for s in pairs)}


@task(name="train-and-evaluate", cache_policy=NO_CACHE)
def train_and_evaluate_task(config_data: dict[str, Any], evaluation_data: dict[str, Any] | None) -> dict[str, Any]:
    """`evaluation.train_and_evaluate` on the verified datasets (reusing a finished run of the same settings and
    data; evaluating when given an EvaluationConfig). A retry (run_count > 1) resumes from the latest checkpoint."""
    from prefect.runtime import task_run

    from bsl_pipeline.training.config import TrainConfig
    from bsl_pipeline.evaluation.config import EvaluationConfig
    from bsl_pipeline.evaluation.train_and_evaluate import train_and_evaluate

    config = from_dict(TrainConfig, config_data)
    if task_run.run_count > 1 and config.train.resume is None:
        config.train.resume = "auto"
    evaluation = from_dict(EvaluationConfig, evaluation_data) if evaluation_data is not None else None
    done = train_and_evaluate(config, evaluation, disable_progress=True)
    out: dict[str, Any] = {"train": {**asdict(done.run), "reused": done.reused}}
    if done.evaluation is not None:
        out["evaluation"] = evaluation_outputs(done.evaluation)
    return out


@flow(name=FLOW_NAME, description="Verify view-pair datasets and train a sentence encoder on them (no augmentation)")
def train_flow(manifests: list[str] | None = None, config_file: str = "", train: dict[str, Any] | None = None,
               overrides: list[str] | None = None, verify: bool = True, retries: int = 0, evaluate: bool = False,
               evaluation: dict[str, Any] | None = None, artifact_key: str = DEFAULT_ARTIFACT_KEY,
               recipe: str = "") -> dict[str, Any]:
    from prefect.artifacts import create_markdown_artifact

    logger = get_run_logger()
    config = resolve_train_config(manifests, config_file, train, overrides, recipe=recipe)
    config.train.output_dir = expand_run_placeholders(config.train.output_dir)
    evaluation_config = resolve_flow_evaluation(evaluate, evaluation, artifact_key)  # checked before any training
    verified = []
    if verify:
        futures = [verify_dataset_task.submit(str(src.path)) for src in config.data.sources]
        verified = [f.result() for f in futures]
        config.data.verify = False  # just done, shard by shard, in the tasks above
        for v in verified:
            logger.info("verified %s: %d shards, %d pairs", v["name"], v["shards"], v["pairs"])
    done = train_and_evaluate_task.with_options(retries=retries)(
        to_dict(config), to_dict(evaluation_config) if evaluation_config is not None else None)
    result = done["train"]
    if result["reused"]:
        logger.info("reused the finished run in %s: nothing trained", result["run_dir"])
    create_markdown_artifact(
        key="bsl-train", description="training run",
        markdown="# Training run\n\n" + "\n".join(f"- **{k}**: `{v}`" for k, v in result.items())
                 + "\n\nDatasets:\n\n" + "\n".join(f"- `{s.path}`" for s in config.data.sources) + "\n")
    out = {"train": result, "verified": verified}
    if evaluation_config is not None:
        out["evaluation"] = publish_evaluation(done["evaluation"], evaluation_config.tasks, artifact_key)
    return out


def train_parameters(spec: TrainFlowConfig) -> dict[str, Any]:
    return {"manifests": list(spec.manifests), "config_file": spec.config_file, "recipe": spec.recipe,
            "train": dict(spec.train),
            "overrides": list(spec.overrides), "verify": spec.verify, "retries": spec.retries,
            "evaluate": spec.evaluate, "evaluation": dict(spec.evaluation), "artifact_key": spec.artifact_key}


def check_train_spec(spec: TrainFlowConfig) -> tuple[TrainConfig, str | None]:
    """Refuse before the flow starts what its run would refuse (the datasets may appear later: the schedule's check
    and the flow's verify task see to them): the run's settings (`check_settings`), and a fresh run where an
    unfinished one left checkpoints (a finished one, with its completion record, may be reused). Returns the
    TrainConfig and the recipe that applied (`spec_train_run`)."""
    from pathlib import Path

    from bsl_pipeline.evaluation.train_and_evaluate import DONE_FILE
    from bsl_pipeline.training.checkpoint_files import check_fresh_run, checkpoint_dirs
    from bsl_pipeline.training.preflight import check_settings
    from bsl_pipeline.training.run_directory import CHECKPOINTS_DIR, FINAL_DIR

    config, recipe_used = spec_train_run(spec)
    check_settings(config, config_file=spec.config_file or None)
    out = Path(config.train.output_dir)
    if config.train.resume is None and not (out / DONE_FILE).exists():
        check_fresh_run(out, checkpoint_dirs(out / CHECKPOINTS_DIR, out / FINAL_DIR))
    if spec.evaluate:
        from bsl_pipeline.flows.evaluate_flow import check_evaluate_spec
        from bsl_pipeline.flows.evaluate_job import EvaluateFlowConfig

        check_evaluate_spec(EvaluateFlowConfig(models=["(trained model)"], evaluation=spec.evaluation,
                                               artifact_key=spec.artifact_key))
    return config, recipe_used

