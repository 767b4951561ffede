"""From raw corpus records to normalised, de-duplicated, length-bounded chunks of `SourceRecord`s.

Streaming: one chunk (at most `chunk_size` records) is in memory at a time; the only state that grows with the
corpus is the sets of 64-bit ids seen (for de-duplication, ~60 bytes per distinct record and per distinct first
sentence). A record is a duplicate when it repeats an earlier one (a sentence; a pair, both its sentences); a new
record whose first sentence an earlier record had (a premise with its next hypothesis, a sentence an earlier pair's
premise was) is kept, marked `repeats_text`, so that the methods that read only that sentence augment it once. Chunks never
span two files, so a corpus directory that gains files keeps the chunks (and their cached results) of the files it
had.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field as _field  # `field` is also a config key below
from pathlib import Path

from bsl_pipeline.pipeline.base.config import MAX_BUFFERED_ITEMS, MAX_VIEW_CHARS, Range
from bsl_pipeline.pipeline.base.storage import as_url
from bsl_pipeline.pipeline.base.text import count_words, normalize, stable_id
from bsl_pipeline.pipeline.corpus.readers import (
    companion_files,
    corpus_files,
    format_problem,
    on_bad_line_problem,
    read_file,
)
from bsl_pipeline.pipeline.corpus.readers.decoding import encoding_errors_problem
from bsl_pipeline.pipeline.corpus.readers.records import DEFAULT_FIELD, RawRecord
from bsl_pipeline.pipeline.corpus.source_record import SourceRecord


# A chunk is held whole in memory, with its views and rows (several times its text): a million records of the
# default max_chars is already gigabytes. Larger chunks only make tasks coarser.
MAX_CHUNK_RECORDS = 1_000_000


@dataclass
class CorpusConfig:
    format: str = _field(default="auto", metadata={
        "help": "auto|text|jsonl|csv|tsv|parquet|datasets|senteval|parallel (parallel: aligned sentence pairs, see "
                "`languages`; never chosen by auto)", "check": format_problem})
    field: str = _field(default=DEFAULT_FIELD, metadata={
        "help": "JSONL field / CSV-TSV column / Parquet column; left as it is, a file without it is read in its "
                "sentence-pair layout (premise/hypothesis or sentence1/sentence2) if it has one"})
    columns: list[str] = _field(default_factory=list, metadata={
        "help": "CSV/TSV only: several columns whose texts are each a sentence of their own (e.g. [sentence_A, "
                "sentence_B] of SICK); replaces `field`; [] = off"})
    languages: list[str] = _field(default_factory=list, metadata={
        "help": "format=parallel only: [first, second] language of each pair, e.g. [en, de]: Moses file suffixes "
                "(corpus.en + corpus.de), recorded as each pair's label (en-de); [] = none (TSV layouts)"})
    header: bool = _field(default=True, metadata={
        "help": "CSV/TSV only: the first row names the columns; false = no header, `columns` are 0-based numbers "
                "(STS-B's sts-*.csv: [5, 6])"})
    encoding_errors: str = _field(default="strict", metadata={
        "help": "strict: invalid UTF-8 is an error naming file:line; replace: replace and count",
        "check": encoding_errors_problem})
    on_bad_line: str = _field(default="error", metadata={
        "help": "error: stop at a malformed line; keep: keep it as a reject with its reason and go on",
        "check": on_bad_line_problem})
    min_words: int = _field(default=1, metadata={
        "range": Range(0, not_above="max_words"), "help": "drop sentences with fewer words"})
    max_words: int = _field(default=256, metadata={"range": Range(1, MAX_BUFFERED_ITEMS), "help": "drop sentences with more words"})
    max_chars: int = _field(default=5000, metadata={
        "range": Range(1, MAX_VIEW_CHARS),
        "help": "drop lines longer than this (after normalising); at most the longest view a dataset may hold"})
    dedupe: bool = _field(default=True, metadata={
        "help": "drop exact duplicates (after normalising); of a sentence-pair corpus, a pair seen before, and a "
                "method that reads one sentence reads each first sentence once (docs/guide/corpus.md#formats)"})
    limit: int = _field(default=0, metadata={"range": Range(0), "help": "stop after this many kept records (0 = all)"})
    chunk_size: int = _field(default=10000, metadata={
        "range": Range(1, MAX_CHUNK_RECORDS), "help": "records per chunk = per shard and per flow task"})


@dataclass
class DroppedRecord:
    """A corpus record that did not become a SourceRecord, with the reason; it goes to the rejects shard."""

    reason: str
    raw: RawRecord
    source_id: str | None = None


@dataclass
class CorpusStats:
    files: list[str] = _field(default_factory=list)
    records_read: int = 0
    records_kept: int = 0
    dropped: Counter = _field(default_factory=Counter)
    replacement_chars: int = 0
    # The files `limit` left unread (their Moses companions too): not part of what was read, so a dataset made
    # with a lower limit is not one made from a changed corpus (`Manifest.what_differs`).
    not_read: list[str] = _field(default_factory=list)
    # (size, mtime_ns) of each file as reading it began: the hash pass refuses a file that changed since
    # (`pipeline.corpus.source_manifest.source_files_info`). Not part of the manifest.
    read_stats: dict[str, tuple[int, int]] = _field(default_factory=dict, repr=False)

    def as_dict(self) -> dict:
        return {"files": self.files, "records_read": self.records_read, "records_kept": self.records_kept,
                "dropped": dict(sorted(self.dropped.items())), "replacement_chars": self.replacement_chars,
                **({"not_read": self.not_read} if self.not_read else {})}


@dataclass
class Chunk:
    """Up to `chunk_size` kept records of one file, plus the records dropped while reading them."""

    file: str
    index_in_file: int
    records: list[SourceRecord] = _field(default_factory=list)
    dropped: list[DroppedRecord] = _field(default_factory=list)

    @property
    def chunk_id(self) -> str:
        """Content hash of every field of every record (text, pair text, label, origin, id: all a method reads or
        a task writes) and of every drop: a chunk whose records differ in any field (a fixed NLI label) gets
        another id, so the tasks keyed by it (`pipeline.augment.tasks.task_key`) run again. It also hashes the
        chunk table's layout (`CHUNK_LAYOUT`): after a layout change every chunk is a new one, its stored table
        (`.work/chunks/<id>.parquet`) never one of the old layout, a chunk of dropped lines alone included."""
        h = hashlib.blake2b(digest_size=8)
        _hash_fields(h, CHUNK_LAYOUT)
        for record in self.records:
            _hash_fields(h, (getattr(record, f.name) for f in dataclasses.fields(record)))
        for d in self.dropped:
            _hash_fields(h, (d.reason, d.source_id, d.raw.text, d.raw.text_b, d.raw.label, d.raw.origin))
        if not self.records and not self.dropped:
            _hash_fields(h, (self.file, self.index_in_file))
        return h.hexdigest()


#: The columns of a chunk's stored table (`pipeline.dataset.schema.CHUNK_SCHEMA`): a SourceRecord's fields.
CHUNK_LAYOUT = tuple(f.name for f in dataclasses.fields(SourceRecord))


def _hash_fields(h, values) -> None:
    """Each value length-prefixed (None distinct from ""): no two records' fields run into each other."""
    for value in values:
        data = b"\xff" if value is None else str(value).encode("utf-8")
        h.update(len(data).to_bytes(8, "little") + data)


def _classify(raw: RawRecord, cfg: CorpusConfig, seen: set[int], texts: set[int]) -> SourceRecord | DroppedRecord:
    """`seen`: the ids of the records kept (a sentence, or a pair); `texts`: the first sentences they hold, which
    a method that reads one sentence reads. A record whose id was seen is a duplicate; a new one whose first
    sentence was read (an NLI premise with its next hypothesis, a plain sentence an earlier premise was) is kept,
    marked `repeats_text`."""
    if raw.error:
        return DroppedRecord(raw.error, raw)
    text = normalize(raw.text)
    text_b = normalize(raw.text_b) if raw.text_b is not None else None
    if not text or (raw.text_b is not None and not text_b):
        return DroppedRecord("empty", raw)
    longest = max(len(text), len(text_b or ""))
    if longest > cfg.max_chars:
        return DroppedRecord("too_long_chars", raw)
    n_words = min(count_words(text), count_words(text_b)) if text_b else count_words(text)
    if n_words < cfg.min_words:
        return DroppedRecord("too_short", raw)
    if max(count_words(text), count_words(text_b or "")) > cfg.max_words:
        return DroppedRecord("too_long", raw)
    source_id = stable_id(text, text_b) if text_b is not None else stable_id(text)
    repeats_text = False
    if cfg.dedupe:
        key = int(source_id, 16)
        if key in seen:
            return DroppedRecord("duplicate", raw, source_id)
        seen.add(key)
        text_key = key if text_b is None else int(stable_id(text), 16)
        repeats_text = text_key in texts  # a new record; its first sentence may still be one an earlier had
        texts.add(text_key)
    return SourceRecord(source_id=source_id, text=text, text_b=text_b, label=raw.label, origin=raw.origin,
                        repeats_text=repeats_text)


def iter_chunks(corpus: str | Path, cfg: CorpusConfig, stats: CorpusStats | None = None) -> Iterator[Chunk]:
    """Stream a corpus (file or directory) as chunks; `stats` is filled in as it goes."""
    stats = stats if stats is not None else CorpusStats()
    seen: set[int] = set()
    texts: set[int] = set()
    parallel_languages = cfg.languages if cfg.format == "parallel" else []
    for path in corpus_files(corpus, cfg.format, parallel_languages):
        read_now = [path]
        if cfg.format == "parallel":  # a Moses pair's second file is read (and so checksummed) with its first
            read_now += list(companion_files(path, cfg.languages))
        if cfg.limit and stats.records_kept >= cfg.limit:
            stats.not_read.extend(str(f) for f in read_now)
            continue
        stats.files.extend(str(f) for f in read_now)
        name = as_url(str(path))  # a corpus read from its local copy is named by its URL (rows, chunks)
        for f in read_now:
            if f.is_file():
                st = f.stat()
                stats.read_stats[str(f)] = (st.st_size, st.st_mtime_ns)
        index = 0
        chunk = Chunk(name, index)
        for raw in read_file(path, cfg.format, cfg.field, cfg.encoding_errors, cfg.on_bad_line, cfg.columns,
                             cfg.header, cfg.languages):
            if name != raw.file:
                raw.file = as_url(raw.file)
            stats.records_read += 1
            stats.replacement_chars += raw.replacements
            result = _classify(raw, cfg, seen, texts)
            if isinstance(result, DroppedRecord):
                stats.dropped[result.reason] += 1
                chunk.dropped.append(result)
            else:
                stats.records_kept += 1
                chunk.records.append(result)
            if len(chunk.records) >= cfg.chunk_size or len(chunk.dropped) >= cfg.chunk_size:
                yield chunk
                index += 1
                chunk = Chunk(name, index)
            if cfg.limit and stats.records_kept >= cfg.limit:
                break
        if chunk.records or chunk.dropped:
            yield chunk


# Formats that hold one record per line, give or take a header line or blank lines.
LINE_FORMATS = ("text", "jsonl", "csv", "tsv", "senteval", "parallel")


def expected_records(corpus: str | Path, cfg: CorpusConfig) -> int | None:
    """About how many records `iter_chunks` reads from `corpus`, for a progress bar's total before reading: the
    lines of its files (a header or blank lines make it a few more than the records), counted without decoding;
    None where that is not cheap (a compressed file, Parquet, a `datasets` directory). The exact number is
    `CorpusStats.records_read` once the corpus is read."""
    from bsl_pipeline.pipeline.corpus.readers import detect_format
    from bsl_pipeline.pipeline.corpus.readers.decoding import compression

    lines = 0
    for path in corpus_files(corpus, cfg.format, cfg.languages if cfg.format == "parallel" else []):
        if not path.is_file() or compression(path) is not None:
            return None
        if (cfg.format if cfg.format != "auto" else detect_format(path)) not in LINE_FORMATS:
            return None
        last = b"\n"
        with open(path, "rb") as fh:
            while block := fh.read(1 << 20):
                lines += block.count(b"\n")
                last = block[-1:]
        lines += last != b"\n"  # a last line without its newline
    return min(lines, cfg.limit) if cfg.limit else lines
