"""Train -> evaluate, the one orchestration of it: what the main job (`bsl demo`) and the train flow
(`bsl flow train`) both call.

    train_and_evaluate(train_config, eval_config=None, baselines=(...)) -> TrainEvalResult

The one cache rule lives here: a finished run is recognised by its own completion record,
`<train.output_dir>/train_done.json`, written after a completed `training.train` and holding the run's key
(`run_key`: the fingerprint of the settings that shape the result and of the datasets' pair shards). A rerun with
the same key finds the record, checks it as untrusted input (format, key, types; `final/` and the export must be
there and agree with it) and trains nothing. Evaluation always runs again on the trained model (and the
`baselines`); its embeddings are cached by `evaluation` (`EvaluationConfig.cache_dir`), so a rerun only
recomputes the scores.

Not for torchrun: the record is written by this process alone (`bsl train` is the DDP entry point).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bsl_pipeline.pipeline.base.atomic import write_json_atomic
from bsl_pipeline.pipeline.base.config import fingerprint_dict
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.fingerprint import fingerprint
from bsl_pipeline.training.config import ExportConfig, TrainConfig, TrainLoopConfig

if TYPE_CHECKING:
    from bsl_pipeline.evaluation.config import EvaluationConfig
    from bsl_pipeline.evaluation.runner import ModelResult

log = logging.getLogger(__name__)

DONE_FILE = "train_done.json"
DONE_FORMAT = 1


# -- steps: what the main job reports (and `bsl demo` prints) ------------------------------------------------------
@dataclass
class StepRecord:
    """One step of a job: its time, and whether it was served from cache."""

    step: str
    seconds: float
    cached: bool


# Called with a step's name when it starts, and with its record when it is done.
StepStarted = Callable[[str], None]
StepDone = Callable[[StepRecord], None]


class StepTimer:
    """Times each step and records whether it was served from cache; tells the callbacks about it."""

    def __init__(self, on_start: StepStarted | None = None, on_done: StepDone | None = None) -> None:
        self.records: list[StepRecord] = []
        self.on_start, self.on_done = on_start, on_done

    def run(self, name: str, fn: Callable[..., tuple[Any, bool]], *args: Any, **kwargs: Any) -> Any:
        """`fn(*args, **kwargs)` returns (value, cached); returns the value."""
        if self.on_start is not None:
            self.on_start(name)
        start = time.perf_counter()
        value, cached = fn(*args, **kwargs)
        self.add(StepRecord(name, round(time.perf_counter() - start, 2), cached))
        return value

    def add(self, record: StepRecord) -> None:
        self.records.append(record)
        if self.on_done is not None:
            self.on_done(record)


# -- results ---------------------------------------------------------------------------------------------------------
@dataclass
class TrainedRun:
    """The training step's outcome, from a run just trained or from the completion record of a finished one."""

    run_dir: str
    step: int
    total_steps: int
    completed: bool
    final_checkpoint: str | None
    export_dir: str | None
    best_checkpoint: str | None
    best_metric: float | None
    final_loss: float | None
    metrics_csv: str

    @property
    def model(self) -> str:
        """What evaluation reads: the export, else the final (or last) checkpoint."""
        model = self.export_dir or self.final_checkpoint
        if model is None:
            raise BSLError(f"{self.run_dir}: training produced neither an export nor a checkpoint")
        return model


@dataclass
class TrainEvalResult:
    """`run` the trained (or reused) run; `reused` True when nothing was trained; `evaluation` maps a model name
    to its result, baselines first and the trained model last (None when not evaluated); `steps` the train and
    evaluate steps' records."""

    run: TrainedRun
    reused: bool
    evaluation: dict[str, ModelResult] | None = None
    steps: list[StepRecord] = field(default_factory=list)


# -- the one cache rule ----------------------------------------------------------------------------------------------
def dataset_identity(path: str) -> list[str]:
    """The data a source contributes: the sha256 of its pair shards (not the manifest's own checksum: a rerun of
    the augmentation rewrites the manifest with new timings while the shards stay the same)."""
    from bsl_pipeline.pipeline.dataset.store import load_manifest

    manifest = load_manifest(path)
    shards = manifest.shards_of("pairs")
    if not shards:
        raise BSLError(f"{path}: the manifest lists no pair shards with a sha256")
    return [s.sha256 for s in shards]


def run_key(config: TrainConfig) -> str:
    """The fingerprint of what a run learns: its settings (less those marked `in_run_key=False`, which say where
    or how a run is carried out) with each data source's path replaced by its data (`dataset_identity`), so the same
    datasets named by another path are the same run."""
    settings = fingerprint_dict(config)
    settings["data"]["sources"] = [{**{k: v for k, v in source.items() if k != "path"},
                                    "data": dataset_identity(source["path"])}
                                   for source in settings["data"]["sources"]]
    return fingerprint({"format": DONE_FORMAT, "settings": settings})


def _paths(train: TrainLoopConfig, export_config: ExportConfig) -> dict[str, Path | None]:
    run_dir = Path(train.output_dir)
    export = ((Path(export_config.dir) if export_config.dir else run_dir / "export") if export_config.enabled
              else None)
    return {"run_dir": run_dir, "final": run_dir / "final", "export": export, "best": run_dir / "best"}


def _read_done(path: Path) -> dict[str, Any]:
    """The completion record, checked as untrusted input: a JSON object of the known format with typed fields."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise BSLError(f"{path}: unreadable completion record ({exc}); delete it to train again") from None
    expected = {"format": int, "key": str, "step": int, "total_steps": int}
    problems = [k for k, t in expected.items() if not isinstance(record, dict) or type(record.get(k)) is not t]
    if not problems:
        problems = [k for k in ("best_metric", "final_loss")
                    if record.get(k) is not None and type(record.get(k)) not in (int, float)]
    if problems:
        raise BSLError(f"{path}: not a completion record (bad or missing {', '.join(problems)}); delete it to "
                       f"train again")
    if record["format"] != DONE_FORMAT:
        raise BSLError(f"{path}: completion record format {record['format']}, this version reads {DONE_FORMAT}; "
                       f"delete it to train again")
    return record


def finished_run(train: TrainLoopConfig, export: ExportConfig, key: str) -> TrainedRun | None:
    """The finished run of run key `key` (`run_key(config)`) in `train.output_dir`, or None when there is none to
    reuse (no record, a record of other settings or data, or outputs that no longer match it: then a warning says
    why)."""
    paths = _paths(train, export)
    done = paths["run_dir"] / DONE_FILE
    if not done.is_file():
        return None
    record = _read_done(done)
    if record["key"] != key:
        log.info("%s: a run of other settings or data finished here; not reused", done)
        return None
    problem = _outputs_problem(paths, record)
    if problem:
        log.warning("%s: the finished run's outputs are damaged (%s); training again", done, problem)
        return None
    return _trained_run(paths, record)


def _outputs_problem(paths: dict[str, Path | None], record: dict[str, Any]) -> str | None:
    from bsl_pipeline.training.checkpoint_files import checkpoint_problem, read_checkpoint_json

    problem = checkpoint_problem(paths["final"])
    if problem:
        return f"final/: {problem}"
    if int(read_checkpoint_json(paths["final"])["step"]) != record["step"]:
        return "final/ holds another step than the record"
    if paths["export"] is not None and not (paths["export"] / "modules.json").is_file():
        return f"export {paths['export']} missing"
    return None


def _trained_run(paths: dict[str, Path | None], record: dict[str, Any]) -> TrainedRun:
    from bsl_pipeline.training.checkpoint_files import CHECKPOINT_JSON  # torch: only once there is a run to reuse

    best = paths["best"]
    return TrainedRun(run_dir=str(paths["run_dir"]), step=record["step"], total_steps=record["total_steps"],
                      completed=True, final_checkpoint=str(paths["final"]),
                      export_dir=str(paths["export"]) if paths["export"] is not None else None,
                      best_checkpoint=str(best) if (best / CHECKPOINT_JSON).is_file() else None,
                      best_metric=record.get("best_metric"), final_loss=record.get("final_loss"),
                      metrics_csv=str(paths["run_dir"] / "metrics.csv"))


def train_or_reuse(config: TrainConfig, disable_progress: bool | None = None) -> tuple[TrainedRun, bool]:
    """The finished run of `config` when there is one (True: reused), else `training.train(config)` and, when it
    completed, its completion record (False)."""
    if not config.train.output_dir:
        raise BSLError("train.output_dir is empty: a run needs a directory (its completion record lives there)")
    key = run_key(config)
    reused = finished_run(config.train, config.export, key)
    if reused is not None:
        return reused, True
    from bsl_pipeline.evaluation.runner import dev_evaluators
    from bsl_pipeline.training.trainer import train

    result = train(config, evaluators=dev_evaluators(config.eval), disable_progress=disable_progress)
    paths = _paths(config.train, config.export)
    final_loss = result.metrics.get("final_loss")
    record = {"format": DONE_FORMAT, "key": key, "step": result.step, "total_steps": result.total_steps,
              "best_metric": result.best_metric, "final_loss": float(final_loss) if final_loss is not None else None}
    run = TrainedRun(run_dir=str(paths["run_dir"]), step=result.step, total_steps=result.total_steps,
                     completed=result.completed,
                     final_checkpoint=str(result.final_checkpoint) if result.final_checkpoint else None,
                     export_dir=str(result.export_dir) if result.export_dir else None,
                     best_checkpoint=str(result.best_checkpoint) if result.best_checkpoint else None,
                     best_metric=result.best_metric, final_loss=record["final_loss"],
                     metrics_csv=str(paths["run_dir"] / "metrics.csv"))
    if result.not_applied:
        # The finished run in the output dir was trained with other settings: its record (and key) stay its own,
        # and its scores are not reported as those of these settings.
        raise BSLError(f"{paths['run_dir']} holds a finished run trained with other settings "
                       f"({'; '.join(result.not_applied)}): nothing was trained and its completion record is kept; "
                       f"to train with these settings, choose another train.output_dir")
    if result.completed:  # a run stopped at train.stop_at_step is resumed, never reused
        write_json_atomic(paths["run_dir"] / DONE_FILE, record)
    return run, False


# -- the job ---------------------------------------------------------------------------------------------------------
def _evaluate(models: list[str], config: EvaluationConfig,
              disable_progress: bool | None) -> tuple[dict[str, ModelResult], bool]:
    from bsl_pipeline.evaluation.runner import evaluate_models

    # The embeddings are cached inside evaluate_models (config.cache_dir); the scores are recomputed (cheap).
    return evaluate_models(models, config, disable_progress=disable_progress), False


def train_and_evaluate(train_config: TrainConfig, eval_config: EvaluationConfig | None = None, *,
                       baselines: Sequence[str] = (), disable_progress: bool | None = None,
                       steps: StepTimer | None = None) -> TrainEvalResult:
    """Train (or reuse the finished run, see `train_or_reuse`), then, with `eval_config`, evaluate `baselines` and
    the trained model (its export, else its final checkpoint) in one `evaluate_models` call. `steps` times the
    "train" and "evaluate" steps (the main job passes its own, whose callbacks `bsl demo` prints)."""
    timer = steps if steps is not None else StepTimer()
    first = len(timer.records)
    run = timer.run("train", train_or_reuse, train_config, disable_progress)
    reused = timer.records[-1].cached
    evaluation = None
    if eval_config is not None:
        evaluation = timer.run("evaluate", _evaluate, [*baselines, run.model], eval_config, disable_progress)
    return TrainEvalResult(run=run, reused=reused, evaluation=evaluation, steps=timer.records[first:])

