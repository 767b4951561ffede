"""The trainer: one loop for every objective.

    result = train(load_config(TrainConfig, "configs/train_bsl.yaml"))

`Trainer.__init__` sets everything up (process group, device and precision, seeds, data, model, optimizer, and the
state of a checkpoint when resuming); `fit()` runs the loop; `save_checkpoint()` / `export()` write results.
What is measured during training comes in as `Evaluator` objects (training.evaluation.dev_evaluators builds the
STS-B dev one from the config; `training.train` does that for you); the trainer only calls them.
One optimizer step is:

    objective.begin_step(step)                     # BSL: predictor warm-up (encoder frozen) or normal training
    for each of grad_accum_steps micro-batches:   loss = objective(batch) / accum;  loss.backward()
    lr = schedule(step);  clip gradients;  optimizer step (skipped on inf/nan gradients)
    if the step was applied:  objective.on_optimizer_step()         # BSL: EMA update of the target

An objective with a head that warms up first (BSL's predictor, `objective.head_warmup()`) gets it in its own param
groups: during the warm-up only the head trains, at its constant lr, and the encoder's schedule (warmup, decay)
counts from the end of it (training.schedule.phase_lrs).

Under torchrun every process reads the same pair stream and trains on its slice of each global batch, so a run on
W processes sees exactly the batches of a single-process run with the same train.batch_size.

Batches come from training.loader (tokenised ahead in worker processes when data.workers asks for it, same order
and resume either way); training.accel sets the attention kernels and torch.compile (model.sdpa_backend,
train.compile).
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol

import torch
import yaml

from pipeline.base.atomic import write_text_atomic
from pipeline.base.config import to_dict
from pipeline.base.devices import resolve_device, resolve_dtype
from pipeline.base.errors import BSLError
from pipeline.base.progress import progress_disabled
from training import checkpoint as ckpt
from training.accel import compile_objective, forward_context
from training.batch_source import BatchSource
from training.config import RESUME_MUST_MATCH, TrainConfig, validate_config
from training.data import PairStream, resolve_sources
from training.distributed import all_reduce_mean, barrier, init_distributed
from training.encoder import (
    Encoder,
    SentenceEncoder,
    TransformerEncoder,
    load_tokenizer,
)
from training.loader import BatchLoader, BatchPreparer
from training.logger import RunLogger
from training.objectives import build_objective
from training.schedule import phase_lrs, warmup_steps_for

log = logging.getLogger(__name__)

FINAL_DIR = "final"
BEST_DIR = "best"
CHECKPOINTS_DIR = "checkpoints"
EXPORT_DIR = "export"
TRAIN_FIELDS = ["step", "epoch", "phase", "loss", "lr", "grad_norm", "examples_per_s", "tokens_per_s",
                "nonpad_fraction", "step_time_s", "skipped_steps"]
ENCODER_GROUP = "encoder"


class Evaluator(Protocol):
    """Something the trainer measures its online encoder with (every eval.every_steps and at the end, rank 0).

    `metric_names` are the keys of the dict a call returns (the eval.csv columns); the first is the headline that
    picks output_dir/best (higher is better) when several evaluators are given, the first evaluator's."""

    name: str
    metric_names: tuple[str, ...]

    def __call__(self, encoder: Encoder) -> dict[str, float]: ...


@dataclass
class TrainResult:
    output_dir: Path
    step: int
    total_steps: int
    completed: bool                      # False when the run stopped early at train.stop_at_step
    final_checkpoint: Path | None        # output_dir/final (completed runs) or the last periodic checkpoint
    export_dir: Path | None
    best_checkpoint: Path | None
    best_metric: float | None            # best value of the headline dev metric (STS-B dev Spearman x100)
    metrics: dict[str, Any] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)  # the logged rows (metrics.csv)


def train(config: TrainConfig, *, evaluators: Sequence[Evaluator] = (),
          disable_progress: bool | None = None) -> TrainResult:
    """Train as configured (resuming when config.train.resume says so), measuring with `evaluators`; return paths
    and metrics."""
    trainer = Trainer(config, evaluators=evaluators, disable_progress=disable_progress)
    try:
        return trainer.fit()
    finally:
        trainer.close()


def _get(tree: dict[str, Any], dotted: str) -> Any:
    for part in dotted.split("."):
        tree = tree.get(part) if isinstance(tree, dict) else None
    return tree


class Trainer:
    def __init__(self, config: TrainConfig, *, evaluators: Sequence[Evaluator] = (),
                 disable_progress: bool | None = None):
        validate_config(config)
        self.config = config
        self.evaluators = list(evaluators)
        if config.eval.stsb_dir and not self.evaluators:
            log.warning("eval.stsb_dir is set but the trainer was given no evaluators, so nothing is measured; "
                        "build them with training.evaluation.dev_evaluators(config.eval) or call training.train")
        self.disable_progress = progress_disabled(disable_progress)
        self.logger: RunLogger | None = None
        self.loader: BatchLoader | None = None
        self.history: list[dict[str, Any]] = []
        self.dist = None
        try:
            self._setup()
        except BaseException:
            self.close()  # leave no process group or open event file behind a failed set-up
            raise

    # -- set-up ------------------------------------------------------------------------------------------------
    def _setup(self) -> None:
        cfg = self.config
        self.output_dir = Path(cfg.train.output_dir)
        self._setup_device()
        # Same seed on every rank: the model (predictor, projection head) starts identical everywhere.
        ckpt.seed_everything(cfg.train.seed)
        self._setup_data()
        self._setup_model()
        self.step = 0
        self.skipped_steps = 0
        self.best_metric: float | None = None
        self.best_step: int | None = None
        self.last_eval: dict[str, float] = {}
        self._last_eval_step: int | None = None
        self.resumed_from = self._resume_path()
        if self.resumed_from is not None:
            self._load(self.resumed_from)
        else:
            # Dropout differs between ranks; rank 0 draws exactly what a single process would.
            torch.manual_seed(cfg.train.seed + self.dist.rank)
        if self.dist.is_main:
            self.output_dir.mkdir(parents=True, exist_ok=True)
            write_text_atomic(self.output_dir / "config.yaml", yaml.safe_dump(to_dict(cfg), sort_keys=False))
        fields = TRAIN_FIELDS + [f"lr_{name}" for name in self.group_names if name != ENCODER_GROUP]
        fields += [m for m in self.objective.metric_names if m not in fields]
        self.logger = RunLogger(self.output_dir, self.dist.is_main, cfg.train.tensorboard, fields,
                                [m for e in self.evaluators for m in e.metric_names],
                                resume_step=self.step if self.resumed_from is not None else None)

    def _setup_device(self) -> None:
        cfg = self.config
        device = resolve_device(cfg.train.device)
        self.dist = init_distributed(cfg.distributed.backend, device.type, cfg.distributed.timeout_minutes)
        if device.type == "cuda" and self.dist.enabled:
            device = torch.device("cuda", self.dist.local_rank)
        self.device = device
        dtype = resolve_dtype(cfg.train.precision, device)
        self.autocast_dtype = None if dtype == torch.float32 else dtype
        self.scaler = (torch.amp.GradScaler(device.type, init_scale=cfg.optim.grad_scaler_init_scale)
                       if dtype == torch.float16 else None)
        world = self.dist.world_size
        if cfg.train.batch_size % world:
            raise BSLError(f"train.batch_size={cfg.train.batch_size} must be divisible by the number of "
                           f"processes ({world})")
        self.local_batch = cfg.train.batch_size // world

    def _setup_data(self) -> None:
        cfg = self.config
        self.sources = resolve_sources(cfg.data)
        self.total_pairs = sum(s.pairs for s in self.sources)
        pairs_per_step = cfg.train.batch_size * cfg.optim.grad_accum_steps
        self.total_steps = cfg.train.max_steps or max(1, math.ceil(cfg.train.epochs * self.total_pairs
                                                                   / pairs_per_step))

    def _setup_model(self) -> None:
        cfg = self.config
        self.tokenizer = load_tokenizer(cfg.model.name_or_path)
        encoder = SentenceEncoder.from_pretrained(cfg.model.name_or_path, cfg.model.pooling, cfg.model.dropout)
        if cfg.model.gradient_checkpointing:
            encoder.model.gradient_checkpointing_enable()
        self.objective = build_objective(cfg.objective, encoder, self.tokenizer,
                                         max_length=cfg.model.max_length).to(self.device)
        # What evaluators see: the online encoder in eval mode, as exported models give it.
        self.eval_encoder = TransformerEncoder(self.objective.encoder, self.tokenizer, max_length=cfg.model.max_length,
                                            batch_size=cfg.eval.batch_size, max_tokens=cfg.eval.max_tokens,
                                            device=self.device, autocast_dtype=self.autocast_dtype,
                                            sdpa_backend=cfg.model.sdpa_backend, name="online encoder")
        self.compile_status = compile_objective(self.objective, cfg.train.compile, self.device,
                                                mode=cfg.train.compile_mode, backend=cfg.train.compile_backend,
                                                static_shapes=bool(cfg.model.length_buckets))
        log.info("train.compile: %s", self.compile_status)
        self.trainable = [p for p in self.objective.parameters() if p.requires_grad]
        self._setup_schedule()
        self.optimizer = self._build_optimizer()
        self.model: torch.nn.Module = self.objective
        if self.dist.enabled:
            from torch.nn.parallel import DistributedDataParallel

            self.model = DistributedDataParallel(
                self.objective, device_ids=[self.dist.local_rank] if self.device.type == "cuda" else None,
                # Buffers (BatchNorm statistics, the EMA target's) evolve identically on every rank; no need to
                # broadcast them before each forward.
                forward_sync_buffers=False,
                # While a head warms up alone the encoder's parameters get no gradient in those steps.
                find_unused_parameters=cfg.distributed.find_unused_parameters or self.head_steps > 0)
        self.batches = self.new_batch_source()

    def new_batch_source(self) -> BatchSource:
        """The training batches from the start of the data (a fresh stream over the datasets)."""
        cfg = self.config
        stream = PairStream(self.sources, cfg.train.seed, cfg.data.shuffle, cfg.data.shuffle_buffer,
                            cfg.data.read_batch_size)
        return BatchSource(stream, cfg.train.batch_size, cfg.data.length_grouping_window, cfg.train.seed)

    def _setup_schedule(self) -> None:
        """The objective's warming-up head (if any) and the encoder's schedule, which starts after its warm-up."""
        o = self.config.optim
        self.head = self.objective.head_warmup()
        self.head_steps = min(self.head.steps, self.total_steps) if self.head is not None else 0
        if self.head is not None and self.head_steps >= self.total_steps and self.dist.is_main:
            log.warning("the %s warm-up (%d steps) covers the whole run (%d steps): the encoder will not train",
                        self.head.name, self.head.steps, self.total_steps)
        self.warmup = warmup_steps_for(self.total_steps - self.head_steps, o.warmup_steps, o.warmup_ratio)
        self.head_ids = {id(p) for p in self.head.parameters} if self.head is not None else set()
        self.frozen_during_warmup = [p for p in self.trainable if id(p) not in self.head_ids]
        self.group_names = [ENCODER_GROUP] + ([self.head.name] if self.head is not None else [])

    def _build_optimizer(self) -> torch.optim.Optimizer:
        o = self.config.optim
        groups = []
        for name in self.group_names:
            decay, no_decay = [], []
            for p in self.trainable:
                if (id(p) in self.head_ids) == (name != ENCODER_GROUP):
                    (no_decay if o.no_decay_bias_and_norm and p.ndim <= 1 else decay).append(p)
            groups += [{"params": params, "weight_decay": wd, "name": name}
                       for params, wd in ((decay, o.weight_decay), (no_decay, 0.0)) if params]
        cls = torch.optim.AdamW if o.optimizer == "adamw" else torch.optim.Adam
        kwargs = dict(lr=o.lr, betas=(o.betas[0], o.betas[1]), eps=o.eps)
        # The fused kernel is ~9x faster than foreach on CPU for MiniLM + predictor (benchmarks/bench_trainer.py)
        # and also handles GradScaler-skipped steps; fall back where a device has no fused implementation.
        try:
            return cls(groups, fused=True, **kwargs)
        except (RuntimeError, ValueError):
            return cls(groups, foreach=True, **kwargs)

    def _resume_path(self) -> Path | None:
        resume = self.config.train.resume
        found = ckpt.checkpoint_dirs(self.output_dir / CHECKPOINTS_DIR, self.output_dir / FINAL_DIR)
        if resume is None:
            if found:
                raise BSLError(f"{self.output_dir} already holds checkpoints (latest: {found[-1][1]}); continue "
                               f"with -o train.resume=auto or choose another train.output_dir")
            return None
        if resume == "auto":
            return ckpt.choose_resume_checkpoint(found, self.config.train.resume_fallback, self.dist.rank)
        path = Path(resume)
        problem = ckpt.checkpoint_problem(path, self.dist.rank)
        if problem:
            raise BSLError(f"train.resume={resume}: not a resumable checkpoint ({problem})")
        return path

    def _load(self, path: Path) -> None:
        info = ckpt.read_checkpoint_json(path)
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
        old_sums = [s.get("manifest_checksum") for s in info.get("data", {}).get("sources", [])]
        new_sums = [s.manifest_checksum for s in self.sources]
        if old_sums != new_sums:
            raise BSLError(f"cannot resume from {path}: the training datasets changed since the checkpoint "
                           f"(manifest checksums differ)")
        state = ckpt.load_state(path / ckpt.STATE_FILE, map_location=self.device)
        self.objective.load_state_dict(state["objective"])
        self.optimizer.load_state_dict(state["optimizer"])
        if self.scaler is not None and state.get("scaler"):
            self.scaler.load_state_dict(state["scaler"])
        self.step = int(state["step"])
        run = state.get("run", {})
        self.skipped_steps = int(run.get("skipped_steps", 0))
        self.best_metric = run.get("best_metric")
        self.best_step = run.get("best_step")
        self.last_eval = dict(run.get("last_eval") or {})
        self._last_eval_step = run.get("last_eval_step")
        self.batches.restore(state["data"])
        ckpt.restore_rng_state(ckpt.load_state(ckpt.rng_path(path, self.dist.rank)))

    # -- one optimizer step ------------------------------------------------------------------------------------
    def _start_loader(self) -> BatchLoader:
        cfg = self.config
        workers = cfg.data.workers
        if workers == "auto":
            workers = 2 if self.device.type == "cuda" else 0
        prepare = BatchPreparer(self.objective.collate, seed=cfg.train.seed, rank=self.dist.rank,
                                local_batch=self.local_batch, grad_accum_steps=cfg.optim.grad_accum_steps,
                                buckets=sorted(cfg.model.length_buckets), max_length=cfg.model.max_length,
                                pad_id=self.tokenizer.pad_token_id or 0)
        return BatchLoader(self.batches, prepare, new_source=self.new_batch_source, workers=workers,
                           prefetch=cfg.data.prefetch_batches,
                           pin_memory=cfg.data.pin_memory and self.device.type == "cuda")

    @property
    def data_position(self) -> dict[str, Any]:
        """Where the data stands after the last batch trained on (what a checkpoint records)."""
        return self.loader.position if self.loader is not None else self.batches.position

    @property
    def pairs_used(self) -> int:
        return int(self.data_position.get("batches", 0)) * self.config.train.batch_size

    def next_micro_batch(self) -> tuple[dict[str, Any], tuple[int, int]]:
        """The local slice of the next global batch, collated and on the device; and its (non-padding, padded)
        token counts."""
        if self.loader is None:
            self.loader = self._start_loader()
        ready = self.loader.next()
        batch = {k: {n: t.to(self.device, non_blocking=True) for n, t in f.items()} for k, f in ready.features.items()}
        return batch, (ready.tokens, ready.padded_tokens)

    def train_step(self) -> dict[str, Any]:
        """Forward/backward over grad_accum_steps micro-batches, then `optimizer_step`."""
        accum = self.config.optim.grad_accum_steps
        self.objective.begin_step(self.step)
        self.model.train()
        loss_sum = torch.zeros((), device=self.device)
        metric_sums: dict[str, torch.Tensor] = {}
        tokens = padded = 0
        for micro in range(accum):
            batch, (n_tokens, n_padded) = self.next_micro_batch()
            tokens += n_tokens
            padded += n_padded
            last = micro == accum - 1
            no_sync = self.model.no_sync() if self.dist.enabled and not last else contextlib.nullcontext()
            with no_sync:
                with forward_context(self.device, self.autocast_dtype, self.config.model.sdpa_backend):
                    loss, metrics = self.model(batch)
                scaled = loss / accum
                (self.scaler.scale(scaled) if self.scaler is not None else scaled).backward()
            loss_sum += loss.detach().float()
            for k, v in metrics.items():
                metric_sums[k] = metric_sums.get(k, 0) + v.detach().float()
        lrs = self.set_lr()
        stepped, grad_norm = self.optimizer_step()
        return {"loss": loss_sum / accum, "metrics": {k: v / accum for k, v in metric_sums.items()},
                "grad_norm": grad_norm, "lr": lrs[ENCODER_GROUP], "lrs": lrs, "stepped": stepped,
                "phase": self.objective.phase, "examples": self.config.train.batch_size * accum, "tokens": tokens,
                "padded_tokens": padded}

    def set_lr(self) -> dict[str, float]:
        """Set and return each param group's learning rate for this step, by group name."""
        o = self.config.optim
        encoder_lr, head_lr = phase_lrs(
            self.step, head_steps=self.head_steps, head_lr=self.head.lr if self.head is not None else None,
            base_lr=o.lr, total_steps=self.total_steps - self.head_steps, warmup=self.warmup, schedule=o.schedule,
            min_lr_ratio=o.min_lr_ratio)
        lrs = {name: encoder_lr if name == ENCODER_GROUP else head_lr for name in self.group_names}
        for group in self.optimizer.param_groups:
            group["lr"] = lrs[group["name"]]
        return lrs

    def optimizer_step(self) -> tuple[bool, torch.Tensor]:
        """Clip and apply the accumulated gradients, or skip them when they are not finite (the fp16 GradScaler
        decides for itself; without one, `optim.skip_nonfinite`). Only an applied step moves the EMA target.
        Returns (applied, global gradient norm before clipping)."""
        o = self.config.optim
        if self.objective.head_only:
            # Frozen means no update at all: a zero gradient would still move weights through weight decay and
            # Adam's moments (DDP may hand unused parameters zeros).
            for p in self.frozen_during_warmup:
                p.grad = None
        if self.scaler is not None:
            self.scaler.unscale_(self.optimizer)
        grads = [p.grad for p in self.trainable if p.grad is not None]
        if o.max_grad_norm > 0:
            grad_norm = torch.nn.utils.clip_grad_norm_(self.trainable, o.max_grad_norm, foreach=True)
        else:
            grad_norm = torch.nn.utils.get_total_norm(grads, foreach=True) if grads else torch.zeros(())
        if self.scaler is not None:
            scale_before = self.scaler.get_scale()
            self.scaler.step(self.optimizer)
            self.scaler.update()
            # GradScaler skips the step and lowers the scale exactly when it found inf/nan gradients.
            stepped = self.scaler.get_scale() >= scale_before
        else:
            stepped = bool(torch.isfinite(grad_norm)) or not o.skip_nonfinite
            if stepped:
                self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        if stepped:
            self.objective.on_optimizer_step()
        else:
            self.skipped_steps += 1
        return stepped, grad_norm.detach()

    # -- the loop ----------------------------------------------------------------------------------------------
    def fit(self) -> TrainResult:
        cfg = self.config.train
        stop = min(self.total_steps, cfg.stop_at_step) if cfg.stop_at_step else self.total_steps
        bar = None
        if self.dist.is_main and not self.disable_progress and self.step < stop:
            from tqdm import tqdm

            bar = tqdm(total=self.total_steps, initial=self.step, unit="step", dynamic_ncols=True,
                       desc=f"train {self.config.objective.name}")
        self._bar_phase = None
        window: list[dict[str, Any]] = []
        window_time = 0.0
        while self.step < stop:
            t0 = time.perf_counter()
            stats = self.train_step()
            if self.device.type == "cuda":
                torch.cuda.synchronize(self.device)
            window_time += time.perf_counter() - t0
            self.step += 1
            window.append(stats)
            # A logged window never mixes the head warm-up with normal training.
            if self.step % max(1, cfg.log_every) == 0 or self.step in (stop, self.head_steps):
                row = self._log(window, window_time)
                window, window_time = [], 0.0
                if bar is not None:
                    bar.set_postfix(loss=f"{row['loss']:.4f}", lr=f"{row['lr']:.2e}", refresh=False)
            if bar is not None:
                self._advance_bar(bar, stats["phase"])
            every = self.config.eval.every_steps
            if every and self.step % every == 0 and self.step < self.total_steps:
                self.evaluate()
            if cfg.save_every and self.step % cfg.save_every == 0 and self.step < stop:
                self.save_checkpoint(self.output_dir / CHECKPOINTS_DIR / ckpt.step_dir_name(self.step))
                if self.dist.is_main:
                    ckpt.prune_checkpoints(self.output_dir / CHECKPOINTS_DIR, cfg.keep_checkpoints)
        if bar is not None:
            bar.close()
        completed = self.step >= self.total_steps
        if completed:
            if self.config.eval.at_end and self._last_eval_step != self.step:
                self.evaluate()
            final = self.save_checkpoint(self.output_dir / FINAL_DIR)
        else:
            final = self.save_checkpoint(self.output_dir / CHECKPOINTS_DIR / ckpt.step_dir_name(self.step))
        export_dir = self.export() if completed and self.config.export.enabled else None
        skipped = dict(self.data_position.get("skipped", {}))
        if skipped and self.dist.is_main:
            log.warning("skipped pairs (counted, not trained on): %s", skipped)
        best = self.output_dir / BEST_DIR
        return TrainResult(
            output_dir=self.output_dir, step=self.step, total_steps=self.total_steps, completed=completed,
            final_checkpoint=final, export_dir=export_dir,
            best_checkpoint=best if (best / ckpt.CHECKPOINT_JSON).is_file() else None,
            best_metric=self.best_metric, history=list(self.history),
            metrics={"final_loss": self.history[-1]["loss"] if self.history else None,
                     **self.last_eval, "best_step": self.best_step,
                     "skipped_steps": self.skipped_steps, "pairs_drawn": self.pairs_used,
                     "skipped_pairs": skipped, "resumed_from": self.resumed_from})

    def _advance_bar(self, bar, phase: str) -> None:
        if phase != self._bar_phase:
            self._bar_phase = phase
            # Refreshed at once: a short warm-up would not show otherwise.
            bar.set_description(f"train {self.config.objective.name} [{phase}]")
        bar.update(1)

    def _log(self, window: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
        n = len(window)
        loss = all_reduce_mean(torch.stack([w["loss"] for w in window]).mean()).item()
        grad_norm = torch.stack([w["grad_norm"].float().cpu() for w in window]).mean().item()
        examples = sum(w["examples"] for w in window)
        local_tokens = torch.tensor([float(sum(w["tokens"] for w in window)),
                                     float(sum(w["padded_tokens"] for w in window))], device=self.device)
        tokens, padded = (all_reduce_mean(local_tokens) * self.dist.world_size).tolist()
        row: dict[str, Any] = {
            "step": self.step, "epoch": self.pairs_used / self.total_pairs, "phase": window[-1]["phase"],
            "loss": loss, "lr": window[-1]["lr"],
            **{f"lr_{name}": lr for name, lr in window[-1]["lrs"].items() if name != ENCODER_GROUP},
            "grad_norm": grad_norm, "examples_per_s": examples / seconds if seconds > 0 else float("nan"),
            "tokens_per_s": tokens / seconds if seconds > 0 else float("nan"),
            "nonpad_fraction": tokens / padded if padded else float("nan"),
            "step_time_s": seconds / n, "skipped_steps": self.skipped_steps,
        }
        for key in window[-1]["metrics"]:
            row[key] = all_reduce_mean(torch.stack([w["metrics"][key] for w in window]).mean()).item()
        self.history.append(row)
        if self.logger is not None:
            self.logger.log_train(self.step, row)
        return row

    # -- evaluation, checkpoints, export -----------------------------------------------------------------------
    def encode(self, sentences: Sequence[str], batch_size: int | None = None) -> torch.Tensor:
        """Embeddings of the online encoder (eval mode), as exported models give them."""
        return torch.from_numpy(self.eval_encoder.encode(sentences, disable_progress=True, batch_size=batch_size))

    @property
    def headline_metric(self) -> str | None:
        """The metric that picks output_dir/best: the first evaluator's first metric."""
        return self.evaluators[0].metric_names[0] if self.evaluators else None

    def evaluate(self) -> float | None:
        """Every evaluator on the online encoder (rank 0); returns the headline metric and keeps output_dir/best
        up to date."""
        if not self.evaluators:
            return None
        score = None
        self._last_eval_step = self.step  # before best/ is written, so that its json holds these numbers
        if self.dist.is_main:
            start = time.perf_counter()
            row: dict[str, float] = {}
            # Evaluation must not shift the training RNG streams (a run with and without eval trains the same).
            with torch.random.fork_rng(devices=[self.device] if self.device.type == "cuda" else []):
                for evaluator in self.evaluators:
                    row.update(evaluator(self.eval_encoder))
            self.logger.log_eval(self.step, {**row, "seconds": time.perf_counter() - start})
            self.last_eval = row
            score = float(row[self.headline_metric])
            if self.config.eval.save_best and score == score and (self.best_metric is None
                                                                  or score > self.best_metric):
                self.best_metric, self.best_step = score, self.step
                self._write_checkpoint_dir(self.output_dir / BEST_DIR, resumable=False)
        barrier()
        return score

    def _checkpoint_info(self, resumable: bool) -> dict[str, Any]:
        from pipeline.base.provenance import code_version

        return {
            "format_version": ckpt.FORMAT_VERSION, "pooling": self.config.model.pooling, "step": self.step,
            "total_steps": self.total_steps, "objective": self.config.objective.name, "encoder": ckpt.ENCODER_DIR,
            "max_length": self.config.model.max_length, "base_model": self.config.model.name_or_path,
            "resumable": resumable, "world_size": self.dist.world_size,
            "eval": self.last_eval if self._last_eval_step == self.step else {},
            "best": {"metric": self.headline_metric, "value": self.best_metric, "step": self.best_step},
            "data": {"sources": [s.describe() for s in self.sources], "position": self.data_position},
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"), "code_version": code_version(),
            "config": to_dict(self.config),
        }

    def _write_checkpoint_dir(self, directory: Path, resumable: bool) -> None:
        """Rank 0 only: encoder/ + bsl_checkpoint.json (+ trainer_state.pt) into `directory`, atomically."""
        tmp = ckpt.staging_dir(directory)
        self.objective.encoder.save_pretrained(tmp / ckpt.ENCODER_DIR, self.tokenizer)
        if resumable:
            ckpt.save_state(tmp / ckpt.STATE_FILE, self._state())
        ckpt.write_checkpoint_json(tmp, self._checkpoint_info(resumable))
        ckpt.publish_dir(tmp, directory)

    def _state(self) -> dict[str, Any]:
        return {
            "format_version": ckpt.FORMAT_VERSION, "step": self.step,
            "objective": self.objective.state_dict(), "optimizer": self.optimizer.state_dict(),
            "schedule": {"step": self.step, "total_steps": self.total_steps, "warmup_steps": self.warmup,
                         "head_warmup_steps": self.head_steps, "name": self.config.optim.schedule},
            "scaler": self.scaler.state_dict() if self.scaler is not None else {},
            "data": self.data_position,
            "run": {"skipped_steps": self.skipped_steps, "best_metric": self.best_metric,
                    "best_step": self.best_step, "last_eval": self.last_eval,
                    "last_eval_step": self._last_eval_step},
        }

    def save_checkpoint(self, directory: Path) -> Path:
        """A resumable checkpoint: rank 0 writes the shared state, every rank its RNG state."""
        rng_dir = directory.parent / f".{directory.name}.rng"
        if self.dist.is_main:
            directory.parent.mkdir(parents=True, exist_ok=True)
            rng_dir.mkdir(parents=True, exist_ok=True)
        barrier()
        ckpt.save_state(rng_dir / f"rank-{self.dist.rank}.pt", ckpt.capture_rng_state())
        barrier()
        if self.dist.is_main:
            tmp = ckpt.staging_dir(directory)
            self.objective.encoder.save_pretrained(tmp / ckpt.ENCODER_DIR, self.tokenizer)
            ckpt.save_state(tmp / ckpt.STATE_FILE, self._state())
            rng_dir.rename(tmp / ckpt.RNG_DIR)
            ckpt.write_checkpoint_json(tmp, self._checkpoint_info(resumable=True))
            ckpt.publish_dir(tmp, directory)
        barrier()
        return directory

    def export(self) -> Path | None:
        """The sentence-transformers dir (rank 0 writes; every rank gets the path)."""
        from training.export import export_sentence_transformer

        e = self.config.export
        out = Path(e.dir) if e.dir else self.output_dir / EXPORT_DIR
        if self.dist.is_main:
            encoder = self.objective.encoder
            if e.source == "best":
                best = self.output_dir / BEST_DIR
                if not (best / ckpt.CHECKPOINT_JSON).is_file():
                    raise BSLError("export.source=best but no best checkpoint exists (set eval.stsb_dir and "
                                   "eval.save_best=true)")
                encoder = SentenceEncoder.from_pretrained(str(best / ckpt.ENCODER_DIR), self.config.model.pooling)
            card = {"config": self.config, "sources": [s.describe() for s in self.sources],
                    "run": {"steps": self.step, "pairs seen": self.pairs_used,
                            "final loss": f"{self.history[-1]['loss']:.6f}" if self.history else "n/a",
                            **{f"{name} (last)": value for name, value in self.last_eval.items()},
                            f"{self.headline_metric or 'dev metric'} (best)": self.best_metric,
                            "exported": e.source}}
            export_sentence_transformer(encoder, self.tokenizer, out, max_length=self.config.model.max_length,
                                        normalize=e.normalize, card=card)
        barrier()
        return out

    def close(self) -> None:
        if self.loader is not None:
            self.loader.close()
        if self.logger is not None:
            self.logger.close()
        if self.dist is not None and self.dist.initialized_here:
            import torch.distributed as dist

            if dist.is_initialized():
                dist.destroy_process_group()
