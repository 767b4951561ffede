"""The trainer's configuration: nested dataclasses loaded from YAML with `pipeline.base.config.load_config`.

Kept free of torch imports so that `bsl train --help` can list every key quickly.

    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.config import TrainConfig
    config = load_config(TrainConfig, "configs/train_bsl.yaml", ["optim.lr=2e-4", "train.max_steps=100"])
"""

from __future__ import annotations

from dataclasses import dataclass, field, make_dataclass
from typing import Literal

from bsl_pipeline.pipeline.base.config import (
    MAX_BATCH,
    MAX_BATCH_TOKENS,
    MAX_BUFFERED_ITEMS,
    MAX_PREFETCH,
    MAX_SEQUENCE_TOKENS,
    MAX_WORKERS,
    SEED_RANGE,
    Range,
    config_errors,
)
from bsl_pipeline.pipeline.base.config import setting as _help
from bsl_pipeline.pipeline.base.devices import SDPA_BACKEND_HELP, sdpa_backend_problem
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.pooling import POOLING_MODES  # noqa: F401  (re-exported: training's readers import it from here)
from bsl_pipeline.training.objectives import OBJECTIVES, settings_class, unknown_objective
from bsl_pipeline.training.recipes import missing_model_hint


@dataclass
class ModelConfig:
    name_or_path: str = _help("encoder to start from: a Hugging Face model dir (BERT, RoBERTa, MiniLM, a "
                              "sentence-transformers dir) or a hub id (needs network or a filled cache)", default="")
    pooling: Literal["mean", "cls"] = _help("sentence embedding = mean of the non-padding token states (the "
                                            "paper) or the first ([CLS]) token state", default="mean")
    max_length: int = _help("tokens per sentence; longer sentences are truncated", default=128, allowed=Range(2, MAX_SEQUENCE_TOKENS))
    dropout: float | None = _help("override the encoder's dropout probabilities (hidden and attention); null "
                                  "keeps the checkpoint's values", default=None, allowed=Range(0, 1, high_open=True))
    gradient_checkpointing: bool = _help("recompute activations in backward (less memory, slower steps)",
                                         default=False)
    sdpa_backend: str = _help(SDPA_BACKEND_HELP, default="auto", check=sdpa_backend_problem)
    length_buckets: list[int] = _help("pad every batch to the smallest of these lengths that holds it (max_length "
                                      "when none does): few distinct shapes for a compiled step or a GPU; [] = "
                                      "pad to the longest sentence of each batch", default_factory=list,
                                      allowed=Range(1, MAX_SEQUENCE_TOKENS))

    def config_problems(self) -> list[tuple[str, str]]:
        """The rule no `Range` can say: a bucket longer than max_length could never be used."""
        bad = [b for b in self.length_buckets if b > self.max_length]
        return [("length_buckets", f"must lie in [1, model.max_length={self.max_length}], got {bad}")] if bad else []


@dataclass
class DataSourceConfig:
    path: str = _help("dataset directory or manifest JSON (read through pipeline.dataset.store)", default="")
    methods: list[str] | None = _help("only pairs made by these augmentation methods; null = all", default=None)
    weight: float | None = _help("sampling weight of this source when mixing; null = proportional to its number "
                                 "of pairs (plain concatenation)", default=None, allowed=Range(0, low_open=True))


@dataclass
class DataConfig:
    sources: list[DataSourceConfig] = _help("datasets to train on (bsl train --manifest replaces this list)",
                                            default_factory=list)
    # The train flow verifies the shards itself and sets verify=false: not part of the run key.
    verify: bool = _help("check manifest and shard checksums before training", default=True, in_run_key=False)
    shuffle: bool = _help("shuffle each source (streaming buffer shuffle, reseeded per epoch)", default=True)
    shuffle_buffer: int = _help("pairs held in each source's shuffle buffer; >= dataset size = full shuffle",
                                default=100_000, allowed=Range(1, MAX_BUFFERED_ITEMS))
    read_batch_size: int = _help("rows per Parquet read", default=8192, allowed=Range(1, MAX_BUFFERED_ITEMS))
    length_grouping_window: int = _help("length-grouped batching: sort each window of this many batches by length "
                                        "and take its batches in a seeded random order (less padding, same pairs "
                                        "per window); 0 = off", default=0, allowed=Range(0, MAX_PREFETCH))
    workers: int | Literal["auto"] = _help("processes that read, mix and tokenise the next batches while the model "
                                           "trains (same batches, same order, exact resume); 0 = in the training "
                                           "process; auto = 2 on CUDA, 0 on CPU", default="auto", allowed=Range(0, MAX_WORKERS),
                                           in_run_key=False)
    prefetch_batches: int = _help("batches each worker prepares ahead", default=4, allowed=Range(1, MAX_PREFETCH),
                                  in_run_key=False)
    pin_memory: bool = _help("page-locked batches for faster host-to-GPU copies (CUDA only)", default=True,
                             in_run_key=False)


def _objective_config() -> type:
    """`objective.name` and one section per objective of the registry, each its module's `config_class`."""
    sections = [(name, settings_class(name), field(default_factory=settings_class(name))) for name in OBJECTIVES]
    cls = make_dataclass("ObjectiveConfig", [
        ("name", str, _help(f"training objective: {', '.join(OBJECTIVES)}", default="bsl", check=unknown_objective)),
        *sections])
    cls.__module__ = __name__
    return cls


ObjectiveConfig = _objective_config()


@dataclass
class OptimConfig:
    optimizer: Literal["adamw", "adam"] = _help("adamw (decoupled weight decay, what the authors' "
                                                "sentence-transformers code uses) or adam (L2 in the gradient)",
                                                default="adamw")
    lr: float = _help("peak learning rate (paper, unsupervised: 5e-4)", default=5e-4, allowed=Range(0, low_open=True))
    weight_decay: float = _help("weight decay (paper: 0.01)", default=0.01, allowed=Range(0))
    betas: list[float] = _help("Adam betas", default_factory=lambda: [0.9, 0.999], allowed=Range(0, 1, high_open=True),
                               check=lambda betas: None if len(betas) == 2 else f"needs two values, got {betas}")
    eps: float = _help("Adam epsilon (paper: 1e-6)", default=1e-6, allowed=Range(0))
    no_decay_bias_and_norm: bool = _help("no weight decay on biases and normalisation weights", default=True)
    schedule: Literal["linear", "cosine", "constant"] = _help("learning rate after warmup: linear or cosine "
                                                             "decay to min_lr_ratio*lr, or constant",
                                                             default="linear")
    warmup_steps: int = _help("linear warmup steps; 0 = use warmup_ratio", default=0, allowed=Range(0))
    warmup_ratio: float = _help("warmup as a fraction of all optimizer steps (when warmup_steps is 0)",
                                default=0.1, allowed=Range(0, 1))
    min_lr_ratio: float = _help("final learning rate as a fraction of lr (linear/cosine)",
                                default=0.0, allowed=Range(0, 1))
    max_grad_norm: float = _help("clip the global gradient norm to this; 0 = no clipping (norm still logged)",
                                 default=1.0, allowed=Range(0))
    grad_accum_steps: int = _help("micro-batches per optimizer step (effective batch = batch_size * this)",
                                  default=1, allowed=Range(1, MAX_BATCH))
    skip_nonfinite: bool = _help("skip an optimizer step whose gradient norm is inf/nan (the fp16 GradScaler "
                                 "always does); a skipped step leaves weights and the EMA target unchanged",
                                 default=True)
    grad_scaler_init_scale: float = _help("initial loss scale of the fp16 GradScaler",
                                          default=65536.0, allowed=Range(0, low_open=True))


@dataclass
class TrainLoopConfig:
    output_dir: str = _help("run directory: config, metrics.csv, tensorboard/, checkpoints/, final/, best/, "
                            "export/", default="", in_run_key=False)
    batch_size: int = _help("pairs per micro-batch, summed over all DDP processes (paper: 64)",
                            default=64, allowed=Range(1, MAX_BATCH))
    epochs: float = _help("passes over the data (by pair count) when max_steps is 0", default=1.0, allowed=Range(0))
    max_steps: int = _help("optimizer steps; 0 = derived from epochs", default=0, allowed=Range(0))
    stop_at_step: int = _help("stop after this step and save (a later run resumes); the schedule still runs "
                              "to max_steps. 0 = off", default=0, allowed=Range(0))
    seed: int = _help("seed of model init, data order, dropout and masking", default=42, allowed=SEED_RANGE)
    device: str = _help("auto (cuda when available), cpu, cuda, cuda:1, ...", default="auto")
    precision: Literal["auto", "fp32", "bf16", "fp16"] = _help("auto: bf16 on GPUs that support it (else fp16 "
                                                               "with a GradScaler), fp32 on CPU",
                                                               default="auto")
    log_every: int = _help("log loss/lr/grad norm/throughput every N steps", default=10, allowed=Range(1))
    save_every: int = _help("write a resumable checkpoint every N steps; 0 = only at the end",
                            default=0, allowed=Range(0))
    keep_checkpoints: int = _help("periodic checkpoints kept (oldest deleted); 0 = keep all", default=2,
                                  allowed=Range(0))
    keep_checkpoints_after_final: bool = _help(
        "keep the periodic checkpoints (checkpoints/step-N) once the run completes; false: a completed run removes "
        "those it wrote (final/ supersedes them: it resumes, evaluates and exports the same way)", default=False,
        in_run_key=False)
    resume: str | None = _help("'auto' = latest checkpoint in output_dir/checkpoints, or a checkpoint dir; "
                               "null = fresh run (refused when output_dir already has checkpoints)",
                               default=None, in_run_key=False)
    overwrite: bool = _help("write into an output_dir that bsl did not create, or an export.dir that is not this "
                            "run's export (bsl train --overwrite): what the run replaces there (config.yaml, "
                            "metrics.csv, checkpoints/, final/, best/, export/, ...; the whole export.dir) is moved "
                            "to .bsl-replaced/<time>/, never deleted",
                            default=False, in_run_key=False)
    resume_fallback: bool = _help("when the latest checkpoint is broken, resume from the newest good one before it "
                                  "(with a warning) instead of stopping", default=False,
                                  in_run_key=False)
    tensorboard: bool = _help("write TensorBoard events to output_dir/tensorboard", default=True)
    compile: bool | Literal["auto"] = _help("torch.compile the objective's forward (encoders, predictor, loss): "
                                            "true, false, or auto = on CUDA only; falls back to eager with a "
                                            "warning where compiling fails", default="auto")
    compile_mode: Literal["default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"] = _help(
        "torch.compile mode (reduce-overhead adds CUDA graphs; pair it with model.length_buckets)",
        default="default")
    compile_backend: str = _help("torch.compile backend (inductor; eager/aot_eager only check tracing)",
                                 default="inductor")

    def config_problems(self) -> list[tuple[str, str]]:
        """The rule no `Range` can say: without max_steps the number of steps comes from epochs."""
        if self.max_steps == 0 and not self.epochs > 0:
            return [("epochs", "must be > 0 when train.max_steps is 0")]
        return []


@dataclass
class EvalConfig:
    stsb_dir: str | None = _help("data dir holding stsbenchmark/sts-dev.csv; 'auto' = the data dir found as "
                                 "docs/guide/data.md says (BSL_DATA_DIR, ~/.cache/bsl/data, ../shared/data); "
                                 "null = no dev evaluation", default=None)
    every_steps: int = _help("evaluate on STS-B dev every N steps; 0 = only at the end", default=0, allowed=Range(0))
    at_end: bool = _help("evaluate after the last step", default=True)
    batch_size: int = _help("sentences per encoding batch (when max_tokens is off)", default=128,
                            allowed=Range(1, MAX_BATCH))
    max_tokens: int | None = _help("padded tokens per encoding batch, sentences sorted by token length; 0 = off "
                                   "(batch_size sentences); null = auto: 16384 on CUDA, off on CPU", default=None,
                                   allowed=Range(0, MAX_BATCH_TOKENS))
    save_best: bool = _help("keep output_dir/best = the checkpoint with the highest dev Spearman",
                            default=True)


@dataclass
class ExportConfig:
    enabled: bool = _help("write a sentence-transformers model dir at the end", default=True)
    dir: str | None = _help("where; null = output_dir/export. Another folder must be new, empty or this run's "
                            "export (its .bsl-output.json names the folder and the run), never a symbolic link; "
                            "train.overwrite moves anything else there aside", default=None)
    source: Literal["final", "best"] = _help("export the final weights or the best dev checkpoint",
                                             default="final")
    normalize: bool | None = _help("add a Normalize module (unit-length embeddings); null = as the starting "
                                   "sentence-transformers model (a Normalize module after its pooling keeps one), "
                                   "else none", default=None)
    base_dense: bool = _help("copy the starting sentence-transformers model's Dense modules after pooling into the "
                             "export, unchanged (training does not update them); false = Transformer and Pooling "
                             "only", default=True)
    max_length: int | None = _help("tokens the exported model reads (its sentence_bert_config max_seq_length); null "
                                   "= what the starting model read: its own sentence-transformers max_seq_length, "
                                   "else model.max_length (training may truncate shorter than the model reads)",
                                   default=None, allowed=Range(2, MAX_SEQUENCE_TOKENS))


@dataclass
class DistributedConfig:
    backend: Literal["auto", "gloo", "nccl"] = _help("torch.distributed backend under torchrun; auto = nccl on "
                                                     "GPU, gloo on CPU", default="auto")
    find_unused_parameters: bool = _help("DDP option for encoders with parameters the loss does not reach",
                                         default=False)
    timeout_minutes: int = _help("collective timeout", default=30, allowed=Range(1))


@dataclass
class TrainConfig:
    model: ModelConfig = field(default_factory=ModelConfig)
    data: DataConfig = field(default_factory=DataConfig)
    objective: ObjectiveConfig = field(default_factory=ObjectiveConfig)
    optim: OptimConfig = field(default_factory=OptimConfig)
    train: TrainLoopConfig = field(default_factory=TrainLoopConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    export: ExportConfig = field(default_factory=ExportConfig)
    distributed: DistributedConfig = field(default_factory=DistributedConfig)

    def validate(self, *, require_output_dir: bool = True, config_file: str | None = None) -> None:
        """Refuse a config the trainer cannot run, naming every bad key at once (no torch needed): what a run needs
        beyond a loadable config (an output dir, unless `require_output_dir` is false, as for --print-config; a
        model), then every setting's own rule (its `Range`, `check` or the section's `config_problems`, the same
        rules `load_config` applies), for configs built or changed in code. `config_file`: the file the config was
        read from, which the advice on a missing model names when it is a recipe."""
        problems = []
        if require_output_dir and not self.train.output_dir:
            problems.append("train.output_dir is required")
        if not self.model.name_or_path:
            problems.append(f"model.name_or_path is required ({missing_model_hint(config_file)})")
        problems += config_errors(self)
        if problems:
            raise BSLError("invalid training config: " + "; ".join(problems))


# Settings that change which examples a step sees or how the loss is computed, and those the checkpoint's optimizer
# state carries (its param groups keep their own weight decay, betas and eps): a resumed run must match them.
# "objective" is `objective.name` and the section of the objective in use (another objective's settings change
# nothing).
RESUME_MUST_MATCH = ("model.name_or_path", "model.pooling", "model.max_length", "model.dropout", "data.sources",
                     "data.shuffle", "data.shuffle_buffer", "objective", "train.batch_size", "train.seed",
                     "optim.grad_accum_steps", "data.length_grouping_window", "optim.optimizer",
                     "optim.weight_decay", "optim.betas", "optim.eps", "optim.no_decay_bias_and_norm")
# Settings that shape the rest of a run's updates: a resumed run may change them (extending train.max_steps is the
# usual case) and says so, old -> new, with the learning rate of its next step under the checkpoint's settings and
# under these (a new max_steps stretches the whole schedule).
RESUME_WARNS = ("optim.lr", "optim.schedule", "optim.warmup_steps", "optim.warmup_ratio", "optim.min_lr_ratio",
                "optim.max_grad_norm", "optim.skip_nonfinite", "train.max_steps", "train.epochs")
