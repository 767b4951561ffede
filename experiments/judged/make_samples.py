"""Regenerate the judged samples of `synonyms` view pairs (issue 17): 100 pairs from a random sample of the demo's
corpus sentences (the distinct sentences of STS-B train + SICK train, `bsl corpus sts-sick-train`).

    .venv/bin/python experiments/judged/make_samples.py --sample before --out experiments/judged/before.tsv
    .venv/bin/python experiments/judged/make_samples.py --sample after  --out experiments/judged/after.tsv
    .venv/bin/python experiments/judged/make_samples.py --sample after-2 --out experiments/judged/after-2.tsv
    .venv/bin/python experiments/judged/make_samples.py --sample after-3 --out experiments/judged/after-3.tsv
    .venv/bin/python experiments/judged/make_samples.py --sample after-4 --out experiments/judged/after-4.tsv
    .venv/bin/python experiments/judged/make_samples.py --sample after-5 --out experiments/judged/after-5.tsv
    .venv/bin/python experiments/judged/make_samples.py --sample mnli-m --out experiments/judged/mnli-m.tsv
    .venv/bin/python experiments/judged/make_samples.py --sample mnli-mm --out experiments/judged/mnli-mm.tsv
    .venv/bin/python experiments/judged/make_samples.py --sample stsb-dev --out experiments/judged/stsb-dev.tsv
    .venv/bin/python experiments/judged/make_samples.py --sample mnli-m-2 --out experiments/judged/mnli-m-2.tsv
    .venv/bin/python experiments/judged/make_samples.py --sample snli-test --out experiments/judged/snli-test.tsv
    .venv/bin/python experiments/judged/make_samples.py --sample mnli-m-3 --out experiments/judged/mnli-m-3.tsv
    .venv/bin/python experiments/judged/make_samples.py --sample sts-sick-test --out experiments/judged/sts-sick-test.tsv
    .venv/bin/python experiments/judged/make_samples.py --sample dev    --out /tmp/dev.tsv   # for development

The corpus is shuffled once with a fixed seed and cut into four disjoint blocks of sentences: `before` (the first
block), `after` (the second), `after-2` (the LAST block of the shuffled order, added in round two of issue 17: no
sample or development run had reached that far into `dev` before), `after-3` (round three: the block before
`after-2`, cut off the end of `dev`, which development runs read from its start and never got near), `after-4`
(round four, the block before that), `after-5` (round five: the TWO blocks before `after-4`, since a strict setting
needs more sentences for 100 pairs; development runs read only `dev`'s first 3,000 sentences, which end 922 sentences
before it), `stsb-dev` and `mnli-m-2` (round six: the distinct STS-B dev sentences, shuffled, and MNLI
dev-matched premises from position 1,000 of `mnli-m`'s shuffled order on; no sample or development run had read
either), `snli-test` and `mnli-m-3` (round seven: the distinct SNLI test premises, image captions as in the demo's
corpus, with the tokenizer's spaces before punctuation and clitics closed up; MNLI dev-matched premises from position
2,000 of `mnli-m`'s order on, which `mnli-m-2`, at most 716 sentences from position 1,000, never reached) and `dev`
(everything between `after` and `after-5`: the only sentences looked at while developing).
From its block a sample takes sentences in order until it has `--pairs` accepted pairs (rejected sentences, e.g.
"no_eligible_word", are counted and listed in a comment line, as the dataset keeps them apart). The augmenter runs
with its defaults of the checked-out code (plus `-o key=value` overrides) and the demo's seed 0; `before.tsv` was
made at commit 12232a0 (the defaults before issue 17), `after.tsv` and `after-2.tsv` at the commits that added
them (rounds one and two).

Columns: n, source_id, source, view, changes (old->new), words, changed, then the judgment columns, left empty
here: meaning_kept (1/0), fluent (1/0), errors (comma-separated classes from RULES.md), note.
"""

from __future__ import annotations

import argparse
import csv
import random
import re
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

WORD = re.compile(r"[^\W\d_]+(?:['\-][^\W\d_]+)*")
BLOCK = 1000  # sentences per block: far more than 100 pairs need
SHUFFLE_SEED = 17


def corpus_sentences(data_dir: str | None) -> list[str]:
    from bsl_pipeline.pipeline.corpus.builtin import write_sts_sick_train
    from bsl_pipeline.evaluation.data_dir import resolve_data_dir

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sts_sick_train.txt"
        write_sts_sick_train(resolve_data_dir(data_dir).path, path)
        return path.read_text("utf-8").splitlines()


def block(sentences: list[str], sample: str) -> list[tuple[int, str]]:
    order = list(range(len(sentences)))
    random.Random(SHUFFLE_SEED).shuffle(order)
    start = {"before": 0, "after": BLOCK, "dev": 2 * BLOCK, "after-2": len(order) - BLOCK,
             "after-3": len(order) - 2 * BLOCK, "after-4": len(order) - 3 * BLOCK,
             "after-5": len(order) - 5 * BLOCK}[sample]
    end = {"dev": len(order) - 5 * BLOCK, "after-5": len(order) - 3 * BLOCK}.get(sample, start + BLOCK)
    return [(i, sentences[i]) for i in order[start:end]]


def mnli_premises(data_dir: str | None, split: str) -> list[tuple[int, str]]:
    """The distinct premises of MNLI dev-matched (fiction, government, slate, telephone, travel; block `mnli-m`) or
    dev-mismatched (9/11 report, face-to-face, letters, OUP, verbatim; `mnli-mm`), shuffled: sentences of other
    genres than the demo's corpus that no development run has read (round five)."""
    from bsl_pipeline.evaluation.data_dir import resolve_data_dir

    path = resolve_data_dir(data_dir).path / "nli" / "mnli" / f"dev_{split}.csv"
    with open(path, newline="", encoding="utf-8") as fh:
        return distinct_shuffled(row["premise"] for row in csv.DictReader(fh))


def snli_test_premises(data_dir: str | None) -> list[tuple[int, str]]:
    """The distinct premises of SNLI test (SentEval's tokenized copy, spaces before punctuation and clitics closed up),
    shuffled (round seven)."""
    from bsl_pipeline.evaluation.data_dir import resolve_data_dir

    path = resolve_data_dir(data_dir).path / "nli" / "snli" / "senteval_tok" / "s1.test"
    lines = path.read_text("utf-8").splitlines()
    return distinct_shuffled(re.sub(r" (?=[.,!?;:)]|'s\b|n't\b|'re\b|'m\b)", "", line.strip()) for line in lines)


def stsb_dev_sentences(data_dir: str | None) -> list[tuple[int, str]]:
    """The distinct sentences of STS-B dev, each pair's two in turn (the evaluation stage's reader), shuffled (round
    six)."""
    from bsl_pipeline.evaluation.data_dir import resolve_data_dir
    from bsl_pipeline.evaluation.data import load_stsb

    pairs = load_stsb(resolve_data_dir(data_dir).path, "dev")
    return distinct_shuffled(s for pair in zip(pairs.sentences1, pairs.sentences2) for s in pair)


def sts_sick_test_sentences(data_dir: str | None) -> list[tuple[int, str]]:
    """The distinct sentences of STS-B test and SICK test, shuffled (round eight): the two genres of the demo's corpus
    (STS-B train + SICK train), from the splits the corpus leaves out, which no sample or development run had read."""
    from bsl_pipeline.evaluation.data_dir import resolve_data_dir
    from bsl_pipeline.evaluation.data import load_sick, load_stsb

    root = resolve_data_dir(data_dir).path
    sets = (load_stsb(root, "test"), load_sick(root, "test"))
    return distinct_shuffled(s for pairs in sets for pair in zip(pairs.sentences1, pairs.sentences2) for s in pair)


def distinct_shuffled(texts: Iterable[str]) -> list[tuple[int, str]]:
    """(index among the distinct non-empty stripped texts, text), in the fixed shuffled order of the samples."""
    sentences = list(dict.fromkeys(t.strip() for t in texts if t.strip()))
    order = list(range(len(sentences)))
    random.Random(SHUFFLE_SEED).shuffle(order)
    return [(i, sentences[i]) for i in order]


def word_count(text: str) -> int:
    return sum(1 for _ in WORD.finditer(text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", choices=("before", "after", "after-2", "after-3", "after-4", "after-5", "mnli-m",
                                             "mnli-mm", "stsb-dev", "mnli-m-2", "snli-test", "mnli-m-3",
                                             "sts-sick-test", "dev"),
                        required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--data-dir", help="STS/SICK data dir (default: the usual resolution, BSL_DATA_DIR, ...)")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("-o", dest="overrides", action="append", default=[], help="synonyms param key=value")
    args = parser.parse_args()

    import yaml

    from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter

    params = {k: yaml.safe_load(v) for k, v in (o.split("=", 1) for o in args.overrides)}
    aug = build_augmenter("synonyms", params)
    rows, rejected, total_words, total_share = [], [], 0, []
    if args.sample.startswith("mnli-"):
        split = {"mnli-m": "matched", "mnli-mm": "mismatched", "mnli-m-2": "matched", "mnli-m-3": "matched"}[
            args.sample]
        source, sentences = f"mnli-dev-{split}", mnli_premises(args.data_dir, split)
        sentences = sentences[{"mnli-m-2": 1000, "mnli-m-3": 2000}.get(args.sample, 0):]
    elif args.sample == "snli-test":
        source, sentences = "snli-test", snli_test_premises(args.data_dir)
    elif args.sample == "sts-sick-test":
        source, sentences = "sts-sick-test", sts_sick_test_sentences(args.data_dir)
    elif args.sample == "stsb-dev":
        source, sentences = "stsb-dev", stsb_dev_sentences(args.data_dir)
    else:
        source, sentences = "sts-sick-train", block(corpus_sentences(args.data_dir), args.sample)
    for index, text in sentences:
        pair = next(iter(aug.augment([SourceRecord(f"{source}:{index}", text)], seed=0)))
        if pair.reject:
            rejected.append(f"{index}:{pair.reject}")
            total_share.append(0.0)
            continue
        changes = pair.info.get("changes", [])
        words = word_count(text)
        total_share.append(len(changes) / max(words, 1))
        rows.append([len(rows) + 1, f"{source}:{index}", text, pair.view2,
                     " | ".join(f"{old}->{new}" for _, old, new, *_ in changes), words, len(changes), "", "", "", ""])
        if len(rows) == args.pairs:
            break
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", newline="", encoding="utf-8") as fh:
        fh.write(f"# sample={args.sample} params={params} seed=0 fingerprint={aug.fingerprint_hash()}\n")
        fh.write(f"# rejected before {len(rows)} pairs were found: {len(rejected)} {' '.join(rejected)}\n")
        fh.write(f"# changed share of all words, mean over the {len(total_share)} sentences drawn (rejects = 0): "
                 f"{sum(total_share) / len(total_share):.3f}\n")
        writer = csv.writer(fh, delimiter="\t", lineterminator="\n")
        writer.writerow(["n", "source_id", "source", "view", "changes", "words", "changed",
                         "meaning_kept", "fluent", "errors", "note"])
        writer.writerows(rows)
    print(f"{args.out}: {len(rows)} pairs, {len(rejected)} rejected, change share "
          f"{sum(total_share) / len(total_share):.3f}")


if __name__ == "__main__":
    main()
