"""Model directories from someone else (a sentence-transformers export, a trainer checkpoint, a sharded model) are
untrusted input: the paths their files name stay inside them, and nothing in them is unpickled."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bsl_pipeline.evaluation import load_encoder
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.safetensors_check import check_safetensors_dir
from bsl_pipeline.training.st_directory import read_sentence_transformers_dir

from one_line import one_line_error


def _bsl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], capture_output=True, text=True,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"})


def _st_dir(tmp_path: Path, tiny_bert_dir: Path, paths: tuple[str, str, str] = ("", "1_Pooling", "2_Dense")) -> Path:
    """A sentence-transformers directory around the tiny BERT (transformer at its root, pooling, a Dense layer);
    `paths` are what modules.json names for the three modules."""
    st = tmp_path / "st"
    shutil.copytree(tiny_bert_dir, st)
    (st / "1_Pooling").mkdir()
    (st / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode": "mean"}))
    (st / "2_Dense").mkdir()
    (st / "2_Dense" / "config.json").write_text(json.dumps({"in_features": 32, "out_features": 4}))
    (st / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": paths[0], "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": paths[1], "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": paths[2], "type": "sentence_transformers.models.Dense"}]))
    return st


@pytest.mark.parametrize("module", [0, 1, 2])
@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink"])
def test_modules_json_paths_outside_the_directory_are_refused(tiny_bert_dir, tmp_path, module, how):
    """Every module folder modules.json names (the transformer the evaluator loads, the pooling config, the Dense
    weights the evaluator and the export's base Dense copy read) must lie inside the directory."""
    outside = tmp_path / "elsewhere"
    shutil.copytree(tiny_bert_dir, outside)
    (outside / "config.json").write_text(json.dumps({**json.loads((tiny_bert_dir / "config.json").read_text()),
                                                     "pooling_mode": "cls"}))
    st = _st_dir(tmp_path, tiny_bert_dir)
    named = {"dotdot": "../elsewhere", "absolute": str(outside), "symlink": "link"}[how]
    if how == "symlink":
        (st / "link").symlink_to(outside)
    paths = ["", "1_Pooling", "2_Dense"]
    paths[module] = named
    (st / "modules.json").write_text(json.dumps([
        {"idx": i, "name": str(i), "path": p, "type": f"sentence_transformers.models.{t}"}
        for i, (p, t) in enumerate(zip(paths, ("Transformer", "Pooling", "Dense")))]))
    expected = (f"{st / 'modules.json'}: module {module}'s path: {named!r} points outside {st} ("
                + ("through a symlink" if how == "symlink" else "absolute and '..' paths are refused"))
    with pytest.raises(BSLError) as exc:
        read_sentence_transformers_dir(st)
    assert str(exc.value).startswith(expected), str(exc.value)
    with pytest.raises(BSLError) as exc:
        load_encoder(st, device="cpu")
    assert str(exc.value).startswith(expected), str(exc.value)


def test_modules_json_paths_inside_the_directory_still_load(tiny_bert_dir, tmp_path):
    layout = read_sentence_transformers_dir(_st_dir(tmp_path, tiny_bert_dir))
    st = tmp_path / "st"
    assert layout.transformer_dir == st and layout.pooling_config == st / "1_Pooling" / "config.json"
    assert layout.dense_dirs == [st / "2_Dense"]


def test_bsl_evaluate_refuses_an_escaping_module_path_in_one_line(tiny_bert_dir, tmp_path):
    st = _st_dir(tmp_path, tiny_bert_dir, ("../tiny", "1_Pooling", "2_Dense"))
    shutil.copytree(tiny_bert_dir, tmp_path / "tiny")
    one_line_error(_bsl("evaluate", str(st), "--tasks", "stsb", "--no-progress", "--no-cache"),
                   f"{st / 'modules.json'}: module 0's path: '../tiny' points outside {st} (absolute and '..' "
                   f"paths are refused)")


def test_checkpoint_encoder_outside_is_named_the_checkpoint_directory(tiny_bert_dir, tmp_path):
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    (ckpt / "bsl_checkpoint.json").write_text(json.dumps({"pooling": "mean", "step": 1, "encoder": "../tiny"}))
    with pytest.raises(BSLError, match=r"'encoder': '\.\./tiny' points outside the checkpoint directory "):
        load_encoder(ckpt, device="cpu")


@pytest.mark.parametrize("shard", ["../outside/model.safetensors", "/tmp/model.safetensors", "link.safetensors"])
def test_shard_index_naming_a_file_outside_is_refused(tiny_bert_dir, tmp_path, shard):
    """transformers opens the shards a *.index.json names beside it; one outside the directory is refused before."""
    (tmp_path / "outside").mkdir()
    shutil.copy(tiny_bert_dir / "model.safetensors", tmp_path / "outside" / "model.safetensors")
    model = tmp_path / "model"
    shutil.copytree(tiny_bert_dir, model)
    (model / "model.safetensors").unlink()
    (model / "link.safetensors").symlink_to(tmp_path / "outside" / "model.safetensors")
    index = model / "model.safetensors.index.json"
    index.write_text(json.dumps({"metadata": {}, "weight_map": {"embeddings.word_embeddings.weight": shard}}))
    with pytest.raises(BSLError, match=rf"{index}: weight_map: '{shard}' points outside {model} "):
        check_safetensors_dir(model)
    with pytest.raises(BSLError, match=rf"{index}: weight_map"):
        load_encoder(model, device="cpu")
    index.write_text(json.dumps({"metadata": {}, "weight_map": {"embeddings.word_embeddings.weight": "a.safetensors"}}))
    check_safetensors_dir(model)  # shards named inside the directory pass


class _Carries:
    """Pickled with code: unpickling it would create `marker` (os.mkdir), which weights-only loading must refuse."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


def save_pickle_carrying_code(path: Path, tensors: dict, marker: Path) -> None:
    import torch

    torch.save({**tensors, "carried": _Carries(marker)}, path)


def test_pickled_weights_are_refused_in_one_line_naming_the_file(tiny_bert_dir, tmp_path):
    from safetensors.torch import load_file

    model = tmp_path / "model"
    shutil.copytree(tiny_bert_dir, model)
    marker = tmp_path / "code-ran"
    save_pickle_carrying_code(model / "pytorch_model.bin", load_file(model / "model.safetensors"), marker)
    (model / "model.safetensors").unlink()
    expected = f"{model / 'pytorch_model.bin'}: not a weights-only file (refused: loading it would run code it carries)"
    with pytest.raises(BSLError) as exc:
        load_encoder(model, device="cpu")
    assert str(exc.value) == expected
    from bsl_pipeline.training.encoder import load_hf_encoder  # training's starting model: the same line

    with pytest.raises(BSLError) as exc:
        load_hf_encoder(str(model))
    assert str(exc.value) == expected
    proc = _bsl("evaluate", str(model), "--tasks", "stsb", "--no-progress", "--no-cache")
    one_line_error(proc, expected)
    assert "weights_only" not in proc.stderr and not marker.exists()


def test_pickled_dense_weights_are_refused_naming_the_file(tiny_bert_dir, tmp_path):
    import torch

    st = _st_dir(tmp_path, tiny_bert_dir)
    marker = tmp_path / "code-ran"
    dense = st / "2_Dense" / "pytorch_model.bin"
    save_pickle_carrying_code(dense, {"linear.weight": torch.zeros(4, 32)}, marker)
    with pytest.raises(BSLError) as exc:
        load_encoder(st, device="cpu")
    assert str(exc.value) == f"{dense}: not a weights-only file (refused: loading it would run code it carries)"
    assert not marker.exists()
    torch.save({"linear.weight": torch.ones(4, 32)}, dense)  # plain tensors load
    assert load_encoder(st, device="cpu").encode(["a sentence"]).shape == (1, 4)


@pytest.mark.parametrize(("file", "content", "expected"), [
    ("sentence_bert_config.json", {"max_seq_length": "abc"}, 'max_seq_length must be an integer in [2, 32768], got "abc"'),
    ("sentence_bert_config.json", {"max_seq_length": -5}, "max_seq_length must be an integer in [2, 32768], got -5"),
    ("sentence_bert_config.json", {"max_seq_length": 0}, "max_seq_length must be an integer in [2, 32768], got 0"),
    ("sentence_bert_config.json", {"max_seq_length": True}, "max_seq_length must be an integer in [2, 32768], got true"),
    ("sentence_bert_config.json", {"max_seq_length": 2.5}, "max_seq_length must be an integer in [2, 32768], got 2.5"),
    ("sentence_bert_config.json", {"do_lower_case": "false"}, 'do_lower_case must be true or false, got "false"'),
    ("sentence_bert_config.json", [128], "expected a JSON object, got list"),
    ("1_Pooling/config.json", {"pooling_mode_mean_tokens": "yes"},
     'pooling_mode_mean_tokens must be true or false, got "yes"'),
    ("1_Pooling/config.json", {"pooling_mode": 3}, "pooling_mode must be a mode's name or a non-empty list of them, got 3"),
    ("1_Pooling/config.json", {"pooling_mode": []}, "pooling_mode must be a mode's name or a non-empty list of them, got []"),
    ("1_Pooling/config.json", "mean", "expected a JSON object, got str"),
    ("2_Dense/config.json", {"activation_function": 5}, "unsupported Dense activation_function 5 (supported: "),
    ("2_Dense/config.json", None, "expected a JSON object, got NoneType"),
])
def test_module_config_values_are_checked_naming_the_file(tiny_bert_dir, tmp_path, file, content, expected):
    """A model directory from someone else: each value read from its module configs is checked where the directory
    is read, so the evaluator (and the export of a run that starts from it) stops with one line naming the file,
    not a TypeError or an ONNX Runtime dump halfway through encoding."""
    st = _st_dir(tmp_path, tiny_bert_dir)
    (st / file).write_text(json.dumps(content))
    with pytest.raises(BSLError) as exc:
        read_sentence_transformers_dir(st)
    assert str(exc.value).startswith(f"{st / file}: {expected}"), str(exc.value)
    with pytest.raises(BSLError) as exc:
        load_encoder(st, device="cpu")
    assert str(exc.value).startswith(f"{st / file}: {expected}"), str(exc.value)


@pytest.mark.parametrize("length", ['"abc"', "-5"])
def test_bsl_evaluate_refuses_a_bad_max_seq_length_in_one_line(tiny_bert_dir, tmp_path, length):
    st = _st_dir(tmp_path, tiny_bert_dir)
    (st / "sentence_bert_config.json").write_text(f'{{"max_seq_length": {length}, "do_lower_case": false}}')
    one_line_error(_bsl("evaluate", str(st), "--tasks", "stsb", "--no-progress", "--no-cache"),
                   f"{st / 'sentence_bert_config.json'}: max_seq_length must be an integer in [2, 32768], got {length}")


def test_dense_weights_must_fit_the_vectors_they_are_given(tiny_bert_dir, tmp_path):
    """The first Dense module takes the pooled vector (the tiny BERT's 32 numbers), each next one the output of the
    one before; weights of another shape are refused naming their file, before anything is encoded."""
    import numpy as np
    from safetensors.numpy import save_file

    st = _st_dir(tmp_path, tiny_bert_dir)
    weights = st / "2_Dense" / "model.safetensors"
    save_file({"linear.weight": np.ones((4, 16), np.float32)}, weights)
    with pytest.raises(BSLError) as exc:
        load_encoder(st, device="cpu")
    assert str(exc.value) == f"{weights}: the Dense module takes vectors of 16 numbers, but the module before it gives 32"
    save_file({"linear.weight": np.ones((4, 32), np.float32), "linear.bias": np.ones(3, np.float32)}, weights)
    with pytest.raises(BSLError, match=r"'linear.bias' a vector of its outputs, got shapes \(4, 32\) and \(3,\)"):
        load_encoder(st, device="cpu")
    save_file({"linear.weight": np.ones((4, 32), np.float32), "linear.bias": np.ones(4, np.float32)}, weights)
    assert load_encoder(st, device="cpu").encode(["a sentence"]).shape == (1, 4)
