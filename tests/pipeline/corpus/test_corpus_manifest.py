"""`bsl corpus-manifest` never writes into the corpus it describes (the next augment would read the manifest as
corpus text)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from one_line import one_line_error
from small_corpus import write_corpus


def test_corpus_manifest_run_inside_the_corpus_is_refused(tmp_path):
    corpus = write_corpus(tmp_path).parent
    before = sorted(p.relative_to(corpus).as_posix() for p in corpus.rglob("*"))
    proc = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "corpus-manifest", ".", "--name", "x"],
                          cwd=corpus, capture_output=True, text=True, check=False,
                          env={**os.environ, "BSL_NO_PROGRESS": "1"})
    one_line_error(proc, "overlap")
    assert sorted(p.relative_to(corpus).as_posix() for p in corpus.rglob("*")) == before
    ok = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "corpus-manifest", str(corpus), "--name", "x",
                         "--registry-dir", str(tmp_path / "registry")], capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and (tmp_path / "registry" / "sources" / "x.json").is_file(), ok.stderr


def test_a_file_of_the_users_where_the_corpus_manifest_goes_is_refused_and_kept(tmp_path):
    corpus = write_corpus(tmp_path)
    sources = tmp_path / "registry" / "sources"
    sources.mkdir(parents=True)
    (sources / "notes.json").write_text('{"my": "own notes"}\n', encoding="utf-8")

    def run(name):
        return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "corpus-manifest", str(corpus), "--name",
                               name, "--registry-dir", str(tmp_path / "registry")], capture_output=True, text=True,
                              check=False, env={**os.environ, "BSL_NO_PROGRESS": "1"})

    one_line_error(run("notes"), "not a corpus manifest")
    assert (sources / "notes.json").read_text(encoding="utf-8") == '{"my": "own notes"}\n'
    # Its own manifest of the same name is rewritten as before.
    assert run("corpus").returncode == 0
    assert run("corpus").returncode == 0
    assert json.loads((sources / "corpus.json").read_text(encoding="utf-8"))["kind"] == "source_corpus"


def _corpus_manifest(*argv: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "corpus-manifest", *argv], cwd=cwd,
                          capture_output=True, text=True, check=False, env={**os.environ, "BSL_NO_PROGRESS": "1"})


def test_another_corpus_or_a_hand_edited_manifest_of_that_name_is_refused_and_kept(tmp_path):
    for folder, words in (("a", "alpha"), ("b", "beta")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "corpus.txt").write_text(
            "".join(f"the {words} sentence number {i} is here\n" for i in range(12)), encoding="utf-8")
    run = tmp_path / "run"
    run.mkdir()
    manifest = run / "data_manifests" / "sources" / "corpus.json"
    assert _corpus_manifest("../a/corpus.txt", cwd=run).returncode == 0
    assert _corpus_manifest("../a/corpus.txt", cwd=run).returncode == 0  # the same corpus: rewritten
    written = json.loads(manifest.read_text(encoding="utf-8"))
    assert written["corpus"] == "../a/corpus.txt" and written["records_kept"] == 12

    # Another corpus of the same file name: refused, naming the file and what to do; nothing moves.
    before = manifest.read_bytes()
    one_line_error(_corpus_manifest("../b/corpus.txt", cwd=run), "data_manifests/sources/corpus.json describes "
                   "another corpus, '../a/corpus.txt'", "--name", "--overwrite")
    assert manifest.read_bytes() == before and not (manifest.parent / ".bsl-replaced").exists()
    assert _corpus_manifest("../b/corpus.txt", "--name", "b", cwd=run).returncode == 0

    # A hand edit is refused even for the same corpus; --overwrite sets the edited file aside.
    written["notes"] = "licence checked"
    manifest.write_text(json.dumps(written), encoding="utf-8")
    edited = manifest.read_bytes()
    one_line_error(_corpus_manifest("../a/corpus.txt", cwd=run), "edited by hand", "--overwrite")
    one_line_error(_corpus_manifest("../b/corpus.txt", cwd=run), "describes another corpus")
    assert manifest.read_bytes() == edited
    ok = _corpus_manifest("../b/corpus.txt", "--overwrite", cwd=run)
    assert ok.returncode == 0, ok.stderr
    kept = list((manifest.parent / ".bsl-replaced").glob("*/corpus.json"))
    assert [k.read_bytes() for k in kept] == [edited] and f"kept in {kept[0].parent.relative_to(run)}" in ok.stdout
    assert json.loads(manifest.read_text(encoding="utf-8"))["corpus"] == "../b/corpus.txt"

    # The same corpus changed since: its old description is not replaced silently either.
    with open(tmp_path / "b" / "corpus.txt", "a", encoding="utf-8") as fh:
        fh.write("one more sentence for the beta corpus\n")
    one_line_error(_corpus_manifest("../b/corpus.txt", cwd=run), "other files or checksums")


def test_a_manifest_of_the_same_corpus_written_elsewhere_is_rewritten(tmp_path):
    """Without a record of writing it (a committed manifest, another machine), a manifest that holds what this
    run writes but for its time and code version is the same description: rewritten."""
    corpus = write_corpus(tmp_path)
    first, second = tmp_path / "r1", tmp_path / "r2"
    assert _corpus_manifest(str(corpus), "--registry-dir", str(first)).returncode == 0
    (second / "sources").mkdir(parents=True)
    shutil.copy(first / "sources" / "corpus.json", second / "sources" / "corpus.json")
    copied = (second / "sources" / "corpus.json").read_bytes()
    one_line_error(_corpus_manifest(str(corpus), "--registry-dir", str(second), "-o", "min_words=3"),
                   "not as this run would (other reader settings, or edited by hand)")
    assert (second / "sources" / "corpus.json").read_bytes() == copied
    assert _corpus_manifest(str(corpus), "--registry-dir", str(second)).returncode == 0
    # Once written (and recorded) here, other reader settings over the same corpus rewrite it.
    assert _corpus_manifest(str(corpus), "--registry-dir", str(second), "-o", "min_words=3").returncode == 0
    assert json.loads((second / "sources" / "corpus.json").read_text(encoding="utf-8"))["reader"]["min_words"] == 3
