"""Trust boundaries: a dataset directory, a corpus, a config and a checkpoint are untrusted input.

One test (or a parametrised group) per behaviour, named for it.
"""

from __future__ import annotations

import dataclasses
import gzip
import io
import json
import logging
import os
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment
from bsl_pipeline.pipeline.base.config import ConfigError, load_config
from bsl_pipeline.pipeline.base.errors import BSLError, InputError, VerificationError
from bsl_pipeline.pipeline.base.ownership import OwnershipError
from bsl_pipeline.pipeline.base.provenance import sha256_file
from bsl_pipeline.pipeline.corpus.readers import corpus_files, detect_format, read_records
from bsl_pipeline.pipeline.dataset.manifest import write_manifest
from bsl_pipeline.pipeline.dataset.store import iter_pair_batches, load_manifest, verify_dataset

SENTENCES = [f"Sentence number {i} talks about the {w} in the park." for i, w in
             enumerate(["dog", "cat", "tree", "child", "ball", "car", "house", "woman", "man", "game"] * 3)]


def _bsl(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The `bsl` command as a user runs it (a separate process: tracebacks would show in stderr)."""
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


def _one_line_error(proc: subprocess.CompletedProcess, *needles: str) -> None:
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    for needle in needles:
        assert needle in proc.stderr, (needle, proc.stderr)


def _config(tmp_path: Path, **kw) -> AugmentConfig:
    kw.setdefault("methods", ["noise", "identity"])
    cfg = AugmentConfig(registry_dir="", progress=False, **kw)
    cfg.corpus.chunk_size = 8
    return cfg


def _build(tmp_path: Path, name: str = "ds") -> Path:
    corpus = tmp_path / "corpus.txt"
    if not corpus.exists():
        corpus.write_text("\n".join(SENTENCES + ["", SENTENCES[0], "Tiny."]) + "\n", encoding="utf-8")
    run_augment(corpus, tmp_path / name, _config(tmp_path))
    return tmp_path / name


def _rewrite_manifest(ds: Path, edit) -> None:
    """Edit the manifest and recompute its checksum, as anyone can (it is plain sha256)."""
    manifest = json.loads((ds / "manifest.json").read_text(encoding="utf-8"))
    edit(manifest)
    manifest.pop("checksum", None)
    write_manifest(manifest, ds / "manifest.json")


def _first_pairs_shard(ds: Path) -> Path:
    return ds / load_manifest(ds).shards_of("pairs")[0].path


def _tamper_in_place(path: Path, column: str = "view1", text: str = "TAMPERED view text here") -> None:
    """Rewrite a Parquet file's content through the same inode (what an editor writing in place does)."""
    table = pq.read_table(path)
    index = table.schema.get_field_index(column)
    table = table.set_column(index, table.schema.field(index), pa.array([text] * table.num_rows, pa.string()))
    buffer = io.BytesIO()
    pq.write_table(table, buffer, compression="zstd")
    with open(path, "r+b") as fh:
        fh.seek(0)
        fh.write(buffer.getvalue())
        fh.truncate()


# -- 2: shard paths escape the dataset directory ------------------------------------------------------------------
def _plant_escape(tmp_path: Path, ds: Path, how: str) -> str:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.parquet"
    shutil.copyfile(_first_pairs_shard(ds), secret)
    first = load_manifest(ds).shards[0].path
    if how == "symlink":
        (ds / first).unlink()
        (ds / first).symlink_to(secret)
        return first
    if how == "symlinked-dir":
        shutil.rmtree(ds / "data")
        (ds / "data").symlink_to(outside)
        return "data"
    bad = {"dotdot": "../outside/secret.parquet", "nested-dotdot": "data/../../outside/secret.parquet",
           "absolute": str(secret), "etc-passwd": "/etc/passwd"}[how]
    digest = sha256_file(Path(bad) if Path(bad).is_absolute() else ds / bad)

    def edit(m):
        m["shards"][0]["path"] = bad
        m["shards"][0]["sha256"] = digest
    _rewrite_manifest(ds, edit)
    return bad


@pytest.mark.parametrize("how", ["dotdot", "nested-dotdot", "absolute", "etc-passwd", "symlink", "symlinked-dir"])
def test_manifest_paths_outside_the_dataset_are_refused_before_opening(tmp_path, monkeypatch, how):
    ds = _build(tmp_path)
    bad = _plant_escape(tmp_path, ds, how)
    opened = []
    from bsl_pipeline.pipeline.dataset import store

    monkeypatch.setattr(store, "sha256_file", lambda p: opened.append(p) or "0" * 64)
    with pytest.raises(InputError, match="outside the dataset directory") as exc:
        load_manifest(ds)
    assert bad in str(exc.value)
    for read in (lambda: verify_dataset(ds), lambda: list(iter_pair_batches(ds))):
        with pytest.raises(InputError, match="outside the dataset directory"):
            read()
    assert opened == []

    from bsl_pipeline.training.config import DataConfig, DataSourceConfig
    from bsl_pipeline.training.data import resolve_sources

    with pytest.raises(InputError, match="outside the dataset directory"):
        resolve_sources(DataConfig(sources=[DataSourceConfig(path=str(ds))], verify=False))
    monkeypatch.undo()
    _one_line_error(_bsl("verify", str(ds), "-q"), bad)
    _one_line_error(_bsl("inspect", str(ds), "--no-verify"), bad)


def test_registered_manifest_must_match_the_dataset_it_names(tmp_path):
    ds = _build(tmp_path)
    registry = tmp_path / "registry.json"
    manifest = json.loads((ds / "manifest.json").read_text(encoding="utf-8"))
    registry.write_text(json.dumps(manifest), encoding="utf-8")
    assert load_manifest(registry).root == ds.resolve()  # a faithful copy resolves to its dataset

    manifest.pop("checksum")
    manifest["dataset_dir"] = "/"
    manifest["shards"][0].update(path="etc/passwd", sha256=sha256_file(Path("/etc/passwd")))
    write_manifest(manifest, registry)
    with pytest.raises(InputError, match="no manifest.json"):
        load_manifest(registry)


# -- 3: a rerun blesses a tampered shard --------------------------------------------------------------------------
def test_published_shards_are_independent_of_the_cache(tmp_path):
    ds = _build(tmp_path)
    first = load_manifest(ds)
    shard = _first_pairs_shard(ds)
    original = pq.read_table(shard).to_pylist()
    _tamper_in_place(shard)
    with pytest.raises(VerificationError, match="sha256"):
        verify_dataset(ds)
    second = run_augment(tmp_path / "corpus.txt", ds, _config(tmp_path))
    assert [s.sha256 for s in second.shards] == [s.sha256 for s in first.shards]
    assert pq.read_table(shard).to_pylist() == original
    verify_dataset(ds)


def test_a_tampered_cached_task_output_is_recomputed_not_registered(tmp_path, caplog):
    ds = _build(tmp_path)
    first = load_manifest(ds)
    cached = sorted((ds / ".work" / "tasks").glob("*.pairs.parquet"))[0]
    _tamper_in_place(cached)
    calls = []
    with caplog.at_level(logging.WARNING):
        second = run_augment(tmp_path / "corpus.txt", ds, _config(tmp_path), on_task_done=calls.append)
    assert sum(not r.cached for r in calls) == 1 and len(calls) == 8
    assert cached.name.split(".")[0] in caplog.text and "recomput" in caplog.text
    assert [s.sha256 for s in second.shards] == [s.sha256 for s in first.shards]
    verify_dataset(ds)


def test_a_tampered_cached_chunk_is_rewritten_from_the_corpus(tmp_path):
    ds = _build(tmp_path)
    first = load_manifest(ds)
    chunk = sorted(p for p in (ds / ".work" / "chunks").glob("*.parquet") if ".dropped." not in p.name)[0]
    _tamper_in_place(chunk, column="text", text="TAMPERED chunk sentence with enough words")
    for marker in (ds / ".work" / "tasks").glob(f"{chunk.name.split('.')[0]}-*.done.json"):
        marker.unlink()  # its tasks must run again, from the chunk
    second = run_augment(tmp_path / "corpus.txt", ds, _config(tmp_path))
    assert [s.sha256 for s in second.shards] == [s.sha256 for s in first.shards]


def test_a_copied_dataset_reuses_its_own_cache_not_the_original(tmp_path):
    ds = _build(tmp_path)
    copy = tmp_path / "copy"
    shutil.copytree(ds, copy)
    for cached in (ds / ".work" / "tasks").glob("*.parquet"):
        _tamper_in_place(cached) if ".pairs." in cached.name else None
    with pytest.raises(OwnershipError, match="copied or moved here"):  # a copy is adopted only on request
        run_augment(tmp_path / "corpus.txt", copy, _config(tmp_path))
    second = run_augment(tmp_path / "corpus.txt", copy, _config(tmp_path), overwrite=True)
    assert [s.sha256 for s in second.shards] == [s.sha256 for s in load_manifest(ds).shards]
    verify_dataset(copy)


# -- 4: verify ignores unlisted files -----------------------------------------------------------------------------
def test_verify_reports_unlisted_files_and_datasets_reads_only_listed_shards(tmp_path, caplog):
    ds = _build(tmp_path)
    manifest = verify_dataset(ds)
    pairs = sum(s.rows for s in manifest.shards_of("pairs"))
    n = len(manifest.shards_of("pairs"))
    extra = f"data/train-{n:05d}-of-{n:05d}.parquet"
    shutil.copyfile(_first_pairs_shard(ds), ds / extra)
    (ds / "rejects" / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(VerificationError, match="not listed in the manifest") as exc:
        verify_dataset(ds)
    assert extra in str(exc.value) and "rejects/notes.txt" in str(exc.value)
    with caplog.at_level(logging.WARNING):
        verify_dataset(ds, allow_unlisted=True)
    assert extra in caplog.text
    _one_line_error(_bsl("verify", str(ds), "-q"), extra)
    assert _bsl("verify", str(ds), "-q", "--allow-unlisted").returncode == 0
    # The error's advice names only commands that take the option; inspect verifies as verify does, with it.
    assert str(exc.value).endswith("; remove them (`bsl verify` and `bsl inspect` take --allow-unlisted to only warn "
                                   "about them)")
    _one_line_error(_bsl("inspect", str(ds), "--stats"), extra, "`bsl inspect` take --allow-unlisted")
    shown = _bsl("inspect", str(ds), "--stats", "--allow-unlisted")
    assert shown.returncode == 0 and extra in shown.stderr and "records read" in shown.stdout, shown.stderr

    from datasets import load_dataset

    assert load_dataset(str(ds), split="train", cache_dir=str(tmp_path / "hf")).num_rows == pairs


# -- 5: inspect never verifies ------------------------------------------------------------------------------------
def test_inspect_verifies_first_or_says_loudly_that_it_did_not(tmp_path):
    ds = _build(tmp_path)
    _tamper_in_place(_first_pairs_shard(ds))
    _one_line_error(_bsl("inspect", str(ds), "--no-color"), "sha256")
    proc = _bsl("inspect", str(ds), "--no-color", "--no-verify", "-n", "50")
    assert proc.returncode == 0, proc.stderr
    assert "NOT VERIFIED" in proc.stderr and "TAMPERED" in proc.stdout


# -- 6: an unterminated CSV quote swallows lines ------------------------------------------------------------------
def test_unterminated_csv_quote_is_a_bad_line(tmp_path):
    p = tmp_path / "c.csv"
    p.write_text('id,text\n1,"a b c\n2,d e f\n3,g h i\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"c.csv:2: unterminated quoted field"):
        list(read_records(p))
    kept = list(read_records(p, on_bad_line="keep"))
    assert [(r.line, r.error) for r in kept] == [(2, "unterminated_quote"), (3, None), (4, None)]
    assert [r.text for r in kept[1:]] == ["d e f", "g h i"]
    # A closed multi-line quoted field is still one record; a stray quote after a closing one is a bad line.
    good = tmp_path / "good.csv"
    good.write_text('id,text\n1,"multi\nline"\n2,"x ""y"" z"\n', encoding="utf-8")
    assert [(r.text, r.line) for r in read_records(good)] == [("multi\nline", 2), ('x "y" z', 4)]
    stray = tmp_path / "stray.csv"
    stray.write_text('id,text\n1,"a"b\n2,ok\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"stray.csv:2: malformed CSV"):
        list(read_records(stray))
    assert [(r.line, r.error) for r in read_records(stray, on_bad_line="keep")] == [(2, "malformed_csv"), (3, None)]


def test_unterminated_quote_is_counted_as_a_reject_by_augment(tmp_path):
    p = tmp_path / "c.csv"
    p.write_text('id,text\n1,"a b c\n2,d e f\n3,g h i\n', encoding="utf-8")
    cfg = _config(tmp_path, methods=["identity"])
    cfg.corpus.on_bad_line = "keep"
    m = run_augment(p, tmp_path / "ds", cfg)
    assert m.source.dropped == {"unterminated_quote": 1} and m.stats.pairs == 2


# -- 7: --resume silently starts over -----------------------------------------------------------------------------
def test_resume_with_a_broken_latest_checkpoint_stops_or_falls_back_when_asked(tiny_bert_dir, tmp_path, caplog):
    from tests.training.test_trainer_utils import tiny_config, write_dataset

    from bsl_pipeline.training.trainer import train

    data = write_dataset(tmp_path / "data", 32)
    out = tmp_path / "run"

    def run(*overrides):
        return train(tiny_config(tiny_bert_dir, [data], out, overrides=["train.save_every=2", *overrides]),
                     disable_progress=True)

    run("train.stop_at_step=4")
    step2, step4 = out / "checkpoints" / "step-00000002", out / "checkpoints" / "step-00000004"
    (step4 / "trainer_state.pt").unlink()
    with pytest.raises(BSLError, match=r"step-00000004.*trainer_state\.pt.*train\.resume_fallback=true"):
        run("train.resume=auto")
    with caplog.at_level(logging.WARNING):
        resumed = run("train.resume=auto", "train.resume_fallback=true", "train.max_steps=6")
    assert resumed.metrics["resumed_from"] == step2 and resumed.step == 6
    assert "step-00000004" in caplog.text and "falling back" in caplog.text

    only = tmp_path / "only"
    train(tiny_config(tiny_bert_dir, [data], only, overrides=["train.save_every=2", "train.stop_at_step=2"]),
          disable_progress=True)
    (only / "checkpoints" / "step-00000002" / "trainer_state.pt").write_bytes(b"not a zip")
    for fallback in ("false", "true"):
        with pytest.raises(BSLError, match="step-00000002"):
            train(tiny_config(tiny_bert_dir, [data], only, overrides=[
                "train.resume=auto", f"train.resume_fallback={fallback}"]), disable_progress=True)
    with pytest.raises(BSLError, match="already holds checkpoints"):
        train(tiny_config(tiny_bert_dir, [data], only), disable_progress=True)


# -- 8: JSONL non-string values and deep nesting ------------------------------------------------------------------
@pytest.mark.parametrize("value", ["5", "1.5", "true", '["a b"]', '{"a": "b"}'])
def test_jsonl_non_string_values_are_bad_lines(tmp_path, value):
    p = tmp_path / "c.jsonl"
    p.write_text('{"text": "fine words"}\n{"text": ' + value + '}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"c.jsonl:2: field 'text' is a JSON \w+, not a string"):
        list(read_records(p))
    kept = list(read_records(p, on_bad_line="keep"))
    assert [(r.line, r.error) for r in kept] == [(1, None), (2, "not_a_string")]
    nli = tmp_path / "nli.jsonl"
    nli.write_text('{"sentence1": "a b", "sentence2": ' + value + ', "gold_label": "neutral"}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"nli.jsonl:1: field 'sentence2' is a JSON \w+, not a string"):
        list(read_records(nli))


def test_deeply_nested_jsonl_is_a_bad_line_without_a_traceback(tmp_path):
    p = tmp_path / "deep.jsonl"
    p.write_text('{"text": "ok words"}\n{"text": ' + "[" * 100_000 + "]" * 100_000 + "}\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"deep.jsonl:2: .*nested too deeply"):
        list(read_records(p))
    assert [r.error for r in read_records(p, on_bad_line="keep")] == [None, "invalid_json"]
    _one_line_error(_bsl("augment", str(p), "--out", str(tmp_path / "ds"), "-o", "registry_dir="),
                    "deep.jsonl:2:")


# -- 9: out-of-range values ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("overrides, message", [
    (["corpus.limit=-1"], "corpus.limit: -1 is out of range (>= 0)"),
    (["corpus.chunk_size=0"], "corpus.chunk_size: 0 is out of range ([1, 1000000])"),
    (["corpus.chunk_size=-5"], "corpus.chunk_size: -5 is out of range ([1, 1000000])"),
    (["corpus.min_words=-3"], "corpus.min_words: -3 is out of range (>= 0)"),
    (["corpus.min_words=9", "corpus.max_words=3"], "corpus.min_words (9) must be <= corpus.max_words (3)"),
    (["filters.min_length_ratio=5", "filters.max_length_ratio=1"],
     "filters.min_length_ratio (5.0) must be <= filters.max_length_ratio (1.0)"),
    (["filters.max_length_ratio=-1"], "filters.max_length_ratio: -1.0 is out of range (>= 0)"),
    (["method_filters.noise.min_length_ratio=3"],
     "method_filters.noise.min_length_ratio (3.0) must be <= method_filters.noise.max_length_ratio (2.0)"),
    (["seed=-1"], "seed: -1 is out of range ([0, 9223372036854775807])"),
])
def test_augment_settings_out_of_range_are_refused(overrides, message):
    from bsl_pipeline.pipeline.augment.job import build_augmenters, filters_for

    with pytest.raises(ConfigError) as exc:
        config = load_config(AugmentConfig, None, ["methods=[noise]", *overrides])
        for augmenter in build_augmenters(config).values():
            filters_for(config, augmenter)
    assert message in str(exc.value)


@pytest.mark.parametrize("value", ["-1", "7"])
def test_method_params_out_of_range_are_refused_by_the_command(tmp_path, value):
    corpus = tmp_path / "c.txt"
    corpus.write_text("one two three\n", encoding="utf-8")
    _one_line_error(_bsl("augment", str(corpus), "--out", str(tmp_path / "ds"), "--methods", "noise",
                         "-o", f"method_params.noise.fraction={value}", "-o", "registry_dir="),
                    f"method_params.noise.fraction: {float(value)} is out of range ([0, 1])")


@pytest.mark.parametrize("override, message", [
    ("train.save_every=-1", "train.save_every: -1 is out of range (>= 0)"),
    ("optim.lr=0", "optim.lr: 0.0 is out of range (> 0)"),
    ("objective.bsl.momentum=2", "objective.bsl.momentum: 2.0 is out of range ([0, 1])"),
    ("data.shuffle_buffer=0", "data.shuffle_buffer: 0 is out of range ([1, 100000000])"),
])
def test_train_settings_out_of_range_are_refused(override, message):
    from bsl_pipeline.training.config import TrainConfig

    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")
                       .replace(".", r"\.")):
        load_config(TrainConfig, None, [override])


def _config_classes() -> list[type]:
    from bsl_pipeline.pipeline.augment.augmenters import REGISTRY, augmenter_class
    from bsl_pipeline.training.config import TrainConfig
    from bsl_pipeline.evaluation.config import EvaluationConfig

    roots = [AugmentConfig, TrainConfig, EvaluationConfig]
    for name in REGISTRY:
        try:
            roots.append(augmenter_class(name).config_class)
        except (BSLError, ImportError):
            pass
    seen: list[type] = []
    while roots:
        cls = roots.pop()
        if cls in seen:
            continue
        seen.append(cls)
        for tp in typing.get_type_hints(cls).values():
            for candidate in (tp, *typing.get_args(tp)):
                if dataclasses.is_dataclass(candidate):
                    roots.append(candidate)
    return seen


def test_every_numeric_setting_declares_its_range_and_its_default_is_inside():
    missing, outside = [], []
    for cls in _config_classes():
        hints = typing.get_type_hints(cls)
        defaults = cls()
        for f in dataclasses.fields(cls):
            kinds = {hints[f.name], *typing.get_args(hints[f.name])}
            if kinds & {int, float} and "range" not in f.metadata:
                missing.append(f"{cls.__name__}.{f.name}")
            value = getattr(defaults, f.name)
            for v in value if isinstance(value, list) else [value]:
                if "range" in f.metadata and isinstance(v, (int, float)) and not f.metadata["range"].contains(v):
                    outside.append(f"{cls.__name__}.{f.name}={v}")
    assert len(_config_classes()) >= 20 and missing == [] and outside == []


# -- 10: tracebacks for a missing CUDA device and malformed manifests ---------------------------------------------
cuda_missing = pytest.mark.skipif(
    __import__("torch").cuda.is_available(), reason="needs a machine without CUDA")


@cuda_missing
def test_missing_cuda_device_is_one_line(tiny_bert_dir, tmp_path, shared_data):
    from bsl_pipeline.pipeline.base.devices import resolve_device

    with pytest.raises(BSLError, match="CUDA is not available"):
        resolve_device("cuda")
    with pytest.raises(BSLError, match="not a valid device"):
        resolve_device("gpu0")
    from tests.training.test_trainer_utils import write_dataset

    data = write_dataset(tmp_path / "data", 16)
    _one_line_error(_bsl("train", "--manifest", str(data), "-o", f"model.name_or_path={tiny_bert_dir}",
                         "-o", f"train.output_dir={tmp_path / 'run'}", "-o", "train.device=cuda"),
                    "CUDA is not available")
    _one_line_error(_bsl("evaluate", str(tiny_bert_dir), "--data-dir", str(shared_data), "--tasks", "stsb",
                         "--device", "cuda", "--no-cache"), "CUDA is not available")


@pytest.mark.parametrize("edit, message", [
    (lambda m: m["shards"][0].update(path=None), "shards[0].path"),
    (lambda m: m["shards"][0].pop("sha256"), "shards[0].sha256"),
    (lambda m: m["shards"][0].update(rows="many"), "shards[0].rows"),
    (lambda m: m["shards"][0].update(kind="secret"), "shards[0].kind"),
    (lambda m: m.update(shards={"a": 1}), "shards"),
    (lambda m: m["shards"].__setitem__(0, "data/x.parquet"), "shards[0]"),
    (lambda m: m.pop("name"), "name"),
    (lambda m: m["stats"]["per_method"]["noise"].update(pairs=-1), "stats.per_method.noise.pairs"),
    (lambda m: m["source"].pop("records_read"), "source.records_read"),
    (lambda m: m["chunks"][0].update(rows="3"), "chunks[0].rows"),
])
def test_malformed_manifest_is_one_line(tmp_path, edit, message):
    ds = _build(tmp_path)
    _rewrite_manifest(ds, edit)
    with pytest.raises(InputError, match="manifest.json"):
        load_manifest(ds)
    _one_line_error(_bsl("verify", str(ds), "-q"), "manifest.json", message)
    _one_line_error(_bsl("inspect", str(ds)), "manifest.json", message)


def test_manifest_without_stats_is_one_line_for_inspect(tmp_path):
    ds = _build(tmp_path)
    stats = json.loads((ds / "manifest.json").read_text(encoding="utf-8"))["stats"]
    _rewrite_manifest(ds, lambda m: m.pop("stats"))
    assert _bsl("verify", str(ds), "-q").returncode == 0  # verify needs no stats
    _one_line_error(_bsl("inspect", str(ds), "--stats"), "manifest.json", "stats")
    _rewrite_manifest(ds, lambda m: m.update(stats={**stats, "per_method": {"noise": {"pairs": 1}}}))
    _one_line_error(_bsl("inspect", str(ds), "--stats"), "stats.per_method.noise.rejected is missing")


# -- 12: gzip corpus, FIFO, form feed -----------------------------------------------------------------------------
def test_gzip_corpus_is_read(tmp_path):
    text = tmp_path / "c.txt.gz"
    text.write_bytes(gzip.compress("first line here\nsecond line here\n".encode()))
    assert detect_format(text) == "text"
    assert [(r.text, r.line) for r in read_records(text)] == [("first line here", 1), ("second line here", 2)]
    jsonl = tmp_path / "c.jsonl.gz"
    jsonl.write_bytes(gzip.compress(b'{"text": "a b c"}\n'))
    assert detect_format(jsonl) == "jsonl" and [r.text for r in read_records(jsonl)] == ["a b c"]
    truncated = tmp_path / "t.txt.gz"
    whole = gzip.compress("".join(f"line {i} of a longer file\n" for i in range(5000)).encode())
    truncated.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(InputError, match=r"t.txt.gz.*(gzip|compressed)"):
        list(read_records(truncated))
    zstd = tmp_path / "c.txt.zst"
    zstd.write_bytes(b"\x28\xb5\x2f\xfd" + b"\x00" * 16)
    with pytest.raises(InputError, match="zstd.*unsupported"):
        list(read_records(zstd))


def test_fifo_is_reported_as_a_fifo(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="FIFO"):
        corpus_files(fifo)


@pytest.mark.parametrize("space", ["\x0c", "\x0b", "\x1c", "\x1f", "\x85", "\u2028", "\u3000", "\u00a0"])
def test_unicode_whitespace_separates_words(tmp_path, space):
    from bsl_pipeline.pipeline.base.text import count_words, normalize

    assert normalize(f"one{space}two") == "one two" and count_words(f"one{space}two") == 2
    p = tmp_path / "c.txt"
    p.write_bytes(f"alpha{space}beta gamma\n".encode())
    from bsl_pipeline.pipeline.corpus.chunks import CorpusConfig, iter_chunks

    (chunk,) = iter_chunks(p, CorpusConfig())
    assert [r.text for r in chunk.records] == ["alpha beta gamma"]


# -- optional: a keyed (HMAC) manifest signature ------------------------------------------------------------------
def test_hmac_signed_manifest_detects_a_recomputed_checksum(tmp_path, monkeypatch):
    from bsl_pipeline.pipeline.dataset.manifest import manifest_checksum

    monkeypatch.setenv("BSL_MANIFEST_KEY", "shared secret")
    ds = _build(tmp_path)
    assert load_manifest(ds).signature
    verify_dataset(ds)
    # Someone without the key edits a shard and recomputes its sha256 and the plain checksum.
    shard = _first_pairs_shard(ds)
    _tamper_in_place(shard)
    manifest = json.loads((ds / "manifest.json").read_text(encoding="utf-8"))
    manifest["shards"][0]["sha256"] = sha256_file(shard)
    manifest["checksum"] = manifest_checksum(manifest)
    (ds / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(VerificationError, match="signature does not match"):
        verify_dataset(ds)
    monkeypatch.delenv("BSL_MANIFEST_KEY")
    verify_dataset(ds)  # without the key only the plain checksum can be checked, and it matches
    unsigned = _build(tmp_path, "unsigned")
    assert load_manifest(unsigned).signature is None
    monkeypatch.setenv("BSL_MANIFEST_KEY", "shared secret")
    with pytest.raises(VerificationError, match="not signed"):
        verify_dataset(unsigned)


@pytest.mark.parametrize("encoder_entry", ["../outside", "/etc", "link"])
def test_checkpoint_encoder_dir_must_stay_inside_the_checkpoint(tmp_path, tiny_bert_dir, encoder_entry):
    import json
    import shutil

    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.evaluation.encoders import load_encoder

    shutil.copytree(tiny_bert_dir, tmp_path / "outside")
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    (ckpt / "link").symlink_to(tmp_path / "outside")
    (ckpt / "bsl_checkpoint.json").write_text(json.dumps({"pooling": "mean", "encoder": encoder_entry}))
    with pytest.raises(BSLError, match="outside"):
        load_encoder(ckpt, device="cpu")
