"""The columns of the STS table (the BSL paper's Table 1), named once for every stage that writes or reads it:
the evaluation stage computes them, the end-of-job report and the main job print them."""

from __future__ import annotations

#: SemEval STS 2012-2016, one column per year.
STS_YEARS: tuple[str, ...] = ("sts12", "sts13", "sts14", "sts15", "sts16")
#: The seven evaluated columns, in the paper's order.
STS_TASKS: tuple[str, ...] = STS_YEARS + ("stsb", "sickr")
#: The table's columns: the tasks, then their plain mean.
STS_COLUMNS: tuple[str, ...] = STS_TASKS + ("avg",)
#: Column headers as the paper prints them.
STS_TITLES: dict[str, str] = {
    "sts12": "STS12", "sts13": "STS13", "sts14": "STS14", "sts15": "STS15", "sts16": "STS16",
    "stsb": "STS-B", "sickr": "SICK-R", "avg": "Avg.",
}
