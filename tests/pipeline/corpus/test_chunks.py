"""Normalised corpus chunks (pipeline.corpus.chunks): what a too long line becomes."""

from __future__ import annotations

from small_corpus import DOG_LINES, noise_dataset


def test_a_too_long_line_is_stored_truncated_in_the_rejects(tmp_path):
    from bsl_pipeline.pipeline.dataset.store import iter_batches

    long = "word " * 2000  # 10,000 characters: over corpus.max_chars (5,000), under the reader's line limit
    noise_dataset(tmp_path, "ds", [DOG_LINES[0], long.strip()])
    (row,) = [r for b in iter_batches(tmp_path / "ds", "rejects", columns=["source", "reject_reason"])
              for r in b.to_pylist()]
    assert row["reject_reason"] == "too_long_chars"
    assert row["source"].endswith("[... truncated: 9999 characters]") and len(row["source"]) < 1100


def test_a_sentence_an_earlier_premise_was_is_kept_and_read_once_by_single_sentence_methods(tmp_path):
    """Each distinct sentence a single-sentence method reads, once: a plain sentence equal to an earlier NLI
    premise is no duplicate (no pair is dropped for it, no drop names an id no record has), it is kept marked
    `repeats_text`; a second copy of it is a duplicate; a pair method reads every pair."""
    import json

    from small_corpus import run_bsl

    from bsl_pipeline.pipeline.corpus.chunks import CorpusConfig, CorpusStats, iter_chunks
    from bsl_pipeline.pipeline.dataset.store import iter_batches

    corpus = tmp_path / "c"
    corpus.mkdir()
    premise = "A man is playing a guitar on stage."
    (corpus / "a.jsonl").write_text("".join(json.dumps({"sentence1": premise, "sentence2": h, "label": "neutral"})
                                            + "\n" for h in ("A man plays music.", "A man is singing.")), "utf-8")
    (corpus / "b.txt").write_text(f"{premise}\n{premise}\nThe cat sat on the mat today.\n", "utf-8")
    stats = CorpusStats()
    chunks = list(iter_chunks(corpus, CorpusConfig(), stats))
    records = [r for c in chunks for r in c.records]
    assert [(r.text, r.text_b is not None, r.repeats_text) for r in records] == [
        (premise, True, False), (premise, True, True), (premise, False, True),
        ("The cat sat on the mat today.", False, False)]
    (dropped,) = [d for c in chunks for d in c.dropped]
    assert dropped.reason == "duplicate" and dropped.source_id == records[2].source_id
    assert dict(stats.dropped) == {"duplicate": 1}

    proc = run_bsl("augment", str(corpus), "--out", str(tmp_path / "ds"), "--methods", "identity",
                   "-o", "registry_dir=", "--no-progress")
    assert proc.returncode == 0, proc.stderr
    sources = [r["source"] for b in iter_batches(tmp_path / "ds", "pairs", columns=["source"]) for r in b.to_pylist()]
    assert sorted(sources) == sorted([premise, "The cat sat on the mat today."])  # each sentence once


def test_every_chunk_id_covers_the_chunk_layout_so_an_upgrade_never_finds_an_old_table(tmp_path, monkeypatch,
                                                                                          caplog):
    """A chunk's id hashes the columns of its stored table (`CHUNK_LAYOUT`, the chunk schema's names): after a
    layout change (simulated: the first run under the layout less `repeats_text`, its tables written without
    that column) every chunk is a new one, a chunk of dropped lines alone too, and nothing is "rewritten"."""
    import logging

    import pyarrow.parquet as pq

    from bsl_pipeline.pipeline.augment.job import run_augment
    from bsl_pipeline.pipeline.corpus import chunks as chunks_module
    from bsl_pipeline.pipeline.dataset.schema import CHUNK_SCHEMA
    from small_corpus import augment_config

    assert chunks_module.CHUNK_LAYOUT == tuple(CHUNK_SCHEMA.names)
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.txt").write_text("The cat sat on the mat today.\nA man is playing a guitar now.\n", "utf-8")
    (corpus / "b.txt").write_text("word " * 300 + "\n", "utf-8")  # dropped alone (too_long): a chunk of drops
    out = tmp_path / "ds"
    config = augment_config(tmp_path, methods=["noise"])
    old_layout = tuple(n for n in CHUNK_SCHEMA.names if n != "repeats_text")
    with monkeypatch.context() as patch:
        patch.setattr(chunks_module, "CHUNK_LAYOUT", old_layout)
        run_augment(corpus, out, config)
    stored = sorted((out / ".work" / "chunks").glob("*.parquet"))
    for path in stored:  # the tables as the old layout wrote them
        table = pq.read_table(path)
        if "repeats_text" in table.column_names:
            pq.write_table(table.drop_columns(["repeats_text"]), path)
    with caplog.at_level(logging.WARNING):
        run_augment(corpus, out, config)
    assert "does not hold what the corpus gives now" not in caplog.text
    assert {p.name for p in stored}.isdisjoint(p.name for p in (out / ".work" / "chunks").glob("*.parquet")
                                                if p not in stored)
    assert len(list((out / ".work" / "chunks").glob("*.parquet"))) == 2 * len(stored)
