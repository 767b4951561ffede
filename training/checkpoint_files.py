"""Checkpoint directories: the contract the evaluation stage reads, plus the trainer's full state for exact resume.

```
<checkpoint>/bsl_checkpoint.json   {"pooling", "step", "objective", "max_length", "encoder": "encoder", ...}
<checkpoint>/encoder/              online encoder + tokenizer (save_pretrained)
<checkpoint>/trainer_state.pt      objective state_dict (target, predictor, ...) less the online encoder's tensors
                                   that encoder/*.safetensors holds bit for bit (named under "encoder_weights"),
                                   optimizer, lr schedule, GradScaler, step, data position, run metrics
                                   [resumable checkpoints only]
<checkpoint>/rng/rank-<r>.pt       RNG states of every process (torch, cuda, numpy, python)
```

Tensors and plain containers are read back with `weights_only=True`, or as safetensors: nothing is unpickled.
This module lists, chooses, prunes, reads and writes those files; `training.checkpoint.Checkpointer` decides
when and what.
"""

from __future__ import annotations

import logging
import os
import re
import zipfile
from pathlib import Path
from typing import Any, Callable

import torch

from bsl_pipeline.pipeline.base.atomic import atomic_path, new_file_mode, write_json_atomic
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.hub import CHECKPOINT_JSON
from bsl_pipeline.pipeline.base.publish import remove_stale_staging, require_folder, retire_in_place
from bsl_pipeline.pipeline.base.safetensors_check import safetensors_problem
from bsl_pipeline.pipeline.base.weights_only import refusing_pickles
from bsl_pipeline.training.st_directory import read_json

ENCODER_DIR = "encoder"
STATE_FILE = "trainer_state.pt"
RNG_DIR = "rng"
FORMAT_VERSION = 2  # 2: the online encoder's weights live only in encoder/*.safetensors
_STEP_DIR = re.compile(r"^step-(\d+)$")

log = logging.getLogger(__name__)


def step_dir_name(step: int) -> str:
    return f"step-{step:08d}"


def _step_dirs(checkpoints_dir: Path) -> list[tuple[int, Path]]:
    """Every `step-N` directory in the run's checkpoints folder, with its N. A link (or a file) in the folder's place
    is refused, never followed: the trainer resumes from, prunes and removes what it finds in it, which would be
    another directory's checkpoints."""
    if not require_folder(checkpoints_dir, "its own checkpoints folder"):
        return []
    return [(int(m.group(1)), p) for p in checkpoints_dir.iterdir() if (m := _STEP_DIR.match(p.name))]


def list_checkpoints(checkpoints_dir: Path) -> list[tuple[int, Path]]:
    """Complete periodic checkpoints (state file present), oldest first."""
    return sorted((step, p) for step, p in _step_dirs(checkpoints_dir)
                  if (p / STATE_FILE).is_file() and (p / CHECKPOINT_JSON).is_file())


def checkpoint_dirs(checkpoints_dir: Path, final_dir: Path) -> list[tuple[float, Path]]:
    """Every checkpoint a run left, complete or not, oldest first: `step-N` dirs by N, and `final_dir` by the step
    its json records (last of all when that is unreadable)."""
    found: list[tuple[float, Path]] = list(_step_dirs(checkpoints_dir))
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
    problem = encoder_weights_problem(directory)
    if problem:
        return problem
    if not rng_path(directory, rank).is_file():
        return f"{RNG_DIR}/rank-{rank}.pt missing"
    return None


def check_fresh_run(output_dir: Path, found: list[tuple[float, Path]]) -> None:
    """A run that does not resume (train.resume unset) may not start over where checkpoints are (`found`, from
    `checkpoint_dirs`): refused, naming the latest and how to continue it."""
    if found:
        raise BSLError(f"{output_dir} already holds checkpoints (latest: {found[-1][1]}); continue with -o "
                       f"train.resume=auto or choose another train.output_dir")


def resume_checkpoint(resume: str, rank: int = 0) -> Path:
    """The checkpoint directory `train.resume=<path>` names, or a BSLError saying why it cannot be resumed from."""
    path = Path(resume)
    problem = checkpoint_problem(path, rank)
    if problem:
        raise BSLError(f"train.resume={resume}: not a resumable checkpoint ({problem})")
    return path


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


CHECKPOINT_ENTRIES = (ENCODER_DIR, STATE_FILE, RNG_DIR, CHECKPOINT_JSON)  # what a checkpoint directory holds


def _trainer_entry(relative: str, _path: Path) -> bool:
    """Whether a file of a retired checkpoint is one the trainer writes in a checkpoint (and may be dropped)."""
    return relative.split("/")[0] in CHECKPOINT_ENTRIES


def _retire_checkpoint(path: Path) -> None:
    """Drop checkpoint `path`: only what the trainer writes in one is dropped; any other file found in it is moved
    to `checkpoints/.bsl-replaced/<time>/step-N/`. The folder leaves its `step-N` name first
    (pipeline.base.publish.retire_in_place), so a kill part-way leaves no `step-N` missing some of its files."""
    retire_in_place(path, _trainer_entry)


def _remove_killed_leftovers(checkpoints_dir: Path) -> None:
    """Clear what a killed run left in the checkpoints folder: the staging folder of a checkpoint it was saving
    (deleted) and a checkpoint it was dropping (sorted as `_retire_checkpoint` sorts it)."""
    if require_folder(checkpoints_dir, "its own checkpoints folder"):
        remove_stale_staging(checkpoints_dir, "step-*", _trainer_entry)


def prune_checkpoints(checkpoints_dir: Path, keep: int) -> None:
    """Drop all but the newest `keep` checkpoints (`_retire_checkpoint`), and what a killed run left
    (`_remove_killed_leftovers`)."""
    _remove_killed_leftovers(checkpoints_dir)
    if keep <= 0:
        return
    for _, path in list_checkpoints(checkpoints_dir)[:-keep]:
        _retire_checkpoint(path)


def write_checkpoint_json(directory: Path, info: dict[str, Any]) -> None:
    write_json_atomic(directory / CHECKPOINT_JSON, info)


def read_checkpoint_json(directory: str | Path, required: tuple[str, ...] = ("pooling", "step")) -> dict[str, Any]:
    """A checkpoint's record, read as untrusted input: a JSON object holding at least the keys `required` (resuming
    needs the step; the evaluation stage reads only the pooling, `encoder` and `max_length`). Raises BSLError
    naming the file (and line)."""
    path = Path(directory) / CHECKPOINT_JSON
    if not path.is_file():
        raise BSLError(f"{directory}: not a trainer checkpoint ({CHECKPOINT_JSON} missing)")
    info = read_json(path)
    if not isinstance(info, dict) or any(key not in info for key in required):
        keys = " and ".join(repr(key) for key in required)
        raise BSLError(f"{path}: expected a JSON object with the key{'s' if len(required) > 1 else ''} {keys}")
    return info


def save_state(path: Path, state: dict[str, Any]) -> None:
    with atomic_path(path) as tmp:
        torch.save(state, tmp)


def load_state(path: Path, map_location: str | torch.device = "cpu") -> dict[str, Any]:
    if not path.is_file():
        raise BSLError(f"{path}: checkpoint state file missing (is this a resumable checkpoint?)")
    try:
        with refusing_pickles(path):
            return torch.load(path, map_location=map_location, weights_only=True)
    except BSLError:
        raise
    except Exception as exc:  # zip errors from a damaged or foreign file
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise BSLError(f"{path}: cannot read checkpoint state ({type(exc).__name__}: {first})") from None


def encoder_weight_files(directory: Path) -> list[Path]:
    """The safetensors files of a checkpoint's encoder/ (one, or the shards of a large model)."""
    return sorted((directory / ENCODER_DIR).glob("*.safetensors"))


def encoder_weights_problem(directory: Path) -> str | None:
    """Why the encoder weights a checkpoint's trainer state relies on cannot be read (checked without loading
    them: `safetensors_problem`); None when they can, or when the checkpoint predates them."""
    try:
        version = int(read_checkpoint_json(directory).get("format_version", 1))
    except (BSLError, TypeError, ValueError):
        version = 1
    if version < 2:
        return None
    files = encoder_weight_files(directory)
    if not files:
        return f"{ENCODER_DIR}/*.safetensors missing"
    for path in files:
        problem = safetensors_problem(path)
        if problem:
            return f"{ENCODER_DIR}/{path.name} is not a complete safetensors file ({problem})"
    return None


def split_encoder_weights(objective_state: dict[str, torch.Tensor], prefix: str,
                          directory: Path) -> tuple[dict[str, torch.Tensor], dict[str, Any]]:
    """The objective's state less the tensors that `directory`/encoder/*.safetensors holds bit for bit (same dtype,
    shape and values, read back after writing), and the record `load_objective_state` needs to put them back:
    {"prefix": prefix, "tensors": [their names in the safetensors files]}. A tensor that differs in any way, or
    that the files lack, stays in the state."""
    from safetensors import safe_open

    stored: list[str] = []
    for path in encoder_weight_files(directory):
        with safe_open(str(path), "pt") as f:
            for key in f.keys():
                ours = objective_state.get(prefix + key)
                if ours is None:
                    continue
                theirs = f.get_tensor(key)
                if theirs.dtype == ours.dtype and theirs.shape == ours.shape and torch.equal(theirs, ours.cpu()):
                    stored.append(key)
    taken = {prefix + key for key in stored}
    rest = {name: value for name, value in objective_state.items() if name not in taken}
    return rest, {"prefix": prefix, "tensors": stored}


def load_objective_state(directory: str | Path, map_location: str | torch.device = "cpu",
                         state: dict[str, Any] | None = None) -> dict[str, torch.Tensor]:
    """The objective's full state dict saved in checkpoint `directory`: trainer_state.pt's "objective" plus the
    online encoder's tensors it names in encoder/*.safetensors. `state`: trainer_state.pt already loaded."""
    from safetensors import SafetensorError, safe_open

    directory = Path(directory)
    state = load_state(directory / STATE_FILE, map_location=map_location) if state is None else state
    objective = state.get("objective") if isinstance(state, dict) else None
    if not isinstance(objective, dict):
        raise BSLError(f"{directory / STATE_FILE}: the objective's state is missing or not a mapping of tensors")
    record = state.get("encoder_weights") or {}
    wanted = set(record.get("tensors", []))
    if not wanted:
        return objective
    merged = dict(objective)
    device = map_location if isinstance(map_location, str) else str(map_location)
    for path in encoder_weight_files(directory):
        try:
            with safe_open(str(path), "pt", device=device) as f:
                for key in wanted.intersection(f.keys()):
                    merged[record["prefix"] + key] = f.get_tensor(key)
                    wanted.discard(key)
        except (SafetensorError, OSError) as exc:
            raise BSLError(f"{path}: cannot read the encoder weights ({exc})") from None
    if wanted:
        raise BSLError(f"{directory / ENCODER_DIR}: tensor {sorted(wanted)[0]} missing from its safetensors files "
                       f"({len(wanted)} missing in all); {STATE_FILE} relies on them")
    return merged


def remove_superseded_checkpoints(checkpoints_dir: Path, step: int,
                                  ours: Callable[[Path], bool]) -> list[Path]:
    """Remove the periodic checkpoints up to `step` that `ours` accepts (final/ supersedes them), then
    `checkpoints_dir` itself when nothing is left in it (`_retire_checkpoint`)."""
    removed = []
    _remove_killed_leftovers(checkpoints_dir)
    for found_step, path in list_checkpoints(checkpoints_dir):
        if found_step <= step and ours(path):
            _retire_checkpoint(path)
            removed.append(path)
    if removed:
        try:
            checkpoints_dir.rmdir()
        except OSError:
            pass  # something else is (still) in it
    return removed


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
