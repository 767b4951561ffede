"""What people's marks teach the synonyms method: the substitutions of pairs judged not usable, as an avoid file.

Each judged synonyms pair records its substitutions (`changes`: token index, word, substitute). The word's part of
speech and base form are read again as the method read them (its own rules, the dataset's settings, the source
sentence around the word), and the substitute's base form in that part of speech. A substitution (POS, word,
substitute) goes into the avoid file when it occurs in a pair judged not usable and in no pair judged usable: a pair
with one wrong substitution among several usable ones is not evidence against the others, when those occur in
usable pairs too. `method_params.synonyms.words.avoid_file` reads the file (`pipeline.lexicon.substitutes`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.atomic import write_text_atomic
from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.dataset.inspection import PairQuery, dataset_inputs, iter_rows
from bsl_pipeline.pipeline.dataset.judgments import NOT_USABLE, USABLE, dataset_judgments, final_marks
from bsl_pipeline.pipeline.dataset.manifest import Manifest
from bsl_pipeline.pipeline.dataset.review_sample import pair_changes
from bsl_pipeline.pipeline.lexicon.substitutes import parse_avoid_file

METHOD = "synonyms"
Key = tuple[str, str, str]  # (part of speech, word's base form, substitute's base form)


@dataclass(frozen=True)
class AvoidList:
    wrong: dict[Key, int]  # substitution -> pairs judged not usable it occurs in
    usable: dict[Key, int]  # substitution -> pairs judged usable it occurs in
    unread: int  # substitutions whose word could not be read again (the sentence changed its tokens?)

    @property
    def entries(self) -> list[Key]:
        """The substitutions to avoid: judged wrong at least once, never in a usable pair; most often wrong first."""
        found = [k for k in self.wrong if not self.usable.get(k)]
        return sorted(found, key=lambda k: (-self.wrong[k], k))


def _reader(manifest: Manifest, wordnet_dir: str | None):
    """The dataset's synonyms augmenter (its recorded settings, avoid_file left out: it decides no reading)."""
    from bsl_pipeline.pipeline.augment.augmenters import build_augmenter

    params = dict(((manifest.config or {}).get("method_params") or {}).get(METHOD) or {})
    params["words"] = {k: v for k, v in (params.get("words") or {}).items() if k != "avoid_file"}
    if wordnet_dir:
        params["wordnet_dir"] = wordnet_dir
    augmenter = build_augmenter(METHOD, params)
    augmenter.ensure_ready()
    return augmenter


def substitution_key(augmenter: Any, source: str, change: list[Any]) -> Key | None:
    """(POS, word, substitute) in base forms of one recorded change of a pair, or None when the word at its index
    is no longer the one recorded or cannot be read."""
    index, word, new = int(change[0]), str(change[1]), str(change[2])
    tokens, _ = augmenter._tokenize(source)
    if not 0 <= index < len(tokens) or tokens[index] != word:
        return None
    lower = [t.lower() for t in tokens]
    finder = augmenter.finder
    reading = finder.reading(lower[index], augmenter._eligible_words.context(lower, index))
    if isinstance(reading, str):
        return None
    substitute = new.lower().replace(" ", "_")
    bases = finder.base_forms(substitute, reading.pos)
    return reading.pos, reading.base, (bases[0] if bases else substitute)


def avoid_list(manifest: Manifest, wordnet_dir: str | None = None) -> AvoidList:
    """Tally the judged synonyms pairs' substitutions (module docstring)."""
    marks = {p: j.mark for p, j in final_marks(dataset_judgments(manifest).valid).items()
             if j.method == METHOD and j.mark in (USABLE, NOT_USABLE)}
    wrong: Counter = Counter()
    usable: Counter = Counter()
    unread = 0
    if not marks:
        return AvoidList({}, {}, 0)
    augmenter = _reader(manifest, wordnet_dir)
    for row in iter_rows(manifest, PairQuery(methods=[METHOD])):
        mark = marks.get(row["pair_id"])
        if mark is None:
            continue
        keys = set()
        for change in pair_changes(row.get("params") or ""):
            key = substitution_key(augmenter, row.get("source") or "", change)
            if key is None:
                unread += 1
            else:
                keys.add(key)
        (wrong if mark == NOT_USABLE else usable).update(keys)
    return AvoidList(dict(wrong), dict(usable), unread)


EXPORT_COMMAND = "bsl review --export-avoid"
WHAT = "--export-avoid"


def export_avoid_file(manifest: Manifest, path: str | Path, wordnet_dir: str | None = None,
                      overwrite: bool = False) -> tuple[int, int]:
    """Write the avoid file (atomic) and record it as written (`pipeline.base.written_files`). An existing FILE
    this command wrote (as it is now) is appended to: its lines are kept and the new entries added. Any other
    existing file is refused unless `overwrite`: then it is set aside (`.bsl-replaced/` beside it) and, when it is an
    avoid file, its lines are carried over. Never a link, device or FIFO, and never a file of the dataset or its
    corpus (`dataset_inputs`), even with `overwrite`. Returns (entries added, entries in the file)."""
    from bsl_pipeline.pipeline.base.ownership import OwnershipError, check_not_input, claim_file, refuse_special_file
    from bsl_pipeline.pipeline.base.written_files import record_written, recorded_by

    path = Path(path)
    ours = recorded_by(EXPORT_COMMAND)
    inputs = dataset_inputs(manifest)
    check_not_input(path, inputs, WHAT)  # before the judged pairs are read (claim_file checks it again)
    refuse_special_file(path)
    old_text, old = "", frozenset()
    if path.exists():
        mine = ours(path)
        if not mine and not overwrite:
            raise OwnershipError(f"{path} exists and bsl has no record of writing it as it is now; choose a new "
                                 f"file, or pass --overwrite to replace it (the old file is moved to "
                                 f"{path.parent / '.bsl-replaced'}/, and its entries kept when it is an avoid file)")
        try:
            old, _ = parse_avoid_file(path)  # refuses (naming file:line) what is not an avoid file
            old_text = path.read_text(encoding="utf-8")
        except InputError:
            if mine:
                raise
            old_text, old = "", frozenset()  # not an avoid file: set aside below, the new file starts afresh
        if old_text and not old_text.endswith("\n"):
            old_text += "\n"
    found = avoid_list(manifest, wordnet_dir)
    new = [k for k in found.entries if k not in old]
    lines = [] if old_text else [
        "# Substitutions of the synonyms method that people judged wrong (`bsl review --export-avoid`): read by",
        "# method_params.synonyms.words.avoid_file. One 'POS word>substitute' a line, in base forms.", ""]
    if new:
        lines.append(f"# {len(new)} from the judged pairs of dataset {manifest.name}")
    lines += [f"{pos} {word}>{sub}  # wrong in {found.wrong[(pos, word, sub)]} judged pair(s)"
              for pos, word, sub in new]
    # Again, now (the file may have changed meanwhile): a file bsl did not write is set aside.
    claim_file(path, overwrite=overwrite, ours=ours, inputs=inputs, what=WHAT)
    write_text_atomic(path, old_text + "\n".join(lines) + ("\n" if lines else ""))
    record_written(path, EXPORT_COMMAND)
    if found.unread:
        import logging

        logging.getLogger(__name__).warning("warning: %d substitution(s) of judged pairs could not be read again "
                                            "and were left out", found.unread)
    return len(new), len(old) + len(new)


def require_synonyms(manifest: Manifest) -> None:
    if METHOD not in manifest.method_names:
        raise InputError(f"{manifest.where}: has no {METHOD} pairs; --export-avoid reads the substitutions of judged "
                         f"{METHOD} pairs")
