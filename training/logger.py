"""Metrics sinks of a run: metrics.csv / eval.csv (plain, appendable) and TensorBoard events."""

from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.atomic import atomic_path


class CSVLog:
    """Rows of scalars with a fixed header. On resume, rows after the resumed step are dropped so that a step
    logged by the interrupted run is not listed twice."""

    def __init__(self, path: Path, fields: list[str], resume_step: int | None = None):
        self.path = path
        self.fields = fields
        if resume_step is not None and path.is_file():
            with open(path, newline="", encoding="utf-8") as fh:
                rows = [r for r in csv.DictReader(fh) if r.get("step") and int(r["step"]) <= resume_step]
            self._rewrite(rows)
        else:
            self._rewrite([])

    def _rewrite(self, rows: list[dict[str, Any]]) -> None:
        with atomic_path(self.path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=self.fields, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(rows)

    def write(self, row: dict[str, Any]) -> None:
        # Appended only to the plain file _rewrite made: a link put there since is never written through.
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
        with os.fdopen(fd, "a", newline="", encoding="utf-8") as fh:
            csv.DictWriter(fh, fieldnames=self.fields, extrasaction="ignore").writerow(
                {k: _fmt(row.get(k)) for k in self.fields})


def _fmt(value: Any) -> Any:
    if isinstance(value, float):
        return f"{value:.8g}"
    return "" if value is None else value


class RunLogger:
    """Fan-out of scalars to CSV and TensorBoard; a no-op on ranks other than 0."""

    def __init__(self, output_dir: Path, enabled: bool, tensorboard: bool, train_fields: list[str],
                 eval_fields: list[str], resume_step: int | None = None):
        self.enabled = enabled
        self.writer = None
        self._last_text: dict[str, str] = {}
        self.train_csv = self.eval_csv = None
        if not enabled:
            return
        self.train_csv = CSVLog(output_dir / "metrics.csv", train_fields, resume_step)
        self.eval_csv = CSVLog(output_dir / "eval.csv", ["step", *eval_fields, "seconds"], resume_step)
        if tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            # purge_step hides events of steps the interrupted run logged after its last checkpoint.
            self.writer = SummaryWriter(str(output_dir / "tensorboard"),
                                        purge_step=(resume_step + 1) if resume_step is not None else None)

    def log_train(self, step: int, row: dict[str, Any]) -> None:
        self._log(self.train_csv, "train", step, row)

    def log_eval(self, step: int, row: dict[str, Any]) -> None:
        self._log(self.eval_csv, "eval", step, row)

    def _log(self, sink: CSVLog | None, group: str, step: int, row: dict[str, Any]) -> None:
        if not self.enabled:
            return
        sink.write({"step": step, **row})
        if self.writer is not None:
            for key, value in row.items():
                # NaN (an undefined correlation, a zero-length timing window) would only break the plot.
                if isinstance(value, (int, float)) and key != "step" and value == value:
                    self.writer.add_scalar(f"{group}/{key}", value, step)
                elif isinstance(value, str) and self._last_text.get(key) != value:
                    # A text value (the training phase) is written when it changes: the step where it began.
                    self._last_text[key] = value
                    self.writer.add_text(f"{group}/{key}", value, step)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
