import shutil
import subprocess

import pytest

from bsl_pipeline.cli.cli import main
from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment
from bsl_pipeline.pipeline.dataset.inspection import PairQuery, render_diff_text, sample, word_diff

SCRIPT_SENTENCE = 'A tricky <script>document.title="pwned"</script> sentence with <b>markup</b> in it.'


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    root = tmp_path_factory.mktemp("inspect")
    corpus = root / "c.txt"
    lines = [f"The {w} number {i} walks slowly into the old house." for i, w in enumerate(
        ["dog", "cat", "man", "woman", "child"] * 8)] + [SCRIPT_SENTENCE, "Tiny."]
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cfg = AugmentConfig(methods=["noise", "identity"], registry_dir="", progress=False)
    cfg.filters.min_words = 2
    run_augment(corpus, root / "ds", cfg)
    return root / "ds"


def test_word_diff_marks_changed_words():
    assert word_diff("the cat sat", "the dog sat") == [("equal", "the"), ("delete", "cat"), ("insert", "dog"),
                                                       ("equal", "sat")]
    assert render_diff_text("the cat sat", "the dog sat", color=False) == "the [-cat-] {+dog+} sat"


def test_sample_is_seeded_and_filters(dataset):
    from bsl_pipeline.pipeline.dataset.store import load_manifest

    m = load_manifest(dataset)
    a = sample(m, PairQuery(n=5, seed=1))
    assert a == sample(m, PairQuery(n=5, seed=1)) and len(a) == 5
    assert a != sample(m, PairQuery(n=5, seed=2))
    only = sample(m, PairQuery(n=100, methods=["identity"]))
    assert len(only) == 41 and {r["method"] for r in only} == {"identity"}
    edited = sample(m, PairQuery(n=100, min_edit_ratio=0.01))
    assert edited and all(r["edit_ratio_views"] >= 0.01 for r in edited)
    assert {r["source"] for r in sample(m, PairQuery(n=100, contains="SCRIPT>"))} == {SCRIPT_SENTENCE}
    short = sample(m, PairQuery(n=10, reject_reason="too_short"))
    assert short and all(r["reject_reason"] == "too_short" and r["source"] == "Tiny." for r in short)


def test_cli_prints_diffs_and_stats(dataset, capsys):
    assert main(["inspect", str(dataset), "-n", "3", "--method", "noise", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert out.count("── noise") == 3 and "[-" in out
    assert main(["inspect", str(dataset), "--stats"]) == 0
    out = capsys.readouterr().out
    assert "identity" in out and "100.000" in out and "too_short=" in out
    # coverage: 41 of the 42 sentences got an identity view ("Tiny." is too short)
    header, _, *rows = out.splitlines()
    assert header.split()[:4] == ["method", "pairs", "coverage", "%"]
    assert [r.split()[1:3] for r in rows if r.startswith("identity")] == [["41", "97.6"]]
    assert "| identity | 41 | 97.6 |" in (dataset / "README.md").read_text()
    assert main(["inspect", str(dataset), "--method", "bogus"]) == 1
    err = capsys.readouterr().err
    # the dataset's augmentation methods, not `corpus` (which selects the dropped corpus lines, but is no method)
    assert "method 'bogus' is not in" in err and err.rstrip().endswith("its methods: identity, noise")


def test_stats_show_only_the_methods_asked_for_and_n_must_be_positive(dataset, capsys):
    def method_rows(argv):
        assert main(["inspect", str(dataset), "--stats", *argv]) == 0
        lines = capsys.readouterr().out.splitlines()
        return [line.split()[0] for line in lines[2:lines.index("")]]  # under the header and its rule

    assert method_rows([]) == ["noise", "identity"]
    assert method_rows(["--method", "identity"]) == ["identity"]
    assert method_rows(["--method", "noise,identity"]) == ["noise", "identity"]
    for n in ("0", "-1"):
        with pytest.raises(SystemExit) as exit_:
            main(["inspect", str(dataset), "-n", n])
        assert exit_.value.code == 2
        assert f"argument -n: must be at least 1 (got {n})" in capsys.readouterr().err


def test_stats_of_the_corpus_alone_are_the_header_and_the_corpus_line(dataset, capsys):
    """`--method corpus` (the corpus stage's rejects) has no per-method row: the table is its header alone, then
    the corpus line; never a traceback."""
    assert main(["inspect", str(dataset), "--stats", "--method", "corpus"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["method", "pairs", "coverage", "%"] and set(lines[1]) == {"-", " "}
    assert lines[2] == "" and any(line.startswith("corpus: ") and "records read" in line for line in lines)


@pytest.mark.browser
def test_html_page_renders_pairs_and_escapes_markup(dataset, tmp_path):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.fail("Chromium not installed: run `make test` (installs it) or apt-get install chromium")
    page = tmp_path / "pairs.html"
    assert main(["inspect", str(dataset), "--html", str(page), "-n", "50"]) == 0
    proc = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=2000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120)
    dom = proc.stdout
    assert proc.returncode == 0, proc.stderr[-2000:]
    # The page's own script ran (tabs + row count) and every sampled pair is a rendered row.
    assert 'data-rendered-pairs="' in dom
    rendered = int(dom.split('data-rendered-pairs="')[1].split('"')[0])
    assert rendered == dom.count('<tr class="pair"') and rendered >= 80
    # Corpus markup is text, not markup: the title was not changed by the sentence's script.
    assert "<title>ds: view pairs</title>" in dom and "pwned</title>" not in dom
    assert "&lt;script&gt;document.title=\"pwned\"&lt;/script&gt;" in dom
    assert "<b>markup</b>" not in dom and "&lt;b&gt;markup&lt;/b&gt;" in dom


def test_the_terminal_stats_table_names_the_top_reasons_and_wraps_them(shared_data, tmp_path, capsys):
    """On 3,000 STS-B sentences the terminal's table (the augment summary, `inspect --stats`) was padded to the
    widest rejects-by-reason cell, about 2,400 characters: now each reject kind names its TOP_REASONS largest
    reasons and counts the others as `+K more=M`, the column wraps at REASONS_WIDTH, and the figures still add up
    to each method's rejects; the card keeps every reason."""
    import re

    from bsl_pipeline.pipeline.dataset.inspection import REASONS_WIDTH, TOP_REASONS
    from bsl_pipeline.pipeline.dataset.manifest import rejects_text
    from bsl_pipeline.pipeline.dataset.store import load_manifest

    rows = (shared_data / "stsbenchmark" / "sts-train.csv").read_text(encoding="utf-8").splitlines()[:600]
    corpus = tmp_path / "sts.txt"
    corpus.write_text("".join(row.split("\t")[5] + "\n" for row in rows), encoding="utf-8")
    ds = tmp_path / "ds"
    assert main(["augment", str(corpus), "--out", str(ds), "--methods", "synonyms,rewrites", "-q",
                 "-o", "registry_dir="]) == 0
    summary = capsys.readouterr().out
    assert main(["inspect", str(ds), "--stats"]) == 0
    stats = capsys.readouterr().out
    assert summary.startswith(stats.rstrip("\n"))  # the augment summary is the same table
    table = stats.split("\n\n")[0].splitlines()
    start = table[0].index("rejects by reason")
    assert max(len(line) for line in table) <= start + REASONS_WIDTH
    assert all(len(line) <= start or not line[start - 1].strip() for line in table)  # the column starts there

    manifest = load_manifest(ds)
    card = (ds / "README.md").read_text(encoding="utf-8")
    cells: dict[str, str] = {}
    for line in table[2:]:
        if line[:start].strip():
            method = line.split()[0]
            cells[method] = ""
        cells[method] += " " + line[start:]
    assert set(cells) == {"synonyms", "rewrites"}
    for method, cell in cells.items():
        s = manifest.stats.per_method[method]
        assert s.rejected == sum(s.rejects.values()) > 0
        kinds = re.findall(r"(\w+)=(\d+)(?: \(([^)]*)\))?", cell)
        assert sum(int(n) for _, n, _ in kinds) == s.rejected  # the kinds add up to the method's rejects
        for kind, n, details in kinds:
            named = {r: c for r, c in s.rejects.items() if r.startswith(kind + ":")}
            assert int(n) == s.rejects.get(kind, 0) + sum(named.values())
            if not details:
                assert not named
                continue
            shown = re.findall(r"(\+\d+ more|[\w:.]+)=(\d+)", details)
            assert len(shown) == min(len(named), TOP_REASONS + 1)  # the top reasons, then what is left
            assert sum(int(c) for _, c in shown) == sum(named.values())
            more = [(what, c) for what, c in shown if what.startswith("+")]
            assert len(named) > TOP_REASONS and more == [(f"+{len(named) - TOP_REASONS} more", more[0][1])] or (
                len(named) <= TOP_REASONS and not more)
        # the card names every reason with its count
        assert rejects_text(s.rejects) in card
        assert all(f"{reason.partition(':')[2]}={c}" in card for reason, c in s.rejects.items() if ":" in reason)
    assert any("more=" in cell for cell in cells.values())  # on this corpus some reasons are counted, not named
