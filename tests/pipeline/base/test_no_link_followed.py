"""No cleanup, replacement or set-aside follows a symbolic link: a link planted where the tool expects its own
staging, retired, work or set-aside folder, or the folder it replaces, is refused with its name and left alone, and
the files of the directory it points to stay where they are."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bsl_pipeline.pipeline.augment.job import run_augment
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.publish import publish_directory, remove_stale_staging, staging_dir
from one_line import one_line_error
from small_corpus import augment_config, write_corpus

DEAD_PID = 4_000_000  # no process has it (under Linux's largest pid_max, so it reads as a killed run's)


def _victim(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    victim = tmp_path / "victim"
    (victim / "sub").mkdir(parents=True)
    files = {"thesis.tex": "my thesis\n", "sub/data.csv": "1,2\n"}
    for name, text in files.items():
        (victim / name).write_text(text)
    return victim, files


def _intact(victim: Path, files: dict[str, str]) -> bool:
    return {p.relative_to(victim).as_posix(): p.read_text() for p in victim.rglob("*") if p.is_file()} == files


def _bsl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], capture_output=True, text=True,
                          check=False, env={**os.environ, "BSL_NO_PROGRESS": "1"})


@pytest.fixture
def dataset(tmp_path) -> tuple[Path, Path]:
    corpus = write_corpus(tmp_path)
    out = tmp_path / "ds"
    run_augment(corpus, out, augment_config(tmp_path))
    return corpus, out


@pytest.mark.parametrize("name", [f".data.old-{DEAD_PID}-deadbeef", ".data.old", "data", ".work", ".work/tasks"])
def test_augment_rerun_refuses_a_planted_link_and_moves_nothing(tmp_path, dataset, name):
    corpus, out = dataset
    victim, files = _victim(tmp_path)
    link = out / name
    if link.exists():
        os.replace(link, tmp_path / "moved-away")
    link.symlink_to(victim, target_is_directory=True)
    proc = _bsl("augment", str(corpus), "--out", str(out), "--methods", "noise", "-o", "corpus.chunk_size=8",
                "-o", f"registry_dir={tmp_path / 'registry'}")
    one_line_error(proc, str(link), "symbolic link")
    assert _intact(victim, files) and link.is_symlink() and os.readlink(link) == str(victim)


def test_data_fetch_stale_retired_link_is_left_alone(tmp_path):
    # `bsl data fetch --force` clears a killed run's leftovers beside the set folder with this same function.
    data = tmp_path / "data"
    (data / "stsbenchmark").mkdir(parents=True)
    victim, files = _victim(tmp_path)
    link = data / f".stsbenchmark.old-{DEAD_PID}-deadbeef"
    link.symlink_to(victim)
    with pytest.raises(BSLError, match="symbolic link"):
        remove_stale_staging(data, "stsbenchmark", lambda _relative, _path: False)
    assert _intact(victim, files) and link.is_symlink()
    assert not (data / ".bsl-replaced").exists()


def test_publishing_over_a_link_refuses_it(tmp_path):
    victim, files = _victim(tmp_path)
    target = tmp_path / "out" / "export"
    target.parent.mkdir()
    target.symlink_to(victim)
    staging = staging_dir(target)
    (staging / "new.txt").write_text("new")
    with pytest.raises(BSLError, match="symbolic link"):
        publish_directory(staging, target)
    assert _intact(victim, files) and target.is_symlink()


def test_set_aside_never_into_a_linked_replaced_folder(tmp_path, dataset):
    _, out = dataset
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / ".bsl-replaced").symlink_to(elsewhere)
    page = tmp_path / "page.html"
    page.write_text("my page")
    one_line_error(_bsl("inspect", str(out), "--html", str(page), "--overwrite"), ".bsl-replaced", "symbolic link")
    assert page.read_text() == "my page" and list(elsewhere.iterdir()) == []
