"""The safe substitutes of one word where it stands (the synonym augmenter's word rules, module docstring of
`pipeline.augment.augmenters.synonyms`): the word's part of speech and sense from SemCor's counts, then each lemma
of that sense checked by small named rules. When a word gets none, `Choice.reason` names the rule that stopped it,
so coverage can be broken down by reason (experiments/judged/coverage.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from bsl_pipeline.pipeline.base.config import Range
from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.lexicon.inflection import inflect, tags_of
from bsl_pipeline.pipeline.lexicon.pos_context import ANY, Context
from bsl_pipeline.pipeline.lexicon.sense_counts import Sense, SenseCounts
from bsl_pipeline.pipeline.lexicon.stopwords import ENGLISH_STOPWORDS
from bsl_pipeline.pipeline.lexicon.substitution_lists import AVOID_SUBSTITUTIONS, KEEP_WORDS
from bsl_pipeline.pipeline.lexicon.word_frequency import zipf

WORD = re.compile(r"[^\W\d_]+(?:['\-][^\W\d_]+)*")
POS_ORDER = ("n", "v", "a", "r")
_VOWEL = re.compile(r"[aeiou]|(?<!^)y")


def _is_word_list(words: Any) -> str | None:
    if isinstance(words, (list, tuple)) and all(isinstance(w, str) for w in words):
        return None
    return f"must be a list of words, got {words!r}"


def _is_pair_list(pairs: Any) -> str | None:
    if isinstance(pairs, (list, tuple)) and all(
            isinstance(p, str) and p.count(">") == 1 and all(p.split(">")) for p in pairs):
        return None
    return f"must be a list of 'word>substitute' base forms, got {pairs!r}"


AVOID_FILE_KEY = "method_params.synonyms.words.avoid_file"
_AVOID_LINE = re.compile(r"^([nvar])\s+([^\s>]+)>([^\s>]+)$")
MAX_AVOID_FILE_BYTES = 16 << 20


def read_avoid_file(path: str) -> tuple[frozenset[tuple[str, str, str]], str]:
    """The (part of speech, word, substitute) entries of an avoid file (`SubstituteRules.avoid_file`), lower-cased,
    spaces of multiword lemmas as '_', and the sha256 of its bytes. A missing file or a malformed line raises a
    ConfigError naming the setting, the file and the line."""
    from bsl_pipeline.pipeline.base.config import ConfigError

    try:
        return parse_avoid_file(path)
    except InputError as exc:
        raise ConfigError(f"{AVOID_FILE_KEY}: {exc}") from None


def parse_avoid_file(path: str | Path) -> tuple[frozenset[tuple[str, str, str]], str]:
    """`read_avoid_file` of any file (`bsl review --export-avoid` reads the one it appends to): InputError naming
    the file (and line) when it cannot be read or is not an avoid file."""
    import hashlib

    file = Path(path).expanduser()
    try:
        if file.stat().st_size > MAX_AVOID_FILE_BYTES:
            raise InputError(f"{file} is larger than {MAX_AVOID_FILE_BYTES >> 20} MiB, not an avoid list")
        data = file.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {file} ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{file}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    found = set()
    for n, line in enumerate(text.splitlines(), 1):
        entry = line.split("#", 1)[0].strip().lower()
        if not entry:
            continue
        match = _AVOID_LINE.match(entry)
        if not match:
            raise InputError(f"{file}:{n}: expected 'POS word>substitute' (POS n, v, a or r; '_' for a space), got "
                             f"{line.strip()!r}")
        found.add(match.groups())
    return frozenset(found), hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class SubstituteRules:
    """The settings that decide a word's substitutes (`method_params.synonyms.words`). Lower shares and counts give
    more, riskier substitutions; how the defaults were judged: docs/results/views.md."""

    skip_stopwords: bool = field(default=True, metadata={
        "help": "never replace stopwords (pipeline.lexicon.stopwords)"})
    skip_proper_nouns: bool = field(default=True, metadata={
        "help": "leave names alone: capitalised words inside a sentence, all-caps words, and words whose WordNet "
                "lemma is capitalised (WordNet would turn 'John' into 'toilet', 'Israel' into 'Zion')"})
    parts_of_speech: list[Literal["n", "v", "a", "r"]] = field(default_factory=lambda: list(POS_ORDER), metadata={
        "help": "the parts of speech a word may be replaced in (n noun, v verb, a adjective, r adverb), as the word is "
                "read where it stands; [n, a, r] leaves verbs alone, whose synonyms depend most on their "
                "arguments ('seize a town' -> 'clutch', 'respond to calls' -> 'react')"})
    min_pos_share: float = field(default=0.8, metadata={"range": Range(0, 1),
        "help": "the word's part of speech (the most used one among those its neighbours allow) must have at "
                "least this share of its SemCor uses; lower: more words, more wrong parts of speech"})
    min_sense_share: float = field(default=0.5, metadata={"range": Range(0, 1),
        "help": "the word's most frequent sense must have at least this share of its SemCor uses in that part of "
                "speech (0: any word with a seen sense)"})
    senses: int = field(default=1, metadata={"range": Range(1),
        "help": "substitutes come from this many most frequent senses of the word (1: the dominant one only)"})
    min_lemma_count: int = field(default=10, metadata={"range": Range(0),
        "help": "a substitute must have been used in that sense at least this often in SemCor (0: also lemmas "
                "never seen used, mostly rare, archaic or technical ones); with min_word_count, the main trade of "
                "quality for coverage: lower both for more sentences with a view and more unusable ones "
                "(docs/results/views.md)"})
    min_word_count: int = field(default=20, metadata={"range": Range(0),
        "help": "a word is substituted only when SemCor tagged it at least this often (fewer uses: counts too "
                "thin to tell its sense; see min_lemma_count)"})
    mutual_sense: bool = field(default=True, metadata={
        "help": "a substitute's own most frequent sense must be the same synset (so a reader takes it in that sense)"})
    min_substitute_sense_share: float = field(default=0.6, metadata={"range": Range(0, 1),
        "help": "with mutual_sense: the substitute's dominant sense (the word's synset) must also hold at least this "
                "share of the substitute's SemCor uses in that part of speech ('sunny' -> 'gay': gay is used so "
                "only 9 of 20 times; 0: no minimum)"})
    min_substitute_pos_share: float = field(default=0.5, metadata={"range": Range(0, 1),
        "help": "a substitute must be used as the source word's part of speech at least this share of the time in "
                "SemCor ('girl' -> 'miss', 'flies' -> 'wings', 'chases' -> 'dogs' read as the other part of speech)"})
    multiword: bool = field(default=False, metadata={
        "help": "allow multiword lemmas as substitutes ('domestic dog'), joined with spaces"})
    min_zipf: float = field(default=3.0, metadata={"range": Range(0, 8),
        "help": "a substitute must be at least this common in English (Zipf frequency from wordfreq: uses per "
                "billion words, log10; 3 = once per million words). Rarer words read as odd ('edifice' 2.9)"})
    max_zipf_drop: float = field(default=1.0, metadata={"range": Range(0, 8),
        "help": "a substitute may be at most this much rarer than the word it replaces (Zipf; 1 = ten times "
                "rarer): 'hospital' 5.1 -> 'infirmary' 3.3 and 'year' 6.0 -> 'yr' 3.8 are refused (8: no limit)"})
    skip_derived: bool = field(default=True, metadata={
        "help": "refuse substitutes that are the word plus a suffix ('brown' -> 'brownish', 'night' -> "
                "'nighttime'), hyphenated ones for a plain word ('dark-brown'), and -ing nouns for a noun "
                "('vote' -> 'voting'): a narrower or different word, not a synonym"})
    skip_plural_lemmas: bool = field(default=True, metadata={
        "help": "refuse noun substitutes that are the plural of another noun ('document' -> 'papers', 'a papers')"})
    keep_words: list[str] = field(default_factory=lambda: list(KEEP_WORDS), metadata={
        "check": _is_word_list,
        "help": "words never replaced, matched on their base forms: light and reporting verbs whose synonyms take "
                "other arguments ('said' -> 'told'), indefinite pronouns, words of unclear part of speech ([] to "
                "replace them too)"})
    avoid_substitutions: list[str] = field(default_factory=lambda: list(AVOID_SUBSTITUTIONS), metadata={
        "check": _is_pair_list,
        "help": "known misreadings, as 'word>substitute' base forms ('animal>beast'): substitutions WordNet lists "
                "for the right sense that readers take otherwise; [] to allow them"})

    avoid_file: str | None = field(default=None, metadata={
        # The path differs between machines; what the file says is in the fingerprint, as its sha256.
        "fingerprint": lambda rules: rules.avoid_file_sha256,
        "help": "a file of more substitutions to refuse, one 'POS word>substitute' a line in base forms ('n "
                "animal>beast'; POS n, v, a or r: only when the word is read as that part of speech; '#' starts a "
                "comment), as `bsl review --export-avoid` writes it from the pairs people judged not usable; its "
                "content is part of the method's fingerprint, its path is not (null: none)"})

    def __post_init__(self) -> None:
        # The sets the rules look up, derived once from the lists above (not settings of their own).
        object.__setattr__(self, "allowed_pos", frozenset(self.parts_of_speech))
        object.__setattr__(self, "kept_words", frozenset(w.lower() for w in self.keep_words))
        object.__setattr__(self, "avoided", frozenset(
            tuple(p.lower().replace(" ", "_").split(">")) for p in self.avoid_substitutions))
        avoided_in, sha = read_avoid_file(self.avoid_file) if self.avoid_file else (frozenset(), None)
        object.__setattr__(self, "avoided_in_pos", avoided_in)  # (pos, word, substitute) from avoid_file
        object.__setattr__(self, "avoid_file_sha256", sha)


@dataclass(frozen=True, slots=True)
class Choice:
    """The safe substitutes of a word in one context, already in the word's form; when there are none, `reason`
    names the rule that left none."""

    substitutes: tuple[str, ...]
    pos: str = ""  # the part of speech the word was taken in (n, v, a, r)
    reason: str = ""
    transitive: bool = True  # a verb: whether its sense (as that verb) has a sentence frame with an object
    # A verb: the complements ("infinitive", "clause") that by WordNet's sentence frames only its other senses take.
    other_sense_complements: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Reading:
    """How a word is read where it stands: its part of speech, base form, SemCor uses as that part of speech, its
    Penn tags (the forms a substitute must take) and its senses, most frequent first."""

    pos: str
    base: str
    count: int
    tags: tuple[str, ...]
    senses: tuple[Sense, ...]


# Why a word gets no substitute, in the order the rules apply (experiments/judged/coverage.py reports them).
NOT_IN_WORDNET = "not_in_wordnet"  # no base form with a WordNet entry
POS_NOT_ALLOWED = "pos_not_allowed"  # SemCor never saw it in a part of speech its neighbours allow
RARE_IN_SEMCOR = "rare_in_semcor"  # min_word_count
UNCLEAR_POS = "unclear_pos"  # min_pos_share
POS_EXCLUDED = "pos_excluded"  # parts_of_speech
NO_FORM = "no_form"  # not a known form of its base in an allowed verb form
UNCLEAR_SENSE = "unclear_sense"  # min_sense_share
NAME = "name"  # WordNet's lemma of the dominant sense is capitalised ("Chicago")
# A lemma refused (the reason of the lemma that passed the most rules is the word's: "no_substitute:<rule>").
ONLY_ITSELF = "only_itself"  # the sense has no other lemma (but capitalised ones)
MULTIWORD = "multiword"
NOT_WORDS = "not_words"
UNSEEN_LEMMA = "unseen_lemma"  # min_lemma_count
KEPT_LEMMA = "kept_lemma"  # keep_words
SUBSTITUTE_POS = "substitute_pos"  # min_substitute_pos_share
AVOIDED = "avoided"  # avoid_substitutions
OTHER_DOMINANT_SENSE = "other_dominant_sense"  # mutual_sense
SUBSTITUTE_SENSE_SHARE = "substitute_sense_share"  # min_substitute_sense_share
PLURAL_LEMMA = "plural_lemma"  # a plural noun as a lemma ("document" -> "papers")
NO_INFLECTION = "no_inflection"
ADVERB_SPELLING = "adverb_spelling"
DERIVED = "derived"  # skip_derived
RARE_IN_ENGLISH = "rare_in_english"  # min_zipf, max_zipf_drop
LEMMA_RULES = (ONLY_ITSELF, MULTIWORD, NOT_WORDS, UNSEEN_LEMMA, KEPT_LEMMA, SUBSTITUTE_POS, AVOIDED, PLURAL_LEMMA,
               OTHER_DOMINANT_SENSE, SUBSTITUTE_SENSE_SHARE, NO_INFLECTION, ADVERB_SPELLING, DERIVED, RARE_IN_ENGLISH)


# WordNet sentence frames (wninput(5WN)) in which the verb takes an object: "Somebody ----s something", ...
OBJECT_FRAMES = frozenset((5, 8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 24, 25, 30, 31))
# The frames with a complement after the verb: "Somebody ----s to INFINITIVE"; "Somebody ----s that CLAUSE", "It ----s
# that CLAUSE".
COMPLEMENT_FRAMES = (("infinitive", frozenset((28,))), ("clause", frozenset((26, 34))))


def derived(word: str, base: str, candidate: str, form: str, pos: str) -> bool:
    """Whether a substitute is a derivation of the word rather than a synonym (`skip_derived`)."""
    if "-" in form and "-" not in word:
        return True  # "brown" -> "dark-brown", "piano" -> "forte-piano"
    if pos == "n" and form.endswith(("ing", "ings")) and not word.endswith(("ing", "ings")):
        return True  # "vote" -> "voting", "group" -> "grouping", "advertisements" -> "advertising"
    return candidate.startswith(base) and len(candidate) > len(base)  # "brownish", "nighttime", "warfare"


class SubstituteFinder:
    """Word-level lookups over WordNet and SemCor counts, each cached once per process (`clear` forgets them)."""

    def __init__(self, rules: SubstituteRules, wordnet: Any, synset_lemmas: Callable[[str, int], list[str]],
                 sense_counts: SenseCounts, cache_size: int, on_clear: Callable[[], None] | None = None):
        self.rules = rules
        self._on_clear = on_clear  # the caller's own per-word caches, forgotten together with these
        self._wordnet = wordnet
        self._synset_lemmas_of = synset_lemmas
        self._counts = sense_counts
        self._cache_size = cache_size
        self._base: dict[tuple[str, str], tuple[str, ...]] = {}  # (word, pos) -> base forms (morphy)
        self._pos_uses: dict[str, dict[str, tuple[str, int]]] = {}  # word -> pos -> (best base form, SemCor uses)
        self._choice: dict[tuple[str, Context], Choice] = {}  # (word, context) -> its safe substitutes
        self._noun: dict[str, bool] = {}  # word -> mostly used as a noun
        self._kept_word: dict[str, bool] = {}  # word -> one of keep_words in some form
        self._all_bases: dict[str, frozenset[str]] = {}  # word -> its base forms in every part of speech
        self._could: dict[str, bool] = {}  # word -> has substitutes in some context
        self._complements: dict[str, frozenset[str]] = {}  # verb base form -> complements only its other senses take

    def clear(self) -> None:
        for cache in (self._base, self._pos_uses, self._choice, self._noun, self._kept_word, self._all_bases,
                      self._could, self._complements):
            cache.clear()
        if self._on_clear is not None:
            self._on_clear()

    # -- words ---------------------------------------------------------------------------------------------------
    def base_forms(self, word: str, pos: str) -> tuple[str, ...]:
        key = (word, pos)
        found = self._base.get(key)
        if found is None:
            found = self._base[key] = tuple(form.lower() for form in self._wordnet._morphy(word, pos))
        return found

    def all_base_forms(self, word: str) -> frozenset[str]:
        found = self._all_bases.get(word)
        if found is None:
            found = self._all_bases[word] = frozenset(
                form for pos in POS_ORDER for form in self.base_forms(word, pos))
        return found

    def pos_uses(self, word: str) -> dict[str, tuple[str, int]]:
        """pos -> (the base form of `word` with the most SemCor uses as pos, its uses), for every pos that has one
        whose inflection matches `word`."""
        found = self._pos_uses.get(word)
        if found is not None:
            return found
        counts = self._counts
        found = {}
        for pos in POS_ORDER:
            best = None
            for base in self.base_forms(word, pos):
                if not tags_of(word, base, pos):
                    continue  # morphy's base, but not a form lemminflect knows ("ties" -> "ti")
                uses = counts.total(base, pos)
                if best is None or uses > best[1]:
                    best = (base, uses)
            if best is not None:
                found[pos] = best
        self._pos_uses[word] = found
        return found

    def mostly(self, lemma: str, pos: str, share: float) -> bool:
        """Whether SemCor used `lemma` as `pos` at least `share` of the times it used it at all."""
        uses = {p: self._counts.total(lemma, p) for p in POS_ORDER}
        total = sum(uses.values())
        return bool(total) and uses[pos] >= share * total

    def is_noun(self, word: str) -> bool:
        """Whether a word is mostly used as a noun (at least half of its SemCor uses)."""
        found = self._noun.get(word)
        if found is None:
            uses = self.pos_uses(word)
            total = sum(n for _, n in uses.values())
            found = self._noun[word] = bool(total) and uses.get("n", ("", 0))[1] * 2 >= total
        return found

    def is_adjective(self, word: str) -> bool:
        """Whether a word is (almost) only used as an adjective: the word after it is then a noun or adjective."""
        uses = self.pos_uses(word)
        total = sum(n for _, n in uses.values())
        return bool(total) and uses.get("a", ("", 0))[1] >= self.rules.min_pos_share * total

    def kept(self, word: str) -> bool:
        """Whether `word` (lower case) is one of `keep_words`, in any of its forms."""
        found = self._kept_word.get(word)
        if found is None:
            keep = self.rules.kept_words
            found = self._kept_word[word] = word in keep or any(b in keep for b in self.all_base_forms(word))
        return found

    # -- substitutes -----------------------------------------------------------------------------------------------
    def choice(self, word: str, context: Context) -> Choice:
        """The safe substitutes of the lower-cased `word` in `context` (cached)."""
        key = (word, context)
        found = self._choice.get(key)
        if found is None:
            if len(self._choice) >= self._cache_size:
                self.clear()
            found = self._choice[key] = self._choose(word, context)
        return found

    def could_change(self, word: str) -> bool:
        """Whether the lower-cased `word` can be replaced in some context: a word, not a stopword nor one of
        `keep_words`, with substitutes in at least one part of speech (and, for a verb, one form). Cached per word,
        so the many words that never change cost one lookup per sentence."""
        found = self._could.get(word)
        if found is None:
            found = self._could[word] = self._excluded(word) is None and self._changeable_somewhere(word)
        return found

    def _excluded(self, word: str) -> str | None:
        """Why the lower-cased `word` is never looked up: not a word, a stopword, one of `keep_words`."""
        if not WORD.fullmatch(word):
            return "not_a_word"
        if self.rules.skip_stopwords and word in ENGLISH_STOPWORDS:
            return "stopword"
        if self.rules.kept_words and self.kept(word):
            return "keep_word"
        return None

    def _changeable_somewhere(self, word: str) -> bool:
        # A narrower context only removes parts of speech and verb forms: one part of speech alone (and a verb in
        # any form or in one form) is the widest choice the word can get anywhere.
        for pos, (base, _) in self.pos_uses(word).items():
            contexts = [Context(frozenset(pos))]
            if pos == "v":
                contexts += [Context(frozenset(pos), frozenset((tag,))) for tag in tags_of(word, base, pos)]
            if any(self.choice(word, context).substitutes for context in contexts):
                return True
        return False

    def unchangeable_reason(self, word: str) -> str | None:
        """Why the lower-cased `word` can be replaced in no context (None: it can in some); for reports."""
        if self.could_change(word):
            return None
        return self._excluded(word) or self.choice(word, Context(ANY)).reason or NOT_IN_WORDNET

    def _choose(self, word: str, context: Context) -> Choice:
        reading = self.reading(word, context)
        if isinstance(reading, str):
            return Choice((), reason=reading)
        out: list[str] = []
        same = self.all_base_forms(word) | {word}
        furthest = -1  # the index in LEMMA_RULES of the reason that refused the most promising lemma
        for sense in reading.senses[:self.rules.senses]:
            if sense.count == 0:
                break
            names = self._synset_lemmas_of(reading.pos, sense.offset)
            if self.rules.skip_proper_nouns and any(n.lower() == reading.base and n[:1].isupper() for n in names):
                return Choice((), reason=NAME)  # the word is a name here ("Chicago", "Israel")
            for name in names:
                candidate = name.lower().replace("_", " ")
                if name.lower() in same or candidate in out or name[:1].isupper():
                    continue
                form, refusal = self.substitute(word, reading, sense, name.lower())
                if refusal is not None:
                    furthest = max(furthest, LEMMA_RULES.index(refusal))
                elif form != word and form not in out:
                    out.append(form)
        if out:
            return Choice(tuple(out), reading.pos, transitive=self.transitive(reading),
                          other_sense_complements=self.other_sense_complements(reading))
        return Choice((), reading.pos, "no_substitute:" + LEMMA_RULES[max(furthest, 0)])

    def transitive(self, reading: Reading) -> bool:
        """Whether the word's dominant sense takes an object (verbs; WordNet's sentence frames for that verb)."""
        frames = getattr(self._synset_lemmas_of, "verb_frames", None)
        if reading.pos != "v" or frames is None:
            return True
        return bool(frames(reading.senses[0].offset, reading.base) & OBJECT_FRAMES)

    def other_sense_complements(self, reading: Reading) -> frozenset[str]:
        """The complements ("infinitive", "clause") that, by WordNet's sentence frames for the verb, some other sense
        of it takes and its dominant sense does not: such a complement after the word marks the other sense
        ("happens to work" is happen's "chance" sense)."""
        frames = getattr(self._synset_lemmas_of, "verb_frames", None)
        if reading.pos != "v" or frames is None:
            return frozenset()
        found = self._complements.get(reading.base)
        if found is None:
            dominant = frames(reading.senses[0].offset, reading.base)
            others = frozenset().union(*(frames(s.offset, reading.base) for s in reading.senses[1:]))
            found = self._complements[reading.base] = frozenset(
                kind for kind, kind_frames in COMPLEMENT_FRAMES if others & kind_frames and not dominant & kind_frames)
        return found

    def reading(self, word: str, context: Context) -> Reading | str:
        """How `word` is read in `context`, or the reason it cannot be read safely enough to substitute."""
        rules = self.rules
        found = self.pos_uses(word)
        if not found:
            return NOT_IN_WORDNET
        uses = {pos: found[pos] for pos in found if pos in context.pos}
        total = sum(n for _, n in uses.values())
        if not total:
            return POS_NOT_ALLOWED if sum(n for _, n in found.values()) else RARE_IN_SEMCOR
        pos = max(uses, key=lambda p: uses[p][1])
        base, count = uses[pos]
        if count < max(rules.min_word_count, 1):
            return RARE_IN_SEMCOR
        if count < rules.min_pos_share * total:
            return UNCLEAR_POS
        if pos not in rules.allowed_pos:
            return POS_EXCLUDED
        tags = tags_of(word, base, pos)
        if pos == "v" and context.verb_tags is not None:
            tags = tuple(t for t in tags if t in context.verb_tags)
        if not tags:
            return NO_FORM
        senses = self._counts.senses(base, pos)
        if not senses or senses[0].count < rules.min_sense_share * count:
            return UNCLEAR_SENSE
        return Reading(pos, base, count, tags, senses)

    def substitute(self, word: str, reading: Reading, sense: Sense, lemma: str) -> tuple[str, str | None]:
        """(`lemma` written in the word's form, None) when it is a safe substitute of `word` read as `reading` in
        `sense`, else ("", the rule that refuses it)."""
        refusal = self.lemma_refusal(reading, sense, lemma)
        if refusal is not None:
            return "", refusal
        candidate = lemma.replace("_", " ")
        written = {inflect(candidate, tag) for tag in reading.tags}
        if len(written) != 1 or None in written:
            return "", NO_INFLECTION  # a form lemminflect does not know, or one the source's tags split
        form = written.pop()
        refusal = self.form_refusal(word, reading, candidate, form)
        return (form, None) if refusal is None else ("", refusal)

    def plural_only(self, lemma: str) -> bool:
        """Whether a noun lemma is the plural of another noun ("papers", "arms", "goods")."""
        return any(base != lemma and tags_of(lemma, base, "n") == ("NNS",) for base in self.base_forms(lemma, "n"))

    def lemma_refusal(self, reading: Reading, sense: Sense, lemma: str) -> str | None:
        """The rule that refuses `lemma` (lower case, underscores) as a substitute in `sense`, before inflection."""
        rules, counts, pos = self.rules, self._counts, reading.pos
        if "_" in lemma and not rules.multiword:
            return MULTIWORD
        if not all(WORD.fullmatch(part) for part in lemma.split("_")):
            return NOT_WORDS  # abbreviations and codes ("var.", "3-D") are not word substitutes
        if counts.count(lemma, pos, sense.offset) < rules.min_lemma_count:
            return UNSEEN_LEMMA
        if rules.kept_words and self.kept(lemma):
            return KEPT_LEMMA  # a light verb as a substitute takes other arguments ("stated" -> "told")
        if rules.min_substitute_pos_share and not self.mostly(lemma, pos, rules.min_substitute_pos_share):
            return SUBSTITUTE_POS
        if (reading.base, lemma) in rules.avoided or (reading.pos, reading.base, lemma) in rules.avoided_in_pos:
            return AVOIDED  # a known misreading ("animal" -> "beast"), or one judged wrong (avoid_file)
        if rules.skip_plural_lemmas and pos == "n" and self.plural_only(lemma):
            return PLURAL_LEMMA  # "a document" -> "a papers": lemminflect cannot make it singular
        if rules.mutual_sense:
            own = counts.senses(lemma, pos)
            if not own or own[0].offset != sense.offset:
                return OTHER_DOMINANT_SENSE
            if own[0].count < rules.min_substitute_sense_share * counts.total(lemma, pos):
                return SUBSTITUTE_SENSE_SHARE  # the reader may well take it in another sense ("gay")
        return None

    def form_refusal(self, word: str, reading: Reading, candidate: str, form: str) -> str | None:
        """The rule that refuses the substitute `candidate` written as `form` in place of `word`."""
        rules = self.rules
        if reading.pos == "r" and word.endswith("ly") and not form.endswith("ly"):
            return ADVERB_SPELLING  # "slowly" -> "slow": an adjective's spelling reads as a mistake
        if not _VOWEL.search(form):
            return NOT_WORDS  # "hour" -> "hr", "years" -> "yrs": an abbreviation has no vowel ("ax", "gym" do)
        if rules.skip_derived and derived(word, reading.base, candidate, form, reading.pos):
            return DERIVED
        if zipf(form) < max(rules.min_zipf, zipf(word) - rules.max_zipf_drop):
            return RARE_IN_ENGLISH  # rare in English, or much rarer than the word it would replace
        return None
