"""Multilingual views (BSL paper §4.3) on tiny real-format checkpoints built here: the `translation` method through a
fairseq WMT19-layout model (en->de) and a transformers Marian model (en->ar, another script), the parallel-corpus
reader (Moses, TSV, Tatoeba pairs) with the `parallel` method, and the recipe end to end: corpus -> dataset -> BSL
steps on a tiny multilingual BERT whose vocabulary covers Latin and Arabic script. No real MT or multilingual
weights exist in this environment; these models really translate their ten training sentences, nothing more."""

from __future__ import annotations

import gzip
import json
import math
import string
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from tiny_translation_models import (
    EN_DE_PAIRS,
    build_fairseq_wmt19_pair,
    build_tiny_marian,
)

from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, augmenter_class
from bsl_pipeline.pipeline.augment.augmenters.parallel import ParallelAugmenter
from bsl_pipeline.pipeline.augment.augmenters.translation import (
    TranslationAugmenter,
    TranslationConfig,
)
from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment
from bsl_pipeline.pipeline.base.config import ConfigError, help_text
from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.corpus.readers import corpus_files, read_records
from bsl_pipeline.pipeline.dataset.store import iter_pair_batches, verify_dataset

EN_AR_PAIRS: list[tuple[str, str]] = [
    ("The cat sits on the mat.", "القطة تجلس على الحصيرة."),
    ("The dog runs in the park.", "الكلب يركض في الحديقة."),
    ("I like green apples.", "أحب التفاح الأخضر."),
    ("We read a good book.", "نقرأ كتابا جيدا."),
    ("The house is very big.", "البيت كبير جدا."),
    ("She drinks cold water.", "هي تشرب ماء باردا."),
    ("The children play outside.", "الأطفال يلعبون في الخارج."),
    ("My brother works in the city.", "أخي يعمل في المدينة."),
    ("The sun is shining today.", "الشمس مشرقة اليوم."),
    ("He writes a long letter.", "هو يكتب رسالة طويلة."),
]
ENGLISH = [en for en, _ in EN_DE_PAIRS]
GERMAN = dict(EN_DE_PAIRS)
ARABIC = dict(EN_AR_PAIRS)
GREEDY = {"beam": 1}  # exact reproduction through the tiny fairseq model (see build_fairseq_wmt19_pair)


# -- tiny checkpoints -------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def en_de_fairseq(tmp_path_factory) -> Path:
    return build_fairseq_wmt19_pair(tmp_path_factory.mktemp("fairseq"))["en-de"]


@pytest.fixture(scope="module")
def en_ar_marian(tmp_path_factory) -> Path:
    return build_tiny_marian(tmp_path_factory.mktemp("marian") / "opus-mt-en-ar", EN_AR_PAIRS, (0, 1),
                             train_steps=200)


@pytest.fixture(scope="module")
def mute_marian(tmp_path_factory) -> Path:
    return build_tiny_marian(tmp_path_factory.mktemp("marian_mute"), EN_AR_PAIRS, train_steps=0, eos_bias=50.0)


def build_tiny_multilingual_bert(out_dir: Path, texts: list[str], hidden: int = 32, layers: int = 2,
                                 seed: int = 0) -> Path:
    """A cased BERT encoder dir like bert-base-multilingual-cased (config.json, model.safetensors, vocab.txt): its
    WordPiece vocabulary holds every character of `texts` (Latin with umlauts, Arabic) and their continuations,
    plus the whole words, so nothing tokenises to [UNK]."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizer

    out_dir.mkdir(parents=True, exist_ok=True)
    chars = sorted(set(string.ascii_letters + string.digits + string.punctuation + "".join(texts)) - set(" "))
    words = sorted({w.strip(string.punctuation + ".") for t in texts for w in t.split()} - {""})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + chars + ["##" + c for c in chars] + words
    vocab = list(dict.fromkeys(vocab))
    tokenizer = BertTokenizer(vocab={tok: i for i, tok in enumerate(vocab)}, do_lower_case=False,
                              strip_accents=False, tokenize_chinese_chars=True)
    config = BertConfig(vocab_size=len(vocab), hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=2,
                        intermediate_size=hidden * 2, max_position_embeddings=128)
    torch.manual_seed(seed)
    BertModel(config).save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    return out_dir


@pytest.fixture(scope="module")
def multilingual_bert(tmp_path_factory) -> Path:
    texts = [t for pair in EN_DE_PAIRS + EN_AR_PAIRS for t in pair]
    return build_tiny_multilingual_bert(tmp_path_factory.mktemp("mbert"), texts)


def make(**params) -> TranslationAugmenter:
    augmenter = TranslationAugmenter(params)
    augmenter.progress = False
    return augmenter


def records(texts, prefix="r"):
    return [SourceRecord(f"{prefix}{i}", t) for i, t in enumerate(texts)]


# -- the translation method --------------------------------------------------------------------------------------------
def test_registry_help_and_config_errors():
    assert augmenter_class("translation") is TranslationAugmenter
    assert augmenter_class("parallel") is ParallelAugmenter
    text = help_text(TranslationConfig)
    for key in ("languages", "targets", "source_lang", "decoding", "min_length_ratio"):
        assert key in text
    assert TranslationConfig().languages == ["ar", "es", "tr", "de", "fr"]  # the paper's five
    with pytest.raises(ConfigError, match=r"^method_params\.translation\.languages: name at least one"):
        make(languages=[])
    with pytest.raises(ConfigError, match=r"^method_params\.translation\.targets\.fr: not one of languages"):
        make(languages=["de"], targets={"fr": {"model": "x"}})
    with pytest.raises(ConfigError, match=r"^method_params\.translation\.targets\.xx\.model: required"):
        make(languages=["xx"]).legs()
    with pytest.raises(ConfigError, match=r"^method_params\.translation\.sdpa_backend"):
        make(sdpa_backend="warp")


def test_fairseq_and_marian_targets_give_the_models_translations(en_de_fairseq, en_ar_marian):
    de = make(languages=["de"], targets={"de": {"model": str(en_de_fairseq)}}, **GREEDY)
    out = de.augment_batch(records(ENGLISH), seed=0)
    assert de.legs()["de"].backend == "fairseq"
    assert [(p.view1, p.view2, p.reject) for p in out] == [(s, GERMAN[s], None) for s in ENGLISH]
    assert all(p.info == {"source_lang": "en", "target_lang": "de"} for p in out)

    ar = make(languages=["ar"], targets={"ar": {"model": str(en_ar_marian)}}, beam=4)
    out = ar.augment_batch(records(ENGLISH), seed=0)
    assert ar.legs()["ar"].backend == "transformers"
    assert [(p.view1, p.view2, p.reject) for p in out] == [(s, ARABIC[s], None) for s in ENGLISH]
    assert {p.info["target_lang"] for p in out} == {"ar"}


def test_several_languages_one_per_record_deterministic_and_fingerprinted(en_de_fairseq, en_ar_marian):
    targets = {"de": {"model": str(en_de_fairseq)}, "ar": {"model": str(en_ar_marian)}}
    aug = make(languages=["de", "ar"], targets=targets, **GREEDY)
    whole = aug.augment_batch(records(ENGLISH), seed=5)
    langs = [p.info["target_lang"] for p in whole]
    assert set(langs) == {"de", "ar"}  # both drawn over ten records
    assert [p.view2 for p in whole] == [(GERMAN if lang == "de" else ARABIC)[s] for s, lang in zip(ENGLISH, langs)]
    # The draw depends on (seed, record) only: batching changes nothing, another seed changes the draw.
    assert [p.info["target_lang"] for p in aug.augment(records(ENGLISH), seed=5, batch_size=3)] == langs
    assert [p.info["target_lang"] for p in aug.augment_batch(records(ENGLISH), seed=6)] != langs
    ids = aug.model_identities()
    assert {"de/model1.pt", "de/bpecodes", "ar/model.safetensors", "ar/source.spm"} <= set(ids)
    only_de = make(languages=["de"], targets={"de": targets["de"]}, **GREEDY)
    assert only_de.fingerprint_hash() != aug.fingerprint_hash()
    assert set(only_de.model_identities()) == {k for k in ids if k.startswith("de/")}


def test_rejects_keep_views_and_reasons(en_ar_marian, mute_marian):
    # The tiny tokenizer splits finely: ENGLISH[0] is 17 tokens, the long sentence 56.
    aug = make(languages=["ar"], targets={"ar": {"model": str(en_ar_marian)}}, beam=4, min_length_ratio=0.7,
               max_input_tokens=30)
    long_sentence = "The cat sits on the mat and the dog runs in the park with the children outside today."
    out = aug.augment_batch(records(["", ENGLISH[0], ENGLISH[2], long_sentence]), seed=0)
    assert (out[0].reject, out[0].view1) == ("empty_source", "")
    # 6 English words -> 4 Arabic: ratio 0.667 < 0.7.
    assert (out[1].reject, out[1].view2, out[1].info["ratio"]) == ("length_ratio", ARABIC[ENGLISH[0]], 0.667)
    assert (out[2].reject, out[2].view2) == (None, ARABIC[ENGLISH[2]])
    assert (out[3].reject, out[3].view2, out[3].info["target_lang"]) == ("input_too_long", None, "ar")
    mute = make(languages=["ar"], targets={"ar": {"model": str(mute_marian)}}, beam=2)
    pair = mute.augment_batch(records([ENGLISH[1]]), seed=0)[0]
    assert (pair.reject, pair.view1, pair.view2) == ("empty_translation", ENGLISH[1], "")


def test_identical_output_is_a_reject_unless_allowed():
    # The rule on an output equal to its source up to whitespace (an untranslated copy); no model is needed for it.
    source = "The cat sits on the mat."
    strict = make(languages=["de"])._pair(source, " The cat  sits on the mat. ", "de")
    allowed = make(languages=["de"], allow_identical=True)._pair(source, source, "de")
    assert (strict.reject, strict.info) == ("identical_to_source", {"source_lang": "en", "target_lang": "de"})
    assert (allowed.reject, allowed.view2) == (None, source)


# -- the parallel-corpus reader --------------------------------------------------------------------------------------
def _write(path: Path, lines: list[str], compress: bool = False) -> Path:
    data = "".join(line + "\n" for line in lines).encode()
    path.write_bytes(gzip.compress(data, mtime=0) if compress else data)
    return path


def test_moses_pair_reads_aligned_lines_and_counts_once_in_a_directory(tmp_path):
    _write(tmp_path / "train.en", ENGLISH[:3])
    _write(tmp_path / "train.de.gz", [GERMAN[s] for s in ENGLISH[:3]], compress=True)
    recs = list(read_records(tmp_path / "train.en", format="parallel", languages=["en", "de"]))
    assert [(r.text, r.text_b, r.label, r.line) for r in recs] == [
        (s, GERMAN[s], "en-de", i + 1) for i, s in enumerate(ENGLISH[:3])]
    # A directory: the .de side is read with its .en file, not as a corpus file of its own.
    assert corpus_files(tmp_path, "parallel", ["en", "de"]) == [tmp_path / "train.en"]
    assert len(list(read_records(tmp_path, format="parallel", languages=["en", "de"]))) == 3


def test_misaligned_moses_files_name_both_files_and_the_line(tmp_path):
    _write(tmp_path / "c.en", ENGLISH[:4])
    _write(tmp_path / "c.de", [GERMAN[s] for s in ENGLISH[:3]])
    with pytest.raises(InputError) as err:
        list(read_records(tmp_path / "c.en", format="parallel", languages=["en", "de"]))
    message = str(err.value)
    assert message.startswith(f"{tmp_path / 'c.en'}:4: misaligned parallel files")
    assert str(tmp_path / "c.de") in message and "ends after line 3" in message
    _write(tmp_path / "d.en", ENGLISH[:2])
    _write(tmp_path / "d.de", [GERMAN[s] for s in ENGLISH[:3]])
    with pytest.raises(InputError, match=r"d\.de:3: misaligned parallel files: .*d\.en ends after line 2"):
        list(read_records(tmp_path / "d.en", format="parallel", languages=["en", "de"]))
    with pytest.raises(InputError, match=r"aligned file .*e\.de does not exist"):
        list(read_records(_write(tmp_path / "e.en", ENGLISH[:1]), format="parallel", languages=["en", "de"]))


def test_tsv_and_tatoeba_layouts_with_bad_lines_kept_or_refused(tmp_path):
    tsv = _write(tmp_path / "pairs.tsv", [f"{en}\t{ARABIC[en]}" for en in ENGLISH[:2]] + ["only one side", ""])
    recs = list(read_records(tsv, format="parallel", languages=["en", "ar"], on_bad_line="keep"))
    assert [(r.text, r.text_b, r.error) for r in recs[:2]] == [(en, ARABIC[en], None) for en in ENGLISH[:2]]
    assert (recs[2].error, recs[2].line, recs[2].text) == ("wrong_column_count", 3, "only one side")
    assert (recs[3].text, recs[3].text_b, recs[3].error) == ("", "", None)  # the corpus stage drops it as empty
    with pytest.raises(InputError, match=r"pairs\.tsv:3: expected 2 tab-separated columns \(sentence, translation\)"):
        list(read_records(tsv, format="parallel"))
    # tatoeba.org's sentence-pair download: id, sentence, translation id, translation; no header.
    tatoeba = _write(tmp_path / "Sentence pairs in English-German.tsv",
                     ["1276\tLet's try something.\t2245\tLass uns etwas versuchen!",
                      "1277\tI have to go to sleep.\t2246\tIch muss schlafen gehen.", "x\ta\ty\tb"])
    recs = list(read_records(tatoeba, format="parallel", on_bad_line="keep"))
    assert [(r.text, r.text_b, r.label) for r in recs[:2]] == [
        ("Let's try something.", "Lass uns etwas versuchen!", None),
        ("I have to go to sleep.", "Ich muss schlafen gehen.", None)]
    assert (recs[2].error, recs[2].line) == ("malformed_tatoeba_row", 3)
    named = _write(tmp_path / "named.tsv", ["id\ten\tde", f"7\t{ENGLISH[0]}\t{GERMAN[ENGLISH[0]]}"])
    recs = list(read_records(named, format="parallel", columns=["en", "de"]))
    assert [(r.text, r.text_b, r.line) for r in recs] == [(ENGLISH[0], GERMAN[ENGLISH[0]], 2)]
    with pytest.raises(InputError, match="corpus.languages applies to parallel corpora"):
        list(read_records(named, format="tsv", languages=["en", "de"]))


# -- end to end ------------------------------------------------------------------------------------------------------
def _augment(corpus: Path, out: Path, methods: list[str], tmp_path: Path, **corpus_settings) -> dict:
    config = AugmentConfig(methods=methods, registry_dir="", progress=False, **corpus_settings.pop("augment", {}))
    for key, value in corpus_settings.items():
        setattr(config.corpus, key, value)
    return run_augment(corpus, out, config)


def _pairs(dataset: Path) -> list[dict]:
    return [row for batch in iter_pair_batches(dataset) for row in batch.to_pylist()]


def _train(model_dir: Path, datasets: list[Path], out: Path, steps: int = 4) -> list[float]:
    from tests.training.test_trainer_utils import tiny_config

    from bsl_pipeline.training.trainer import train

    config = tiny_config(model_dir, datasets, out, overrides=[f"train.max_steps={steps}", "train.batch_size=4"])
    return [row["loss"] for row in train(config, disable_progress=True).history]


def test_parallel_corpus_to_dataset_to_bsl_steps(tmp_path, multilingual_bert):
    from transformers import AutoTokenizer

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    _write(corpus / "nli.en", ENGLISH + ["A lonely line."])
    _write(corpus / "nli.ar", [ARABIC[s] for s in ENGLISH] + [""])
    manifest = _augment(corpus, tmp_path / "ds", ["parallel"], tmp_path, format="parallel", languages=["en", "ar"])
    dataset = tmp_path / "ds"
    verify_dataset(dataset)
    pairs = _pairs(dataset)
    assert [(p["view1"], p["view2"], p["label"]) for p in pairs] == [(s, ARABIC[s], "en-ar") for s in ENGLISH]
    assert all(json.loads(p["params"]) == {"source_lang": "en", "target_lang": "ar"} for p in pairs)
    rejects = pq.read_table(next((dataset / "rejects").glob("*.parquet"))).to_pylist()
    assert [(r["reject_reason"], r["source"], r["origin"]) for r in rejects] == [
        ("empty", "A lonely line.", f"{corpus / 'nli.en'}:11")]
    # Both sides are checksummed in the manifest's source files.
    assert {Path(f["path"]).name for f in manifest.source.files} == {"nli.en", "nli.ar"}

    tokenizer = AutoTokenizer.from_pretrained(multilingual_bert)
    assert all(tokenizer.unk_token_id not in tokenizer(p["view2"])["input_ids"] for p in pairs)
    losses = _train(multilingual_bert, [dataset], tmp_path / "run")
    assert len(losses) == 4 and all(math.isfinite(x) for x in losses)


def test_translation_recipe_one_dataset_per_language_to_bsl_steps(tmp_path, en_de_fairseq, en_ar_marian,
                                                                  multilingual_bert):
    # The paper's recipe in miniature: English sentences, one translation dataset per target language, trained on
    # together (configs/train_bsl_multilingual.yaml).
    corpus = _write(tmp_path / "english.txt", ENGLISH)
    datasets = []
    for lang, model, params in (("de", en_de_fairseq, GREEDY), ("ar", en_ar_marian, {"beam": 4})):
        method_params = {"translation": {"languages": [lang], "targets": {lang: {"model": str(model)}},
                                         **params}}
        _augment(corpus, tmp_path / f"ds-{lang}", ["translation"], tmp_path,
                 augment={"method_params": method_params})
        pairs = _pairs(tmp_path / f"ds-{lang}")
        table = GERMAN if lang == "de" else ARABIC
        assert [(p["view1"], p["view2"]) for p in pairs] == [(s, table[s]) for s in ENGLISH]
        assert {json.loads(p["params"])["target_lang"] for p in pairs} == {lang}
        datasets.append(tmp_path / f"ds-{lang}")
    losses = _train(multilingual_bert, datasets, tmp_path / "run")
    assert len(losses) == 4 and all(math.isfinite(x) for x in losses)


def test_multilingual_recipe_config_loads():
    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.config import TrainConfig

    root = Path(__file__).resolve().parents[4]
    cfg = load_config(TrainConfig, root / "configs" / "train_bsl_multilingual.yaml")
    assert cfg.model.name_or_path == "bert-base-multilingual-cased" and cfg.objective.name == "bsl"
    assert [Path(s.path).name for s in cfg.data.sources] == [f"nli-{x}" for x in ("ar", "es", "tr", "de", "fr")]
    assert all(s.weight is None and s.methods == ["translation"] for s in cfg.data.sources)
