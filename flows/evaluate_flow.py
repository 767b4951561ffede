"""The evaluation stage as a Prefect flow: the STS table for one or more encoders, published as artifacts.

Wires `training.evaluation.evaluate_models` (what `bsl evaluate` runs) and publishes
- a **table artifact** (key `artifact_key`): one row per model, the paper's Table 1 columns (Spearman x100), and
- a **markdown artifact** (key `<artifact_key>-details`): the same table plus per-subset numbers.
Both appear under the flow run's "Artifacts" tab in the Prefect UI and keep their history per key.
"""

from __future__ import annotations

import math
import re
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from flows.config_layers import layered_config
from flows.evaluate_job import DEFAULT_ARTIFACT_KEY, FLOW_NAME, EvaluateFlowConfig
from pipeline.base.config import ConfigError, from_dict, to_dict
from pipeline.evaldata.data_dir import resolve_data_dir


def resolve_evaluation_config(config_file: str = "", evaluation: dict[str, Any] | None = None,
                              overrides: list[str] | None = None):
    from training.evaluation.config import EvaluationConfig
    from training.evaluation.tasks import parse_tasks

    config = layered_config(EvaluationConfig, config_file, evaluation, overrides)
    config.tasks = list(parse_tasks(config.tasks))
    if config.batch_size < 1:
        raise ConfigError(f"evaluation batch_size must be >= 1, got {config.batch_size}")
    return config


def check_artifact_key(key: str) -> str:
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", key or ""):
        raise ConfigError(f"artifact key {key!r} must be lowercase letters, digits and dashes")
    return key


def table_rows(results: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per model: {"model": name, "STS12": x, ..., "Avg.": x} (None where undefined)."""
    from training.evaluation.data import TASK_TITLES

    rows = []
    for name, result in results.items():
        row: dict[str, Any] = {"model": name}
        for col, value in result.scores().items():
            title = "Avg." if col == "avg" else TASK_TITLES[col]
            row[title] = round(float(value), 2) if math.isfinite(value) else None
        rows.append(row)
    return rows


def evaluation_outputs(results: dict[str, Any]) -> dict[str, Any]:
    """The results JSON, the table rows, the markdown report and the plain table of `evaluate_models`' results."""
    from training.evaluation.score_tables import (
        format_markdown,
        format_table,
        results_json,
    )

    return {"results": results_json(results), "rows": table_rows(results), "markdown": format_markdown(results),
            "table": format_table(results)}


def publish_evaluation(outputs: dict[str, Any], tasks: list[str], artifact_key: str) -> dict[str, Any]:
    """The table artifact (`artifact_key`) and the markdown artifact (`<artifact_key>-details`) of one evaluation
    (the evaluate flow's and the train flow's); returns what the flows return."""
    from prefect.artifacts import create_markdown_artifact, create_table_artifact

    table_id = create_table_artifact(key=artifact_key, table=outputs["rows"],
                                     description="cosine Spearman x100 (" + ", ".join(tasks) + ")")
    create_markdown_artifact(key=f"{artifact_key}-details", markdown=outputs["markdown"],
                             description="STS evaluation with per-subset details")
    return {"results": outputs["results"], "rows": outputs["rows"], "table": outputs["table"],
            "artifact_key": artifact_key, "table_artifact_id": str(table_id)}


@task(name="evaluate-models", cache_policy=NO_CACHE)
def evaluate_models_task(models: list[str], config_data: dict[str, Any]) -> dict[str, Any]:
    """`training.evaluation.evaluate_models`: the whole stage in one task (it loads the data once and one model at a
    time). Returns `evaluation_outputs`."""
    from training.evaluation.config import EvaluationConfig
    from training.evaluation.runner import evaluate_models

    config = from_dict(EvaluationConfig, config_data)
    out = evaluation_outputs(evaluate_models(models, config, disable_progress=True))
    get_run_logger().info("STS evaluation\n%s", out["table"])
    return out


@flow(name=FLOW_NAME, description="STS12-16 / STS-B / SICK-R table for sentence encoders, published as a table "
                                   "artifact")
def evaluate_flow(models: list[str], config_file: str = "", evaluation: dict[str, Any] | None = None,
                  overrides: list[str] | None = None, artifact_key: str = DEFAULT_ARTIFACT_KEY) -> dict[str, Any]:
    if not models:
        raise ConfigError("evaluate flow: no models given")
    check_artifact_key(artifact_key)
    config = resolve_evaluation_config(config_file, evaluation, overrides)
    return publish_evaluation(evaluate_models_task(list(models), to_dict(config)), config.tasks, artifact_key)


def evaluate_parameters(spec: EvaluateFlowConfig) -> dict[str, Any]:
    return {"models": list(spec.models), "config_file": spec.config_file, "evaluation": dict(spec.evaluation),
            "overrides": list(spec.overrides), "artifact_key": spec.artifact_key}


def check_evaluate_spec(spec: EvaluateFlowConfig) -> None:
    if not spec.models:
        raise ConfigError("evaluate flow: models is empty")
    check_artifact_key(spec.artifact_key)
    config = resolve_evaluation_config(spec.config_file, spec.evaluation, spec.overrides)
    resolve_data_dir(config.data_dir or None)  # '' = the data dir every command finds (README 'Data')
