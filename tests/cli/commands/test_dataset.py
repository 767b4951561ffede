"""The dataset commands (cli.commands.dataset): what augment, verify and methods print."""

from __future__ import annotations

import shutil

import pytest

from bsl_pipeline.cli.cli import main
from bsl_pipeline.pipeline.dataset.store import load_manifest
from small_corpus import write_corpus


def test_augment_and_verify_summaries_name_the_path_given_and_count_in_words(tmp_path, monkeypatch, capsys):
    corpus = write_corpus(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["augment", str(corpus), "--out", "ds", "--name", "views", "--methods", "noise",
                 "-o", "registry_dir=", "-o", "progress=false"]) == 0
    manifest = load_manifest(tmp_path / "ds")
    pairs, rejects = (sum(s.rows for s in manifest.shards_of(kind)) for kind in ("pairs", "rejects"))
    assert (len(manifest.shards_of("pairs")), pairs + rejects) == (1, 30)  # one shard each, every sentence
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"wrote {pairs} pairs to ds (1 shard) in ")
    shutil.copytree(tmp_path / "ds", tmp_path / "copy" / "ds")
    for name in ("ds", "copy/ds"):  # the path given, not the name inside the manifest
        assert main(["verify", name, "-q"]) == 0
        assert capsys.readouterr().out.startswith(
            f"OK: {name}: dataset views, 2 shards, {pairs} pairs and {rejects} rejects, ")


def test_methods_help_says_what_it_lists(capsys):
    with pytest.raises(SystemExit):
        main(["methods", "--help"])
    out = capsys.readouterr().out
    assert "Every augmentation method" in out and "method_params.METHOD.KEY=VALUE" in out
