"""Text shown on a terminal (pipeline.base.text): a dataset's or a user's control characters are shown escaped, never
acted on."""

from __future__ import annotations

import pyarrow as pa
import pytest

from bsl_pipeline.cli.cli import main
from small_corpus import ESCAPES, augmented_dataset, rewrite_pair_shards, write_corpus


@pytest.fixture
def corpus(tmp_path):
    return write_corpus(tmp_path)


def test_inspect_and_errors_escape_terminal_control_characters(tmp_path, corpus, capsys):
    from bsl_pipeline.pipeline.base.text import terminal_safe

    assert terminal_safe("a\tb\nc\x1b[2J\x07\r\x9b") == "a\tb\nc\\x1b[2J\\x07\\x0d\\x9b"
    ds = augmented_dataset(tmp_path, corpus)

    def poison(table: pa.Table) -> pa.Table:
        for name in ("source", "view1"):
            i = table.schema.get_field_index(name)
            table = table.set_column(i, name, pa.array([f"{v} {ESCAPES}" for v in table.column(name).to_pylist()]))
        return table

    rewrite_pair_shards(ds, poison)
    assert main(["inspect", str(ds), "-n", "3"]) == 0
    out = capsys.readouterr().out
    assert "\\x1b]52;c;aGVsbG8=\\x07" in out and "\\x1b[2J" in out and "\\x9b31m" in out
    assert not any(c in out for c in "\x1b\x07\x9b"), out
    # An error quoting what the user typed (or a file's text) is escaped too.
    assert main(["inspect", str(ds), "--method", "\x1b[2Jnoise"]) == 1
    err = capsys.readouterr().err
    assert "\\x1b[2Jnoise" in err and "\x1b" not in err
