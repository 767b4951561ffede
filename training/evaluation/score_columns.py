"""The columns of the score tables, named once for every stage that writes or reads them: the STS table (the BSL
paper's Table 1), the SentEval transfer table (Table 2) and STS 2017 per language pair (Table 3). The evaluation
stage computes them; the end-of-job report and the main job print them from the evaluation JSON."""

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

#: SentEval transfer tasks (test accuracy x100), in report order, as the paper prints them.
TRANSFER_TITLES: dict[str, str] = {"mr": "MR", "cr": "CR", "subj": "SUBJ", "mpqa": "MPQA", "sst2": "SST-2",
                                   "trec": "TREC", "mrpc": "MRPC", "sicke": "SICK-E"}


def sts17_pair_title(pair: str) -> str:
    """The column header of an STS 2017 language pair: "en-de" -> "EN-DE"."""
    return pair.upper()
