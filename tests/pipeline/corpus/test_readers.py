import csv
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.corpus.chunks import CorpusConfig, CorpusStats, iter_chunks
from bsl_pipeline.pipeline.corpus.readers import detect_format, read_records


def _write(path, text, mode="w"):
    path.write_text(text, encoding="utf-8") if mode == "w" else path.write_bytes(text)
    return path


def test_plain_text_and_line_numbers(tmp_path):
    p = _write(tmp_path / "c.txt", "first line\n\nthird line\n")
    recs = list(read_records(p))
    assert [(r.text, r.line) for r in recs] == [("first line", 1), ("", 2), ("third line", 3)]


def test_jsonl_field_and_missing_field(tmp_path):
    p = _write(tmp_path / "c.jsonl", '{"sentence": "a b"}\n{"sentence": "c d"}\n{"other": 1}\n')
    assert [r.text for r in read_records(p, field="sentence", on_bad_line="keep")][:2] == ["a b", "c d"]
    kept = list(read_records(p, field="sentence", on_bad_line="keep"))
    assert kept[2].error == "missing_field" and kept[2].line == 3
    with pytest.raises(InputError, match=r"c.jsonl:3: missing field 'sentence'"):
        list(read_records(p, field="sentence"))
    bad = _write(tmp_path / "bad.jsonl", '{"text": "ok"}\n{not json\n')
    with pytest.raises(InputError, match=r"bad.jsonl:2: invalid JSON"):
        list(read_records(bad))


def test_snli_jsonl_and_txt_formats(tmp_path):
    rows = [{"gold_label": "entailment", "sentence1": "A man sleeps.", "sentence2": "A person rests."},
            {"gold_label": "-", "sentence1": "A dog.", "sentence2": "A cat."}]
    p = _write(tmp_path / "snli_1.0_dev.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    recs = list(read_records(p))
    assert (recs[0].text, recs[0].text_b, recs[0].label) == ("A man sleeps.", "A person rests.", "entailment")
    assert recs[1].label is None  # '-' = no gold label
    txt = _write(tmp_path / "snli_1.0_dev.txt",
                 "gold_label\tsentence1_binary_parse\tsentence2_binary_parse\tsentence1\tsentence2\n"
                 "contradiction\t( x )\t( y )\tA \"quoted man.\tA woman.\n")
    assert detect_format(txt) == "tsv"
    (r,) = read_records(txt)
    assert (r.text, r.text_b, r.label) == ('A "quoted man.', "A woman.", "contradiction")


def test_glue_tsv_with_label_column(tmp_path):
    p = _write(tmp_path / "dev_matched.tsv", "index\tsentence1\tsentence2\tlabel\n0\tA b.\tC d.\tneutral\n")
    (r,) = read_records(p)
    assert (r.text, r.text_b, r.label) == ("A b.", "C d.", "neutral")


def test_csv_column_and_missing_column(tmp_path):
    p = _write(tmp_path / "c.csv", 'id,text\n1,"hello, world"\n2,"multi\nline"\n3,last\n')
    recs = list(read_records(p))
    assert [r.text for r in recs] == ["hello, world", "multi\nline", "last"]
    assert [r.line for r in recs] == [2, 3, 5]
    with pytest.raises(InputError, match=r"c.csv:1: no column 'sentence'"):
        list(read_records(p, field="sentence"))


def test_nli_csv_and_senteval_from_shared_data(shared_data):
    snli_csv = list(read_records(shared_data / "nli/snli/dev.csv"))
    assert len(snli_csv) == 9831 and sum(r.label == "entailment" for r in snli_csv) == 3325
    senteval = list(read_records(shared_data / "nli/snli/senteval_tok/s1.dev"))
    assert len(senteval) == 9842 and sum(r.label == "entailment" for r in senteval) == 3329
    with open(shared_data / "nli/snli/senteval_tok/s2.dev", encoding="utf-8") as fh:
        hyps = [line.rstrip("\n") for line in fh]
    assert [r.text_b for r in senteval] == hyps


def test_a_field_the_user_names_must_be_there_in_an_nli_file_too(shared_data, tmp_path):
    """Only the default field gives way to the premise/hypothesis layout: a field the user names that the file lacks
    is the same one-line error (naming the file and the header) on an NLI file as on a plain one, in every format
    with a pair layout; the `bsl augment` run stops before writing anything."""
    from one_line import one_line_error
    from small_corpus import run_bsl

    lines = (shared_data / "nli/snli/dev.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    snli = _write(tmp_path / "snli50.csv", "".join(lines[:51]))
    plain = _write(tmp_path / "plain.csv", "id,text\n1,A man sleeps.\n")
    for path in (snli, plain):
        with pytest.raises(InputError, match=rf"{path.name}:1: no column 'nosuch' in the header"):
            list(read_records(path, field="nosuch"))
    assert len([r for r in read_records(snli) if r.text_b]) == 50  # the default field: the pair layout
    assert {r.text for r in read_records(snli, field="premise")} == {r.text for r in read_records(snli)}
    jsonl = _write(tmp_path / "snli.jsonl", json.dumps({"sentence1": "A b.", "sentence2": "C d.",
                                                        "gold_label": "neutral"}) + "\n")
    with pytest.raises(InputError, match=r"snli.jsonl:1: missing field 'nosuch'"):
        list(read_records(jsonl, field="nosuch"))
    pq.write_table(pa.table({"premise": ["p1"], "hypothesis": ["h1"], "label": ["neutral"]}), tmp_path / "n.parquet")
    with pytest.raises(InputError, match=r"n.parquet: no column 'nosuch'"):
        list(read_records(tmp_path / "n.parquet", field="nosuch"))
    out = tmp_path / "ds"
    proc = run_bsl("augment", str(snli), "--out", str(out), "--methods", "span-mask", "-o", "corpus.field=nosuch",
                   "-o", "registry_dir=")
    one_line_error(proc, "snli50.csv:1: no column 'nosuch' in the header")
    assert not (out / "manifest.json").exists()


def test_senteval_unequal_files(tmp_path):
    (tmp_path / "s1.dev").write_text("a\nb\n")
    (tmp_path / "s2.dev").write_text("c\n")
    (tmp_path / "labels.dev").write_text("entailment\nneutral\n")
    with pytest.raises(InputError, match="different line counts"):
        list(read_records(tmp_path / "s1.dev"))


def test_parquet_and_datasets_dir(tmp_path):
    from datasets import ClassLabel, Dataset, Features, Value

    pq.write_table(pa.table({"text": ["one two", "three four"]}), tmp_path / "c.parquet")
    assert [r.text for r in read_records(tmp_path / "c.parquet")] == ["one two", "three four"]
    features = Features({"premise": Value("string"), "hypothesis": Value("string"),
                         "label": ClassLabel(names=["entailment", "neutral", "contradiction"])})
    ds = Dataset.from_dict({"premise": ["p1", "p2"], "hypothesis": ["h1", "h2"], "label": [0, 2]}, features=features)
    ds.save_to_disk(str(tmp_path / "hf"))
    recs = list(read_records(tmp_path / "hf"))
    assert [(r.text, r.text_b, r.label) for r in recs] == [("p1", "h1", "entailment"), ("p2", "h2", "contradiction")]


def test_corrupt_parquet_names_the_file(tmp_path):
    p = tmp_path / "broken.parquet"
    pq.write_table(pa.table({"text": ["x"] * 100}), p)
    p.write_bytes(p.read_bytes()[: 50])
    with pytest.raises(InputError, match="broken.parquet: not a readable Parquet file"):
        list(read_records(p))


def test_invalid_utf8_strict_names_line_and_replace_counts(tmp_path):
    p = _write(tmp_path / "latin1.txt", "good line\ncaf\xe9 au lait\n".encode("latin-1"), mode="wb")
    with pytest.raises(InputError, match=r"latin1.txt:2: invalid UTF-8"):
        list(read_records(p))
    stats = CorpusStats()
    chunks = list(iter_chunks(p, CorpusConfig(encoding_errors="replace"), stats))
    assert stats.replacement_chars == 1
    assert [r.text for r in chunks[0].records] == ["good line", "caf\ufffd au lait"]


def test_normalisation_dedupe_bounds_and_counts(tmp_path):
    lines = ["The  cat\u00a0sat.", "The cat sat.", "", "cafe\u0301 noir", "caf\u00e9 noir", "a\x00b c", "x" * 100_000,
             "one", "w " * 300]
    p = _write(tmp_path / "c.txt", "\n".join(lines) + "\n")
    stats = CorpusStats()
    chunks = list(iter_chunks(p, CorpusConfig(min_words=2, max_chars=5000), stats))
    kept = [r.text for c in chunks for r in c.records]
    assert kept == ["The cat sat.", "café noir", "ab c"]
    assert dict(stats.dropped) == {"duplicate": 2, "empty": 1, "too_long_chars": 1, "too_short": 1, "too_long": 1}
    dropped = [d for c in chunks for d in c.dropped]
    assert len(dropped) == 6 and {d.raw.line for d in dropped} == {2, 3, 5, 7, 8, 9}
    assert stats.records_read == len(lines) and stats.records_kept == 3


def test_chunks_do_not_span_files_and_ids_are_stable(tmp_path):
    d = tmp_path / "corpus"
    d.mkdir()
    (d / "a.txt").write_text("".join(f"sentence number {i}\n" for i in range(5)))
    first = [c.chunk_id for c in iter_chunks(d, CorpusConfig(chunk_size=2))]
    (d / "b.txt").write_text("another file here\n")
    second = list(iter_chunks(d, CorpusConfig(chunk_size=2)))
    assert [c.chunk_id for c in second[:3]] == first and len(second) == 4
    assert [len(c.records) for c in second] == [2, 2, 1, 1]


def test_csv_with_nul_bytes_is_read(tmp_path):
    p = tmp_path / "nul.csv"
    p.write_bytes(b"text\nhello\x00 world\n")
    (r,) = read_records(p)
    assert r.text == "hello world"


def test_missing_corpus(tmp_path):
    with pytest.raises(InputError, match="corpus not found"):
        list(read_records(tmp_path / "nope.txt"))


def test_csv_reader_matches_python_csv(shared_data):
    with open(shared_data / "nli/mnli/dev_mismatched.csv", newline="", encoding="utf-8") as fh:
        expected = [(row["premise"], row["hypothesis"]) for row in csv.DictReader(fh)]
    got = [(r.text, r.text_b) for r in read_records(shared_data / "nli/mnli/dev_mismatched.csv")]
    assert got == expected


def test_directory_symlinks_out_of_a_corpus_are_named(tmp_path, caplog):
    import logging

    from bsl_pipeline.pipeline.corpus.readers import corpus_files

    corpus, outside = tmp_path / "corpus", tmp_path / "outside"
    (corpus / "inner").mkdir(parents=True)
    outside.mkdir()
    (corpus / "a.txt").write_text("One sentence here.\n", encoding="utf-8")
    (outside / "b.txt").write_text("Another sentence there.\n", encoding="utf-8")
    (corpus / "linked").symlink_to(outside, target_is_directory=True)
    (corpus / "inner" / "also").symlink_to(outside, target_is_directory=True)
    (corpus / "inside").symlink_to(corpus / "inner", target_is_directory=True)  # inside: read through its target
    with caplog.at_level(logging.WARNING):
        assert corpus_files(corpus) == [corpus / "a.txt"]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [f"warning: {corpus}: 2 directory symlink(s) pointing outside the corpus directory not read: "
                        f"inner/also -> {outside}, linked -> {outside}; copy their files into the directory to read "
                        f"them"], warnings


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
