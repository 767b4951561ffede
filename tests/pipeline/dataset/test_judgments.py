"""Judgments bound to their dataset: a mark counts only when its pair is one of the dataset's, of the method it
claims, and (with BSL_MANIFEST_KEY set) signed; the file's place is fixed; `bsl verify` checks it; the summary,
card, report and `--min-usable` count only valid marks and say how many were dropped and why."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from bsl_pipeline.cli.cli import main
from bsl_pipeline.pipeline.augment.job import run_augment
from bsl_pipeline.pipeline.base.errors import InputError, VerificationError
from bsl_pipeline.pipeline.dataset.judgments import (
    append_judgment,
    check_min_usable,
    dataset_figures,
    judgments_path,
    make_judgment,
    pairs_checksum,
)
from bsl_pipeline.pipeline.dataset.manifest import write_manifest
from bsl_pipeline.pipeline.dataset.store import load_manifest
from one_line import one_line_error
from small_corpus import augment_config, write_corpus


def _bsl(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], capture_output=True, text=True,
                          check=False, env={**os.environ, "BSL_NO_PROGRESS": "1", **(env or {})})


@pytest.fixture
def ds(tmp_path) -> Path:
    """A dataset of two methods (noise, span-mask) over the small corpus."""
    out = tmp_path / "ds"
    run_augment(write_corpus(tmp_path), out, augment_config(tmp_path, methods=["noise", "span-mask"]))
    return out


def _pairs(ds: Path) -> dict[str, str]:
    """pair_id -> method, read straight from the shards."""
    out = {}
    for shard in sorted((ds / "data").glob("*.parquet")):
        table = pq.read_table(shard, columns=["pair_id", "method"])
        out.update(zip(table.column("pair_id").to_pylist(), table.column("method").to_pylist()))
    return out


def _forge(ds: Path, lines: list[dict]) -> None:
    """Append lines as anyone who can write the directory can: the right pairs checksum, any pair id and method."""
    checksum = pairs_checksum(load_manifest(ds))
    with open(ds / "judgments.jsonl", "a", encoding="utf-8") as fh:
        for line in lines:
            fh.write(json.dumps({"dataset": checksum, "mark": "usable", "classes": [], "note": "",
                                 "reviewer": "mallory", "time": "2026-01-01T00:00:00.000+00:00", **line}) + "\n")


def _mark(ds: Path, pair_id: str, method: str, mark: str = "usable", reviewer: str = "ann") -> None:
    manifest = load_manifest(ds)
    append_judgment(judgments_path(manifest), make_judgment(manifest, pair_id, method, mark, reviewer=reviewer))


def test_made_up_pair_ids_are_dropped_everywhere_and_said_so(ds, tmp_path, capsys):
    pairs = _pairs(ds)
    noise = [p for p, m in pairs.items() if m == "noise"]
    _mark(ds, noise[0], "noise", "not_usable")
    _forge(ds, [{"pair_id": f"forged-{i}", "method": "noise"} for i in range(200)])
    figures = dataset_figures(load_manifest(ds))
    assert figures.per_method["noise"].judged == 1 and figures.per_method["noise"].usable == 0
    assert "200 mark(s) not counted: 200 unknown pair" in figures.dropped
    assert "judgments.jsonl:2" in figures.dropped  # the first forged line
    assert main(["review", str(ds), "--summary"]) == 0
    out = capsys.readouterr().out
    assert "200 mark(s) not counted" in out and "pair id not in this dataset" in out
    with pytest.raises(InputError, match="under --min-usable 0.5 .*200 mark.s. not counted"):
        check_min_usable(load_manifest(ds), 0.5, ["noise"])
    # bsl train --min-usable refuses before anything is trained
    assert main(["train", "-m", str(ds), "--min-usable", "0.5", "--output-dir", str(tmp_path / "run")]) == 1
    assert "200 mark(s) not counted" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_another_methods_pairs_do_not_count_for_the_method_claimed(ds):
    pairs = _pairs(ds)
    span = [p for p, m in pairs.items() if m == "span-mask"]
    _forge(ds, [{"pair_id": p, "method": "noise"} for p in span])
    figures = dataset_figures(load_manifest(ds))
    assert figures.per_method["noise"].judged == 0
    assert f"{len(span)} method differs" in figures.dropped
    with pytest.raises(InputError, match="'noise' has no judged pairs"):
        check_min_usable(load_manifest(ds), 0.1, ["noise"])


def test_under_the_key_only_signed_lines_count(ds, monkeypatch):
    from bsl_pipeline.pipeline.dataset.judgments import verify_judgments

    pairs = _pairs(ds)
    noise = [p for p, m in pairs.items() if m == "noise"]
    monkeypatch.setenv("BSL_MANIFEST_KEY", "secret")
    _mark(ds, noise[0], "noise")  # signed by the tool
    line = json.loads((ds / "judgments.jsonl").read_text().splitlines()[0])
    assert len(line["signature"]) == 64
    _forge(ds, [{"pair_id": p, "method": "noise"} for p in noise[1:6]])  # real pairs, unsigned
    _forge(ds, [{"pair_id": noise[6], "method": "noise", "signature": "0" * 64}])
    edited = {**line, "mark": "not_usable"}  # a signed line with its mark changed
    _forge(ds, [edited])
    figures = dataset_figures(load_manifest(ds))
    assert (figures.per_method["noise"].judged, figures.per_method["noise"].usable) == (1, 1)
    assert "5 unsigned" in figures.dropped and "2 bad signature" in figures.dropped
    with pytest.raises(VerificationError, match="judgments.jsonl: 7 mark.s. not counted"):
        verify_judgments(load_manifest(ds))
    # The same file without the key: signatures are not checked, every line of a real pair counts.
    monkeypatch.delenv("BSL_MANIFEST_KEY")
    assert dataset_figures(load_manifest(ds)).per_method["noise"].judged == 7


def test_bsl_verify_checks_the_judgments_file(ds):
    noise = [p for p, m in _pairs(ds).items() if m == "noise"]
    _mark(ds, noise[0], "noise")
    ok = _bsl("verify", str(ds), "-q")
    assert ok.returncode == 0 and "1 judgment line(s)" in ok.stdout, ok.stderr
    _forge(ds, [{"pair_id": "made-up", "method": "noise"}])
    one_line_error(_bsl("verify", str(ds), "-q"), "judgments.jsonl:2", "unknown pair")



def test_inspect_and_review_verify_the_judgments_file_as_verify_does(ds):
    """`bsl inspect` verifies as `bsl verify` does, the judgments file included: the judgments of other pairs (a
    copy from another dataset, or pairs rebuilt since) and a mark that does not count fail it with verify's line;
    `bsl review` fails on the former too, and reads past the latter with a warning (its figures leave such marks
    out and say so)."""
    noise = [p for p, m in _pairs(ds).items() if m == "noise"]
    _mark(ds, noise[0], "noise")
    assert _bsl("inspect", str(ds), "-n", "1").returncode == 0
    good = (ds / "judgments.jsonl").read_text()
    (ds / "judgments.jsonl").write_text(good.replace(pairs_checksum(load_manifest(ds)), "f" * 64))
    for command in (("verify",), ("inspect", "-n", "1"), ("inspect", "--stats"), ("review", "--summary")):
        one_line_error(_bsl(*command[:1], str(ds), *command[1:]), "judgments.jsonl:1: judges the pairs of another "
                                                                   "dataset")
    (ds / "judgments.jsonl").write_text(good)
    _forge(ds, [{"pair_id": "made-up", "method": "noise"}])
    for command in (("verify",), ("inspect", "-n", "1"), ("inspect", "--stats")):
        one_line_error(_bsl(*command[:1], str(ds), *command[1:]), "judgments.jsonl: 1 mark(s) not counted",
                       "unknown pair", "judgments.jsonl:2")
    assert _bsl("inspect", str(ds), "-n", "1", "--no-verify").returncode == 0
    review = _bsl("review", str(ds), "--summary")
    assert review.returncode == 0, review.stderr
    assert "warning: " in review.stderr and "1 mark(s) not counted: 1 unknown pair" in review.stderr
    assert "1 mark(s) not counted" in review.stdout  # and the figures say so

def test_the_judgments_path_is_fixed_whatever_the_manifest_says(ds):
    manifest_file = ds / "manifest.json"
    data = json.loads(manifest_file.read_text())
    shard = next(s["path"] for s in data["shards"] if s["kind"] == "pairs")
    before = (ds / shard).read_bytes()
    data["annotations"]["judgments"]["path"] = shard
    data.pop("checksum")
    write_manifest(data, manifest_file)  # an unsigned manifest anyone can rewrite
    manifest = load_manifest(ds)
    assert judgments_path(manifest) == ds / "judgments.jsonl"
    _mark(ds, next(iter(_pairs(ds))), "noise")
    assert (ds / shard).read_bytes() == before  # nothing appended into the Parquet file
    one_line_error(_bsl("verify", str(ds), "-q"), "annotations.judgments.path", shard)


@pytest.mark.parametrize("kind", ["symlink", "fifo"])
def test_a_judgments_file_that_is_not_a_plain_file_is_refused(ds, kind):
    victim = sorted((ds / "data").glob("*.parquet"))[0]  # a link inside the dataset, to one of its shards
    before = victim.read_bytes()
    if kind == "symlink":
        (ds / "judgments.jsonl").symlink_to(victim.relative_to(ds))
    else:
        os.mkfifo(ds / "judgments.jsonl")
    manifest = load_manifest(ds)
    with pytest.raises(InputError, match="judgments file is"):
        judgments_path(manifest)
    with pytest.raises(InputError, match="judgments.jsonl"):
        append_judgment(ds / "judgments.jsonl", make_judgment(manifest, "x", "noise", "usable"))
    assert victim.read_bytes() == before
    one_line_error(_bsl("review", str(ds), "--summary"), "judgments.jsonl")


def test_card_and_report_count_only_valid_marks(ds):
    from bsl_pipeline.flows.job_report import render_report
    from bsl_pipeline.pipeline.dataset.card import dataset_card

    noise = [p for p, m in _pairs(ds).items() if m == "noise"]
    _mark(ds, noise[0], "noise")
    _forge(ds, [{"pair_id": f"forged-{i}", "method": "noise"} for i in range(30)])
    manifest = load_manifest(ds)
    card = dataset_card(manifest)
    assert "| noise | 1 | 1 |" in card and "Not counted: 30 mark(s) not counted: 30 unknown pair" in card
    report = render_report("r", [manifest])
    assert "not counted: 30 mark(s) not counted" in report


def test_a_hostile_judgments_file_is_read_in_bounded_memory_and_named(ds, caplog):
    import logging

    from bsl_pipeline.pipeline.dataset.judgments import read_dataset_judgments

    noise = next(p for p, m in _pairs(ds).items() if m == "noise")
    _mark(ds, noise, "noise")
    with open(ds / "judgments.jsonl", "a") as fh:
        fh.write("{cut off\n" * 500)
    with caplog.at_level(logging.WARNING):
        assert len(read_dataset_judgments(load_manifest(ds))) == 1
    assert caplog.text.count("not a complete line") == 1
    assert "judgments.jsonl:2: not a complete line" in caplog.text and "499 more such line(s)" in caplog.text
    for hostile, says in (("[" * 50_000 + "\n", "nested too deep"), ("x" * (1 << 20) + "\n", "longer than 64 KiB")):
        (ds / "judgments.jsonl").write_text(hostile)
        with pytest.raises(InputError, match=f"judgments.jsonl:1: .*{says}"):
            read_dataset_judgments(load_manifest(ds))
        one_line_error(_bsl("review", str(ds), "--summary"), "judgments.jsonl:1")


def test_error_classes_go_with_a_not_usable_mark_only(ds):
    manifest = load_manifest(ds)
    pair_id, method = next(iter(_pairs(ds).items()))
    assert make_judgment(manifest, pair_id, method, "not_usable", ["sense"]).classes == ("sense",)
    for mark in ("usable", "skip", "undo"):
        with pytest.raises(InputError, match=f"error classes go with a not_usable mark only, not with '{mark}'"):
            make_judgment(manifest, pair_id, method, mark, ["sense"])
        assert make_judgment(manifest, pair_id, method, mark).classes == ()
