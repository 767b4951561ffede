"""Files a command writes outside its own marked directory (`bsl evaluate --json/--markdown/--plot`, `bsl inspect
--html`, `bsl review --export-avoid`) are rewritten without `--overwrite` only when the record of written files
proves the command wrote them as they are now; a file that merely looks like the tool's output is the user's: refused
without `--overwrite`, set aside with it. No such command writes onto a link, device or FIFO."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bsl_pipeline.cli.cli import main
from bsl_pipeline.pipeline.augment.job import run_augment
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.ownership import REPLACED_DIR
from bsl_pipeline.pipeline.dataset.store import load_manifest
from one_line import one_line_error
from small_corpus import augment_config, write_corpus

PNG_LOOKALIKE = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00"
                 b"\x90wS\xde\x00\x00\x00\x19tEXtSoftware\x00bsl evaluate")


def _bsl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], capture_output=True, text=True,
                          check=False, env={**os.environ, "BSL_NO_PROGRESS": "1"})


def _replaced(folder: Path) -> list[Path]:
    return sorted(p for p in (folder / REPLACED_DIR).rglob("*") if p.is_file()) if (folder / REPLACED_DIR).exists() \
        else []


def _evaluate(tiny_bert_dir, shared_data, *extra: str) -> int:
    return main(["evaluate", str(tiny_bert_dir), "--data-dir", str(shared_data), "--tasks", "stsb", "--no-stsb-dev",
                 "--no-cache", "--no-progress", "--batch-size", "64", *extra])


def test_a_file_that_mentions_bsl_is_not_taken_for_its_output(tiny_bert_dir, shared_data, tmp_path, capsys):
    script = tmp_path / "run_eval.sh"
    script.write_text("#!/bin/sh\n# plots with: bsl evaluate ... (PNG Software: bsl evaluate)\nbsl evaluate m\n")
    thesis = tmp_path / "thesis.md"
    thesis.write_text("# Results\n\n| model | STS-B |\n|---|---:|\n| m | 80.1 |\n\n<!-- written by bsl evaluate -->\n")
    picture = tmp_path / "figure.png"
    picture.write_bytes(PNG_LOOKALIKE)
    mine = {p: p.read_bytes() for p in (script, thesis, picture)}
    for flag, path in (("--plot", script), ("--markdown", thesis), ("--plot", picture), ("--json", thesis)):
        assert _evaluate(tiny_bert_dir, shared_data, flag, str(path)) == 1
        assert "no record of writing it" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in mine} == mine
    assert _evaluate(tiny_bert_dir, shared_data, "--plot", str(script), "--markdown", str(thesis),
                     "--overwrite") == 0
    kept = {p.name: p.read_bytes() for p in _replaced(tmp_path)}
    assert kept == {"run_eval.sh": mine[script], "thesis.md": mine[thesis]}
    assert script.read_bytes().startswith(b"\x89PNG")


def test_its_own_output_is_rewritten_until_someone_edits_it(tiny_bert_dir, shared_data, tmp_path, capsys):
    md, js = tmp_path / "r.md", tmp_path / "r.json"
    assert _evaluate(tiny_bert_dir, shared_data, "--markdown", str(md), "--json", str(js)) == 0
    assert _evaluate(tiny_bert_dir, shared_data, "--markdown", str(md), "--json", str(js)) == 0  # proven its own
    assert not _replaced(tmp_path)
    md.write_text(md.read_text() + "\nMy conclusions.\n")  # the user's now
    assert _evaluate(tiny_bert_dir, shared_data, "--markdown", str(md)) == 1
    assert "no record of writing it" in capsys.readouterr().err and md.read_text().endswith("My conclusions.\n")
    # The same file at a path the tool never wrote (a copy) is not its file either.
    copy = tmp_path / "copy.json"
    copy.write_bytes(js.read_bytes())
    assert _evaluate(tiny_bert_dir, shared_data, "--json", str(copy)) == 1


def _special(tmp_path: Path, kind: str) -> tuple[Path, Path | None]:
    """A link (to a user's file), a FIFO or a character device (like /dev/null) at tmp_path/out."""
    out = tmp_path / "out"
    if kind == "symlink":
        target = tmp_path / "notes.txt"
        target.write_text("my notes\n")
        out.symlink_to(target)
        return out, target
    if kind == "fifo":
        os.mkfifo(out)
    else:
        try:
            os.mknod(out, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        except PermissionError:
            pytest.skip("making a device node needs CAP_MKNOD")
    return out, None


@pytest.mark.parametrize("kind", ["symlink", "fifo", "device"])
def test_never_onto_a_link_fifo_or_device_even_with_overwrite(tiny_bert_dir, shared_data, tmp_path, capsys, kind):
    out, target = _special(tmp_path, kind)
    before = os.lstat(out)
    for flag in ("--plot", "--json", "--markdown"):
        assert _evaluate(tiny_bert_dir, shared_data, flag, str(out), "--overwrite") == 1
        assert "bsl writes only plain files" in capsys.readouterr().err
    after = os.lstat(out)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode) and not _replaced(tmp_path)
    if target is not None:
        assert target.read_text() == "my notes\n"


@pytest.fixture
def ds(tmp_path) -> Path:
    out = tmp_path / "ds"
    run_augment(write_corpus(tmp_path), out, augment_config(tmp_path))
    return out


@pytest.mark.parametrize("kind", ["symlink", "fifo", "device"])
def test_export_avoid_never_onto_a_link_fifo_or_device(ds, tmp_path, kind):
    from bsl_pipeline.pipeline.augment.avoid_export import export_avoid_file

    out, target = _special(tmp_path, kind)
    before = os.lstat(out)
    with pytest.raises(BSLError, match="bsl writes only plain files"):
        export_avoid_file(load_manifest(ds), out, overwrite=True)
    assert os.lstat(out).st_ino == before.st_ino and stat.S_IFMT(os.lstat(out).st_mode) == stat.S_IFMT(before.st_mode)
    if target is not None:
        assert target.read_text() == "my notes\n"


def test_export_avoid_onto_a_users_file_is_refused_then_set_aside(ds, tmp_path):
    from bsl_pipeline.pipeline.augment.avoid_export import export_avoid_file

    avoid = tmp_path / "avoid.txt"
    avoid.write_text("n dog>domestic_dog  # mine\n")
    with pytest.raises(BSLError, match="no record of writing it"):
        export_avoid_file(load_manifest(ds), avoid)
    assert avoid.read_text() == "n dog>domestic_dog  # mine\n"
    assert export_avoid_file(load_manifest(ds), avoid, overwrite=True) == (0, 1)  # its entries carried over
    assert [p.read_text() for p in _replaced(tmp_path)] == ["n dog>domestic_dog  # mine\n"]
    assert avoid.read_text() == "n dog>domestic_dog  # mine\n"
    assert export_avoid_file(load_manifest(ds), avoid) == (0, 1)  # now recorded as written: no flag needed
    assert len(_replaced(tmp_path)) == 1



def test_export_avoid_over_a_file_that_is_not_an_avoid_file_sets_it_aside_with_overwrite(ds, tmp_path):
    """A file of the user's that is not an avoid file is refused naming it; with --overwrite it is set aside whole
    and the avoid file starts afresh (no setting is named: the file is not read as one)."""
    from bsl_pipeline.pipeline.augment.avoid_export import export_avoid_file

    for i, text in enumerate(("my precious\n", "\xff\xfe not text\n")):
        folder = tmp_path / f"notes-{i}"
        folder.mkdir()
        notes = folder / "notes.txt"
        notes.write_bytes(text.encode("latin-1"))
        with pytest.raises(BSLError, match=f"{notes} exists and bsl has no record of writing it") as refused:
            export_avoid_file(load_manifest(ds), notes)
        assert "avoid_file" not in str(refused.value) and notes.read_bytes() == text.encode("latin-1")
        assert export_avoid_file(load_manifest(ds), notes, overwrite=True) == (0, 0)
        assert [p.read_bytes() for p in _replaced(folder)] == [text.encode("latin-1")]
        assert notes.read_text().startswith("# Substitutions of the synonyms method that people judged wrong")


@pytest.mark.parametrize("place", ["data/avoid.txt", "avoid.txt", "corpus/corpus.txt"])
def test_export_avoid_never_into_the_dataset_or_its_corpus(ds, tmp_path, place):
    """As `bsl inspect --html`: a file inside the dataset (in data/ it would be an unlisted file that fails `bsl
    verify`) or inside its corpus (read as records by the next run) is refused, even with --overwrite."""
    from bsl_pipeline.pipeline.augment.avoid_export import export_avoid_file
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    out = (tmp_path if place.startswith("corpus/") else ds) / place
    before = out.read_bytes() if out.exists() else None
    with pytest.raises(BSLError, match=f"--export-avoid {out} and input .* overlap"):
        export_avoid_file(load_manifest(ds), out, overwrite=True)
    assert (out.read_bytes() if out.exists() else None) == before and not _replaced(out.parent)
    verify_dataset(ds)

def test_inspect_html_recognises_its_page_by_the_record_not_its_generator_tag(ds, tmp_path):
    page = tmp_path / "page.html"
    page.write_text('<html><head><meta name="generator" content="bsl inspect"></head><body>my page</body></html>')
    one_line_error(_bsl("inspect", str(ds), "--html", str(page)), str(page), "--overwrite")
    assert "my page" in page.read_text()
    assert _bsl("inspect", str(ds), "--html", str(page), "--overwrite").returncode == 0
    assert _bsl("inspect", str(ds), "--html", str(page), "-n", "2").returncode == 0
    assert len(_replaced(tmp_path)) == 1


def test_a_registry_others_may_write_vouches_for_nothing(tmp_path, monkeypatch):
    from bsl_pipeline.pipeline.base.written_files import record_written, recorded_by, registry_path

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    out = tmp_path / "r.md"
    out.write_text("x")
    record_written(out, "bsl evaluate --markdown")
    assert recorded_by("bsl evaluate --markdown")(out)
    assert not recorded_by("bsl evaluate --json")(out)  # another command's file
    assert stat.S_IMODE(registry_path().stat().st_mode) == 0o600
    os.chmod(registry_path(), 0o666)
    with pytest.raises(BSLError, match="writable only by you"):
        recorded_by("bsl evaluate --markdown")(out)
