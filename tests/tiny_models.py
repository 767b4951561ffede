"""Tiny Hugging Face checkpoints built offline, in the same on-disk formats as bert-base-uncased / roberta-base.

They exercise the real loading code (`AutoModel.from_pretrained(dir)`, `AutoTokenizer.from_pretrained(dir)`) with
random weights small enough to run in milliseconds on one CPU thread. Built once per test session (conftest).
"""

from __future__ import annotations

import string
from pathlib import Path

# Common English words so that test sentences tokenise into whole words, plus single characters (and their
# WordPiece continuations) so that any other word still tokenises without [UNK].
WORDS = (
    "the a an of to and in is was for on that with as by at it from be this are or his her their has have had not "
    "but which one all were we when there can more if no out so said what up its about into than them only other "
    "new some could time these two may then do first any my now such like our over man me even most made after "
    "also did many before must through back years where much your way well down should because each just those "
    "people how too little state good very make world still own see men work long get here between both life "
    "being under never day same another know while last might us great old year off come since against go came "
    "right used take three dog cat runs ran quickly slowly big small house car tree park child children woman "
    "women playing plays sitting stands standing street water red blue green white black man's outside inside "
    "sentence sentences view views model models happy sad walks walking eating food ball game city music"
).split()


def _wordpiece_vocab() -> list[str]:
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    chars = list(string.ascii_lowercase + string.digits + string.punctuation)
    vocab = specials + chars + ["##" + c for c in string.ascii_lowercase + string.digits]
    seen = set(vocab)
    for w in WORDS:
        if w not in seen:
            vocab.append(w)
            seen.add(w)
    return vocab


def build_tiny_bert(out_dir: str | Path, hidden: int = 32, layers: int = 2, heads: int = 2, seed: int = 0) -> Path:
    """A BERT encoder dir (config.json, model.safetensors, vocab.txt, tokenizer files), uncased WordPiece."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizer

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    vocab = _wordpiece_vocab()
    tokenizer = BertTokenizer(vocab={tok: i for i, tok in enumerate(vocab)}, do_lower_case=True)
    config = BertConfig(vocab_size=len(vocab), hidden_size=hidden, num_hidden_layers=layers,
                        num_attention_heads=heads, intermediate_size=hidden * 2, max_position_embeddings=128,
                        hidden_dropout_prob=0.1, attention_probs_dropout_prob=0.1)
    torch.manual_seed(seed)
    model = BertModel(config)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def _byte_level_vocab() -> tuple[dict[str, int], list[tuple[str, str]]]:
    """A GPT-2 style byte-level BPE vocab: the 256 byte symbols plus merges that form the WORDS (with and
    without the leading-space marker 'Ġ')."""
    from transformers.convert_slow_tokenizer import bytes_to_unicode

    specials = ["<s>", "<pad>", "</s>", "<unk>"]
    byte_syms = list(bytes_to_unicode().values())
    vocab: dict[str, int] = {}
    for tok in specials + byte_syms:
        vocab.setdefault(tok, len(vocab))
    merges: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()

    def add_merge(left: str, right: str) -> None:
        if (left, right) not in seen:
            seen.add((left, right))
            merges.append((left, right))
        vocab.setdefault(left + right, len(vocab))

    for word in WORDS:
        current = word[0]
        for sym in word[1:]:
            add_merge(current, sym)
            current += sym
    for word in WORDS:  # after every in-word merge, so that a whole word forms before it takes its space
        add_merge("Ġ", word)  # the word after a space: "Ġ" + whole word, as in roberta-base's vocabulary
    vocab["<mask>"] = len(vocab)
    return vocab, merges


def build_tiny_roberta_mlm(out_dir: str | Path, hidden: int = 32, layers: int = 2, heads: int = 2,
                           seed: int = 0) -> Path:
    """A RobertaForMaskedLM dir with a byte-level BPE tokenizer (vocab.json + merges.txt), like roberta-base."""
    import torch
    from transformers import RobertaConfig, RobertaForMaskedLM, RobertaTokenizer

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    vocab, merges = _byte_level_vocab()
    tokenizer = RobertaTokenizer(vocab=vocab, merges=merges)
    config = RobertaConfig(vocab_size=len(vocab), hidden_size=hidden, num_hidden_layers=layers,
                           num_attention_heads=heads, intermediate_size=hidden * 2, max_position_embeddings=130,
                           pad_token_id=1, bos_token_id=0, eos_token_id=2, type_vocab_size=1)
    torch.manual_seed(seed)
    model = RobertaForMaskedLM(config)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out
