"""BSL inside sentence-transformers: `BSLLoss` in a `SentenceTransformerTrainer` on the view-pair datasets this
pipeline writes (columns `view1`, `view2`); how to use it: docs/guide/training.md#bsl-inside-sentence-transformers.

One implementation of the math: `BSLLoss` holds a `training.objectives.bsl.BSLObjective` (its predictor, EMA target,
loss and predictor warm-up) around the SentenceTransformer, so `bsl train` and this loss compute the same numbers.
`BSLCallback` acts where `bsl train` does: the warm-up before each optimizer step (the online encoder runs without a
graph, so AdamW leaves it untouched and the target gets no EMA update), the clipping of encoder and predictor
together (Hugging Face's own clipping leaves the predictor out: set its max_grad_norm to 0), and the EMA update after
every applied step (not one the fp16 GradScaler skipped). `bsl_optimizers` is `bsl train`'s optimizer and schedule;
Hugging Face advances a schedule only after applied steps while `bsl train` counts every step, so the two part only
after a skipped step. A sentence-transformers checkpoint keeps the SentenceTransformer only: resuming from one
restarts the predictor and the target.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

import torch
from torch import nn
from transformers import TrainerCallback

from bsl_pipeline.training.config import OptimConfig
from bsl_pipeline.training.objectives.bsl import BSLConfig, BSLObjective
from bsl_pipeline.training.phases import PhasePolicy
from bsl_pipeline.training.setup import setup_optimizer


class SentenceTransformerEncoder(nn.Module):
    """A SentenceTransformer seen as this project's encoder: `forward(**features) -> sentence embeddings`, `dim`."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    @property
    def dim(self) -> int:
        # sentence-transformers 6 renamed get_sentence_embedding_dimension; older releases have only that.
        size = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        return int(size())

    def forward(self, **features: torch.Tensor) -> torch.Tensor:
        return self.model(dict(features))["sentence_embedding"]


class BSLLoss(nn.Module):
    """BSL (Zhang et al., ACL 2021) as a sentence-transformers loss over (view1, view2) pairs; `model` is the
    online encoder that gets trained and saved. Use it with `BSLCallback` (warm-up, EMA) in the trainer."""

    def __init__(self, model: nn.Module, settings: BSLConfig | None = None):
        super().__init__()
        self.model = model
        self.settings = settings or BSLConfig()
        if not self.settings.symmetric and self.settings.online_view == "mixed":
            # The draw happens when `bsl train` collates texts; here sentence-transformers collates them.
            raise ValueError("BSLLoss: online_view='mixed' is drawn per pair at `bsl train`'s collation, which "
                             "sentence-transformers does not call; use 'view1' or 'view2' (or the symmetric loss)")
        self.objective = BSLObjective(SentenceTransformerEncoder(model), getattr(model, "tokenizer", None),
                                      self.settings, max_length=int(getattr(model, "max_seq_length", 0) or 0))

    @property
    def predictor(self) -> nn.Module:
        return self.objective.predictor

    @property
    def target(self) -> nn.Module:
        """The EMA target: a SentenceTransformer (inside the encoder wrapper) that never gets a gradient."""
        return self.objective.target.model

    @property
    def head_only(self) -> bool:
        return self.objective.head_only

    def forward(self, sentence_features: Iterable[dict[str, torch.Tensor]], labels: torch.Tensor | None = None
                ) -> torch.Tensor:
        features = list(sentence_features)
        if len(features) != 2:
            raise ValueError(f"BSLLoss takes pairs (two text columns, e.g. view1 and view2), got {len(features)}")
        # Hugging Face's trainer switches only the SentenceTransformer between train and eval; the predictor's
        # BatchNorm and the target (dropout per settings.target_dropout) follow it.
        self.objective.train(self.model.training)
        loss, _ = self.objective({"view1": features[0], "view2": features[1]})
        return loss

    def begin_step(self, step: int) -> None:
        """Before optimizer step `step` (0-based): predictor warm-up or normal training."""
        self.objective.begin_step(step)

    def on_optimizer_step(self) -> None:
        """After an applied optimizer step: the EMA update of the target (none during the predictor warm-up)."""
        self.objective.on_optimizer_step()

    def trainable_groups(self) -> dict[str, list[nn.Parameter]]:
        """{"encoder": [...], "predictor": [...]}: the parameters the optimizer updates (the target has none)."""
        head = {id(p) for p in self.predictor.parameters()}
        params = [p for p in self.objective.parameters() if p.requires_grad]
        return {"encoder": [p for p in params if id(p) not in head],
                "predictor": [p for p in params if id(p) in head]}

    def get_config_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self.settings)

    @property
    def citation(self) -> str:
        return """
@inproceedings{zhang-etal-2021-bootstrapped,
    title = "Bootstrapped Unsupervised Sentence Representation Learning",
    author = "Zhang, Yan and He, Ruidan and Liu, Zuozhu and Bing, Lidong and Li, Haizhou",
    booktitle = "Proceedings of ACL-IJCNLP 2021",
    year = "2021",
    url = "https://aclanthology.org/2021.acl-long.402",
}
"""


class BSLCallback(TrainerCallback):
    """Runs `loss`'s predictor warm-up and EMA target inside a Hugging Face / sentence-transformers trainer.
    `max_grad_norm` > 0 clips encoder and predictor gradients together; None leaves clipping to the trainer."""

    def __init__(self, loss: BSLLoss, max_grad_norm: float | None = None):
        if max_grad_norm is not None and max_grad_norm < 0:
            raise ValueError(f"max_grad_norm must be >= 0, got {max_grad_norm}")
        self.loss = loss
        self.max_grad_norm = max_grad_norm
        self.applied_steps = 0
        self.skipped_steps = 0

    def on_train_begin(self, args, state, control, **kwargs):
        if self.max_grad_norm and getattr(args, "max_grad_norm", 0):
            raise ValueError("BSLCallback(max_grad_norm=...) clips encoder and predictor together; set the "
                             "trainer's max_grad_norm=0 so that the encoder is not clipped twice")

    def on_step_begin(self, args, state, control, **kwargs):
        self.loss.begin_step(state.global_step)

    def on_pre_optimizer_step(self, args, state, control, **kwargs):
        if self.max_grad_norm:
            params = [p for group in self.loss.trainable_groups().values() for p in group]
            torch.nn.utils.clip_grad_norm_(params, self.max_grad_norm, foreach=True)

    def on_optimizer_step(self, args, state, control, optimizer=None, **kwargs):
        # accelerate's optimizer wrapper says whether the GradScaler skipped the step (inf/nan gradients).
        if getattr(optimizer, "step_was_skipped", False):
            self.skipped_steps += 1
            return
        self.applied_steps += 1
        self.loss.on_optimizer_step()


def bsl_optimizers(loss: BSLLoss, optim: OptimConfig, total_steps: int
                   ) -> tuple[torch.optim.Optimizer, torch.optim.lr_scheduler.LambdaLR]:
    """(optimizer, LambdaLR) for `SentenceTransformerTrainer(optimizers=...)`: `bsl train`'s own optimizer and
    schedule for `optim` (training.setup.setup_optimizer, training.phases.PhasePolicy; `optim.max_grad_norm` goes
    to `BSLCallback`)."""
    phases = PhasePolicy.for_objective(loss.objective, total_steps, optim)
    optimizer, _ = setup_optimizer(optim, loss.objective, phases)
    names = [group["name"] for group in optimizer.param_groups]
    for group in optimizer.param_groups:
        group["lr"] = 1.0  # LambdaLR multiplies this by the factor below: the factor is the lr itself
    return optimizer, torch.optim.lr_scheduler.LambdaLR(
        optimizer, [lambda step, name=name: phases.lrs(step)[name] for name in names])
