"""The built-in WordNet corpus through `bsl corpus wordnet-examples OUT`: an existing OUT is never reported as its
output, its flags always apply, bad values are refused in one line. (`sts-sick-train`: test_indomain_corpus.py.)"""

from __future__ import annotations

import pytest

from bsl_pipeline.cli.cli import main


def _lines(path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_an_existing_out_is_refused_and_overwrite_applies_the_flags(tmp_path, capsys):
    mine = tmp_path / "mine.txt"
    mine.write_text("my precious notes\n", encoding="utf-8")
    assert main(["corpus", "wordnet-examples", str(mine)]) == 1
    err = capsys.readouterr().err
    assert "mine.txt exists" in err and "--overwrite" in err and "WordNet example sentences" not in err
    assert mine.read_text(encoding="utf-8") == "my precious notes\n"

    assert main(["corpus", "wordnet-examples", str(mine), "--min-words", "10", "--overwrite"]) == 0
    written = _lines(mine)
    assert f"mine.txt: {len(written)} WordNet example sentences" in capsys.readouterr().out
    assert 1000 < len(written) < 10000 and min(len(line.split()) for line in written) == 10
    (kept,) = (tmp_path / ".bsl-replaced").glob("*/mine.txt")  # the user's file, set aside
    assert kept.read_text(encoding="utf-8") == "my precious notes\n"

    # The same text again needs no flag; other flags over it do, and then apply.
    assert main(["corpus", "wordnet-examples", str(mine), "--min-words", "10"]) == 0
    assert _lines(mine) == written
    assert main(["corpus", "wordnet-examples", str(mine)]) == 1
    assert _lines(mine) == written
    assert main(["corpus", "wordnet-examples", str(mine), "--overwrite"]) == 0
    every = _lines(mine)
    assert min(len(line.split()) for line in every) == 4 and set(written) < set(every)
    assert len(list((tmp_path / ".bsl-replaced").glob("*/mine.txt"))) == 2


@pytest.mark.parametrize("flags, message", [
    (["--min-words", "-5"], "argument --min-words: must be at least 1 (got -5)"),
    (["--min-words", "many"], "argument --min-words: not a whole number: 'many'"),
    (["--wordnet-dir", "/nonexistent"], "WordNet database directory /nonexistent (set by wordnet_dir) does not exist"),
])
def test_bad_values_are_refused_in_one_line(tmp_path, capsys, flags, message):
    out = tmp_path / "wn.txt"
    try:
        code = main(["corpus", "wordnet-examples", str(out), *flags])
    except SystemExit as exit_:  # argparse's refusal
        code = exit_.code
    assert code in (1, 2) and not out.exists()
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_wordnet_corpus_shows_a_bar_over_the_synsets_and_q_hides_it(tmp_path, monkeypatch, capsys):
    """`bsl corpus wordnet-examples` ran for many seconds without a word: now a bar on stderr counts WordNet 3.0's
    117,659 synsets to the end; -q (and BSL_NO_PROGRESS=1) hide it, and the corpus is the same either way."""
    monkeypatch.delenv("BSL_NO_PROGRESS", raising=False)
    shown, quiet = tmp_path / "shown.txt", tmp_path / "quiet.txt"
    assert main(["corpus", "wordnet-examples", str(shown), "--min-words", "12"]) == 0
    captured = capsys.readouterr()
    assert "wordnet-examples: data.adv: 100%" in captured.err and "117659/117659" in captured.err, captured.err
    assert "%|" not in captured.out and "WordNet example sentences" in captured.out
    assert main(["corpus", "wordnet-examples", str(quiet), "--min-words", "12", "-q"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "WordNet example sentences" in captured.out
    assert _lines(quiet) == _lines(shown) and len(_lines(shown)) > 100
    monkeypatch.setenv("BSL_NO_PROGRESS", "1")
    assert main(["corpus", "wordnet-examples", str(quiet), "--min-words", "12"]) == 0
    assert capsys.readouterr().err == ""
