"""The documentation: the MkDocs site builds with --strict (broken links and anchors fail it), the committed
configuration reference is what the code generates and covers every field of every config class with its help, the
CLI reference every `bsl` subcommand, every doc pointer in code, help and error text resolves, and the README stays a
short front page whose relative links resolve."""

from __future__ import annotations

import dataclasses
import html
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")


def _reference_module():
    spec = importlib.util.spec_from_file_location("docs_reference_hook", ROOT / "docs" / "hooks" / "reference.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def reference():
    return _reference_module()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", COLUMNS="100")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}"
    return out


def _page_text(site: Path, page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", (site / page / "index.html").read_text(encoding="utf-8")))


def _leaf_keys(cls: type, prefix: str = "", skip: frozenset = frozenset()) -> list[tuple[str, dataclasses.Field]]:
    """Every leaf field of a config class with its dotted key, walked independently of the generator; nested classes
    in `skip` (documented in a section of their own) are not entered."""
    found = []
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        origin = typing.get_origin(tp)
        if dataclasses.is_dataclass(tp):
            found += [] if tp in skip else _leaf_keys(tp, f"{prefix}{f.name}.", skip)
        elif origin in (list, tuple) and args and dataclasses.is_dataclass(args[0]):
            found += [] if args[0] in skip else _leaf_keys(args[0], f"{prefix}{f.name}[].", skip)
        elif origin is dict and len(args) == 2 and dataclasses.is_dataclass(args[1]):
            found += [] if args[1] in skip else _leaf_keys(args[1], f"{prefix}{f.name}.<name>.", skip)
        elif len(args) == 1 and dataclasses.is_dataclass(args[0]):
            found += [] if args[0] in skip else _leaf_keys(args[0], f"{prefix}{f.name}.", skip)
        else:
            found.append((f"{prefix}{f.name}", f))
    return found


def test_every_config_class_users_set_is_covered(reference):
    classes = {s.cls.__name__ for s in reference.config_sections()}
    assert {"MainJobConfig", "AugmentConfig", "TrainConfig", "EvaluationConfig", "AugmentFlowConfig",
            "TrainFlowConfig", "EvaluateFlowConfig", "ScheduleConfig", "DataFetchConfig"} <= classes
    for method, cls in reference.augmenter_configs().items():
        assert cls.__name__ in classes, method


def test_every_config_field_has_help(reference):
    missing = [f"{s.cls.__module__}.{s.cls.__name__}: {key}" for s in reference.config_sections()
               for key, f in _leaf_keys(s.cls, s.prefix) if not str(f.metadata.get("help", "")).strip()]
    assert not missing, "config fields without help text:\n  " + "\n  ".join(missing)


def test_every_config_field_is_in_the_generated_reference(reference, site):
    text = _page_text(site, "reference/configuration")
    sections = reference.config_sections()
    documented = frozenset(s.cls for s in sections)
    absent = []
    for s in sections:
        keys = [k for k, _ in _leaf_keys(s.cls, s.prefix, documented - {s.cls})]
        absent += [f"{s.cls.__name__}: {k}" for k in keys if k not in text]
    assert not absent, "keys missing from the configuration reference:\n  " + "\n  ".join(absent)
    # a nested class documented elsewhere shows the keys whose default differs: the demo's own BSL recipe
    assert "training.objective.bsl.online_view" in text
    # ranges come from the fields' metadata
    ranged = [(k, f) for s in sections for k, f in _leaf_keys(s.cls, s.prefix) if "range" in f.metadata]
    assert ranged and all(str(f.metadata["range"]) in text for _, f in ranged)
    # every help text whole, <placeholder> words included ("'<mask>' for RoBERTa" is not read as an HTML tag)
    flat = " ".join(text.split())
    helps = {" ".join(str(f.metadata["help"]).replace("`", "").split()) for s in sections
             for _, f in _leaf_keys(s.cls, s.prefix) if f.metadata.get("help")}
    assert "'<mask>' for RoBERTa" in flat
    cut = sorted(h for h in helps if h not in flat)
    assert not cut, "help texts not shown whole:\n  " + "\n  ".join(cut)


def test_reference_pages_are_committed_and_in_sync():
    """docs/reference/configuration.md, cli.md and the views guide's rule table are what the code generates now
    (they read on a code host). Generated in a fresh interpreter, as `python docs/hooks/reference.py` makes them:
    what earlier tests left in this process (registries, settings) must not change the pages."""
    import difflib
    import json

    script = ("import json, runpy, sys; module = runpy.run_path(sys.argv[1]); "
              "print(json.dumps(module['reference_pages']()))")
    proc = subprocess.run([sys.executable, "-c", script, str(ROOT / "docs" / "hooks" / "reference.py")], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env=dict(os.environ, COLUMNS="100"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    pages = json.loads(proc.stdout)
    stale = {uri: text for uri, text in pages.items() if (ROOT / "docs" / uri).read_text(encoding="utf-8") != text}
    diff = "".join(difflib.unified_diff((ROOT / "docs" / uri).read_text(encoding="utf-8").splitlines(True),
                                        text.splitlines(True), f"committed {uri}", "generated", n=1)
                   for uri, text in stale.items())
    assert not stale, f"docs/{', docs/'.join(stale)} differ from the code: run `python docs/hooks/reference.py`\n" \
                      + diff[:4000]
    assert "| <code>method_params.<wbr>span-mask.<wbr>mask_token</code> |" in (
        ROOT / "docs" / "reference" / "configuration.md").read_text(encoding="utf-8")


def test_the_views_guide_shows_every_rewrite_rule_made_from_its_cases(reference):
    """The views guide's rule table is generated from the rules' cases (every example shown is a tested case)."""
    from bsl_pipeline.pipeline.augment.rewrite_rules import RULES

    guide = (ROOT / "docs" / reference.RULES_PAGE).read_text(encoding="utf-8")
    table = guide.split(reference.RULES_START)[1].split(reference.RULES_END)[0]
    for name in RULES:
        assert f"| `{name}` |" in table, name
    with pytest.raises(ValueError, match="markers"):
        reference.views_guide("no table here")


def test_reference_pages_keep_the_navigation_and_search_finds_a_key_by_its_last_part(site):
    import json

    for page in ("reference/configuration", "reference/cli"):
        text = (site / page / "index.html").read_text(encoding="utf-8")
        sidebar = re.search(r'<div class="md-sidebar md-sidebar--primary"[^>]*>', text)
        assert sidebar and "hidden" not in sidebar.group(0), page
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert "chunk_size" in re.split(index["config"]["separator"], "corpus.chunk_size")
    assert any("corpus.chunk_size" in html.unescape(re.sub(r"<[^>]+>", "", doc["text"]))
               for doc in index["docs"] if doc["location"].startswith("reference/configuration"))


def test_every_subcommand_is_in_the_cli_reference(reference, site):
    text = _page_text(site, "reference/cli")
    names = [name for name, _, _ in reference.cli_commands()]
    assert {"bsl augment", "bsl train", "bsl evaluate", "bsl demo", "bsl flow augment", "bsl data fetch",
            "bsl schedule"} <= set(names)
    for name in names:
        assert name in text, name
        assert f"usage: {name}" in text, f"{name}: its --help is not on the page"


def test_readme_is_short_and_its_links_resolve():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    links = re.findall(r"\]\(([^)\s]+)\)", readme)
    assert links, "README links into the docs"
    broken = []
    for link in links:
        if re.match(r"[a-z]+://|mailto:|#", link):
            continue
        path = link.split("#")[0]
        if not (ROOT / path).exists():
            broken.append(link)
    assert not broken, f"README links that do not resolve: {broken}"
    assert "docs/reference/configuration.md" in readme and "-o " in readme


# Where product code, help text and error text send a reader: the command's code, its configs and their comments.
PRODUCT = ("pipeline", "training", "evaluation", "flows", "cli", "configs")
DOC_POINTER = re.compile(
    r"(?P<top>README|CONTRIBUTING)(?:\.md)?,? (?P<quote>['\"])(?P<heading>[^'\"]+)(?P=quote)"
    r"|(?<![\w./<>-])(?P<path>(?:docs|experiments|benchmarks)/[\w./-]*?\.md)(?:#(?P<anchor>[\w-]+))?")


def _anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings, as the site's toc extension makes them (or their `{ #id }`)."""
    from markdown.extensions.toc import slugify

    found, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else re.match(r"#{1,6} (.*)", line)
        if match:
            text = match.group(1)
            explicit = re.search(r"\{ *#([\w-]+) *\}\s*$", text)
            found.add(explicit.group(1) if explicit else slugify(re.sub(r"[`*]", "", text).strip(), "-"))
    return found


def _headings(page: Path) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(r"^#{1,6} (.*)$", page.read_text(encoding="utf-8"), re.M)]


def doc_pointers() -> list[tuple[str, re.Match]]:
    found = []
    for top in PRODUCT:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in (".py", ".yaml", ".yml") and "__pycache__" not in path.parts:
                text = path.read_text(encoding="utf-8")
                for match in DOC_POINTER.finditer(text):
                    line = text.count("\n", 0, match.start()) + 1
                    found.append((f"{path.relative_to(ROOT)}:{line}", match))
    return found


def test_every_doc_pointer_in_code_help_and_errors_resolves():
    """A page named in code, help or an error message exists, with the anchor it names; a README or CONTRIBUTING
    section named in quotes is one of its headings."""
    pointers = doc_pointers()
    kinds = {"path" if m.group("path") else "heading" for _, m in pointers}
    assert len(pointers) > 20 and "path" in kinds, "the scan finds the code's doc pointers"
    assert any(m.group("anchor") for _, m in pointers)
    dangling = []
    for where, m in pointers:
        if m.group("path"):
            page = ROOT / m.group("path")
            if not page.is_file():
                dangling.append(f"{where}: {m.group(0)} (no such page)")
            elif m.group("anchor") and m.group("anchor") not in _anchors(page):
                dangling.append(f"{where}: {m.group(0)} (no such anchor)")
        else:
            headings = _headings(ROOT / f"{m.group('top')}.md")
            if not any(h.lower().startswith(m.group("heading").lower()) for h in headings):
                dangling.append(f"{where}: {m.group(0)} (no such section)")
    assert not dangling, "doc pointers that do not resolve:\n  " + "\n  ".join(dangling)



def _bsl_parsers() -> dict[tuple[str, ...], "argparse.ArgumentParser"]:
    """("bsl", "flow", "augment") -> its parser, for `bsl` and every subcommand."""
    import argparse

    from bsl_pipeline.cli.cli import build_parser

    found = {}

    def walk(parser: argparse.ArgumentParser, name: tuple[str, ...]) -> None:
        found[name] = parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub in action.choices.items():
                    walk(sub, name + (sub_name,))

    walk(build_parser(), ("bsl",))
    return found


def _options(parser) -> set[str]:
    return {option for action in parser._actions for option in action.option_strings}


BSL_CALL = re.compile(r"(?<![\w./-])(?:bsl|python -m bsl_pipeline\.cli)(?![\w-])(?P<args>[^;|&#`]*)")
FLAG = re.compile(r"(?<![\w-])(-{1,2}[A-Za-z][\w-]*)")
#: Flags the guide names of other programs, with the program (a flag on its own is checked against every bsl command).
OTHER_PROGRAMS = {"--param": "prefect deployment run", "--local-directory": "dask worker",
                  "--seeds": "experiments/compare_peers.py"}


def guide_flags() -> list[tuple[str, tuple[str, ...] | None, str]]:
    """Every flag the guide names, as (page:line, the bsl command it is given to, the flag): the flags of each `bsl`
    call (a line of a code block, continued lines joined, or an inline code span), and a flag in a code span of its
    own (`--reason no_rule_applies`), whose command is None."""
    parsers = _bsl_parsers()

    def calls(text: str, where: str) -> list[tuple[str, tuple[str, ...] | None, str]]:
        found = []
        for m in BSL_CALL.finditer(text):
            words, name = m.group("args").split(), ("bsl",)
            while words and name + (words[0],) in parsers:
                name += (words.pop(0),)
            found += [(where, name, flag) for flag in FLAG.findall(" ".join(words))]
        alone = None if found or BSL_CALL.search(text) else FLAG.match(text)
        return found + ([(where, None, alone.group(1))] if alone else [])

    found = []
    for page in sorted((ROOT / "docs" / "guide").glob("*.md")):
        lines = page.read_text(encoding="utf-8").splitlines()
        fenced, prose, i = False, [], 0

        def spans(prose: list[tuple[int, str]]) -> list[tuple[str, tuple[str, ...] | None, str]]:
            """The code spans of a prose paragraph (a span may go on over a line break)."""
            text = "\n".join(line for _, line in prose)
            return [item for m in re.finditer(r"`([^`]+)`", text)
                    for item in calls(" ".join(m.group(1).split()),
                                      f"{page.name}:{prose[0][0] + text.count(chr(10), 0, m.start())}")]

        while i < len(lines):
            line, n = lines[i], i + 1
            if line.lstrip().startswith("```"):
                fenced = not fenced
            elif fenced:
                while line.endswith("\\") and i + 1 < len(lines):  # a command continued on the next line
                    i += 1
                    line = line[:-1] + " " + lines[i].strip()
                found += calls(line.split(" # ")[0], f"{page.name}:{n}")
            if fenced or not line.strip() or line.lstrip().startswith("```"):
                found += spans(prose) if prose else []
                prose = []
            else:
                prose.append((n, line))
            i += 1
        found += spans(prose) if prose else []
    return found


def test_every_flag_the_guide_gives_a_bsl_command_is_one_of_its_options():
    """A `bsl ... --flag` in the guide (code blocks and inline code) is an option of that command's parser, and a
    `--flag` written on its own is an option of some bsl command (or of another program the guide names): a
    renamed or misspelt flag in the docs fails here, not for a reader."""
    parsers = _bsl_parsers()
    flags = guide_flags()
    assert len({name for _, name, _ in flags if name}) >= 10, "the scan finds the guide's bsl commands"
    lines = {page.name: page.read_text(encoding="utf-8").splitlines()
             for page in (ROOT / "docs" / "guide").glob("*.md")}
    assert any(name and flag not in lines[where.split(":")[0]][int(where.split(":")[1]) - 1]
               for where, name, flag in flags), "a command's continued lines are joined"
    assert any(name is None for _, name, _ in flags), "and the flags written on their own"
    every = set().union(*(_options(p) for p in parsers.values()))
    wrong = [f"{where}: `{' '.join(name)}` has no option {flag}" for where, name, flag in flags
             if name is not None and flag not in _options(parsers[name])]
    wrong += [f"{where}: {flag} is an option of no bsl command" for where, name, flag in flags
              if name is None and flag not in every and flag not in OTHER_PROGRAMS]
    assert not wrong, "flags the guide names that the commands do not have:\n  " + "\n  ".join(wrong)
    script = (ROOT / OTHER_PROGRAMS["--seeds"]).read_text(encoding="utf-8")
    assert '"--seeds"' in script

def test_results_pointer_and_changelog_exist():
    pointer = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    assert len(pointer.splitlines()) <= 4 and "docs/results/" in pointer
    assert (ROOT / "CHANGELOG.md").is_file()


@pytest.mark.browser
def test_configuration_reference_renders_in_chromium(site):
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("/usr/bin/chromium is missing (CI)")
        pytest.skip("/usr/bin/chromium is missing")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto((site / "reference" / "configuration" / "index.html").as_uri())
            cell = page.get_by_text("training.objective.bsl.online_view", exact=True).first
            assert cell.is_visible()
            heading = page.locator("h2#train")
            assert heading.is_visible()
        finally:
            browser.close()
