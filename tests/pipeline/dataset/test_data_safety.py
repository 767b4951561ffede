"""The dataset side of data safety: the tool never writes over what it did not create, one writer per dataset,
signatures that cover what they sign, verify checks what readers rely on. Each test is named for the behaviour."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bsl_pipeline.cli.cli import main
from bsl_pipeline.pipeline.augment.job import run_augment
from bsl_pipeline.pipeline.base.errors import BSLError, InputError, VerificationError
from bsl_pipeline.pipeline.base.ownership import (
    LOCK_NAME,
    REPLACED_DIR,
    LockedError,
    OwnershipError,
    WriterLock,
)
from bsl_pipeline.pipeline.dataset.manifest import KEY_ENV, register, write_manifest
from bsl_pipeline.pipeline.dataset.store import iter_pair_batches, verify_dataset
from one_line import one_line_error
from small_corpus import augment_config, rewrite_pair_shards, write_corpus



@pytest.fixture
def corpus(tmp_path):
    return write_corpus(tmp_path)


_config = augment_config


def _bsl(*args: str, env: dict[str, str] | None = None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], capture_output=True, text=True, check=False,
                          env={**os.environ, "BSL_NO_PROGRESS": "1", **(env or {})}, **kw)


def _pair_rows(ds: Path) -> list[dict]:
    return [row for batch in iter_pair_batches(ds) for row in batch.to_pylist()]


# -- High 1: --out on a foreign directory, on the corpus ----------------------------------------------------------
def test_out_on_a_foreign_directory_is_refused_and_overwrite_sets_aside(tmp_path, corpus):
    out = tmp_path / "out"
    (out / "data").mkdir(parents=True)
    (out / "data" / "important.csv").write_text("x")
    (out / "README.md").write_text("mine")
    one_line_error(_bsl("augment", str(corpus), "--out", str(out), "--methods", "noise", "-o",
                         f"registry_dir={tmp_path / 'registry'}"),
                    str(out), "not created by bsl", "--overwrite")
    assert (out / "data" / "important.csv").read_text() == "x" and (out / "README.md").read_text() == "mine"
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "data"]
    # --overwrite: the dataset is written, what it replaced is kept under .bsl-replaced/
    m = run_augment(corpus, out, _config(tmp_path), overwrite=True)
    (kept,) = list((out / REPLACED_DIR).iterdir())
    assert (kept / "data" / "important.csv").read_text() == "x" and (kept / "README.md").read_text() == "mine"
    assert verify_dataset(out).checksum == m.checksum
    run_augment(corpus, out, _config(tmp_path))  # now it is ours: a rerun needs no flag


@pytest.mark.parametrize("target", ["dir", "file", "inside"])
def test_low_out_is_never_the_corpus(tmp_path, corpus, target):
    before = corpus.read_bytes()
    out = {"dir": corpus.parent, "file": corpus, "inside": corpus.parent / "ds"}[target]
    one_line_error(_bsl("augment", str(corpus if target == "file" else corpus.parent), "--out", str(out)),
                    "overlap", "never writes over what it reads")
    assert corpus.read_bytes() == before and sorted(p.name for p in corpus.parent.iterdir()) == ["corpus.txt"]


def test_flow_out_dir_parameter_is_refused_like_the_cli(tmp_path, corpus, monkeypatch):
    from bsl_pipeline.flows.augment_flow import augment_flow
    from bsl_pipeline.flows.augment_job import AugmentFlowConfig, flow_parameters

    monkeypatch.setattr("bsl_pipeline.flows.augment_flow.check_workers_reach_api", lambda: None)
    out = tmp_path / "deployed"
    out.mkdir()
    (out / "README.md").write_text("mine")
    with pytest.raises(OwnershipError, match="not created by bsl"):
        augment_flow.fn(str(corpus), str(out), overrides=[f"registry_dir={tmp_path}/registry"])
    with pytest.raises(OwnershipError, match="overlap"):
        augment_flow.fn(str(corpus), str(corpus.parent))
    assert (out / "README.md").read_text() == "mine"
    busy = tmp_path / "busy"
    busy.mkdir()
    with WriterLock(busy, "dataset"), pytest.raises(LockedError, match="is being written by pid"):
        augment_flow.fn(str(corpus), str(busy), overrides=[f"registry_dir={tmp_path}/registry"])
    assert flow_parameters(AugmentFlowConfig(corpus="c", out_dir="o", overwrite=True))["overwrite"] is True


# -- High 2: one writer per dataset; shard checksums from the markers ----------------------------------------------
def test_a_second_writer_is_refused_while_the_first_runs(tmp_path, corpus):
    out = tmp_path / "ds"
    run_augment(corpus, out, _config(tmp_path))
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from bsl_pipeline.pipeline.base.ownership import WriterLock\n"
        f"with WriterLock({str(out)!r}, 'dataset'):\n print('held', flush=True); time.sleep(60)")],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])})
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(LockedError, match=f"being written by pid {holder.pid}"):
            run_augment(corpus, out, _config(tmp_path, seed=1))
    finally:
        holder.kill()
        holder.wait()
    # The holder died without releasing: its lock is stale and taken over.
    assert (out / LOCK_NAME).exists()
    m = run_augment(corpus, out, _config(tmp_path, seed=1))
    assert m.config["seed"] == 1 and not (out / LOCK_NAME).exists()


def test_two_augment_processes_on_one_out_never_mix(tmp_path, corpus):
    out = tmp_path / "ds"
    procs = [subprocess.Popen([sys.executable, "-m", "bsl_pipeline.cli", "augment", str(corpus), "--out", str(out), "--methods",
                               "noise", "--seed", str(seed), "-o", "corpus.chunk_size=4", "-o",
                               f"registry_dir={tmp_path / 'registry'}"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env={**os.environ, "BSL_NO_PROGRESS": "1"})
             for seed in (0, 1)]
    results = [(p.wait(), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    assert any(rc == 0 for rc, _ in results), results
    for rc, err in results:
        assert rc == 0 or ("is being written by pid" in err and "Traceback" not in err), err
    m = verify_dataset(out)
    assert {row["seed"] for row in _pair_rows(out)} == {m.config["seed"]}


def test_shard_sha256_is_the_markers_not_reread_after_publishing(tmp_path, corpus, monkeypatch):
    from bsl_pipeline.pipeline.augment import job

    real_publish = job.publish_directory

    def publish_then_another_writer(staging, target, *a, **kw):
        published = real_publish(staging, target, *a, **kw)
        if target.name == "data":  # another process swaps in its own shard right after ours
            first = min(target.iterdir())
            table = pq.read_table(first)
            pq.write_table(table.set_column(table.schema.get_field_index("seed"), "seed",
                                            pa.array([1] * table.num_rows, pa.int64())), first)
        return published

    monkeypatch.setattr(job, "publish_directory", publish_then_another_writer)
    out = tmp_path / "ds"
    run_augment(corpus, out, _config(tmp_path))
    markers = [json.loads(p.read_text()) for p in (out / ".work" / "tasks").glob("*.done.json")]
    manifest = json.loads((out / "manifest.json").read_text())
    pairs = [s for s in manifest["shards"] if s["kind"] == "pairs"]
    assert {s["sha256"] for s in pairs} == {m["pairs_sha256"] for m in markers if m["pairs"]}
    with pytest.raises(VerificationError, match="train-00000.*does not match"):
        verify_dataset(out)


def test_a_task_output_changed_after_its_marker_is_not_published(tmp_path, corpus, monkeypatch):
    out = tmp_path / "ds"
    edited = []

    def edit_after_done(result):  # someone writes into .work/tasks between the task and the publish
        if not edited:
            Path(result.pairs_path).write_bytes(Path(result.pairs_path).read_bytes() + b"x")
            edited.append(result.pairs_path)

    with pytest.raises(BSLError, match="changed after its task finished"):
        run_augment(corpus, out, _config(tmp_path), on_task_done=edit_after_done)


# -- High 3: completion markers are authenticated under BSL_MANIFEST_KEY -------------------------------------------
def _edit_cached_task(out: Path) -> str:
    """What someone without the key can do: edit a row of a task output and write its new sha256 into the marker."""
    from bsl_pipeline.pipeline.base.provenance import sha256_file

    pairs = min((out / ".work" / "tasks").glob("*.pairs.parquet"))
    table = pq.read_table(pairs)
    views = table.column("view1").to_pylist()
    views[0] = "ATTACKER ROW"
    pq.write_table(table.set_column(table.schema.get_field_index("view1"), "view1", pa.array(views)), pairs)
    marker = pairs.with_name(pairs.name.replace(".pairs.parquet", ".done.json"))
    record = json.loads(marker.read_text())
    record["pairs_sha256"] = sha256_file(pairs)
    marker.write_text(json.dumps(record))
    return views[0]


def test_under_a_key_an_edited_task_with_a_rewritten_marker_is_recomputed(tmp_path, corpus, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "secret")
    out = tmp_path / "ds"
    first = run_augment(corpus, out, _config(tmp_path))
    _edit_cached_task(out)
    calls = []
    second = run_augment(corpus, out, _config(tmp_path), on_task_done=calls.append)
    assert sum(not r.cached for r in calls) == 1  # the forged marker is not trusted: that task ran again
    assert "ATTACKER ROW" not in {r["view1"] for r in _pair_rows(out)}
    assert [s.sha256 for s in second.shards] == [s.sha256 for s in first.shards]
    verify_dataset(out)


def test_markers_written_without_the_key_are_not_reused_under_it(tmp_path, corpus, monkeypatch):
    out = tmp_path / "ds"
    monkeypatch.delenv(KEY_ENV, raising=False)
    run_augment(corpus, out, _config(tmp_path))
    monkeypatch.setenv(KEY_ENV, "secret")
    calls = []
    run_augment(corpus, out, _config(tmp_path), on_task_done=calls.append)
    assert calls and not any(r.cached for r in calls)
    calls.clear()
    run_augment(corpus, out, _config(tmp_path), on_task_done=calls.append)  # now signed: all reused
    assert calls and all(r.cached for r in calls)
    monkeypatch.setenv(KEY_ENV, "another key")
    calls.clear()
    run_augment(corpus, out, _config(tmp_path), on_task_done=calls.append)
    assert not any(r.cached for r in calls)


# -- Medium 4: bsl corpus sts-sick-train OUT ------------------------------------------------------------------------
def _tiny_data_dir(root: Path) -> Path:
    (root / "stsbenchmark").mkdir(parents=True)
    (root / "sick").mkdir()
    for i, split in enumerate(("train", "dev", "test")):
        (root / "stsbenchmark" / f"sts-{split}.csv").write_text(
            f"main-captions\tMSRvid\t2012test\t{i}\t5.0\tA man plays the {split} guitar.\tA man plays a guitar.\n")
    for split in ("train", "trial", "test_annotated"):
        (root / "sick" / f"SICK_{split}.txt").write_text(
            "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n"
            f"1\tA dog runs in the {split} park.\tA dog runs.\t4.5\tENTAILMENT\n")
    return root


def test_sts_sick_train_never_overwrites_its_input_or_a_foreign_file(tmp_path, capsys):
    data = _tiny_data_dir(tmp_path / "data")
    train = data / "stsbenchmark" / "sts-train.csv"
    before = train.read_bytes()
    assert main(["corpus", "sts-sick-train", str(train), "--data-dir", str(data)]) == 1
    assert "overlap" in capsys.readouterr().err and train.read_bytes() == before
    assert main(["corpus", "sts-sick-train", str(train), "--data-dir", str(data), "--overwrite"]) == 1
    assert train.read_bytes() == before
    out = tmp_path / "notes.txt"
    out.write_text("my notes\n")
    assert main(["corpus", "sts-sick-train", str(out), "--data-dir", str(data)]) == 1
    assert "exists" in capsys.readouterr().err and out.read_text() == "my notes\n"
    assert main(["corpus", "sts-sick-train", str(out), "--data-dir", str(data), "--overwrite"]) == 0
    assert out.read_text() == "A man plays the train guitar.\nA dog runs in the train park.\n"
    (kept,) = (tmp_path / REPLACED_DIR).iterdir()
    assert (kept / "notes.txt").read_text() == "my notes\n"
    assert main(["corpus", "sts-sick-train", str(out), "--data-dir", str(data)]) == 0  # same text: no flag needed


# -- Medium 5: --name stays one file name in the registry ----------------------------------------------------------
@pytest.mark.parametrize("name", ["../../../escaped", "a/b", "a\nb", "..", ".hidden", "a\\b"])
def test_names_that_are_not_one_file_name_are_refused(tmp_path, corpus, name):
    out = tmp_path / "ds"
    with pytest.raises(OwnershipError, match="not usable as a file name"):
        run_augment(corpus, out, _config(tmp_path, name=name))
    assert not out.exists() and not (tmp_path / "registry").exists()
    assert not list(tmp_path.rglob("escaped*"))


def test_register_keeps_the_copy_inside_the_registry(tmp_path, corpus):
    out = tmp_path / "ds"
    run_augment(corpus, out, _config(tmp_path, registry_dir=""))
    with pytest.raises(OwnershipError):
        register(out / "manifest.json", tmp_path / "registry", "../../escaped")
    (tmp_path / "registry" / "datasets").mkdir(parents=True)
    (tmp_path / "registry" / "datasets" / "link.json").symlink_to(tmp_path / "elsewhere.json")
    with pytest.raises(InputError, match="outside"):
        register(out / "manifest.json", tmp_path / "registry", "link")
    assert not (tmp_path / "elsewhere.json").exists()
    one_line_error(_bsl("augment", str(corpus), "--out", str(tmp_path / "ds2"), "--name", "../x"),
                    "not usable as a file name")


# -- Medium 8: verify checks the shard schema -----------------------------------------------------------------------
def _set(table: pa.Table, name: str, array) -> pa.Table:
    return table.set_column(table.schema.get_field_index(name), name, array)


SCHEMA_CASES = {
    "view1 as int64": (lambda t: _set(t, "view1", pa.array(range(t.num_rows), pa.int64())),
                       "column 'view1' is int64, expected string"),
    "view2 as nested lists": (lambda t: _set(t, "view2", pa.array([[v] for v in t.column("view2").to_pylist()])),
                              "column 'view2' is list<element: string>, expected string"),
    "view2 missing": (lambda t: t.drop_columns(["view2"]), "required column 'view2' is missing"),
    "null view2": (lambda t: _set(t, "view2", pa.array([None] * t.num_rows, pa.string())),
                   "row 0: column 'view2' is null"),
    "unknown method": (lambda t: _set(t, "method", pa.array(["evil"] * t.num_rows)),
                       "unknown method value(s) ['evil']"),
    "a 30,000-character view": (lambda t: _set(t, "view1", pa.array(["w " * 15_000] + t.column("view1").to_pylist()[1:])),
                                "row 0: view1 has 30000 characters, more than the maximum view length 20000"),
}


@pytest.mark.parametrize("case", list(SCHEMA_CASES))
def test_verify_checks_the_shard_schema_and_readers_give_one_line(tmp_path, corpus, case):
    change, message = SCHEMA_CASES[case]
    ds = tmp_path / "ds"
    run_augment(corpus, ds, _config(tmp_path))
    (path,) = rewrite_pair_shards(ds, change, only_first=True)
    with pytest.raises(VerificationError) as info:
        verify_dataset(ds)
    assert str(path) in str(info.value) and message in str(info.value)
    proc = _bsl("verify", str(ds), "-q")
    one_line_error(proc, message)
    if case == "a 30,000-character view":
        assert _bsl("verify", str(ds), "-q", "--max-view-chars", "0").returncode == 0
        assert _bsl("verify", str(ds), "-q", "--max-view-chars", "40000").returncode == 0
        assert "(`bsl verify` and `bsl inspect` take --max-view-chars N)" in proc.stderr
        one_line_error(_bsl("inspect", str(ds), "--stats"), message)  # inspect verifies as verify does ...
        assert _bsl("inspect", str(ds), "--stats", "--max-view-chars", "40000").returncode == 0  # ... with its options
    elif case not in ("null view2", "unknown method"):  # types and columns: readers refuse the shard themselves
        proc = _bsl("inspect", str(ds), "--no-verify")
        assert proc.returncode == 1 and "Traceback" not in proc.stderr
        assert proc.stderr.splitlines()[-1].startswith(f"bsl inspect: error: shard {path}: {message}")
        with pytest.raises(InputError, match="not a bsl pairs shard"):
            list(iter_pair_batches(ds))


# -- Medium 10: the card names the manifest's shards ------------------------------------------------------------------
def test_verify_fails_when_the_card_names_other_shards(tmp_path, corpus):
    ds = tmp_path / "ds"
    run_augment(corpus, ds, _config(tmp_path))
    card = (ds / "README.md").read_text()
    (ds / "README.md").write_text("".join(line for line in card.splitlines(keepends=True)
                                          if "train-00003-of-00004" not in line))
    with pytest.raises(VerificationError, match=r"card's 'default' config does not name the manifest's pairs "
                                                 r"shards: it does not name data/train-00003-of-00004\.parquet \("):
        verify_dataset(ds)
    (ds / "README.md").unlink()
    with pytest.raises(VerificationError, match="card is missing"):
        verify_dataset(ds)


@pytest.mark.parametrize("what, make", [
    ("a FIFO", os.mkfifo),
    ("a folder", os.mkdir),
    ("a symbolic link to a folder", lambda path: (path.parent / "elsewhere").mkdir() or path.symlink_to("elsewhere")),
    ("a symbolic link to nothing", lambda path: path.symlink_to("nowhere")),
])
def test_a_shard_replaced_by_what_is_not_a_file_is_named_as_what_it_is(tmp_path, corpus, what, make):
    """A shard replaced by a FIFO or a folder was reported as "missing"; it is named as what it is, and nothing
    there is opened (reading a FIFO would never end)."""
    ds = tmp_path / "ds"
    run_augment(corpus, ds, _config(tmp_path))
    shard = ds / "data" / "train-00001-of-00004.parquet"
    shard.unlink()
    make(shard)
    with pytest.raises(VerificationError) as exc:
        verify_dataset(ds)
    assert str(exc.value) == f"{shard}: shard listed in the manifest is {what}, not a plain file"
    with pytest.raises(InputError) as exc:
        list(iter_pair_batches(ds))
    assert str(exc.value) == f"shard {shard} is {what}, not a plain file"
    if what == "a FIFO":
        proc = _bsl("inspect", str(ds), "--no-verify", timeout=60)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr
        assert proc.stderr.splitlines()[-1] == f"bsl inspect: error: shard {shard} is a FIFO, not a plain file"


def test_a_kill_between_card_and_manifest_never_verifies(tmp_path, corpus, monkeypatch):
    from bsl_pipeline.pipeline.dataset import card

    ds = tmp_path / "ds"
    run_augment(corpus, ds, _config(tmp_path))

    def killed(dataset_dir, manifest):
        raise KeyboardInterrupt  # the process dies while writing the card

    monkeypatch.setattr(card, "write_dataset_card", killed)
    with pytest.raises(KeyboardInterrupt):
        run_augment(corpus, ds, _config(tmp_path, seed=1))
    with pytest.raises(VerificationError):
        verify_dataset(ds)


# -- Low ------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_low_full_disk_or_read_only_file_system_is_one_line(tmp_path, corpus, monkeypatch, capsys, code):
    from bsl_pipeline.pipeline.augment import tasks

    def no_space(table, path):
        raise OSError(code, os.strerror(code), str(path))

    monkeypatch.setattr(tasks, "write_parquet_atomic", no_space)
    out = tmp_path / "ds"
    assert main(["augment", str(corpus), "--out", str(out), "--methods", "noise", "-o",
                 f"registry_dir={tmp_path / 'registry'}", "-o", "progress=false"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and os.strerror(code) in err and ".pairs.parquet" in err
    assert not (out / LOCK_NAME).exists()


def test_low_a_corpus_that_grows_between_read_and_hash_is_refused(tmp_path, corpus):
    def grow(result):
        with open(corpus, "a", encoding="utf-8") as fh:
            fh.write("A line appended while the job runs.\n")

    with pytest.raises(InputError, match="corpus file changed while it was read"):
        run_augment(corpus, tmp_path / "ds", _config(tmp_path), on_task_done=grow)


def test_low_a_symlink_to_a_file_outside_the_corpus_dir_is_refused(tmp_path, corpus):
    secret = tmp_path / "secret.txt"
    secret.write_text("A private line that must not become a view pair.\n")
    (corpus.parent / "link.txt").symlink_to(secret)
    with pytest.raises(InputError, match="link.txt: a symlink to .*outside the corpus directory"):
        run_augment(corpus.parent, tmp_path / "ds", _config(tmp_path))
    (corpus.parent / "link.txt").unlink()
    (corpus.parent / "inside.txt").symlink_to(corpus)  # a link inside the directory is fine
    run_augment(corpus.parent, tmp_path / "ds", _config(tmp_path))


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_low_manifest_card_and_shards_have_one_umask_respecting_mode(tmp_path, corpus, umask):
    old = os.umask(umask)
    try:
        ds = tmp_path / "ds"
        run_augment(corpus, ds, _config(tmp_path))
    finally:
        os.umask(old)
    files = [ds / "manifest.json", ds / "README.md", *sorted((ds / "data").iterdir()),
             tmp_path / "registry" / "datasets" / "ds.json"]
    assert {stat.S_IMODE(f.stat().st_mode) for f in files} == {0o666 & ~umask}

