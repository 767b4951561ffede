"""Throughput of our synonym and masked-LM augmenters against nlpaug, on the same data, machine and models, in one run.

    .venv/bin/python benchmarks/bench_augmenters.py [--sentences 0] [--mlm-sentences 1000] [--repeats 3]

* Data: distinct sentences (premises and hypotheses, in file order) of the shared SNLI dev set: all 12,971 for
  synonyms, the first 1,000 of at most 64 tiny-RoBERTa tokens for mlm (the tiny model has 128 positions; nlpaug
  does not truncate after substituting and fails past them).
* synonyms: ours (`synonyms`, fraction 0.3) vs nlpaug `SynonymAug(aug_src="wordnet", aug_p=0.3)`, both on the same
  WordNet (ours sets the system WordNet up for nltk; nlpaug reads `nltk.corpus.wordnet`, which then finds it) and
  the same stopword list. nlpaug normally POS-tags each sentence with nltk's perceptron tagger, whose data cannot be
  had offline; here it gets no tags, which makes it consider every part of speech, as ours does, and spares it the
  tagging time (in nlpaug's favour). Two phases: `cold` = one pass from a fresh process's state (WordNet indexes
  loaded, no synset parsed, nothing cached: nltk's synset cache is emptied for both sides, ours' lookup caches
  too), `steady` = every cache warm, as in a job over a corpus much larger than its vocabulary. Goal: >= 5x.
* mlm: ours (`mlm`, fraction 0.2, top-k 10) vs nlpaug `ContextualWordEmbsAug(aug_p=0.2, top_k=10)` on the same tiny
  RoBERTa masked-LM directory (tests/tiny_models.py), CPU, one torch thread, batch 64 for both. nlpaug 1.1.11 calls
  tokenizer methods that transformers 5 removed (`_convert_token_to_id`, `_convert_id_to_token`); they are added
  back as aliases of the public methods. Goal: >= 3x.
* Loading (WordNet indexes, models) happens before timing, for both sides. The sides take turns within each of
  `--repeats` rounds (load from other processes on a shared machine hits both alike); the best time of each side
  is reported. The exit status is 1 when a ratio is below its goal.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import tempfile
import time
from pathlib import Path

from bench_env import prepare

REPO = prepare(single_thread=True)


def load_sentences(path: Path, limit: int) -> list[str]:
    seen: dict[str, None] = {}
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            for text in (row["premise"], row["hypothesis"]):
                text = " ".join(text.split())
                if text:
                    seen.setdefault(text, None)
    sentences = list(seen)
    if not limit:
        return sentences
    if len(sentences) < limit:
        raise SystemExit(f"{path} has only {len(sentences)} distinct sentences, {limit} asked for")
    return sentences[:limit]


def best_times(fns: dict[str, object], repeats: int, before=None) -> dict[str, float]:
    """Best wall time of each function over `repeats` rounds; the sides take turns within a round so that load
    from other processes on a shared machine hits both alike. `before(name)` runs untimed before each call."""
    best = {name: float("inf") for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            if before is not None:
                before(name)
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def changed_share(originals: list[str], outputs: list[str]) -> float:
    return sum(a != b for a, b in zip(originals, outputs)) / len(originals)


def bench_synonyms(sentences: list[str], repeats: int, cache_dir: str) -> dict[str, dict[str, float]]:
    import nltk

    from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
    from bsl_pipeline.pipeline.lexicon.stopwords import ENGLISH_STOPWORDS

    ours = build_augmenter("synonyms", {"fraction": 0.3, "cache_dir": cache_dir})
    start = time.perf_counter()
    ours.ensure_ready()
    print(f"synonyms  ours: WordNet loaded in {time.perf_counter() - start:.1f} s")
    records = [SourceRecord(str(i), s) for i, s in enumerate(sentences)]

    def no_download(*args, **kwargs):
        raise RuntimeError("the benchmark must not download nltk data")

    nltk.download = no_download
    import nlpaug.augmenter.word as naw
    from nlpaug.model.word_dict import WordNet

    WordNet.pos_tag = classmethod(lambda cls, tokens: [(t, "") for t in tokens])
    start = time.perf_counter()
    theirs = naw.SynonymAug(aug_src="wordnet", aug_p=0.3, stopwords=set(ENGLISH_STOPWORDS))
    from nltk.corpus import wordnet

    wordnet.ensure_loaded()
    print(f"synonyms  nlpaug: WordNet loaded in {time.perf_counter() - start:.1f} s")
    print(f"synonyms  WordNet used: ours {ours._location.root} | nlpaug {wordnet.root}")

    fns = {"ours": lambda: list(ours.augment(records, seed=0)), "nlpaug": lambda: theirs.augment(sentences)}

    def cold(name: str) -> None:
        # As a fresh process with WordNet's indexes loaded: no synset parsed yet, no lookup cached.
        if name == "ours":
            ours.clear_cache()
            ours.finder._wordnet._synset_offset_cache.clear()
        else:
            wordnet._synset_offset_cache.clear()

    results = {"cold": best_times(fns, repeats, before=cold)}
    results["steady"] = best_times(fns, repeats)  # every cache warm: the state of a long job
    print(f"synonyms  changed sentences: ours {changed_share(sentences, [p.view2 for p in fns['ours']()]):.1%}, "
          f"nlpaug {changed_share(sentences, fns['nlpaug']()):.1%}")
    return {phase: {name: len(sentences) / t for name, t in times.items()} for phase, times in results.items()}


def bench_mlm(sentences: list[str], limit: int, repeats: int,
              model_dir: Path) -> tuple[dict[str, dict[str, float]], int]:
    import numpy
    import torch

    torch.set_num_threads(1)
    from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter

    ours = build_augmenter("mlm", {"model": str(model_dir), "fraction": 0.2, "top_k": 10, "device": "cpu",
                                   "batch_size": 64}, progress=False)
    ours.ensure_ready()
    # The tiny model has 128 positions and a small vocabulary (unknown words become several byte tokens). nlpaug
    # does not truncate after its substitutions and fails past the limit, so both sides get sentences of at most
    # half of it.
    sentences = [s for s in sentences if len(ours.tokenizer(s)["input_ids"]) <= 64][:limit]
    print(f"mlm       {len(sentences)} sentences of <= 64 tiny-RoBERTa tokens")
    records = [SourceRecord(str(i), s) for i, s in enumerate(sentences)]

    def run_ours():
        return [p.view2 for p in ours.augment(records, seed=0, batch_size=64)]

    from nlpaug_compat import patch_nlpaug_for_transformers5

    patch_nlpaug_for_transformers5()
    import nlpaug.augmenter.word as naw

    # nlpaug samples with the global generators: seed them so that its run (and any failure) is reproducible
    random.seed(0)
    numpy.random.seed(0)
    torch.manual_seed(0)
    theirs = naw.ContextualWordEmbsAug(model_path=str(model_dir), model_type="roberta", aug_p=0.2, top_k=10,
                                       device="cpu", batch_size=64)

    def run_theirs():
        out = []
        for i in range(0, len(sentences), 64):
            out.extend(theirs.augment(sentences[i:i + 64]))
        return out

    theirs.augment(sentences[:64])
    times = best_times({"ours": run_ours, "nlpaug": run_theirs}, repeats)
    print(f"mlm       changed sentences: ours {changed_share(sentences, run_ours()):.1%}, "
          f"nlpaug {changed_share(sentences, run_theirs()):.1%}")
    return {"steady": {name: len(sentences) / t for name, t in times.items()}}, len(sentences)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="CSV with premise,hypothesis columns (default: nli/snli/dev.csv "
                                                  "of the data dir every command finds, README 'Data')")
    parser.add_argument("--sentences", type=int, default=0,
                        help="sentences for the synonym benchmark (0: all distinct sentences of --data)")
    parser.add_argument("--mlm-sentences", type=int, default=1000, help="sentences for the MLM benchmark")
    parser.add_argument("--repeats", type=int, default=3, help="timed rounds (the best of each side is reported)")
    parser.add_argument("--only", choices=["synonyms", "mlm"], help="run one benchmark")
    args = parser.parse_args(argv)
    if args.data is None:
        from bsl_pipeline.evaluation.data_dir import resolve_data_dir

        args.data = resolve_data_dir().path / "nli" / "snli" / "dev.csv"

    import platform

    import torch

    torch.set_num_threads(1)
    print(f"machine: {platform.machine()} {os.cpu_count()} CPUs, python {platform.python_version()}, "
          f"torch {torch.__version__}, torch threads {torch.get_num_threads()}")
    results = {}
    with tempfile.TemporaryDirectory(prefix="bench_augmenters_") as tmp:
        if args.only in (None, "synonyms"):
            sentences = load_sentences(args.data, args.sentences)
            results["synonyms"] = (bench_synonyms(sentences, args.repeats, str(Path(tmp) / "nltk_data")), 5.0,
                                   len(sentences))
        if args.only in (None, "mlm"):
            from tiny_models import build_tiny_roberta_mlm

            model_dir = build_tiny_roberta_mlm(Path(tmp) / "tiny_roberta")
            rates, n = bench_mlm(load_sentences(args.data, 0), args.mlm_sentences, args.repeats, model_dir)
            results["mlm"] = (rates, 3.0, n)
    print()
    print(f"{'method':<9} {'phase':<7} {'n':>6} {'ours sent/s':>12} {'nlpaug sent/s':>14} {'ratio':>7} {'goal':>5}")
    failed = False
    for name, (phases, goal, n) in results.items():
        for phase, rates in phases.items():
            ratio = rates["ours"] / rates["nlpaug"]
            failed |= ratio < goal
            print(f"{name:<9} {phase:<7} {n:>6} {rates['ours']:>12.1f} {rates['nlpaug']:>14.1f} {ratio:>6.1f}x "
                  f"{goal:>4.0f}x{'' if ratio >= goal else '  below goal'}")
    print("cold: one pass from a fresh process's state; steady: caches and model warm (see the module docstring)")
    return 1 if failed else 0

if __name__ == "__main__":
    raise SystemExit(main())
