"""`bsl demo`: the main job (flows/main_job.py) from the command line; its --help is the job's docstring."""

from __future__ import annotations

import argparse

from bsl_pipeline.flows import main_job
from bsl_pipeline.cli.config_args import (
    PROGRESS_FLAG,
    add_command,
    add_config_arguments,
    add_progress_flags,
    flag_help,
    print_config,
    resolve_config,
    to_constant,
)
from bsl_pipeline.flows.main_job import (
    MainJobConfig,
    MainJobResult,
    StepRecord,
    check_job_settings,
    run_main_job,
)


def _config_help() -> str:
    """Job keys with their defaults; the evaluation/ sections hold the demo's values, not the stage
    defaults that help_text would list for them."""
    from bsl_pipeline.pipeline.base.config import describe

    rows = [(key, doc) for key, _type, doc in describe(MainJobConfig)
            if not key.startswith(("training.", "evaluation."))]
    rows += [("training.*", "every `bsl train` key (the demo's values, the unsupervised recipe: --print-config, "
                            "configs/recipes/unsupervised.yaml)"),
             ("evaluation.*", "every `bsl evaluate` key (data_dir '' = the data dir found as docs/guide/data.md says)")]
    width = max(len(key) for key, _doc in rows)
    return "\n".join(f"  {key:<{width}}  {doc}" for key, doc in rows)


# --out/--data-dir/--nli are shortcuts for these keys; -o beats them (bsl.config_args).
DEMO_FLAGS = {"out": "out_dir", "data_dir": "evaluation.data_dir", "nli": "nli",
              "overwrite": to_constant("overwrite", True), "progress": PROGRESS_FLAG}


def register(subparsers) -> None:
    p = add_command(subparsers, "demo", run,
                    "the main job: corpus -> view pairs -> BSL training -> STS before/after -> HTML report",
                    main_job.__doc__, "config keys (YAML file and -o KEY=VALUE):\n" + _config_help())
    p.add_argument("--out", help=flag_help("output dir", MainJobConfig, "out_dir"))
    p.add_argument("--data-dir", help="STS data dir for the before/after evaluation (evaluation.data_dir; default: "
                                      "BSL_DATA_DIR, ~/.cache/bsl/data, ../shared/data)")
    p.add_argument("--nli", action="append", default=[], help="NLI file for entailment pairs (repeatable)")
    p.add_argument("--overwrite", action="store_true",
                   help=flag_help("write into an --out dir bsl did not create; what the job replaces is moved to "
                                  ".bsl-replaced/<time>/ there, never deleted", MainJobConfig, "overwrite"))
    add_progress_flags(p, in_config=True)
    add_config_arguments(p, "main job config", example="training.train.max_steps=300")


def _step_started(name: str) -> None:
    print(f"== {name}", flush=True)


def _step_done(record: StepRecord) -> None:
    print(f"   {record.step}: {record.seconds} s{' (cached)' if record.cached else ''}", flush=True)


def run(args: argparse.Namespace) -> int:
    cfg = resolve_config(MainJobConfig, args, DEMO_FLAGS)
    if args.print_config:  # what the run would refuse in its settings, refused here too (run_main_job checks again)
        check_job_settings(cfg, printing=True)
        print_config(cfg)
        return 0
    print_summary(run_main_job(cfg, on_step_start=_step_started, on_step_done=_step_done))
    return 0


def print_summary(summary: MainJobResult) -> None:
    from bsl_pipeline.evaluation.score_columns import STS_COLUMNS

    print(f"\nrecipe: {summary.facts['recipe']}")
    print("steps: " + ", ".join(f"{s.step} {s.seconds} s{' (cached)' if s.cached else ''}" for s in summary.steps))
    results = summary.results
    if results:
        for label, r in results.items():
            scores = [(k, r.get(k)) for k in STS_COLUMNS] + [(f"{table}.{k}", v) for table in ("transfer", "sts17")
                                                             for k, v in (r.get(table) or {}).items()]
            print(f"{label:>18}: " + "  ".join(f"{k} {v:.2f}" for k, v in scores if v is not None))
        before, after = results.values()
        # the STS avg, and the transfer / STS 2017 avgs (separate tables, never mixed into the STS one)
        diffs = [(name, a.get("avg"), b.get("avg")) for name, a, b in
                 [("avg", before, after)] + [(f"{t}.avg", before.get(t) or {}, after.get(t) or {})
                                             for t in ("transfer", "sts17")]]
        shown = "  ".join(f"{name} {b - a:+.2f}" for name, a, b in diffs if a is not None and b is not None)
        if shown:
            print(f"{'after - before':>18}: {shown}")
    if "note" in summary.facts:
        print(f"note: {summary.facts['note']}")
    if summary.evaluation_note:
        print(summary.evaluation_note)
    print(f"total {summary.total_s} s; report: {summary.report}")
