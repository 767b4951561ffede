"""Product code says what is, not how it got there: no issue, session or round numbers, dates or measured figures
in pipeline/, training/, flows/, bsl/ or configs/ (code, comments, docstrings, help text, configs). Measurements
belong in the docs' results pages (docs/results/), history in CHANGELOG.md."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PRODUCT_DIRS = ("pipeline", "training", "flows", "bsl", "configs")
SUFFIXES = (".py", ".yaml", ".yml", ".toml", ".md", ".txt", ".html", ".js", ".css")

PATTERNS = {
    "issue/session/round number": re.compile(
        r"\b(?:issues?|sessions?|rounds?|PR)\s*#?\d+\b"
        r"|\bround (?:one|two|three|four|five|six|seven|eight|nine|ten)\b",
        re.IGNORECASE),
    "link to benchmarks/RESULTS.md (docs/results/ holds the results)": re.compile(r"benchmarks/RESULTS\.md"),
    "date": re.compile(r"\b(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b"),
    "measured figure": re.compile(
        r"\b\d+(?:\.\d+)?\s*-\s*\d+(?:\.\d+)?x\b|\b\d+(?:\.\d+)?x (?:slower|faster)\b"
        r"|~\s*\d+(?:\.\d+)?\s*% (?:slower|faster|fewer|more|less)\b|\b\d+(?:\.\d+)?% (?:slower|faster)\b"
        r"|\b\d+ of 100 pairs\b|\bavg \d+\.\d+\b|\bmeasured\b[^.\n]{0,40}\d+(?:\.\d+)?\s*(?:s|ms|%|x)\b"
        r"|(?<![\w.])\d{2}\.\d{2}(?![\w.])",  # a score such as 86.97
        re.IGNORECASE),
}


def history_lines(text: str) -> list[tuple[int, str, str]]:
    """(line number, what it is, the line) of every line of `text` that states history or a measured figure."""
    hits = []
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in PATTERNS.items():
            if pattern.search(line):
                hits.append((number, what, line.strip()))
                break
    return hits


def product_files() -> list[Path]:
    return sorted(p for d in PRODUCT_DIRS for p in (REPO / d).rglob("*")
                  if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts)


def test_a_planted_history_line_is_caught():
    planted = ("x = 1\n# issue 17, round 5: 79 of 100 pairs usable\n'''12-18x slower on CPU'''\n# 2024-05-01\n"
               "help = 'about ~30% slower (avg 80.20)'\nsession 7 chose it\nSTS-B dev 86.97\n"
               "see benchmarks/RESULTS.md\n")
    assert [n for n, _, _ in history_lines(planted)] == [2, 3, 4, 5, 6, 7, 8]
    assert history_lines("version = '9'\nMAX_BATCH = 65_536\nRange(0, 1)\n'the 5.1 Zipf of hospital'\n") == []


def test_product_code_holds_no_history_or_measured_figures():
    found = [f"{path.relative_to(REPO)}:{number}: {what}: {line[:100]}"
             for path in product_files()
             for number, what, line in history_lines(path.read_text(encoding="utf-8", errors="replace"))]
    assert not found, "history or measured figures in product code (move them to CHANGELOG.md or " \
                      "docs/results/):\n" + "\n".join(found)
