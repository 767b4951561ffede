"""The dataset card (`<dataset>/README.md`): YAML front matter that `datasets.load_dataset(<dir>)` reads, plus a
human summary of where the pairs came from and what was rejected."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from bsl_pipeline.pipeline.base.atomic import write_text_atomic
from bsl_pipeline.pipeline.dataset.manifest import COVERAGE_NOTE, DISTRIBUTION_TITLES, figure_text, stats_rows
from bsl_pipeline.pipeline.dataset.manifest import Manifest


def _shard_files(manifest: Manifest, kind: str) -> list[str]:
    return [s.path for s in manifest.shards_of(kind)]


def card_front_matter(manifest: Manifest) -> dict[str, Any]:
    """The card's YAML front matter: what `datasets.load_dataset(<dir>)` reads (and `card_shard_files` checks)."""
    front = {
        "pretty_name": manifest.name,
        "language": ["en"],
        "task_categories": ["sentence-similarity"],
        "tags": ["view-pairs", "bsl", *manifest.method_names],
        # The shard files by name, not a glob: a file dropped into data/ later is not read as part of the dataset.
        "configs": [
            {"config_name": "default", "default": True,
             "data_files": [{"split": "train", "path": _shard_files(manifest, "pairs")}]},
            {"config_name": "rejects", "data_files": [{"split": "train", "path": _shard_files(manifest, "rejects")}]},
        ],
    }
    if not _shard_files(manifest, "rejects"):
        front["configs"] = front["configs"][:1]
    return front


def dataset_card(manifest: Manifest) -> str:
    manifest.require("source", "stats")
    stats, source = manifest.stats, manifest.source
    lines = [
        "---", yaml.safe_dump(card_front_matter(manifest), sort_keys=False).strip(), "---", "",
        f"# {manifest.name}", "",
        "View pairs for self-supervised sentence-representation learning (BSL and related objectives), made by "
        "`bsl augment`. Each row holds a source sentence, two views of it, the method and its parameters, and "
        "quality measures computed at write time.", "",
        f"- Source: `{source.corpus}` ({source.records_read} records read, {source.records_kept} kept)",
        f"- Created: {manifest.created} with code version `{manifest.code_version}`",
        f"- Pairs: {stats.pairs}; rejected: {stats.rejected} (rejects config, with reasons)", "",
        *stats_markdown(manifest),
    ]
    lines += ["", COVERAGE_NOTE[:1].upper() + COVERAGE_NOTE[1:] + ".", "",
              "Quality fields (columns of every pair): `changed_word_share` = share of the source's words a view "
              "does not keep (word-level alignment; the larger of the two views'), `view_similarity` = cosine of the "
              "two views under the configured sentence encoder (null when none was set). Distributions: mean "
              "(10th/50th/90th percentile) over the kept pairs."]
    lines += ["", JUDGED_BEGIN, *judged_views_markdown(manifest), JUDGED_END]
    lines += ["", "Load with `datasets.load_dataset(\"<this dir>\")`; verify checksums with `bsl verify <this dir>`; "
              "browse pairs with `bsl inspect <this dir>`. Provenance and checksums: `manifest.json`.", ""]
    return "\n".join(lines)


def stats_markdown(manifest: Manifest) -> list[str]:
    """The per-method stats table (`stats_rows`, the one source of `bsl inspect --stats`, the HTML page and the
    report) as Markdown: text columns left-aligned, numbers right-aligned, each figure as the terminal shows it
    (`figure_text`)."""
    rows = stats_rows(manifest)
    if not rows:
        return []
    headers = list(rows[0])
    text_columns = {"method", "rejects by reason", *DISTRIBUTION_TITLES.values()}
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "".join("---|" if h in text_columns else "---:|" for h in headers)]
    lines += ["| " + " | ".join(figure_text(r[h]) for h in headers) + " |" for r in rows]
    return lines


#: The comments around the card's judged-views block: the only part `bsl review` rewrites after each mark.
JUDGED_BEGIN = "<!-- bsl review: judged views (rewritten after each mark; edit outside this block) -->"
JUDGED_END = "<!-- end of judged views -->"


def judged_views_markdown(manifest: Manifest, pairs=None) -> list[str]:
    """The card's section on the judged views (`bsl review`): none when no pair is judged, a note when the
    judgments file judges other pairs. `pairs`: a `PairMethods` already holding the dataset's judged pair ids."""
    from bsl_pipeline.pipeline.base.errors import InputError
    from bsl_pipeline.pipeline.dataset.judgments import dataset_figures, format_figures_markdown

    try:
        figures = dataset_figures(manifest, pairs)
    except InputError as exc:
        return ["", f"Judged views: not counted ({exc})."]
    if figures is None:
        return []
    return ["", "## Judged views", "",
            "Pairs people judged with `bsl review` (blind to the method; marks in `judgments.jsonl`): the share "
            "whose view keeps the source's meaning in fluent English, with its 95% Wilson interval, and the error "
            "classes of those that do not.", "", format_figures_markdown(figures), "",
            f"Judged by {', '.join(figures.reviewers) or 'nobody'}; pairs two reviewers marked differently: "
            f"{figures.disagreements}.", *([f"Not counted: {figures.dropped}."] if figures.dropped else [])]


def write_dataset_card(dataset_dir: Path, manifest: Manifest) -> None:
    """Write the card and record its digest in `manifest.card_sha256` (written with the manifest after it)."""
    text = dataset_card(manifest)
    manifest.card_sha256 = card_sha256(text)
    write_text_atomic(Path(dataset_dir) / "README.md", text)


def card_sha256(text: str) -> str:
    """sha256 of a card less its judged-views block (which `bsl review` rewrites)."""
    import hashlib

    return hashlib.sha256(without_judged_views(text).encode("utf-8")).hexdigest()


def card_is_ours(text: str, manifest: Manifest) -> bool:
    """Whether `text` is the card the tool wrote with `manifest`, but for its judged-views block: by the digest the
    manifest records (so a card of an older template is still the tool's), else, for a manifest without one, by
    rendering the card again."""
    if manifest.card_sha256 is not None:
        return card_sha256(text) == manifest.card_sha256
    return without_judged_views(text) == without_judged_views(dataset_card(manifest))


def patch_judged_views(dataset_dir: Path, manifest: Manifest, pairs=None) -> bool:
    """Rewrite only the judged-views block of the card (between JUDGED_BEGIN and JUDGED_END), keeping every other
    byte, a user's edits included. False (nothing written) when the card is not a plain file of at most
    MAX_CARD_BYTES holding the block exactly once."""
    import os
    import stat

    card = Path(dataset_dir) / "README.md"
    try:
        info = os.lstat(card)
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CARD_BYTES:
        return False
    try:
        text = card.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    patched = judged_views_patched(text, manifest, pairs)
    if patched is None:
        return False
    write_text_atomic(card, patched)
    return True


def _judged_block(text: str) -> tuple[str, str] | None:
    """(what comes before the judged-views block, what comes after it), None unless it is there exactly once."""
    if text.count(JUDGED_BEGIN) != 1 or text.count(JUDGED_END) != 1:
        return None
    head, rest = text.split(JUDGED_BEGIN)
    if JUDGED_END in head:
        return None
    return head, rest.split(JUDGED_END)[1]


def judged_views_patched(text: str, manifest: Manifest, pairs=None) -> str | None:
    """A card's text with its judged-views block rewritten, every other byte kept (None: no such block)."""
    parts = _judged_block(text)
    if parts is None:
        return None
    return parts[0] + "\n".join([JUDGED_BEGIN, *judged_views_markdown(manifest, pairs), JUDGED_END]) + parts[1]


def without_judged_views(text: str) -> str:
    """A card's text less its judged-views block (`bsl review` rewrites it): what says whether the tool wrote it."""
    parts = _judged_block(text)
    return text if parts is None else parts[0] + parts[1]


MAX_CARD_BYTES = 16 << 20  # a card lists shard names; far larger is not a card this tool wrote


#: Front-matter keys other than `configs` that change what `datasets.load_dataset` reads (features, splits): the
#: tool writes none of them, so a card that has one was changed by someone else.
LOADING_KEYS = ("dataset_info", "dataset_infos")
#: Files beside the card that `datasets.load_dataset(<dir>)` also reads (split and feature types, configs that
#: override the card's): the tool writes none of them.
LOADING_FILES = ("dataset_infos.json", ".huggingface.yaml")


def loading_files_problem(dataset_dir: Path) -> str | None:
    """What in the dataset directory, besides the card, would change what `datasets.load_dataset(<dir>)` reads
    (one of LOADING_FILES, by lstat: a link counts); None when nothing."""
    import os

    found = [name for name in LOADING_FILES if os.path.lexists(Path(dataset_dir) / name)]
    if found:
        return (f"{', '.join(found)} beside the card: `bsl augment` writes no such file, and "
                f"`datasets.load_dataset` would read it (column types, configs); remove it")
    return None


def card_front_matter_problem(card: Path, manifest: Manifest) -> str | None:
    """What in a card's front matter differs from what `bsl augment` writes for `manifest`, where it decides what
    `datasets.load_dataset(<dir>)` reads: `configs` key by key (a `data_dir: ../elsewhere`, another split, a
    glob) and any of LOADING_KEYS. None when it matches; the text names the first key that does not."""
    front = read_front_matter(card)
    for key in LOADING_KEYS:
        if key in front:
            return f"front matter key {key!r} is not one `bsl augment` writes (it changes what is loaded)"
    return _difference(front.get("configs"), card_front_matter(manifest)["configs"], "configs")


def _difference(actual: Any, expected: Any, where: str) -> str | None:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{where} must be a mapping, got {actual!r}"
        for key in actual:
            if key not in expected:
                return f"{where}.{key} is not a key `bsl augment` writes (got {actual[key]!r})"
        for key, value in expected.items():
            if key not in actual:
                return f"{where}.{key} is missing"
            problem = _difference(actual[key], value, f"{where}.{key}")
            if problem:
                return problem
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{where} must be a list of {len(expected)} item(s), got {actual!r}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            problem = _difference(a, e, f"{where}[{i}]")
            if problem:
                return problem
        return None
    if actual != expected or type(actual) is not type(expected):
        return f"{where} is {actual!r}, `bsl augment` writes {expected!r}"
    return None


def read_front_matter(card: Path) -> dict[str, Any]:
    """A dataset card's YAML front matter; raises VerificationError (one line) when the card is missing, too large
    or its front matter unreadable."""
    from bsl_pipeline.pipeline.base.errors import VerificationError

    card = Path(card)
    if not card.is_file():
        raise VerificationError(f"{card}: the dataset card is missing (`datasets.load_dataset` needs it)")
    if card.stat().st_size > MAX_CARD_BYTES:
        raise VerificationError(f"{card}: larger than {MAX_CARD_BYTES >> 20} MiB, not a dataset card")
    text = card.read_text(encoding="utf-8", errors="replace")
    parts = text.split("\n---\n", 1)
    front = None
    if text.startswith("---\n") and len(parts) == 2:
        try:
            front = yaml.safe_load(parts[0][4:])
        except yaml.YAMLError:
            front = None
    if not isinstance(front, dict):
        raise VerificationError(f"{card}: no readable `configs` in the dataset card's front matter")
    return front


def card_shard_files(card: Path) -> dict[str, list[str]]:
    """The shard files each config of a dataset card's front matter names ({config name: [paths]}); raises
    VerificationError (one line) when the card is missing, too large or its front matter unreadable."""
    from bsl_pipeline.pipeline.base.errors import VerificationError

    configs = read_front_matter(card).get("configs")
    if not isinstance(configs, list):
        raise VerificationError(f"{card}: no readable `configs` in the dataset card's front matter")
    named: dict[str, list[str]] = {}
    for config in configs:
        try:
            named[str(config["config_name"])] = [str(p) for f in config["data_files"] for p in f["path"]]
        except (KeyError, TypeError):
            raise VerificationError(f"{card}: malformed config {config!r} in the dataset card") from None
    return named
