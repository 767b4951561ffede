"""A run's output_dir: what it holds, and whether this run may write into it.

```
<output_dir>/config.yaml              the run's config
<output_dir>/checkpoints/step-<N>/    periodic resumable checkpoints (train.save_every; newest keep_checkpoints;
                                      removed once final/ is written, unless keep_checkpoints_after_final)
<output_dir>/final/                   resumable checkpoint of a completed run
<output_dir>/best/                    encoder + json of the best headline dev metric (not resumable)
<output_dir>/export/                  sentence-transformers dir (export.dir elsewhere)
<output_dir>/.bsl-output.json         marker: a bsl "training-run" directory (pipeline.base.ownership)
<output_dir>/.bsl-lock                the running process's writer lock (one run per directory)
```

`training.checkpoint.Checkpointer` is the one writer and reader of it (logs aside). `claim_run_directory` makes it
this run's under pipeline.base.ownership's rules (`train.overwrite=true` sets RUN_ENTRIES aside), counting a
directory that a run wrote before markers existed as a training run's, and takes its writer lock (rank 0, held from
set-up to close).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.ownership import WriterLock, check_not_input, claim_directory
from bsl_pipeline.training.checkpoint_files import CHECKPOINT_JSON, list_checkpoints

if TYPE_CHECKING:
    from bsl_pipeline.training.config import DataSourceConfig, ExportConfig, TrainLoopConfig
    from bsl_pipeline.training.distributed import DistInfo

FINAL_DIR = "final"
BEST_DIR = "best"
CHECKPOINTS_DIR = "checkpoints"
EXPORT_DIR = "export"
RUN_KIND = "training-run"
#: What a run writes into its output_dir: replaced only in a directory that is ours, set aside on --overwrite.
RUN_ENTRIES = ("config.yaml", "metrics.csv", "eval.csv", "tensorboard", CHECKPOINTS_DIR, FINAL_DIR, BEST_DIR,
               EXPORT_DIR, "train_done.json")


def _written_by_bsl_before_markers(directory: Path) -> bool:
    """A run directory from before output markers: a finished or checkpointed run left its files here."""
    return ((directory / FINAL_DIR / CHECKPOINT_JSON).is_file() or bool(list_checkpoints(directory / CHECKPOINTS_DIR))
            or (directory / "train_done.json").is_file())


def _source_paths(path: str) -> list[str]:
    """A data source and, when it is a registered manifest (a registry JSON), the dataset directory it names:
    the run may overlap neither."""
    from bsl_pipeline.pipeline.dataset.manifest import MANIFEST_NAME, load_manifest

    paths = [path]
    source = Path(path).expanduser()
    if source.is_file() and source.name != MANIFEST_NAME:
        try:
            root = load_manifest(source).root
        except BSLError:
            root = None  # reading the data reports what is wrong with it
        if root is not None:
            paths.append(str(root))
    return paths


def claim_run_directory(train: TrainLoopConfig, dist: DistInfo, *, sources: list[DataSourceConfig], model_path: str,
                        export: ExportConfig) -> WriterLock | None:
    """Make train.output_dir this run's (see the module docstring) and take its writer lock (rank 0; the lock is
    returned, to be released when the run ends). Refuses an output_dir that overlaps a dataset (`sources`) or the
    model dir (`model_path`), an export.dir that overlaps either or the run or that is not this run's export
    (`training.export.check_export_dir`), and a URL for either (checkpoints are written to a local directory;
    datasets may be URLs)."""
    from bsl_pipeline.pipeline.base.storage import is_url

    for key, value in (("train.output_dir", train.output_dir), ("export.dir", export.dir)):
        if is_url(value):
            raise BSLError(f"{key}={value}: checkpoints and exports are written to a local directory, not to a URL "
                           f"(datasets may be URLs); give a local path and copy the run to the store afterwards")
    out = Path(train.output_dir)
    inputs = [p for s in sources if s.path and not is_url(s.path) for p in _source_paths(s.path)]
    if model_path and Path(model_path).expanduser().exists():
        inputs.append(model_path)
    check_not_input(out, inputs, what="train.output_dir")
    if export.enabled and export.dir:
        from bsl_pipeline.training.export import check_export_dir

        # Claimed at the end of the run, checked now: never the model, a dataset or this run's directory, nor a
        # link, nor a directory of someone else's or another run's export (without train.overwrite).
        check_not_input(export.dir, inputs, what="export.dir")
        check_not_input(export.dir, [out], what="export.dir", other="train.output_dir")
        check_export_dir(Path(export.dir), train.overwrite, out)
    if not dist.is_main:
        return None
    claim_directory(out, RUN_KIND, overwrite=train.overwrite, own_names=RUN_ENTRIES,
                    recognise=_written_by_bsl_before_markers)
    lock = WriterLock(out, what="training run")
    lock.acquire()
    return lock
