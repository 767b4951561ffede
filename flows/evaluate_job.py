"""The evaluation flow's settings (no Prefect import at module level; see `flows.augment_job`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FLOW_NAME = "bsl-evaluate"
DEFAULT_ARTIFACT_KEY = "bsl-sts-evaluation"


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
        "help": "key of the STS table artifact (lowercase letters, digits, dashes); transfer tasks / STS 2017 go to "
                "<key>-transfer / <key>-sts17, details to <key>-details"})
