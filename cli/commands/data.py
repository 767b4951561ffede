"""`bsl data fetch`: fill a data directory with the public STS / SICK / NLI sets
(evaluation/public_data.py)."""

from __future__ import annotations

import argparse
import sys

from bsl_pipeline.cli.config_args import (
    PRECEDENCE,
    PROGRESS_FLAG,
    add_command,
    add_config_arguments,
    add_progress_flags,
    print_config,
    resolve_config,
    to_constant,
)

DESCRIPTION = """\
Load the public evaluation and NLI sets with `datasets.load_dataset` from their Hugging Face hub datasets (or from
--mirror, a local directory holding those datasets as <owner>/<name>/ in the hub's file layout) and write them in
the layout `bsl evaluate` reads, with a manifest per set under <DIR>/data_manifests/. Complete sets are skipped,
interrupted ones redone. A set folder supplied by hand is kept unless --force: it counts as the set when it holds
every file the set needs, else the missing files are named and the command exits 1. --force sets aside what it
replaces, never deletes it; in sick/ it replaces only SICK-R's file and leaves the SICK files put there for SICK-E.
Without --to the sets go to the data cache that every command looks in (after --data-dir and BSL_DATA_DIR):
$XDG_CACHE_HOME/bsl/data, by default ~/.cache/bsl/data. docs/guide/data.md lists the hub datasets and what each
lacks compared with the reference files.
"""

EXAMPLES = """\
examples:
  bsl data fetch                                 # every set into ~/.cache/bsl/data
  bsl data fetch --to data --sets stsb,sickr     # two sets into ./data
  bsl data fetch --mirror /mnt/hub-copy          # offline, from a local copy of the hub datasets
  bsl data fetch -o revisions.snli=main          # another revision than the pinned one

precedence (later wins): """ + PRECEDENCE + """

config keys (YAML via --config, or -o key=value):
"""


def register(subparsers) -> None:
    from bsl_pipeline.pipeline.base.config import help_text
    from bsl_pipeline.evaluation.public_data import PUBLIC_SETS, DataFetchConfig

    group = add_command(subparsers, "data", run_group, "get the public STS / SICK / NLI data (bsl data fetch)",
                        "Commands for the public evaluation and NLI data.")
    sub = group.add_subparsers(dest="data_command", metavar="SUBCOMMAND")
    p = add_command(sub, "fetch", run, "download the public sets into the data dir (default ~/.cache/bsl/data)",
                    DESCRIPTION, EXAMPLES + help_text(DataFetchConfig))
    p.add_argument("--to", metavar="DIR", help="data dir to fill (default: the data cache)")
    p.add_argument("--sets", help="comma-separated subset of " + ",".join(PUBLIC_SETS) + " (default: all)")
    p.add_argument("--mirror", metavar="DIR", help="read <DIR>/<owner>/<name>/ instead of the hub")
    p.add_argument("--force", action="store_true", help="refetch complete sets, replace folders supplied by hand")
    add_progress_flags(p, in_config=True)
    add_config_arguments(p, "fetch config", example="revisions.snli=main")


def run_group(args: argparse.Namespace) -> int:
    print("usage: bsl data fetch ... (see bsl data fetch --help)", file=sys.stderr)
    return 2


# Each dedicated flag is a shortcut for one config key; -o beats it (bsl.config_args).
FETCH_FLAGS = {"to": "to", "sets": "sets", "mirror": "mirror", "force": to_constant("force", True),
               "progress": PROGRESS_FLAG}


def run(args: argparse.Namespace) -> int:
    from bsl_pipeline.pipeline.base.errors import InputError
    from bsl_pipeline.evaluation.public_data import DataFetchConfig, check_settings, fetch_public_sets, target_dir

    cfg = resolve_config(DataFetchConfig, args, FETCH_FLAGS)
    check_settings(cfg)  # what the fetch would refuse, refused here (and by --print-config) before anything is read
    if args.print_config:
        print_config(cfg)
        return 0
    results = fetch_public_sets(cfg, log=lambda line: print(line, flush=True))
    fetched = sum(r.status == "fetched" for r in results)
    incomplete = [r for r in results if r.status == "incomplete"]
    there = len(results) - fetched - len(incomplete)
    print(f"{target_dir(cfg)}: {fetched} set(s) fetched, {there} already there"
          + (f", {len(incomplete)} incomplete" if incomplete else ""))
    if incomplete:
        raise InputError("not there: " + "; ".join(f"{r.name} ({r.folder} lacks {', '.join(r.missing)})"
                                                   for r in incomplete)
                         + ": folders supplied by hand are kept; add the files, or rerun with --force")
    return 0
