"""Unlabeled in-domain sentences (issue 10): several text columns of one CSV/TSV row as separate sentences, and the
`bsl corpus sts-sick-train` command, checked against the public STS-B / SICK files."""

from __future__ import annotations

import pytest

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.base.text import normalize
from bsl_pipeline.pipeline.corpus.chunks import CorpusConfig, CorpusStats, iter_chunks
from bsl_pipeline.pipeline.corpus.readers import read_records


def test_several_columns_of_a_row_are_separate_sentences(tmp_path):
    sick = tmp_path / "pairs.tsv"
    sick.write_text("pair_ID\tsentence_A\tsentence_B\tscore\n1\tA dog runs.\tA dog is running.\t4.5\n"
                    "2\tA cat sleeps.\tA dog runs.\t1.0\n", encoding="utf-8")
    records = list(read_records(sick, columns=["sentence_A", "sentence_B"]))
    assert [(r.text, r.line) for r in records] == [("A dog runs.", 2), ("A dog is running.", 2),
                                                   ("A cat sleeps.", 3), ("A dog runs.", 3)]
    # Through the corpus stage: de-duplicated like any corpus, scores never read.
    stats = CorpusStats()
    cfg = CorpusConfig(columns=["sentence_A", "sentence_B"])
    kept = [r.text for chunk in iter_chunks(sick, cfg, stats) for r in chunk.records]
    assert kept == ["A dog runs.", "A dog is running.", "A cat sleeps."] and stats.dropped["duplicate"] == 1
    with pytest.raises(InputError, match=r"pairs.tsv:1: no column 'sentence_C'"):
        list(read_records(sick, columns=["sentence_A", "sentence_C"]))


def test_a_file_without_header_names_columns_by_position(tmp_path):
    stsb = tmp_path / "sts.csv"
    stsb.write_text("genre\tf\t2012\t1\t5.0\tA plane takes off.\tAn airplane takes off.\n"
                    "genre\tf\t2012\t2\t1.0\tShort row\n"
                    "genre\tf\t2012\t3\t2.0\tA man sings.\tA man plays.\textra\tcolumns\n", encoding="utf-8")
    kept = list(read_records(stsb, format="tsv", columns=["5", "6"], header=False, on_bad_line="keep"))
    assert [(r.text, r.line, r.error) for r in kept] == [
        ("A plane takes off.", 1, None), ("An airplane takes off.", 1, None),
        ("genre\tf\t2012\t2\t1.0\tShort row", 2, "missing_column"),
        ("A man sings.", 3, None), ("A man plays.", 3, None)]
    with pytest.raises(InputError, match=r"sts.csv:2: expected at least 7 columns, found 6"):
        list(read_records(stsb, format="tsv", columns=["5", "6"], header=False))
    with pytest.raises(InputError, match=r"without a header needs its text columns as 0-based numbers"):
        list(read_records(stsb, format="tsv", columns=["sentence1"], header=False))
    text = tmp_path / "sts.txt"
    text.write_bytes(stsb.read_bytes())
    with pytest.raises(InputError, match=r"sts.txt: corpus.columns and corpus.header apply to CSV/TSV files"):
        list(read_records(text, columns=["5"], header=False))


def _column_sentences(path, columns: tuple[int, ...], skip_header: bool) -> set[str]:
    """The sentences of a file read independently of the code under test: split on tabs, take the columns."""
    lines = path.read_text(encoding="utf-8").split("\n")[1 if skip_header else 0:]
    return {normalize(line.split("\t")[c]) for line in lines if line.strip() for c in columns}


def test_sts_sick_train_corpus_never_emits_a_dev_or_test_sentence(shared_data, tmp_path, capsys):
    from bsl_pipeline.cli.cli import main

    out = tmp_path / "indomain.txt"
    assert main(["corpus", "sts-sick-train", str(out), "--data-dir", str(shared_data)]) == 0
    printed = capsys.readouterr().out
    lines = out.read_text(encoding="utf-8").split("\n")
    assert lines[-1] == "" and len(lines[:-1]) == len(set(lines[:-1]))
    written = set(lines[:-1])

    stsb, sick = shared_data / "stsbenchmark", shared_data / "sick"
    train = (_column_sentences(stsb / "sts-train.csv", (5, 6), False)
             | _column_sentences(sick / "SICK_train.txt", (1, 2), True))
    held_out = set()
    for name in ("sts-dev.csv", "sts-test.csv"):
        held_out |= _column_sentences(stsb / name, (5, 6), False)
    for name in ("SICK_trial.txt", "SICK_test_annotated.txt"):
        held_out |= _column_sentences(sick / name, (1, 2), True)
    assert not written & held_out
    assert written == train - held_out
    # The public files: 15,335 distinct training sentences, 4,413 of them also in a dev/trial/test file.
    assert (len(train), len(train & held_out), len(written)) == (15335, 4413, 10922)
    assert "10922 distinct sentences" in printed
    # Scores and labels never become text.
    assert not any(s.replace(".", "").isdigit() or s in ("ENTAILMENT", "NEUTRAL", "CONTRADICTION") for s in written)


def test_sts_sick_train_corpus_errors_name_the_missing_file(tmp_path, capsys, monkeypatch):
    from bsl_pipeline.cli.cli import main

    assert main(["corpus", "sts-sick-train", str(tmp_path / "o.txt"), "--data-dir", str(tmp_path)]) == 1
    assert "stsbenchmark/sts-dev.csv: not found" in capsys.readouterr().err
    # Without --data-dir it reads the data dir every command finds (here: BSL_DATA_DIR, which does not exist).
    monkeypatch.setenv("BSL_DATA_DIR", str(tmp_path / "nowhere"))
    assert main(["corpus", "sts-sick-train", str(tmp_path / "o.txt")]) == 1
    assert "nowhere (from BSL_DATA_DIR) is not a directory" in capsys.readouterr().err
    assert not (tmp_path / "o.txt").exists()
