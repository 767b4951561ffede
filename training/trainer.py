"""The trainer: one loop for every objective, and `train`, the one entry point (used as the package's docstring
shows). `train(config, evaluators=...)` gives the `Trainer` the evaluators its caller built (the evaluation stage's
dev evaluators for what `config.eval` asks), runs `fit()` and closes it; the `Trainer` only calls the evaluators it
is given. It is put together from parts that the functions of training.setup build and return, in one visible
order (`Trainer._set_up`); `training.phases.PhasePolicy` says what a warming-up head (BSL's predictor) means for the
optimizer; `training.checkpoint.Checkpointer` resumes and writes checkpoints/, final/, best/ and the export;
`training.run_state.RunState` is what the loop advances. One optimizer step is:

    objective.begin_step(step)                     # BSL: predictor warm-up (encoder frozen) or normal training
    for each of grad_accum_steps micro-batches:   loss = objective(batch) / accum;  loss.backward()
    lr = phases.lrs(step);  drop the frozen gradients;  clip;  optimizer step (skipped on inf/nan gradients)
    if the step was applied:  objective.on_optimizer_step()         # BSL: EMA update of the target

Under torchrun every process reads the same pair stream and trains on its slice of each global batch, so a run on
W processes sees exactly the batches of a single-process run with the same train.batch_size. Batches come from
training.loader (tokenised ahead in worker processes when data.workers asks for it, same order and resume either
way); training.accel sets the attention kernels and torch.compile (model.sdpa_backend, train.compile).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import torch

from bsl_pipeline.pipeline.base.config import to_dict
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.ownership import WriterLock
from bsl_pipeline.pipeline.base.progress import progress_disabled
from bsl_pipeline.training.accel import forward_context
from bsl_pipeline.training.checkpoint import Checkpointer
from bsl_pipeline.training.config import TrainConfig
from bsl_pipeline.training.distributed import all_reduce_mean, barrier
from bsl_pipeline.training.encoder import Encoder
from bsl_pipeline.training.loader import BatchLoader
from bsl_pipeline.training.logger import RunLogger
from bsl_pipeline.training.phases import ENCODER_GROUP, PhasePolicy, check_warmup_leaves_training
from bsl_pipeline.training.rng_state import seed_everything
from bsl_pipeline.training.run_directory import FINAL_DIR, claim_run_directory
from bsl_pipeline.training.run_state import RunState
from bsl_pipeline.training.setup import (
    Runtime,
    close_distributed,
    setup_data,
    setup_loader,
    setup_model,
    setup_optimizer,
    setup_runtime,
    wrap_for_ddp,
)

log = logging.getLogger(__name__)

TRAIN_FIELDS = ["step", "epoch", "phase", "loss", "lr", "grad_norm", "examples_per_s", "tokens_per_s",
                "nonpad_fraction", "step_time_s", "skipped_steps"]


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
    already_finished: bool = False       # a rerun of a finished run: nothing trained, nothing written
    # With already_finished: this config's settings that differ from the finished run's ("key old -> new"); none
    # of them was applied.
    not_applied: list[str] = field(default_factory=list)


class NonFiniteLossError(BSLError):
    """The training loss became NaN or infinite: the run stops, exporting nothing."""


def train(config: TrainConfig, *, evaluators: Sequence[Evaluator] = (),
          disable_progress: bool | None = None) -> TrainResult:
    """Train as configured (resuming when config.train.resume says so); return paths and metrics. `evaluators`
    are what the trainer measures (the caller builds the ones config.eval asks for; none measures nothing)."""
    trainer = Trainer(config, evaluators=evaluators, disable_progress=disable_progress)
    try:
        return trainer.fit()
    finally:
        trainer.close()


class _StepBar:
    """fit()'s progress bar (rank 0, unless progress is disabled): one tick per step, the phase in its title."""

    def __init__(self, enabled: bool, total: int, initial: int, desc: str):
        self.desc, self.phase, self.bar = desc, None, None
        if enabled:
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=initial, unit="step", dynamic_ncols=True, desc=desc)

    def show(self, row: dict[str, Any]) -> None:
        if self.bar is not None:
            self.bar.set_postfix(loss=f"{row['loss']:.4f}", lr=f"{row['lr']:.2e}", refresh=False)

    def advance(self, phase: str) -> None:
        if self.bar is None:
            return
        if phase != self.phase:
            self.phase = phase
            # Refreshed at once: a short warm-up would not show otherwise.
            self.bar.set_description(f"{self.desc} [{phase}]")
        self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class Trainer:
    """One run: the parts training.setup builds, its `PhasePolicy`, `Checkpointer` and `RunState`, and the loop.

    With `train` the entry point of training (`train` runs one; tests and benchmarks drive one step by step): the
    one place that holds the whole TrainConfig, and hands each part its own section (`_set_up`)."""

    def __init__(self, config: TrainConfig, *, evaluators: Sequence[Evaluator] = (),
                 disable_progress: bool | None = None):
        from bsl_pipeline.training.preflight import check_settings

        # The set-up's one check of the settings (as --print-config and the train flow run it): a missing model is
        # named as such (with the bundled one), not as the directory ''.
        check_settings(config, evaluates=bool(evaluators))
        self.config = config
        self.evaluators = list(evaluators)
        if config.eval.stsb_dir and not self.evaluators:
            log.warning("eval.stsb_dir is set but the trainer was given no evaluators, so nothing is measured; "
                        "the caller builds them with the evaluation stage's dev_evaluators(config.eval)")
        self.disable_progress = progress_disabled(disable_progress)
        # The metric that picks output_dir/best: the first evaluator's first metric.
        self.headline_metric = self.evaluators[0].metric_names[0] if self.evaluators else None
        self.output_dir = Path(config.train.output_dir)
        self.runtime: Runtime | None = None
        self.run_lock: WriterLock | None = None  # rank 0's hold on output_dir, released by close()
        self.loader: BatchLoader | None = None   # started at the first batch (workers fork from a set-up process)
        self.logger: RunLogger | None = None
        try:
            self._set_up()
        except BaseException:
            self.close()  # leave no process group or open event file behind a failed set-up
            raise

    def _set_up(self) -> None:
        cfg = self.config
        self.runtime = setup_runtime(cfg.train, cfg.distributed,
                                     grad_scaler_init_scale=cfg.optim.grad_scaler_init_scale)
        dist = self.runtime.dist
        # Before anything is read or written: the output dir is ours (or adopted) and no other run writes it.
        self.run_lock = claim_run_directory(cfg.train, dist, sources=cfg.data.sources,
                                            model_path=cfg.model.name_or_path, export=cfg.export)
        # Same seed on every rank: the model (predictor, projection head) starts identical everywhere.
        seed_everything(cfg.train.seed)
        self.data = setup_data(cfg.data, cfg.train, grad_accum_steps=cfg.optim.grad_accum_steps)
        # Refused before the model loads: a run that is all head warm-up would export the encoder unchanged.
        check_warmup_leaves_training(cfg.objective, self.data.total_steps)
        self.parts = setup_model(cfg.model, cfg.objective, self.runtime, train=cfg.train, evaluation=cfg.eval,
                                 exported=cfg.export.enabled)
        objective = self.parts.objective
        self.phases = PhasePolicy.for_objective(objective, self.data.total_steps, cfg.optim, warn=dist.is_main)
        self.optimizer, self.trainable = setup_optimizer(cfg.optim, objective, self.phases)
        self.model = wrap_for_ddp(objective, self.runtime, find_unused_parameters=(
            cfg.distributed.find_unused_parameters or self.phases.has_unused_parameters))
        self.batches = self.data.new_batch_source()
        self.state = RunState()
        self.checkpointer = Checkpointer(
            to_dict(cfg), cfg.train, cfg.model, cfg.export, dist, sources=self.data.sources, objective=objective,
            tokenizer=self.parts.tokenizer, optimizer=self.optimizer, scaler=self.runtime.scaler,
            phases=self.phases, headline_metric=self.headline_metric, device=self.runtime.device)
        resume_from = self.checkpointer.resume_path()
        if resume_from is not None:
            self.checkpointer.resume(resume_from, self.state, self.batches)
        else:
            # Dropout differs between ranks; rank 0 draws exactly what a single process would.
            torch.manual_seed(cfg.train.seed + dist.rank)
        # A rerun of a finished run trains and writes nothing: config.yaml stays the one the run was trained with.
        self.finished = (resume_from is not None and self.state.step >= self.data.total_steps
                         and self.checkpointer.finished_earlier(self.state))
        self.not_applied = self.checkpointer.settings_not_applied() if self.finished else []
        if not self.finished:
            changes = self.checkpointer.schedule_changes(self.state.step) if resume_from is not None else None
            if changes and dist.is_main:
                log.warning("resumed from %s at step %d with other settings: %s", resume_from, self.state.step,
                            changes)
            self.checkpointer.write_config()
        fields = TRAIN_FIELDS + self.phases.lr_columns
        fields += [m for m in objective.metric_names if m not in fields]
        self.logger = RunLogger(self.output_dir, dist.is_main, cfg.train.tensorboard, fields,
                                [m for e in self.evaluators for m in e.metric_names],
                                resume_step=self.state.step if resume_from is not None else None)

    def data_position(self) -> dict[str, Any]:
        """Where the data stands after the last batch trained on (what a checkpoint records)."""
        return self.loader.position if self.loader is not None else self.batches.position

    def pairs_used(self) -> int:
        return int(self.data_position().get("batches", 0)) * self.config.train.batch_size

    # -- the loop ----------------------------------------------------------------------------------------------
    def fit(self) -> TrainResult:
        cfg, state, every = self.config.train, self.state, self.config.eval.every_steps
        total, device = self.data.total_steps, self.runtime.device
        if self.finished:
            if self.runtime.dist.is_main:
                log.info("already finished at step %d: nothing to do", state.step)
                if self.not_applied:
                    log.warning("these settings differ from those the finished run in %s was trained with and were "
                                "not applied (nothing is trained or written; to train with them, choose another "
                                "train.output_dir): %s", self.output_dir, "; ".join(self.not_applied))
            export_dir = self.checkpointer.export_path() if self.config.export.enabled else None
            return self._result(True, self.output_dir / FINAL_DIR, export_dir, already_finished=True)
        stop = min(total, cfg.stop_at_step) if cfg.stop_at_step else total
        bar = _StepBar(self.runtime.dist.is_main and not self.disable_progress and state.step < stop, total,
                       state.step, f"train {self.config.objective.name}")
        window: list[dict[str, Any]] = []
        window_time = 0.0
        try:  # the bar's line ends before anything else is printed, also after Ctrl-C or an error
            while state.step < stop:
                t0 = time.perf_counter()
                stats = self.train_step()
                self._stop_unless_finite(stats["loss"], state.step + 1, bar)
                if device.type == "cuda":
                    torch.cuda.synchronize(device)
                window_time += time.perf_counter() - t0
                state.step += 1
                window.append(stats)
                # A logged window never mixes two phases (a head's warm-up and normal training).
                if state.step % max(1, cfg.log_every) == 0 or state.step == stop or self.phases.ends_phase(state.step):
                    bar.show(self._log(window, window_time))
                    window, window_time = [], 0.0
                bar.advance(stats["phase"])
                if every and state.step % every == 0 and state.step < total:
                    self.evaluate()
                if cfg.save_every and state.step % cfg.save_every == 0 and state.step < stop:
                    self.checkpointer.save_periodic(state, self.data_position())
        finally:
            bar.close()
        completed = state.step >= total
        if completed and self.config.eval.at_end and state.last_eval_step != state.step:
            self.evaluate()
        final = self.checkpointer.save_last(state, self.data_position(), completed)
        export_dir = (self.checkpointer.export(state, self.pairs_used())
                      if completed and self.config.export.enabled else None)
        return self._result(completed, final, export_dir)

    def _stop_unless_finite(self, loss: torch.Tensor, step: int, bar: _StepBar) -> None:
        """A NaN or infinite loss (on any rank) stops the run: its weights are or are about to be non-finite, and
        skipping steps would only export a broken model. Raised before anything is saved or exported."""
        value = all_reduce_mean(loss.detach().float())
        if bool(torch.isfinite(value)):
            return
        bar.close()
        raise NonFiniteLossError(f"training stopped at step {step}: the loss is {value.item()} (not finite); nothing "
                                 f"was exported. Lower optim.lr or check optim.weight_decay, the data and "
                                 f"train.precision, then start again (or resume from an earlier checkpoint in "
                                 f"{self.output_dir})")

    def _result(self, completed: bool, final: Path, export_dir: Path | None, *,
                already_finished: bool = False) -> TrainResult:
        state = self.state
        skipped = dict(self.data_position().get("skipped", {}))
        if skipped and self.runtime.dist.is_main:
            log.warning("skipped pairs (counted, not trained on): %s", skipped)
        return TrainResult(
            output_dir=self.output_dir, step=state.step, total_steps=self.data.total_steps, completed=completed,
            final_checkpoint=final, export_dir=export_dir, already_finished=already_finished,
            not_applied=list(self.not_applied) if already_finished else [],
            best_checkpoint=self.checkpointer.best_checkpoint(),
            best_metric=state.best_metric, history=list(state.history),
            metrics={"final_loss": state.history[-1]["loss"] if state.history else None,
                     **state.last_eval, "best_step": state.best_step,
                     "skipped_steps": state.skipped_steps, "pairs_drawn": self.pairs_used(),
                     "skipped_pairs": skipped, "resumed_from": state.resumed_from})

    # -- one optimizer step ------------------------------------------------------------------------------------
    def next_micro_batch(self) -> tuple[dict[str, Any], tuple[int, int]]:
        """The local slice of the next global batch, collated and on the device; and its (non-padding, padded)
        token counts."""
        if self.loader is None:
            cfg = self.config
            self.loader = setup_loader(cfg.data, cfg.model, self.runtime, self.parts, self.data, self.batches,
                                       grad_accum_steps=cfg.optim.grad_accum_steps)
        ready = self.loader.next()
        device = self.runtime.device
        batch = {k: {n: t.to(device, non_blocking=True) for n, t in f.items()} for k, f in ready.features.items()}
        return batch, (ready.tokens, ready.padded_tokens)

    def train_step(self) -> dict[str, Any]:
        """Forward/backward over grad_accum_steps micro-batches, then `optimizer_step`."""
        accum = self.config.optim.grad_accum_steps
        self.parts.objective.begin_step(self.state.step)
        self.model.train()
        loss_sum = torch.zeros((), device=self.runtime.device)
        metric_sums: dict[str, torch.Tensor] = {}
        tokens = padded = 0
        for micro in range(accum):
            batch, (n_tokens, n_padded) = self.next_micro_batch()
            tokens += n_tokens
            padded += n_padded
            last = micro == accum - 1
            no_sync = self.model.no_sync() if self.runtime.dist.enabled and not last else contextlib.nullcontext()
            with no_sync:
                with forward_context(self.runtime.device, self.runtime.autocast_dtype, self.config.model.sdpa_backend):
                    loss, metrics = self.model(batch)
                scaled = loss / accum
                (self.runtime.scaler.scale(scaled) if self.runtime.scaler is not None else scaled).backward()
            loss_sum += loss.detach().float()
            for k, v in metrics.items():
                metric_sums[k] = metric_sums.get(k, 0) + v.detach().float()
        lrs = self.set_lr()
        stepped, grad_norm = self.optimizer_step()
        return {"loss": loss_sum / accum, "metrics": {k: v / accum for k, v in metric_sums.items()},
                "grad_norm": grad_norm, "lr": lrs[ENCODER_GROUP], "lrs": lrs, "stepped": stepped,
                "phase": self.parts.objective.phase, "examples": self.config.train.batch_size * accum, "tokens": tokens,
                "padded_tokens": padded}

    def set_lr(self) -> dict[str, float]:
        """Set and return each param group's learning rate for this step, by group name."""
        lrs = self.phases.lrs(self.state.step)
        for group in self.optimizer.param_groups:
            group["lr"] = lrs[group["name"]]
        return lrs

    def optimizer_step(self) -> tuple[bool, torch.Tensor]:
        """Clip and apply the accumulated gradients, or skip them when they are not finite (the fp16 GradScaler
        decides for itself; without one, `optim.skip_nonfinite`). Only an applied step moves the EMA target.
        Returns (applied, global gradient norm before clipping)."""
        o = self.config.optim
        self.phases.drop_frozen_gradients(self.parts.objective, self.trainable)
        if self.runtime.scaler is not None:
            self.runtime.scaler.unscale_(self.optimizer)
        grads = [p.grad for p in self.trainable if p.grad is not None]
        if o.max_grad_norm > 0:
            grad_norm = torch.nn.utils.clip_grad_norm_(self.trainable, o.max_grad_norm, foreach=True)
        else:
            grad_norm = torch.nn.utils.get_total_norm(grads, foreach=True) if grads else torch.zeros(())
        if self.runtime.scaler is not None:
            scale_before = self.runtime.scaler.get_scale()
            self.runtime.scaler.step(self.optimizer)
            self.runtime.scaler.update()
            # GradScaler skips the step and lowers the scale exactly when it found inf/nan gradients.
            stepped = self.runtime.scaler.get_scale() >= scale_before
        else:
            stepped = bool(torch.isfinite(grad_norm)) or not o.skip_nonfinite
            if stepped:
                self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        if stepped:
            self.parts.objective.on_optimizer_step()
        else:
            self.state.skipped_steps += 1
        return stepped, grad_norm.detach()

    def _log(self, window: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
        n = len(window)
        loss = all_reduce_mean(torch.stack([w["loss"] for w in window]).mean()).item()
        grad_norm = torch.stack([w["grad_norm"].float().cpu() for w in window]).mean().item()
        examples = sum(w["examples"] for w in window)
        local_tokens = torch.tensor([float(sum(w["tokens"] for w in window)),
                                     float(sum(w["padded_tokens"] for w in window))], device=self.runtime.device)
        tokens, padded = (all_reduce_mean(local_tokens) * self.runtime.dist.world_size).tolist()
        row: dict[str, Any] = {
            "step": self.state.step, "epoch": self.pairs_used() / self.data.total_pairs, "phase": window[-1]["phase"],
            "loss": loss, "lr": window[-1]["lr"],
            **{f"lr_{name}": lr for name, lr in window[-1]["lrs"].items() if name != ENCODER_GROUP},
            "grad_norm": grad_norm, "examples_per_s": examples / seconds if seconds > 0 else float("nan"),
            "tokens_per_s": tokens / seconds if seconds > 0 else float("nan"),
            "nonpad_fraction": tokens / padded if padded else float("nan"),
            "step_time_s": seconds / n, "skipped_steps": self.state.skipped_steps,
        }
        for key in window[-1]["metrics"]:
            row[key] = all_reduce_mean(torch.stack([w["metrics"][key] for w in window]).mean()).item()
        self.state.history.append(row)
        if self.logger is not None:
            self.logger.log_train(self.state.step, row)
        return row

    # -- evaluation --------------------------------------------------------------------------------------------
    def evaluate(self) -> float | None:
        """Every evaluator on the online encoder (rank 0); returns the headline metric and keeps output_dir/best
        up to date."""
        if not self.evaluators:
            return None
        state, score = self.state, None
        state.last_eval_step = state.step  # before best/ is written, so that its json holds these numbers
        if self.runtime.dist.is_main:
            start = time.perf_counter()
            row: dict[str, float] = {}
            # Evaluation must not shift the training RNG streams (a run with and without eval trains the same).
            with torch.random.fork_rng(devices=[self.runtime.device] if self.runtime.device.type == "cuda" else []):
                for evaluator in self.evaluators:
                    row.update(evaluator(self.parts.eval_encoder))
            self.logger.log_eval(state.step, {**row, "seconds": time.perf_counter() - start})
            state.last_eval = row
            score = float(row[self.headline_metric])
            if self.config.eval.save_best and score == score and (state.best_metric is None
                                                                  or score > state.best_metric):
                state.best_metric, state.best_step = score, state.step
                self.checkpointer.write_best(state, self.data_position())
        barrier()
        return score

    def close(self) -> None:
        if self.loader is not None:
            self.loader.close()
        if self.logger is not None:
            self.logger.close()
        if self.runtime is not None:
            close_distributed(self.runtime.dist)
        if self.run_lock is not None:
            self.run_lock.release()
            self.run_lock = None
