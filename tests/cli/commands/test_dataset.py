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


def test_verify_of_a_signed_dataset_without_the_key_says_the_signature_was_not_checked(tmp_path, monkeypatch,
                                                                                       capsys):
    corpus = write_corpus(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BSL_MANIFEST_KEY", "a secret")
    assert main(["augment", str(corpus), "--out", "ds", "--name", "views", "--methods", "noise",
                 "-o", "registry_dir=", "-o", "progress=false"]) == 0
    assert load_manifest(tmp_path / "ds").signature  # signed under the key
    capsys.readouterr()
    # With the key, the signature is checked and the line is the plain OK.
    assert main(["verify", "ds", "-q"]) == 0
    assert capsys.readouterr().out.startswith("OK: ds: dataset views, 2 shards, ")
    # Without it, only the plain checksum is checked, and the OK line says so.
    monkeypatch.delenv("BSL_MANIFEST_KEY")
    assert main(["verify", "ds", "-q"]) == 0
    assert capsys.readouterr().out.startswith(
        "OK (signature not checked: BSL_MANIFEST_KEY unset): ds: dataset views, 2 shards, ")
    # A wrong key refuses it.
    monkeypatch.setenv("BSL_MANIFEST_KEY", "another secret")
    assert main(["verify", "ds", "-q"]) == 1
    assert "manifest signature does not match BSL_MANIFEST_KEY" in capsys.readouterr().err


def test_methods_help_says_what_it_lists(capsys):
    with pytest.raises(SystemExit):
        main(["methods", "--help"])
    out = capsys.readouterr().out
    assert "Every augmentation method" in out and "method_params.METHOD.KEY=VALUE" in out


def test_no_progress_hides_the_methods_bars_and_transformers_loading_bars(tmp_path, monkeypatch, capsys,
                                                                           tiny_roberta_mlm_dir):
    """-q reaches the methods: the mlm method's own bar (several forward passes per call) shows without it and not
    with it, and transformers' "Loading weights" bar never shows (the job's bar covers the load)."""
    from transformers.utils import logging as hf_logging

    monkeypatch.delenv("BSL_NO_PROGRESS", raising=False)
    monkeypatch.chdir(tmp_path)
    hf_logging.enable_progress_bar()  # transformers' own default: nothing earlier in the session turned it off
    corpus = write_corpus(tmp_path)
    mlm = ["--methods", "mlm", "-o", f"method_params.mlm.model={tiny_roberta_mlm_dir}", "-o",
           "method_params.mlm.device=cpu", "-o", "method_params.mlm.batch_size=4", "-o", "registry_dir="]
    assert main(["augment", str(corpus), "--out", "shown", *mlm]) == 0
    err = capsys.readouterr().err
    assert "mlm: 100%" in err and "augment: 100%" in err, err
    assert "Loading weights" not in err, err
    for quiet in ("-q", "--no-progress"):
        assert main(["augment", str(corpus), "--out", f"quiet{quiet}", quiet, *mlm]) == 0
        err = capsys.readouterr().err
        assert "%|" not in err and "mlm:" not in err and "Loading weights" not in err, err
    assert hf_logging.is_progress_bar_enabled()  # transformers' setting is left as it was
