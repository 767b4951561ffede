"""Every rewrite rule's output on the development blocks (and on any text file) at an earlier revision and in the
working tree: per rule, how many outputs the change refuses, adds or changes, with --show N examples of each. Each
rule is called on each sentence on its own (not the augmenter's one draw per sentence), so a guard's whole effect
shows.

    OMP_NUM_THREADS=1 .venv/bin/python experiments/views_round/compare_rules.py 1fe3dee [--file corpus.txt] [--show 5]
    # where rules apply now: the share of each block's (and file's) sentences each listed rule rewrites
    OMP_NUM_THREADS=1 .venv/bin/python experiments/views_round/compare_rules.py --reach caption_passive,headline_event \
        [--file corpus.txt]

The earlier revision's pipeline/ is taken with `git archive` into a temporary folder and run in a subprocess under
the same package name; the development blocks are experiments/second_method/data.py's DEV blocks.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def outputs(texts: list[str]) -> dict[str, str]:
    """rule + TAB + sentence -> the rule's output, for every rule that applies."""
    from bsl_pipeline.pipeline.augment.augmenters.rewrites import RewritesConfig
    from bsl_pipeline.pipeline.augment.rewrite_rules import RULE_FUNCTIONS, tokenize

    cfg = RewritesConfig()
    out = {}
    for text in texts:
        toks = tokenize(text)
        if not toks:
            continue
        for rule, fn in RULE_FUNCTIONS.items():
            new = fn(text, toks, cfg)
            if isinstance(new, str):  # not None (no rewrite) nor a guard's refusal
                out[f"{rule}\t{text}"] = new
    return out


def sentences(files: list[str]) -> list[str]:
    sys.path.insert(0, str(REPO / "experiments" / "second_method"))
    from data import DEV, block

    texts = [t for name in DEV for t in block(name)]
    for f in files:
        texts += [line.strip() for line in Path(f).read_text(encoding="utf-8").splitlines() if line.strip()]
    return list(dict.fromkeys(texts))


def reach(rules: list[str], files: list[str]) -> None:
    """Per block and file: the share of its distinct sentences that each of `rules` rewrites."""
    sys.path.insert(0, str(REPO / "experiments" / "second_method"))
    from data import DEV, block

    groups = {name: list(dict.fromkeys(block(name))) for name in DEV}
    for f in files:
        groups[f] = list(dict.fromkeys(line.strip() for line in Path(f).read_text(encoding="utf-8").splitlines()
                                       if line.strip()))
    print("| sentences | " + " | ".join(rules) + " |")
    print("|---|" + "---:|" * len(rules))
    for name, texts in groups.items():
        got = Counter(key.split("\t")[0] for key in outputs(texts))
        print(f"| {name} ({len(texts)}) | " + " | ".join(f"{got[r] / len(texts):.2%}" for r in rules) + " |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rev", nargs="?", help="the earlier revision (a commit, tag or branch)")
    p.add_argument("--reach", help="comma-separated rules: print where they apply now instead of comparing")
    p.add_argument("--file", action="append", default=[], help="a text file of sentences, one per line (repeatable)")
    p.add_argument("--show", type=int, default=0, help="examples of each kind of difference per rule")
    p.add_argument("--dump", help=argparse.SUPPRESS)  # internal: write this tree's outputs as JSON to this path
    args = p.parse_args()
    if args.reach:
        reach(args.reach.split(","), args.file)
        return
    if not args.rev:
        p.error("give the earlier revision, or --reach RULES")
    texts = sentences(args.file)
    if args.dump:
        import bsl_pipeline.pipeline as earlier

        if Path(earlier.__file__).resolve().is_relative_to(REPO):
            sys.exit(f"the earlier revision's package was not the one imported: {earlier.__file__}")
        Path(args.dump).write_text(json.dumps(outputs(texts)), encoding="utf-8")
        return
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "rev.tar"
        subprocess.run(["git", "-C", str(REPO), "archive", "-o", str(archive), args.rev, "pipeline"], check=True)
        pkg = Path(tmp) / "bsl_pipeline"
        with tarfile.open(archive) as tar:
            tar.extractall(pkg, filter="data")
        dump = Path(tmp) / "before.json"
        env = {**os.environ, "PYTHONPATH": tmp}
        files = [a for f in args.file for a in ("--file", str(Path(f).resolve()))]
        cmd = [sys.executable, __file__, args.rev, "--dump", str(dump), *files]
        subprocess.run(cmd, env=env, check=True, cwd=tmp)
        before = json.loads(dump.read_text(encoding="utf-8"))
    after = outputs(texts)
    kinds = {"refused": [k for k in before if k not in after], "added": [k for k in after if k not in before],
             "changed": [k for k in before if k in after and before[k] != after[k]]}
    print(f"{len(texts)} sentences; outputs before {len(before)}, after {len(after)}")
    for kind, keys in kinds.items():
        print(f"{kind}: {dict(Counter(k.split(chr(9))[0] for k in keys).most_common())}")
        for key in keys[:args.show] if args.show else []:
            print(f"   {key.replace(chr(9), ': ')}\n      before: {before.get(key)}\n      after:  {after.get(key)}")


if __name__ == "__main__":
    main()
