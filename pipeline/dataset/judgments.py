"""People's judgments of a dataset's view pairs: the append-only judgments file, and the figures read from it.

`<dataset>/judgments.jsonl` holds one JSON object a line, one line per mark, appended as the mark is made (one
`write` with O_APPEND under an exclusive lock, then fsync), never rewritten:

    {"pair_id": ..., "dataset": <pairs checksum>, "method": ..., "mark": "usable" | "not_usable" | "skip" | "undo",
     "classes": [...], "note": "...", "reviewer": "...", "time": "<UTC, ISO 8601>"}

`dataset` is `pairs_checksum(manifest)`, a sha256 over the sha256 of every pair shard: a line of another dataset (or
of this directory before its pairs were rebuilt) is refused, naming the file and line. The file's place is fixed:
`judgments.jsonl` in the dataset directory, a plain file (never a link); the manifest's `annotations.judgments`
entry says so but is never read as a path. The file is outside the shards' checksums, so marks never change them.
An `undo` line takes back the reviewer's latest live mark of that pair.

Anyone who can write the directory can append lines, so a mark counts only when it holds up (`check_judgments`):
its pair id is a pair of this dataset, of the method the line claims (one pass over the shards' pair ids), and,
with `BSL_MANIFEST_KEY` set, the line carries `signature`, an HMAC-SHA256 under that key of the rest of the line.
Other lines are dropped by reason (`DROP_REASONS`) and every figure says how many; `bsl verify` refuses the file
naming the first.

Reading: a line that is not JSON at all is a write cut off by a killed process (the mark being made); it is skipped
with a warning naming file:line. A JSON line that is not a judgment is an error naming file:line.

Figures (`judged_figures`): each pair counts once, with its latest live mark in file order (when two reviewers mark
one pair differently, the later mark counts and `disagreements` says how often that happened); `skip` marks take a
pair out of the sample without counting; the usable share has a 95% Wilson score interval.
"""

from __future__ import annotations

import fcntl
import hmac
import json
import logging
import math
import os
import stat
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.errors import InputError, VerificationError
from bsl_pipeline.pipeline.base.ownership import not_a_plain_file
from bsl_pipeline.pipeline.base.fingerprint import digest, keyed_digest
from bsl_pipeline.pipeline.base.text import terminal_safe
from bsl_pipeline.pipeline.dataset.manifest import ANNOTATIONS, KEY_ENV, Manifest, resolve_inside

log = logging.getLogger(__name__)

JUDGMENTS_NAME = ANNOTATIONS["judgments"]["path"]
USABLE, NOT_USABLE, SKIP, UNDO = "usable", "not_usable", "skip", "undo"
MARKS = (USABLE, NOT_USABLE, SKIP, UNDO)
#: Error classes, in the order the review page and the figures show them: (name, key on the page, title).
ERROR_CLASSES = (("sense", "w", "wrong sense"), ("grammar", "g", "grammar"), ("pos", "p", "part of speech"),
                 ("phrase", "b", "broken phrase"), ("rare", "r", "rare word"), ("entity", "e", "name changed"),
                 ("other", "o", "other"))
CLASS_NAMES = tuple(name for name, _, _ in ERROR_CLASSES)
MAX_NOTE_CHARS = 2_000
Z95 = 1.959963984540054
#: Why a line of the judgments file does not count, in the order they are checked.
UNSIGNED, BAD_SIGNATURE, UNKNOWN_PAIR, OTHER_METHOD = "unsigned", "bad signature", "unknown pair", "method differs"
DROP_REASONS = {UNSIGNED: f"no signature while {KEY_ENV} is set",
                BAD_SIGNATURE: f"signature does not match {KEY_ENV}",
                UNKNOWN_PAIR: "pair id not in this dataset",
                OTHER_METHOD: "pair is of another method than the line claims"}


def pairs_checksum(manifest: Manifest) -> str:
    """sha256 over the (path, sha256) of every pair shard, in manifest order: what the judged pairs are."""
    return digest([[s.path, s.sha256] for s in manifest.shards_of("pairs")])


def judgments_path(manifest: Manifest) -> Path:
    """The judgments file of a dataset: always `judgments.jsonl` in the dataset directory (a manifest's
    `annotations.judgments.path` is not signed without a key, so it never decides where marks are read or
    appended). Raises InputError when something other than a plain file (a link, a folder, a FIFO) is there."""
    if manifest.root is None:
        raise InputError(f"{manifest.where}: not loaded from a dataset directory")
    path = resolve_inside(manifest.root, JUDGMENTS_NAME, f"{manifest.where}: judgments file")
    _require_plain_file(path)
    return path


def _require_plain_file(path: Path) -> None:
    """Nothing, or a plain file (lstat: a link is never followed)."""
    kind = not_a_plain_file(path)
    if kind:
        raise InputError(f"{path}: the judgments file is {kind}; marks are read and appended only in a plain "
                         f"judgments.jsonl of the dataset (move it away)")


def _signing_key() -> str | None:
    return os.environ.get(KEY_ENV) or None


@dataclass(frozen=True)
class Judgment:
    pair_id: str
    dataset: str
    method: str
    mark: str
    classes: tuple[str, ...] = ()
    note: str = ""
    reviewer: str = ""
    time: str = ""
    signature: str = ""  # HMAC-SHA256 under BSL_MANIFEST_KEY of the rest of the line ("" when written without)
    line: int = 0  # where it was read from (0: not read from a file)

    def body(self) -> dict[str, Any]:
        """The line's fields less the signature: what the signature covers."""
        return {"pair_id": self.pair_id, "dataset": self.dataset, "method": self.method, "mark": self.mark,
                "classes": list(self.classes), "note": self.note, "reviewer": self.reviewer, "time": self.time}

    def to_json(self) -> dict[str, Any]:
        return {**self.body(), **({"signature": self.signature} if self.signature else {})}


def make_judgment(manifest: Manifest, pair_id: str, method: str, mark: str, classes: list[str] | tuple[str, ...] = (),
                  note: str = "", reviewer: str = "") -> Judgment:
    """A checked judgment of one pair of `manifest`, stamped with the time now (UTC)."""
    if mark not in MARKS:
        raise InputError(f"mark must be one of {', '.join(MARKS)}, got {mark!r}")
    unknown = [c for c in classes if c not in CLASS_NAMES]
    if unknown:
        raise InputError(f"unknown error class(es) {', '.join(map(repr, unknown))}; known: {', '.join(CLASS_NAMES)}")
    if classes and mark != NOT_USABLE:  # a class says why a view is not usable: on any other mark it contradicts it
        raise InputError(f"error classes go with a {NOT_USABLE} mark only, not with {mark!r} "
                         f"(got {', '.join(map(repr, classes))})")
    if not isinstance(note, str) or len(note) > MAX_NOTE_CHARS:
        raise InputError(f"a note is text of at most {MAX_NOTE_CHARS} characters")
    judgment = Judgment(pair_id=str(pair_id), dataset=pairs_checksum(manifest), method=str(method), mark=mark,
                        classes=tuple(dict.fromkeys(classes)), note=note, reviewer=str(reviewer),
                        time=datetime.now(timezone.utc).isoformat(timespec="milliseconds"))
    key = _signing_key()
    return replace(judgment, signature=keyed_digest(judgment.body(), key)) if key else judgment


def judgment_line(judgment: Judgment) -> str:
    """One line of the judgments file, its newline included."""
    return json.dumps(judgment.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n"


def append_judgment(path: str | Path, judgment: Judgment) -> None:
    """Append one line: one write() with O_APPEND under an exclusive flock, then fsync. Another writer (a second
    reviewer) waits for the lock; a line cut off by a killed writer is closed with a newline first, so it never
    swallows the next one."""
    line = judgment_line(judgment)
    try:  # never through a link, never into a FIFO or device (O_NONBLOCK: opening a FIFO does not wait)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o666)
    except OSError as exc:
        _require_plain_file(Path(path))
        raise InputError(f"{path}: cannot append a mark ({exc.strerror})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(f"{path}: the judgments file is not a plain file; marks are appended only to a plain "
                             f"judgments.jsonl of the dataset (move it away)")
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        if size:
            with open(path, "rb") as fh:
                fh.seek(size - 1)
                if fh.read(1) != b"\n":
                    line = "\n" + line
        data = line.encode("utf-8")
        written = os.write(fd, data)
        if written != len(data):
            raise OSError(f"{path}: short write ({written} of {len(data)} bytes)")
        os.fsync(fd)
    finally:
        os.close(fd)  # closing releases the lock


def _check_line(data: Any, where: str) -> Judgment:
    if not isinstance(data, dict):
        raise InputError(f"{where}: not a judgment (a JSON object), got {type(data).__name__}")
    for key in ("pair_id", "dataset", "method", "mark", "reviewer", "time"):
        if not isinstance(data.get(key), str):
            raise InputError(f"{where}: {key} must be a string, got {data.get(key)!r}")
    if data["mark"] not in MARKS:
        raise InputError(f"{where}: mark must be one of {', '.join(MARKS)}, got {data['mark']!r}")
    classes = data.get("classes", [])
    if not isinstance(classes, list) or any(c not in CLASS_NAMES for c in classes):
        raise InputError(f"{where}: classes must be a list of {', '.join(CLASS_NAMES)}, got {classes!r}")
    note = data.get("note", "")
    if not isinstance(note, str):
        raise InputError(f"{where}: note must be a string, got {note!r}")
    signature = data.get("signature", "")
    if not isinstance(signature, str):
        raise InputError(f"{where}: signature must be a string, got {signature!r}")
    return Judgment(pair_id=data["pair_id"], dataset=data["dataset"], method=data["method"], mark=data["mark"],
                    classes=tuple(classes), note=note, reviewer=data["reviewer"], time=data["time"],
                    signature=signature, line=int(where.rsplit(":", 1)[1]))


MAX_LINE_BYTES = 64 << 10  # a mark's line is far shorter (a note is at most MAX_NOTE_CHARS characters)


def read_judgments(path: str | Path, checksum: str | None = None) -> list[Judgment]:
    """Every judgment of the file in order ([] when it does not exist). With `checksum`, a line of another dataset
    is refused (InputError naming the file, the line and both checksums). Lines are read in bounded memory: one
    over MAX_LINE_BYTES, or nested too deep to parse, is refused naming it; lines cut off by a killed writer are
    skipped with one warning."""
    path = Path(path)
    _require_plain_file(path)
    if not path.exists():
        return []
    out = []
    cut_off: list[str] = []
    with open(path, "rb") as fh:
        n = 0
        while raw := fh.readline(MAX_LINE_BYTES + 1):
            n += 1
            where = f"{path}:{n}"
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                raise InputError(f"{where}: a line longer than {MAX_LINE_BYTES >> 10} KiB is not a judgment")
            text = raw.decode("utf-8", errors="replace")
            if not text.strip():
                continue
            try:
                data = json.loads(text)
            except RecursionError:
                raise InputError(f"{where}: not a judgment (JSON nested too deep)") from None
            except ValueError:
                cut_off.append(where)
                continue
            judgment = _check_line(data, where)
            if checksum is not None and judgment.dataset != checksum:
                raise InputError(f"{where}: judges the pairs of another dataset (pairs checksum "
                                 f"{judgment.dataset[:12]}... != {checksum[:12]}... of this one); this judgments "
                                 f"file belongs elsewhere, or the pairs were rebuilt since: move it aside to review "
                                 f"these pairs anew")
            out.append(judgment)
    if cut_off:
        more = f"; {len(cut_off) - 1} more such line(s) skipped" if len(cut_off) > 1 else ""
        log.warning("warning: %s: not a complete line (a write cut off?), skipped%s", cut_off[0], more)
    return out


def read_dataset_judgments(manifest: Manifest) -> list[Judgment]:
    """Every line of the dataset's judgments file, each checked to be of its pairs (not yet whether it counts:
    `check_judgments`)."""
    return read_judgments(judgments_path(manifest), pairs_checksum(manifest))



def judges_other_pairs(path: str | Path, checksum: str) -> int:
    """How many lines of the judgments file at `path` judge other pairs than those of `checksum` (their
    `pairs_checksum`): 0 when every line judges these pairs, or there is no plain file there, or it cannot be read
    as judgments (then `bsl verify` names it, whatever the pairs). What a rerun of `bsl augment` that rebuilt the
    pairs sets aside."""
    try:
        judgments = read_judgments(path)
    except InputError:
        return 0
    return sum(j.dataset != checksum for j in judgments)


def replaced_judgments_note(where: str, lines: int, kept: str, dataset: str) -> str:
    """The warning of a publish that set a judgments file of the replaced pairs aside (`judges_other_pairs`)."""
    return (f"{where}: {lines} mark(s) judge the pairs this run replaced: the file is set aside as {kept} (nothing "
            f"deleted); judge the new pairs with `bsl review {dataset}`")

class PairMethods:
    """pair_id -> method of a dataset's pairs, for the ids asked: one pass over the pair shards' `pair_id` and
    `method` columns per batch of ids not asked before (what is found, or not, is remembered). `known` seeds it
    with pairs already read from the shards (a review's sample)."""

    def __init__(self, manifest: Manifest, known: dict[str, str] | None = None) -> None:
        self.manifest = manifest
        self._methods: dict[str, str | None] = dict(known or {})

    def remember(self, known: dict[str, str]) -> None:
        """Pairs read from the shards elsewhere (a review's sample): not looked up again."""
        self._methods.update(known)

    def methods_of(self, pair_ids: set[str]) -> dict[str, str | None]:
        missing = {p for p in pair_ids if p not in self._methods}
        if missing:
            import pyarrow as pa
            import pyarrow.compute as pc

            wanted = pa.array(sorted(missing), pa.string())
            for batch in self._id_batches():
                hits = batch.filter(pc.is_in(batch.column("pair_id"), value_set=wanted))
                for pair_id, method in zip(hits.column("pair_id").to_pylist(), hits.column("method").to_pylist()):
                    self._methods[pair_id] = method
            for p in missing:
                self._methods.setdefault(p, None)
        return {p: self._methods[p] for p in pair_ids}

    def _id_batches(self):
        """The pair shards' `pair_id` and `method` columns, each shard path-checked like every manifest path (this
        module sits below `store`, which reads whole pairs)."""
        import pyarrow.parquet as pq

        root = self.manifest.root
        for shard in self.manifest.shards_of("pairs"):
            path = resolve_inside(root, shard.path, f"{self.manifest.where}: shard")
            try:
                yield from pq.ParquetFile(path).iter_batches(columns=["pair_id", "method"])
            except (OSError, ValueError, KeyError) as exc:  # missing, not Parquet, no such column
                raise InputError(f"shard {path}: cannot read its pair ids ({exc})") from None


@dataclass(frozen=True)
class CheckedJudgments:
    """The lines of a judgments file that count, and those that do not: reason -> (lines, where the first is)."""

    valid: list[Judgment]
    dropped: dict[str, tuple[int, str]] = field(default_factory=dict)

    @property
    def dropped_lines(self) -> int:
        return sum(n for n, _ in self.dropped.values())

    def dropped_text(self) -> str:
        """"3 marks not counted: 2 unknown pair (pair id not in this dataset; first at FILE:4), ...", or ""."""
        if not self.dropped:
            return ""
        parts = [f"{n} {reason} ({DROP_REASONS[reason]}; first at {where})"
                 for reason, (n, where) in self.dropped.items()]
        return f"{self.dropped_lines} mark(s) not counted: " + ", ".join(parts)


def drop_reason(judgment: Judgment, method: str | None, key: str | None) -> str | None:
    """Why a line does not count (None when it does): `method` is the pair's method in the dataset (None when no
    pair has its id), `key` the signing key (None: signatures are not checked)."""
    if key is not None:
        if not judgment.signature:
            return UNSIGNED
        if not hmac.compare_digest(judgment.signature, keyed_digest(judgment.body(), key)):
            return BAD_SIGNATURE
    if method is None:
        return UNKNOWN_PAIR
    if method != judgment.method:
        return OTHER_METHOD
    return None


def check_judgments(manifest: Manifest, judgments: list[Judgment],
                    pairs: PairMethods | None = None) -> CheckedJudgments:
    """Split the lines into those that count and those dropped, by reason (`drop_reason`); a dropped line is
    named as `judgments.jsonl:<line>` (the card shows it)."""
    pairs = pairs or PairMethods(manifest)
    where = JUDGMENTS_NAME
    methods = pairs.methods_of({j.pair_id for j in judgments})
    key = _signing_key()
    valid, counts, first = [], Counter(), {}
    for j in judgments:
        reason = drop_reason(j, methods[j.pair_id], key)
        if reason is None:
            valid.append(j)
        else:
            counts[reason] += 1
            first.setdefault(reason, f"{where}:{j.line}")
    return CheckedJudgments(valid, {r: (counts[r], first[r]) for r in DROP_REASONS if counts[r]})


def dataset_judgments(manifest: Manifest, pairs: PairMethods | None = None) -> CheckedJudgments:
    """The dataset's judgments, checked: those that count and those dropped."""
    return check_judgments(manifest, read_dataset_judgments(manifest), pairs)


def verify_judgments(manifest: Manifest, allow_dropped: bool = False) -> int:
    """`bsl verify`'s check of the judgments file: a plain file at its fixed place, every line a judgment of these
    pairs that counts (`allow_dropped`: lines that do not count are only a warning, as `bsl review` reads them); a
    manifest naming another place for it is refused too. Raises VerificationError naming the file (and line);
    returns the number of lines that count."""
    entry = (manifest.annotations or {}).get("judgments") or {}
    if entry.get("path", JUDGMENTS_NAME) != JUDGMENTS_NAME:
        raise VerificationError(f"{manifest.where}: annotations.judgments.path is {entry.get('path')!r}; judgments "
                                f"are read only from {JUDGMENTS_NAME} in the dataset directory (the manifest was "
                                f"edited)")
    try:
        checked = dataset_judgments(manifest)
    except InputError as exc:
        raise VerificationError(str(exc)) from None
    if checked.dropped and not allow_dropped:
        raise VerificationError(f"{judgments_path(manifest)}: {checked.dropped_text()}; move the file aside, or "
                                f"remove those lines")
    if checked.dropped:
        log.warning("warning: %s: %s; the other marks count", judgments_path(manifest), checked.dropped_text())
    return len(checked.valid)


def live_marks(judgments: list[Judgment]) -> dict[str, list[Judgment]]:
    """pair_id -> its live marks in file order (every reviewer's), an `undo` having taken back the reviewer's
    latest live mark of the pair."""
    live: dict[str, list[Judgment]] = {}
    for j in judgments:
        marks = live.setdefault(j.pair_id, [])
        if j.mark == UNDO:
            for i in range(len(marks) - 1, -1, -1):
                if marks[i].reviewer == j.reviewer:
                    del marks[i]
                    break
        else:
            marks.append(j)
    return {p: m for p, m in live.items() if m}


def final_marks(judgments: list[Judgment]) -> dict[str, Judgment]:
    """pair_id -> the mark that counts: the latest live one."""
    return {p: marks[-1] for p, marks in live_marks(judgments).items()}


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share k/n (95% by default); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class MethodFigures:
    """What the marks say of one method: pairs judged (usable or not), usable, the 95% interval, error classes."""

    method: str
    judged: int
    usable: int
    skipped: int
    low: float
    high: float
    classes: dict[str, int] = field(default_factory=dict)

    @property
    def share(self) -> float | None:
        return self.usable / self.judged if self.judged else None

    def share_text(self) -> str:
        """"0.91 (0.84-0.95)", or "-" when nothing was judged."""
        return "-" if not self.judged else f"{self.share:.2f} ({self.low:.2f}-{self.high:.2f})"

    def classes_text(self) -> str:
        return ", ".join(f"{c} {n}" for c, n in self.classes.items()) or "-"


@dataclass(frozen=True)
class JudgedFigures:
    per_method: dict[str, MethodFigures]
    reviewers: tuple[str, ...]
    disagreements: int  # pairs whose live marks (by two or more reviewers) differ in usable / not usable
    dropped: str = ""  # the lines not counted, by reason (`CheckedJudgments.dropped_text`), "" when none

    @property
    def judged(self) -> int:
        return sum(f.judged for f in self.per_method.values())


def judged_figures(judgments: list[Judgment], methods: list[str] | None = None) -> JudgedFigures:
    """Per method (those of `methods` first, in their order, then any other judged one): judged n, usable, its
    Wilson interval, error classes of the pairs judged not usable."""
    live = live_marks(judgments)
    final = {p: marks[-1] for p, marks in live.items()}
    order = list(dict.fromkeys([*(methods or []), *(j.method for j in final.values())]))
    per_method = {}
    for m in order:
        mine = [j for j in final.values() if j.method == m]
        judged = [j for j in mine if j.mark in (USABLE, NOT_USABLE)]
        usable = sum(j.mark == USABLE for j in judged)
        counts = Counter(c for j in judged if j.mark == NOT_USABLE for c in j.classes)
        low, high = wilson_interval(usable, len(judged))
        per_method[m] = MethodFigures(m, len(judged), usable, sum(j.mark == SKIP for j in mine), low, high,
                                      {c: counts[c] for c in CLASS_NAMES if counts[c]})
    disagreements = sum(1 for marks in live.values()
                        if len({j.mark for j in marks if j.mark in (USABLE, NOT_USABLE)}) > 1)
    reviewers = tuple(sorted({j.reviewer for marks in live.values() for j in marks}))
    return JudgedFigures(per_method, reviewers, disagreements)


def dataset_figures(manifest: Manifest, pairs: PairMethods | None = None) -> JudgedFigures | None:
    """The dataset's figures from the marks that count (`check_judgments`), saying how many lines were dropped and
    why; None when the judgments file has no line (or `manifest` is not yet a dataset directory's: a card written
    before its manifest)."""
    if manifest.root is None:
        return None
    checked = dataset_judgments(manifest, pairs)
    if not checked.valid and not checked.dropped:
        return None
    return replace(judged_figures(checked.valid, manifest.method_names), dropped=checked.dropped_text())


FIGURE_HEADERS = ("method", "judged", "usable", "usable share (95% interval)", "not usable by class", "skipped")


def figure_rows(figures: JudgedFigures) -> list[list[str]]:
    return [[m, str(f.judged), str(f.usable), f.share_text(), f.classes_text(), str(f.skipped)]
            for m, f in figures.per_method.items()]


def format_figures_text(figures: JudgedFigures) -> str:
    """The figures as an aligned text table plus one line on reviewers and disagreements."""
    rows = [list(FIGURE_HEADERS), *figure_rows(figures)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(FIGURE_HEADERS))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append(f"judged by {', '.join(figures.reviewers) or 'nobody'}; a pair counts once (its latest mark); "
                 f"pairs two reviewers marked differently: {figures.disagreements}")
    if figures.dropped:
        lines.append(figures.dropped)
    return terminal_safe("\n".join(lines))


def format_figures_markdown(figures: JudgedFigures) -> str:
    lines = ["| " + " | ".join(FIGURE_HEADERS) + " |", "|---|---:|---:|---:|---|---:|"]
    lines += ["| " + " | ".join(r) + " |" for r in figure_rows(figures)]
    return "\n".join(lines)


def check_min_usable(manifest: Manifest, minimum: float, methods: list[str] | None = None) -> None:
    """Refuse (InputError naming the dataset and the method) when a method's judged lower bound (95% Wilson) is
    under `minimum`, or a method has no judged pair."""
    figures = dataset_figures(manifest)
    dropped = f" ({figures.dropped})" if figures and figures.dropped else ""
    for m in methods or manifest.method_names:
        f = figures.per_method.get(m) if figures else None
        if f is None or not f.judged:
            raise InputError(f"{manifest.where}: method {m!r} has no judged pairs, so its usable share is unknown "
                             f"(--min-usable {minimum:g}); judge a sample with `bsl review {manifest.root}`"
                             f"{dropped}")
        if f.low < minimum:
            raise InputError(f"{manifest.where}: method {m!r}: usable share {f.share_text()} of {f.judged} judged "
                             f"pairs; its lower bound {f.low:.2f} is under --min-usable {minimum:g}{dropped}")
