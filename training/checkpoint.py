"""The trainer's checkpointer: everything a run writes to or reads from its output_dir besides the logs.

What a checkpoint directory holds and the functions that read and write its files: `training.checkpoint_files`;
the output_dir's layout and who may write it: `training.run_directory`; the random state: `training.rng_state`;
the sentence-transformers export: `training.export`.
"""

from __future__ import annotations

import json
import logging
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch

from bsl_pipeline.pipeline.base.atomic import write_text_atomic
from bsl_pipeline.pipeline.base.config import to_dict
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.publish import publish_directory, require_folder, staging_dir
from bsl_pipeline.training.checkpoint_files import (
    CHECKPOINT_JSON,
    ENCODER_DIR,
    FORMAT_VERSION,
    RNG_DIR,
    STATE_FILE,
    check_fresh_run,
    checkpoint_dirs,
    choose_resume_checkpoint,
    load_objective_state,
    load_state,
    ordinary_file_modes,
    prune_checkpoints,
    read_checkpoint_json,
    remove_superseded_checkpoints,
    resume_checkpoint,
    rng_path,
    save_state,
    split_encoder_weights,
    state_dict_problem,
    step_dir_name,
    write_checkpoint_json,
)
from bsl_pipeline.training.config import (
    RESUME_MUST_MATCH,
    RESUME_WARNS,
    ExportConfig,
    ModelConfig,
    TrainConfig,
    TrainLoopConfig,
)
from bsl_pipeline.training.distributed import barrier
from bsl_pipeline.training.rng_state import capture_rng_state, restore_rng_state
from bsl_pipeline.training.run_directory import BEST_DIR, CHECKPOINTS_DIR, EXPORT_DIR, FINAL_DIR

if TYPE_CHECKING:
    from bsl_pipeline.training.batch_source import BatchSource
    from bsl_pipeline.training.distributed import DistInfo
    from bsl_pipeline.training.objectives.base import Objective
    from bsl_pipeline.training.phases import PhasePolicy
    from bsl_pipeline.training.run_state import RunState

log = logging.getLogger(__name__)


def _get(tree: dict[str, Any], dotted: str) -> Any:
    for part in dotted.split("."):
        tree = tree.get(part) if isinstance(tree, dict) else None
    return tree


def _leaves(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A nested settings dict as dotted keys -> values (a list or an empty section is one value)."""
    flat: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, dict) and value:
            flat.update(_leaves(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _show(value: Any) -> str:
    """A setting's value as a user writes it in -o (null, true, 0.001, [..])."""
    return json.dumps(value) if not isinstance(value, str) else value


# Settings that say where or how a run is carried out (not in the run key), and stop_at_step, which says only where
# this invocation stops: a rerun of a finished run that changes them asks for nothing that was not done.
def _carrying_out_keys() -> frozenset[str]:
    from bsl_pipeline.pipeline.base.config import fingerprint_dict

    defaults = TrainConfig()
    return frozenset(set(_leaves(to_dict(defaults))) - set(_leaves(fingerprint_dict(defaults)))
                     | {"train.stop_at_step"})


@contextmanager
def interrupt_after_writing() -> Iterator[None]:
    """Ctrl-C (SIGINT) while a checkpoint is written takes effect once it is written, as KeyboardInterrupt: a
    checkpoint is seconds of writing, and an interrupt inside torch.save or save_pretrained surfaces as another
    error and leaves the directory half-built. Only in the main thread, and only where SIGINT has Python's default
    handler (a host that installed its own keeps it)."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: received.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        raise KeyboardInterrupt


class Checkpointer:
    """Which checkpoint to resume from and loading it (weights, optimizer, GradScaler, run state, data position,
    RNG), periodic checkpoints and their pruning, final/, best/ and the export. Each directory is built under a
    staging name and published whole (`pipeline.base.publish`). Rank 0 writes shared files; every rank writes (and
    reads) its own RNG state.

    It holds the long-lived parts of a run (set up once); what changes per step comes in as `RunState` and the
    data position."""

    def __init__(self, settings: dict[str, Any], train: TrainLoopConfig, model: ModelConfig, export: ExportConfig,
                 dist: DistInfo, *, sources: list[Any], objective: Objective, tokenizer: Any,
                 optimizer: torch.optim.Optimizer, scaler: torch.amp.GradScaler | None, phases: PhasePolicy,
                 headline_metric: str | None, device: torch.device):
        # `settings` is the run's whole config as data (to_dict): what config.yaml, every checkpoint and the model
        # card record, and what a resume compares; the sections are what the checkpointer itself acts on.
        self.settings = settings
        self.train = train
        self.model = model
        self.export_config = export
        self.output_dir = Path(train.output_dir)
        self.dist = dist
        self.sources = sources
        self.objective = objective
        self.tokenizer = tokenizer
        self.optimizer = optimizer
        self.scaler = scaler
        self.phases = phases
        self.headline_metric = headline_metric
        self.device = device
        self.resumed_settings: dict[str, Any] | None = None  # the config recorded by the checkpoint resumed from
        self.resumed_total_steps: Any = None                  # and the length of its schedule

    # -- resume ------------------------------------------------------------------------------------------------
    def resume_path(self) -> Path | None:
        """The checkpoint `train.resume` asks for: None = a fresh run (refused when checkpoints exist), "auto" =
        the latest one (see choose_resume_checkpoint), or a path."""
        resume = self.train.resume
        found = checkpoint_dirs(self.output_dir / CHECKPOINTS_DIR, self.output_dir / FINAL_DIR)
        if resume is None:
            check_fresh_run(self.output_dir, found)
            return None
        if resume == "auto":
            if not found and self.dist.is_main:
                # auto = "continue if there is something" (the recipes and the main job ask for it): a fresh start
                # is said in one warning line the user sees; `bsl train --resume` refuses instead (nothing to resume).
                log.warning("train.resume=auto: no checkpoint in %s, starting from step 0", self.output_dir)
            return choose_resume_checkpoint(found, self.train.resume_fallback, self.dist.rank)
        return resume_checkpoint(resume, self.dist.rank)

    def resume(self, path: Path, state: RunState, batches: BatchSource) -> None:
        """Load `path` into the objective, optimizer, GradScaler, `state`, `batches` and this process's RNG, after
        checking that it continues this run (same settings that shape the data or loss, same world size, same
        datasets)."""
        info = read_checkpoint_json(path)
        problem = self._other_run(info)
        if problem:
            raise BSLError(f"cannot resume from {path}: {problem}")
        self.resumed_settings, self.resumed_total_steps = info.get("config", {}), info.get("total_steps")
        saved_state = load_state(path / STATE_FILE, map_location=self.device)
        objective_state = load_objective_state(path, self.device, saved_state)
        problem = state_dict_problem(objective_state, self.objective.state_dict())
        if problem:
            raise BSLError(f"{path / STATE_FILE}: cannot resume: {problem}")
        self.objective.load_state_dict(objective_state)
        self.optimizer.load_state_dict(saved_state["optimizer"])
        if self.scaler is not None and saved_state.get("scaler"):
            self.scaler.load_state_dict(saved_state["scaler"])
        state.restore(int(saved_state["step"]), saved_state.get("run", {}), path)
        batches.restore(saved_state["data"])
        restore_rng_state(load_state(rng_path(path, self.dist.rank)))

    def _other_run(self, info: dict[str, Any]) -> str | None:
        """Why the checkpoint described by `info` does not continue this run (None when it does): a setting that
        shapes the data or the loss (RESUME_MUST_MATCH), the world size or the datasets differ, or bad types."""
        try:
            return self._differences(info)
        except (TypeError, ValueError, AttributeError) as exc:
            return f"its record is not one this trainer writes ({type(exc).__name__}: {exc})"

    def _differences(self, info: dict[str, Any]) -> str | None:
        in_use = self.settings["objective"]["name"]
        keys = [k for k in RESUME_MUST_MATCH if k != "objective"] + ["objective.name", f"objective.{in_use}"]
        changed = self._changes(info.get("config", {}), keys)
        if changed:
            return (f"these settings differ from the checkpoint's: {'; '.join(changed)} (they change which data "
                    f"each step sees or the loss)")
        if int(info.get("world_size", 1)) != self.dist.world_size:
            return f"it was written by {info.get('world_size')} process(es), this run has {self.dist.world_size}"
        recorded = info.get("data", {}).get("sources", [])
        old_sums = [s.get("manifest_checksum") for s in recorded]
        # Checkpoints written before shard digests were recorded carry none: their manifest checksum decides.
        old_shards = [s.get("shards_digest") or source.shards_digest for s, source in zip(recorded, self.sources)]
        if old_sums != [s.manifest_checksum for s in self.sources] or \
                old_shards != [s.shards_digest for s in self.sources][:len(old_shards)]:
            changed = [s.name for s, r in zip(self.sources, recorded)
                       if r.get("manifest_checksum") != s.manifest_checksum
                       or (r.get("shards_digest") or s.shards_digest) != s.shards_digest]
            names = ", ".join(changed) or "a different list of datasets"
            return (f"the training datasets changed since the checkpoint ({names}: manifest checksum or shard "
                    f"sha256 differ)")
        return None

    def changed_settings(self, keys: list[str] | tuple[str, ...]) -> list[str]:
        """Of `keys`, those whose value in this run differs from the resumed checkpoint's config (`_changes`)."""
        return self._changes(self.resumed_settings or {}, keys)

    def _changes(self, saved: dict[str, Any], keys: list[str] | tuple[str, ...]) -> list[str]:
        """The settings under `keys` (a key or a section) whose value in this run differs from `saved` (a
        checkpoint's config), as "key old -> new"; a key the checkpoint does not record had its default then.
        The datasets are compared without their paths: the same dataset named another way (./ds, an absolute
        path, its manifest.json, a URL) is the same data, which the manifest and shard checksums then decide."""
        old_values = {**_leaves(to_dict(TrainConfig())), **_leaves(saved)}
        new_values = _leaves(self.settings)
        for values in (old_values, new_values):
            values["data.sources"] = [{k: v for k, v in source.items() if k != "path"} if isinstance(source, dict)
                                      else source for source in values.get("data.sources") or []]
        wanted = [k for k in dict.fromkeys([*new_values, *old_values])
                  if any(k == key or k.startswith(f"{key}.") for key in keys)]
        return [f"{k} {_show(old_values.get(k))} -> {_show(new_values.get(k))}" for k in wanted
                if old_values.get(k) != new_values.get(k)]

    def schedule_changes(self, step: int) -> str | None:
        """After a resume at `step` with steps left: the settings of RESUME_WARNS this run changes ("key old ->
        new"), with the encoder's learning rate for the next step under the checkpoint's settings and under these;
        None when none changed."""
        from dataclasses import fields, replace

        from bsl_pipeline.training.config import OptimConfig
        from bsl_pipeline.training.phases import ENCODER_GROUP, PhasePolicy

        changed = self.changed_settings(RESUME_WARNS)
        if not changed:
            return None
        now = self.phases.lrs(step)[ENCODER_GROUP]
        known = {f.name for f in fields(OptimConfig)}
        try:  # the checkpoint's record is untrusted: without usable values the line says less
            saved_optim = {k: v for k, v in (self.resumed_settings or {}).get("optim", {}).items() if k in known}
            before = PhasePolicy(self.phases.head, int(self.resumed_total_steps),
                                 replace(self.phases.optim, **saved_optim)).lrs(step)[ENCODER_GROUP]
            was = f" (the checkpoint's settings: {before:.2e})"
        except (TypeError, ValueError, AttributeError, ArithmeticError):
            was = ""
        return (f"{'; '.join(changed)}: the rest of the run follows these settings; the learning-rate schedule now "
                f"runs to step {self.phases.total_steps} and gives step {step + 1} lr {now:.2e}{was}")

    def settings_not_applied(self) -> list[str]:
        """For a rerun of a finished run (nothing is trained or written): the settings of what a run learns and
        exports in which this config differs from the finished run's ("key old -> new"). The datasets are
        compared by identity at resume; only the objective in use counts."""
        active = f"objective.{self.settings['objective']['name']}."
        skip = _carrying_out_keys()
        keys = [k for k in _leaves(self.settings) if k not in skip and k != "data.sources"
                and (not k.startswith("objective.") or k == "objective.name" or k.startswith(active))]
        return self.changed_settings(keys)

    def _continues_this_run(self, path: Path) -> bool:
        """Whether checkpoint `path` is one this run could have resumed from (`_other_run`)."""
        try:
            return self._other_run(read_checkpoint_json(path)) is None
        except BSLError:
            return False

    # -- writing -----------------------------------------------------------------------------------------------
    def write_config(self) -> None:
        """output_dir/config.yaml: the run's full config (rank 0)."""
        import yaml

        if self.dist.is_main:
            self.output_dir.mkdir(parents=True, exist_ok=True)
            write_text_atomic(self.output_dir / "config.yaml", yaml.safe_dump(self.settings, sort_keys=False))

    @interrupt_after_writing()
    def save(self, directory: Path, state: RunState, data_position: dict[str, Any]) -> Path:
        """A resumable checkpoint (call on every rank): rank 0 writes the shared state, every rank its RNG. Ctrl-C
        takes effect once it is written (`interrupt_after_writing`)."""
        rng_dir = directory.parent / f".{directory.name}.rng"
        if self.dist.is_main:
            directory.parent.mkdir(parents=True, exist_ok=True)
            require_folder(rng_dir, "its own folder of RNG states")  # never written through a planted link
            rng_dir.mkdir(parents=True, exist_ok=True)
        barrier()
        save_state(rng_dir / f"rank-{self.dist.rank}.pt", capture_rng_state())
        barrier()
        if self.dist.is_main:
            staging = staging_dir(directory)
            self.objective.encoder.save_pretrained(staging / ENCODER_DIR, self.tokenizer)
            save_state(staging / STATE_FILE, self._trainer_state(state, data_position, staging))
            rng_dir.rename(staging / RNG_DIR)
            write_checkpoint_json(staging, self._info(state, data_position, resumable=True))
            ordinary_file_modes(staging)
            publish_directory(staging, directory)
        barrier()
        return directory

    def save_periodic(self, state: RunState, data_position: dict[str, Any]) -> Path:
        """checkpoints/step-N, keeping the newest train.keep_checkpoints of them."""
        path = self.save(self.output_dir / CHECKPOINTS_DIR / step_dir_name(state.step), state, data_position)
        if self.dist.is_main:
            prune_checkpoints(self.output_dir / CHECKPOINTS_DIR, self.train.keep_checkpoints)
        return path

    def save_last(self, state: RunState, data_position: dict[str, Any], completed: bool) -> Path:
        """final/ for a completed run, else the periodic checkpoint of the step it stopped at (keeping the newest
        train.keep_checkpoints, as every periodic one). A completed run then
        removes its periodic checkpoints (the ones it could have resumed from), unless
        train.keep_checkpoints_after_final."""
        if completed:
            final = self.save(self.output_dir / FINAL_DIR, state, data_position)
            if self.dist.is_main and not self.train.keep_checkpoints_after_final:
                removed = remove_superseded_checkpoints(self.output_dir / CHECKPOINTS_DIR, state.step,
                                                        self._continues_this_run)
                if removed:
                    log.info("removed %d periodic checkpoint(s) of this run that %s supersedes (keep them with "
                             "-o train.keep_checkpoints_after_final=true)", len(removed), final)
            barrier()
            return final
        return self.save_periodic(state, data_position)  # pruned like every periodic one (keep_checkpoints)

    @interrupt_after_writing()
    def write_best(self, state: RunState, data_position: dict[str, Any]) -> None:
        """Rank 0 only: best/ (encoder + json, not resumable)."""
        staging = staging_dir(self.output_dir / BEST_DIR)
        self.objective.encoder.save_pretrained(staging / ENCODER_DIR, self.tokenizer)
        write_checkpoint_json(staging, self._info(state, data_position, resumable=False))
        ordinary_file_modes(staging)
        publish_directory(staging, self.output_dir / BEST_DIR)

    def best_checkpoint(self) -> Path | None:
        best = self.output_dir / BEST_DIR
        return best if (best / CHECKPOINT_JSON).is_file() else None

    def export_path(self) -> Path:
        """Where export.enabled writes the sentence-transformers dir: export.dir, else output_dir/export."""
        return Path(self.export_config.dir) if self.export_config.dir else self.output_dir / EXPORT_DIR

    def finished_earlier(self, state: RunState) -> bool:
        """The run resumed from its own final/ at the last step, and the export it asks for is there: a rerun
        has nothing to do (final/ and the export are not written again)."""
        resumed = state.resumed_from
        if resumed is None or resumed.resolve() != (self.output_dir / FINAL_DIR).resolve():
            return False
        return not self.export_config.enabled or (self.export_path() / "modules.json").is_file()

    def export(self, state: RunState, pairs_used: int) -> Path:
        """The sentence-transformers dir of export.source (rank 0 writes; every rank gets the path)."""
        from bsl_pipeline.training.encoder import SentenceEncoder
        from bsl_pipeline.training.export import export_head, reading_length, write_run_export

        e = self.export_config
        out = self.export_path()
        if self.dist.is_main:
            encoder = self.objective.encoder
            if e.source == "best":
                best = self.best_checkpoint()
                if best is None:
                    raise BSLError("export.source=best but no best checkpoint exists (set eval.stsb_dir and "
                                   "eval.save_best=true)")
                encoder = SentenceEncoder.from_pretrained(str(best / ENCODER_DIR), self.model.pooling)
            card = {"config": self.settings, "sources": [s.describe() for s in self.sources],
                    "run": {"steps": state.step, "pairs seen": pairs_used,
                            "final loss": f"{state.history[-1]['loss']:.6f}" if state.history else "n/a",
                            **{f"{name} (last)": value for name, value in state.last_eval.items()},
                            f"{self.headline_metric or 'dev metric'} (best)": state.best_metric,
                            "exported": e.source}}
            max_length = reading_length(self.model.name_or_path, e.max_length, self.model.max_length)
            head = export_head(self.model.name_or_path, e.normalize, e.base_dense)
            write_run_export(encoder, self.tokenizer, out, max_length=max_length, head=head, card=card,
                             run_dir=self.output_dir if e.dir else None, overwrite=self.train.overwrite)
        barrier()
        return out

    def _info(self, state: RunState, data_position: dict[str, Any], resumable: bool) -> dict[str, Any]:
        from bsl_pipeline.pipeline.base.provenance import code_version

        m = self.model
        return {
            "format_version": FORMAT_VERSION, "pooling": m.pooling, "step": state.step,
            "total_steps": self.phases.total_steps, "objective": self.settings["objective"]["name"],
            "encoder": ENCODER_DIR, "max_length": m.max_length, "base_model": m.name_or_path,
            "resumable": resumable, "world_size": self.dist.world_size,
            "eval": state.eval_of_this_step,
            "best": {"metric": self.headline_metric, "value": state.best_metric, "step": state.best_step},
            "data": {"sources": [s.describe() for s in self.sources], "position": data_position},
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"), "code_version": code_version(),
            "config": self.settings,
        }

    def _encoder_prefix(self) -> str | None:
        """Where the online encoder's own weights sit in the objective's state dict ("encoder.model.")."""
        model = getattr(self.objective.encoder, "model", None)
        return next((f"{name}." for name, module in self.objective.named_modules() if module is model and name),
                    None)

    def _trainer_state(self, state: RunState, data_position: dict[str, Any], directory: Path) -> dict[str, Any]:
        """trainer_state.pt of checkpoint `directory`, whose encoder/ is already written: the online encoder's
        tensors that encoder/ holds are left out (`load_objective_state` reads them back)."""
        objective, encoder_weights = self.objective.state_dict(), None
        prefix = self._encoder_prefix()
        if prefix is not None:
            objective, encoder_weights = split_encoder_weights(objective, prefix, directory)
        return {
            "format_version": FORMAT_VERSION, "step": state.step,
            "objective": objective, "encoder_weights": encoder_weights, "optimizer": self.optimizer.state_dict(),
            "schedule": self.phases.state(state.step),
            "scaler": self.scaler.state_dict() if self.scaler is not None else {},
            "data": data_position,
            "run": state.checkpoint_fields(),
        }
