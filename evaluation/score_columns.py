"""The columns of the score tables, named once for every stage that writes or reads them: the STS table (the BSL
paper's Table 1), the SentEval transfer table (Table 2) and STS 2017 per language pair (Table 3). They are read
from the task records (evaluation.tasks); the evaluation stage computes them, the end-of-job report and
the main job print them from the evaluation JSON."""

from __future__ import annotations

from bsl_pipeline.evaluation.tasks import ALL_TASKS, TASKS

#: The seven evaluated columns, in the paper's order.
STS_TASKS: tuple[str, ...] = ALL_TASKS
#: The table's columns: the tasks, then their plain mean.
STS_COLUMNS: tuple[str, ...] = STS_TASKS + ("avg",)
#: Column headers as the paper prints them.
STS_TITLES: dict[str, str] = {t.name: t.title for t in TASKS if t.table == "sts"} | {"avg": "Avg."}

#: SentEval transfer tasks (test accuracy x100), in report order, as the paper prints them.
TRANSFER_TITLES: dict[str, str] = {t.name: t.title for t in TASKS if t.table == "transfer"}


def sts17_pair_title(pair: str) -> str:
    """The column header of an STS 2017 language pair: "en-de" -> "EN-DE"."""
    return pair.upper()
