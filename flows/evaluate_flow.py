"""The evaluation stage as a Prefect flow: the score tables of one or more encoders, published as artifacts.

Wires `evaluation.evaluate_models` (what `bsl evaluate` runs) and publishes
- a **table artifact** (key `artifact_key`): one row per model, the paper's Table 1 columns (Spearman x100), when
  an STS12-16 / STS-B / SICK-R task was asked;
- a table artifact `<artifact_key>-transfer` (SentEval transfer tasks, test accuracy x100) and one
  `<artifact_key>-sts17` (STS 2017, Spearman x100 per language pair), when those tasks were asked;
- a **markdown artifact** (key `<artifact_key>-details`): every table plus per-subset / per-task details.
All appear under the flow run's "Artifacts" tab in the Prefect UI and keep their history per key.

Transfer accuracies and STS 2017 get their own table artifacts rather than extra columns of the STS one: they are
other metrics (accuracy, or Spearman on other data) with their own Avg., an artifact has one description naming
its metric, an STS row with them beside its Avg. would read as if they were averaged in, and a key's history stays
comparable across runs that ask for different task sets. The rows come from `score_tables.table_sections`, the
same columns, titles and rounding as `bsl evaluate`'s printed tables.
"""

from __future__ import annotations

import re
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from bsl_pipeline.flows.config_layers import layered_config
from bsl_pipeline.flows.evaluate_job import DEFAULT_ARTIFACT_KEY, FLOW_NAME, EvaluateFlowConfig
from bsl_pipeline.pipeline.base.config import ConfigError, from_dict, to_dict
from bsl_pipeline.evaluation.data_dir import resolve_data_dir


def resolve_evaluation_config(config_file: str = "", evaluation: dict[str, Any] | None = None,
                              overrides: list[str] | None = None):
    from bsl_pipeline.evaluation.config import EvaluationConfig
    from bsl_pipeline.evaluation.preflight import check_settings
    from bsl_pipeline.evaluation.tasks import parse_tasks

    config = layered_config(EvaluationConfig, config_file, evaluation, overrides)
    config.tasks = list(parse_tasks(config.tasks))
    check_settings(config)  # what the evaluation would refuse, before a flow (or --print-config) goes on
    return config


def check_artifact_key(key: str) -> str:
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", key or ""):
        raise ConfigError(f"artifact key {key!r} must be lowercase letters, digits and dashes")
    return key


def evaluation_outputs(results: dict[str, Any]) -> dict[str, Any]:
    """The results JSON, the score tables as rows (`tables`: {"sts"|"sts17"|"transfer": {heading, note, rows}};
    `rows`: the STS table's rows, [] without an STS task), the markdown report and the plain table of
    `evaluate_models`' results."""
    from bsl_pipeline.evaluation.score_tables import (
        format_markdown,
        format_table,
        results_json,
        table_sections,
    )

    tables = {t.name: {"heading": t.heading, "note": t.note, "rows": t.rows} for t in table_sections(results)}
    return {"results": results_json(results), "tables": tables, "rows": tables.get("sts", {}).get("rows", []),
            "markdown": format_markdown(results), "table": format_table(results)}


def table_artifact_key(artifact_key: str, table: str) -> str:
    """The STS table keeps the flow's key (its history predates the other tables); the others add their name."""
    return artifact_key if table == "sts" else f"{artifact_key}-{table}"


def publish_evaluation(outputs: dict[str, Any], tasks: list[str], artifact_key: str) -> dict[str, Any]:
    """One table artifact per score table (`table_artifact_key`) and the markdown artifact
    (`<artifact_key>-details`) of one evaluation (the evaluate flow's and the train flow's); returns what the flows
    return: `table_artifact_ids` maps each published key to its artifact id, `table_artifact_id` is the STS
    table's ("" when no STS task was asked)."""
    from prefect.artifacts import create_markdown_artifact, create_table_artifact

    ids = {}
    for name, table in outputs["tables"].items():
        key = table_artifact_key(artifact_key, name)
        ids[key] = str(create_table_artifact(key=key, table=table["rows"],
                                             description=f"{table['note']} ({', '.join(tasks)})"))
    create_markdown_artifact(key=f"{artifact_key}-details", markdown=outputs["markdown"],
                             description="evaluation tables with per-subset and per-task details")
    return {"results": outputs["results"], "rows": outputs["rows"], "tables": outputs["tables"],
            "table": outputs["table"], "artifact_key": artifact_key, "table_artifact_ids": ids,
            "table_artifact_id": ids.get(artifact_key, "")}


@task(name="evaluate-models", cache_policy=NO_CACHE)
def evaluate_models_task(models: list[str], config_data: dict[str, Any]) -> dict[str, Any]:
    """`evaluation.evaluate_models`: the whole stage in one task (it loads the data once and one model at a
    time). Returns `evaluation_outputs`."""
    from bsl_pipeline.evaluation.config import EvaluationConfig
    from bsl_pipeline.evaluation.runner import evaluate_models

    config = from_dict(EvaluationConfig, config_data)
    out = evaluation_outputs(evaluate_models(models, config, disable_progress=True))
    get_run_logger().info("evaluation\n%s", out["table"])
    return out


@flow(name=FLOW_NAME, description="STS12-16 / STS-B / SICK-R table (and SentEval transfer / STS 2017 tables when "
                                   "asked) for sentence encoders, published as table artifacts")
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
    resolve_data_dir(config.data_dir or None)  # '' = the data dir every command finds (docs/guide/data.md)
