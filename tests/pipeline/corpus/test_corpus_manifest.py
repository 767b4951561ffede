"""`bsl corpus-manifest` never writes into the corpus it describes (the next augment would read the manifest as
corpus text)."""

from __future__ import annotations

import json
import os
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
