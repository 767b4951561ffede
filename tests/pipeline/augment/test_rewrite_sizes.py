"""The rewrite rules stay readable in one sitting: no rule module, word-class module or the chunker over 600 lines,
no function in them over 50 lines."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
MODULES = sorted((REPO / "pipeline" / "augment" / "rewrite_rules").glob("*.py")) + sorted(
    (REPO / "pipeline" / "lexicon" / "word_classes").glob("*.py"))
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 50


def _too_long(path: Path) -> list[str]:
    """`<file>` when the file is over MAX_FILE_LINES, `<file>:<function>` for each function over MAX_FUNCTION_LINES
    (decorators and docstring included)."""
    text = path.read_text(encoding="utf-8")
    found = [path.name] if len(text.splitlines()) > MAX_FILE_LINES else []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            if node.end_lineno - first + 1 > MAX_FUNCTION_LINES:
                found.append(f"{path.name}:{node.name}")
    return found


def test_the_check_finds_a_long_function_and_a_long_file(tmp_path):
    sample = tmp_path / "rule.py"
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    sample.write_text(f"def short():\n    return 1\n\n\ndef long():\n{body}\n", encoding="utf-8")
    assert _too_long(sample) == ["rule.py:long"]
    sample.write_text("x = 1\n" * (MAX_FILE_LINES + 1), encoding="utf-8")
    assert _too_long(sample) == ["rule.py"]


def test_rule_modules_and_their_functions_stay_short():
    assert len(MODULES) > 20
    assert [found for path in MODULES for found in _too_long(path)] == []
