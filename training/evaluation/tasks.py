"""The names of the evaluation tasks, in report order, and how a user's task list is read: Table 1's STS tasks
(`training.evaluation.data`), STS 2017 and the SentEval transfer tasks (`training.evaluation.transfer_data`)."""

from __future__ import annotations

from collections.abc import Sequence

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.training.evaluation.data import ALL_TASKS
from bsl_pipeline.training.evaluation.transfer_data import STS17_YEAR, TRANSFER_TASKS


def known_tasks() -> tuple[str, ...]:
    """Every task name `parse_tasks` accepts, in report order: Table 1's seven, STS 2017, the transfer tasks."""
    return ALL_TASKS + (STS17_YEAR,) + TRANSFER_TASKS


def parse_tasks(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """`"sts12,stsb"` or a list -> validated task names in report order; None/empty/"all" -> Table 1's seven;
    "transfer" stands for the eight SentEval transfer tasks."""
    if text is None:
        return ALL_TASKS
    items = [t.strip().lower() for t in (text.split(",") if isinstance(text, str) else text) if t.strip()]
    if not items or items == ["all"]:
        return ALL_TASKS
    aliases = {"sts-b": "stsb", "sick": "sickr", "sick-r": "sickr", "sick-e": "sicke", "sst-2": "sst2",
               "sts": "all"}
    expanded: list[str] = []
    for t in (aliases.get(t, t) for t in items):
        expanded += list(ALL_TASKS) if t == "all" else list(TRANSFER_TASKS) if t == "transfer" else [t]
    known = known_tasks()
    unknown = [t for t in expanded if t not in known]
    if unknown:
        raise InputError(f"unknown task(s) {', '.join(unknown)}; expected a comma-separated subset of "
                         f"{','.join(known)} (or all, transfer)")
    return tuple(t for t in known if t in expanded)
