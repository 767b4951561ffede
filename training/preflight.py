"""What a run's set-up refuses in its settings, checked without loading a model or reading data: `bsl train
--print-config` and the train flow check a config with it before anything starts, so a setting the run would
refuse (no model, a device this machine lacks, a `train.resume` that is no checkpoint, an export of a best checkpoint
that no evaluation writes) is the same one line there.

    check_settings(config, printing=True, config_file=args.config)
"""

from __future__ import annotations

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.training.config import TrainConfig


def check_settings(config: TrainConfig, *, printing: bool = False, config_file: str | None = None,
                   evaluates: bool | None = None) -> None:
    """Raise the BSLError a run's set-up would raise for `config`'s settings: `TrainConfig.validate` (`config_file`
    is named in the advice on a missing model when it is a recipe), the device (`resolve_device`), a `train.resume`
    that names a checkpoint directory (`resume_checkpoint`), an export of a best checkpoint the run cannot write
    (`check_best_export`; `evaluates`: the run is given dev evaluators, None = as its callers build them, when
    eval.stsb_dir is set) and, for a run, the model reference (`check_model_reference`). `printing`
    (--print-config) needs no output dir, and names of hub models are not looked up: a config is printed without a
    network or a filled cache."""
    from bsl_pipeline.pipeline.base.devices import resolve_device
    from bsl_pipeline.pipeline.base.hub import check_model_reference
    from bsl_pipeline.training.checkpoint_files import resume_checkpoint

    config.validate(require_output_dir=not printing, config_file=config_file)
    if not printing:
        check_model_reference(config.model.name_or_path, "model.name_or_path")
    resolve_device(config.train.device)
    if config.train.resume not in (None, "auto"):
        resume_checkpoint(config.train.resume)
    check_best_export(config, bool(config.eval.stsb_dir) if evaluates is None else evaluates)


def check_best_export(config: TrainConfig, evaluates: bool) -> None:
    """export.source=best needs best/, which only an evaluation writes (or an earlier part of this run wrote):
    refused before the model loads, not after the whole run (the export checks again at the end)."""
    from pathlib import Path

    from bsl_pipeline.training.checkpoint_files import CHECKPOINT_JSON
    from bsl_pipeline.training.run_directory import BEST_DIR

    if not config.export.enabled or config.export.source != "best":
        return
    evaluates = evaluates and config.eval.save_best and (config.eval.at_end or config.eval.every_steps > 0)
    if not evaluates and not (Path(config.train.output_dir) / BEST_DIR / CHECKPOINT_JSON).is_file():
        raise BSLError("export.source=best but this run writes no best checkpoint: set eval.stsb_dir (with "
                       "eval.save_best=true and eval.at_end or eval.every_steps), or export.source=final")
