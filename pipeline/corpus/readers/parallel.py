"""Parallel corpora a user already has (`format=parallel`): each aligned sentence pair becomes one record whose
`text` is the first side and `text_b` the second; the `parallel` method turns it into (view1, view2).

Layouts, told apart by the file (never by guessing at its content beyond the first row):
- **Moses** (as OPUS and WMT distribute them): two aligned plain-text files, one sentence per line, named
  `<prefix>.<lang1>` and `<prefix>.<lang2>` (`corpus.en` + `corpus.de`). Chosen when `languages=[lang1, lang2]` is
  set and the file ends in `.<lang1>`; the `.<lang2>` file beside it is read with it (and, in a corpus directory,
  not read again on its own). Files of different lengths are an error naming both files and the first line that
  has no partner: the alignment cannot be trusted past it.
- **TSV**, no header: two tab-separated columns, `sentence<TAB>translation`.
- **Tatoeba sentence pairs** (tatoeba.org's downloads page, "sentence pairs" for a language pair): no header, four
  columns `id<TAB>sentence<TAB>translation id<TAB>translation`; recognised from the first row (columns 1 and 3 are
  numbers). Tatoeba's `sentences.csv` + `links.csv` export is not read: join it into this layout first.
- **TSV with named columns**: `columns=[A, B]` picks the two sides by header name (the first row is then a header)
  or, as 0-based numbers, by position (no header).

Every other row is a bad line (`on_bad_line=keep`: a reject with its reason, `wrong_column_count` or
`malformed_tatoeba_row`; `error`: an error naming file and line). Pairs with an empty side are dropped by the
corpus stage as `empty`, like any empty record. When `languages` is set, each record's `label` is the language pair
(`en-de`), which the `parallel` and `translation` methods record as `source_lang`/`target_lang`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.corpus.readers.decoding import COMPRESSED_SUFFIXES, LongLine, decoded_lines, too_long_record
from bsl_pipeline.pipeline.corpus.readers.records import RawRecord


def _check_languages(languages: Sequence[str], where: Path) -> None:
    if languages and (len(languages) != 2 or not all(languages) or languages[0] == languages[1]):
        raise InputError(f"{where}: corpus.languages must name two different languages ([en, de]); got "
                         f"{list(languages)}")


def _plain_name(path: Path) -> str:
    """The name without a compression suffix (`corpus.en.gz` -> `corpus.en`)."""
    name = path.name
    for suffix in COMPRESSED_SUFFIXES:
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def moses_partner(path: Path, languages: Sequence[str]) -> Path | None:
    """The `.<lang2>` file aligned with `path` when `path` is the `.<lang1>` side of a Moses pair, else None.
    Raises when the `.<lang1>` file has no partner (a Moses corpus missing its other half)."""
    if not languages:
        return None
    name = _plain_name(path)
    first, second = languages
    if not name.endswith(f".{first}"):
        return None
    partner = path.with_name(name[: -len(first)] + second)
    # Either side may be compressed on its own (corpus.en + corpus.de.gz).
    for candidate in (partner, *(partner.with_name(partner.name + s) for s in COMPRESSED_SUFFIXES)):
        if candidate.is_file():
            return candidate
    raise InputError(f"{path}: Moses layout ({first}/{second}) but the aligned file {partner} does not exist")


def is_moses_partner(path: Path, languages: Sequence[str]) -> bool:
    """Whether `path` is the `.<lang2>` side of a Moses pair whose `.<lang1>` side exists (read with that one)."""
    if not languages:
        return False
    name = _plain_name(path)
    first, second = languages
    if not name.endswith(f".{second}"):
        return False
    stem = name[: -len(second)]
    return any(path.with_name(stem + first + s).is_file() for s in ("", *COMPRESSED_SUFFIXES))


def companion_files(path: Path, languages: Sequence[str]) -> list[Path]:
    """Files besides `path` that reading it as a parallel corpus reads (provenance checksums them too)."""
    partner = moses_partner(path, languages)
    return [partner] if partner is not None else []


def read_parallel(path: Path, languages: Sequence[str] = (), columns: Sequence[str] = (),
                  encoding_errors: str = "strict", on_bad_line: str = "error") -> Iterator[RawRecord]:
    """Records of one parallel corpus file (its Moses partner included): text = first side, text_b = second."""
    languages = [str(x) for x in languages or []]
    _check_languages(languages, path)
    label = "-".join(languages) if languages else None
    partner = moses_partner(path, languages)
    if partner is not None:
        if columns:
            raise InputError(f"{path}: corpus.columns does not apply to a Moses pair ({path.name} + {partner.name})")
        yield from _read_moses(path, partner, label, encoding_errors)
    else:
        yield from _read_tsv(path, label, [str(c) for c in columns or []], encoding_errors, on_bad_line)


def _read_moses(first: Path, second: Path, label: str | None, encoding_errors: str) -> Iterator[RawRecord]:
    lines_a, lines_b = decoded_lines(first, encoding_errors), decoded_lines(second, encoding_errors)
    last = 0
    while True:
        a, b = next(lines_a, None), next(lines_b, None)
        if a is None and b is None:
            return
        if a is None or b is None:
            longer, shorter, extra = (first, second, a) if b is None else (second, first, b)
            raise InputError(f"{longer}:{extra[0]}: misaligned parallel files: {longer} has a line {extra[0]} but "
                             f"{shorter} ends after line {last} (both must have the same number of lines)")
        last = a[0]
        long = next((line for line in (a[1], b[1]) if isinstance(line, LongLine)), None)
        if long is not None:
            yield too_long_record(first, a[0], long, label=label)
            continue
        yield RawRecord(text=a[1], text_b=b[1], label=label, file=str(first), line=a[0], replacements=a[2] + b[2])


_LAYOUT_COLUMNS = {"pair": "sentence, translation", "tatoeba": "id, sentence, translation id, translation",
                   "columns": "at least up to the picked columns"}


def _tatoeba_row(fields: list[str]) -> bool:
    return len(fields) == 4 and fields[0].strip().isdigit() and fields[2].strip().isdigit()


def _read_tsv(path: Path, label: str | None, columns: list[str], encoding_errors: str,
              on_bad_line: str) -> Iterator[RawRecord]:
    lines = decoded_lines(path, encoding_errors)
    layout: str | None = None  # "pair" (2 columns), "tatoeba" (4), "columns" (picked by `columns`)
    picks: tuple[int, int] = (0, 1)
    width = 2
    if columns:
        if len(columns) != 2:
            raise InputError(f"{path}: a parallel TSV needs exactly two corpus.columns (its two sides); got {columns}")
        layout = "columns"
        if all(c.isdigit() for c in columns):
            picks = (int(columns[0]), int(columns[1]))
        else:
            first = next(lines, None)
            if first is None:
                return
            header = [h.strip() for h in first[1].split("\t")]
            missing = [c for c in columns if c not in header]
            if missing:
                raise InputError(f"{path}:1: no column {', '.join(map(repr, missing))} in the header {header}")
            picks = (header.index(columns[0]), header.index(columns[1]))
        width = max(picks) + 1
    for lineno, line, replaced in lines:
        if isinstance(line, LongLine):
            yield too_long_record(path, lineno, line, label=label)
            continue
        fields = line.replace("\x00", "").split("\t")
        if len(fields) == 1 and not fields[0].strip():
            yield RawRecord(text="", text_b="", label=label, file=str(path), line=lineno)
            continue
        if layout is None:  # the first row with content decides
            layout, width = ("tatoeba", 4) if _tatoeba_row(fields) else ("pair", 2)
            picks = (1, 3) if layout == "tatoeba" else (0, 1)
        problem = None
        if layout == "columns":
            problem = "wrong_column_count" if len(fields) < width else None
        elif len(fields) != width:
            problem = "wrong_column_count"
        elif layout == "tatoeba" and not _tatoeba_row(fields):
            problem = "malformed_tatoeba_row"
        if problem is not None:
            if on_bad_line == "error":
                if problem == "wrong_column_count":
                    what = f"expected {width} tab-separated columns ({_LAYOUT_COLUMNS[layout]}), found {len(fields)}"
                else:
                    what = "a Tatoeba sentence-pair row needs numeric ids in columns 1 and 3"
                raise InputError(f"{path}:{lineno}: {what} (-o corpus.on_bad_line=keep keeps it as a reject)")
            yield RawRecord(text=line, file=str(path), line=lineno, label=label, error=problem)
            continue
        yield RawRecord(text=fields[picks[0]], text_b=fields[picks[1]], label=label, file=str(path), line=lineno,
                        replacements=replaced)
