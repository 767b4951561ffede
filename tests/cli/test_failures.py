"""How the command line reports an OSError (cli.failures): one line naming the path, the cause and the fix."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bsl_pipeline.cli.cli import main
from small_corpus import augmented_dataset, write_corpus


@pytest.fixture
def corpus(tmp_path):
    return write_corpus(tmp_path)


@pytest.mark.parametrize("code, cause, fix", [
    (28, "No space left on device", "free space there or write elsewhere"),
    (30, "Read-only file system", "write elsewhere"),
    (13, "Permission denied", "fix the permissions or write elsewhere"),
])
def test_write_errors_are_one_line_naming_the_path(tmp_path, corpus, capsys, monkeypatch, code, cause, fix):
    from bsl_pipeline.cli.failures import describe_failure

    assert describe_failure(OSError(code, os.strerror(code), "/data/ckpt/step-10.pt")) == (
        f"/data/ckpt/step-10.pt: {cause} ({fix}, then rerun)")
    # Through a library's own error (torch.save wraps it) and through Arrow, which gives no errno.
    try:
        try:
            raise OSError(code, os.strerror(code), "/data/out.json")
        except OSError as exc:
            raise RuntimeError("saving failed") from exc
    except RuntimeError as exc:
        assert describe_failure(exc).startswith(f"/data/out.json: {cause} (")
    assert describe_failure(OSError(f"Error writing /data/x.parquet: {os.strerror(code)}")) == (
        f"Error writing /data/x.parquet: {os.strerror(code)} ({fix}, then rerun)")
    # End to end: `bsl inspect --html` on a disk that fills up.
    ds = augmented_dataset(tmp_path, corpus)
    real_write_text = Path.write_text

    def full_disk(self, *args, **kw):
        if "page" in self.name:
            raise OSError(code, os.strerror(code), str(self))
        return real_write_text(self, *args, **kw)

    monkeypatch.setattr(Path, "write_text", full_disk)
    assert main(["inspect", str(ds), "--html", str(tmp_path / "page.html")]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("bsl inspect: error: ") and str(tmp_path) in err and f"{cause} ({fix}" in err, err
    assert not (tmp_path / "page.html").exists()


def test_a_path_through_a_file_names_the_file_that_is_not_a_directory(tmp_path, corpus, capsys):
    notes = tmp_path / "small.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    runs = [
        (["augment", str(corpus), "--out", str(notes / "ds"), "--methods", "noise"], "augment", notes / "ds"),
        (["corpus-manifest", str(corpus), "--registry-dir", str(notes)], "corpus-manifest",
         notes / "sources" / "corpus.json"),
        (["corpus-manifest", str(corpus), "--registry-dir", str(notes / "x")], "corpus-manifest",
         notes / "x" / "sources" / "corpus.json"),
    ]
    for argv, command, path in runs:
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err == (f"bsl {command}: error: {notes} is not a directory, so {path} cannot be written under it; "
                       f"give a path in a directory\n")
        assert notes.read_text(encoding="utf-8") == "my notes\n"
    from bsl_pipeline.cli.failures import describe_failure

    assert describe_failure(NotADirectoryError(20, "Not a directory", str(notes))) == (
        f"{notes} is not a directory; give a directory")


@pytest.mark.parametrize("argv", [
    ["inspect", "s3://data/views", "--html", "s3://data/report.html"],
    ["inspect", "s3://data/views", "--html", "s3://data/views/x.html"],
    ["review", "s3://data/views", "--export-avoid", "s3://data/avoid.txt"],
    ["evaluate", "model", "--json", "s3://data/scores.json"],
    ["corpus", "wordnet-examples", "s3://data/c.txt"],
    ["corpus-manifest", "{corpus}", "--registry-dir", "s3://data/registry"],
    ["augment", "{corpus}", "--out", "ds", "--methods", "noise", "-o", "registry_dir=s3://data/registry"],
    ["data", "fetch", "--to", "s3://data/public"],
    ["demo", "--out", "s3://data/demo"],
])
def test_a_url_where_only_a_local_file_or_folder_is_written_is_one_line(tmp_path, corpus, capsys, monkeypatch,
                                                                         argv):
    """Before anything is read: one line naming the flag and the URL, and nothing written here (no `s3:`
    folder). The flow commands' --result-storage and --prefect-home: tests/flows/test_flows.py."""
    monkeypatch.chdir(tmp_path)
    before = sorted(tmp_path.iterdir())
    assert main([a.format(corpus=corpus) for a in argv]) == 1
    err = capsys.readouterr().err.strip()
    url = next(a for a in argv if a.startswith("s3://data/") and a != "s3://data/views" or "=s3://" in a)
    assert len(err.splitlines()) == 1 and f"{url.split('=')[-1]}: this is written to this disk, not to a URL" in err
    assert sorted(tmp_path.iterdir()) == before
