"""`bsl review`: judging a real dataset's views in a real browser, the judgments file, the figures, the avoid list.

The dataset is made by `bsl augment` (synonyms with WordNet, span-mask) from STS-B test sentences of the shared
data; the page is driven in headless Chromium by its keys, and the marks are read back from disk.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bsl_pipeline.cli.cli import main
from bsl_pipeline.cli.commands.review import ReviewSession, make_server
from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.dataset.inspection import format_stats_text, open_dataset
from bsl_pipeline.pipeline.dataset.judgments import (
    append_judgment,
    check_min_usable,
    dataset_figures,
    final_marks,
    judged_figures,
    judgments_path,
    make_judgment,
    pairs_checksum,
    read_dataset_judgments,
    read_judgments,
    wilson_interval,
)
from bsl_pipeline.pipeline.dataset.review_sample import review_sample, split_counts
from small_corpus import ESCAPES, augmented_dataset, write_corpus

CHROMIUM = Path("/usr/bin/chromium")
LOOSE = ["-o", "method_params.synonyms.words.min_word_count=2", "-o", "method_params.synonyms.words.min_lemma_count=1"]


def _augment(corpus: Path, out: Path, wn_cache: Path, *extra: str) -> None:
    assert main(["augment", str(corpus), "--out", str(out), "--methods", "synonyms,span-mask", "-o", "registry_dir=",
                 "-o", f"method_params.synonyms.cache_dir={wn_cache}", *LOOSE, *extra]) == 0


@pytest.fixture(scope="module")
def built(shared_data, tmp_path_factory):
    """(corpus, wordnet cache, dataset dir) of 150 STS-B test sentences; copy the dataset before marking it."""
    root = tmp_path_factory.mktemp("review")
    lines = (shared_data / "stsbenchmark" / "sts-test.csv").read_text(encoding="utf-8").splitlines()[:150]
    corpus = root / "corpus.txt"
    corpus.write_text("\n".join(line.split("\t")[5] for line in lines) + "\n", encoding="utf-8")
    _augment(corpus, root / "ds", root / "wn")
    return corpus, root / "wn", root / "ds"


@pytest.fixture
def dataset(built, tmp_path):
    out = tmp_path / "ds"
    shutil.copytree(built[2], out)
    return out


def test_wilson_interval_matches_the_formula_by_hand():
    low, high = wilson_interval(9, 10)
    assert (round(low, 4), round(high, 4)) == (0.5958, 0.9821)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(0, 20)
    assert low == 0.0 and round(high, 4) == 0.1611
    low, high = wilson_interval(91, 100)
    assert (round(low, 3), round(high, 3)) == (0.838, 0.952)


def test_sample_is_stratified_seeded_and_never_repeats_a_judged_pair(dataset):
    manifest = open_dataset(dataset)
    assert split_counts(7, ["a", "b"], False) == {"a": 4, "b": 3}
    assert split_counts(7, ["a", "b"], True) == {"a": 7, "b": 7}
    first = review_sample(manifest, 8, 3, set())
    assert [i.pair_id for i in first] == [i.pair_id for i in review_sample(manifest, 8, 3, set())]
    assert sorted(i.method for i in first) == ["span-mask"] * 4 + ["synonyms"] * 4
    assert [i.pair_id for i in review_sample(manifest, 8, 4, set())] != [i.pair_id for i in first]
    judged = {i.pair_id for i in first}
    again = review_sample(manifest, 8, 3, judged)
    assert len(again) == 8 and not judged & {i.pair_id for i in again}
    per_method = review_sample(manifest, 3, 0, set(), per_method=True)
    assert sorted(i.method for i in per_method) == ["span-mask"] * 3 + ["synonyms"] * 3
    # the view shown is the changed one, with the sources around it as context
    item = next(i for i in first if i.method == "synonyms")
    assert item.view != item.source and (item.before or item.after)


def test_judgments_file_appends_undoes_and_refuses_another_dataset(dataset, built, caplog):
    manifest = open_dataset(dataset)
    path = judgments_path(manifest)
    assert path == dataset / "judgments.jsonl"
    assert json.loads((dataset / "manifest.json").read_text())["annotations"]["judgments"]["path"] == path.name
    items = review_sample(manifest, 4, 0, set())
    a, b = items[0], items[1]
    append_judgment(path, make_judgment(manifest, a.pair_id, a.method, "usable", reviewer="ann"))
    append_judgment(path, make_judgment(manifest, b.pair_id, b.method, "not_usable", ["sense", "grammar"], "odd",
                                        reviewer="ann"))
    append_judgment(path, make_judgment(manifest, b.pair_id, b.method, "usable", reviewer="bob"))
    append_judgment(path, make_judgment(manifest, b.pair_id, b.method, "undo", reviewer="bob"))
    line = json.loads(path.read_text().splitlines()[1])
    assert set(line) == {"pair_id", "dataset", "method", "mark", "classes", "note", "reviewer", "time"}
    assert line["dataset"] == pairs_checksum(manifest) and line["classes"] == ["sense", "grammar"]
    final = final_marks(read_dataset_judgments(manifest))
    assert final[a.pair_id].mark == "usable" and final[b.pair_id].mark == "not_usable"  # bob's mark undone
    # a killed writer's cut-off line is skipped (named), and the next mark still gets its own line
    with open(path, "a", encoding="utf-8") as fh:
        fh.write('{"pair_id": "cut')
    append_judgment(path, make_judgment(manifest, items[2].pair_id, items[2].method, "skip", reviewer="ann"))
    assert len(read_dataset_judgments(manifest)) == 5
    assert "judgments.jsonl:5: not a complete line" in caplog.text
    # the judgments of another dataset's pairs are refused by name, and `bsl review` says so in one line
    other = built[2].parent / "other.jsonl"
    other.write_text(path.read_text().replace(pairs_checksum(manifest), "f" * 64))
    with pytest.raises(InputError, match=r"other\.jsonl:1: judges the pairs of another dataset"):
        read_judgments(other, pairs_checksum(manifest))
    path.write_text(other.read_text())
    proc = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "review", str(dataset), "--summary"],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "judgments.jsonl:1: judges the pairs of another dataset" in proc.stderr
    assert "not counted" in format_stats_text(manifest)  # `inspect --stats` names it, counts nothing


def _write_many(dataset: str, who: str, pair_ids: list[tuple[str, str]]) -> None:
    manifest = open_dataset(dataset)
    for pair_id, method in pair_ids:
        append_judgment(judgments_path(manifest), make_judgment(manifest, pair_id, method, "usable", reviewer=who))


def test_two_writers_at_once_lose_nothing(dataset):
    manifest = open_dataset(dataset)
    items = [(i.pair_id, i.method) for i in review_sample(manifest, 40, 0, set())] * 5
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_write_many, args=(str(dataset), who, items)) for who in ("ann", "bob")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    lines = judgments_path(manifest).read_text().splitlines()
    assert len(lines) == 2 * len(items)
    found = read_dataset_judgments(manifest)
    assert sorted((j.reviewer, j.pair_id) for j in found) == sorted(
        [("ann", p) for p, _ in items] + [("bob", p) for p, _ in items])


def test_figures_per_method_in_summary_stats_and_card(dataset, capsys):
    manifest = open_dataset(dataset)
    path = judgments_path(manifest)
    items = review_sample(manifest, 20, 1, set())
    syn = [i for i in items if i.method == "synonyms"][:10]
    span = [i for i in items if i.method == "span-mask"][:4]
    for k, item in enumerate(syn):
        mark, classes = ("not_usable", ["sense"]) if k == 0 else ("usable", [])
        append_judgment(path, make_judgment(manifest, item.pair_id, item.method, mark, classes, reviewer="ann"))
    for item in span:
        append_judgment(path, make_judgment(manifest, item.pair_id, item.method, "skip", reviewer="ann"))
    figures = dataset_figures(manifest)
    f = figures.per_method["synonyms"]
    assert (f.judged, f.usable, round(f.low, 4), round(f.high, 4)) == (10, 9, 0.5958, 0.9821)
    assert f.classes == {"sense": 1} and figures.per_method["span-mask"].skipped == 4
    assert figures.per_method["span-mask"].judged == 0
    assert main(["review", str(dataset), "--summary"]) == 0
    out = capsys.readouterr().out
    assert "synonyms   10      9       0.90 (0.60-0.98)             sense 1" in out
    assert "0.90 (0.60-0.98)" in format_stats_text(manifest)
    session = ReviewSession(manifest, 20, 1, "ann")
    session._update_card()
    card = (dataset / "README.md").read_text()
    assert "## Judged views" in card and "| synonyms | 10 | 9 | 0.90 (0.60-0.98) | sense 1 | 0 |" in card
    assert main(["verify", str(dataset), "-q"]) == 0  # marks and the card's figures change nothing verify checks
    # --min-usable: the lower bound 0.60 passes 0.5, not 0.8; span-mask (nothing judged) is refused by name
    check_min_usable(manifest, 0.5, ["synonyms"])
    with pytest.raises(InputError, match=r"method 'synonyms': usable share 0.90 \(0.60-0.98\).*under --min-usable 0.8"):
        check_min_usable(manifest, 0.8, ["synonyms"])
    with pytest.raises(InputError, match="method 'span-mask' has no judged pairs"):
        check_min_usable(manifest, 0.5)
    proc = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "train", "--manifest", str(dataset),
                           "--min-usable", "0.8", "-o", "train.output_dir=" + str(dataset.parent / "run")],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "method 'synonyms'" in proc.stderr and "--min-usable 0.8" in proc.stderr
    assert not (dataset.parent / "run").exists()


def test_server_binds_loopback_and_refuses_requests_without_the_token(dataset):
    session = ReviewSession(open_dataset(dataset), 4, 0, "ann")
    server, url = make_server(session)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        assert server.server_address[0] == "127.0.0.1" and url.startswith("http://127.0.0.1:")
        base = url.split("/", 3)
        root = "/".join(base[:3])
        token = base[3].strip("/")
        wrong = token[:-1] + ("y" if token.endswith("x") else "x")  # one character off, never the token itself
        for bad in (root + "/", root + "/api/state", f"{root}/{wrong}/api/state", f"{root}/{token}",
                    f"{root}/api/state?token={token}", f"{root}/x{token}/"):
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(bad)
            assert err.value.code == 403, bad
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(urllib.request.Request(root + "/api/mark", data=b"{}", method="POST"))
        assert err.value.code == 403
        assert not judgments_path(session.manifest).exists()
        state = json.load(urllib.request.urlopen(url + "api/state"))
        assert state["total"] == 4 and "method" not in state["item"]  # blind until marked
    finally:
        server.shutdown()
        server.server_close()


def test_a_connection_that_sends_nothing_is_closed_after_the_read_timeout(dataset, monkeypatch):
    import socket

    from bsl_pipeline.cli.commands import review

    monkeypatch.setattr(review, "READ_TIMEOUT_S", 0.5)
    server, url = make_server(ReviewSession(open_dataset(dataset), 4, 0, "ann"))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with socket.create_connection(server.server_address, timeout=10) as idle:
            idle.sendall(b"GET ")  # half a request line, then nothing
            assert idle.recv(1024) == b""  # closed by the server, well before the client's own 10 s
        assert json.load(urllib.request.urlopen(url + "api/state"))["total"] == 4  # still serving
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def _served_in_chromium(session: ReviewSession):
    """(headless Chromium, the page's URL) for `session`'s review server; both stopped after the block."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("/usr/bin/chromium is missing (CI)")
        pytest.skip("/usr/bin/chromium is missing")
    sync_api = pytest.importorskip("playwright.sync_api")
    server, url = make_server(session)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            try:
                yield browser, url
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()


def _keys(page):
    """press(*keys): each key on the page, then wait until its request is answered."""
    def press(*keys: str) -> None:
        for key in keys:
            page.keyboard.press(key)
        page.wait_for_selector("body[data-ready='1']")

    return press


@pytest.mark.browser
def test_page_in_chromium_marks_by_keys_and_saves_each_mark(dataset, tmp_path):
    manifest = open_dataset(dataset)
    session = ReviewSession(manifest, 6, 0, "ann")
    order = [i.pair_id for i in session.items]
    path = judgments_path(manifest)

    def marks() -> list[dict]:
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

    with _served_in_chromium(session) as (browser, url):
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("body").get_attribute("data-pair") == order[0]
        assert page.locator("#view ins").count() >= 1  # the change is highlighted
        assert "span-mask" not in page.content() and "synonyms" not in page.inner_text("#pair")
        press = _keys(page)
        press("u")
        assert marks()[-1]["pair_id"] == order[0] and marks()[-1]["mark"] == "usable"
        assert page.inner_text("#last").endswith(order[0]) and "method" in page.inner_text("#last")
        press("w", "g", "t")
        page.keyboard.type("wrong sense of 'bank'")
        press("Escape", "n")
        last = marks()[-1]
        assert (last["pair_id"], last["mark"], last["classes"], last["note"], last["reviewer"]) == (
            order[1], "not_usable", ["sense", "grammar"], "wrong sense of 'bank'", "ann")
        press("s")
        assert marks()[-1]["mark"] == "skip"
        press("z")  # the skip taken back: the third pair is shown again
        assert marks()[-1]["mark"] == "undo" and marks()[-1]["pair_id"] == order[2]
        assert page.locator("body").get_attribute("data-pair") == order[2]
        press("0")
        assert page.inner_text("#progress") == "3 of 6 judged"
        page.screenshot(path=str(tmp_path / "review.png"), full_page=True)
        shot = os.environ.get("BSL_REVIEW_SCREENSHOT")
        if shot:
            shutil.copy(tmp_path / "review.png", shot)
        # the tab closed and opened again: the marks are on disk, the next pair is the fourth
        page.close()
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("body").get_attribute("data-pair") == order[3]
    final = final_marks(read_dataset_judgments(manifest))
    assert [final[p].mark for p in order[:3]] == ["usable", "not_usable", "not_usable"]
    figures = judged_figures(read_dataset_judgments(manifest))
    assert sum(f.judged for f in figures.per_method.values()) == 3


@pytest.mark.browser
def test_page_keeps_error_classes_to_not_usable_marks_and_counts_skips_apart(dataset):
    """A class says why a view is not usable: a class key pressed before u, classes restored by an undo and then
    u, or classes before s, are not saved with that mark (nor shown in its "last:" line); the progress counts
    usable and not-usable marks, and skips apart, as the figures do."""
    manifest = open_dataset(dataset)
    session = ReviewSession(manifest, 6, 0, "ann")
    order = [i.pair_id for i in session.items]
    path = judgments_path(manifest)

    def last_saved() -> tuple[str, str, list[str]]:
        line = json.loads(path.read_text().splitlines()[-1])
        return line["pair_id"], line["mark"], line["classes"]

    with _served_in_chromium(session) as (browser, url):
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        press = _keys(page)
        press("w", "u")  # a class pressed, then usable
        assert last_saved() == (order[0], "usable", [])
        assert page.inner_text("#last").startswith("last: usable · method ")
        press("w", "n")
        assert last_saved() == (order[1], "not_usable", ["sense"])
        press("z")  # the pair comes back with its class on
        assert page.locator("#classes button.on").count() == 1
        press("u")  # changed one's mind: usable, and the restored class does not ride along
        assert last_saved() == (order[1], "usable", [])
        press("g", "s")
        assert last_saved() == (order[2], "skip", [])
        assert page.inner_text("#progress") == "2 of 6 judged, 1 skipped"
        assert page.locator("#classes button.on").count() == 0  # the next pair starts clean
        # The server refuses what the page no longer sends: classes with a usable or skip mark.
        for mark in ("usable", "skip"):
            request = urllib.request.Request(url + "api/mark", method="POST", headers={
                "Content-Type": "application/json"}, data=json.dumps(
                {"pair_id": order[3], "mark": mark, "classes": ["sense"], "note": ""}).encode())
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(request)
            assert err.value.code == 400
            assert "error classes go with a not_usable mark only" in json.load(err.value)["error"]
        assert last_saved() == (order[2], "skip", [])  # nothing written
    figures = judged_figures(read_dataset_judgments(manifest))
    assert sum(f.judged for f in figures.per_method.values()) == 2
    assert sum(f.skipped for f in figures.per_method.values()) == 1


def test_avoid_list_round_trip_changes_the_next_runs_views_and_fingerprint(built, dataset, tmp_path):
    corpus, wn_cache, _ = built
    manifest = open_dataset(dataset)
    items = [i for i in review_sample(manifest, 6, 0, set(), methods=["synonyms"])]
    wrong, fine = items[0], items[1:]
    path = judgments_path(manifest)
    append_judgment(path, make_judgment(manifest, wrong.pair_id, "synonyms", "not_usable", ["sense"], reviewer="a"))
    for item in fine:
        append_judgment(path, make_judgment(manifest, item.pair_id, "synonyms", "usable", reviewer="a"))
    avoid = tmp_path / "avoid.txt"
    assert main(["review", str(dataset), "--export-avoid", str(avoid)]) == 0
    entries = [line.split("#")[0].split() for line in avoid.read_text().splitlines() if line.split("#")[0].strip()]
    assert entries, avoid.read_text()
    removed = {tuple(e) for e in entries}
    # an exported substitution occurs in the wrong pair's view: its substitute is gone from that source's next view
    pos, pair = entries[0]
    word, substitute = pair.split(">")
    assert substitute.replace("_", " ") in wrong.view.lower() or substitute[:4] in wrong.view.lower()
    assert main(["review", str(dataset), "--export-avoid", str(avoid)]) == 0  # again: nothing new, kept as it was
    assert {tuple(e) for e in [line.split("#")[0].split() for line in avoid.read_text().splitlines()
                               if line.split("#")[0].strip()]} == removed

    rerun = tmp_path / "rerun"
    _augment(corpus, rerun, wn_cache, "-o", f"method_params.synonyms.words.avoid_file={avoid}")
    after = open_dataset(rerun)
    before_fp = manifest.methods["synonyms"].params["words"]
    after_fp = after.methods["synonyms"].params["words"]
    import hashlib

    assert "avoid_file" not in before_fp
    assert after_fp["avoid_file"] == hashlib.sha256(avoid.read_bytes()).hexdigest()  # content, not the path
    from bsl_pipeline.pipeline.dataset.inspection import PairQuery, iter_rows

    views = {r["source"]: r["view2"] for r in iter_rows(after, PairQuery(methods=["synonyms"]))}
    old_views = {r["source"]: r["view2"] for r in iter_rows(manifest, PairQuery(methods=["synonyms"]))}
    assert views.get(wrong.source) != wrong.view
    assert len(views) <= len(old_views)
    # the same content at another path: the same fingerprint, so the cache is reused
    moved = tmp_path / "elsewhere" / "avoid-copy.txt"
    moved.parent.mkdir()
    shutil.copy(avoid, moved)
    from bsl_pipeline.pipeline.augment.augmenters import build_augmenter

    def fp(file: Path) -> str:
        return build_augmenter("synonyms", {"cache_dir": str(wn_cache), "words": {"avoid_file": str(file)}}
                               ).fingerprint_hash()

    assert fp(avoid) == fp(moved)
    moved.write_text(avoid.read_text() + "n dog>domestic_dog\n")
    assert fp(avoid) != fp(moved)
    moved.write_text("n dog domestic_dog\n")
    with pytest.raises(Exception, match=r"words\.avoid_file: .*avoid-copy\.txt:1: expected 'POS word>substitute'"):
        fp(moved)



def test_export_avoid_sets_a_foreign_file_aside_and_never_writes_into_the_dataset(dataset, tmp_path, capsys):
    from bsl_pipeline.pipeline.base.ownership import REPLACED_DIR

    manifest = open_dataset(dataset)
    for item in review_sample(manifest, 4, 0, set(), methods=["synonyms"]):
        append_judgment(judgments_path(manifest), make_judgment(manifest, item.pair_id, "synonyms", "not_usable"))
    mine = tmp_path / "my_avoid.txt"
    mine.write_text("my precious\n")
    assert main(["review", str(dataset), "--export-avoid", str(mine)]) == 1
    err = capsys.readouterr().err
    assert f"{mine} exists and bsl has no record of writing it" in err and "avoid_file" not in err
    assert main(["review", str(dataset), "--export-avoid", str(mine), "--overwrite"]) == 0
    assert f"wrote {mine}: " in capsys.readouterr().out
    (kept,) = (tmp_path / REPLACED_DIR).glob("*/my_avoid.txt")
    assert kept.read_text() == "my precious\n" and "# Substitutions of the synonyms method" in mine.read_text()
    for inside in (dataset / "data" / "avoid.txt", dataset / "avoid.txt"):
        assert main(["review", str(dataset), "--export-avoid", str(inside), "--overwrite"]) == 1
        assert f"--export-avoid {inside} and input" in capsys.readouterr().err and not inside.exists()
    assert main(["verify", str(dataset), "-q"]) == 0

def test_report_shows_the_sts_change_per_task_rounded_tables_and_the_judged_views(dataset, tmp_path):
    import base64
    import re

    from bsl_pipeline.flows.job_report import render_report, sts_changes

    before = {"sts12": 60.0, "sts13": 70.0, "stsb": 75.0, "avg": 68.3}
    runs = {"before (encoder)": before, "after BSL (seed 1)": {"sts12": 60.5, "sts13": 70.9, "stsb": 75.7, "avg": 69},
            "after BSL (seed 2)": {"sts12": 60.9, "sts13": 69.9, "stsb": 75.7, "avg": 69.1}}
    changes = sts_changes(runs)
    assert {c: tuple(round(x, 3) for x in v[:3]) + (v[3],) for c, v in changes.items()} == {
        "sts12": (0.7, 0.5, 0.9, 2), "sts13": (0.4, -0.1, 0.9, 2), "stsb": (0.7, 0.7, 0.7, 2),
        "avg": (0.75, 0.7, 0.8, 2)}
    assert sts_changes({"before": before}) is None
    manifest = open_dataset(dataset)
    item = review_sample(manifest, 1, 0, set(), methods=["synonyms"])[0]
    append_judgment(judgments_path(manifest), make_judgment(manifest, item.pair_id, "synonyms", "usable",
                                                            reviewer="ann"))
    page = render_report("job", [manifest], None, runs)
    assert "Change per task (after minus before)" in page and "STS12 +0.70" in page
    uri = re.search(r'alt="STS change chart" src="data:image/png;base64,([^"]+)"', page).group(1)
    (tmp_path / "change.png").write_bytes(base64.b64decode(uri))
    shot = os.environ.get("BSL_REVIEW_SCREENSHOT")
    if shot:
        shutil.copy(tmp_path / "change.png", Path(shot).with_name("sts-change.png"))
    assert not re.search(r"<td[^>]*>\d+\.\d{4,}</td>", page)  # the dataset table's numbers are rounded
    assert "Judged views (bsl review)" in page and "<td>synonyms</td><td>1</td><td>1</td>" in page


def test_review_summary_escapes_reviewer_names(tmp_path, capsys):
    from bsl_pipeline.pipeline.dataset.inspection import open_dataset, sample, PairQuery
    from bsl_pipeline.pipeline.dataset.judgments import append_judgment, judgments_path, make_judgment

    ds = augmented_dataset(tmp_path, write_corpus(tmp_path))
    manifest = open_dataset(ds)
    row = sample(manifest, PairQuery(n=1, seed=0))[0]
    append_judgment(judgments_path(manifest), make_judgment(manifest, row["pair_id"], row["method"], "usable",
                                                            reviewer=f"eve{ESCAPES}"))
    assert main(["review", str(ds), "--summary"]) == 0
    out = capsys.readouterr().out
    assert "eve\\x1b]52" in out and "\x1b" not in out and "\x07" not in out


# -- a dataset on an object store (the S3 server of tests/s3_server.py) --------------------------------------------
@pytest.fixture
def s3_dataset(s3_env, tmp_path, monkeypatch):
    """(URL, manifest) of a small `noise` dataset on the test S3 server, marks signed under a key."""
    from small_corpus import augment_config, write_corpus

    from bsl_pipeline.pipeline.augment.job import run_augment

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("BSL_MANIFEST_KEY", "a key only this test knows")
    url = f"s3://{s3_env.bucket()}/views"
    corpus = write_corpus(tmp_path)
    return url, run_augment(corpus, url, augment_config(tmp_path, registry_dir="")), corpus


def _stored(server, url: str, name: str) -> bytes | None:
    bucket, prefix = url[len("s3://"):].split("/", 1)
    try:
        return server.client().get_object(Bucket=bucket, Key=f"{prefix}/{name}")["Body"].read()
    except server.client().exceptions.NoSuchKey:
        return None


def _mark_all(url: str, who: str, n: int) -> None:
    session = ReviewSession(open_dataset(url), n, 0, who)
    for item in session.items:
        session.mark({"pair_id": item.pair_id, "mark": "usable"})


def test_marks_of_a_dataset_on_s3_go_to_the_store_signed_under_its_lease(s3_env, s3_dataset, tmp_path):
    from small_corpus import augment_config

    from bsl_pipeline.cli.commands.review import RequestError
    from bsl_pipeline.pipeline.augment.job import run_augment
    from bsl_pipeline.pipeline.base.storage import Lease
    from bsl_pipeline.pipeline.dataset.judgments import verify_judgments
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    url, manifest, corpus = s3_dataset
    # Two reviewers (two processes) at once: every mark is on the store, none lost.
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_mark_all, args=(url, who, 8)) for who in ("ann", "bob")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(300)
        assert p.exitcode == 0
    lines = [json.loads(line) for line in _stored(s3_env, url, "judgments.jsonl").decode().splitlines()]
    assert sorted(j["reviewer"] for j in lines) == ["ann"] * 8 + ["bob"] * 8
    assert all(j["signature"] and j["dataset"] == pairs_checksum(manifest) for j in lines)
    assert _stored(s3_env, url, ".bsl-lock") is None  # each mark's lease released
    # `bsl verify` counts them (signatures checked), and the card on the store shows the figures.
    verify_dataset(url)
    card = _stored(s3_env, url, "README.md").decode()
    judged = len({j["pair_id"] for j in lines})  # a reviewer's sample leaves out pairs judged when it starts
    assert "## Judged views" in card and f"| noise | {judged} | {judged} |" in card and "Judged by ann, bob" in card
    # A third reviewer's sample leaves the judged pairs out; while `bsl augment` holds the dataset's lease, a mark
    # is a 409.
    session = ReviewSession(open_dataset(url), 10, 0, "cy")
    assert session.state()["done"] == 0 and session.where == f"{url}/judgments.jsonl"
    item = session.state()["item"]
    with Lease(url, "dataset"):
        with pytest.raises(RequestError, match="another writer holds this dataset") as err:
            session.mark({"pair_id": item["pair_id"], "mark": "not_usable"})
    assert err.value.status == 409 and len(_stored(s3_env, url, "judgments.jsonl").decode().splitlines()) == 16
    assert session.mark({"pair_id": item["pair_id"], "mark": "not_usable"})["done"] == 1
    # Augmented again (other views): the card, judged-views block aside, is the tool's (not set aside); the marks,
    # which judge the pairs replaced, are set aside whole (as on disk), so the new dataset verifies; and the open
    # review writes nothing more (409).
    marks = _stored(s3_env, url, "judgments.jsonl")
    run_augment(corpus, url, augment_config(tmp_path, registry_dir="", seed=1))
    with pytest.raises(RequestError, match="changed since this review started") as err:
        session.mark({"pair_id": session.items[-1].pair_id, "mark": "usable"})
    assert err.value.status == 409 and _stored(s3_env, url, "judgments.jsonl") is None
    bucket, prefix = url[len("s3://"):].split("/", 1)
    keys = [o["Key"] for o in s3_env.client().list_objects_v2(Bucket=bucket, Prefix=prefix).get("Contents", [])]
    (aside,) = [k for k in keys if "/.bsl-replaced/" in k]
    assert aside.endswith("/judgments.jsonl") and len(marks.decode().splitlines()) == 17
    assert _stored(s3_env, url, aside.split("/", 1)[1]) == marks
    verify_judgments(verify_dataset(url))


@pytest.mark.browser
def test_bsl_review_of_a_dataset_on_s3_in_chromium(s3_env, s3_dataset, tmp_path):
    import signal

    from s3_server import ACCESS_KEY, SECRET_KEY

    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("/usr/bin/chromium is missing (CI)")
        pytest.skip("/usr/bin/chromium is missing")
    sync_api = pytest.importorskip("playwright.sync_api")
    url, manifest, _ = s3_dataset
    proc = subprocess.Popen([sys.executable, "-m", "bsl_pipeline.cli", "review", url, "-n", "4", "--reviewer", "ann",
                             "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "BSL_NO_PROGRESS": "1"})
    try:
        head = [proc.stdout.readline() for _ in range(2)]
        assert f"marks go to {url}/judgments.jsonl" in head[0], head
        page_url = head[1].split("open ", 1)[1].strip()

        def marks() -> list[dict]:
            data = _stored(s3_env, url, "judgments.jsonl")
            return [json.loads(line) for line in data.decode().splitlines()] if data else []

        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            try:
                page = browser.new_page()
                page.goto(page_url)
                page.wait_for_selector("body[data-ready='1']")
                first = page.locator("body").get_attribute("data-pair")
                page.keyboard.press("u")
                page.wait_for_selector("body[data-ready='1']")
                assert [(m["pair_id"], m["mark"], m["reviewer"]) for m in marks()] == [(first, "usable", "ann")]
                second = page.locator("body").get_attribute("data-pair")
                assert second != first
                page.keyboard.press("n")
                page.wait_for_selector("body[data-ready='1']")
                assert [m["mark"] for m in marks()] == ["usable", "not_usable"] and marks()[1]["pair_id"] == second
                assert page.inner_text("#progress") == "2 of 4 judged"
                page.close()
                page = browser.new_page()  # opened again: the marks are on the store, the third pair is next
                page.goto(page_url)
                page.wait_for_selector("body[data-ready='1']")
                assert page.locator("body").get_attribute("data-pair") not in (first, second)
            finally:
                browser.close()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "noise" in out and "judged by ann" in out  # the summary on Ctrl-C
    assert all(m["signature"] for m in marks())
    text = "".join(head) + out + err
    assert SECRET_KEY not in text and ACCESS_KEY not in text
