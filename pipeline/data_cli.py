"""`bsl data fetch`: fill a data directory with the public STS / SICK / NLI sets (pipeline/public_data.py)."""

from __future__ import annotations

import argparse

DESCRIPTION = """\
Load the public evaluation and NLI sets with `datasets.load_dataset` from their Hugging Face hub datasets (or from
--mirror, a local directory holding those datasets as <owner>/<name>/ in the hub's file layout) and write them in
the layout `bsl evaluate` reads, with a manifest per set under <DIR>/data_manifests/. Complete sets are skipped,
interrupted ones redone; a set folder supplied by hand is kept unless --force. Without --to the sets go to the data
cache that every command looks in (after --data-dir and BSL_DATA_DIR): $XDG_CACHE_HOME/bsl/data, by default
~/.cache/bsl/data. README 'Data' lists the hub datasets and what each lacks compared with the reference files.
"""

EXAMPLES = """\
examples:
  bsl data fetch                                 # every set into ~/.cache/bsl/data
  bsl data fetch --to data --sets stsb,sickr     # two sets into ./data
  bsl data fetch --mirror /mnt/hub-copy          # offline, from a local copy of the hub datasets
  bsl data fetch -o revisions.snli=main          # another revision than the pinned one

config keys (YAML via --config, or -o key=value; flags win over the YAML file, -o wins over flags):
"""


def register(subparsers) -> None:
    from pipeline.config import help_text
    from pipeline.public_data import PUBLIC_SETS, DataFetchConfig

    data = subparsers.add_parser("data", help="get the public STS / SICK / NLI data (bsl data fetch)",
                                 description="Commands for the public evaluation and NLI data.")
    sub = data.add_subparsers(dest="data_command", metavar="SUBCOMMAND", required=True)
    p = sub.add_parser("fetch", help="download the public sets into the data dir (default ~/.cache/bsl/data)",
                       description=DESCRIPTION, epilog=EXAMPLES + help_text(DataFetchConfig),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--to", metavar="DIR", help="data dir to fill (default: the data cache)")
    p.add_argument("--sets", help="comma-separated subset of " + ",".join(PUBLIC_SETS) + " (default: all)")
    p.add_argument("--mirror", metavar="DIR", help="read <DIR>/<owner>/<name>/ instead of the hub")
    p.add_argument("--force", action="store_true", help="refetch complete sets, replace folders supplied by hand")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--config", "-c", metavar="FILE", help="YAML file with the keys below")
    p.add_argument("-o", "--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override a key, e.g. -o revisions.snli=main (repeatable)")
    p.add_argument("--print-config", action="store_true", help="print the resolved config as YAML and exit")
    p.set_defaults(func=run)


def _flag_overrides(args: argparse.Namespace) -> list[str]:
    import json

    flags = {"to": args.to, "sets": args.sets, "mirror": args.mirror}
    out = [f"{key}={json.dumps(value)}" for key, value in flags.items() if value]
    if args.force:
        out.append("force=true")
    if args.no_progress:
        out.append("progress=false")
    return out


def run(args: argparse.Namespace) -> int:
    from pipeline.config import load_config, to_dict
    from pipeline.public_data import DataFetchConfig, fetch_public_sets, target_dir

    cfg = load_config(DataFetchConfig, args.config, _flag_overrides(args) + list(args.overrides))
    if args.print_config:
        import yaml

        print(yaml.safe_dump(to_dict(cfg), sort_keys=False), end="")
        return 0
    results = fetch_public_sets(cfg, log=lambda line: print(line, flush=True))
    fetched = sum(r.status == "fetched" for r in results)
    print(f"{target_dir(cfg)}: {fetched} set(s) fetched, {len(results) - fetched} already there")
    return 0
