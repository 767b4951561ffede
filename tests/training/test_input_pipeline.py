"""The trainer's input pipeline (training.batch_source, training.loader): length-grouped batches, length buckets, worker
processes. Batches, their order and resumption must not depend on the number of workers; grouping must keep the
pairs of each window and be reproducible; a run killed mid-epoch resumes bit-identical, workers or not."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
from tests.training.test_trainer_utils import assert_same_final_state, tiny_config, write_dataset

from bsl_pipeline.training.checkpoint_files import load_objective_state


@pytest.fixture(scope="module")
def datasets(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("pipeline_datasets")
    return {"main": write_dataset(root / "main", 64, method="noise", seed=0),
            "other": write_dataset(root / "other", 24, method="backtranslation", seed=1, shards=1)}


def _source(datasets, window: int, seed: int = 7, batch_size: int = 4):
    from bsl_pipeline.pipeline.base.config import load_config
    from bsl_pipeline.training.batch_source import BatchSource
    from bsl_pipeline.training.config import DataConfig
    from bsl_pipeline.training.data import PairStream, resolve_sources

    data = load_config(DataConfig, None, [], base={"sources": [{"path": str(datasets["main"])},
                                                               {"path": str(datasets["other"])}],
                                                   "shuffle_buffer": 8})
    stream = PairStream(resolve_sources(data), seed, True, data.shuffle_buffer, data.read_batch_size)
    return BatchSource(stream, batch_size, window, seed)


def _take(source, n):
    return [source.next_batch() for _ in range(n)]


def _lengths(batch) -> list[int]:
    return [max(len(a), len(b)) for a, b in zip(*batch)]


def _spread(batch) -> int:
    return max(_lengths(batch)) - min(_lengths(batch))


def test_length_grouping_keeps_each_window_reorders_it_by_length_and_replays(datasets):
    plain = _take(_source(datasets, window=0), 12)
    grouped = _take(_source(datasets, window=3), 12)
    assert grouped == _take(_source(datasets, window=3), 12)  # deterministic
    assert grouped != _take(_source(datasets, window=3, seed=8), 12)
    for w in range(0, 12, 3):
        # The same pairs as the plain stream's window, each once, in batches of similar lengths.
        window_plain = sorted(p for b in plain[w:w + 3] for p in zip(*b))
        window_grouped = sorted(p for b in grouped[w:w + 3] for p in zip(*b))
        assert window_plain == window_grouped
        assert all(len(v1) == len(v2) == 4 for v1, v2 in grouped[w:w + 3])
        # Consecutive slices of the window sorted by length: the batches' length ranges do not overlap.
        ranges = sorted((min(x), max(x)) for x in (_lengths(b) for b in grouped[w:w + 3]))
        assert all(hi <= lo for (_, hi), (lo, _) in zip(ranges, ranges[1:]))
    assert sum(_spread(b) for b in grouped) < sum(_spread(b) for b in plain)
    # The batches of a window come in a seeded order, not sorted by length: over 20 windows some are unsorted.
    many = _take(_source(datasets, window=3), 60)
    firsts = [[min(map(len, b[0])) for b in many[w:w + 3]] for w in range(0, 60, 3)]
    assert any(f != sorted(f) for f in firsts)


@pytest.mark.parametrize("taken", [0, 1, 2, 3, 4, 7])
def test_grouped_source_restores_mid_window_exactly(datasets, taken):
    whole = _take(_source(datasets, window=3), 10)
    first = _source(datasets, window=3)
    _take(first, taken)
    position = first.position
    assert position["batches"] == taken and position["window_offset"] == taken % 3
    resumed = _source(datasets, window=3)
    resumed.restore(position)
    assert _take(resumed, 10 - taken) == whole[taken:]


def test_position_without_grouping_is_the_stream_position_of_before(datasets):
    source = _source(datasets, window=0)
    _take(source, 5)
    position = source.position
    assert position["pairs_drawn"] == 20 and position["window_offset"] == 0 and position["batches"] == 5
    # A checkpoint written before batches were counted holds only the stream position.
    old = {k: v for k, v in position.items() if k not in ("batches", "window_offset")}
    resumed = _source(datasets, window=0)
    resumed.restore(old)
    assert resumed.batches == 5 and resumed.next_batch() == source.next_batch()


def test_bucket_length_and_right_padding():
    from bsl_pipeline.pipeline.base.token_batches import bucket_length, pad_right

    assert [bucket_length(n, [8, 16], 32) for n in (3, 8, 9, 16, 17, 32)] == [8, 8, 16, 16, 32, 32]
    assert bucket_length(11, [], 32) == 11
    features = {"input_ids": torch.tensor([[5, 6, 7], [5, 6, 0]]), "attention_mask": torch.tensor([[1, 1, 1],
                                                                                                   [1, 1, 0]])}
    padded = pad_right(features, 5, pad_id=0 + 9)
    assert padded["input_ids"].tolist() == [[5, 6, 7, 9, 9], [5, 6, 0, 9, 9]]
    assert padded["attention_mask"].tolist() == [[1, 1, 1, 0, 0], [1, 1, 0, 0, 0]]


def _trainer(tiny_bert_dir, datasets, out, overrides):
    from bsl_pipeline.training.trainer import Trainer

    config = tiny_config(tiny_bert_dir, [datasets["main"], datasets["other"]], out, objective="mirror",
                         overrides=["data.shuffle_buffer=8", "optim.grad_accum_steps=2", "train.batch_size=4",
                                    *overrides])
    return Trainer(config, disable_progress=True)


def test_workers_hand_out_the_serial_batches_in_the_serial_order(tiny_bert_dir, datasets, tmp_path):
    # Mirror masks spans at random during collation: the workers must draw the same masks as the serial path.
    batches = {}
    for workers in (0, 2):
        trainer = _trainer(tiny_bert_dir, datasets, tmp_path / f"w{workers}",
                           [f"data.workers={workers}", "data.length_grouping_window=3", "model.length_buckets=[8,16]"])
        try:
            got = [trainer.next_micro_batch() for _ in range(9)]
            batches[workers] = (got, trainer.data_position())
            assert trainer.loader.workers == workers
        finally:
            trainer.close()
    (serial, serial_pos), (parallel, parallel_pos) = batches[0], batches[2]
    assert serial_pos == parallel_pos and serial_pos["batches"] == 9
    for (b1, n1), (b2, n2) in zip(serial, parallel):
        assert n1 == n2 and n1[0] < n1[1]  # padding counted
        for view in b1:
            assert b1[view]["input_ids"].shape[1] in (8, 16, 32)  # a bucket or max_length
            for name in b1[view]:
                assert torch.equal(b1[view][name], b2[view][name]), (view, name)


def _losses_and_state(result):
    state = torch.load(result.final_checkpoint / "trainer_state.pt", weights_only=True)
    state["objective"] = load_objective_state(result.final_checkpoint, state=state)
    return [r["loss"] for r in result.history], state


def _train(tiny_bert_dir, datasets, out, overrides):
    from bsl_pipeline.training.trainer import train

    config = tiny_config(tiny_bert_dir, [datasets["main"], datasets["other"]], out,
                         overrides=["model.dropout=0.1", "optim.grad_accum_steps=2", "train.batch_size=4",
                                    "train.max_steps=8", "data.shuffle_buffer=8", "data.length_grouping_window=3",
                                    "model.length_buckets=[8,16]", *overrides])
    return train(config, disable_progress=True)


def test_resume_mid_window_with_and_without_workers_is_bit_identical(tiny_bert_dir, datasets, tmp_path):
    whole_losses, whole_state = _losses_and_state(_train(tiny_bert_dir, datasets, tmp_path / "whole",
                                                         ["data.workers=0"]))
    # 4 steps of 2 micro-batches = 8 batches = two windows of 3 and 2 batches into the third.
    first = _train(tiny_bert_dir, datasets, tmp_path / "split", ["data.workers=2", "train.stop_at_step=4"])
    assert first.step == 4
    second = _train(tiny_bert_dir, datasets, tmp_path / "split", ["data.workers=0", "train.resume=auto"])
    losses, state = _losses_and_state(second)
    assert [r["loss"] for r in first.history] + losses == whole_losses
    for name, value in whole_state["objective"].items():
        assert torch.equal(value, state["objective"][name]), name
    assert state["data"] == whole_state["data"]


def test_nonpad_fraction_is_logged_and_grouping_raises_it(tiny_bert_dir, datasets, tmp_path):
    runs = {}
    for window in (0, 4):
        result = _train(tiny_bert_dir, datasets, tmp_path / f"g{window}",
                        ["data.workers=0", "model.length_buckets=[]", f"data.length_grouping_window={window}",
                         "train.max_steps=12"])
        with open(tmp_path / f"g{window}" / "metrics.csv", newline="") as fh:
            rows = list(csv.DictReader(fh))
        fractions = [float(r["nonpad_fraction"]) for r in rows]
        assert len(fractions) == 12 and all(0 < f <= 1 for f in fractions)
        assert fractions == pytest.approx([r["nonpad_fraction"] for r in result.history])
        runs[window] = sum(fractions) / len(fractions)
    assert runs[4] > runs[0]


def test_nonpad_fraction_counts_bucket_padding(tiny_bert_dir, datasets, tmp_path):
    trainer = _trainer(tiny_bert_dir, datasets, tmp_path / "b", ["data.workers=0", "model.length_buckets=[32]"])
    try:
        batch, (tokens, padded) = trainer.next_micro_batch()
        assert all(f["input_ids"].shape == (4, 32) for f in batch.values())
        assert padded == 2 * 4 * 32
        assert tokens == sum(int(f["attention_mask"].sum()) for f in batch.values()) < padded
    finally:
        trainer.close()


def test_bad_speed_settings_are_named(tiny_bert_dir, datasets, tmp_path):
    from bsl_pipeline.pipeline.base.config import ConfigError
    from bsl_pipeline.pipeline.base.errors import BSLError

    for override in ("data.workers=-1", "data.length_grouping_window=-2", "data.prefetch_batches=0",
                     "model.length_buckets=[0,16]", "eval.max_tokens=-5"):
        with pytest.raises(ConfigError, match=override.split("=")[0].replace(".", r"\.")):
            tiny_config(tiny_bert_dir, [datasets["main"]], tmp_path / "bad", overrides=[override])
    # Settings built in code (not loaded) are checked by the trainer, every bad key named at once.
    config = tiny_config(tiny_bert_dir, [datasets["main"]], tmp_path / "bad", overrides=["model.max_length=32"])
    config.model.length_buckets, config.model.sdpa_backend, config.data.workers = [8, 64], "fast", -1
    with pytest.raises(BSLError) as err:
        config.validate()
    for key in ("model.length_buckets", "model.sdpa_backend", "data.workers"):
        assert key in str(err.value)


_KILL_RUN = """
import sys
sys.path.insert(0, {tests!r})
import torch
torch.set_num_threads(1)
from tests.training.test_trainer_utils import tiny_config
from bsl_pipeline.training.trainer import train
config = tiny_config({model!r}, [{a!r}, {b!r}], {out!r}, overrides={overrides!r})
train(config, disable_progress=True)
"""


def _kill_overrides(workers: int, extra: list[str]) -> list[str]:
    return ["model.dropout=0.1", "train.batch_size=4", "train.max_steps=60", "data.shuffle_buffer=8",
            "data.length_grouping_window=3", "train.save_every=5", "train.keep_checkpoints=0",
            f"data.workers={workers}", *extra]


def test_a_run_killed_mid_epoch_with_workers_resumes_bit_identical(tiny_bert_dir, datasets, tmp_path):
    from bsl_pipeline.training.trainer import train

    out = tmp_path / "killed"
    script = _KILL_RUN.format(tests=str(Path(__file__).resolve().parents[1]), model=str(tiny_bert_dir), a=str(datasets["main"]),
                              b=str(datasets["other"]), out=str(out), overrides=_kill_overrides(2, []))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[2]),
                                                       os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, start_new_session=True)
    deadline = time.monotonic() + 300
    try:
        while not (out / "checkpoints" / "step-00000010").is_dir():
            assert proc.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < deadline, "no checkpoint appeared"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the trainer and its data workers, mid-run
        proc.wait()
    resumed = train(tiny_config(tiny_bert_dir, [datasets["main"], datasets["other"]], out,
                                overrides=_kill_overrides(2, ["train.resume=auto"])), disable_progress=True)
    assert resumed.completed and resumed.metrics["resumed_from"] is not None
    assert int(resumed.metrics["resumed_from"].name.split("-")[1]) < 60  # it really was killed mid-run
    whole = train(tiny_config(tiny_bert_dir, [datasets["main"], datasets["other"]], tmp_path / "whole",
                              overrides=_kill_overrides(0, [])), disable_progress=True)
    assert_same_final_state(whole.final_checkpoint, resumed.final_checkpoint)
    logged = {}
    for name, directory in (("killed", out), ("whole", tmp_path / "whole")):
        with open(directory / "metrics.csv", newline="") as fh:
            logged[name] = [(r["step"], r["loss"]) for r in csv.DictReader(fh)]
    assert logged["killed"] == logged["whole"] and len(logged["whole"]) == 60


@pytest.mark.parametrize("workers", [0, 2])
def test_a_data_error_in_a_worker_reaches_the_trainer_as_itself(tiny_bert_dir, datasets, tmp_path, monkeypatch,
                                                                 workers):
    from bsl_pipeline.pipeline.base.errors import InputError
    from bsl_pipeline.training.batch_source import BatchSource

    real = BatchSource.next_batch

    def failing(self):
        if self.batches == 3:
            raise InputError("data/train-00001.parquet: row 7 is broken")
        return real(self)

    monkeypatch.setattr(BatchSource, "next_batch", failing)  # forked workers inherit the patch
    trainer = _trainer(tiny_bert_dir, datasets, tmp_path / "err", [f"data.workers={workers}"])
    try:
        for _ in range(3):
            trainer.next_micro_batch()
        with pytest.raises(InputError, match=r"^data/train-00001\.parquet: row 7 is broken$"):
            trainer.next_micro_batch()
    finally:
        trainer.close()


def test_workers_end_cleanly_under_a_parent_with_thread_exit_hooks(tiny_bert_dir, datasets, tmp_path):
    # As in a Prefect flow: the parent's threads registered exit callbacks that fail in a forked child.
    import threading

    def parent_only():
        raise AssertionError("a parent's thread-exit callback ran in a worker")

    threading._register_atexit(parent_only)
    try:
        trainer = _trainer(tiny_bert_dir, datasets, tmp_path / "hooks", ["data.workers=2"])
        try:
            trainer.next_micro_batch()
            workers = list(trainer.loader._it._workers)
        finally:
            trainer.close()
        for worker in workers:
            worker.join(timeout=30)
        assert [w.exitcode for w in workers] == [0, 0]
    finally:
        threading._threading_atexits[:] = [c for c in threading._threading_atexits
                                           if getattr(c, "func", c) is not parent_only]
