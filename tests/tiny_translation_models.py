"""Tiny translation checkpoints built offline, in the same on-disk formats as the real ones.

* fairseq, WMT19 hub layout (`model1.pt`, `dict.en.txt`, `dict.de.txt`, fastBPE-format `bpecodes`), one directory
  per direction, as in `transformer.wmt19.en-de` / `de-en`. Trained with fairseq's own command-line entry points
  on ten sentence pairs (about 15 s for both): the models really translate their training sentences, so a round
  trip through both gives the English back.
* transformers FSMT (`config.json`, `model.safetensors`, `vocab-src.json`, `vocab-tgt.json`, `merges.txt`), as in
  `facebook/wmt19-en-de`: converted from the fairseq directories above, weights and vocabulary unchanged.
* transformers Marian (`config.json`, `model.safetensors`, `source.spm`, `target.spm`, `vocab.json`), as in
  `Helsinki-NLP/opus-mt-en-fr`: random weights, fitted to sentence pairs (about 2 s), or (for benchmarks) trained
  to copy its input so that its outputs end where real translations would.

Used by tests/pipeline/augment/augmenters/test_backtranslation.py (session fixtures) and benchmarks/bench_backtranslation.py.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

EN_DE_PAIRS: list[tuple[str, str]] = [
    ("The cat sits on the mat.", "Die Katze sitzt auf der Matte."),
    ("The dog runs in the park.", "Der Hund läuft im Park."),
    ("I like green apples.", "Ich mag grüne Äpfel."),
    ("We read a good book.", "Wir lesen ein gutes Buch."),
    ("The house is very big.", "Das Haus ist sehr groß."),
    ("She drinks cold water.", "Sie trinkt kaltes Wasser."),
    ("The children play outside.", "Die Kinder spielen draußen."),
    ("My brother works in the city.", "Mein Bruder arbeitet in der Stadt."),
    ("The sun is shining today.", "Die Sonne scheint heute."),
    ("He writes a long letter.", "Er schreibt einen langen Brief."),
]

EN_FR_PAIRS: list[tuple[str, str]] = [
    ("The cat sits on the mat.", "Le chat est assis sur le tapis."),
    ("The dog runs in the park.", "Le chien court dans le parc."),
    ("I like green apples.", "J'aime les pommes vertes."),
    ("We read a good book.", "Nous lisons un bon livre."),
    ("The house is very big.", "La maison est très grande."),
    ("She drinks cold water.", "Elle boit de l'eau froide."),
    ("The children play outside.", "Les enfants jouent dehors."),
    ("My brother works in the city.", "Mon frère travaille en ville."),
    ("The sun is shining today.", "Le soleil brille aujourd'hui."),
    ("He writes a long letter.", "Il écrit une longue lettre."),
]


# -- fairseq ---------------------------------------------------------------------------------------------------------

# Runs fairseq's command-line entry points (`fairseq-preprocess`, `fairseq-train`) one after the other in a single
# interpreter: importing fairseq costs seconds, and a process per command would pay it three times.
_FAIRSEQ_DRIVER = """
import json, sys
from fairseq_cli import preprocess, train
for argv in json.loads(sys.argv[1]):
    sys.argv = argv
    {"fairseq-preprocess": preprocess, "fairseq-train": train}[argv[0]].cli_main()
"""


def _run_fairseq_cli(commands: Sequence[Sequence[str]], log: Path) -> None:
    # One thread (tiny models are far faster that way) and no GPU, whatever the caller's environment says.
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", CUDA_VISIBLE_DEVICES="",
               PYTHONWARNINGS="ignore")
    with open(log, "w") as fh:
        proc = subprocess.run([sys.executable, "-c", _FAIRSEQ_DRIVER, json.dumps([list(c) for c in commands])],
                              stdout=fh, stderr=subprocess.STDOUT, env=env)
    if proc.returncode != 0:
        tail = log.read_text(errors="replace")[-3000:]
        raise RuntimeError(f"fairseq command line failed ({proc.returncode}); log {log}:\n{tail}")


def _learn_fastbpe_codes(corpus: Path, codes_out: Path, merges: int, min_frequency: int) -> None:
    """Learn merges with subword-nmt and write them the way fastBPE (and so the WMT19 release) does:
    `left right count`, no version header. subword-nmt reports each merge's count only in its verbose log."""
    from subword_nmt.learn_bpe import learn_bpe

    log = io.StringIO()
    with open(corpus, encoding="utf-8") as src, contextlib.redirect_stderr(log):
        learn_bpe(src, io.StringIO(), merges, min_frequency=min_frequency, verbose=True)
    found = re.findall(r"^pair \d+: (\S+) (\S+) -> \S+ \(frequency (\d+)\)$", log.getvalue(), flags=re.M)
    if not found:
        raise RuntimeError(f"subword-nmt learned no merges from {corpus}")
    codes_out.write_text("".join(f"{a} {b} {n}\n" for a, b, n in found), encoding="utf-8")


def build_fairseq_wmt19_pair(out_dir: str | Path, pairs: Sequence[tuple[str, str]] = EN_DE_PAIRS,
                             src: str = "en", tgt: str = "de", updates: int = 400, seed: int = 1,
                             dim: int = 32, label_smoothing: float = 0.1, merges: int = 100,
                             min_frequency: int = 1, repeat: int = 8) -> dict[str, Path]:
    """Two WMT19-layout directories, `{src}-{tgt}` and `{tgt}-{src}`, sharing a joined dictionary and BPE codes.

    Returns {"en-de": dir, "de-en": dir}. Greedy decoding reproduces every training pair. Beam search may not:
    fairseq stops once `beam` hypotheses have ended, and in a model this small the runner-up beams are junk that
    ends within a step or two, sometimes before the right hypothesis does.
    """
    from sacremoses import MosesTokenizer
    from subword_nmt.apply_bpe import BPE

    out = Path(out_dir)
    work = out / "work"
    work.mkdir(parents=True, exist_ok=True)
    tokenized = {}
    for lang, side in ((src, 0), (tgt, 1)):
        tok = MosesTokenizer(lang)
        tokenized[lang] = [tok.tokenize(p[side], return_str=True, escape=True, aggressive_dash_splits=True)
                           for p in pairs]
    (work / "tok.both").write_text("\n".join(tokenized[src] + tokenized[tgt]) + "\n", encoding="utf-8")
    codes = work / "bpecodes"
    _learn_fastbpe_codes(work / "tok.both", codes, merges, min_frequency)
    snmt = work / "codes.subword_nmt"  # the same merges in subword-nmt's format, only to segment training text
    snmt.write_text("#version: 0.2\n" + "".join(" ".join(line.split()[:2]) + "\n"
                                               for line in codes.read_text(encoding="utf-8").splitlines()),
                    encoding="utf-8")
    with open(snmt, encoding="utf-8") as fh:
        bpe = BPE(fh)
    # The pairs are repeated so that an epoch holds several updates: fairseq's per-epoch bookkeeping, not the
    # updates, is what costs time with a model this small.
    for lang in (src, tgt):
        lines = "".join(bpe.process_line(s) + "\n" for s in tokenized[lang])
        (work / f"train.{lang}").write_text(lines * repeat, encoding="utf-8")
    data_bin = work / "data-bin"
    commands = [["fairseq-preprocess", "--source-lang", src, "--target-lang", tgt, "--trainpref", str(work / "train"),
                 "--destdir", str(data_bin), "--joined-dictionary", "--workers", "1"]]
    directions = [(src, tgt), (tgt, src)]
    for a, b in directions:
        commands.append([
            "fairseq-train", str(data_bin), "--source-lang", a, "--target-lang", b,
            "--arch", "transformer", "--share-all-embeddings", "--encoder-layers", "1", "--decoder-layers", "1",
            "--encoder-embed-dim", str(dim), "--decoder-embed-dim", str(dim),
            "--encoder-ffn-embed-dim", str(2 * dim), "--decoder-ffn-embed-dim", str(2 * dim),
            "--encoder-attention-heads", "2", "--decoder-attention-heads", "2",
            "--optimizer", "adam", "--lr", "0.01", "--lr-scheduler", "polynomial_decay",
            "--total-num-update", str(updates), "--end-learning-rate", "0.0005", "--max-update", str(updates),
            "--batch-size", str(len(pairs)), "--required-batch-size-multiple", "1",
            "--criterion", "label_smoothed_cross_entropy", "--label-smoothing", str(label_smoothing),
            "--dropout", "0", "--cpu", "--disable-validation", "--save-dir", str(work / f"checkpoints.{a}-{b}"),
            "--save-interval", "100000", "--no-epoch-checkpoints", "--seed", str(seed), "--num-workers", "0",
            "--log-format", "simple", "--log-interval", "1000"])
    _run_fairseq_cli(commands, work / "fairseq.log")

    dirs: dict[str, Path] = {}
    for a, b in directions:
        name = f"{a}-{b}"
        save = work / f"checkpoints.{name}"
        model_dir = out / f"wmt19.{name}"
        model_dir.mkdir(exist_ok=True)
        shutil.copyfile(save / "checkpoint_last.pt", model_dir / "model1.pt")
        for lang in (a, b):
            shutil.copyfile(data_bin / f"dict.{lang}.txt", model_dir / f"dict.{lang}.txt")
        shutil.copyfile(codes, model_dir / "bpecodes")
        dirs[name] = model_dir
    return dirs


# -- transformers (FSMT, the port of the fairseq WMT19 models) ----------------------------------------------------

def _fsmt_vocab(dict_file: Path) -> dict[str, int]:
    """fairseq dictionary -> FSMT vocabulary, as `facebook/wmt19-*` was made: ids follow fairseq's (four specials,
    then the file's order); BPE pieces lose their `@@` continuation mark, word-final pieces gain `</w>`."""
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for line in dict_file.read_text(encoding="utf-8").splitlines():
        token = line.rsplit(" ", 1)[0]
        vocab[token[:-2] if token.endswith("@@") else token + "</w>"] = len(vocab)
    return vocab


def build_fsmt_from_fairseq(fairseq_dir: str | Path, out_dir: str | Path, num_beams: int = 5) -> Path:
    """Convert a hub-layout fairseq transformer directory (one checkpoint) into an FSMT directory, the way the
    `facebook/wmt19-en-de` etc. checkpoints were made from the WMT19 release: same weights, same vocabulary and
    BPE merges, Moses pre-processing in the tokenizer. Both should then translate alike."""
    import argparse

    import torch
    from transformers import FSMTConfig, FSMTForConditionalGeneration, FSMTTokenizer

    src_dir, out = Path(fairseq_dir), Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    # Our own checkpoint, but still loaded weights-only: fairseq stores its arguments as an argparse.Namespace.
    with torch.serialization.safe_globals([argparse.Namespace]):
        state = torch.load(src_dir / "model1.pt", map_location="cpu", weights_only=True)
    args = state["cfg"]["model"]
    src, tgt = args.source_lang, args.target_lang
    for side, lang in (("src", src), ("tgt", tgt)):
        (out / f"vocab-{side}.json").write_text(json.dumps(_fsmt_vocab(src_dir / f"dict.{lang}.txt"),
                                                           ensure_ascii=False, indent=1), encoding="utf-8")
    merges = [" ".join(line.split()[:2]) for line in (src_dir / "bpecodes").read_text(encoding="utf-8").splitlines()]
    (out / "merges.txt").write_text("\n".join(merges) + "\n", encoding="utf-8")
    tokenizer = FSMTTokenizer(langs=[src, tgt], src_vocab_file=str(out / "vocab-src.json"),
                              tgt_vocab_file=str(out / "vocab-tgt.json"), merges_file=str(out / "merges.txt"),
                              model_max_length=args.max_source_positions)
    vocab_size = len(_fsmt_vocab(src_dir / f"dict.{src}.txt"))
    config = FSMTConfig(
        langs=[src, tgt], src_vocab_size=vocab_size, tgt_vocab_size=vocab_size, d_model=args.encoder_embed_dim,
        encoder_layers=args.encoder_layers, decoder_layers=args.decoder_layers,
        encoder_attention_heads=args.encoder_attention_heads, decoder_attention_heads=args.decoder_attention_heads,
        encoder_ffn_dim=args.encoder_ffn_embed_dim, decoder_ffn_dim=args.decoder_ffn_embed_dim,
        activation_function=args.activation_fn, max_position_embeddings=args.max_source_positions,
        scale_embedding=not args.no_scale_embedding, tie_word_embeddings=args.share_all_embeddings,
        dropout=0.0, attention_dropout=0.0, activation_dropout=0.0,
        bos_token_id=0, pad_token_id=1, eos_token_id=2, decoder_start_token_id=2)
    model = FSMTForConditionalGeneration(config)
    weights = {"model." + k: v for k, v in state["model"].items() if not k.endswith(".version")}
    missing, unexpected = model.load_state_dict(weights, strict=False)
    # Only the sinusoidal position tables are not stored by fairseq (FSMT computes them the same way).
    if unexpected or any("embed_positions" not in k for k in missing):
        raise RuntimeError(f"fairseq -> FSMT weights do not match: missing {missing}, unexpected {unexpected}")
    model.generation_config.num_beams = num_beams
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


# -- transformers (Marian) -------------------------------------------------------------------------------------------

def _sentencepiece_model(texts: Sequence[str], vocab_size: int) -> bytes:
    import sentencepiece as spm

    buf = io.BytesIO()
    # Marian's conventions: </s> is id 0, <unk> id 1, no <s>; <pad> is added to vocab.json last.
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(texts), model_writer=buf, vocab_size=vocab_size, model_type="unigram",
        character_coverage=1.0, num_threads=1, eos_id=0, unk_id=1, bos_id=-1, pad_id=-1, eos_piece="</s>",
        unk_piece="<unk>", hard_vocab_limit=False, minloglevel=2)
    return buf.getvalue()


def _marian_tokenizer(out: Path, texts: Sequence[str], vocab_size: int):
    """source.spm/target.spm (one sentencepiece model learned on `texts`) and vocab.json, as opus-mt ships them."""
    import sentencepiece as spm
    from transformers import MarianTokenizer

    sp_model = _sentencepiece_model(texts, vocab_size)
    (out / "source.spm").write_bytes(sp_model)
    (out / "target.spm").write_bytes(sp_model)
    sp = spm.SentencePieceProcessor(model_proto=sp_model)
    vocab = {sp.id_to_piece(i): i for i in range(sp.get_piece_size())}
    vocab["<pad>"] = len(vocab)
    (out / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False, indent=1), encoding="utf-8")
    tokenizer = MarianTokenizer(source_spm=str(out / "source.spm"), target_spm=str(out / "target.spm"),
                                vocab=str(out / "vocab.json"))
    return tokenizer, vocab


def _marian_model(vocab: dict[str, int], d_model: int, layers: int, seed: int, init_std: float = 0.02):
    import torch
    from transformers import MarianConfig, MarianMTModel

    config = MarianConfig(
        vocab_size=len(vocab), d_model=d_model, encoder_layers=layers, decoder_layers=layers,
        encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=2 * d_model,
        decoder_ffn_dim=2 * d_model, max_position_embeddings=256, pad_token_id=vocab["<pad>"],
        eos_token_id=vocab["</s>"], decoder_start_token_id=vocab["<pad>"],
        dropout=0.0, attention_dropout=0.0, activation_dropout=0.0, scale_embedding=True,
        share_encoder_decoder_embeddings=True, init_std=init_std)
    torch.manual_seed(seed)
    return MarianMTModel(config)


def _save_marian(model, tokenizer, vocab: dict[str, int], out: Path, num_beams: int) -> Path:
    # Real opus-mt checkpoints ship generation defaults like these (beam 4-6, max_length 512).
    model.generation_config.num_beams = num_beams
    model.generation_config.max_length = 512
    model.generation_config.bad_words_ids = [[vocab["<pad>"]]]
    model.generation_config.forced_eos_token_id = vocab["</s>"]
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def build_tiny_marian(out_dir: str | Path, pairs: Sequence[tuple[str, str]] = EN_FR_PAIRS,
                      direction: tuple[int, int] = (0, 1), train_steps: int = 0, seed: int = 0, d_model: int = 32,
                      layers: int = 1, eos_bias: float | None = None, num_beams: int = 4,
                      init_std: float = 0.02) -> Path:
    """A MarianMTModel directory like `Helsinki-NLP/opus-mt-*`.

    The tokenizer is a sentencepiece model learned on both sides of `pairs`. `direction=(0, 1)` translates the
    first element of each pair into the second, `(1, 0)` the reverse. With `train_steps=0` the weights are random;
    otherwise the model is fitted to `pairs` (200 steps reproduce them). `eos_bias` adds to the end-of-sentence
    logit of every step: a large value makes a model that always answers with an empty sentence. A random model
    with the usual `init_std` says much the same whatever the input; a larger one makes it react to its input.
    """
    import torch

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer, vocab = _marian_tokenizer(out, [p[0] for p in pairs] + [p[1] for p in pairs], vocab_size=120)
    model = _marian_model(vocab, d_model, layers, seed, init_std)
    if train_steps:
        s, t = direction
        batch = tokenizer([p[s] for p in pairs], text_target=[p[t] for p in pairs], padding=True,
                          return_tensors="pt")
        batch["labels"][batch["labels"] == vocab["<pad>"]] = -100
        optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
        model.train()
        for _ in range(train_steps):
            loss = model(**batch).loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
    if eos_bias is not None:
        with torch.no_grad():
            model.final_logits_bias[0, vocab["</s>"]] += eos_bias
    return _save_marian(model, tokenizer, vocab, out, num_beams)


def random_sentences(n: int, seed: int = 0, min_words: int = 3, max_words: int = 30) -> list[str]:
    """Sentences of random common English words, of varied length (as in a real corpus)."""
    import random

    from tiny_models import WORDS

    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(min_words, max_words))).capitalize() + "."
            for _ in range(n)]


def build_copy_marian(out_dir: str | Path, train_steps: int = 800, seed: int = 0, d_model: int = 64,
                      layers: int = 1, num_beams: int = 4, max_words: int = 30) -> Path:
    """A Marian directory whose model learned to copy its input (sentences of `random_sentences`).

    For benchmarks: unlike a random model, which never ends a sentence and always decodes to the length limit,
    its outputs end where the input does, so decoding cost follows sentence length as with a real translator.
    About a minute on one CPU thread.
    """
    import random

    import torch

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer, vocab = _marian_tokenizer(out, random_sentences(2000, seed, max_words=max_words), vocab_size=400)
    model = _marian_model(vocab, d_model, layers, seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    # Linear warm-up, then linear decay: a fixed rate leaves the copy unstable on long sentences.
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: min(1.0, (step + 1) / 100) * max(0.05, 1 - step / train_steps))
    rng = random.Random(seed + 1)
    model.train()
    for _ in range(train_steps):
        texts = random_sentences(32, rng.randrange(1 << 30), max_words=max_words)
        batch = tokenizer(texts, text_target=texts, padding=True, return_tensors="pt")
        batch["labels"][batch["labels"] == vocab["<pad>"]] = -100
        loss = model(**batch).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
    model.eval()
    return _save_marian(model, tokenizer, vocab, out, num_beams)


def build_marian_pair(out_dir: str | Path, pairs: Sequence[tuple[str, str]] = EN_FR_PAIRS, src: str = "en",
                      tgt: str = "fr", train_steps: int = 200, **kwargs) -> dict[str, Path]:
    """`opus-mt-{src}-{tgt}` and `opus-mt-{tgt}-{src}` directories trained (or not) on `pairs`."""
    out = Path(out_dir)
    return {
        f"{src}-{tgt}": build_tiny_marian(out / f"opus-mt-{src}-{tgt}", pairs, (0, 1), train_steps, **kwargs),
        f"{tgt}-{src}": build_tiny_marian(out / f"opus-mt-{tgt}-{src}", pairs, (1, 0), train_steps, **kwargs),
    }
