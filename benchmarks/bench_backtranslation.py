"""Back-translation throughput: our augmenter against nlpaug's BackTranslationAug, same model, same sentences.

Both translate en -> pivot -> en with the same two tiny Marian directories (built here, offline: a model trained
to copy its input, so that outputs end where inputs do and decoding cost follows sentence length as with a real
translator), the same beam size, one torch thread, on the same machine in the same run. Model loading is not
timed; each side gets one untimed warm-up call first.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/bench_backtranslation.py [--sentences 512] [--work-dir DIR]

Prints sentences/s of each and the ratio (ours / nlpaug), plus how often the two outputs agree (they decode the
same model with the same beam, so they should nearly always agree; a low number would mean unequal work).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))


def build_models(work: Path) -> tuple[Path, Path]:
    from tiny_translation_models import build_copy_marian

    forward, backward = work / "opus-mt-en-xx", work / "opus-mt-xx-en"
    if not (forward / "config.json").is_file():
        started = time.perf_counter()
        build_copy_marian(forward)
        print(f"built the tiny model in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    if not (backward / "config.json").is_file():
        shutil.copytree(forward, backward)
    return forward, backward


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=512)
    parser.add_argument("--beam", type=int, default=4, help="beam size for both (the tiny model's default is 4)")
    parser.add_argument("--nlpaug-batch-size", type=int, default=32, help="nlpaug's own default is 32")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each, interleaved; best is reported")
    parser.add_argument("--work-dir", type=Path, default=None,
                        help="keep the built model here and reuse it next time (default: a temporary dir)")
    args = parser.parse_args()

    import torch

    torch.set_num_threads(1)
    work = args.work_dir or Path(tempfile.mkdtemp(prefix="bench_bt_"))
    work.mkdir(parents=True, exist_ok=True)
    forward, backward = build_models(work)

    from tiny_translation_models import random_sentences

    from bsl_pipeline.pipeline.augment.augmenters import SourceRecord
    from bsl_pipeline.pipeline.augment.augmenters.backtranslation import BackTranslationAugmenter

    sentences = random_sentences(args.sentences, seed=42)
    warmup = random_sentences(16, seed=7)

    ours = BackTranslationAugmenter({
        "mode": "one-view", "first_pivot": {"forward_model": str(forward), "backward_model": str(backward)},
        "beam": args.beam, "allow_identical": True, "cache_dir": str(work / "cache")})
    ours.progress = False
    ours.ensure_ready()

    import nlpaug.augmenter.word as naw

    theirs = naw.BackTranslationAug(from_model_name=str(forward), to_model_name=str(backward), device="cpu",
                                    batch_size=args.nlpaug_batch_size)
    for model in (theirs.model.src_model, theirs.model.tgt_model):
        model.generation_config.num_beams = args.beam

    def run_ours(texts: list[str]) -> list[str]:
        records = [SourceRecord(f"s{i}", t) for i, t in enumerate(texts)]
        return [p.view2 or "" for p in ours.augment(records, seed=0, batch_size=len(records))]

    def run_theirs(texts: list[str]) -> list[str]:
        return theirs.augment(texts)

    # Interleaved repeats, best of each: the machine is shared, and load from elsewhere only ever adds time.
    runs = {"nlpaug BackTranslationAug": run_theirs, "bsl backtranslation": run_ours}
    times: dict[str, list[float]] = {name: [] for name in runs}
    outputs: dict[str, list[str]] = {}
    for fn in runs.values():
        fn(warmup)
    for _ in range(args.repeats):
        for name, fn in runs.items():
            started = time.perf_counter()
            outputs[name] = fn(sentences)
            times[name].append(time.perf_counter() - started)
            assert len(outputs[name]) == len(sentences), name

    words = [len(s.split()) for s in sentences]
    print(f"{len(sentences)} sentences ({min(words)}-{max(words)} words, mean {sum(words) / len(words):.1f}), "
          f"beam {args.beam}, torch threads {torch.get_num_threads()}, device cpu, best of {args.repeats}")
    rates = {}
    for name, ts in times.items():
        rates[name] = len(sentences) / min(ts)
        median = sorted(ts)[len(ts) // 2]
        print(f"  {name:<28} {rates[name]:8.1f} sentences/s  (best {min(ts):.2f} s, median {median:.2f} s)")
    theirs_name, ours_name = runs
    agree = sum(a == b for a, b in zip(outputs[theirs_name], outputs[ours_name])) / len(sentences)
    copied = sum(a == b for a, b in zip(outputs[ours_name], sentences)) / len(sentences)
    print(f"  ratio ours / nlpaug: {rates[ours_name] / rates[theirs_name]:.2f}x (best), "
          f"{sorted(times[theirs_name])[args.repeats // 2] / sorted(times[ours_name])[args.repeats // 2]:.2f}x "
          "(median)")
    print(f"  identical outputs: {agree:.1%}; round trip reproduced the input: {copied:.1%}")
    if args.work_dir is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
