"""Data safety, trust and bounds: what the tool reads from caches, datasets and configs cannot silently decide its
results. Each test is one crafted case (docs/guide/data-safety-trust.md lists them): a planted cache entry is
rebuilt, a changed input field recomputes its task, a redirected or replayed dataset fails `verify`, a bound that
later stages refuse is refused up front, and a non-finite loss stops training."""

from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from bsl_pipeline.pipeline.base import user_cache
from bsl_pipeline.pipeline.base.errors import BSLError


# -- 1. caches are sealed with a per-user key ----------------------------------------------------------------------
def test_cache_key_is_private_and_outside_the_cache(tmp_path):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    key = user_cache.user_cache_key(env)
    path = user_cache.cache_key_path(env)
    assert len(key) == 64 and path.is_file() and (path.stat().st_mode & 0o777) == 0o600
    assert not path.is_relative_to(user_cache.user_cache_root(env))
    assert user_cache.user_cache_key(env) == key  # made once, then read
    assert user_cache.seal_matches({"a": 1}, user_cache.seal({"a": 1}, env), env)
    other = {"XDG_CONFIG_HOME": str(tmp_path / "other")}
    assert not user_cache.seal_matches({"a": 1}, user_cache.seal({"a": 1}, env), other)  # another user's seal
    assert not user_cache.seal_matches({"a": 1}, None, env)
    path.chmod(0o666)
    with pytest.raises(BSLError, match="writable only by you"):
        user_cache.user_cache_key(env)


def _eval_setup(tiny_bert_dir, shared_data):
    from bsl_pipeline.evaluation import load_encoder
    from bsl_pipeline.evaluation import load_eval_data

    return load_encoder(tiny_bert_dir, device="cpu", backend="torch"), load_eval_data(shared_data, "sts13")


def test_planted_embeddings_are_ignored(tiny_bert_dir, shared_data, tmp_path, caplog):
    """A `.bsl_cache/evaluation/*.npy` of the right shape, shipped with a repository, does not decide the scores."""
    from bsl_pipeline.evaluation import evaluate_encoder

    enc, data = _eval_setup(tiny_bert_dir, shared_data)
    honest = evaluate_encoder(enc, data, cache_dir=tmp_path / "honest").scores()
    planted = tmp_path / "planted"
    shutil.copytree(tmp_path / "honest", planted)
    for f in planted.rglob("*.npy"):  # the planter's embeddings: right shape, right file name, no valid seal
        arr = np.load(f)
        np.save(f, np.random.default_rng(0).standard_normal(arr.shape).astype(np.float32))
    for f in sorted(planted.rglob("*.seal"))[:1]:
        f.unlink()  # one without a seal at all, the others with a stale one
    with caplog.at_level(logging.WARNING):
        again = evaluate_encoder(enc, data, cache_dir=planted)
    assert again.scores() == honest
    assert again.cache_misses == 3 and again.cache_hits == 0
    assert sum("not sealed by this user's cache key" in r.getMessage() for r in caplog.records) == 3
    # Rebuilt entries are sealed: the next run reuses them.
    assert evaluate_encoder(enc, data, cache_dir=planted).cache_hits == 3


def test_embeddings_sealed_by_another_user_are_ignored(tiny_bert_dir, shared_data, tmp_path, monkeypatch):
    from bsl_pipeline.evaluation import evaluate_encoder

    enc, data = _eval_setup(tiny_bert_dir, shared_data)
    evaluate_encoder(enc, data, cache_dir=tmp_path / "c")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "someone-else"))
    assert evaluate_encoder(enc, data, cache_dir=tmp_path / "c").cache_misses == 3


def test_planted_onnx_export_is_exported_again(tiny_bert_dir, tmp_path, monkeypatch, caplog):
    """An export whose `export.json` sha256 the planter recomputed, of a model that differs only on a word the
    export check's four sentences lack: before, it was used and changed that word's sentences; now it is not
    sealed, so it is exported again and the ONNX path gives the torch embeddings."""
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    import torch

    from bsl_pipeline.pipeline.base.provenance import sha256_file
    from bsl_pipeline.evaluation import backends, load_encoder

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    honest = load_encoder(tiny_bert_dir, device="cpu", backend="torch")
    evil = load_encoder(tiny_bert_dir, device="cpu", backend="torch")
    cat = evil.tokenizer.convert_tokens_to_ids("cat")
    assert not any("cat" in s for s in backends._CHECK_SENTENCES)
    with torch.no_grad():
        evil.model.get_input_embeddings().weight[cat] *= -3.0
    names = backends.onnx_input_names(evil.tokenizer, evil.module._forward_keys)
    made = backends.export_model(evil.model, evil.tokenizer, names, honest.fingerprint, root=tmp_path / "plant")
    meta = json.loads((made / "export.json").read_text())
    meta.pop("seal", None)  # the planter has no key: a plain, recomputable sha256 only
    meta["sha256"] = sha256_file(made / "model.onnx")
    (made / "export.json").write_text(json.dumps(meta))
    target = backends.export_root() / made.name
    shutil.copytree(made, target)

    sentences = ["the cat sat", "a man is playing music"]
    reference = honest.encode(sentences, disable_progress=True)
    with caplog.at_level(logging.WARNING):
        onnx = load_encoder(tiny_bert_dir, device="cpu", backend="onnx")
    assert onnx.backend == "onnx"
    np.testing.assert_allclose(onnx.encode(sentences, disable_progress=True), reference, rtol=0, atol=1e-4)
    assert any("ignoring the cached ONNX export" in r.getMessage() for r in caplog.records)
    assert sha256_file(target / "model.onnx") != meta["sha256"]  # replaced by this user's own export


# -- 2. a task's key covers every field its method reads -----------------------------------------------------------
def _record_variants():
    """A record, and for each SourceRecord field a record that differs from it in that field only."""
    import dataclasses

    from bsl_pipeline.pipeline.corpus.source_record import SourceRecord

    base = SourceRecord(source_id="0123456789abcdef", text="A man plays.", text_b="A man plays music.",
                        label="entailment", origin="/c/nli.csv:2")
    changed = {"source_id": "fedcba9876543210", "text": "A man sings.", "text_b": "A man plays a song.",
               "label": "contradiction", "origin": "/c/nli.csv:3"}
    assert set(changed) == {f.name for f in dataclasses.fields(SourceRecord)}  # a new field must be listed here
    return base, {name: dataclasses.replace(base, **{name: value}) for name, value in changed.items()}


#: The SourceRecord fields each method reads (and every task writes `label` and `origin` into its rows).
FIELDS_READ = {"identity": {"text"}, "noise": {"text", "source_id"}, "span-mask": {"text", "source_id"},
               "synonyms": {"text", "source_id"}, "mlm": {"text", "source_id"},
               "backtranslation": {"text", "source_id"}, "rewrites": {"text", "source_id"},
               "translation": {"text", "source_id"}, "nli-entailment": {"text", "text_b", "label"},
               "parallel": {"text", "text_b", "label"}}


def test_every_method_is_listed_with_the_fields_it_reads():
    from bsl_pipeline.pipeline.augment.augmenters import REGISTRY

    shipped = {name for name, target in REGISTRY.items() if target.startswith("bsl_pipeline.")}  # not tests' own
    assert set(FIELDS_READ) == shipped


@pytest.mark.parametrize("method", sorted(FIELDS_READ))
def test_changing_any_field_a_method_reads_changes_its_task_key(method):
    """Task keys are `<chunk id>-<method>-<fingerprint>-s<seed>-f<filters>`: the chunk id is what depends on the
    records, so it must change with every field a method reads (and with label and origin, which every task
    writes into its rows)."""
    from bsl_pipeline.pipeline.corpus.chunks import Chunk

    base, variants = _record_variants()
    ids = {name: Chunk("f", 0, [record]).chunk_id for name, record in variants.items()}
    base_id = Chunk("f", 0, [base]).chunk_id
    for name in FIELDS_READ[method] | {"label", "origin"}:
        assert ids[name] != base_id, f"{method}: a record with another {name} keeps its chunk id"


def _nli(path: Path, second_label: str) -> Path:
    path.write_text("premise,hypothesis,label\n"
                    "A man in a red shirt is playing a guitar on a stage.,A man plays a guitar.,entailment\n"
                    f"Two dogs run across a green field in the sun.,Two dogs run outside.,{second_label}\n",
                    encoding="utf-8")
    return path


def _augment_config(tmp_path, methods, **corpus):
    from bsl_pipeline.pipeline.augment.job import AugmentConfig

    cfg = AugmentConfig(registry_dir=str(tmp_path / "registry"), progress=False, methods=methods)
    for key, value in corpus.items():
        setattr(cfg.corpus, key, value)
    return cfg


def test_fixed_nli_label_is_not_republished_from_the_cache(tmp_path):
    """The red team's case: after a label is fixed in the NLI file, a rerun into the same --out must not publish
    the old entailment pair under a manifest that records the new corpus checksum."""
    from bsl_pipeline.pipeline.augment.job import run_augment
    from bsl_pipeline.pipeline.dataset.store import iter_pair_batches, verify_dataset

    corpus = _nli(tmp_path / "nli.csv", "entailment")
    out = tmp_path / "ds"
    first = run_augment(corpus, out, _augment_config(tmp_path, ["nli-entailment"]))
    assert first.stats.pairs == 2
    _nli(corpus, "contradiction")
    second = run_augment(corpus, out, _augment_config(tmp_path, ["nli-entailment"]))
    assert second.stats.pairs == 1 and second.stats.rejects == {"not_entailment": 1}
    assert second.stats.per_method["nli-entailment"].tasks_cached == 0
    rows = [r for b in iter_pair_batches(out, columns=["view1", "label"]) for r in b.to_pylist()]
    assert rows == [{"view1": "A man in a red shirt is playing a guitar on a stage.", "label": "entailment"}]
    verify_dataset(out)


@pytest.mark.parametrize("method", ["identity", "noise", "span-mask"])
def test_changed_text_or_origin_recomputes_single_sentence_methods(tmp_path, method):
    from bsl_pipeline.pipeline.augment.job import run_augment
    from bsl_pipeline.pipeline.dataset.store import iter_pair_batches

    corpus = tmp_path / "c.txt"
    lines = [f"Sentence number {i} talks about the dog in the park today." for i in range(4)]
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "ds"
    run_augment(corpus, out, _augment_config(tmp_path, [method]))
    again = run_augment(corpus, out, _augment_config(tmp_path, [method]))
    assert again.stats.per_method[method].tasks_cached == 1  # unchanged: reused
    corpus = corpus.rename(tmp_path / "moved.txt")  # same texts, another origin
    moved = run_augment(corpus, out, _augment_config(tmp_path, [method]))
    assert moved.stats.per_method[method].tasks_cached == 0
    origins = sorted(r["origin"] for b in iter_pair_batches(out, columns=["origin"]) for r in b.to_pylist())
    assert origins == sorted(f"{corpus}:{i}" for i in range(1, 5))
    corpus.write_text("\n".join([*lines[:3], "Sentence number 9 talks about the cat in the park today."]) + "\n",
                      encoding="utf-8")
    edited = run_augment(corpus, out, _augment_config(tmp_path, [method]))
    assert edited.stats.per_method[method].tasks_cached == 0
    sources = {r["source"] for b in iter_pair_batches(out, columns=["source"]) for r in b.to_pylist()}
    assert "Sentence number 9 talks about the cat in the park today." in sources


def test_changed_translation_or_languages_recompute_parallel_pairs(tmp_path):
    from bsl_pipeline.pipeline.augment.job import run_augment
    from bsl_pipeline.pipeline.dataset.store import iter_pair_batches

    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "t.en").write_text("The house is big and old.\nThe dog runs in the park.\n", encoding="utf-8")
    (folder / "t.de").write_text("Das Haus ist groß und alt.\nDer Hund läuft im Park.\n", encoding="utf-8")
    out = tmp_path / "ds"

    def run(languages):
        m = run_augment(folder / f"t.{languages[0]}", out, _augment_config(tmp_path, ["parallel"], format="parallel",
                                                                         languages=languages))
        rows = [r for b in iter_pair_batches(out, columns=["view2", "label"]) for r in b.to_pylist()]
        return m.stats.per_method["parallel"].tasks_cached, rows

    assert run(["en", "de"])[0] == 0
    (folder / "t.de").write_text("Das Haus ist sehr groß.\nDer Hund läuft im Park.\n", encoding="utf-8")
    cached, rows = run(["en", "de"])
    assert cached == 0 and rows[0] == {"view2": "Das Haus ist sehr groß.", "label": "en-de"}
    shutil.copy(folder / "t.de", folder / "t.nl")  # same texts, labelled with another language pair
    cached, rows = run(["en", "nl"])
    assert cached == 0 and {r["label"] for r in rows} == {"en-nl"}


# -- 3. a dataset's card cannot redirect loading; a signed manifest is bound to its dataset and version -------------
def _dataset(tmp_path, name, lines, registry="registry"):
    from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment

    corpus = tmp_path / f"{name}.txt"
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cfg = AugmentConfig(registry_dir=str(tmp_path / registry), progress=False, methods=["noise"])
    return run_augment(corpus, tmp_path / name, cfg)


LINES = [f"Sentence number {i} talks about the dog in the park today." for i in range(4)]


def _copy_dataset_files(src: Path, dst: Path) -> None:
    """What a copy of a dataset's published files over another puts there (its marker and .work/ stay)."""
    for name in ("data", "rejects"):
        shutil.rmtree(dst / name, ignore_errors=True)
        if (src / name).exists():
            shutil.copytree(src / name, dst / name)
    for name in ("manifest.json", "README.md"):
        shutil.copy2(src / name, dst / name)


@pytest.mark.parametrize("edit, named", [
    (lambda c: c[0].update(data_dir="../elsewhere"), r"configs\[0\]\.data_dir is not a key `bsl augment` writes"),
    (lambda c: c[0].update(data_files="data/*.parquet"), "malformed config"),  # refused before too
    (lambda c: c[0]["data_files"][0].update(split="test"), r"configs\[0\]\.data_files\[0\]\.split is 'test'"),
    (lambda c: c[0].update(default=False), r"configs\[0\]\.default is False"),
    (lambda c: c[0].update(features={"view1": "int64"}), r"configs\[0\]\.features is not a key"),
    (lambda c: c[0]["data_files"][0].update(path=["../elsewhere/*.parquet"]), "config names 1 file"),  # as before
])
def test_card_configs_are_checked_key_by_key(tmp_path, monkeypatch, edit, named):
    """A card whose configs gained `data_dir: ../elsewhere` made `datasets.load_dataset(dir)` read other data while
    `bsl verify` said OK."""
    import yaml

    from bsl_pipeline.pipeline.base.errors import VerificationError
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    monkeypatch.setenv("BSL_MANIFEST_KEY", "team-secret")
    out = tmp_path / "ds"
    _dataset(tmp_path, "ds", LINES)
    verify_dataset(out)
    card = out / "README.md"
    head, body = card.read_text(encoding="utf-8")[4:].split("\n---\n", 1)
    front = yaml.safe_load(head)
    edit(front["configs"])
    card.write_text("---\n" + yaml.safe_dump(front, sort_keys=False) + "---\n" + body, encoding="utf-8")
    with pytest.raises(VerificationError, match=named):
        verify_dataset(out)


def test_card_dataset_info_is_refused(tmp_path):
    from bsl_pipeline.pipeline.base.errors import VerificationError
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    _dataset(tmp_path, "ds", LINES)
    card = tmp_path / "ds" / "README.md"
    card.write_text(card.read_text().replace("---\n", "---\ndataset_info:\n  features:\n  - name: view1\n"
                                             "    dtype: int64\n", 1))
    with pytest.raises(VerificationError, match="'dataset_info' is not one `bsl augment` writes"):
        verify_dataset(tmp_path / "ds")


def test_another_datasets_signed_files_copied_over_fail_verify(tmp_path, monkeypatch):
    from bsl_pipeline.pipeline.base.errors import VerificationError
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    monkeypatch.setenv("BSL_MANIFEST_KEY", "team-secret")
    a = _dataset(tmp_path, "a", LINES)
    b = _dataset(tmp_path, "b", [line.replace("dog", "cat") for line in LINES])
    assert a.dataset_id != b.dataset_id and a.version == b.version == 1
    _copy_dataset_files(tmp_path / "a", tmp_path / "b")
    with pytest.raises(VerificationError, match=f"manifest is of dataset {a.dataset_id}.*records dataset "
                                                f"{b.dataset_id}: another dataset's files were copied here"):
        verify_dataset(tmp_path / "b")


def test_an_older_signed_write_put_back_fails_verify(tmp_path, monkeypatch):
    from bsl_pipeline.pipeline.base.errors import VerificationError
    from bsl_pipeline.pipeline.base.ownership import MARKER_NAME
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    monkeypatch.setenv("BSL_MANIFEST_KEY", "team-secret")
    first = _dataset(tmp_path, "b", LINES)
    shutil.copytree(tmp_path / "b", tmp_path / "b-v1", ignore=shutil.ignore_patterns(".work", ".bsl-*"))
    second = _dataset(tmp_path, "b", LINES[:3])
    assert (second.dataset_id, second.version) == (first.dataset_id, 2)
    registered = json.loads((tmp_path / "registry" / "datasets" / "b.json").read_text())
    assert (registered["dataset_id"], registered["version"]) == (first.dataset_id, 2)
    verify_dataset(tmp_path / "b")
    _copy_dataset_files(tmp_path / "b-v1", tmp_path / "b")
    with pytest.raises(VerificationError, match=r"version 1 of dataset .*records version 2: an older write was "
                                                r"put back \(rollback\)"):
        verify_dataset(tmp_path / "b")
    # The marker rolled back too: the registry entry still records version 2.
    marker = tmp_path / "b" / MARKER_NAME
    marker.write_text(json.dumps({**json.loads(marker.read_text()), "version": 1}))
    with pytest.raises(VerificationError, match=r"b\.json records version 2"):
        verify_dataset(tmp_path / "b")
    # A rerun writes version 3 over whatever is there, and verifies.
    assert _dataset(tmp_path, "b", LINES).version == 3
    verify_dataset(tmp_path / "b")


# -- 5. medium ---------------------------------------------------------------------------------------------------
def test_dataset_from_before_markers_is_recognised(tmp_path):
    """`Manifest` has attributes, not `.get`: the check of a marker-less dataset directory raised AttributeError."""
    from bsl_pipeline.pipeline.base.ownership import MARKER_NAME

    _dataset(tmp_path, "ds", LINES)
    (tmp_path / "ds" / MARKER_NAME).unlink()
    again = _dataset(tmp_path, "ds", LINES)
    assert again.stats.pairs == 4 and (tmp_path / "ds" / MARKER_NAME).is_file()


# -- 4. bounds that mean what they say -----------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["optim.lr", "optim.weight_decay", "train.epochs", "optim.min_lr_ratio"])
@pytest.mark.parametrize("value", [".inf", ".nan", "-.inf"])
def test_non_finite_training_settings_are_refused(key, value):
    from bsl_pipeline.pipeline.base.config import ConfigError, load_config
    from bsl_pipeline.training.config import TrainConfig

    with pytest.raises(ConfigError, match=rf"{key}: .* is not a finite number"):
        load_config(TrainConfig, None, [f"{key}={value}"])


def test_corpus_bounds_match_what_later_stages_accept():
    from bsl_pipeline.pipeline.augment.job import AugmentConfig
    from bsl_pipeline.pipeline.base.config import MAX_VIEW_CHARS, ConfigError, load_config

    assert load_config(AugmentConfig, None, [f"corpus.max_chars={MAX_VIEW_CHARS}"]).corpus.max_chars == MAX_VIEW_CHARS
    with pytest.raises(ConfigError, match=r"corpus\.max_chars: 20001 is out of range \(\[1, 20000\]\)"):
        load_config(AugmentConfig, None, [f"corpus.max_chars={MAX_VIEW_CHARS + 1}"])
    with pytest.raises(ConfigError, match=r"corpus\.chunk_size: 100000000 is out of range \(\[1, 1000000\]\)"):
        load_config(AugmentConfig, None, ["corpus.chunk_size=100000000"])


def test_a_view_longer_than_a_dataset_may_hold_is_rejected_not_published(tmp_path, monkeypatch):
    """A view past the verify/train limit made the whole dataset unusable; now that pair is a reject."""
    from bsl_pipeline.pipeline.augment import tasks
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    monkeypatch.setattr(tasks, "MAX_VIEW_CHARS", 60)
    m = _dataset(tmp_path, "ds", [LINES[0], LINES[0] + " And it goes on for a while longer, as some do."])
    assert m.stats.pairs == 1 and m.stats.rejects == {"view_too_long": 1}
    verify_dataset(tmp_path / "ds", max_view_chars=60)


def test_max_length_above_the_models_positions_is_a_clear_error(tiny_bert_dir, tmp_path):
    from tests.training.test_trainer_utils import tiny_config, write_dataset

    from bsl_pipeline.training.trainer import train

    data = write_dataset(tmp_path / "data", 8, method="noise", seed=0)
    config = tiny_config(tiny_bert_dir, [data], tmp_path / "run", overrides=["train.max_steps=2",
                                                                            "model.max_length=512"])
    with pytest.raises(BSLError, match=r"model\.max_length=512 is more tokens than .* can take \(128"):
        train(config, disable_progress=True)
    assert not (tmp_path / "run" / "final").exists()


def test_a_non_finite_loss_stops_training_naming_the_step_and_exports_nothing(tiny_bert_dir, tmp_path,
                                                                              monkeypatch):
    """`optim.lr=.inf` (now refused in the config) trained to a NaN model and exited 0. Whatever else makes the
    loss non-finite (here: weights blown up after the first step), the run stops with an error and no export."""
    import torch
    from tests.training.test_trainer_utils import tiny_config, write_dataset

    from bsl_pipeline.training import trainer as trainer_module

    data = write_dataset(tmp_path / "data", 16, method="noise", seed=0)
    config = tiny_config(tiny_bert_dir, [data], tmp_path / "run",
                         overrides=["train.max_steps=4", "export.enabled=true", "optim.skip_nonfinite=true"])
    original = trainer_module.Trainer.optimizer_step

    def blow_up(self):
        out = original(self)
        with torch.no_grad():
            next(self.parts.objective.encoder.parameters()).fill_(float("inf"))
        return out

    monkeypatch.setattr(trainer_module.Trainer, "optimizer_step", blow_up)
    with pytest.raises(trainer_module.NonFiniteLossError, match=r"training stopped at step 2: the loss is nan"):
        trainer_module.train(config, disable_progress=True)
    assert not (tmp_path / "run" / "export").exists()


def _peak_bytes(fn) -> tuple[object, int]:
    import tracemalloc

    tracemalloc.start()
    try:
        out = fn()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("fmt, compress", [("text", False), ("text", True), ("jsonl", False), ("csv", False),
                                           ("tsv", False)])
def test_a_huge_line_is_read_in_bounded_memory_and_rejected_truncated(tmp_path, fmt, compress):
    """A 150 MB line cost ~10x its size; a 4.4 MB gzip of one 1 GB line ended in ArrowMemoryError. Here: a
    24 MiB line among sentences, read with a peak far below its size, dropped as too_long_chars with its start
    and length."""
    import gzip

    from bsl_pipeline.pipeline.corpus.readers import read_records
    from bsl_pipeline.pipeline.corpus.readers.decoding import MAX_LINE_BYTES

    huge = "word " * (24 << 18)  # 24 MiB, no line break
    good = "A man is playing a guitar on the stage tonight."
    head = {"text": "", "jsonl": "", "csv": "text\n", "tsv": "text\n"}[fmt]
    wrap = (lambda t: json.dumps({"text": t})) if fmt == "jsonl" else (lambda t: t)
    body = head + "\n".join([wrap(good), wrap(huge), wrap(good + " Again.")]) + "\n"
    path = tmp_path / f"c.{fmt}{'.gz' if compress else ''}"
    if compress:
        with gzip.open(path, "wt", encoding="utf-8") as fh:
            fh.write(body)
    else:
        path.write_text(body, encoding="utf-8")
    del body
    records, peak = _peak_bytes(lambda: list(read_records(path, format=fmt)))
    assert peak < 4 * MAX_LINE_BYTES + (2 << 20), peak  # bounded by the line limit, not by the 24 MiB line
    assert [r.text for r in records if r.error is None] == [good, good + " Again."]
    (long,) = [r for r in records if r.error]
    assert long.error == "too_long_chars" and long.line == (3 if head else 2)
    assert len(long.text) < 2000 and long.text.startswith(wrap("word word")[:9])
    assert f"a line of {len(wrap(huge).encode())} bytes" in long.text


def test_a_too_long_line_is_stored_truncated_in_the_rejects(tmp_path):
    from bsl_pipeline.pipeline.dataset.store import iter_batches

    long = "word " * 2000  # 10,000 characters: over corpus.max_chars (5,000), under the reader's line limit
    _dataset(tmp_path, "ds", [LINES[0], long.strip()])
    (row,) = [r for b in iter_batches(tmp_path / "ds", "rejects", columns=["source", "reject_reason"])
              for r in b.to_pylist()]
    assert row["reject_reason"] == "too_long_chars"
    assert row["source"].endswith("[... truncated: 9999 characters]") and len(row["source"]) < 1100


def test_training_refuses_an_output_dir_inside_a_dataset_given_by_its_registry_json(tmp_path, tiny_bert_dir):
    """The overlap check compared train.output_dir with the registry JSON, not the dataset it names: a run could
    write into the dataset directory."""
    from tests.training.test_trainer_utils import tiny_config

    from bsl_pipeline.pipeline.base.ownership import OwnershipError
    from bsl_pipeline.training.trainer import train

    _dataset(tmp_path, "ds", LINES)
    registered = tmp_path / "registry" / "datasets" / "ds.json"
    assert registered.is_file()
    config = tiny_config(tiny_bert_dir, [registered], tmp_path / "ds" / "run", overrides=["train.max_steps=1"])
    with pytest.raises(OwnershipError, match=r"train\.output_dir .*ds/run and input .*ds overlap"):
        train(config, disable_progress=True)
    assert not (tmp_path / "ds" / "run").exists()
