"""The training flow's settings (no Prefect import at module level; see `flows.augment_job`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bsl_pipeline.flows.evaluate_job import DEFAULT_ARTIFACT_KEY

FLOW_NAME = "bsl-train"


@dataclass
class TrainFlowConfig:
    """One training flow: what `bsl flow train` runs and a schedule file's `train:` section holds."""

    manifests: list[str] = field(default_factory=list, metadata={
        "help": "dataset dirs or manifest JSONs; replace data.sources (like `bsl train --manifest`); [] = keep "
                "the config's data.sources"})
    config_file: str = field(default="", metadata={"help": "TrainConfig YAML (as `bsl train --config`)"})
    recipe: str = field(default="", metadata={
        "help": "start from this recipe (as `bsl train --recipe`; `bsl recipes`), under config_file, the inline keys "
                "and the overrides; '' = none (with no config_file and no model: the default recipe)"})
    train: dict[str, Any] = field(default_factory=dict, metadata={
        "help": "TrainConfig keys inline (over config_file), e.g. {train: {output_dir: runs/nightly/{date}}}; "
                "{date} (UTC) and {flow_run} (run name) in train.output_dir are filled in per run"})
    overrides: list[str] = field(default_factory=list, metadata={"help": "TrainConfig overrides key=value"})
    verify: bool = field(default=True, metadata={
        "help": "verify every shard checksum in a flow task first (the trainer then skips its own pass)"})
    retries: int = field(default=0, metadata={
        "help": "retries of the training task; a retry resumes from the latest checkpoint"})
    evaluate: bool = field(default=False, metadata={
        "help": "after training, evaluate the exported model (else the final checkpoint) and publish the table "
                "artifacts as the evaluation flow does"})
    evaluation: dict[str, Any] = field(default_factory=dict, metadata={
        "help": "EvaluationConfig keys for that evaluation (data_dir '' = the data dir found as docs/guide/data.md "
                "says)"})
    artifact_key: str = field(default=DEFAULT_ARTIFACT_KEY, metadata={"help": "table artifact key of it"})
