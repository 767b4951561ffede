"""WordNet synonym substitution (BSL paper, Table 4 "Synonym"): replace ~30% of the words with a WordNet synonym.

A word is *eligible* when it is a word (letters, inner hyphens/apostrophes), not a stopword (`pipeline.lexicon.stopwords`),
and WordNet lists at least one synonym for it other than the word itself and its base forms (so "dogs" -> "dog" is
not counted as a substitution). Of the eligible words, `fraction` are replaced: the count is `fraction * eligible`
rounded up or down at random in proportion (so the expected share is exactly `fraction`, also for short sentences),
then raised to `min_words` and capped at `max_words`. Each replacement is a lemma of any synset of the word, any
part of speech (no POS tagger data exists offline) that is made of words (no "var.", "3-D"), multiword lemmas
joined with spaces, written in the original word's capitalisation.

The text is tokenized with the Moses tokenizer (sacremoses) and the replacements are spliced into the original
string at the tokens' positions, so everything but the replaced words stays byte-identical (detokenizing would also
rewrite spacing around punctuation in already-tokenized corpora). Only when a token cannot be found in the text
(Moses rewrote it) is the Moses detokenizer used instead.

Views: `views="second"` (the paper's setting) gives view1 = the original, view2 = augmented; `views="both"`
augments the two views independently. Randomness depends only on (seed, record id), so output does not depend on
batching.

Speed (benchmarks/bench_augmenters.py): the morphological analysis and synonym list of each word are computed once
per process and cached; a word's full list is only built when the word is picked (eligibility needs one synonym);
synset lemmas are read from the data files directly (`pipeline.lexicon.wordnet.SynsetLemmas`) rather than through nltk's
full Synset parse; plain ASCII sentences are cut by `moses_fast_tokens`, which gives sacremoses' exact tokens.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pipeline.augment.augmenters.base import Augmenter, SourceRecord, ViewPair
from pipeline.augment.augmenters.substitution import match_case, words_to_change
from pipeline.base.config import Range
from pipeline.base.errors import BSLError
from pipeline.lexicon.stopwords import ENGLISH_STOPWORDS

_WORD = re.compile(r"[^\W\d_]+(?:['\-][^\W\d_]+)*")
# After these tokens a capital letter starts a sentence rather than marking a name.
_SENTENCE_BREAKS = frozenset(".!?:;")
_OPENERS = frozenset("\"'`([{«“‘")


# Sentences made only of these characters, laid out as `_FAST_BAD` does not reject, are tokenized by the Moses rules
# in a few microseconds (`moses_fast_tokens`); everything else goes through sacremoses (~100 us per sentence, most of
# the cost of a substitution). tests/test_synonyms.py checks the two agree on tens of thousands of real sentences.
_FAST_CHARS = re.compile(r"[A-Za-z0-9 ,;:!?'.-]*")
_FAST_BAD = re.compile(
    r"\.(?!$)"                      # a period anywhere but at the very end (abbreviations, decimals, "...")
    r"|[^A-Za-z0-9 ]\."             # a period after punctuation ("?.", "-.")
    r"|(?<![A-Za-z])'|'(?![A-Za-z])"  # an apostrophe not between two letters (quotes, "dogs'", "90's")
    r"|'[A-Za-z0-9-]*'"              # two apostrophes in one word ("rock'n'roll")
    r"|[,;:!?](?! |$)"               # punctuation not followed by a space or the end ("?!", "5,300")
    r"|(?<![A-Za-z0-9 ])[,;:!?]"     # punctuation after punctuation, or opening the text
)
_FAST_TOKEN = re.compile(r"[,;:!?]|'?[^\s,;:!?']+")


def moses_fast_tokens(text: str, keep_period: frozenset[str]) -> tuple[list[str], list[tuple[int, int]]] | None:
    """Tokens and their (start, end) spans, exactly as sacremoses' English `tokenize(escape=False)` cuts `text`,
    for plain ASCII sentences; None for any text outside that class. `keep_period` = Moses' nonbreaking prefixes
    that are not numeric-only: a final "Mr." or "A." keeps its period."""
    if not _FAST_CHARS.fullmatch(text) or _FAST_BAD.search(text):
        return None
    # Moses pads ;:!? and separates commas (none sits between digits here), splits "x'y" before the apostrophe,
    # keeps hyphens inside their chunk, and detaches the final period unless the token is a nonbreaking prefix.
    tokens, spans = [], []
    for m in _FAST_TOKEN.finditer(text):
        tokens.append(m.group())
        spans.append(m.span())
    if tokens:
        tok = tokens[-1]
        if len(tok) > 1 and tok[-1] == "." and tok[:-1] not in keep_period:
            start, end = spans[-1]
            tokens[-1:] = [tok[:-1], "."]
            spans[-1:] = [(start, end - 1), (end - 1, end)]
    return tokens, spans


class _RecordRandom:
    """Random numbers that depend only on (seed, record id, stream), like `record_rng`, so output does not depend
    on batching; drawn from blake2b blocks because seeding a Mersenne Twister (`record_rng`) costs ~15 us per
    record, as much as the whole cached substitution of a sentence."""

    __slots__ = ("_key", "_block", "_values", "_next")

    def __init__(self, seed: int, source_id: str, stream: str = "") -> None:
        self._key = f"{seed}\x1f{source_id}\x1f{stream}\x1f".encode()
        self._block = 0
        self._values: tuple[int, ...] = ()
        self._next = 0

    def _u64(self) -> int:
        if self._next >= len(self._values):
            digest = hashlib.blake2b(self._key + str(self._block).encode(), digest_size=64).digest()
            self._values = struct.unpack("<8Q", digest)
            self._block += 1
            self._next = 0
        value = self._values[self._next]
        self._next += 1
        return value

    def random(self) -> float:
        return (self._u64() >> 11) * (1.0 / 9007199254740992.0)

    def randrange(self, n: int) -> int:
        return self._u64() % n  # bias ~ n / 2**64: none that matters

    def sample(self, n: int, k: int) -> list[int]:
        """k distinct indices of range(n), uniformly (partial Fisher-Yates)."""
        pool = list(range(n))
        for i in range(k):
            j = i + self.randrange(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


@dataclass
class SynonymConfig:
    fraction: float = field(default=0.3, metadata={
        "range": Range(0, 1), "help": "share of eligible words replaced (the paper: 0.3)"})
    min_words: int = field(default=1, metadata={"range": Range(0, not_above="max_words"),
        "help": "replace at least this many words when there are that many eligible words (0: fraction only)"})
    max_words: int | None = field(default=None, metadata={
        "range": Range(1), "help": "at most this many replaced words per view (null: no cap)"})
    views: Literal["second", "both"] = field(default="second", metadata={
        "help": "second: view1 = original, view2 = augmented (the paper); both: each view augmented independently"})
    skip_stopwords: bool = field(default=True, metadata={"help": "never replace stopwords (pipeline.lexicon.stopwords)"})
    skip_proper_nouns: bool = field(default=True, metadata={
        "help": "leave capitalised words inside a sentence and all-caps words alone (likely names/acronyms: "
                "WordNet would turn 'John' into 'toilet')"})
    multiword: bool = field(default=True, metadata={
        "help": "allow multiword lemmas as replacements ('domestic dog'), joined with spaces"})
    wordnet_dir: str | None = field(default=None, metadata={
        "help": "WordNet database dir (data.noun, index.noun, ...), used before anything else; unset: nltk's data "
                "path, then $WNSEARCHDIR, then /usr/share/wordnet"})
    cache_dir: str | None = field(default=None, metadata={
        "help": "where a system WordNet is set up for nltk (unset: $XDG_CACHE_HOME/bsl-pipeline/nltk_data, "
                "else ~/.cache/bsl-pipeline/nltk_data)"})
    cache_size: int = field(default=500_000, metadata={
        "range": Range(0), "help": "words whose synonym lists are kept in memory"})

    def __post_init__(self) -> None:
        if not 0.0 <= self.fraction <= 1.0:
            raise BSLError(f"methods.synonyms.fraction must be in [0, 1], got {self.fraction}")
        if self.min_words < 0:
            raise BSLError(f"methods.synonyms.min_words must be >= 0, got {self.min_words}")
        if self.max_words is not None and self.max_words < 0:
            raise BSLError(f"methods.synonyms.max_words must be >= 0 or null, got {self.max_words}")
        if self.cache_size < 1:
            raise BSLError(f"methods.synonyms.cache_size must be >= 1, got {self.cache_size}")


class SynonymAugmenter(Augmenter):
    name = "synonyms"
    config_class = SynonymConfig
    default_batch_size = 2048
    version = "1"

    def __init__(self, config: Any = None):
        super().__init__(config)
        self._wordnet = None
        self._synset_lemmas_of = None
        self._location = None
        self._tokenizer = None
        self._detokenizer = None
        self._keep_period: frozenset[str] = frozenset()
        # Caches, each filled once per process (cleared together when `cache_size` words are reached):
        self._token_key: dict[str, str] = {}  # token as written -> its lower-cased word if eligible, else ""
        self._analysis: dict[str, tuple[frozenset[str], tuple[tuple[str, int], ...]]] = {}  # word -> (base forms,
        #                                                                                   synset (pos, offset)s)
        self._synset_lemmas: dict[tuple[str, int], tuple[tuple[str, str], ...]] = {}  # synset -> usable lemmas
        self._cache: dict[str, tuple[str, ...]] = {}  # word -> its synonyms

    # -- resources ---------------------------------------------------------------------------------------------
    def _locate(self):
        if self._location is None:
            from pipeline.lexicon.wordnet import locate_wordnet

            self._location = locate_wordnet(self.config.wordnet_dir, self.config.cache_dir,
                                            config_key="methods.synonyms.wordnet_dir")
        return self._location

    def setup(self) -> None:
        from sacremoses import MosesDetokenizer, MosesTokenizer

        from pipeline.lexicon.wordnet import load_synset_lemmas, load_wordnet

        self._wordnet = load_wordnet(self._locate())
        self._synset_lemmas_of = load_synset_lemmas(self._locate())
        self._tokenizer = MosesTokenizer(lang="en")
        self._detokenizer = MosesDetokenizer(lang="en")
        self._keep_period = frozenset(self._tokenizer.NONBREAKING_PREFIXES) - frozenset(
            self._tokenizer.NUMERIC_ONLY_PREFIXES)

    def model_identities(self) -> dict[str, str]:
        from pipeline.lexicon.wordnet import wordnet_identities

        return wordnet_identities(self._locate())

    def fingerprint(self) -> dict[str, Any]:
        fp = super().fingerprint()
        # Where WordNet and its cache live does not change the output (its checksums are in "models"), and paths
        # differ between machines: keep them out so caches and manifests match across machines.
        for key in ("wordnet_dir", "cache_dir", "cache_size"):
            fp["params"].pop(key, None)
        return fp

    def clear_cache(self) -> None:
        """Forget every cached lookup (a cold start, as a new process would see)."""
        self._token_key.clear()
        self._analysis.clear()
        self._synset_lemmas.clear()
        self._cache.clear()

    # -- synonyms ----------------------------------------------------------------------------------------------
    def _analyse(self, key: str) -> tuple[frozenset[str], tuple[tuple[str, int], ...]]:
        """The base forms of a lower-cased word and its synsets, as (pos, offset), in WordNet order: what
        wn.synsets(key) finds, with one morphological analysis per part of speech instead of two (the base forms
        are needed too), and without building the synsets yet."""
        found = self._analysis.get(key)
        if found is not None:
            return found
        from nltk.corpus.reader.wordnet import POS_LIST

        wn = self._wordnet
        index = wn._lemma_pos_offset_map
        same = {key}
        synsets: list[tuple[str, int]] = []
        for pos in POS_LIST:
            forms = wn._morphy(key, pos)
            same.update(form.lower() for form in forms)
            for form in forms:
                synsets.extend((pos, offset) for offset in index.get(form, {}).get(pos, ()))
        if len(self._analysis) >= self.config.cache_size:
            self.clear_cache()
        found = (frozenset(same), tuple(synsets))
        self._analysis[key] = found
        return found

    def _lemmas(self, synset_key: tuple[str, int]) -> tuple[tuple[str, str], ...]:
        """(replacement, lower-cased) for the lemmas of a synset that can stand in for a word."""
        lemmas = self._synset_lemmas.get(synset_key)
        if lemmas is not None:
            return lemmas
        out = []
        for lemma in self._synset_lemmas_of(*synset_key):
            candidate = lemma.replace("_", " ")
            if " " in candidate and not self.config.multiword:
                continue
            if not all(_WORD.fullmatch(part) for part in candidate.split(" ")):
                continue  # abbreviations and codes ("var.", "3-D", "a.k.a.") are not word substitutes
            out.append((candidate, candidate.lower()))
        lemmas = tuple(out)
        self._synset_lemmas[synset_key] = lemmas
        return lemmas

    def _has_synonym(self, key: str) -> bool:
        # Eligibility needs only one synonym: most words are never picked, so their full list is never built.
        same, synsets = self._analyse(key)
        return any(folded not in same for synset in synsets for _, folded in self._lemmas(synset))

    def synonyms(self, word: str) -> tuple[str, ...]:
        """Replacement candidates for `word` (any case), in WordNet order, without the word and its base forms."""
        key = word.lower()
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        self.ensure_ready()
        same, synsets = self._analyse(key)
        seen: set[str] = set()
        out: list[str] = []
        for synset in synsets:
            for candidate, folded in self._lemmas(synset):
                if folded not in same and folded not in seen:
                    seen.add(folded)
                    out.append(candidate)
        result = tuple(out)
        self._cache[key] = result
        return result

    def _eligible_key(self, token: str) -> str:
        """The lower-cased word of an eligible token, "" for stopwords, punctuation and words without synonyms."""
        key = token.lower()
        if not _WORD.fullmatch(token) or (self.config.skip_stopwords and key in ENGLISH_STOPWORDS):
            key = ""
        elif not self._has_synonym(key):
            key = ""
        self._token_key[token] = key
        return key

    def _eligible(self, tokens: list[str]) -> list[tuple[int, str]]:
        """(token index, word) of every eligible token."""
        skip_proper = self.config.skip_proper_nouns
        token_key = self._token_key
        out = []
        sentence_start = True
        for i, tok in enumerate(tokens):
            at_start = sentence_start
            if tok in _SENTENCE_BREAKS:
                sentence_start = True
            elif tok not in _OPENERS:
                sentence_start = False
            key = token_key.get(tok)
            if key is None:
                key = self._eligible_key(tok)
            if not key:
                continue
            if skip_proper and tok[0].isupper() and (not at_start or (len(tok) > 1 and tok.isupper())):
                continue
            out.append((i, key))
        return out

    # -- augmentation ------------------------------------------------------------------------------------------
    def _augment_view(self, text: str, tokens: list[str], spans: list[tuple[int, int]] | None,
                      eligible: list[tuple[int, str]], rng: _RecordRandom) -> tuple[str, list[list[Any]]]:
        cfg = self.config
        k = words_to_change(len(eligible), cfg.fraction, cfg.min_words, cfg.max_words, rng)
        if not k:
            return text, []
        changes: list[list[Any]] = []
        for j in sorted(rng.sample(len(eligible), k)):
            index, key = eligible[j]
            candidates = self._cache.get(key) or self.synonyms(key)
            new = match_case(tokens[index], candidates[rng.randrange(len(candidates))])
            changes.append([index, tokens[index], new])
        if spans is None:
            replaced = {index: new for index, _, new in changes}
            return self._detokenizer.detokenize([replaced.get(i, tok) for i, tok in enumerate(tokens)]), changes
        parts, last = [], 0
        for index, _, new in changes:
            start, end = spans[index]
            parts.append(text[last:start])
            parts.append(new)
            last = end
        parts.append(text[last:])
        return "".join(parts), changes

    def _tokenize(self, text: str) -> tuple[list[str], list[tuple[int, int]] | None]:
        """Moses tokens of `text` and their character spans in it (None when a token is not found verbatim, e.g.
        Moses rewrote it: then views are detokenized instead of spliced)."""
        fast = moses_fast_tokens(text, self._keep_period)
        if fast is not None:
            return fast
        tokens = self._tokenizer.tokenize(text, escape=False)
        spans, pos = [], 0
        for tok in tokens:
            start = text.find(tok, pos)
            if start < 0 or text[pos:start].strip():
                return tokens, None
            spans.append((start, start + len(tok)))
            pos = start + len(tok)
        return tokens, spans

    def augment_batch(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        self.ensure_ready()
        both = self.config.views == "both"
        out: list[ViewPair] = []
        for r in records:
            tokens, spans = self._tokenize(r.text)
            eligible = self._eligible(tokens)
            if not eligible:
                out.append(ViewPair.rejected("no_eligible_word", r.text, r.text, eligible=0))
                continue
            view2, changes2 = self._augment_view(r.text, tokens, spans, eligible, _RecordRandom(seed, r.source_id))
            info: dict[str, Any] = {"eligible": len(eligible), "replaced": len(changes2), "changes": changes2}
            view1 = r.text
            if both:
                view1, changes1 = self._augment_view(r.text, tokens, spans, eligible,
                                                     _RecordRandom(seed, r.source_id, "view1"))
                info["replaced_view1"] = len(changes1)
                info["changes_view1"] = changes1
            if view1 == view2:
                out.append(ViewPair.rejected("identical_views", view1, view2, **info))
                continue
            out.append(ViewPair(view1, view2, info=info))
        return out
