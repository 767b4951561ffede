"""The tool writes only where it may, and one writer at a time (pipeline.base.ownership)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from bsl_pipeline.pipeline.base.ownership import (
    LOCK_NAME,
    MARKER_NAME,
    REPLACED_DIR,
    LockedError,
    OwnershipError,
    WriterLock,
    check_not_input,
    claim_directory,
)
from small_corpus import DOG_LINES, noise_dataset


def test_new_and_empty_directories_are_claimed_with_a_marker(tmp_path):
    claim_directory(tmp_path / "new", "dataset")
    (tmp_path / "empty").mkdir()
    claim_directory(tmp_path / "empty", "dataset")
    for name in ("new", "empty"):
        marker = json.loads((tmp_path / name / MARKER_NAME).read_text())
        assert marker["tool"] == "bsl" and marker["kind"] == "dataset"
    claim_directory(tmp_path / "new", "dataset")  # ours: claimed again without a word


def test_a_foreign_directory_is_refused_and_left_untouched(tmp_path):
    out = tmp_path / "out"
    (out / "data").mkdir(parents=True)
    (out / "data" / "important.csv").write_text("x")
    (out / "README.md").write_text("mine")
    with pytest.raises(OwnershipError, match=r"not empty and was not created by bsl \(README.md, data\)"):
        claim_directory(out, "dataset", own_names=["data", "README.md"])
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "data"]
    assert (out / "data" / "important.csv").read_text() == "x"


def test_overwrite_sets_aside_what_would_be_replaced_and_deletes_nothing(tmp_path):
    out = tmp_path / "out"
    (out / "data").mkdir(parents=True)
    (out / "data" / "important.csv").write_text("x")
    (out / "notes.txt").write_text("kept in place")
    claim_directory(out, "dataset", overwrite=True, own_names=["data", "README.md"])
    (kept,) = list((out / REPLACED_DIR).iterdir())
    assert (kept / "data" / "important.csv").read_text() == "x"
    assert (out / "notes.txt").read_text() == "kept in place" and not (out / "data").exists()


def test_a_directory_another_bsl_process_is_claiming_right_now_is_not_foreign(tmp_path, monkeypatch):
    # CI saw this race: two `bsl augment --out D` started together; one was writing its marker's temp file when the
    # other listed D, which it then refused as foreign instead of meeting the first one's lock.
    out = tmp_path / "out"
    out.mkdir()
    (out / f".{MARKER_NAME}.x1y2z3.tmp").write_text("")
    (out / LOCK_NAME).write_text("{}")
    claim_directory(out, "dataset")
    assert json.loads((out / MARKER_NAME).read_text())["kind"] == "dataset"

    # The other process's marker lands between our read of the marker and our listing, its staging beside it.
    from bsl_pipeline.pipeline.base import ownership
    real_read = ownership.read_marker

    def claim_while_another_lands(name, other_kind, kind):
        directory = tmp_path / name
        directory.mkdir()
        looks = []

        def marker_lands_after_first_look(d):
            looks.append(d)
            if len(looks) == 1:
                ownership._write_marker(directory, other_kind)
                (directory / ".staging-1234").mkdir()
                return None
            return real_read(d)

        monkeypatch.setattr(ownership, "read_marker", marker_lands_after_first_look)
        try:
            return claim_directory(directory, kind)
        finally:
            monkeypatch.setattr(ownership, "read_marker", real_read)

    assert claim_while_another_lands("same", "dataset", "dataset") == tmp_path / "same"
    with pytest.raises(OwnershipError, match="holds a bsl training-run, not a dataset"):
        claim_while_another_lands("other", "training-run", "dataset")


def test_another_kind_of_output_is_refused(tmp_path):
    claim_directory(tmp_path / "run", "training-run")
    with pytest.raises(OwnershipError, match="holds a bsl training-run, not a dataset"):
        claim_directory(tmp_path / "run", "dataset", overwrite=True)


def test_a_file_is_not_a_directory_and_markers_are_validated(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(OwnershipError, match="is not a directory"):
        claim_directory(tmp_path / "f", "dataset")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / MARKER_NAME).write_text('{"tool": "other"}')
    with pytest.raises(OwnershipError, match="not a bsl output marker"):
        claim_directory(tmp_path / "d", "dataset")


def test_a_legacy_output_vouched_for_is_adopted(tmp_path):
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "manifest.json").write_text("{}")
    claim_directory(tmp_path / "old", "dataset", recognise=lambda d: (d / "manifest.json").exists())
    assert (tmp_path / "old" / MARKER_NAME).exists()


@pytest.mark.parametrize("out_rel, in_rel", [("c", "c"), ("c/out", "c"), ("c", "c/corpus.txt")])
def test_output_and_input_never_overlap(tmp_path, out_rel, in_rel):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "corpus.txt").write_text("a\n")
    with pytest.raises(OwnershipError, match="overlap"):
        check_not_input(tmp_path / out_rel, [tmp_path / in_rel])
    check_not_input(tmp_path / "elsewhere", [tmp_path / "c"])


def test_a_url_is_never_a_local_output_and_overlaps_no_local_one(tmp_path, monkeypatch):
    """A URL where a local file or folder is written is one line naming the flag (as a path it would be a folder
    named `s3:` here); a URL input overlaps no local output, and `./s3://x` stays a local path."""
    from bsl_pipeline.pipeline.base.ownership import claim_file

    monkeypatch.chdir(tmp_path)
    for refuse in (lambda: claim_file("s3://data/report.html", what="--html"),
                   lambda: claim_file("s3://data/views/x.html", inputs=["s3://data/views"], what="--html"),
                   lambda: check_not_input("s3://data/views/x", [tmp_path], "--html"),
                   lambda: claim_directory("gs://bucket/run", "dataset")):
        with pytest.raises(OwnershipError, match=r"^(--html|the dataset directory) [a-z0-9]+://\S+: this is "
                                                 r"written to this disk, not to a URL"):
            refuse()
    assert list(tmp_path.iterdir()) == []
    check_not_input(tmp_path / "s3:" / "data" / "views" / "x.html", ["s3://data/views"], "--html")
    assert claim_file("./s3://data/x.html").resolve() == tmp_path / "s3:" / "data" / "x.html"


def test_a_second_writer_is_refused_while_the_first_holds_the_lock(tmp_path):
    with WriterLock(tmp_path, what="dataset"):
        holder = json.loads((tmp_path / LOCK_NAME).read_text())
        assert holder["pid"] == os.getpid() and holder["host"] == socket.gethostname()
        with pytest.raises(LockedError, match=rf"being written by pid {os.getpid()} .* remove .*{LOCK_NAME}"):
            WriterLock(tmp_path).acquire()
    assert not (tmp_path / LOCK_NAME).exists()  # released on exit
    with WriterLock(tmp_path):
        pass


def test_a_stale_lock_of_a_dead_process_is_taken_over(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    pid = int(dead.stdout)
    (tmp_path / LOCK_NAME).write_text(json.dumps({"pid": pid, "host": socket.gethostname(), "started": "x"}))
    with WriterLock(tmp_path):
        assert json.loads((tmp_path / LOCK_NAME).read_text())["pid"] == os.getpid()


def test_a_lock_from_another_host_is_never_taken_over(tmp_path):
    (tmp_path / LOCK_NAME).write_text(json.dumps({"pid": 1, "host": "other-machine", "started": "x"}))
    with pytest.raises(LockedError, match="on other-machine"):
        WriterLock(tmp_path).acquire()
    assert json.loads((tmp_path / LOCK_NAME).read_text())["host"] == "other-machine"


# A process that read a stale lock stops here, before removing it, until the test says go (a line on its stdin).
_PAUSED_TAKER = """
import sys
from bsl_pipeline.pipeline.base.ownership import LockedError, WriterLock

remove_stale = WriterLock._remove_stale


def paused(self, holder):
    print("read", holder["pid"], flush=True)
    sys.stdin.readline()
    return remove_stale(self, holder)


WriterLock._remove_stale = paused
try:
    WriterLock(sys.argv[1]).acquire()
    print("took", flush=True)
except LockedError as exc:
    print("refused", exc, flush=True)
"""


def _dead_pid() -> int:
    return int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True, check=True).stdout)


def test_a_live_lock_that_replaced_a_stale_one_is_never_taken_over(tmp_path):
    """Two processes find the same stale lock. The first reads it and stops before removing it; the second (this
    test) takes it over and holds the lock; then the first goes on: it must see the live lock and stop, leaving
    the lock where it is."""
    dead = _dead_pid()
    (tmp_path / LOCK_NAME).write_text(json.dumps({"pid": dead, "host": socket.gethostname(), "started": "x"}))
    taker = subprocess.Popen([sys.executable, "-c", _PAUSED_TAKER, str(tmp_path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert taker.stdout.readline().split() == ["read", str(dead)]
        with WriterLock(tmp_path, what="dataset"):
            mine = json.loads((tmp_path / LOCK_NAME).read_text())
            assert mine["pid"] == os.getpid()
            out, err = taker.communicate("go\n", timeout=60)
            assert out.startswith(f"refused {tmp_path} (directory) is being written by pid {os.getpid()}"), out + err
            assert json.loads((tmp_path / LOCK_NAME).read_text()) == mine  # still this process's lock
            assert sorted(p.name for p in tmp_path.iterdir()) == [LOCK_NAME]
        assert not (tmp_path / LOCK_NAME).exists()
    finally:
        if taker.poll() is None:
            taker.kill()
            taker.wait()


def test_two_takers_of_one_stale_lock_never_both_hold_it(tmp_path):
    """Both read the stale lock before either removes it: one takes the lock, the other is refused."""
    dead = _dead_pid()
    (tmp_path / LOCK_NAME).write_text(json.dumps({"pid": dead, "host": socket.gethostname(), "started": "x"}))
    takers = [subprocess.Popen([sys.executable, "-c", _PAUSED_TAKER + "\nsys.stdin.readline()\n", str(tmp_path)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
              for _ in range(2)]
    try:
        for taker in takers:
            assert taker.stdout.readline().split() == ["read", str(dead)]
        results = []
        for taker in takers:  # one after the other: the first takes the lock and keeps it until told to exit
            taker.stdin.write("go\n")
            taker.stdin.flush()
            results.append(taker.stdout.readline())
        assert results[0] == "took\n", results
        assert results[1].startswith(f"refused {tmp_path} (directory) is being written by pid {takers[0].pid}")
        assert json.loads((tmp_path / LOCK_NAME).read_text())["pid"] == takers[0].pid
    finally:
        for taker in takers:
            taker.kill()
            taker.wait()


@pytest.mark.parametrize("planted", ["fifo", "link"])
def test_a_marker_that_is_a_fifo_or_a_link_is_refused_without_reading_it(tmp_path, planted):
    import threading

    from bsl_pipeline.pipeline.base.ownership import read_marker

    (tmp_path / "d").mkdir()
    marker = tmp_path / "d" / MARKER_NAME
    if planted == "fifo":
        os.mkfifo(marker)
    else:
        (tmp_path / "elsewhere.json").write_text(json.dumps({"tool": "bsl", "kind": "dataset"}))
        marker.symlink_to(tmp_path / "elsewhere.json")
    outcome: list[BaseException] = []

    def read() -> None:
        try:
            read_marker(tmp_path / "d")
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome.append(exc)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(20)
    assert outcome, "reading the marker did not return (or accepted it)"
    assert isinstance(outcome[0], OwnershipError)
    assert "unreadable output marker" in str(outcome[0]) and ("not a plain file" in str(outcome[0])
                                                              or "symbolic link" in str(outcome[0]))


def test_dataset_from_before_markers_is_recognised(tmp_path):
    """`Manifest` has attributes, not `.get`: the check of a marker-less dataset directory raised AttributeError."""
    from bsl_pipeline.pipeline.base.ownership import MARKER_NAME

    noise_dataset(tmp_path, "ds", DOG_LINES)
    (tmp_path / "ds" / MARKER_NAME).unlink()
    again = noise_dataset(tmp_path, "ds", DOG_LINES)
    assert again.stats.pairs == 4 and (tmp_path / "ds" / MARKER_NAME).is_file()
