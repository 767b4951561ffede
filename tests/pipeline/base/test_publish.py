import os
import subprocess
import sys

from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment
from bsl_pipeline.pipeline.base.ownership import MARKER_NAME, claim_directory
from bsl_pipeline.pipeline.base.publish import publish_directory, remove_stale_staging, staging_dir


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_staging_names_are_private_and_publish_replaces_the_whole_directory(tmp_path):
    target = tmp_path / "data"
    target.mkdir()
    (target / "old.txt").write_text("old")
    a, b = staging_dir(target), staging_dir(target)
    assert a != b and a.parent == tmp_path and a.name.startswith(f".data.staging-{os.getpid()}-")
    (a / "new.txt").write_text("new")
    assert publish_directory(a, target) is True
    assert sorted(p.name for p in target.iterdir()) == ["new.txt"]
    # b untouched, no retired copy left; old.txt (not in the new copy) is set aside, not deleted
    assert sorted(p.name for p in tmp_path.iterdir()) == [".bsl-replaced", b.name, "data"]
    assert [p.read_text() for p in (tmp_path / ".bsl-replaced").rglob("old.txt")] == ["old"]


def test_keep_existing_discards_the_staging_copy(tmp_path):
    target = tmp_path / "wordnet"
    target.mkdir()
    staging = staging_dir(target)
    assert publish_directory(staging, target, keep_existing=lambda t: True) is False
    assert not staging.exists() and target.is_dir()


def test_only_leftovers_of_dead_processes_are_removed(tmp_path):
    dead, alive = _dead_pid(), os.getpid()
    for name in (f".data.staging-{dead}-abcd1234", f".data.old-{dead}-abcd1234", f".data.staging-{alive}-abcd1234",
                 f".rejects.staging-{dead}-abcd1234", ".data.notes-1-2", f".data.v2.staging-{dead}-abcd1234"):
        (tmp_path / name).mkdir()
    remove_stale_staging(tmp_path, "data")
    # `.data.v2.staging-...` is the leftover of the folder `data.v2`, not of `data`: left for its own publisher
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".data.notes-1-2", f".data.staging-{alive}-abcd1234", f".data.v2.staging-{dead}-abcd1234",
        f".rejects.staging-{dead}-abcd1234"]


def test_augment_publish_leaves_no_staging_and_clears_a_killed_runs_leftovers(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("The first sentence is here.\nThe second one is here too.\n")
    out = tmp_path / "ds"
    claim_directory(out, "dataset")  # a run killed after claiming its --out left these behind
    dead = _dead_pid()
    for name in (f".data.staging-{dead}-abcd1234", ".data.staging", ".rejects.old"):
        (out / name).mkdir()
    run_augment(corpus, out, AugmentConfig(methods=["identity"], registry_dir="", progress=False))
    assert sorted(p.name for p in out.iterdir()) == [MARKER_NAME, ".work", "README.md", "data", "manifest.json",
                                                     "rejects"]
