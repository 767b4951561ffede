"""Issue 21, training side: a run writes only where it may (marker, --overwrite sets aside), one run per output dir
(writer lock), a run never trains on a dataset changed under it, memory-bound settings have upper bounds, and
damaged checkpoints / safetensors stop with one line naming the file."""

from __future__ import annotations

import json
import os
import shutil
import stat
import struct
from pathlib import Path

import pytest
import torch
from tests.training.test_trainer_utils import tiny_config, write_dataset

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.ownership import MARKER_NAME, REPLACED_DIR, LockedError, OwnershipError


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    return write_dataset(tmp_path_factory.mktemp("safety_data") / "ds", 32, method="noise", seed=0)


def _config(tiny_bert_dir, data, out, extra=()):
    return tiny_config(tiny_bert_dir, [data], out, overrides=["train.max_steps=2", *extra])


def _train(tiny_bert_dir, data, out, extra=()):
    from bsl_pipeline.training.trainer import train

    return train(_config(tiny_bert_dir, data, out, extra), disable_progress=True)


# -- Medium 6: one run per output dir --------------------------------------------------------------------------------
def test_second_run_into_a_locked_output_dir_is_refused(tiny_bert_dir, dataset, tmp_path):
    from bsl_pipeline.training.trainer import Trainer

    out = tmp_path / "run"
    first = Trainer(_config(tiny_bert_dir, dataset, out), disable_progress=True)
    try:
        assert (out / ".bsl-lock").is_file()
        with pytest.raises(LockedError, match=r"training run\) is being written by pid \d+"):
            Trainer(_config(tiny_bert_dir, dataset, out, ["train.resume=auto"]), disable_progress=True)
        first.fit()
    finally:
        first.close()
    assert not (out / ".bsl-lock").exists()
    # Released at the end: the same dir can be continued now.
    again = _train(tiny_bert_dir, dataset, out, ["train.resume=auto", "train.max_steps=3"])
    assert again.step == 3


def test_a_stale_lock_of_a_dead_process_is_taken_over(tiny_bert_dir, dataset, tmp_path):
    import socket

    out = tmp_path / "run"
    out.mkdir()
    (out / ".bsl-lock").write_text(json.dumps({"pid": 2**22 + 12345, "host": socket.gethostname()}))
    assert _train(tiny_bert_dir, dataset, out).completed


# -- Medium 9: a directory with user files ---------------------------------------------------------------------------
def test_output_dir_with_user_files_is_refused_and_overwrite_sets_them_aside(tiny_bert_dir, dataset, tmp_path):
    out = tmp_path / "mine"
    (out / "export").mkdir(parents=True)
    (out / "export" / "notes.txt").write_text("mine")
    (out / "config.yaml").write_text("my: config\n")
    (out / "metrics.csv").write_text("a,b\n1,2\n")
    (out / "README.md").write_text("keep me")
    with pytest.raises(OwnershipError, match=r"not empty and was not created by bsl .*--overwrite"):
        _train(tiny_bert_dir, dataset, out)
    assert (out / "config.yaml").read_text() == "my: config\n"  # untouched
    assert (out / "export" / "notes.txt").read_text() == "mine"

    result = _train(tiny_bert_dir, dataset, out, ["train.overwrite=true", "export.enabled=true"])
    assert result.completed and (out / "export" / "modules.json").is_file()
    aside = list((out / REPLACED_DIR).iterdir())
    assert len(aside) == 1
    assert (aside[0] / "config.yaml").read_text() == "my: config\n"
    assert (aside[0] / "metrics.csv").read_text() == "a,b\n1,2\n"
    assert (aside[0] / "export" / "notes.txt").read_text() == "mine"
    assert (out / "README.md").read_text() == "keep me"  # not ours to replace: left where it was
    assert json.loads((out / MARKER_NAME).read_text())["kind"] == "training-run"


def test_runs_from_before_markers_are_recognised_and_other_kinds_refused(tiny_bert_dir, dataset, tmp_path):
    out = tmp_path / "old"
    _train(tiny_bert_dir, dataset, out)
    (out / MARKER_NAME).unlink()  # a run written before markers existed
    assert _train(tiny_bert_dir, dataset, out, ["train.resume=auto", "train.max_steps=3"]).step == 3
    assert (out / MARKER_NAME).is_file()
    with pytest.raises(OwnershipError, match="overlap"):
        _train(tiny_bert_dir, dataset, dataset / "run")


def test_export_dir_outside_the_run_is_not_replaced_unless_ours(tiny_bert_dir, dataset, tmp_path):
    export = tmp_path / "models" / "mine"
    export.mkdir(parents=True)
    (export / "weights.bin").write_text("user model")
    with pytest.raises(OwnershipError, match="export.dir .* is not a bsl export"):
        _train(tiny_bert_dir, dataset, tmp_path / "run", ["export.enabled=true", f"export.dir={export}"])
    assert (export / "weights.bin").read_text() == "user model"
    assert not (tmp_path / "run" / "final").exists()  # refused at set-up, not after training
    _train(tiny_bert_dir, dataset, tmp_path / "run2", ["export.enabled=true", f"export.dir={export}", "train.overwrite=true"])
    assert (export / "modules.json").is_file()
    kept = list((export.parent / REPLACED_DIR).glob("*/mine/weights.bin"))
    assert [p.read_text() for p in kept] == ["user model"]
    # run2's now: run2 continued replaces it without --overwrite; another run is refused (tests/training/test_export_dir.py)
    _train(tiny_bert_dir, dataset, tmp_path / "run2", ["export.enabled=true", f"export.dir={export}",
                                                       "train.resume=auto", "train.max_steps=3"])
    assert len(list((export.parent / REPLACED_DIR).iterdir())) == 1  # nothing more set aside
    with pytest.raises(OwnershipError, match="export.dir .* holds the export of another run"):
        _train(tiny_bert_dir, dataset, tmp_path / "run3", ["export.enabled=true", f"export.dir={export}"])


def test_an_export_dir_taken_during_the_run_is_still_refused_at_the_end(tiny_bert_dir, dataset, tmp_path):
    from bsl_pipeline.training.trainer import Trainer

    export = tmp_path / "models" / "later"
    trainer = Trainer(_config(tiny_bert_dir, dataset, tmp_path / "run", ["export.enabled=true", f"export.dir={export}"]),
                      disable_progress=True)
    try:
        export.mkdir(parents=True)
        (export / "keep.txt").write_text("hi")
        with pytest.raises(OwnershipError, match="export.dir .* is not a bsl export"):
            trainer.fit()
    finally:
        trainer.close()
    assert (export / "keep.txt").read_text() == "hi"


def test_export_source_best_without_an_evaluation_is_refused_before_training(tiny_bert_dir, dataset, tmp_path):
    with pytest.raises(BSLError, match="export.source=best but this run writes no best checkpoint"):
        _train(tiny_bert_dir, dataset, tmp_path / "run", ["export.enabled=true", "export.source=best"])
    assert not (tmp_path / "run").exists()


# -- Medium 7: a dataset re-augmented while a run reads it -----------------------------------------------------------
def _republish(src: Path, seed: int) -> None:
    """What a re-augmentation does to a dataset dir: new shards and manifest swapped in."""
    fresh = write_dataset(src.parent / f"fresh-{seed}", 32, method="noise", seed=seed)
    for name in ("data", "manifest.json"):
        target = src / name
        shutil.rmtree(target) if target.is_dir() else target.unlink()
        os.replace(fresh / name, target)


def test_a_dataset_changed_during_a_run_stops_it_naming_the_dataset(tiny_bert_dir, tmp_path):
    from bsl_pipeline.training.data import DatasetChangedError
    from bsl_pipeline.training.trainer import Trainer

    data = write_dataset(tmp_path / "ds", 32, method="noise", seed=0)
    trainer = Trainer(_config(tiny_bert_dir, data, tmp_path / "run", ["train.max_steps=10", "data.workers=0",
                                                                        "data.shuffle=false"]),
                      disable_progress=True)
    try:
        trainer.train_step()  # the first shard is open and read
        _republish(data, seed=5)
        with pytest.raises(DatasetChangedError, match=rf"dataset \S+ \({data}\) changed while this run read it"):
            for _ in range(10):
                trainer.train_step()
    finally:
        trainer.close()


def test_a_shard_swapped_under_an_unchanged_manifest_is_never_mixed_in(tiny_bert_dir, tmp_path):
    from bsl_pipeline.training.data import DatasetChangedError, PairStream, resolve_sources
    from bsl_pipeline.training.config import DataConfig, DataSourceConfig

    data = write_dataset(tmp_path / "ds", 32, method="noise", seed=0)
    other = write_dataset(tmp_path / "other", 32, method="noise", seed=9)
    sources = resolve_sources(DataConfig(sources=[DataSourceConfig(path=str(data))]))
    stream = PairStream(sources, seed=0, shuffle=False)
    first_shard = sorted((data / "data").iterdir())[0]
    second_shard = sorted((data / "data").iterdir())[1]
    stream.next_pair()
    shutil.copyfile(sorted((other / "data").iterdir())[1], second_shard)  # a writer mid-publish
    with pytest.raises(DatasetChangedError, match=r"shard data/\S+ has sha256 \w{12}\.\.\., not the manifest's "
                                                  r"\w{12}\.\.\.: it was damaged, or a writer is changing"):
        stream.next_batch(32)
    assert first_shard.is_file()


@pytest.mark.parametrize("damage", ["rewritten", "fifo"])
def test_a_shard_damaged_before_an_unverified_run_is_not_blamed_on_a_writer(tiny_bert_dir, tmp_path, damage):
    """With data.verify=false a shard damaged beforehand was reported as "changed while this run read it ... wait
    for the writer to finish", with nothing writing: the line now says what is known (the shard does not match the
    manifest: damaged, or a writer is changing it) and advises `bsl verify`; a FIFO there is never read."""
    from bsl_pipeline.training.data import DatasetChangedError, PairStream, resolve_sources
    from bsl_pipeline.training.config import DataConfig, DataSourceConfig

    data = write_dataset(tmp_path / "ds", 32, method="noise", seed=0)
    shard = sorted((data / "data").iterdir())[0]
    if damage == "fifo":
        shard.unlink()
        os.mkfifo(shard)
        what = "is a FIFO, not a plain file"
    else:
        shutil.copyfile(sorted((write_dataset(tmp_path / "other", 32, method="noise", seed=9) / "data").iterdir())[0],
                        shard)
        what = "has sha256 "
    sources = resolve_sources(DataConfig(sources=[DataSourceConfig(path=str(data))], verify=False))
    stream = PairStream(sources, seed=0, shuffle=False)
    with pytest.raises(DatasetChangedError) as exc:
        stream.next_batch(32)
    message = str(exc.value)
    assert message.startswith(f"dataset {sources[0].name} ({data}): shard data/{shard.name} {what}"), message
    assert message.endswith(f": it was damaged, or a writer is changing the dataset; run `bsl verify {data}` (once a "
                            f"writer, if any, has finished)"), message
    assert "while this run read it" not in message


def test_resume_refuses_a_dataset_changed_since_the_checkpoint(tiny_bert_dir, tmp_path):
    data = write_dataset(tmp_path / "ds", 32, method="noise", seed=0)
    out = tmp_path / "run"
    _train(tiny_bert_dir, data, out, ["train.stop_at_step=1", "train.max_steps=4"])
    info = json.loads((out / "checkpoints" / "step-00000001" / "bsl_checkpoint.json").read_text())
    assert len(info["data"]["sources"][0]["shards_digest"]) == 64
    _republish(data, seed=3)
    with pytest.raises(BSLError, match=r"training datasets changed since the checkpoint \(\S+: manifest checksum"):
        _train(tiny_bert_dir, data, out, ["train.resume=auto", "train.max_steps=4"])


# -- Medium 11: memory-bound settings have upper bounds --------------------------------------------------------------
@pytest.mark.parametrize("key", ["train.batch_size", "model.max_length", "optim.grad_accum_steps", "data.workers",
                                 "data.prefetch_batches", "data.shuffle_buffer", "data.read_batch_size",
                                 "eval.batch_size", "eval.max_tokens", "model.length_buckets"])
def test_memory_bound_training_settings_have_an_upper_bound(key):
    from bsl_pipeline.pipeline.base.config import ConfigError, load_config
    from bsl_pipeline.training.config import TrainConfig

    value = "[100000000000]" if key == "model.length_buckets" else "100000000000"
    with pytest.raises(ConfigError, match=rf"{key}: .*out of range"):
        load_config(TrainConfig, None, [f"{key}={value}"])


@pytest.mark.parametrize("cls_path,key", [
    ("bsl_pipeline.pipeline.augment.job:AugmentConfig", "batch_size"),
    ("bsl_pipeline.pipeline.augment.job:AugmentConfig", "corpus.chunk_size"),
    ("bsl_pipeline.pipeline.augment.job:AugmentConfig", "corpus.max_chars"),
    ("bsl_pipeline.pipeline.augment.augmenters.mlm:MLMConfig", "batch_size"),
    ("bsl_pipeline.pipeline.augment.augmenters.mlm:MLMConfig", "max_tokens"),
    ("bsl_pipeline.evaluation.config:EvaluationConfig", "batch_size"),
])
def test_memory_bound_augment_and_eval_settings_have_an_upper_bound(cls_path, key):
    import importlib

    from bsl_pipeline.pipeline.base.config import ConfigError, load_config

    module, name = cls_path.split(":")
    cls = getattr(importlib.import_module(module), name)
    with pytest.raises(ConfigError, match=rf"{key}: .*out of range"):
        load_config(cls, None, [f"{key}=100000000000"])


# -- Low: --resume with nothing to resume ----------------------------------------------------------------------------
def test_cli_resume_without_a_checkpoint_is_refused_in_one_line(tiny_bert_dir, dataset, tmp_path, capsys):
    from bsl_pipeline.cli.cli import main

    out = tmp_path / "empty"
    args = ["train", "--manifest", str(dataset), "--output-dir", str(out), "--resume", "-q",
            "-o", f"model.name_or_path={tiny_bert_dir}", "-o", "train.max_steps=1", "-o", "train.batch_size=8",
            "-o", "objective.bsl.predictor_warmup_steps=0"]
    assert main(args) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "holds no checkpoint to continue from" in err[0]
    assert main(args + ["-o", "train.resume_fallback=true"]) == 0


def test_library_resume_auto_without_a_checkpoint_warns(tiny_bert_dir, dataset, tmp_path, caplog):
    with caplog.at_level("WARNING", logger="bsl_pipeline.training.checkpoint"):
        assert _train(tiny_bert_dir, dataset, tmp_path / "run", ["train.resume=auto"]).step == 2
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == [
        f"train.resume=auto: no checkpoint in {tmp_path / 'run'}, starting from step 0"]


def test_cli_resume_auto_without_a_checkpoint_prints_the_warning(tiny_bert_dir, dataset, tmp_path):
    """docs/guide/training.md: resume=auto with nothing to resume starts at step 0 with a warning the user sees."""
    import subprocess
    import sys

    out = tmp_path / "fresh"
    proc = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "train", "--manifest", str(dataset),
                           "--output-dir", str(out), "--no-progress", "-o", f"model.name_or_path={tiny_bert_dir}",
                           "-o", "train.max_steps=1", "-o", "train.batch_size=8",
                           "-o", "objective.bsl.predictor_warmup_steps=0", "-o", "train.resume=auto"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert f"train.resume=auto: no checkpoint in {out}, starting from step 0" in proc.stderr


# -- Low: damaged checkpoints ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("damage,message", [
    ("missing", r"tensor \S+ missing"),
    ("nan", r"tensor \S+ holds NaN or inf values"),
    ("int", r"tensor \S+ is torch.int64, the model's is torch.float32"),
])
def test_resume_refuses_a_checkpoint_with_missing_nan_or_int_tensors(tiny_bert_dir, dataset, tmp_path, damage,
                                                                     message):
    out = tmp_path / "run"
    _train(tiny_bert_dir, dataset, out, ["train.stop_at_step=1", "train.max_steps=3"])
    state_file = out / "checkpoints" / "step-00000001" / "trainer_state.pt"
    state = torch.load(state_file, weights_only=True)
    objective = state["objective"]
    name = next(k for k, v in objective.items() if v.is_floating_point() and v.dim() == 2)
    if damage == "missing":
        del objective[name]
    elif damage == "nan":
        objective[name] = objective[name].clone().fill_(float("nan"))
    else:
        objective[name] = objective[name].long()
    torch.save(state, state_file)
    with pytest.raises(BSLError, match=rf"{state_file}: cannot resume: {message}"):
        _train(tiny_bert_dir, dataset, out, ["train.resume=auto", "train.max_steps=3"])


def test_a_start_model_with_nan_weights_is_refused(tiny_bert_dir, dataset, tmp_path):
    from safetensors.torch import load_file, save_file

    model = tmp_path / "nan_model"
    shutil.copytree(tiny_bert_dir, model)
    weights = load_file(model / "model.safetensors")
    name = next(k for k in weights if k.endswith("query.weight"))
    weights[name] = weights[name].clone().fill_(float("nan"))
    save_file(weights, model / "model.safetensors", metadata={"format": "pt"})
    with pytest.raises(BSLError, match=r"model.name_or_path=\S+: parameter \S+query.weight holds NaN"):
        _train(model, dataset, tmp_path / "run")


# -- Low: malformed safetensors --------------------------------------------------------------------------------------
def _rewrite(path: Path, header: dict | None = None, *, header_len: int | None = None, cut: int = 0) -> None:
    raw = path.read_bytes()
    n = struct.unpack("<Q", raw[:8])[0]
    old_header, body = json.loads(raw[8:8 + n]), raw[8 + n:]
    text = json.dumps(header if header is not None else old_header).encode()
    out = struct.pack("<Q", header_len if header_len is not None else len(text)) + text + body
    path.write_bytes(out[:len(out) - cut] if cut else out)


def _first_tensor(header: dict) -> str:
    return next(k for k in header if k != "__metadata__")


def _header(path: Path) -> dict:
    raw = path.read_bytes()
    return json.loads(raw[8:8 + struct.unpack("<Q", raw[:8])[0]])


@pytest.mark.parametrize("damage,message", [
    ("oversized_header", r"header length \d+ exceeds the file"),
    ("bad_offsets", r"data_offsets .* outside the \d+-byte data section"),
    ("truncated", r"(outside the|tensor data ends at byte)"),
    ("wrong_shape", r"needs \d+ bytes, its offsets give \d+"),
    ("int_weight", r"dtype I32, weights must be floating point"),
    ("overlapping", r"data starts at byte \d+, the tensor before it ends at \d+"),
])
def test_malformed_safetensors_stop_in_one_line(tiny_bert_dir, dataset, tmp_path, damage, message, capsys):
    from bsl_pipeline.cli.cli import main
    from bsl_pipeline.evaluation.encoders import load_encoder

    model = tmp_path / "model"
    shutil.copytree(tiny_bert_dir, model)
    weights = model / "model.safetensors"
    header = _header(weights)
    name = _first_tensor(header)
    if damage == "oversized_header":
        _rewrite(weights, header_len=2**62)
    elif damage == "bad_offsets":
        header[name]["data_offsets"] = [0, 10**12]
        _rewrite(weights, header)
    elif damage == "truncated":
        _rewrite(weights, cut=100)
    elif damage == "wrong_shape":
        header[name]["shape"] = [d + 1 for d in header[name]["shape"]]
        _rewrite(weights, header)
    elif damage == "overlapping":  # two tensors read the same bytes (and a gap where one of them was)
        bias = next(k for k in header if k.endswith("LayerNorm.bias"))
        header[bias]["data_offsets"] = header[bias.replace(".bias", ".weight")]["data_offsets"]
        _rewrite(weights, header)
    else:
        weight = next(k for k, v in header.items() if k.endswith(".weight") and v.get("dtype") == "F32")
        header[weight]["dtype"] = "I32"
        _rewrite(weights, header)
    with pytest.raises(BSLError, match=rf"{weights}: not a usable safetensors file: .*{message}"):
        load_encoder(str(model), device="cpu")
    code = main(["train", "--manifest", str(dataset), "--output-dir", str(tmp_path / "run"), "-q",
                 "-o", f"model.name_or_path={model}", "-o", "train.max_steps=1", "-o", "train.batch_size=8",
                 "-o", "objective.bsl.predictor_warmup_steps=0"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1 and "not a usable safetensors file" in err[0]


# -- Low: file modes -------------------------------------------------------------------------------------------------
def test_checkpoint_files_get_the_mode_of_ordinary_files(tiny_bert_dir, dataset, tmp_path):
    old = os.umask(0o022)
    try:
        out = tmp_path / "run"
        _train(tiny_bert_dir, dataset, out, ["export.enabled=true"])
    finally:
        os.umask(old)
    files = [p for d in ("final", "export") for p in (out / d).rglob("*") if p.is_file()]
    files += [out / "config.yaml", out / MARKER_NAME]
    modes = {p.relative_to(out).as_posix(): stat.S_IMODE(p.stat().st_mode) for p in files}
    assert {k: v for k, v in modes.items() if v != 0o644} == {}
    dirs = {stat.S_IMODE(p.stat().st_mode) for p in [out / "final", out / "final" / "encoder", out / "export"]}
    assert dirs == {0o755}



def _sentence_transformers_files(folder: Path, max_seq_length: int) -> None:
    """The files that make `folder` a sentence-transformers directory: the Transformer in the folder itself (reading
    `max_seq_length` tokens), then mean pooling."""
    (folder / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": max_seq_length,
                                                                  "do_lower_case": False}))
    (folder / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}]))
    (folder / "1_Pooling").mkdir()
    (folder / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode_mean_tokens": True}))


def test_the_export_reads_what_the_starting_model_read_not_the_training_truncation(tmp_path):
    """Training may truncate at model.max_length (the demo: 48) while the model reads more (all-MiniLM-L6-v2: 256):
    the export keeps the starting model's reading length, so its record and the evaluation (which reads both models
    at the same length) agree; export.max_length sets it explicitly."""
    from bsl_pipeline.training.export import reading_length

    st_dir = tmp_path / "st-model"
    st_dir.mkdir()
    _sentence_transformers_files(st_dir, 256)
    assert reading_length(str(st_dir), None, 48) == 256
    assert reading_length(str(st_dir), 64, 48) == 64
    assert reading_length(str(tmp_path / "plain-hf-dir"), None, 48) == 48
    assert reading_length("sentence-transformers/all-MiniLM-L6-v2", None, 48) == 48  # a hub id: no file to read
    (st_dir / "sentence_bert_config.json").write_text("{not json")
    assert reading_length(str(st_dir), None, 48) == 48


def test_a_run_from_a_sentence_transformers_dir_exports_its_reading_length(tiny_bert_dir, dataset, tmp_path):
    import shutil

    base = tmp_path / "st-base"
    shutil.copytree(tiny_bert_dir, base)
    _sentence_transformers_files(base, 24)
    out = tmp_path / "run"
    result = _train(base, dataset, out, ["export.enabled=true", "model.max_length=8"])
    assert result.completed
    exported = json.loads((out / "export" / "sentence_bert_config.json").read_text())
    assert exported["max_seq_length"] == 24  # what the model read, not the training truncation (8)
    assert "at most 24 tokens" in (out / "export" / "README.md").read_text()
    _train(base, dataset, tmp_path / "run2", ["export.enabled=true", "model.max_length=8", "export.max_length=16"])
    assert json.loads((tmp_path / "run2" / "export" / "sentence_bert_config.json").read_text())["max_seq_length"] == 16


# -- disk: the online encoder stored once per checkpoint; a completed run drops its periodic checkpoints ------------
def test_a_checkpoint_stores_the_online_encoder_once_and_resume_reads_it_back(tiny_bert_dir, dataset, tmp_path):
    from safetensors.torch import load_file, save_file

    from bsl_pipeline.training.checkpoint_files import checkpoint_problem, load_objective_state

    out = tmp_path / "run"
    first = _train(tiny_bert_dir, dataset, out, ["train.stop_at_step=1", "train.max_steps=3"])
    ckpt = first.final_checkpoint
    state = torch.load(ckpt / "trainer_state.pt", weights_only=True)
    weights = load_file(ckpt / "encoder" / "model.safetensors")
    # Not one online-encoder tensor is in trainer_state.pt; the EMA target (other values) and the predictor are.
    assert not [k for k in state["objective"] if k.startswith("encoder.model.")]
    assert sorted(state["encoder_weights"]["tensors"]) == sorted(weights)
    assert any(k.startswith("target") for k in state["objective"]) and any("predictor" in k for k in state["objective"])
    full = load_objective_state(ckpt)
    assert all(torch.equal(full[f"encoder.model.{k}"], v) for k, v in weights.items())
    assert json.loads((ckpt / "bsl_checkpoint.json").read_text())["format_version"] == 2

    # A NaN written into the encoder's safetensors is found on resume, naming the tensor.
    name = next(k for k in weights if k.endswith("query.weight"))
    damaged = {**weights, name: weights[name].clone().fill_(float("nan"))}
    save_file(damaged, ckpt / "encoder" / "model.safetensors", metadata={"format": "pt"})
    with pytest.raises(BSLError, match=rf"cannot resume: tensor encoder.model.{name} holds NaN"):
        _train(tiny_bert_dir, dataset, out, ["train.resume=auto", "train.max_steps=3"])
    # A truncated one makes the checkpoint unusable before anything is loaded (auto stops naming it).
    raw = (ckpt / "encoder" / "model.safetensors").read_bytes()
    (ckpt / "encoder" / "model.safetensors").write_bytes(raw[:-64])
    assert "encoder/model.safetensors is not a complete safetensors file" in checkpoint_problem(ckpt)
    with pytest.raises(BSLError, match=r"latest checkpoint \S+step-00000001 is broken \(encoder/model.safetensors"):
        _train(tiny_bert_dir, dataset, out, ["train.resume=auto", "train.max_steps=3"])


def test_a_completed_run_removes_only_its_own_periodic_checkpoints(tiny_bert_dir, dataset, tmp_path):
    out = tmp_path / "run"
    _train(tiny_bert_dir, dataset, out, ["train.max_steps=4", "train.save_every=1", "train.keep_checkpoints=0",
                                         "train.stop_at_step=2"])
    steps = out / "checkpoints"
    assert sorted(p.name for p in steps.iterdir()) == ["step-00000001", "step-00000002"]
    (steps / "notes.txt").write_text("mine")                     # the user's, beside the checkpoints
    (steps / "step-00000001" / "notes.txt").write_text("mine")   # the user's, inside one
    result = _train(tiny_bert_dir, dataset, out, ["train.max_steps=4", "train.save_every=1",
                                                  "train.keep_checkpoints=0", "train.resume=auto"])
    assert result.completed and result.final_checkpoint == out / "final"
    left = sorted(p.name for p in steps.iterdir())
    assert left == [REPLACED_DIR, "notes.txt"], left
    set_aside = list((steps / REPLACED_DIR).rglob("notes.txt"))
    assert [p.read_text() for p in set_aside] == ["mine"]
    assert (out / "final" / "trainer_state.pt").is_file() and (out / "config.yaml").is_file()


def test_a_checkpoint_of_other_settings_and_the_keep_setting_are_left_alone(tiny_bert_dir, dataset, tmp_path):
    out = tmp_path / "run"
    _train(tiny_bert_dir, dataset, out, ["train.max_steps=3", "train.save_every=1", "train.keep_checkpoints=0",
                                         "train.stop_at_step=1"])
    steps = out / "checkpoints"
    info_path = steps / "step-00000001" / "bsl_checkpoint.json"
    info = json.loads(info_path.read_text())
    # The run resumes from step-1 (its own) and writes step-2; a checkpoint of other settings stays.
    other = steps / "step-00000000"
    shutil.copytree(steps / "step-00000001", other)
    info["step"], info["config"]["train"]["seed"] = 0, 99
    (other / "bsl_checkpoint.json").write_text(json.dumps(info))
    result = _train(tiny_bert_dir, dataset, out, ["train.max_steps=3", "train.save_every=1",
                                                  "train.keep_checkpoints=0", "train.resume=auto"])
    assert result.completed and result.metrics["resumed_from"] == steps / "step-00000001"
    assert sorted(p.name for p in steps.iterdir()) == ["step-00000000"]

    kept = tmp_path / "kept"
    _train(tiny_bert_dir, dataset, kept, ["train.max_steps=3", "train.save_every=1", "train.keep_checkpoints=0",
                                          "train.keep_checkpoints_after_final=true"])
    assert sorted(p.name for p in (kept / "checkpoints").iterdir()) == ["step-00000001", "step-00000002"]


def test_a_link_where_a_checkpoint_stages_its_rng_states_is_refused_and_not_written_through(tiny_bert_dir, dataset,
                                                                                          tmp_path):
    out, victim = tmp_path / "run", tmp_path / "victim"
    victim.mkdir()
    (victim / "rank-0.pt").write_text("mine")
    _train(tiny_bert_dir, dataset, out, ["train.max_steps=2", "train.save_every=1", "train.stop_at_step=1"])
    link = out / ".final.rng"  # where the final checkpoint gathers each rank's RNG state before publishing
    link.symlink_to(victim, target_is_directory=True)
    with pytest.raises(OwnershipError, match=r"\.final\.rng is a symbolic link"):
        _train(tiny_bert_dir, dataset, out, ["train.max_steps=2", "train.save_every=1", "train.resume=auto"])
    assert link.is_symlink() and sorted(p.name for p in victim.iterdir()) == ["rank-0.pt"]
    assert (victim / "rank-0.pt").read_text() == "mine"


def test_a_checkpoints_folder_that_is_a_link_is_refused_and_the_checkpoints_it_points_to_are_kept(
        tiny_bert_dir, dataset, tmp_path):
    settings = ["train.max_steps=4", "train.save_every=1", "train.keep_checkpoints=0"]
    other = tmp_path / "other"  # another run, stopped at step 3: its checkpoints are what it resumes from
    _train(tiny_bert_dir, dataset, other, [*settings, "train.stop_at_step=3"])
    out = tmp_path / "run"
    _train(tiny_bert_dir, dataset, out, [*settings, "train.stop_at_step=1"])
    shutil.rmtree(out / "checkpoints")
    (out / "checkpoints").symlink_to(other / "checkpoints", target_is_directory=True)
    with pytest.raises(OwnershipError, match=r"checkpoints is a symbolic link"):
        _train(tiny_bert_dir, dataset, out, [*settings, "train.resume=auto"])
    assert sorted(p.name for p in (other / "checkpoints").iterdir()) == [
        "step-00000001", "step-00000002", "step-00000003"]
    assert (other / "checkpoints" / "step-00000003" / "trainer_state.pt").is_file()
    assert not (out / "final").exists()


def test_links_planted_beside_the_metrics_logs_are_never_written_through(tiny_bert_dir, dataset, tmp_path):
    out, victim = tmp_path / "run", tmp_path / "victim.txt"
    victim.write_text("mine\n")
    settings = ["train.max_steps=2", "train.save_every=1"]
    _train(tiny_bert_dir, dataset, out, [*settings, "train.stop_at_step=1"])
    for name in (".metrics.csv.tmp", ".eval.csv.tmp"):  # where an earlier version staged its rewrite
        (out / name).symlink_to(victim)
    result = _train(tiny_bert_dir, dataset, out, [*settings, "train.resume=auto"])
    assert result.completed and victim.read_text() == "mine\n"
    assert not (out / "metrics.csv").is_symlink() and (out / "metrics.csv").read_text().startswith("step")


@pytest.mark.parametrize("text, message", [
    ('{"pooling": "mean",\n "step": }', r"bsl_checkpoint.json:2: invalid JSON"),
    ("[1, 2]", r"bsl_checkpoint.json: expected a JSON object with the keys 'pooling' and 'step'"),
    ('{"pooling": "mean"}', r"bsl_checkpoint.json: expected a JSON object with the keys 'pooling' and 'step'"),
])
def test_a_damaged_checkpoint_json_is_one_line_naming_the_file(tmp_path, text, message):
    from bsl_pipeline.training.checkpoint_files import checkpoint_problem, read_checkpoint_json

    (tmp_path / "bsl_checkpoint.json").write_text(text)
    with pytest.raises(BSLError, match=message):
        read_checkpoint_json(tmp_path)
    assert "bsl_checkpoint.json" in checkpoint_problem(tmp_path)
