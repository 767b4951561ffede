"""The augmentation job's units of work (pipeline.augment.tasks): a task's key covers every field its method reads, so
a changed input is recomputed and never republished from the cache; what a task rejects."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from small_corpus import DOG_LINES, noise_dataset


def _record_variants():
    """A record, and for each SourceRecord field a record that differs from it in that field only."""
    import dataclasses

    from bsl_pipeline.pipeline.corpus.source_record import SourceRecord

    base = SourceRecord(source_id="0123456789abcdef", text="A man plays.", text_b="A man plays music.",
                        label="entailment", origin="/c/nli.csv:2")
    changed = {"source_id": "fedcba9876543210", "text": "A man sings.", "text_b": "A man plays a song.",
               "label": "contradiction", "origin": "/c/nli.csv:3", "repeats_text": True}
    assert set(changed) == {f.name for f in dataclasses.fields(SourceRecord)}  # a new field must be listed here
    return base, {name: dataclasses.replace(base, **{name: value}) for name, value in changed.items()}


# A method that reads one sentence also reads `repeats_text`: which records it leaves out (`Augmenter.sources`).
FIELDS_READ = {"identity": {"text", "repeats_text"}, "noise": {"text", "source_id", "repeats_text"},
               "span-mask": {"text", "source_id", "repeats_text"}, "synonyms": {"text", "source_id", "repeats_text"},
               "mlm": {"text", "source_id", "repeats_text"}, "backtranslation": {"text", "source_id", "repeats_text"},
               "rewrites": {"text", "source_id", "repeats_text"}, "translation": {"text", "source_id", "repeats_text"},
               "nli-entailment": {"text", "text_b", "label"}, "parallel": {"text", "text_b", "label"}}


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


def test_a_view_longer_than_a_dataset_may_hold_is_rejected_not_published(tmp_path, monkeypatch):
    """A view past the verify/train limit made the whole dataset unusable; now that pair is a reject."""
    from bsl_pipeline.pipeline.augment import tasks
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    monkeypatch.setattr(tasks, "MAX_VIEW_CHARS", 60)
    m = noise_dataset(tmp_path, "ds", [DOG_LINES[0], DOG_LINES[0] + " And it goes on for a while longer, as some do."])
    assert m.stats.pairs == 1 and m.stats.rejects == {"view_too_long": 1}
    verify_dataset(tmp_path / "ds", max_view_chars=60)
