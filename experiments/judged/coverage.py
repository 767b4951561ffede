"""Why sentences get no `synonyms` view (issue 17): every word of a block is classified by the rule that kept it
(`pipeline.lexicon.substitutes` / `eligible_words` reasons), and each sentence with no eligible word by its
*furthest* word, the one that passed the most rules before one stopped it (the rule to loosen for that sentence).

    PYTHONPATH=. .venv/bin/python experiments/judged/coverage.py --sample dev [-o key=value ...] [--examples REASON]

Only ever run on the development block ("dev"); the judged blocks stay unread.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from make_samples import block, corpus_sentences

from bsl_pipeline.pipeline.lexicon.eligible_words import reason_stage as stage  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", default="dev", choices=("dev",))
    parser.add_argument("--data-dir")
    parser.add_argument("--sentences", type=int, default=3000, help="first N sentences of the block")
    parser.add_argument("-o", dest="overrides", action="append", default=[], help="synonyms param key=value")
    parser.add_argument("--examples", action="append", default=[], help="print words stopped by this reason")
    args = parser.parse_args()

    import yaml

    from bsl_pipeline.pipeline.augment.augmenters import build_augmenter

    params = {k: yaml.safe_load(v) for k, v in (o.split("=", 1) for o in args.overrides)}
    aug = build_augmenter("synonyms", params)
    sentences = block(corpus_sentences(args.data_dir), args.sample)[:args.sentences]
    words, by_sentence, eligible_words, content = Counter(), Counter(), 0, 0
    examples: dict[str, Counter] = defaultdict(Counter)
    with_view = 0
    for _, text in sentences:
        tokens, _ = aug._tokenize(text)
        reasons: dict[int, str] = {}
        eligible = aug._eligible(tokens, reasons)
        eligible_words += len(eligible)
        for i, reason in reasons.items():
            words[reason] += 1
            if reason not in ("not_a_word", "stopword"):
                content += 1
            if reason in args.examples:
                examples[reason][tokens[i]] += 1
        content += len(eligible)
        if eligible:
            with_view += 1
        else:
            furthest = max(reasons.values(), key=stage, default="no_words")
            by_sentence[furthest] += 1
    n = len(sentences)
    print(f"# {n} sentences of block {args.sample!r}, params {params}")
    print(f"sentences with an eligible word: {with_view} ({with_view / n:.1%}); without: {n - with_view}")
    print(f"content words (not punctuation/stopwords): {content}, eligible {eligible_words} "
          f"({eligible_words / max(content, 1):.1%})")
    print("\nsentences without an eligible word, by the rule that stopped their furthest word:")
    for reason, count in by_sentence.most_common():
        print(f"  {reason:45s} {count:6d} {count / n:6.1%}")
    print("\nwords by the rule that kept them (content words):")
    for reason, count in words.most_common():
        if reason not in ("not_a_word", "stopword"):
            print(f"  {reason:45s} {count:6d} {count / max(content, 1):6.1%}")
    for reason, found in examples.items():
        print(f"\n{reason}: " + ", ".join(f"{w} {c}" for w, c in found.most_common(80)))


if __name__ == "__main__":
    main()
