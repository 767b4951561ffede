import json
import os
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from bsl_pipeline.cli.cli import main
from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter, ViewPair
from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment
from bsl_pipeline.pipeline.base.errors import BSLError, InputError, VerificationError
from bsl_pipeline.pipeline.dataset.inspection import PairQuery, sample
from bsl_pipeline.pipeline.dataset.store import iter_pair_batches, load_manifest, verify_dataset

SENTENCES = [f"Sentence number {i} talks about the {w} in the park." for i, w in
             enumerate(["dog", "cat", "tree", "child", "ball", "car", "house", "woman", "man", "game"] * 3)]


@pytest.fixture
def corpus(tmp_path):
    p = tmp_path / "corpus.txt"
    p.write_text("\n".join(SENTENCES + ["", SENTENCES[0]]) + "\n", encoding="utf-8")
    return p


def _config(tmp_path, **kw):
    kw.setdefault("methods", ["noise", "identity"])
    cfg = AugmentConfig(registry_dir=str(tmp_path / "registry"), progress=False, **kw)
    cfg.corpus.chunk_size = 8
    return cfg


def test_shards_layout_schema_manifest_and_hf_loading(tmp_path, corpus):
    out = tmp_path / "ds"
    m = run_augment(corpus, out, _config(tmp_path))
    pairs = m.shards_of("pairs")
    n = len(pairs)
    assert n == 8  # 30 unique sentences / chunks of 8 = 4 chunks x 2 methods
    assert [s.path for s in pairs] == [f"data/train-{i:05d}-of-{n:05d}.parquet" for i in range(n)]
    table = pq.read_table(out / pairs[0].path)
    assert pq.ParquetFile(out / pairs[0].path).metadata.row_group(0).column(0).compression == "ZSTD"
    for col in ["pair_id", "source_id", "source", "view1", "view2", "method", "params", "seed", "edit_ratio_views",
                "edit_ratio_view1", "edit_ratio_view2", "length_ratio", "identical", "changed_word_share",
                "view_similarity"]:
        assert col in table.column_names
    json.loads(table.column("params")[0].as_py())
    # stats: 32 lines in, 30 kept, 1 empty + 1 duplicate dropped
    assert m.source.records_read == 32 and m.source.records_kept == 30
    assert m.stats.corpus_dropped == {"duplicate": 1, "empty": 1}
    ident = m.stats.per_method["identity"]
    assert ident.pairs == 30 and ident.identical_pct == 100.0 and ident.mean_edit_ratio == 0.0
    noise = m.stats.per_method["noise"]
    assert noise.pairs + noise.rejected == 30
    assert m.source.files[0]["sha256"] and m.source.files[0]["lines"] == 32
    assert m.methods["noise"].params == {"fraction": 0.3, "drop_punctuation": True}
    registered = tmp_path / "registry" / "datasets" / "ds.json"
    assert json.loads(registered.read_text())["checksum"] == m.checksum

    from datasets import load_dataset

    by_files = load_dataset("parquet", data_files=[str(out / s.path) for s in pairs], split="train")
    by_dir = load_dataset(str(out), split="train")
    assert by_files.num_rows == by_dir.num_rows == sum(s.rows for s in pairs)
    rejects = load_dataset(str(out), "rejects", split="train")
    assert set(rejects["stage"]) >= {"corpus"} and "duplicate" in rejects["reject_reason"]
    assert sum(1 for _ in iter_pair_batches(out, methods=["identity"], batch_size=7)) >= 4


def test_rerun_reuses_every_task_and_gives_identical_shards(tmp_path, corpus):
    out = tmp_path / "ds"
    first = run_augment(corpus, out, _config(tmp_path))
    calls = []
    second = run_augment(corpus, out, _config(tmp_path), on_task_done=calls.append)
    assert calls and all(r.cached for r in calls)
    assert [s.sha256 for s in first.shards] == [s.sha256 for s in second.shards]


def test_growing_corpus_dir_adds_only_new_chunks(tmp_path):
    d = tmp_path / "corpus"
    d.mkdir()
    (d / "a.txt").write_text("\n".join(SENTENCES[:10]) + "\n")
    out = tmp_path / "ds"
    run_augment(d, out, _config(tmp_path))
    (d / "b.txt").write_text("\n".join(SENTENCES[10:20]) + "\n")
    calls = []
    m = run_augment(d, out, _config(tmp_path), on_task_done=calls.append)
    assert sum(not r.cached for r in calls) == 2 * 2  # b.txt: 10 sentences = 2 chunks x 2 methods
    assert m.stats.per_method["identity"].pairs == 20


def test_resume_after_kill_gives_the_same_rows(tmp_path, corpus):
    """A run SIGKILLed mid-way and rerun yields exactly the rows of an uninterrupted run."""
    clean = run_augment(corpus, tmp_path / "clean", _config(tmp_path))
    out = tmp_path / "killed"
    script = (
        "import os, sys\n"
        "from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment\n"
        f"cfg = AugmentConfig(methods=['noise', 'identity'], registry_dir='', progress=False)\n"
        "cfg.corpus.chunk_size = 8\n"
        "done = []\n"
        "def hook(r):\n"
        "    done.append(r)\n"
        "    if len(done) == 3: os.kill(os.getpid(), 9)\n"
        f"run_augment({str(corpus)!r}, {str(out)!r}, cfg, on_task_done=hook)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == -9
    assert not (out / "manifest.json").exists()
    assert len(list((out / ".work" / "tasks").glob("*.done.json"))) == 3
    resumed = run_augment(corpus, out, _config(tmp_path))

    def rows(m, root):
        got = []
        for s in m.shards:
            got += pq.read_table(root / s.path).to_pylist()
        return sorted(json.dumps(r, sort_keys=True) for r in got)

    assert rows(resumed, out) == rows(clean, tmp_path / "clean")


def test_atomic_write_leaves_no_partial_file(tmp_path):
    from bsl_pipeline.pipeline.base.atomic import atomic_path

    target = tmp_path / "x.parquet"
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_bytes(b"half")
            raise RuntimeError("killed")
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_verify_detects_changed_shard_and_edited_manifest(tmp_path, corpus, capsys):
    out = tmp_path / "ds"
    run_augment(corpus, out, _config(tmp_path))
    assert main(["verify", str(out), "-q"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["stats"]["pairs"] += 1
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(VerificationError, match="manifest was modified"):
        verify_dataset(out)
    run_augment(corpus, out, _config(tmp_path))  # rewrites the manifest
    shard = out / "data" / "train-00003-of-00008.parquet"
    data = shard.read_bytes()
    os.unlink(shard)
    shard.write_bytes(data[:-20] + b"\0" * 20)
    capsys.readouterr()
    assert main(["verify", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert "train-00003-of-00008.parquet: sha256" in err and "Traceback" not in err


def test_truncated_shard_is_a_clear_error(tmp_path, corpus, capsys):
    out = tmp_path / "ds"
    run_augment(corpus, out, _config(tmp_path))
    shard = out / "data" / "train-00000-of-00008.parquet"
    data = shard.read_bytes()
    os.unlink(shard)
    shard.write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match="train-00000-of-00008.parquet is not a readable Parquet file"):
        sample(load_manifest(out), PairQuery(n=3))
    assert main(["inspect", str(out)]) == 1  # verifies first
    assert "train-00000-of-00008.parquet: sha256" in capsys.readouterr().err
    assert main(["inspect", str(out), "--no-verify"]) == 1
    assert "not a readable Parquet file" in capsys.readouterr().err


def test_every_rejected_pair_is_kept_with_a_reason(tmp_path):
    p = tmp_path / "c.txt"
    p.write_text("Short one.\nThis sentence is long enough to keep around here.\n")
    cfg = _config(tmp_path, methods=["noise"])
    cfg.filters.min_words = 3
    cfg.method_params = {"noise": {"fraction": 0.0, "drop_punctuation": False}}
    m = run_augment(p, tmp_path / "ds", cfg)
    assert m.stats.pairs == 0 and m.stats.rejects == {"identical_views": 2}
    cfg.filters.reject_identical = False
    m = run_augment(p, tmp_path / "ds2", cfg)
    assert m.stats.pairs == 1 and m.stats.rejects == {"too_short": 1}
    (row,) = sample(m, PairQuery(n=10, rejects=True))
    assert (row["reject_reason"], row["stage"], row["source"]) == ("too_short", "filter", "Short one.")


def test_per_method_filters_defaults_and_overrides(tmp_path):
    p = tmp_path / "nli.csv"
    p.write_text("premise,hypothesis,label\n"
                 "A man in a red shirt is playing a guitar on a big stage tonight.,A man plays.,entailment\n"
                 "Two dogs run.,Two dogs run across a very wide green field in the morning sun.,entailment\n")
    m = run_augment(p, tmp_path / "ds", _config(tmp_path, methods=["nli-entailment"]))
    # NLI declares no length-ratio bound: both genuine entailment pairs are kept.
    assert m.stats.pairs == 2 and m.methods["nli-entailment"].filters["min_length_ratio"] == 0.0
    cfg = _config(tmp_path, methods=["nli-entailment"])
    cfg.method_filters = {"nli-entailment": {"max_length_ratio": 2.0}}
    m = run_augment(p, tmp_path / "ds2", cfg)
    assert m.stats.pairs == 1 and m.stats.rejects == {"length_ratio_out_of_bounds": 1}
    cfg.method_filters = {"synonyms": {"max_length_ratio": 2.0}}
    with pytest.raises(Exception, match="method_filters given for method"):
        run_augment(p, tmp_path / "ds3", cfg)


def executor_independent_parts(manifest):
    """What must not depend on the executor: every shard's bytes and the statistics (task timings aside)."""
    shards = [(s.path, s.sha256, s.rows) for s in manifest.shards]
    stats = manifest.stats.to_json()
    for per_method in stats["per_method"].values():
        del per_method["seconds"]
        del per_method["tasks_cached"]  # run history: a task whose worker died after its marker is found cached
    return shards, stats, manifest.chunks, manifest.methods


def test_serial_and_thread_executors_write_byte_identical_datasets(tmp_path, corpus):
    from bsl_pipeline.pipeline.augment.executors import SerialExecutor, ThreadExecutor

    serial = run_augment(corpus, tmp_path / "serial", _config(tmp_path), executor=SerialExecutor())
    threads = ThreadExecutor(max_workers=2, max_in_flight=3)
    thread = run_augment(corpus, tmp_path / "thread", _config(tmp_path), executor=threads)
    assert len(serial.shards) == 10  # 8 pair shards + 2 reject shards
    assert executor_independent_parts(thread) == executor_independent_parts(serial)
    assert thread.timings.total_s >= thread.timings.finalize_s >= 0 and serial.timings.total_s > 0


class _FailsOnThirdChunk(Augmenter):
    name = "noise"

    def augment_batch(self, records, seed):
        if any(r.text.startswith("Sentence number 17 ") for r in records):
            raise RuntimeError("model crashed")
        return [ViewPair(r.text, r.text.upper()) for r in records]


def test_failed_task_stops_a_serial_run_but_a_keep_going_executor_finishes_the_others(tmp_path, corpus):
    from bsl_pipeline.pipeline.augment.executors import SerialExecutor

    class KeepGoing(SerialExecutor):
        stop_on_failure = False

    config = _config(tmp_path, methods=["noise"])
    with pytest.raises(RuntimeError, match="model crashed"):
        run_augment(corpus, tmp_path / "serial", config, augmenters={"noise": _FailsOnThirdChunk()})
    assert len(list((tmp_path / "serial" / ".work" / "tasks").glob("*.done.json"))) == 2
    with pytest.raises(BSLError, match=r"1 of 4 augmentation tasks failed .*first: chunk \S+ \(.*corpus.txt #2\) x "
                                       r"noise: RuntimeError: model crashed"):
        run_augment(corpus, tmp_path / "keep", config, augmenters={"noise": _FailsOnThirdChunk()},
                    executor=KeepGoing())
    assert len(list((tmp_path / "keep" / ".work" / "tasks").glob("*.done.json"))) == 3
    assert not (tmp_path / "keep" / "manifest.json").exists()
