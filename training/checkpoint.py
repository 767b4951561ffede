"""Checkpoint directories: the contract the evaluation stage reads, plus the trainer's full state for exact resume.

```
<checkpoint>/bsl_checkpoint.json   {"pooling", "step", "objective", "max_length", "encoder": "encoder", ...}
<checkpoint>/encoder/              online encoder + tokenizer (save_pretrained)
<checkpoint>/trainer_state.pt      objective state_dict (online, target, predictor, ...), optimizer, lr schedule,
                                   GradScaler, step, data position, run metrics   [resumable checkpoints only]
<checkpoint>/rng/rank-<r>.pt       RNG states of every process (torch, cuda, numpy, python)
```

Everything is written with `torch.save` of tensors and plain containers and read back with `weights_only=True`:
nothing is unpickled. A directory is written under a temporary name and renamed into place, so a reader never
sees half a checkpoint. A checkpoint damaged afterwards (a file deleted or truncated) is found by
`checkpoint_problem` before resuming: `train.resume=auto` stops naming it, or falls back when asked to.

A run's output_dir, as `Checkpointer` (the one writer and reader of it, logs aside) lays it out:

```
<output_dir>/config.yaml              the run's config
<output_dir>/checkpoints/step-<N>/    periodic resumable checkpoints (train.save_every; newest keep_checkpoints)
<output_dir>/final/                   resumable checkpoint of a completed run
<output_dir>/best/                    encoder + json of the best headline dev metric (not resumable)
<output_dir>/export/                  sentence-transformers dir (export.dir elsewhere)
<output_dir>/.bsl-output.json         marker: a bsl "training-run" directory (pipeline.base.ownership)
<output_dir>/.bsl-lock                the running process's writer lock (one run per directory)
```

A run writes only into a directory that is new, empty, marked as a bsl training run, or that a run wrote before
markers existed (it holds `final/`, `checkpoints/step-N/` or `train_done.json`); any other directory is refused
naming it, and `train.overwrite=true` (`bsl train --overwrite`) adopts it, moving what the run would replace
(RUN_ENTRIES) into `.bsl-replaced/<time>/`: nothing is deleted. One process writes a run directory at a time
(`WriterLock`, rank 0, held from set-up to close); a second run into it stops with one line naming the holder.
An `export.dir` outside the run is replaced only when it is absent, empty or a bsl export (its marker), or with
`train.overwrite=true` (the old one is set aside beside it).
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import shutil
import zipfile
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from bsl_pipeline.pipeline.base.atomic import new_file_mode, write_json_atomic, write_text_atomic
from bsl_pipeline.pipeline.base.config import to_dict
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.ownership import (
    MARKER_NAME,
    OwnershipError,
    WriterLock,
    check_not_input,
    claim_directory,
    read_marker,
    set_aside,
)
from bsl_pipeline.pipeline.base.publish import publish_directory, staging_dir
from bsl_pipeline.training.config import RESUME_MUST_MATCH, TrainConfig
from bsl_pipeline.training.distributed import barrier

if TYPE_CHECKING:
    from bsl_pipeline.training.batch_source import BatchSource
    from bsl_pipeline.training.distributed import DistInfo
    from bsl_pipeline.training.objectives.base import Objective
    from bsl_pipeline.training.phases import PhasePolicy
    from bsl_pipeline.training.run_state import RunState

CHECKPOINT_JSON = "bsl_checkpoint.json"
ENCODER_DIR = "encoder"
STATE_FILE = "trainer_state.pt"
RNG_DIR = "rng"
FORMAT_VERSION = 1
_STEP_DIR = re.compile(r"^step-(\d+)$")

log = logging.getLogger(__name__)


# -- RNG state as tensors and plain lists -------------------------------------------------------------------------
def capture_rng_state() -> dict[str, Any]:
    np_state = np.random.get_state(legacy=False)
    py_version, py_internal, py_gauss = random.getstate()
    state = {
        "torch": torch.get_rng_state(),
        "numpy": {"bit_generator": np_state["bit_generator"],
                  "key": torch.from_numpy(np.asarray(np_state["state"]["key"], dtype=np.int64)),
                  "pos": int(np_state["state"]["pos"]),
                  "has_gauss": int(np_state["has_gauss"]), "gauss": float(np_state["gauss"])},
        "python": {"version": int(py_version), "internal": torch.tensor(py_internal, dtype=torch.int64),
                   "gauss": py_gauss},
    }
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def restore_rng_state(state: dict[str, Any]) -> None:
    torch.set_rng_state(state["torch"])
    npst = state["numpy"]
    np.random.set_state({"bit_generator": npst["bit_generator"],
                         "state": {"key": npst["key"].numpy().astype(np.uint32), "pos": npst["pos"]},
                         "has_gauss": npst["has_gauss"], "gauss": npst["gauss"]})
    py = state["python"]
    random.setstate((py["version"], tuple(int(x) for x in py["internal"].tolist()), py["gauss"]))
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)


# -- directories ----------------------------------------------------------------------------------------------------
def step_dir_name(step: int) -> str:
    return f"step-{step:08d}"


def list_checkpoints(checkpoints_dir: Path) -> list[tuple[int, Path]]:
    """Complete periodic checkpoints (state file present), oldest first."""
    if not checkpoints_dir.is_dir():
        return []
    found = []
    for p in checkpoints_dir.iterdir():
        m = _STEP_DIR.match(p.name)
        if m and (p / STATE_FILE).is_file() and (p / CHECKPOINT_JSON).is_file():
            found.append((int(m.group(1)), p))
    return sorted(found)


def checkpoint_dirs(checkpoints_dir: Path, final_dir: Path) -> list[tuple[float, Path]]:
    """Every checkpoint a run left, complete or not, oldest first: `step-N` dirs by N, and `final_dir` by the step
    its json records (last of all when that is unreadable)."""
    found: list[tuple[float, Path]] = []
    if checkpoints_dir.is_dir():
        found += [(int(m.group(1)), p) for p in checkpoints_dir.iterdir() if (m := _STEP_DIR.match(p.name))]
    if final_dir.is_dir():
        try:
            found.append((int(read_checkpoint_json(final_dir)["step"]), final_dir))
        except (BSLError, TypeError, ValueError):
            found.append((float("inf"), final_dir))
    return sorted(found)


def checkpoint_problem(directory: Path, rank: int = 0) -> str | None:
    """Why `directory` cannot be resumed from, as far as can be told without loading it; None when it can."""
    try:
        int(read_checkpoint_json(directory)["step"])
    except (BSLError, TypeError, ValueError) as exc:
        return str(exc) if isinstance(exc, BSLError) else f"{CHECKPOINT_JSON}: 'step' is not a number"
    state = directory / STATE_FILE
    if not state.is_file():
        return f"{STATE_FILE} missing"
    if not zipfile.is_zipfile(state):
        return f"{STATE_FILE} is not a complete torch archive (truncated or damaged)"
    if not rng_path(directory, rank).is_file():
        return f"{RNG_DIR}/rank-{rank}.pt missing"
    return None


def choose_resume_checkpoint(found: list[tuple[float, Path]], fallback: bool, rank: int = 0) -> Path | None:
    """What `train.resume=auto` continues from: the latest checkpoint. A broken latest one stops the run naming
    it, or with `fallback` gives way (with a warning) to the newest good one before it."""
    if not found:
        return None
    latest = found[-1][1]
    problem = checkpoint_problem(latest, rank)
    if problem is None:
        return latest
    if not fallback:
        raise BSLError(f"cannot resume: the latest checkpoint {latest} is broken ({problem}); remove it, or rerun "
                       f"with -o train.resume_fallback=true to continue from the newest good checkpoint before it")
    for _, path in reversed(found[:-1]):
        if checkpoint_problem(path, rank) is None:
            log.warning("warning: the latest checkpoint %s is broken (%s); falling back to %s "
                        "(train.resume_fallback=true)", latest, problem, path)
            return path
    raise BSLError(f"cannot resume: the latest checkpoint {latest} is broken ({problem}) and no earlier checkpoint "
                   f"is usable")


def latest_checkpoint(checkpoints_dir: Path) -> Path | None:
    found = list_checkpoints(checkpoints_dir)
    return found[-1][1] if found else None


def prune_checkpoints(checkpoints_dir: Path, keep: int) -> None:
    if keep <= 0:
        return
    for _, path in list_checkpoints(checkpoints_dir)[:-keep]:
        shutil.rmtree(path, ignore_errors=True)


def write_checkpoint_json(directory: Path, info: dict[str, Any]) -> None:
    write_json_atomic(directory / CHECKPOINT_JSON, info)


def read_checkpoint_json(directory: str | Path) -> dict[str, Any]:
    path = Path(directory) / CHECKPOINT_JSON
    if not path.is_file():
        raise BSLError(f"{directory}: not a trainer checkpoint ({CHECKPOINT_JSON} missing)")
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise BSLError(f"{path}: not valid JSON ({exc})") from None
    for key in ("pooling", "step"):
        if key not in info:
            raise BSLError(f"{path}: missing key {key!r}")
    return info


def save_state(path: Path, state: dict[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    torch.save(state, tmp)
    os.replace(tmp, path)


def load_state(path: Path, map_location: str | torch.device = "cpu") -> dict[str, Any]:
    if not path.is_file():
        raise BSLError(f"{path}: checkpoint state file missing (is this a resumable checkpoint?)")
    try:
        return torch.load(path, map_location=map_location, weights_only=True)
    except Exception as exc:  # pickle/zip errors from a damaged or foreign file
        raise BSLError(f"{path}: cannot read checkpoint state ({type(exc).__name__}: {exc})") from None


def ordinary_file_modes(directory: Path) -> None:
    """Give every file under `directory` the mode a plain open() gives (0666 less the umask): some writers
    (transformers' save_pretrained) leave 0600, and a checkpoint's files should be as readable as each other and
    as the datasets' shards."""
    mode = new_file_mode()
    for path in directory.rglob("*"):
        if path.is_file() and not path.is_symlink():
            os.chmod(path, mode)


def state_dict_problem(saved: Any, expected: dict[str, torch.Tensor]) -> str | None:
    """Why a saved objective state cannot be loaded into a model whose state is `expected` (None when it can): a
    missing or extra tensor, another dtype or shape, NaN/inf in a floating-point tensor."""
    if not isinstance(saved, dict):
        return "the objective's state is missing or not a mapping of tensors"
    missing = [k for k in expected if k not in saved]
    if missing:
        return f"tensor {missing[0]} missing ({len(missing)} missing in all)"
    extra = [k for k in saved if k not in expected]
    if extra:
        return f"unexpected tensor {extra[0]} ({len(extra)} not in this model)"
    for name, ref in expected.items():
        tensor = saved[name]
        if not isinstance(tensor, torch.Tensor):
            return f"{name} is not a tensor"
        if tensor.dtype != ref.dtype:
            return f"tensor {name} is {tensor.dtype}, the model's is {ref.dtype}"
        if tensor.shape != ref.shape:
            return f"tensor {name} has shape {tuple(tensor.shape)}, the model's is {tuple(ref.shape)}"
        if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
            return f"tensor {name} holds NaN or inf values"
    return None


def rng_path(directory: Path, rank: int) -> Path:
    return directory / RNG_DIR / f"rank-{rank}.pt"


# -- the trainer's checkpointer --------------------------------------------------------------------------------------
FINAL_DIR = "final"
BEST_DIR = "best"
CHECKPOINTS_DIR = "checkpoints"
EXPORT_DIR = "export"
RUN_KIND = "training-run"
EXPORT_KIND = "sentence-transformers-export"
#: What a run writes into its output_dir: replaced only in a directory that is ours, set aside on --overwrite.
RUN_ENTRIES = ("config.yaml", "metrics.csv", "eval.csv", "tensorboard", CHECKPOINTS_DIR, FINAL_DIR, BEST_DIR,
               EXPORT_DIR, "train_done.json")


def _written_by_bsl_before_markers(directory: Path) -> bool:
    """A run directory from before output markers: a finished or checkpointed run left its files here."""
    return ((directory / FINAL_DIR / CHECKPOINT_JSON).is_file() or bool(list_checkpoints(directory / CHECKPOINTS_DIR))
            or (directory / "train_done.json").is_file())


def claim_run_directory(config: TrainConfig, dist: DistInfo) -> WriterLock | None:
    """Make train.output_dir this run's (see the module docstring) and take its writer lock (rank 0; the lock is
    returned, to be released when the run ends). Refuses an output_dir that overlaps a dataset or the model dir."""
    out = Path(config.train.output_dir)
    inputs = [s.path for s in config.data.sources if s.path]
    if config.model.name_or_path and Path(config.model.name_or_path).expanduser().exists():
        inputs.append(config.model.name_or_path)
    check_not_input(out, inputs, what="train.output_dir")
    if not dist.is_main:
        return None
    claim_directory(out, RUN_KIND, overwrite=config.train.overwrite, own_names=RUN_ENTRIES,
                    recognise=_written_by_bsl_before_markers)
    lock = WriterLock(out, what="training run")
    lock.acquire()
    return lock


def _claim_export_dir(out: Path, overwrite: bool) -> None:
    """An export.dir outside the run is replaced whole: only when absent, empty or a bsl export (else set aside
    with `overwrite`, refused without)."""
    if not out.exists() and not out.is_symlink():
        return
    if out.is_dir() and not any(out.iterdir()):
        return
    marker = read_marker(out) if out.is_dir() else None
    if marker is not None and marker["kind"] == EXPORT_KIND:
        return
    if not overwrite:
        raise OwnershipError(f"export.dir {out} exists and is not a bsl export; choose a new directory, or pass "
                             f"--overwrite (the old one is moved to {out.parent / '.bsl-replaced'}/, nothing is "
                             f"deleted)")
    set_aside(out.parent, [out.name])


def _get(tree: dict[str, Any], dotted: str) -> Any:
    for part in dotted.split("."):
        tree = tree.get(part) if isinstance(tree, dict) else None
    return tree


class Checkpointer:
    """Everything a run writes to or reads from its output_dir besides the logs: which checkpoint to resume from
    and loading it (weights, optimizer, GradScaler, run state, data position, RNG), periodic checkpoints and their
    pruning, final/, best/ and the export. Each directory is built under a staging name and published whole
    (`pipeline.base.publish`). Rank 0 writes shared files; every rank writes (and reads) its own RNG state.

    It holds the long-lived parts of a run (set up once); what changes per step comes in as `RunState` and the
    data position."""

    def __init__(self, config: TrainConfig, dist: DistInfo, *, sources: list[Any], objective: Objective,
                 tokenizer: Any, optimizer: torch.optim.Optimizer, scaler: torch.amp.GradScaler | None,
                 phases: PhasePolicy, headline_metric: str | None, device: torch.device):
        self.config = config
        self.output_dir = Path(config.train.output_dir)
        self.dist = dist
        self.sources = sources
        self.objective = objective
        self.tokenizer = tokenizer
        self.optimizer = optimizer
        self.scaler = scaler
        self.phases = phases
        self.headline_metric = headline_metric
        self.device = device

    # -- resume ------------------------------------------------------------------------------------------------
    def resume_path(self) -> Path | None:
        """The checkpoint `train.resume` asks for: None = a fresh run (refused when checkpoints exist), "auto" =
        the latest one (see choose_resume_checkpoint), or a path."""
        resume = self.config.train.resume
        found = checkpoint_dirs(self.output_dir / CHECKPOINTS_DIR, self.output_dir / FINAL_DIR)
        if resume is None:
            if found:
                raise BSLError(f"{self.output_dir} already holds checkpoints (latest: {found[-1][1]}); continue "
                               f"with -o train.resume=auto or choose another train.output_dir")
            return None
        if resume == "auto":
            if not found and self.dist.is_main:
                # auto = "continue if there is something" (the main job asks for it on every run): a fresh start is
                # the expected case, so it is said at INFO; `bsl train --resume` refuses instead (nothing to resume).
                log.info("train.resume=auto: no checkpoint in %s, starting from step 0", self.output_dir)
            return choose_resume_checkpoint(found, self.config.train.resume_fallback, self.dist.rank)
        path = Path(resume)
        problem = checkpoint_problem(path, self.dist.rank)
        if problem:
            raise BSLError(f"train.resume={resume}: not a resumable checkpoint ({problem})")
        return path

    def resume(self, path: Path, state: RunState, batches: BatchSource) -> None:
        """Load `path` into the objective, optimizer, GradScaler, `state`, `batches` and this process's RNG, after
        checking that it continues this run (same settings that shape the data or loss, same world size, same
        datasets)."""
        info = read_checkpoint_json(path)
        saved = info.get("config", {})
        current = to_dict(self.config)
        defaults = to_dict(TrainConfig())  # a key added since the checkpoint was written had its default then
        changed = [k for k in RESUME_MUST_MATCH
                   if (_get(saved, k) if _get(saved, k) is not None else _get(defaults, k)) != _get(current, k)]
        if changed:
            raise BSLError(f"cannot resume from {path}: these settings differ from the checkpoint's: "
                           f"{', '.join(changed)} (they change which data each step sees or the loss)")
        if int(info.get("world_size", 1)) != self.dist.world_size:
            raise BSLError(f"cannot resume from {path}: it was written by {info.get('world_size')} process(es), "
                           f"this run has {self.dist.world_size}")
        recorded = info.get("data", {}).get("sources", [])
        old_sums = [s.get("manifest_checksum") for s in recorded]
        # Checkpoints written before shard digests were recorded carry none: their manifest checksum decides.
        old_shards = [s.get("shards_digest") or source.shards_digest for s, source in zip(recorded, self.sources)]
        if old_sums != [s.manifest_checksum for s in self.sources] or \
                old_shards != [s.shards_digest for s in self.sources][:len(old_shards)]:
            changed = [s.name for s, r in zip(self.sources, recorded)
                       if r.get("manifest_checksum") != s.manifest_checksum
                       or (r.get("shards_digest") or s.shards_digest) != s.shards_digest]
            raise BSLError(f"cannot resume from {path}: the training datasets changed since the checkpoint "
                           f"({', '.join(changed) or 'a different list of datasets'}: manifest checksum or shard "
                           f"sha256 differ)")
        saved_state = load_state(path / STATE_FILE, map_location=self.device)
        problem = state_dict_problem(saved_state.get("objective") if isinstance(saved_state, dict) else None,
                                     self.objective.state_dict())
        if problem:
            raise BSLError(f"{path / STATE_FILE}: cannot resume: {problem}")
        self.objective.load_state_dict(saved_state["objective"])
        self.optimizer.load_state_dict(saved_state["optimizer"])
        if self.scaler is not None and saved_state.get("scaler"):
            self.scaler.load_state_dict(saved_state["scaler"])
        state.restore(int(saved_state["step"]), saved_state.get("run", {}), path)
        batches.restore(saved_state["data"])
        restore_rng_state(load_state(rng_path(path, self.dist.rank)))

    # -- writing -----------------------------------------------------------------------------------------------
    def write_config(self) -> None:
        """output_dir/config.yaml: the run's full config (rank 0)."""
        import yaml

        if self.dist.is_main:
            self.output_dir.mkdir(parents=True, exist_ok=True)
            write_text_atomic(self.output_dir / "config.yaml", yaml.safe_dump(to_dict(self.config), sort_keys=False))

    def save(self, directory: Path, state: RunState, data_position: dict[str, Any]) -> Path:
        """A resumable checkpoint (call on every rank): rank 0 writes the shared state, every rank its RNG."""
        rng_dir = directory.parent / f".{directory.name}.rng"
        if self.dist.is_main:
            directory.parent.mkdir(parents=True, exist_ok=True)
            rng_dir.mkdir(parents=True, exist_ok=True)
        barrier()
        save_state(rng_dir / f"rank-{self.dist.rank}.pt", capture_rng_state())
        barrier()
        if self.dist.is_main:
            staging = staging_dir(directory)
            self.objective.encoder.save_pretrained(staging / ENCODER_DIR, self.tokenizer)
            save_state(staging / STATE_FILE, self._trainer_state(state, data_position))
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
            prune_checkpoints(self.output_dir / CHECKPOINTS_DIR, self.config.train.keep_checkpoints)
        return path

    def save_last(self, state: RunState, data_position: dict[str, Any], completed: bool) -> Path:
        """final/ for a completed run, else the periodic checkpoint of the step it stopped at."""
        if completed:
            return self.save(self.output_dir / FINAL_DIR, state, data_position)
        return self.save(self.output_dir / CHECKPOINTS_DIR / step_dir_name(state.step), state, data_position)

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

    def export(self, state: RunState, pairs_used: int) -> Path:
        """The sentence-transformers dir of export.source (rank 0 writes; every rank gets the path)."""
        from bsl_pipeline.training.encoder import SentenceEncoder
        from bsl_pipeline.training.export import export_sentence_transformer

        e = self.config.export
        out = Path(e.dir) if e.dir else self.output_dir / EXPORT_DIR
        if self.dist.is_main:
            if e.dir:
                _claim_export_dir(out, self.config.train.overwrite)
            encoder = self.objective.encoder
            if e.source == "best":
                best = self.best_checkpoint()
                if best is None:
                    raise BSLError("export.source=best but no best checkpoint exists (set eval.stsb_dir and "
                                   "eval.save_best=true)")
                encoder = SentenceEncoder.from_pretrained(str(best / ENCODER_DIR), self.config.model.pooling)
            card = {"config": self.config, "sources": [s.describe() for s in self.sources],
                    "run": {"steps": state.step, "pairs seen": pairs_used,
                            "final loss": f"{state.history[-1]['loss']:.6f}" if state.history else "n/a",
                            **{f"{name} (last)": value for name, value in state.last_eval.items()},
                            f"{self.headline_metric or 'dev metric'} (best)": state.best_metric,
                            "exported": e.source}}
            export_sentence_transformer(encoder, self.tokenizer, out, max_length=self.config.model.max_length,
                                        normalize=e.normalize, card=card)
            ordinary_file_modes(out)
            if e.dir:
                write_json_atomic(out / MARKER_NAME, {"tool": "bsl", "kind": EXPORT_KIND,
                                                      "created": datetime.now(timezone.utc).isoformat()})
        barrier()
        return out

    def _info(self, state: RunState, data_position: dict[str, Any], resumable: bool) -> dict[str, Any]:
        from bsl_pipeline.pipeline.base.provenance import code_version

        cfg = self.config
        return {
            "format_version": FORMAT_VERSION, "pooling": cfg.model.pooling, "step": state.step,
            "total_steps": self.phases.total_steps, "objective": cfg.objective.name, "encoder": ENCODER_DIR,
            "max_length": cfg.model.max_length, "base_model": cfg.model.name_or_path,
            "resumable": resumable, "world_size": self.dist.world_size,
            "eval": state.eval_of_this_step,
            "best": {"metric": self.headline_metric, "value": state.best_metric, "step": state.best_step},
            "data": {"sources": [s.describe() for s in self.sources], "position": data_position},
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"), "code_version": code_version(),
            "config": to_dict(cfg),
        }

    def _trainer_state(self, state: RunState, data_position: dict[str, Any]) -> dict[str, Any]:
        return {
            "format_version": FORMAT_VERSION, "step": state.step,
            "objective": self.objective.state_dict(), "optimizer": self.optimizer.state_dict(),
            "schedule": self.phases.state(state.step),
            "scaler": self.scaler.state_dict() if self.scaler is not None else {},
            "data": data_position,
            "run": state.checkpoint_fields(),
        }
