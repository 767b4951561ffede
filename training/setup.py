"""The trainer's set-up, one function per part; each takes what it needs and returns what it built.

`training.trainer.Trainer` calls them in this order (the order matters: every rank seeds the same RNG after the
process group exists, and the model's random parts are drawn from it):

    runtime   = setup_runtime(config)                       process group, device, precision, GradScaler
    seed_everything(config.train.seed)
    data      = setup_data(config)                          datasets, pair count, total steps
    model     = setup_model(config, runtime)                tokenizer, objective (+ torch.compile), eval encoder
    phases    = PhasePolicy.for_objective(...)              head warm-up or not (training.phases)
    optimizer = setup_optimizer(config.optim, model.objective, phases)
    network   = wrap_for_ddp(model.objective, runtime, ...) what forward/backward runs through
    batches   = data.new_batch_source()
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any

import torch

from bsl_pipeline.pipeline.base.devices import resolve_device, resolve_dtype
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.model_limits import usable_positions
from bsl_pipeline.pipeline.base.safetensors_check import check_safetensors_dir
from bsl_pipeline.training.accel import compile_objective
from bsl_pipeline.training.batch_source import BatchSource
from bsl_pipeline.training.config import OptimConfig, TrainConfig
from bsl_pipeline.training.data import PairStream, resolve_sources
from bsl_pipeline.training.distributed import DistInfo, init_distributed
from bsl_pipeline.training.encoder import SentenceEncoder, TransformerEncoder, load_tokenizer
from bsl_pipeline.training.loader import BatchLoader, BatchPreparer
from bsl_pipeline.training.objectives import build_objective
from bsl_pipeline.training.objectives.base import Objective
from bsl_pipeline.training.phases import PhasePolicy

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Runtime:
    dist: DistInfo
    device: torch.device
    autocast_dtype: torch.dtype | None            # None = float32, no autocast
    scaler: torch.amp.GradScaler | None           # fp16 only
    local_batch: int                              # this rank's share of train.batch_size


def setup_runtime(config: TrainConfig) -> Runtime:
    cfg = config
    device = resolve_device(cfg.train.device)
    dist = init_distributed(cfg.distributed.backend, device.type, cfg.distributed.timeout_minutes)
    try:
        if device.type == "cuda" and dist.enabled:
            device = torch.device("cuda", dist.local_rank)
        dtype = resolve_dtype(cfg.train.precision, device)
        if cfg.train.batch_size % dist.world_size:
            raise BSLError(f"train.batch_size={cfg.train.batch_size} must be divisible by the number of "
                           f"processes ({dist.world_size})")
    except BaseException:
        close_distributed(dist)  # leave no process group behind a failed set-up
        raise
    scaler = (torch.amp.GradScaler(device.type, init_scale=cfg.optim.grad_scaler_init_scale)
              if dtype == torch.float16 else None)
    return Runtime(dist, device, None if dtype == torch.float32 else dtype, scaler,
                   cfg.train.batch_size // dist.world_size)


def close_distributed(dist: DistInfo) -> None:
    """End the process group if this process started it."""
    if dist.initialized_here:
        import torch.distributed

        if torch.distributed.is_initialized():
            torch.distributed.destroy_process_group()


@dataclass(frozen=True)
class DataPlan:
    config: TrainConfig
    sources: list[Any]                             # training.data sources (manifest checksums, pair counts)
    total_pairs: int
    total_steps: int

    def new_batch_source(self) -> BatchSource:
        """The training batches from the start of the data (a fresh stream over the datasets)."""
        cfg = self.config
        stream = PairStream(self.sources, cfg.train.seed, cfg.data.shuffle, cfg.data.shuffle_buffer,
                            cfg.data.read_batch_size)
        return BatchSource(stream, cfg.train.batch_size, cfg.data.length_grouping_window, cfg.train.seed)


def setup_data(config: TrainConfig) -> DataPlan:
    sources = resolve_sources(config.data)
    total_pairs = sum(s.pairs for s in sources)
    pairs_per_step = config.train.batch_size * config.optim.grad_accum_steps
    total_steps = config.train.max_steps or max(1, math.ceil(config.train.epochs * total_pairs / pairs_per_step))
    return DataPlan(config, sources, total_pairs, total_steps)


@dataclass(frozen=True)
class ModelParts:
    tokenizer: Any
    objective: Objective                          # owns the online encoder (objective.encoder)
    eval_encoder: TransformerEncoder              # what evaluators see: the online encoder in eval mode
    compile_status: str                           # what train.compile did ("off", "compiled", "eager (...)")


def setup_model(config: TrainConfig, runtime: Runtime) -> ModelParts:
    m = config.model
    check_safetensors_dir(m.name_or_path, "model.name_or_path")
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
    objective = build_objective(config.objective, encoder, tokenizer, max_length=m.max_length).to(runtime.device)
    # What evaluators see: the online encoder in eval mode, as exported models give it.
    eval_encoder = TransformerEncoder(objective.encoder, tokenizer, max_length=m.max_length,
                                      batch_size=config.eval.batch_size, max_tokens=config.eval.max_tokens,
                                      device=runtime.device, autocast_dtype=runtime.autocast_dtype,
                                      sdpa_backend=m.sdpa_backend, name="online encoder")
    t = config.train
    compile_status = compile_objective(objective, t.compile, runtime.device, mode=t.compile_mode,
                                       backend=t.compile_backend, static_shapes=bool(m.length_buckets))
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


def setup_loader(config: TrainConfig, runtime: Runtime, model: ModelParts, data: DataPlan,
                 batches: BatchSource) -> BatchLoader:
    """This rank's collated micro-batches from `batches` (in-process, or from forked workers)."""
    cfg = config
    workers = cfg.data.workers
    if workers == "auto":
        workers = 2 if runtime.device.type == "cuda" else 0
    prepare = BatchPreparer(model.objective.collate, seed=cfg.train.seed, rank=runtime.dist.rank,
                            local_batch=runtime.local_batch, grad_accum_steps=cfg.optim.grad_accum_steps,
                            buckets=sorted(cfg.model.length_buckets), max_length=cfg.model.max_length,
                            pad_id=model.tokenizer.pad_token_id or 0)
    return BatchLoader(batches, prepare, new_source=data.new_batch_source, workers=workers,
                       prefetch=cfg.data.prefetch_batches,
                       pin_memory=cfg.data.pin_memory and runtime.device.type == "cuda")
