"""How every flow resolves the config of the stage it runs (no Prefect import: `bsl schedule` checks schedule
files before Prefect is configured)."""

from __future__ import annotations

from typing import Any


def layered_config(cls: type, config_file: str = "", inline: dict[str, Any] | None = None,
                   overrides: list[str] | None = None, defaults: dict[str, Any] | None = None):
    """defaults (the dataclass's, then `defaults`) <- config_file <- inline keys <- `key=value` overrides,
    type-checked into `cls`.

    What flows and schedule entries use: a shared YAML file (the one the stage's own command takes with
    --config), keys written inline in the schedule entry, then overrides."""
    from bsl_pipeline.pipeline.base.config import load_config, load_yaml, merge_dicts

    base = merge_dicts(defaults or {}, load_yaml(config_file) if config_file else {})
    if inline:
        base = merge_dicts(base, inline)
    return load_config(cls, None, list(overrides or []), base=base or None)
