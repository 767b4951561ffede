import subprocess
import sys

from pipeline.cli import main


def test_help_lists_commands_and_config_keys(capsys):
    assert main([]) == 2
    out = capsys.readouterr().out
    for cmd in ("augment", "verify", "inspect", "methods"):
        assert cmd in out


def test_augment_help_documents_every_config_key():
    proc = subprocess.run([sys.executable, "-m", "pipeline.cli", "augment", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0
    for key in ("corpus.encoding_errors", "filters.max_length_ratio", "corpus.chunk_size", "method_params"):
        assert key in proc.stdout


def test_print_config_applies_overrides(capsys):
    assert main(["augment", "--methods", "identity", "-o", "corpus.min_words=4", "--print-config"]) == 0
    out = capsys.readouterr().out
    assert "- identity" in out and "min_words: 4" in out


def _bsl(*args):
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True)


def test_bad_inputs_give_one_clear_line_and_no_traceback(tmp_path):
    bad_utf8 = tmp_path / "bad.txt"
    bad_utf8.write_bytes(b"fine\n\xff\xfe broken\n")
    cases = [
        (("augment", str(bad_utf8), "--out", str(tmp_path / "o1"), "-o", "registry_dir="), "bad.txt:2: invalid UTF-8"),
        (("augment", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "o2")), "corpus not found"),
        (("augment", str(bad_utf8), "--out", str(tmp_path / "o3"), "--methods", "nope"), "unknown method 'nope'"),
        (("augment", str(bad_utf8), "--out", str(tmp_path / "o4"), "-o", "corpus.chunk_size=x"),
         "corpus.chunk_size: expected an integer"),
        (("verify", str(tmp_path)), "no manifest at"),
    ]
    for args, message in cases:
        proc = _bsl(*args)
        assert proc.returncode == 1, (args, proc.stderr)
        assert message in proc.stderr and "Traceback" not in proc.stderr, (args, proc.stderr)


def test_replace_mode_counts_and_keeps_going(tmp_path):
    bad_utf8 = tmp_path / "bad.txt"
    bad_utf8.write_bytes(b"a fine sentence here\n\xff\xfe broken line here\n")
    proc = _bsl("augment", str(bad_utf8), "--out", str(tmp_path / "o"), "--methods", "identity",
                "-o", "corpus.encoding_errors=replace", "-o", "registry_dir=", "-o", "progress=false")
    assert proc.returncode == 0, proc.stderr
    import json

    m = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert m["source"]["replacement_chars"] == 2 and m["stats"]["pairs"] == 2


def test_corpus_manifest_matches_the_shared_data_checksums(tmp_path, shared_data):
    import csv
    import json

    proc = _bsl("corpus-manifest", str(shared_data / "nli/snli/dev.csv"), "--name", "snli-dev",
                "--registry-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    m = json.loads((tmp_path / "sources" / "snli-dev.json").read_text())
    with open(shared_data / "MANIFEST.tsv", encoding="utf-8") as fh:
        expected = {row["path"]: row for row in csv.DictReader(fh, delimiter="\t")}["nli/snli/dev.csv"]
    assert m["files"][0]["sha256"] == expected["sha256"] and m["records_read"] == int(expected["count"])
    assert m["dropped"] == {"duplicate": 2} and sum(m["labels"].values()) == m["records_kept"] == 9829
