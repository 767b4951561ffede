"""The rewrite rules' word lists live once, in pipeline/lexicon/word_classes/: no rule module declares a word list of
its own, no list name is declared twice (in the rules or anywhere in the lexicon), and no two names hold the same
words."""

from __future__ import annotations

import ast
import builtins
from collections import defaultdict
from pathlib import Path

from bsl_pipeline.pipeline.lexicon import word_classes

REPO = Path(__file__).resolve().parents[3]
RULE_MODULES = sorted((REPO / "pipeline" / "augment" / "rewrite_rules").glob("*.py"))
LEXICON_MODULES = sorted((REPO / "pipeline" / "lexicon").rglob("*.py"))
CONTAINERS = {"frozenset", "set", "tuple", "dict", "list", "sorted"}
CLASSES = {name for name in vars(word_classes) if name.isupper()}


def _is_word_list(value: ast.expr) -> bool:
    """Whether an assigned value is a word list: string literals in containers, maybe combined with word classes
    (a table that names functions, a compiled pattern or a number is not)."""
    if not any(isinstance(n, ast.Constant) and isinstance(n.value, str) for n in ast.walk(value)):
        return False
    bound = {t.id for c in ast.walk(value) if isinstance(c, ast.comprehension)
             for t in ast.walk(c.target) if isinstance(t, ast.Name)}
    return all(n.id in bound or n.id in CONTAINERS or n.id in CLASSES
               for n in ast.walk(value) if isinstance(n, ast.Name))


def _module_assignments(path: Path) -> list[tuple[str, ast.expr]]:
    out = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            out += [(t.id, node.value) for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            out.append((node.target.id, node.value))
    return out


def _word_lists(path: Path) -> list[str]:
    return [name for name, value in _module_assignments(path) if name != "__all__" and _is_word_list(value)]


def test_the_check_finds_a_word_list(tmp_path):
    sample = tmp_path / "rule.py"
    sample.write_text('_PLACES = frozenset("in on at".split())\nMORE = DETERMINERS | {"x"}\n'
                      'TABLE = (("a", "b", guard),)\nLIMIT = 3\n', encoding="utf-8")
    assert _word_lists(sample) == ["_PLACES", "MORE"]


def test_rule_modules_declare_no_word_lists():
    found = {path.name: _word_lists(path) for path in RULE_MODULES}
    assert {name: lists for name, lists in found.items() if lists} == {}


def test_no_word_list_name_declared_twice():
    where = defaultdict(list)
    for path in RULE_MODULES + LEXICON_MODULES:
        names = [name for name, _ in _module_assignments(path)] if path.parent.name == "word_classes" \
            else _word_lists(path)
        for name in names:
            where[name.lstrip("_")].append(str(path.relative_to(REPO)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}


def test_no_two_word_classes_hold_the_same_words():
    by_words = defaultdict(list)
    for name in sorted(CLASSES):
        value = getattr(word_classes, name)
        by_words[repr(sorted(value) if isinstance(value, (set, frozenset)) else value)].append(name)
    assert [names for names in by_words.values() if len(names) > 1] == []


def test_word_classes_are_lower_case_words_or_names():
    """Every set of words is usable as-is against `Tok.low` or against a name's own spelling."""
    for name in CLASSES:
        value = getattr(word_classes, name)
        if isinstance(value, frozenset) and all(isinstance(w, str) for w in value):
            assert value, name
            assert all(w == w.strip() and w for w in value), name
    assert not set(dir(builtins)) & CLASSES
