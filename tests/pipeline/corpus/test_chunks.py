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
