"""The layers pipeline < training < evaluation < flows < cli: a lower layer never imports a higher one, not even by name.

import-linter checks every import statement (module level and inside functions) against the contracts in
pyproject.toml; the string check catches what import-linter cannot see: a module name in a string handed to
importlib or a registry ("bsl_pipeline.flows.cli", "bsl_pipeline.training.objectives.bsl:BSLObjective").
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LAYERS = ["pipeline", "training", "evaluation", "flows", "cli"]  # the repository's folders, bottom to top
# ... and the installed module each one is (one namespace, so that no other package or a user's file can shadow them)
MODULES = {"pipeline": "bsl_pipeline.pipeline", "training": "bsl_pipeline.training",
           "evaluation": "bsl_pipeline.evaluation", "flows": "bsl_pipeline.flows",
           "cli": "bsl_pipeline.cli"}
CONTRACTS = ["layers: cli > flows > evaluation > training > pipeline",
             "pipeline never imports training, evaluation, flows or cli",
             "training never imports evaluation, flows or cli", "evaluation never imports flows or cli",
             "pipeline by job: augment > dataset > corpus > lexicon > base"]


def test_import_linter_contracts_are_kept():
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", code, str(REPO / "pyproject.toml")], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    for name in CONTRACTS:
        assert f"{name} KEPT" in proc.stdout, proc.stdout[-4000:]
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken." in proc.stdout


def _strings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def higher_layer_mentions(layer: str) -> list[str]:
    """`file:line: text` for every string constant (docstrings included) under `layer` that names a module of a
    higher layer, e.g. "flows.cli" in pipeline/. `objective.bsl.momentum` is an attribute path, not a module."""
    higher = LAYERS[LAYERS.index(layer) + 1:]
    names = [re.escape(MODULES[name]) for name in higher] + higher  # installed names, and the folders' bare names
    pattern = re.compile(r"(?<![\w.])(?:" + "|".join(names) + r")\.[A-Za-z_]")
    found = []
    for path in sorted((REPO / layer).rglob("*.py")):
        for line, text in _strings(path):
            if pattern.search(text):
                found.append(f"{path.relative_to(REPO)}:{line}: {pattern.search(text).group(0)}... in {text[:80]!r}")
    return found


def test_no_lower_layer_names_a_higher_layer_module_in_a_string():
    for layer in LAYERS[:-1]:
        assert higher_layer_mentions(layer) == [], layer


def test_the_string_check_sees_a_module_name_in_a_string(tmp_path, monkeypatch):
    """The check itself: a planted `importlib.import_module("flows.cli")` under pipeline/ is reported."""
    fake_repo = tmp_path / "repo"
    (fake_repo / "pipeline").mkdir(parents=True)
    (fake_repo / "pipeline" / "sneaky.py").write_text(
        '"""Uses objective.bsl.momentum (fine)."""\nimport importlib\n\nimportlib.import_module("flows.cli")\n')
    monkeypatch.setattr(sys.modules[__name__], "REPO", fake_repo)
    assert higher_layer_mentions("pipeline") == ["pipeline/sneaky.py:4: flows.c... in 'flows.cli'"]


def import_graph(repo: Path = REPO) -> dict[str, set[str]]:
    """module -> the project modules it imports anywhere in its body (function-level imports included)."""
    files = [p for layer in LAYERS for p in (repo / layer).rglob("*.py")]
    modules = {}
    for p in files:
        folder, *rest = p.relative_to(repo).with_suffix("").parts
        modules[".".join([MODULES[folder], *rest]).removesuffix(".__init__")] = p
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                continue
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    circles.append(sorted(group))
    return circles


def test_no_import_circles_not_even_through_function_level_imports():
    assert import_circles(import_graph()) == []


def test_the_circle_check_sees_a_circle_hidden_in_a_function():
    graph = {"pipeline.a": {"pipeline.b"}, "pipeline.b": {"pipeline.c"}, "pipeline.c": {"pipeline.a"},
             "pipeline.d": {"pipeline.a"}}
    assert import_circles(graph) == [["pipeline.a", "pipeline.b", "pipeline.c"]]
