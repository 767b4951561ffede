"""The table of experiments/views_round/value.sh: per set of views, the mean over its seeds of each STS test task
(the "after BSL" line of each run's log) and of STS-B dev (score_dev.py's dev.json), with the seeds' averages.

    python experiments/views_round/value.py OUT_DIR
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from pathlib import Path

TASKS = ["sts12", "sts13", "sts14", "sts15", "sts16", "stsb", "sickr", "avg"]


def main() -> None:
    out = Path(sys.argv[1])
    dev = {}
    if (out / "dev.json").exists():
        for row in json.loads((out / "dev.json").read_text()):
            dev[Path(row["model"]).parts[-4]] = row
    print("| views | " + " | ".join(TASKS) + " | seeds' averages | STS-B dev |")
    print("|---|" + "---:|" * len(TASKS) + "---|---:|")
    for cond in ("base", "rw", "rwonly", "rwm"):
        scores = {t: [] for t in TASKS}
        devs = []
        for log in sorted(out.glob(f"{cond}-*.log")):
            line = next(x for x in log.read_text().splitlines() if "after BSL" in x)
            for t in TASKS:
                scores[t].append(float(re.search(rf"{t} ([\d.]+)", line).group(1)))
            row = dev.get(log.stem)
            if row:
                devs.append(row["stsb_dev"])
        if not scores["avg"]:
            continue
        cells = " | ".join(f"{statistics.mean(scores[t]):.2f}" for t in TASKS)
        seeds = ", ".join(f"{v:.2f}" for v in scores["avg"])
        dev_cell = f"{statistics.mean(devs):.2f}" if devs else "-"
        print(f"| {cond} | {cells} | {seeds} | {dev_cell} |")


if __name__ == "__main__":
    main()
