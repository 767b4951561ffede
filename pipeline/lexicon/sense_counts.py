"""How often each WordNet sense was seen in the SemCor corpus: the tag counts of WordNet 3.0's `index.sense`.

Each line of `index.sense` is `sense_key synset_offset sense_number tag_cnt`, the sense key being
`lemma%ss_type:lex_filenum:lex_id:head_word:head_id` (ss_type 1 noun, 2 verb, 3 adjective, 4 adverb, 5 adjective
satellite). From it we know, offline, a word's senses in frequency order (WordNet numbers senses by tag count), which
senses were ever observed, how often a lemma was used in a given synset, and how often a word was used as each
part of speech. Lemmas that never occur in SemCor are mostly rare, archaic or technical ("agone", "batrachian").

Debian/Ubuntu ship the file in `wordnet-sense-index`; nltk's own WordNet download has it too.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from bsl_pipeline.pipeline.base.errors import BSLError

# ss_type digit -> the part of speech letter used everywhere else (satellites are adjectives).
_POS_OF_TYPE = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}

_lock = threading.Lock()
_tables: dict[str, "SenseCounts"] = {}


@dataclass(frozen=True, slots=True)
class Sense:
    offset: int  # synset offset in data.<pos>
    number: int  # WordNet's sense number of this lemma in this part of speech (1 = most frequent)
    count: int  # SemCor tag count of (lemma, synset)


class SenseCounts:
    """Senses of (lemma, pos) in sense-number order with their tag counts, read once from `index.sense`."""

    def __init__(self, lines: Any, origin: str):
        self.origin = origin
        table: dict[tuple[str, str], list[Sense]] = {}
        for number, raw in enumerate(lines, 1):
            line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
            fields = line.split()
            if not fields:
                continue
            try:
                key, offset, sense_number, count = fields
                lemma, lex_sense = key.split("%", 1)
                pos = _POS_OF_TYPE[lex_sense[0]]
                sense = Sense(int(offset), int(sense_number), int(count))
            except (ValueError, KeyError, IndexError):
                raise BSLError(f"{origin} line {number}: not a WordNet sense index line "
                               f"(sense_key offset sense_number tag_count): {line.strip()[:80]!r}") from None
            table.setdefault((lemma, pos), []).append(sense)
        self._senses = {k: tuple(sorted(v, key=lambda s: (s.number, s.offset))) for k, v in table.items()}
        self._by_synset = {(lemma, pos, s.offset): s.count for (lemma, pos), senses in self._senses.items()
                           for s in senses}

    def senses(self, lemma: str, pos: str) -> tuple[Sense, ...]:
        """Senses of a lower-cased lemma ("ice_skate": underscores) as `pos` (n, v, a, r), most frequent first."""
        return self._senses.get((lemma, "a" if pos == "s" else pos), ())

    def total(self, lemma: str, pos: str) -> int:
        """How often the lemma was tagged as `pos` in SemCor (all senses)."""
        return sum(s.count for s in self.senses(lemma, pos))

    def count(self, lemma: str, pos: str, offset: int) -> int:
        """How often the lemma was tagged with this synset (0 when never, or not a lemma of it)."""
        return self._by_synset.get((lemma, "a" if pos == "s" else pos, offset), 0)


def load_sense_counts(location: Any) -> SenseCounts:
    """The `SenseCounts` of a WordNet (`pipeline.lexicon.wordnet.WordNetLocation`), built once per process."""
    with _lock:
        table = _tables.get(location.key)
        if table is not None:
            return table
        pointer = location.root.join("index.sense")
        origin = f"{getattr(pointer, 'path', pointer)}"
        try:
            with pointer.open() as fh:
                table = SenseCounts(fh.read().splitlines(), origin)
        except OSError as exc:
            raise BSLError(f"WordNet at {location.origin} has no readable index.sense ({exc}): the synonym "
                           f"augmenter needs its sense frequencies. Install it with `apt-get install "
                           f"wordnet-sense-index` (Debian/Ubuntu) or use nltk's WordNet, which includes it.") from None
        _tables[location.key] = table
        return table


def sense_index_identity(location: Any) -> dict[str, str]:
    """'wordnet/index.sense' -> sha256 (synonym output depends on the counts)."""
    import hashlib
    import os

    from bsl_pipeline.pipeline.base.provenance import sha256_file_cached

    pointer = location.root.join("index.sense")
    path = getattr(pointer, "path", None)
    if path and os.path.isfile(path):
        return {"wordnet/index.sense": sha256_file_cached(path)}
    h = hashlib.sha256()
    with pointer.open() as fh:
        while block := fh.read(1 << 20):
            h.update(block)
    return {"wordnet/index.sense": h.hexdigest()}
