"""The `browser` marker (`pyproject.toml`: needs headless Chromium) sits on exactly the tests that start Chromium:
a run that leaves browser tests out (`-m "not browser"`) skips no other test and runs none that needs one."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _code(fn: ast.FunctionDef) -> str:
    """The function's statements, its docstring left out."""
    body = fn.body[1:] if fn.body and isinstance(fn.body[0], ast.Expr) and isinstance(
        getattr(fn.body[0], "value", None), ast.Constant) else fn.body
    return "\n".join(ast.unparse(statement) for statement in body)


def _marked_browser(fn: ast.FunctionDef) -> bool:
    return any(ast.unparse(d) == "pytest.mark.browser" for d in fn.decorator_list)


def test_the_browser_marker_is_on_the_tests_that_start_chromium_and_on_no_other():
    wrong = []
    for path in sorted(set(TESTS.rglob("test_*.py")) - {Path(__file__).resolve()}):  # this one names it
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in tree.body:
            if isinstance(fn, ast.FunctionDef) and fn.name.startswith("test_"):
                starts_chromium = "chromium" in _code(fn).lower()
                if starts_chromium != _marked_browser(fn):
                    wrong.append(f"{path.relative_to(TESTS)}::{fn.name} (marked: {_marked_browser(fn)})")
    assert wrong == []
