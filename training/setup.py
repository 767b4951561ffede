"""The trainer's set-up, one function per part; each takes what it needs and returns what it built.

`training.trainer.Trainer` calls them in this order (the order matters: every rank seeds the same RNG after the
process group exists, and the model's random parts are drawn from it):

    runtime   = setup_runtime(cfg.train, cfg.distributed, ...)   process group, device, precision, GradScaler
    seed_everything(cfg.train.seed)
    data      = setup_data(cfg.data, cfg.train, ...)               datasets, pair count, total steps
    model     = setup_model(cfg.model, cfg.objective, runtime, ...) tokenizer, objective (+ torch.compile), eval encoder
    phases    = PhasePolicy.for_objective(...)                      head warm-up or not (training.phases)
    optimizer = setup_optimizer(cfg.optim, model.objective, phases)
    network   = wrap_for_ddp(model.objective, runtime, ...)         what forward/backward runs through
    batches   = data.new_batch_source()
    loader    = setup_loader(cfg.data, cfg.model, ...)              at the first batch

Each takes its own section of the config (and the few settings of other sections it needs, by keyword), never
the whole TrainConfig.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from bsl_pipeline.pipeline.base.devices import resolve_device, resolve_dtype
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.model_limits import usable_positions
from bsl_pipeline.pipeline.base.safetensors_check import check_safetensors_dir
from bsl_pipeline.training.accel import compile_objective
from bsl_pipeline.training.batch_source import BatchSource
from bsl_pipeline.training.config import (
    DataConfig,
    DistributedConfig,
    EvalConfig,
    ModelConfig,
    ObjectiveConfig,
    OptimConfig,
    TrainLoopConfig,
)
from bsl_pipeline.training.data import PairStream, resolve_sources
from bsl_pipeline.training.distributed import DistInfo, init_distributed
from bsl_pipeline.training.encoder import SentenceEncoder, TransformerEncoder, load_tokenizer
from bsl_pipeline.training.loader import BatchLoader, BatchPreparer
from bsl_pipeline.training.objectives import build_objective
from bsl_pipeline.training.objectives.base import Objective
from bsl_pipeline.training.phases import PhasePolicy
from bsl_pipeline.training.st_directory import module_folders, read_sentence_transformers_dir

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Runtime:
    dist: DistInfo
    device: torch.device
    autocast_dtype: torch.dtype | None            # None = float32, no autocast
    scaler: torch.amp.GradScaler | None           # fp16 only
    local_batch: int                              # this rank's share of train.batch_size


def setup_runtime(train: TrainLoopConfig, distributed: DistributedConfig, *,
                  grad_scaler_init_scale: float) -> Runtime:
    device = resolve_device(train.device)
    dist = init_distributed(distributed.backend, device.type, distributed.timeout_minutes)
    try:
        if device.type == "cuda" and dist.enabled:
            device = torch.device("cuda", dist.local_rank)
        dtype = resolve_dtype(train.precision, device)
        if train.batch_size % dist.world_size:
            raise BSLError(f"train.batch_size={train.batch_size} must be divisible by the number of "
                           f"processes ({dist.world_size})")
    except BaseException:
        close_distributed(dist)  # leave no process group behind a failed set-up
        raise
    scaler = (torch.amp.GradScaler(device.type, init_scale=grad_scaler_init_scale)
              if dtype == torch.float16 else None)
    return Runtime(dist, device, None if dtype == torch.float32 else dtype, scaler,
                   train.batch_size // dist.world_size)


def close_distributed(dist: DistInfo) -> None:
    """End the process group if this process started it."""
    if dist.initialized_here:
        import torch.distributed

        if torch.distributed.is_initialized():
            torch.distributed.destroy_process_group()


@dataclass(frozen=True)
class DataPlan:
    data: DataConfig
    seed: int                                      # train.seed
    batch_size: int                                # train.batch_size (the global batch)
    sources: list[Any]                             # training.data sources (manifest checksums, pair counts)
    total_pairs: int
    total_steps: int

    def new_batch_source(self) -> BatchSource:
        """The training batches from the start of the data (a fresh stream over the datasets)."""
        d = self.data
        stream = PairStream(self.sources, self.seed, d.shuffle, d.shuffle_buffer, d.read_batch_size)
        return BatchSource(stream, self.batch_size, d.length_grouping_window, self.seed)


def setup_data(data: DataConfig, train: TrainLoopConfig, *, grad_accum_steps: int) -> DataPlan:
    sources = resolve_sources(data)
    total_pairs = sum(s.pairs for s in sources)
    pairs_per_step = train.batch_size * grad_accum_steps
    total_steps = train.max_steps or max(1, math.ceil(train.epochs * total_pairs / pairs_per_step))
    return DataPlan(data, train.seed, train.batch_size, sources, total_pairs, total_steps)


@dataclass(frozen=True)
class ModelParts:
    tokenizer: Any
    objective: Objective                          # owns the online encoder (objective.encoder)
    eval_encoder: TransformerEncoder              # what evaluators see: the online encoder in eval mode
    compile_status: str                           # what train.compile did ("off", "compiled", "eager (...)")


def setup_model(model: ModelConfig, objective_config: ObjectiveConfig, runtime: Runtime, *, train: TrainLoopConfig,
                evaluation: EvalConfig, exported: bool = True) -> ModelParts:
    """The tokenizer, the objective around the encoder `model` names (torch.compile'd as `train.compile` says) and
    the encoder evaluators see (batched as `evaluation` says). `exported` (export.enabled): the run ends with an
    export, which reads a sentence-transformers starting model's module configs."""
    m = model
    check_safetensors_dir(m.name_or_path, "model.name_or_path")
    root = Path(m.name_or_path).expanduser()
    if (root / "modules.json").is_file():
        # The export reads its modules (and their configs) at the end: checked before training.
        read_sentence_transformers_dir(root) if exported else module_folders(root)
    tokenizer = load_tokenizer(m.name_or_path)
    try:
        encoder = SentenceEncoder.from_pretrained(m.name_or_path, m.pooling, m.dropout)
    except RuntimeError as exc:  # e.g. a tensor whose shape does not fit the model's config
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise BSLError(f"model.name_or_path={m.name_or_path}: cannot load its weights: {first}") from None
    problem = weights_problem(encoder)
    if problem:
        raise BSLError(f"model.name_or_path={m.name_or_path}: {problem}")
    positions = usable_positions(encoder.model.config)
    if positions is not None and m.max_length > positions:
        raise BSLError(f"model.max_length={m.max_length} is more tokens than {m.name_or_path} can take "
                       f"({positions}, its position embeddings): set model.max_length to at most {positions}")
    if m.gradient_checkpointing:
        encoder.model.gradient_checkpointing_enable()
    objective = build_objective(objective_config, encoder, tokenizer, max_length=m.max_length).to(runtime.device)
    # What evaluators see: the online encoder in eval mode, as exported models give it.
    eval_encoder = TransformerEncoder(objective.encoder, tokenizer, max_length=m.max_length,
                                      batch_size=evaluation.batch_size, max_tokens=evaluation.max_tokens,
                                      device=runtime.device, autocast_dtype=runtime.autocast_dtype,
                                      sdpa_backend=m.sdpa_backend, name="online encoder")
    compile_status = compile_objective(objective, train.compile, runtime.device, mode=train.compile_mode,
                                       backend=train.compile_backend, static_shapes=bool(m.length_buckets))
    log.info("train.compile: %s", compile_status)
    return ModelParts(tokenizer, objective, eval_encoder, compile_status)


def weights_problem(module: torch.nn.Module) -> str | None:
    """A loaded model that cannot train: a parameter that is not floating point, or holds NaN/inf values."""
    for name, param in module.named_parameters():
        if not param.is_floating_point():
            return f"parameter {name} is {param.dtype}, weights must be floating point"
        if not bool(torch.isfinite(param).all()):
            return f"parameter {name} holds NaN or inf values"
    return None


def setup_optimizer(optim: OptimConfig, objective: Objective,
                    phases: PhasePolicy) -> tuple[torch.optim.Optimizer, list[torch.nn.Parameter]]:
    """The optimizer over the objective's trainable parameters (in the policy's named groups), and that list."""
    trainable = [p for p in objective.parameters() if p.requires_grad]
    cls = torch.optim.AdamW if optim.optimizer == "adamw" else torch.optim.Adam
    kwargs = dict(lr=optim.lr, betas=(optim.betas[0], optim.betas[1]), eps=optim.eps)
    groups = phases.param_groups(trainable)
    # The fused kernel is much faster than foreach on CPU for MiniLM + predictor (docs/results/speed.md)
    # and also handles GradScaler-skipped steps; fall back where a device has no fused implementation.
    try:
        return cls(groups, fused=True, **kwargs), trainable
    except (RuntimeError, ValueError):
        return cls(groups, foreach=True, **kwargs), trainable


def wrap_for_ddp(objective: Objective, runtime: Runtime, *, find_unused_parameters: bool) -> torch.nn.Module:
    """What forward/backward runs through: the objective itself, or DistributedDataParallel around it."""
    if not runtime.dist.enabled:
        return objective
    from torch.nn.parallel import DistributedDataParallel

    return DistributedDataParallel(
        objective, device_ids=[runtime.dist.local_rank] if runtime.device.type == "cuda" else None,
        # Buffers (BatchNorm statistics, the EMA target's) evolve identically on every rank; no need to
        # broadcast them before each forward.
        forward_sync_buffers=False, find_unused_parameters=find_unused_parameters)


def setup_loader(data: DataConfig, model: ModelConfig, runtime: Runtime, parts: ModelParts, plan: DataPlan,
                 batches: BatchSource, *, grad_accum_steps: int) -> BatchLoader:
    """This rank's collated micro-batches from `batches` (in-process, or from forked workers)."""
    workers = data.workers
    if workers == "auto":
        workers = 2 if runtime.device.type == "cuda" else 0
    prepare = BatchPreparer(parts.objective.collate, seed=plan.seed, rank=runtime.dist.rank,
                            local_batch=runtime.local_batch, grad_accum_steps=grad_accum_steps,
                            buckets=sorted(model.length_buckets), max_length=model.max_length,
                            pad_id=parts.tokenizer.pad_token_id or 0)
    return BatchLoader(batches, prepare, new_source=plan.new_batch_source, workers=workers,
                       prefetch=data.prefetch_batches, pin_memory=data.pin_memory and runtime.device.type == "cuda")
