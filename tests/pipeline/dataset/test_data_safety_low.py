"""The red team's low-severity cases: each test reproduces one case and fails on the code before its fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

from bsl_pipeline.cli.cli import main
from bsl_pipeline.pipeline.augment.job import run_augment
from bsl_pipeline.pipeline.dataset.manifest import write_manifest
from one_line import one_line_error
from small_corpus import augment_config, rewrite_pair_shards, write_corpus

ESCAPES = "\x1b]52;c;aGVsbG8=\x07 \x1b[2J \x9b31m"


def _bsl(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], capture_output=True, text=True,
                          check=False, env={**os.environ, "BSL_NO_PROGRESS": "1"}, **kw)


@pytest.fixture
def corpus(tmp_path):
    return write_corpus(tmp_path)


def _dataset(tmp_path, corpus, name="ds") -> Path:
    run_augment(corpus, tmp_path / name, augment_config(tmp_path))
    return tmp_path / name


# -- 1: text from a dataset reaches the terminal shown, never acted on ---------------------------------------------
def test_inspect_and_errors_escape_terminal_control_characters(tmp_path, corpus, capsys):
    from bsl_pipeline.pipeline.base.text import terminal_safe

    assert terminal_safe("a\tb\nc\x1b[2J\x07\r\x9b") == "a\tb\nc\\x1b[2J\\x07\\x0d\\x9b"
    ds = _dataset(tmp_path, corpus)

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


def test_review_summary_escapes_reviewer_names(tmp_path, corpus, capsys):
    from bsl_pipeline.pipeline.dataset.inspection import open_dataset, sample, PairQuery
    from bsl_pipeline.pipeline.dataset.judgments import append_judgment, judgments_path, make_judgment

    ds = _dataset(tmp_path, corpus)
    manifest = open_dataset(ds)
    row = sample(manifest, PairQuery(n=1, seed=0))[0]
    append_judgment(judgments_path(manifest), make_judgment(manifest, row["pair_id"], row["method"], "usable",
                                                            reviewer=f"eve{ESCAPES}"))
    assert main(["review", str(ds), "--summary"]) == 0
    out = capsys.readouterr().out
    assert "eve\\x1b]52" in out and "\x1b" not in out and "\x07" not in out


# -- 2: a config nested thousands deep is refused in one line naming the file ---------------------------------------
def test_deeply_nested_config_is_refused_naming_the_file(tmp_path):
    from bsl_pipeline.pipeline.base.config import ConfigError, MAX_CONFIG_DEPTH, load_yaml

    deep = tmp_path / "deep.yaml"
    deep.write_text("a: " + "[" * 20_000 + "]" * 20_000 + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"deep.yaml line 1: values nested more than {MAX_CONFIG_DEPTH} deep"):
        load_yaml(deep)
    indented = tmp_path / "indented.yaml"
    indented.write_text("".join("  " * i + "k:\n" for i in range(3000)) + "  " * 3000 + "1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="indented.yaml line 100: values nested more than"):
        load_yaml(indented)
    one_line_error(_bsl("augment", "--config", str(deep), str(tmp_path), "--out", str(tmp_path / "out")),
                    f"{deep} line 1: values nested more than {MAX_CONFIG_DEPTH} deep")
    # The limit is far above any real config: 20 levels load.
    ok = tmp_path / "ok.yaml"
    ok.write_text("a: " + "[" * 20 + "1" + "]" * 20 + "\n", encoding="utf-8")
    assert load_yaml(ok)["a"] == [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]


# -- 3: `no` (Norwegian) stays a language code: YAML 1.2 booleans ----------------------------------------------------
def test_yaml_1_1_boolean_words_stay_text_where_a_setting_is_text(tmp_path):
    from bsl_pipeline.pipeline.augment.augmenters.translation import TranslationConfig
    from bsl_pipeline.pipeline.augment.job import AugmentConfig
    from bsl_pipeline.pipeline.base.config import load_config, parse_yaml

    assert parse_yaml("[no, yes, on, off, y, n, NO, true, False]", "x") == [
        "no", "yes", "on", "off", "y", "n", "NO", True, False]
    cfg = load_config(TranslationConfig, overrides=["languages=[no, de]", "targets.no.model=/models/en-no"])
    assert cfg.languages == ["no", "de"] and cfg.targets["no"].model == "/models/en-no"
    path = tmp_path / "translation.yaml"
    path.write_text("languages:\n  - no\n  - on\ntargets:\n  no:\n    prefix: '>>nob<< '\n", encoding="utf-8")
    cfg = load_config(TranslationConfig, path)
    assert cfg.languages == ["no", "on"] and cfg.targets["no"].prefix == ">>nob<< "
    # A true/false setting still takes the YAML 1.1 words.
    for word, value in (("yes", True), ("no", False), ("on", True), ("off", False), ("y", True), ("n", False),
                        ("true", True), ("False", False)):
        assert load_config(AugmentConfig, overrides=[f"progress={word}"]).progress is value


# -- 4: a full disk or a read-only file system: one line naming the path and the cause -------------------------------
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
    ds = _dataset(tmp_path, corpus)
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


# -- 6: a label name with a tab or a line break adds no TSV column or row ---------------------------------------------
def test_label_names_with_tabs_do_not_inject_tsv_rows(tmp_path):
    from datasets import ClassLabel, Dataset, Features, Value

    from bsl_pipeline.evaluation.public_data import DataFetchConfig, fetch_public_sets, manifest_path

    path = tmp_path / "mirror" / "SetFit" / "sst2"
    path.mkdir(parents=True)
    features = Features({"text": Value("string"), "label": ClassLabel(names=["negative", "positive\tinjected\nfake"])})
    for split in ("train", "validation", "test"):
        Dataset.from_dict({"text": ["good", "bad"], "label": [1, 0]}, features=features).to_parquet(
            str(path / f"{split}.parquet"))
    cfg = DataFetchConfig(to=str(tmp_path / "d"), mirror=str(tmp_path / "mirror"), progress=False, sets=["sst2"])
    fetch_public_sets(cfg, log=lambda _: None)
    assert (tmp_path / "d" / "senteval" / "sst2" / "test.tsv").read_text() == "label\tsentence\nnegative\tbad\n"
    manifest = json.loads(manifest_path(tmp_path / "d", "sst2").read_text())
    assert manifest["splits"]["test"]["dropped"] == {
        "tab or line break inside the label (the files are tab- and line-separated)": 1}


# -- 8: a shard listed twice in a manifest is refused ---------------------------------------------------------------
@pytest.mark.parametrize("spelling", ["{path}", "./{path}", "data//{path_in_data}"])
def test_verify_refuses_a_shard_listed_twice(tmp_path, corpus, spelling):
    from bsl_pipeline.pipeline.base.errors import VerificationError
    from bsl_pipeline.pipeline.dataset.card import write_dataset_card
    from bsl_pipeline.pipeline.dataset.store import load_manifest, verify_dataset

    ds = _dataset(tmp_path, corpus)
    manifest = json.loads((ds / "manifest.json").read_text())
    first = next(s for s in manifest["shards"] if s["kind"] == "pairs")
    manifest["shards"].append({**first, "path": spelling.format(path=first["path"],
                                                                  path_in_data=first["path"].split("/", 1)[1])})
    manifest.pop("checksum")
    write_manifest(manifest, ds / "manifest.json")
    write_dataset_card(ds, load_manifest(ds))  # the card names the shards as the manifest does, twice
    with pytest.raises(VerificationError, match=rf"shards\[\d+\] lists {ds / first['path']} again \(first as "
                                                r"shards\[0\]\); a reader would read its rows twice"):
        verify_dataset(ds)
    one_line_error(_bsl("verify", str(ds)), f"lists {ds / first['path']} again (first as shards[0])")


# -- 7: an output path that cannot be a file is refused before any model loads ---------------------------------------
@pytest.mark.parametrize("flag", ["--json", "--markdown", "--plot"])
def test_evaluate_refuses_output_paths_that_cannot_be_files_before_evaluating(tmp_path, tiny_bert_dir, shared_data,
                                                                              capsys, monkeypatch, flag):
    import bsl_pipeline.evaluation.runner as runner

    def no_evaluation(*_args, **_kw):
        raise AssertionError("the evaluation ran")

    monkeypatch.setattr(runner, "evaluate_models", no_evaluation)
    (tmp_path / "a_file").write_text("x", encoding="utf-8")
    (tmp_path / "a_dir").mkdir()
    cases = {str(tmp_path / "a_dir"): f"{tmp_path / 'a_dir'} is a directory; give a file name",
             str(tmp_path / "new_dir") + "/": f"{tmp_path / 'new_dir'}/ is a directory; give a file name",
             str(tmp_path / "a_file" / "out.x"): f"{tmp_path / 'a_file'} is not a directory"}
    for out, message in cases.items():
        assert main(["evaluate", str(tiny_bert_dir), "--data-dir", str(shared_data), flag, out]) == 1
        err = capsys.readouterr().err
        assert message in err and "the evaluation ran" not in err, err
    assert not (tmp_path / "new_dir").exists() and (tmp_path / "a_file").read_text() == "x"


# -- 5: directory symlinks out of a corpus are named, not skipped silently -------------------------------------------
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
