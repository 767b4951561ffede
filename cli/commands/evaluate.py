"""`bsl evaluate`: the STS table (STS12-16, STS-B, SICK-R, Avg.) for one or more encoders.

Only argparse and the config module are imported at module level; torch/transformers load when `run` starts.
"""

from __future__ import annotations

import argparse
import sys

from bsl_pipeline.cli.config_args import (
    PRECEDENCE,
    add_command,
    add_config_arguments,
    add_progress_flags,
    disable_progress,
    flag_help,
    print_config,
    resolve_config,
    to_constant,
)
from bsl_pipeline.pipeline.base.config import help_text

DESCRIPTION = """\
Evaluate sentence encoders on semantic textual similarity, as in the BSL paper's Table 1: the Spearman correlation
(x100) between the cosine similarity of the two sentence embeddings and the gold score, for STS12-STS16, STS-B
(test) and SICK-R (test), and their average.

MODEL can be a trainer checkpoint directory (bsl_checkpoint.json + encoder/), a sentence-transformers directory
(modules.json), a Hugging Face model directory, or a hub id (needs network or a warm hub cache);
all-MiniLM-L6-v2 and sentence-transformers/all-MiniLM-L6-v2 are the bundled copy, as in `bsl train`. With several
models the table gets one row per model, and --json maps each model (as written on the command line) to its
results.

STS12-16 use SentEval's "all" aggregate by default: one correlation over all of a year's subsets concatenated
(the setting of the SBERT/BERT-flow numbers the paper's Table 1 reuses); --sts-aggregate mean|wmean switches to
the per-subset mean / size-weighted mean. All three are in the JSON details either way.
"""

EPILOG_HEAD = """\
data layout: DATA_DIR/sts/sts12..sts16/STS.{input,gs}.<subset>.txt, DATA_DIR/stsbenchmark/sts-{dev,test}.csv,
DATA_DIR/sick/SICK_test_annotated.txt (docs/guide/data.md). Without --data-dir: $BSL_DATA_DIR, else ~/.cache/bsl/data
(filled by `bsl data fetch`), else ../shared/data beside the repository.

examples (`bsl train --output-dir runs/bsl` writes runs/bsl/final/, the last checkpoint, and runs/bsl/export/, a
sentence-transformers directory):
  bsl evaluate runs/bsl/export --json results.json
  bsl evaluate base_model/ runs/bsl/final --data-dir ../shared/data --plot compare.png --markdown r.md
  bsl evaluate my_model --tasks stsb,sickr --pooling cls --no-cache

precedence (later wins): """ + PRECEDENCE + """

config keys (YAML via --config, or -o key=value):
"""


def register(subparsers) -> None:
    from bsl_pipeline.evaluation.config import POOLING_MODES, EvaluationConfig

    p = add_command(subparsers, "evaluate", run, "STS12-16 / STS-B / SICK-R Spearman table for one or more encoders",
                    DESCRIPTION, EPILOG_HEAD + help_text(EvaluationConfig))
    p.add_argument("models", nargs="+", metavar="MODEL", help="model directories or hub ids")
    p.add_argument("--data-dir", help="folder holding sts/, stsbenchmark/ and sick/ (default: BSL_DATA_DIR, "
                                      "~/.cache/bsl/data, ../shared/data)")
    p.add_argument("--json", metavar="FILE", help="write results as JSON (shape: see `evaluation`)")
    p.add_argument("--markdown", metavar="FILE", help="write the table and per-subset details as Markdown")
    p.add_argument("--plot", metavar="FILE.png", help="write a bar chart comparing the models (PNG)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace an existing --json/--markdown/--plot file bsl did not write (it is moved to "
                        ".bsl-replaced/<time>/ beside it, never deleted); one bsl evaluate wrote is rewritten")
    p.add_argument("--tasks", help="comma-separated subset of sts12,sts13,sts14,sts15,sts16,stsb,sickr (default: "
                                   "all seven), sts17, mr,cr,subj,mpqa,sst2,trec,mrpc,sicke (or transfer)")
    p.add_argument("--pooling", choices=POOLING_MODES,
                   help="override pooling; default: the checkpoint's / sentence-transformers config's, else mean")
    p.add_argument("--batch-size", type=int, help=flag_help("sentences per forward pass", EvaluationConfig, "batch_size"))
    p.add_argument("--device", help=flag_help("auto (cuda if available, else cpu), cpu, cuda, cuda:N", EvaluationConfig, "device"))
    p.add_argument("--max-length", type=int, help=flag_help("truncate to this many tokens (none: the model's limit)", EvaluationConfig, "max_length"))
    p.add_argument("--cache-dir", help=flag_help("embedding cache folder", EvaluationConfig, "cache_dir"))
    p.add_argument("--no-cache", action="store_true", help="neither read nor write cached embeddings")
    p.add_argument("--sts-aggregate", choices=("all", "mean", "wmean"),
                   help=flag_help("per-year STS12-16 number used in the table and average", EvaluationConfig, "sts_aggregate"))
    p.add_argument("--no-stsb-dev", action="store_true", help="skip STS-B dev (reported in details only)")
    add_config_arguments(p, example="sts_aggregate=wmean", not_needed=("models",))
    add_progress_flags(p)


# Each dedicated flag is a shortcut for one config key; -o beats it (bsl.config_args).
EVALUATE_FLAGS = {"data_dir": "data_dir", "tasks": "tasks", "pooling": "pooling", "batch_size": "batch_size",
                  "device": "device", "max_length": "max_length", "cache_dir": "cache_dir",
                  "sts_aggregate": "sts_aggregate", "no_cache": to_constant("cache_dir", None),
                  "no_stsb_dev": to_constant("include_stsb_dev", False)}


def build_config(args: argparse.Namespace):
    """defaults <- --config YAML <- dedicated flags <- -o overrides."""
    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.evaluation.config import EvaluationConfig
    from bsl_pipeline.evaluation.tasks import parse_tasks

    config = resolve_config(EvaluationConfig, args, EVALUATE_FLAGS)
    config.tasks = list(parse_tasks(config.tasks))
    if config.batch_size < 1:
        raise BSLError(f"batch size must be >= 1, got {config.batch_size}")
    return config


OUTPUT_FLAGS = ("json", "markdown", "plot")


def _claim_outputs(args: argparse.Namespace, config) -> None:
    """Before any model loads (and again just before each is written): each output file must be new, one this
    command wrote (proven by the record of written files, `pipeline.base.written_files`), or (with --overwrite) is
    set aside; none may be a model, lie inside one or the data dir, or be a link, device or FIFO."""
    from pathlib import Path

    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.pipeline.base.ownership import claim_file
    from bsl_pipeline.pipeline.base.written_files import recorded_by

    inputs = [m for m in args.models if Path(m).exists()] + ([config.data_dir] if config.data_dir else [])
    given = [(flag, getattr(args, flag)) for flag in OUTPUT_FLAGS if getattr(args, flag, None)]
    for i, (flag, path) in enumerate(given):  # one writer per file: two outputs at one path would overwrite
        for other, other_path in given[:i]:
            if Path(path).expanduser().resolve() == Path(other_path).expanduser().resolve():
                raise BSLError(f"--{other} {other_path} and --{flag} {path} name the same file; give each output "
                               f"its own file")
    for flag in OUTPUT_FLAGS:
        if getattr(args, flag, None):
            claim_file(getattr(args, flag), overwrite=getattr(args, "overwrite", False), inputs=inputs,
                       ours=recorded_by(f"bsl evaluate --{flag}"), what=f"--{flag}")


def run(args: argparse.Namespace) -> int:
    from bsl_pipeline.evaluation.runner import evaluate_models
    from bsl_pipeline.evaluation.score_tables import (
        format_table,
        write_json,
        write_markdown,
        write_plot,
    )

    from bsl_pipeline.evaluation.preflight import check_settings

    config = build_config(args)
    # What the run's set-up would refuse, refused here (and by --print-config) without loading anything.
    check_settings(config)
    if getattr(args, "print_config", False):
        print_config(config)
        return 0
    _claim_outputs(args, config)
    results = evaluate_models(args.models, config, disable_progress=disable_progress(args))
    print(format_table(results))
    from bsl_pipeline.pipeline.base.written_files import record_written

    _claim_outputs(args, config)  # again: a file may have appeared there while the models were evaluated
    writers = {"json": write_json, "markdown": write_markdown, "plot": write_plot}
    for flag in OUTPUT_FLAGS:
        path = getattr(args, flag, None)
        if path:
            writers[flag](results, path)
            record_written(path, f"bsl evaluate --{flag}")
            print(f"wrote {path}", file=sys.stderr)
    return 0
