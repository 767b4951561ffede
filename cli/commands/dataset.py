"""`bsl augment`, `verify`, `inspect`, `corpus-manifest`, `corpus`, `methods`: the dataset commands (pipeline/).

The `bsl` command registers them with `register(subparsers)`; each subcommand's `func` runs it. Heavy modules load
inside the commands, so `bsl --help` stays fast.
"""

from __future__ import annotations

import argparse
import textwrap
import os
import sys
from pathlib import Path

from bsl_pipeline.cli.config_args import (
    PROGRESS_FLAG,
    add_command,
    add_config_arguments,
    add_progress_flags,
    disable_progress,
    print_config,
    resolve_config,
    to_value,
)
from bsl_pipeline.pipeline.base.errors import BSLError


def add_overwrite_flag(p: argparse.ArgumentParser, what: str = "a directory bsl did not create") -> None:
    p.add_argument("--overwrite", action="store_true", help=f"write into {what}: what bsl replaces is moved to "
                   ".bsl-replaced/<time>/ there, never deleted")


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 (got {value})")
    return value


def counted(n: int, noun: str) -> str:
    """'1 shard', '3 shards'."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


DATASET_HELP = "dataset directory, manifest JSON, or URL (s3://bucket/prefix)"
OUT_HELP = ("dataset directory to write: new, empty, or one bsl wrote (never the corpus); or a URL such as "
            "s3://bucket/prefix (see -o storage.*)")
#: How a reader reaches a dataset on a store (verify, inspect), printed as written.
STORE_ACCESS_HELP = """\
A URL is read through a local copy; the store's endpoint and credentials come from the environment:
AWS_ENDPOINT_URL=http://HOST:9000 for an S3-compatible server (MinIO, ...), AWS_PROFILE or AWS_ACCESS_KEY_ID /
AWS_SECRET_ACCESS_KEY for the credentials (docs/guide/storage.md).
"""


def reused_note(tasks: int, reused: int) -> str:
    """'; 3 of 24 tasks reused (finished earlier)', or '' when none was (`bsl augment`, `bsl flow augment`)."""
    return f"; {reused} of {tasks} tasks reused (finished earlier)" if reused else ""


def _comma_list(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


# The dedicated flags of AugmentConfig, shared by `bsl augment` and `bsl flow augment`.
AUGMENT_FLAGS = {"seed": "seed", "name": "name", "methods": to_value("methods", convert=_comma_list),
                 "progress": PROGRESS_FLAG}


def add_augment_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--methods", help="comma-separated methods (see `bsl methods`), e.g. synonyms,span-mask")
    p.add_argument("--name", help="dataset name (default: the --out directory name)")
    p.add_argument("--seed", type=int, help="random seed")
    add_progress_flags(p, in_config=True)


def cmd_augment(args: argparse.Namespace) -> int:
    from bsl_pipeline.pipeline.augment.job import AugmentConfig, build_augmenters, run_augment
    from bsl_pipeline.pipeline.dataset.inspection import format_stats_text

    config = resolve_config(AugmentConfig, args, AUGMENT_FLAGS)
    augmenters = build_augmenters(config)  # methods and their settings, checked as a run checks them (no model loads)
    if args.print_config:
        print_config(config)
        return 0
    if not args.corpus or not args.out:
        raise BSLError("augment needs CORPUS and --out DATASET_DIR")
    manifest = run_augment(args.corpus, args.out, config, augmenters=augmenters, overwrite=args.overwrite)
    print(format_stats_text(manifest))
    per_method = manifest.stats.per_method.values()
    tasks, reused = sum(m.tasks for m in per_method), sum(m.tasks_cached for m in per_method)
    print(f"\nwrote {counted(manifest.stats.pairs, 'pair')} to {args.out} "
          f"({counted(len(manifest.shards_of('pairs')), 'shard')}) in {manifest.timings.total_s} s"
          + reused_note(tasks, reused))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from bsl_pipeline.pipeline.base.storage import shown
    from bsl_pipeline.pipeline.base.text import terminal_safe
    from bsl_pipeline.pipeline.dataset.inspection import verify_dataset_and_marks
    from bsl_pipeline.pipeline.dataset.manifest import unchecked_signature_note

    manifest, marks = verify_dataset_and_marks(args.dataset, progress=not disable_progress(args),
                                               allow_unlisted=args.allow_unlisted, max_view_chars=args.max_view_chars)
    pairs, rejects = (sum(s.rows for s in manifest.shards_of(kind)) for kind in ("pairs", "rejects"))
    unchecked = unchecked_signature_note(manifest)
    print(f"OK{f' ({unchecked})' if unchecked else ''}: {terminal_safe(shown(args.dataset))}: dataset {terminal_safe(manifest.name)}, "
          f"{counted(len(manifest.shards), 'shard')}, {counted(pairs, 'pair')} and {counted(rejects, 'reject')}, "
          f"all checksums and row counts match"
          + (f"; {marks} judgment line(s), each of a pair of this dataset" if marks else ""))
    return 0


def cmd_inspect(args: argparse.Namespace) -> int:
    from bsl_pipeline.pipeline.base.atomic import write_text_atomic
    from bsl_pipeline.pipeline.dataset.inspection import (
        PairQuery,
        dataset_inputs,
        format_pairs_text,
        format_stats_text,
        open_dataset,
        render_html,
        sample,
    )

    if args.html:
        from bsl_pipeline.pipeline.base.ownership import local_only

        local_only(args.html, "--html")  # before the dataset is read
    manifest = open_dataset(args.dataset, verify=not args.no_verify, allow_unlisted=args.allow_unlisted,
                            max_view_chars=args.max_view_chars)
    augmentation_methods = sorted(manifest.stats.per_method)
    methods = [m.strip() for m in args.method.split(",")] if args.method else None
    for m in methods or []:
        # `corpus` also selects rows: the corpus lines the run dropped (rejects with method "corpus"); it is no
        # augmentation method, so the list of the dataset's methods does not name it.
        if m not in augmentation_methods and m != "corpus":
            raise BSLError(f"method {m!r} is not in {args.dataset}; its methods: {', '.join(augmentation_methods)}")
    q = PairQuery(n=args.n, seed=args.seed, methods=methods, rejects=args.rejects, reject_reason=args.reason,
                  min_edit_ratio=args.min_edit, max_edit_ratio=args.max_edit, contains=args.contains)
    if args.html:
        from bsl_pipeline.pipeline.base.ownership import claim_file
        from bsl_pipeline.pipeline.base.written_files import record_written, recorded_by

        claim_file(args.html, overwrite=args.overwrite, inputs=[args.dataset, *dataset_inputs(manifest)],
                   ours=recorded_by("bsl inspect --html"), what="--html")
        write_text_atomic(args.html, render_html(manifest, q))
        record_written(args.html, "bsl inspect --html")
        print(f"wrote {args.html}")
        return 0
    if args.stats:
        print(format_stats_text(manifest, methods))
        return 0
    rows = sample(manifest, q)
    color = not args.no_color and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    print(format_pairs_text(rows, color) if rows else "no pairs match")
    return 0


def first_sentence(doc: str) -> str:
    """The first sentence of a docstring, whole: its first paragraph joined into one line, up to the first full stop
    that ends a sentence (not one inside 'e.g.', 'i.e.', a section number or a decimal)."""
    import re

    paragraph = " ".join(doc.strip().split("\n\n")[0].split())
    end = re.search(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)[.!?](?=\s|$)", paragraph)
    return paragraph[:end.end()] if end else paragraph


def cmd_methods(args: argparse.Namespace) -> int:
    from bsl_pipeline.pipeline.augment.augmenters import REGISTRY, augmenter_class
    from bsl_pipeline.pipeline.base.config import help_text

    for name in sorted(REGISTRY):
        try:
            cls = augmenter_class(name)
        except BSLError as exc:
            print(f"{name}: (unavailable: {exc})\n")
            continue
        doc = first_sentence(cls.__doc__ or sys.modules[cls.__module__].__doc__ or "")
        print(textwrap.fill(f"{name}: {doc}", width=116, subsequent_indent="  "))
        fields = help_text(cls.config_class, f"method_params.{name}.")
        print(fields + "\n" if fields else "  (no parameters)\n")
    return 0


def cmd_corpus_manifest(args: argparse.Namespace) -> int:
    import json

    from bsl_pipeline.pipeline.corpus.chunks import CorpusConfig
    from bsl_pipeline.pipeline.corpus.source_manifest import write_source_manifest

    cfg = resolve_config(CorpusConfig, args)
    if args.print_config:
        print_config(cfg)
        return 0
    from bsl_pipeline.pipeline.base.ownership import check_output_name

    name = check_output_name(args.name or Path(args.corpus).name.split(".")[0], "corpus manifest name (--name)")
    result = write_source_manifest(args.corpus, cfg, name, args.registry_dir, overwrite=args.overwrite)
    m = json.loads(result.path.read_text(encoding="utf-8"))
    print(f"wrote {result.path}: {m['records_read']} records read, {m['records_kept']} kept, dropped {m['dropped']}")
    if result.set_aside is not None:
        print(f"  the file it replaced is kept in {result.set_aside}/")
    return 0


def cmd_corpus(args: argparse.Namespace) -> int:
    from bsl_pipeline.pipeline.corpus.builtin import write_sts_sick_train, write_wordnet_examples

    if args.name == "sts-sick-train":
        from bsl_pipeline.evaluation.data_dir import resolve_data_dir

        counts = write_sts_sick_train(resolve_data_dir(args.data_dir).path, args.out, overwrite=args.overwrite)
        print(f"{args.out}: {counts['sentences']} distinct sentences of STS-B train + SICK train (no labels); left "
              f"out: {counts['held_out']} occurrences of sentences that are also in a dev/trial/test file, "
              f"{counts['duplicate']} repeats, {counts['empty']} empty")
        return 0
    n = write_wordnet_examples(args.out, args.wordnet_dir, args.min_words, overwrite=args.overwrite,
                               disable_progress=disable_progress(args))
    print(f"{args.out}: {n} WordNet example sentences")
    return 0


def register(sub) -> None:
    """Add the pipeline's subcommands to `bsl`'s subparsers."""
    _add_augment(sub)
    _add_verify(sub)
    _add_inspect(sub)
    _add_corpus_manifest(sub)
    _add_corpus(sub)
    add_command(sub, "methods", cmd_methods, "list augmentation methods and their parameters", """\
Every augmentation method `bsl augment --methods` takes: its name, what it does, and its parameters (set them with
-o method_params.METHOD.KEY=VALUE), each with its type, default, range and help.
""")


def _add_augment(sub) -> None:
    from bsl_pipeline.pipeline.corpus.readers import FORMATS

    p = add_command(sub, "augment", cmd_augment, "make view pairs from a corpus into a dataset dir", f"""\
Read CORPUS (file or directory; formats: {", ".join(FORMATS)}), normalise and
de-duplicate it, make view pairs with each method, filter them and write Parquet shards + rejects + manifest +
dataset card to --out. Reruns skip finished work.
""", epilog="config keys (-o KEY=VALUE):\n" + _augment_help())
    p.add_argument("corpus", nargs="?", help="corpus file or directory")
    p.add_argument("--out", help=OUT_HELP)
    add_overwrite_flag(p)
    add_augment_flags(p)
    add_config_arguments(p)


def _add_verify(sub) -> None:
    p = add_command(sub, "verify", cmd_verify, "check every shard's checksum and row count against the manifest", """\
Exit 0 when the manifest is unmodified, every shard path stays inside the dataset, data/ and rejects/ hold only
listed files, the dataset card names exactly the manifest's shards, and every shard matches its recorded sha256,
row count and schema (column types, no nulls in required columns or views, only the manifest's methods, views of at
most --max-view-chars characters), and the judgments file (judgments.jsonl, when there is one) is a plain file
whose every line judges a pair of this dataset by its own method (signed, when BSL_MANIFEST_KEY is set); otherwise
exit 1 naming the first mismatch. A card whose text is not the one `bsl augment` wrote (its sha256 is in the
manifest) is a warning: past its front matter, the card is the user's to edit.
""" + STORE_ACCESS_HELP)
    p.add_argument("dataset", help=DATASET_HELP)
    add_progress_flags(p)
    _add_verify_options(p)


def _add_verify_options(p) -> None:
    """The options of the check `bsl verify` runs, which `bsl inspect` runs first."""
    from bsl_pipeline.pipeline.dataset.store import MAX_VIEW_CHARS  # light: pyarrow loads only when shards are read

    p.add_argument("--allow-unlisted", action="store_true", help="files in data/ or rejects/ that the manifest "
                   "does not list are a warning, not an error")
    p.add_argument("--max-view-chars", type=int, default=MAX_VIEW_CHARS, metavar="N",
                   help=f"longest view (characters) a pair shard may hold (default {MAX_VIEW_CHARS}; 0 = no limit)")


def _add_inspect(sub) -> None:
    p = add_command(sub, "inspect", cmd_inspect, "show view pairs with word diffs, per-method stats, or an HTML page",
                    """\
Verify the dataset as `bsl verify` does (with its --allow-unlisted and --max-view-chars), then print a seeded
random sample of pairs (filtered by method, reject reason, edit-ratio range or substring) with word-level diffs of
each view against the source; --stats prints the per-method table; --html writes one self-contained page.
""" + STORE_ACCESS_HELP)
    p.add_argument("dataset", help=DATASET_HELP)
    p.add_argument("-n", type=_at_least_one, default=10,
                   help="pairs to show (per method with --html; default %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="sample seed (default %(default)s)")
    p.add_argument("--method", help="only these methods (comma-separated; with --stats, their rows)")
    p.add_argument("--rejects", action="store_true", help="show rejected pairs/lines instead")
    p.add_argument("--reason", help="only rejects with this reason, or of this kind: no_eligible_word matches "
                        "no_eligible_word:rare_in_semcor (implies --rejects)")
    p.add_argument("--min-edit", type=float, help="only pairs with edit ratio(view1, view2) >= this")
    p.add_argument("--max-edit", type=float, help="only pairs with edit ratio(view1, view2) <= this")
    p.add_argument("--contains", help="only pairs whose source or views contain this text (case-insensitive)")
    p.add_argument("--stats", action="store_true", help="print the per-method statistics table")
    p.add_argument("--html", metavar="FILE", help="write a self-contained HTML page instead of printing")
    add_overwrite_flag(p, "an --html FILE bsl did not write (never the dataset's or the corpus's files)")
    p.add_argument("--no-color", action="store_true", help="mark diffs as [-old-] {+new+} instead of colours")
    p.add_argument("--no-verify", action="store_true", help="skip `bsl verify` first (says loudly that it did)")
    _add_verify_options(p)


def _add_corpus_manifest(sub) -> None:
    p = add_command(sub, "corpus-manifest", cmd_corpus_manifest,
                    "describe a source corpus (checksums, counts) under data_manifests/", """\
Read a corpus with the same reader settings as `bsl augment` (corpus.* keys) and write
<registry-dir>/sources/<name>.json: files with sha256 and line counts, records kept, dropped by reason, NLI label
counts. An existing manifest of that name is rewritten only when it describes the same corpus (path, files and
checksums) and is as bsl wrote it; another corpus's manifest, one edited by hand or any other file is refused
(--overwrite moves it to .bsl-replaced/ beside it).
""")
    p.add_argument("corpus", help="corpus file or directory")
    p.add_argument("--name", help="manifest name (default: the corpus file name without extensions)")
    p.add_argument("--registry-dir", default="data_manifests", help="where the manifest is registered (default %(default)s)")
    add_overwrite_flag(p, "a <name>.json that is another corpus's manifest, edited by hand, or not a manifest")
    add_config_arguments(p, "corpus reader config (format, field, ...)", example="field=sentence",
                         not_needed=("corpus",))


def _add_corpus(sub) -> None:
    p = add_command(sub, "corpus", cmd_corpus, "write a built-in corpus (no download): WordNet's example sentences, "
                    "or the in-domain sentences of STS-B train + SICK train", """\
wordnet-examples: WordNet 3.0's usage examples (about 35k sentences of 4+ words, from the OS WordNet package) to
OUT, one per line, in a fixed order.
sts-sick-train: the distinct sentences of STS-B train and SICK train from the data dir (texts only, never scores or
labels; a sentence that also occurs in a dev/trial/test file is left out: 10,922 of 15,335 with the public files);
OUT is never one of the data dir's files.
Either way an existing OUT is refused unless it already holds exactly what would be written (--overwrite sets it
aside into .bsl-replaced/ beside it); OUT is replaced atomically. STS-B's sentences come from STS12-16, so they overlap STS12-16 test sentences (unlabeled): say so when reporting
results trained on them.
""")
    p.add_argument("name", choices=["wordnet-examples", "sts-sick-train"], help="which built-in corpus")
    p.add_argument("out", help="text file to write (a new file; never a file of the data dir)")
    add_overwrite_flag(p, "an existing OUT")
    p.add_argument("--data-dir", help="sts-sick-train: the data dir (stsbenchmark/, sick/); default: the one "
                                      "every command finds (docs/guide/data.md)")
    p.add_argument("--wordnet-dir", help="WordNet database dir (default: nltk data path, $WNSEARCHDIR, "
                                         "/usr/share/wordnet)")
    p.add_argument("--min-words", type=_at_least_one, default=4,
                   help="wordnet-examples: skip shorter examples (default %(default)s)")
    add_progress_flags(p)


def _augment_help() -> str:
    from bsl_pipeline.pipeline.augment.job import AugmentConfig
    from bsl_pipeline.pipeline.base.config import help_text

    return help_text(AugmentConfig)
