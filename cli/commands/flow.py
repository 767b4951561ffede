"""`bsl flow augment|train|evaluate` (run a flow once) and `bsl schedule FILE.yaml` (serve deployments).

Registered by the `bsl` command (cli/cli.py); the flows and their settings live in flows/. Nothing here imports
Prefect at module level: Prefect's settings (PREFECT_HOME, PREFECT_API_URL, analytics off) are applied from the
flags first, then the flow modules load.
"""

from __future__ import annotations

import argparse
import json
import sys

from bsl_pipeline.cli.commands.dataset import (
    AUGMENT_FLAGS,
    OUT_HELP,
    add_augment_flags,
    add_overwrite_flag,
    reused_note,
)
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bsl_pipeline.cli.commands.evaluate import EVALUATE_FLAGS
from bsl_pipeline.cli.commands.train import (
    RUN_FLAGS,
    add_run_arguments,
    check_min_usable_share,
    check_something_to_resume,
    interrupted_run_hint,
    recipe_start_line,
)
from bsl_pipeline.cli.config_args import (
    FlagMap,
    add_command,
    add_config_arguments,
    command_overrides,
    flag_overrides,
    print_config,
    to_constant,
    to_value,
)
from bsl_pipeline.flows.augment_job import AugmentFlowConfig
from bsl_pipeline.flows.evaluate_job import EvaluateFlowConfig
from bsl_pipeline.flows.prefect_env import PrefectEnvConfig, apply_prefect_env
from bsl_pipeline.flows.train_job import TrainFlowConfig
from bsl_pipeline.pipeline.base.config import ConfigError, help_text, load_config, load_yaml, to_dict

FLOW_DESCRIPTION = """\
Run one Prefect flow now, in this process. Every task run is recorded by the Prefect API at PREFECT_API_URL
(--api-url), e.g. a server started with `prefect server start --host 127.0.0.1` whose UI shows the runs; without
one, Prefect starts a temporary local server for this process (its database lives in PREFECT_HOME, so a server
started later with the same PREFECT_HOME shows these runs too).
"""

AUGMENT_DESCRIPTION = """\
Augment CORPUS into the dataset --out with Prefect: one task per (chunk, method), each cached by chunk content +
augmenter fingerprint + seed + filters, persisted under tasks.result_storage (default <out>/.work/prefect-results).
A rerun (in any process) computes only what is missing: killed runs resume without duplicated or missing rows, and
a corpus directory that gained files adds only the new chunks' shards to the manifest. Same output as
`bsl augment` with the same config.

AugmentConfig (what `bsl augment` takes): --config FILE, -o KEY=VALUE, --methods/--name/--seed.
Flow settings (AugmentFlowConfig below: tasks.*, runner.*): --flow-config FILE, -F KEY=VALUE, and the shortcuts
CORPUS/--out/--runner/--workers/--gpus/--dask-address/--no-cache/--result-storage/--retries.
Both follow the one precedence rule (later wins): defaults <- YAML file <- dedicated flags <- -o / -F.
"""

SCHEDULE_DESCRIPTION = """\
Register the deployments described in FILE.yaml with the Prefect server and serve them from this process: runs
start on their cron/interval schedules or when triggered (`prefect deployment run 'bsl-train/NAME'`, or the
UI's "Run" button), each in a subprocess of this one. Stop with Ctrl-C or SIGTERM (what systemd sends): the
schedules are paused, and the command ends with one line and exit code 130 (143 for SIGTERM). Needs a running
server: --api-url, the file's prefect.api_url or PREFECT_API_URL (e.g. `prefect server start --host 127.0.0.1` in
another terminal or its own service; the UI is at http://127.0.0.1:4200). Without one it refuses to serve: a
temporary server would fire no schedules, take no triggered runs and end with this command.

FILE.yaml:

  prefect: {api_url: http://127.0.0.1:4200/api}      # optional; also home, analytics, logging_level
  limit: 0                                            # runs at once (0 = no limit)
  deployments:
    - name: nightly                                   # -> deployment bsl-augment/nightly
      flow: augment                                   # augment | train | evaluate
      cron: "0 2 * * *"                               # or interval_s: 3600; neither = on demand only
      timezone: UTC
      augment:
        corpus: /data/corpus                          # a growing directory: only new files are augmented
        out_dir: /data/datasets/nightly
        config_file: configs/augment.yaml             # optional AugmentConfig file; inline keys win over it
        augment: {methods: [synonyms]}
        tasks: {retries: 2}
        runner: {kind: thread, max_workers: 2}        # or {kind: dask, gpus: auto}
    - name: bsl-nightly                               # -> bsl-train/bsl-nightly
      flow: train
      cron: "0 4 * * *"
      train:
        manifests: [/data/datasets/nightly]
        config_file: configs/train_bsl.yaml
        evaluate: true
        evaluation: {data_dir: /data/eval}

See configs/schedule.example.yaml. Every key (deployments[].<flow section> keys as listed):
"""


def _flow_command(sub, name: str, help: str, description: str, epilog: str = "",
                  api_url_default: str = "$PREFECT_API_URL, else a temporary local server") -> argparse.ArgumentParser:
    """Declare a command that `run` dispatches and that talks to a Prefect API (so takes the Prefect flags)."""
    p = add_command(sub, name, run, help, description, epilog)
    g = p.add_argument_group("Prefect")
    g.add_argument("--api-url", help=f"Prefect API of a running server, e.g. http://127.0.0.1:4200/api "
                                     f"(default: {api_url_default})")
    g.add_argument("--prefect-home", metavar="DIR", help="PREFECT_HOME for this command (default: $PREFECT_HOME "
                                                         "or ~/.prefect)")
    return p


def _add_flow_settings(p: argparse.ArgumentParser, example: str) -> None:
    p.add_argument("-F", "--flow-set", dest="flow_overrides", action="append", default=[], metavar="KEY=VALUE",
                   help=f"override a flow setting, e.g. {example}")


def register(subparsers) -> None:
    p = add_command(subparsers, "flow", run, "run a Prefect flow once: augment (cached, resumable), train, evaluate",
                    FLOW_DESCRIPTION)
    sub = p.add_subparsers(dest="flow_command", metavar="FLOW")
    _add_flow_augment(sub)
    _add_flow_train(sub)
    _add_flow_evaluate(sub)
    _add_schedule(subparsers)


def _add_flow_augment(sub) -> None:
    a = _flow_command(sub, "augment", "augment a corpus as a Prefect flow (cached per chunk x method)",
                      AUGMENT_DESCRIPTION, "flow settings (-F KEY=VALUE):\n" + help_text(AugmentFlowConfig))
    a.add_argument("corpus", nargs="?", help="corpus file or directory")
    a.add_argument("--out", help=OUT_HELP)
    add_overwrite_flag(a)
    add_augment_flags(a)
    add_config_arguments(a, "AugmentConfig", config_help=_config_help("AugmentConfig", "bsl augment"))
    a.add_argument("--flow-config", metavar="FILE", help="AugmentFlowConfig YAML (tasks.*, runner.*, ...)")
    _add_flow_settings(a, "-F tasks.retries=3 -F runner.kind=dask")
    a.add_argument("--runner", choices=("thread", "dask"), help="task runner (runner.kind)")
    a.add_argument("--workers", type=int, help="threads (thread) or worker processes (dask)")
    a.add_argument("--gpus", help="dask: one worker per GPU ('auto' or '0,1')")
    a.add_argument("--dask-address", help="dask: scheduler of a running cluster (tcp://host:8786)")
    a.add_argument("--result-storage", metavar="DIR", help="where Prefect persists task results (the cache)")
    a.add_argument("--retries", type=int, help="retries per task (tasks.retries)")
    a.add_argument("--no-cache", action="store_true", help="do not use Prefect's result cache (tasks.cache=false)")
    a.add_argument("--json", action="store_true", help="print the flow's summary as JSON")


def _add_flow_train(sub) -> None:
    t = _flow_command(sub, "train", "verify datasets and train on them as a Prefect flow (no augmentation)", """\
Verify every dataset's shard checksums (one task per manifest), then run the trainer (training.train, what
`bsl train` runs) without re-augmenting; optionally evaluate the result and publish the STS table as an artifact.
A finished run of the same settings and data in the run directory (its train_done.json, as `bsl demo` leaves
them) is reused: nothing is trained again.
The arguments of `bsl train` (--manifest, --recipe, --output-dir, --resume, --overwrite, --min-usable) work as
there; the flow draws no progress bars (its tasks log through Prefect), so it has no --progress/--no-progress.
""", "flow settings (-F KEY=VALUE):\n" + help_text(TrainFlowConfig))
    add_run_arguments(t)
    add_config_arguments(t, "TrainConfig", config_help=_config_help("TrainConfig", "bsl train"))
    _add_flow_settings(t, "-F evaluate=true -F evaluation.data_dir=DIR")
    t.add_argument("--no-verify", action="store_true", help="skip the flow's checksum pass (verify=false)")
    t.add_argument("--json", action="store_true", help="print the flow's result as JSON")


def _add_flow_evaluate(sub) -> None:
    e = _flow_command(sub, "evaluate", "STS table for encoders as a Prefect flow, published as a table artifact", """\
Run the evaluation stage (what `bsl evaluate` runs) and publish the table as a Prefect table artifact (key
--artifact-key; transfer tasks and STS 2017 in their own tables <key>-transfer, <key>-sts17) plus a markdown
artifact with per-subset details (<key>-details).
""", "EvaluationConfig keys (-o KEY=VALUE): see `bsl evaluate --help`")
    e.add_argument("models", nargs="+", metavar="MODEL", help="model directories (or hub ids when online)")
    e.add_argument("--data-dir", help="folder holding sts/, stsbenchmark/ and sick/ (default: docs/guide/data.md)")
    e.add_argument("--tasks", help="comma-separated subset of sts12,...,sts16,stsb,sickr")
    e.add_argument("--artifact-key", default=None, help="table artifact key (default bsl-sts-evaluation)")
    add_config_arguments(e, "EvaluationConfig", not_needed=("models",),
                         config_help=_config_help("EvaluationConfig", "bsl evaluate"))
    e.add_argument("--json", action="store_true", help="print the results as JSON")


def _config_help(what: str, command: str) -> str:
    return (f"{what} YAML file (as `{command} --config`), or what this command's --print-config printed (its "
            f"flow settings and configs load back)")


def _add_schedule(subparsers) -> None:
    s = _flow_command(subparsers, "schedule", "register deployments from a YAML file and serve them",
                      SCHEDULE_DESCRIPTION, _schedule_keys(),
                      api_url_default="the file's prefect.api_url, else $PREFECT_API_URL; one is needed")
    s.add_argument("file", metavar="FILE.yaml", help="schedule file")
    add_config_arguments(s, "schedule file", config_file=False, example="limit=1")
    s.add_argument("--check", action="store_true", help="check the file and every flow's config, print the "
                                                        "deployments, and exit without serving")


def _schedule_keys() -> str:
    from bsl_pipeline.flows.schedule import DeploymentConfig, ScheduleConfig

    return ("schedule file keys:\n" + help_text(ScheduleConfig).split("\n  deployments")[0] + "\n"
            + help_text(DeploymentConfig, "deployments[]."))


# --prefect-home/--api-url set these PrefectEnvConfig keys (a schedule file's `prefect:` section).
PREFECT_FLAGS = {"prefect_home": "home", "api_url": "api_url"}


def _configure_prefect(args: argparse.Namespace) -> None:
    """Prefect's settings from --prefect-home / --api-url (and the defaults): first thing in every `bsl flow`
    command, before anything imports Prefect (it reads them once, at import)."""
    apply_prefect_env(load_config(PrefectEnvConfig, None, flag_overrides(args, PREFECT_FLAGS)))


def _prefect_ready() -> None:
    """The configured server answers (before any work starts), and Prefect's console leaves out the traceback of
    an error this command prints as its one line."""
    from bsl_pipeline.flows.prefect_env import check_api_reachable, terminal_without_bsl_tracebacks

    check_api_reachable()
    terminal_without_bsl_tracebacks()


# -- bsl flow augment --------------------------------------------------------------------------------------------------
# Flow settings set by dedicated flags; -F beats them, as -o beats a stage's flags (bsl.config_args).
AUGMENT_FLOW_FLAGS = {"corpus": "corpus", "out": "out_dir", "config": "config_file", "runner": "runner.kind",
                      "workers": to_value("runner.max_workers", "runner.dask_workers"), "gpus": "runner.gpus",
                      "dask_address": "runner.dask_address", "result_storage": "tasks.result_storage",
                      "retries": "tasks.retries", "no_cache": to_constant("tasks.cache", False),
                      "overwrite": to_constant("overwrite", True)}
TRAIN_FLOW_FLAGS = {"manifest": "manifests", "config": "config_file", "recipe": "recipe",
                    "no_verify": to_constant("verify", False)}
EVALUATE_FLOW_FLAGS = {"models": "models", "config": "config_file", "artifact_key": "artifact_key"}


# -- what --print-config prints, and --config reads back -------------------------------------------------------------
@dataclass(frozen=True)
class FlowDocument:
    """What a flow command's --print-config prints: `flow` (its flow settings) and the stage configs the flow
    resolves, each in its own section (`sections`: section -> the flow setting that holds a config's keys inline).
    Given as --config, the same document loads back (`flow_spec`): the flow section as the flow settings, each
    section as its inline keys. The settings whose effect the sections already show (`folded`, and the inline
    setting of each section printed) print as their defaults, so a document printed again is the same."""

    sections: Mapping[str, str]
    folded: tuple[str, ...] = ("config_file", "overrides")


AUGMENT_DOCUMENT = FlowDocument({"augment_config": "augment"})
TRAIN_DOCUMENT = FlowDocument({"train_config": "train", "evaluation_config": "evaluation"},
                              ("config_file", "overrides", "recipe"))
EVALUATE_DOCUMENT = FlowDocument({"evaluation_config": "evaluation"})


def _printed_document(path: str | None, document: FlowDocument) -> dict[str, Any] | None:
    """--config FILE as flow settings, when FILE is a document --print-config printed (its top-level keys `flow`
    and sections of `document`; no stage config has a `flow` key); None for a stage config file (or none)."""
    if not path:
        return None
    data = load_yaml(path)
    if "flow" not in data or not set(data) <= {"flow", *document.sections}:
        return None
    flow = data["flow"] or {}
    if not isinstance(flow, dict):
        raise ConfigError(f"{path}: flow: expected a mapping of flow settings, got {type(flow).__name__}")
    for section, setting in document.sections.items():
        if section in data:
            if not isinstance(data[section], dict):
                raise ConfigError(f"{path}: {section}: expected a mapping, got {type(data[section]).__name__}")
            flow = {**flow, setting: data[section]}
    return flow


def flow_spec(cls: type, args: argparse.Namespace, flow_flags: FlagMap, stage_flags: FlagMap,
              document: FlowDocument, flow_config: str | None = None):
    """A flow command's settings: defaults <- --config's flow settings (a document --print-config printed) <-
    --flow-config <- flags <- -F; then the stage overrides the flow passes on: its own `overrides` <- the stage's
    dedicated flags <- -o. A --config that is a stage config file is the flow's `config_file` (a flag)."""
    base = _printed_document(getattr(args, "config", None), document)
    if base is not None:
        flow_flags = {dest: key for dest, key in flow_flags.items() if dest != "config"}
    spec = load_config(cls, flow_config, command_overrides(args, flow_flags, overrides_dest="flow_overrides"),
                       base=base)
    spec.overrides = list(spec.overrides) + command_overrides(args, stage_flags)
    return spec


def print_flow_document(spec: Any, document: FlowDocument, sections: dict[str, Any]) -> None:
    """Print `spec` as the document's `flow` section, with the resolved `sections` (see FlowDocument)."""
    flow, defaults = to_dict(spec), to_dict(type(spec)())
    for setting in (*document.folded, *(document.sections[section] for section in sections)):
        flow[setting] = defaults[setting]
    print_config({"flow": flow, **sections})


def augment_spec(args: argparse.Namespace) -> AugmentFlowConfig:
    """Flow settings: defaults <- --config's flow settings <- --flow-config <- flags <- -F; the AugmentConfig
    overrides the flow passes on: the flow config's own `overrides` <- --methods/--name/--seed <- -o."""
    return flow_spec(AugmentFlowConfig, args, AUGMENT_FLOW_FLAGS, AUGMENT_FLAGS, AUGMENT_DOCUMENT, args.flow_config)


def run_augment(args: argparse.Namespace) -> int:
    spec = augment_spec(args)
    if args.print_config:
        from bsl_pipeline.flows.augment_flow import check_augment_spec

        print_flow_document(spec, AUGMENT_DOCUMENT,
                            {"augment_config": check_augment_spec(spec, require_paths=False)})
        return 0
    if not spec.corpus or not spec.out_dir:
        raise ConfigError("flow augment needs CORPUS and --out DATASET_DIR")
    _prefect_ready()
    from bsl_pipeline.flows.augment_run import run_augment_flow

    summary = run_augment_flow(spec)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        states = ", ".join(f"{v} {k}" for k, v in summary["task_states"].items())
        print(f"{summary['name']}: {summary['pairs']} pairs in {summary['shards']} shards; {summary['tasks']} "
              f"tasks ({states}){reused_note(summary['tasks'], summary['tasks'] - summary['computed'])}; manifest: "
              f"{summary['manifest']}")
    return 0


def _check_datasets(manifests: list[str]) -> None:
    """Every dataset a train flow names has a manifest, checked before a server or a flow run starts."""
    from bsl_pipeline.pipeline.dataset.manifest import load_manifest

    for dataset in manifests:
        load_manifest(dataset)


# -- bsl flow train / evaluate --------------------------------------------------------------------------------------
def run_train(args: argparse.Namespace) -> int:
    spec = flow_spec(TrainFlowConfig, args, TRAIN_FLOW_FLAGS, RUN_FLAGS, TRAIN_DOCUMENT)
    if args.print_config:  # the settings alone: the datasets may be given when the flow runs
        from bsl_pipeline.flows.train_flow import resolve_flow_evaluation, spec_train_config
        from bsl_pipeline.training.preflight import check_settings

        train_config = spec_train_config(spec, require_datasets=False)
        check_settings(train_config, printing=True, config_file=spec.config_file or None)
        shown = {"train_config": train_config}
        evaluation = resolve_flow_evaluation(spec.evaluate, spec.evaluation, spec.artifact_key)
        print_flow_document(spec, TRAIN_DOCUMENT,
                            shown if evaluation is None else {**shown, "evaluation_config": evaluation})
        return 0
    from bsl_pipeline.flows.train_flow import check_train_spec, train_flow, train_parameters

    config, recipe_used = check_train_spec(spec)  # the settings first, as --print-config checks them
    _check_datasets(spec.manifests)
    if recipe_used:
        print(recipe_start_line(config, recipe_used, chosen=bool(spec.recipe), command="bsl flow train"),
              file=sys.stderr)
    args.rerun_hint = lambda: interrupted_run_hint(config, resume_given=args.resume is not None)
    if args.resume == "auto":
        check_something_to_resume(config)
    check_min_usable_share(config, args.min_usable)
    _prefect_ready()
    from bsl_pipeline.flows.prefect_env import temporary_server

    with temporary_server():
        result = train_flow(**train_parameters(spec))
    if args.json:
        print(json.dumps(result, indent=2, default=str))
    else:
        print(train_summary(result["train"]))
        if "evaluation" in result:
            print(result["evaluation"]["table"])
    return 0


def train_summary(r: dict) -> str:
    """The train flow's one line: what it did, to which step, where the checkpoint and the export are."""
    what = "reused the finished run" if r["reused"] else "trained"
    export = (f"export: {r['export_dir']}" if r["export_dir"] else
              "no export (export.enabled=false)" if r["completed"] else "no export (the run stopped early)")
    return f"{what} to step {r['step']}/{r['total_steps']}; checkpoint: {r['final_checkpoint']}; {export}"


def run_evaluate(args: argparse.Namespace) -> int:
    spec = flow_spec(EvaluateFlowConfig, args, EVALUATE_FLOW_FLAGS, EVALUATE_FLAGS, EVALUATE_DOCUMENT)
    if args.print_config:
        from bsl_pipeline.flows.evaluate_flow import check_artifact_key, resolve_evaluation_config

        check_artifact_key(spec.artifact_key)
        print_flow_document(spec, EVALUATE_DOCUMENT, {
            "evaluation_config": resolve_evaluation_config(spec.config_file, spec.evaluation, spec.overrides)})
        return 0
    from bsl_pipeline.flows.evaluate_flow import (
        check_evaluate_spec,
        evaluate_flow,
        evaluate_parameters,
    )

    check_evaluate_spec(spec)
    _prefect_ready()
    from bsl_pipeline.flows.prefect_env import temporary_server

    with temporary_server():
        result = evaluate_flow(**evaluate_parameters(spec))
    print(json.dumps(result["results"], indent=2) if args.json else result["table"])
    return 0


# -- bsl schedule ------------------------------------------------------------------------------------------------------
def run_schedule(args: argparse.Namespace) -> int:
    from bsl_pipeline.flows.schedule import (
        build_deployments,
        describe,
        load_schedule,
        serve_schedule,
    )

    prefect_flags = [f"prefect.{override}" for override in flag_overrides(args, PREFECT_FLAGS)]
    config = load_schedule(args.file, prefect_flags + list(args.overrides))
    if args.print_config:
        print_config(config)
        return 0
    if args.check:
        apply_prefect_env(config.prefect)
        build_deployments(config, check=True)
        print(describe(config))
        return 0
    def serving() -> None:  # once the server has registered the deployments, not before
        print("serving (trigger a run: prefect deployment run 'FLOW/NAME'; Ctrl-C stops and pauses the schedules):\n"
              + describe(config), file=sys.stderr, flush=True)

    serve_schedule(config, on_serving=serving, api_url_given_by=_api_url_given_by(args))
    return 0


def _api_url_given_by(args: argparse.Namespace) -> str:
    """Where the schedule's `prefect.api_url` was given, for the error when that server does not answer."""
    if args.api_url:
        return "--api-url"
    if any(o.strip().startswith("prefect.api_url=") for o in args.overrides):
        return "-o prefect.api_url"
    return f"prefect.api_url in {args.file}"


def run(args: argparse.Namespace) -> int:
    if args.command == "schedule":
        return run_schedule(args)
    handlers = {"augment": run_augment, "train": run_train, "evaluate": run_evaluate}
    handler = handlers.get(getattr(args, "flow_command", None) or "")
    if handler is None:
        print("usage: bsl flow {augment,train,evaluate} ... (see bsl flow --help)", file=sys.stderr)
        return 2
    _configure_prefect(args)
    return handler(args)
