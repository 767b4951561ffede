"""WordNet synonym substitution (BSL paper, Table 4 "Synonym"): replace a share of the words with a synonym that
keeps the sentence's meaning and grammar.

A word is *eligible* when it is a word (letters, inner hyphens/apostrophes), not a stopword
(`pipeline.lexicon.stopwords`), not a name (a capitalised word inside a sentence, an all-caps word, or a word whose
WordNet lemma is capitalised: "Chicago", "Israel"), not part of a fixed phrase (`pipeline.lexicon.collocations`:
"in front of", "step down", and, with `keep_compounds`, the first noun of a noun compound such as "train track"),
not one of `keep_words` (light and reporting verbs, indefinite pronouns: "said" -> "told" needs an object), not a
noun modified by the word before it (`keep_modified_nouns`: a noun, an -ing word or a capitalised word: "arms
factory", "Friday night"), not a verb followed by a preposition it selects or a particle (`keep_prepositional_verbs`:
"happened to you" -> "occurred to you"), not a verb with an object whose dominant sense takes none by WordNet's
sentence frames (`check_transitivity`: "topple Lenin statue" -> "tumble"), not a verb before an infinitive or a
that-clause that by those frames only another of its senses takes (`check_complements`: "happens to work" ->
"occurs to work", "the statute provides that" -> "supplies that"), not an -ing word modifying a noun
(`keep_ing_modifiers`: "racing bike"), and it has at least one *safe substitute* where it stands:

1. Part of speech: WordNet's SemCor counts say how often the word was used as a noun, verb, adjective, adverb; the
   neighbouring words narrow that down (`pipeline.lexicon.pos_context`: after "the" not a verb, after "will" a
   verb, ...). The most used part of speech among those allowed must have at least `min_pos_share` of the uses.
2. Sense: the word's senses in that part of speech, most frequent first (`pipeline.lexicon.sense_counts`). The
   first sense must have at least `min_sense_share` of the word's uses; substitutes come from the `senses` most
   frequent senses only (never from a rare sense: "snow" -> "coke").
3. Substitute: a lemma of that synset that SemCor saw used in it at least `min_lemma_count` times (rare, archaic
   and technical lemmas never were), lower case (no proper-noun lemma for a common word), one word unless
   `multiword`, and, with `mutual_sense`, whose own most frequent sense is that synset too (so the reader takes it
   in the same sense: "hat" -> "lid" is refused, lid's usual sense is a cover), mostly used in this part of speech
   (`min_substitute_pos_share`: "girl" -> "miss" is refused), common in English and not much rarer than the word
   (`min_zipf`, `max_zipf_drop`: wordfreq's Zipf frequencies, `pipeline.lexicon.word_frequency`), not a plural
   noun lemma (`skip_plural_lemmas`: "a document" -> "a papers"), not an abbreviation without a vowel ("hr"), not a
   derivation of the word (`skip_derived`: "brownish", "dark-brown", "voting"), not one of `keep_words`, whose
   dominant sense holds at least `min_substitute_sense_share` of its own uses ("sunny" -> "gay" is refused), and
   not a known misreading (`avoid_substitutions`: "animal" -> "beast").
4. Form: the substitute is put in the source word's form (`pipeline.lexicon.inflection`, lemminflect's dictionary):
   tense, number, -ing, comparative; a form the dictionary does not know, or an ambiguous one ("walked" is VBD or
   VBN, "broke" differs from "broken") drops that substitute. "a"/"an" before a replaced word is fixed.

Of the eligible words, `fraction` are replaced: the count is `fraction * eligible` rounded up or down at random in
proportion (so the expected share is exactly `fraction`, also for short sentences), then raised to `min_words` and
capped at `max_words` (`pipeline.augment.augmenters.substitution`). The substitute of a word is drawn uniformly
among its safe substitutes; with `rank_encoder` (off by default: 12-18x slower on CPU) each word keeps only the
substitute whose sentence is closest to the original under that encoder (`pipeline.lexicon.sentence_similarity`),
if it reaches `min_candidate_similarity`, and the cosine is recorded with the change. The defaults and why (README "Synonyms"): a blind-judged sample of 100 pairs went from
7 usable (meaning kept and fluent) to the number in benchmarks/RESULTS.md; the knobs above trade quality for change
rate (lower shares and counts give more, riskier substitutions).

The text is tokenized with the Moses tokenizer (sacremoses) and the replacements are spliced into the original
string at the tokens' positions, so everything but the replaced words stays byte-identical (detokenizing would also
rewrite spacing around punctuation in already-tokenized corpora). Only when a token cannot be found in the text
(Moses rewrote it) is the Moses detokenizer used instead.

Views: `views="second"` (the paper's setting) gives view1 = the original, view2 = augmented; `views="both"`
augments the two views independently. Randomness depends only on (seed, record id), so output does not depend on
batching.

Speed (benchmarks/bench_augmenters.py): the substitutes of a word in a given context (its neighbours' classes) are
computed once per process and cached; sense counts are read once from `index.sense`; synset lemmas are read from
the data files directly (`pipeline.lexicon.wordnet.SynsetLemmas`) rather than through nltk's full Synset parse;
plain ASCII sentences are cut by `moses_fast_tokens`, which gives sacremoses' exact tokens.

Where the pieces live: the word rules in `pipeline.lexicon.substitutes` (each refusal has a name, so
experiments/judged/coverage.py can say why sentences get no view), the sentence rules in
`pipeline.lexicon.eligible_words`, the span tokenizer in `pipeline.lexicon.moses_tokens`, the default word lists
in `pipeline.lexicon.substitution_lists`; this module holds the settings and writes the views.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter, SourceRecord, ViewPair
from bsl_pipeline.pipeline.augment.augmenters.substitution import (
    RecordRandom,
    match_case,
    words_to_change,
)
from bsl_pipeline.pipeline.base.config import MAX_BUFFERED_ITEMS, Range
from bsl_pipeline.pipeline.lexicon.eligible_words import Eligible, EligibleWords, SentenceRules
from bsl_pipeline.pipeline.lexicon.inflection import indefinite_article, possessive_marker
from bsl_pipeline.pipeline.lexicon.moses_tokens import SpanTokenizer
from bsl_pipeline.pipeline.lexicon.pos_context import ANY, Context
from bsl_pipeline.pipeline.lexicon.substitutes import SubstituteFinder, SubstituteRules
from bsl_pipeline.pipeline.lexicon.substitution_lists import AVOID_SUBSTITUTIONS, KEEP_WORDS


@dataclass
class SynonymConfig:
    fraction: float = field(default=0.5, metadata={
        "range": Range(0, 1), "help": "share of eligible words replaced (the paper: 0.3 of all non-stopwords; "
                                      "eligible words are fewer here, see README 'Synonyms')"})
    min_words: int = field(default=1, metadata={"range": Range(0, not_above="max_words"),
        "help": "replace at least this many words when there are that many eligible words (0: fraction only)"})
    max_words: int | None = field(default=None, metadata={
        "range": Range(1), "help": "at most this many replaced words per view (null: no cap)"})
    views: Literal["second", "both"] = field(default="second", metadata={
        "help": "second: view1 = original, view2 = augmented (the paper); both: each view augmented independently"})
    skip_stopwords: bool = field(default=True, metadata={"help": "never replace stopwords (pipeline.lexicon.stopwords)"})
    skip_proper_nouns: bool = field(default=True, metadata={
        "help": "leave names alone: capitalised words inside a sentence, all-caps words, and words whose WordNet "
                "lemma is capitalised (WordNet would turn 'John' into 'toilet', 'Israel' into 'Zion')"})
    parts_of_speech: list[Literal["n", "v", "a", "r"]] = field(default_factory=lambda: list("nvar"), metadata={
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
                "never seen used, mostly rare, archaic or technical ones). 10 (with min_word_count 20): 79 of 100 "
                "pairs usable on fresh sentences judged blind vs 68 with 1 and 2, for 28% fewer sentences with a "
                "view (benchmarks/RESULTS.md, issue 17 round five); lower both to trade quality for coverage"})
    min_word_count: int = field(default=20, metadata={"range": Range(0),
        "help": "a word is substituted only when SemCor tagged it at least this often (fewer uses: counts too "
                "thin to tell its sense; see min_lemma_count for what 20 buys)"})
    mutual_sense: bool = field(default=True, metadata={
        "help": "a substitute's own most frequent sense must be the same synset (so a reader takes it in that sense)"})
    keep_collocations: bool = field(default=True, metadata={
        "help": "keep fixed phrases whole: WordNet multiword lemmas ('common sense', 'step down'), its hyphenated "
                "lemmas written as two words ('large scale') and prepositional phrases ('in front of')"})
    keep_compounds: bool = field(default=True, metadata={
        "help": "keep a noun that modifies the next noun ('train track', 'plane crash'): compounds rarely survive "
                "a substitution of their first part"})
    keep_modified_nouns: bool = field(default=True, metadata={
        "help": "keep a noun modified by the word before it: a noun, an -ing word or a capitalised word ('arms "
                "factory', 'organizing director', 'Friday night', 'Syrian war'): names and compounds"})
    keep_modifiers: bool = field(default=False, metadata={
        "help": "also keep an adjective that modifies the next noun ('golden triangle'); off: costs most adjective "
                "substitutions ('large dog' -> 'big dog')"})
    keep_prepositional_verbs: bool = field(default=True, metadata={
        "help": "keep a verb followed by a preposition it selects or a particle (to, in, of, for, with, on, about, "
                "upon, from, up, down, out, off, away, back; 'to' before a verb excepted): a synonym takes another "
                "one ('happened to you' -> 'occurred to you', 'engage in' -> 'pursue in'); likewise 'help' before a "
                "bare infinitive ('helps them find' -> 'assists them find')"})
    keep_ing_modifiers: bool = field(default=True, metadata={
        "help": "keep an -ing word between a determiner or adjective and a noun: it modifies the noun ('a racing "
                "bike' -> 'a rushing bike'), it is no verb in progress"})
    keep_quantity_words: bool = field(default=True, metadata={
        "help": "'little' measures size only after a determiner, number or adjective and before a noun ('a little "
                "boy'); elsewhere it is a quantity ('very little left', 'little more than') and neither becomes nor "
                "replaces 'small'"})
    check_transitivity: bool = field(default=True, metadata={
        "help": "keep a verb that has an object (a determiner, pronoun, name or noun follows it) when WordNet's "
                "sentence frames say its dominant sense takes none ('protesters topple Lenin statue' -> 'tumble')"})
    check_complements: bool = field(default=True, metadata={
        "help": "keep a verb followed by an infinitive or a that-clause when WordNet's sentence frames say its "
                "dominant sense takes none: it is used in another sense there ('happens to work' -> 'occurs to "
                "work', 'chose to use' -> 'selected to use', 'the statute provides that' -> 'supplies that')"})
    skip_plural_lemmas: bool = field(default=True, metadata={
        "help": "refuse noun substitutes that are the plural of another noun ('document' -> 'papers', 'a papers')"})
    keep_words: list[str] = field(default_factory=lambda: list(KEEP_WORDS), metadata={
        "check": lambda words: None if isinstance(words, (list, tuple)) and all(isinstance(w, str) for w in words)
        else f"must be a list of words, got {words!r}",
        "help": "words never replaced, matched on their base forms: light and reporting verbs whose synonyms take "
                "other arguments ('said' -> 'told'), indefinite pronouns, words of unclear part of speech ([] to "
                "replace them too)"})
    min_zipf: float = field(default=3.0, metadata={"range": Range(0, 8),
        "help": "a substitute must be at least this common in English (Zipf frequency from wordfreq: uses per "
                "billion words, log10; 3 = once per million words). Rarer words read as odd ('edifice' 2.9)"})
    max_zipf_drop: float = field(default=1.0, metadata={"range": Range(0, 8),
        "help": "a substitute may be at most this much rarer than the word it replaces (Zipf; 1 = ten times "
                "rarer): 'hospital' 5.1 -> 'infirmary' 3.3 and 'year' 6.0 -> 'yr' 3.8 are refused (8: no limit)"})
    min_substitute_pos_share: float = field(default=0.5, metadata={"range": Range(0, 1),
        "help": "a substitute must be used as the source word's part of speech at least this share of the time in "
                "SemCor ('girl' -> 'miss', 'flies' -> 'wings', 'chases' -> 'dogs' read as the other part of speech)"})
    skip_derived: bool = field(default=True, metadata={
        "help": "refuse substitutes that are the word plus a suffix ('brown' -> 'brownish', 'night' -> "
                "'nighttime'), hyphenated ones for a plain word ('dark-brown'), and -ing nouns for a noun "
                "('vote' -> 'voting'): a narrower or different word, not a synonym"})
    min_substitute_sense_share: float = field(default=0.6, metadata={"range": Range(0, 1),
        "help": "with mutual_sense: the substitute's dominant sense (the word's synset) must also hold at least this "
                "share of the substitute's SemCor uses in that part of speech ('sunny' -> 'gay': gay is used so "
                "only 9 of 20 times; 0: no minimum)"})
    avoid_substitutions: list[str] = field(default_factory=lambda: list(AVOID_SUBSTITUTIONS), metadata={
        "check": lambda pairs: None if isinstance(pairs, (list, tuple)) and all(
            isinstance(p, str) and p.count(">") == 1 and all(p.split(">")) for p in pairs)
        else f"must be a list of 'word>substitute' base forms, got {pairs!r}",
        "help": "known misreadings, as 'word>substitute' base forms ('animal>beast'): substitutions WordNet lists "
                "for the right sense that readers take otherwise; [] to allow them"})
    rank_encoder: str | None = field(default=None, metadata={
        "help": "a sentence encoder model directory (transformers, mean pooling; e.g. all-MiniLM-L6-v2): each "
                "candidate substitution is scored by cosine(sentence, sentence with it) and a word keeps only its "
                "best candidate, if it reaches min_candidate_similarity (null: no ranking, candidates drawn "
                "uniformly)"})
    min_candidate_similarity: float = field(default=0.0, metadata={"range": Range(0, 1),
        "help": "with rank_encoder: the best candidate of a word must reach this cosine, else the word is kept"})
    multiword: bool = field(default=False, metadata={
        "help": "allow multiword lemmas as substitutes ('domestic dog'), joined with spaces"})
    wordnet_dir: str | None = field(default=None, metadata={
        "help": "WordNet database dir (data.noun, index.noun, index.sense, ...), used before anything else; unset: "
                "nltk's data path, then $WNSEARCHDIR, then /usr/share/wordnet"})
    cache_dir: str | None = field(default=None, metadata={
        "help": "where a system WordNet is set up for nltk (unset: $XDG_CACHE_HOME/bsl-pipeline/nltk_data, "
                "else ~/.cache/bsl-pipeline/nltk_data)"})
    cache_size: int = field(default=500_000, metadata={
        "range": Range(1, MAX_BUFFERED_ITEMS), "help": "words (in context) whose substitutes are kept in memory"})


def substitute_rules(cfg: SynonymConfig) -> SubstituteRules:
    """The word rules of `cfg` (`pipeline.lexicon.substitutes`)."""
    return SubstituteRules(
        skip_stopwords=cfg.skip_stopwords, skip_proper_nouns=cfg.skip_proper_nouns, min_pos_share=cfg.min_pos_share,
        parts_of_speech=frozenset(cfg.parts_of_speech),
        min_sense_share=cfg.min_sense_share, senses=cfg.senses, min_lemma_count=cfg.min_lemma_count,
        min_word_count=cfg.min_word_count, mutual_sense=cfg.mutual_sense, multiword=cfg.multiword,
        min_zipf=cfg.min_zipf, max_zipf_drop=cfg.max_zipf_drop, min_substitute_pos_share=cfg.min_substitute_pos_share,
        skip_derived=cfg.skip_derived, min_substitute_sense_share=cfg.min_substitute_sense_share,
        skip_plural_lemmas=cfg.skip_plural_lemmas, keep_words=frozenset(w.lower() for w in cfg.keep_words),
        avoid=frozenset(tuple(p.lower().replace(" ", "_").split(">")) for p in cfg.avoid_substitutions))


def fit_neighbours(tokens: list[str], index: int, new: str, replaced: dict[int, str]) -> None:
    """Fit the tokens around a replaced one to it in `replaced`: "a"/"an" before it ("a car" -> "an auto") and the
    possessive after a regular plural ("children's" -> "kids'"), unless they are replaced themselves."""
    article = tokens[index - 1] if index else ""
    if article.lower() in ("a", "an") and index - 1 not in replaced:
        fixed = match_case(article, indefinite_article(new))
        if fixed != article:
            replaced[index - 1] = fixed
    # Only "'s" -> "'": a lone "'" after a word may as well close a quotation ("'kids' toys").
    after = tokens[index + 1] if index + 1 < len(tokens) else ""
    if after.lower() == "'s" and index + 1 not in replaced and possessive_marker(new) == "'":
        replaced[index + 1] = "'"


def sentence_rules(cfg: SynonymConfig) -> SentenceRules:
    """The sentence rules of `cfg` (`pipeline.lexicon.eligible_words`)."""
    return SentenceRules(skip_proper_nouns=cfg.skip_proper_nouns, keep_collocations=cfg.keep_collocations,
                         keep_compounds=cfg.keep_compounds, keep_modified_nouns=cfg.keep_modified_nouns,
                         keep_modifiers=cfg.keep_modifiers, keep_prepositional_verbs=cfg.keep_prepositional_verbs,
                         keep_ing_modifiers=cfg.keep_ing_modifiers, check_transitivity=cfg.check_transitivity,
                         check_complements=cfg.check_complements, keep_quantity_words=cfg.keep_quantity_words)


class SynonymAugmenter(Augmenter):
    name = "synonyms"
    config_class = SynonymConfig
    default_batch_size = 2048
    version = "9"  # 9: a verb before an infinitive or that-clause only another sense takes is kept (check_complements), four coin-flip substitutions avoided (issue 17, round 7); 8: recurring misreadings of v7 avoided (issue 17, round 6); 7: "little" as a quantity kept (keep_quantity_words), "help" before a bare infinitive kept, "kids'" not "kids's" (issue 17, round 5); 6: SemCor counts raised (a word tagged >= 20 times, a substitute >= 10 in its sense; issue 17, round 5); 5: prepositional verbs, -ing modifiers, transitivity, hyphenated collocations, plural lemmas, more known misreadings (issue 17, round 4); 4: substitute sense share, known misreadings, optional ranking encoder (issue 17, round 3); 3: keep_words, word frequency, modified nouns, derivations (issue 17, round 2); 2: sense, part of speech and form chosen (issue 17); 1 took any lemma of any synset

    def __init__(self, config: Any = None):
        super().__init__(config)
        self._location = None
        self._finder: SubstituteFinder | None = None
        self._eligible_words: EligibleWords | None = None
        self._tokenizer: SpanTokenizer | None = None
        self._ranker = None

    # -- resources ---------------------------------------------------------------------------------------------
    def _locate(self):
        if self._location is None:
            from bsl_pipeline.pipeline.lexicon.wordnet import locate_wordnet

            self._location = locate_wordnet(self.config.wordnet_dir, self.config.cache_dir,
                                            config_key="method_params.synonyms.wordnet_dir")
        return self._location

    def setup(self) -> None:
        from bsl_pipeline.pipeline.lexicon import word_frequency
        from bsl_pipeline.pipeline.lexicon.collocations import Collocations
        from bsl_pipeline.pipeline.lexicon.eligible_words import EligibleWords
        from bsl_pipeline.pipeline.lexicon.moses_tokens import SpanTokenizer
        from bsl_pipeline.pipeline.lexicon.sense_counts import load_sense_counts
        from bsl_pipeline.pipeline.lexicon.wordnet import load_synset_lemmas, load_wordnet

        wordnet = load_wordnet(self._locate())
        word_frequency.load()
        collocations = Collocations(k for k in wordnet._lemma_pos_offset_map if "_" in k or "-" in k)
        self._finder = SubstituteFinder(substitute_rules(self.config), wordnet, load_synset_lemmas(self._locate()),
                                        load_sense_counts(self._locate()), self.config.cache_size,
                                        on_clear=collocations.clear)
        self._eligible_words = EligibleWords(sentence_rules(self.config), self._finder, collocations)
        self._tokenizer = SpanTokenizer()
        if self.config.rank_encoder:
            from bsl_pipeline.pipeline.lexicon.sentence_similarity import SentenceSimilarity

            self._ranker = SentenceSimilarity(self.config.rank_encoder, "method_params.synonyms.rank_encoder")

    def model_identities(self) -> dict[str, str]:
        from bsl_pipeline.pipeline.lexicon import word_frequency
        from bsl_pipeline.pipeline.lexicon.sense_counts import sense_index_identity
        from bsl_pipeline.pipeline.lexicon.wordnet import wordnet_identities

        found = {**wordnet_identities(self._locate()), **sense_index_identity(self._locate()),
                 **word_frequency.identity()}
        if self.config.rank_encoder:
            from pathlib import Path

            from bsl_pipeline.pipeline.base.sentence_embedder import model_identity

            found["rank_encoder"] = model_identity(Path(self.config.rank_encoder).expanduser())
        return found

    def fingerprint(self) -> dict[str, Any]:
        fp = super().fingerprint()
        # Where WordNet and its cache live does not change the output (its checksums are in "models"), and paths
        # differ between machines: keep them out so caches and manifests match across machines.
        for key in ("wordnet_dir", "cache_dir", "cache_size", "rank_encoder"):
            fp["params"].pop(key, None)
        fp["params"]["ranked"] = bool(self.config.rank_encoder)  # which encoder: its checksum in "models"
        return fp

    def clear_cache(self) -> None:
        """Forget every cached lookup (a cold start, as a new process would see)."""
        if self._finder is not None:
            self._finder.clear()

    # -- words -------------------------------------------------------------------------------------------------
    @property
    def finder(self) -> SubstituteFinder:
        """The word-level rules and lookups (`pipeline.lexicon.substitutes`), ready to use."""
        self.ensure_ready()
        assert self._finder is not None
        return self._finder

    def _base_forms(self, word: str, pos: str) -> tuple[str, ...]:
        return self.finder.base_forms(word, pos)

    def pos_uses(self, word: str) -> dict[str, tuple[str, int]]:
        """pos -> (the base form of `word` with the most SemCor uses as pos, its uses)."""
        return self.finder.pos_uses(word)

    def substitutes(self, word: str, context: Context = Context(ANY)) -> tuple[str, ...]:
        """Safe substitutes of the lower-cased `word` in `context`, in the word's form (module docstring)."""
        return self.finder.choice(word, context).substitutes

    def synonyms(self, word: str) -> tuple[str, ...]:
        """Safe substitutes of `word` (any case) without context (every part of speech allowed)."""
        return self.substitutes(word.lower())

    def _eligible(self, tokens: list[str], reasons: dict[int, str] | None = None) -> Eligible:
        """(token index, substitutes) of every eligible token (`pipeline.lexicon.eligible_words`)."""
        self.ensure_ready()
        assert self._eligible_words is not None
        return self._eligible_words(tokens, reasons)

    def _tokenize(self, text: str) -> tuple[list[str], list[tuple[int, int]] | None]:
        self.ensure_ready()
        assert self._tokenizer is not None
        return self._tokenizer.tokenize(text)

    # -- augmentation ------------------------------------------------------------------------------------------
    def _augment_view(self, text: str, tokens: list[str], spans: list[tuple[int, int]] | None,
                      eligible: list, rng: RecordRandom) -> tuple[str, list[list[Any]]]:
        cfg = self.config
        k = words_to_change(len(eligible), cfg.fraction, cfg.min_words, cfg.max_words, rng)
        if not k:
            return text, []
        changes: list[list[Any]] = []
        replaced: dict[int, str] = {}
        for j in sorted(rng.sample(len(eligible), k)):
            index, candidates = eligible[j][:2]
            new = match_case(tokens[index], candidates[rng.randrange(len(candidates))])
            changes.append([index, tokens[index], new, *eligible[j][2:]])  # + its similarity when ranked
            replaced[index] = new
            fit_neighbours(tokens, index, new, replaced)
        return self._splice(text, tokens, spans, replaced), changes

    def _splice(self, text: str, tokens: list[str], spans: list[tuple[int, int]] | None,
                replaced: dict[int, str]) -> str:
        assert self._tokenizer is not None
        return self._tokenizer.splice(text, tokens, spans, replaced)

    def _variant(self, text: str, tokens: list[str], spans: list[tuple[int, int]] | None, index: int,
                 substitute: str) -> str:
        """`text` with the one token at `index` replaced by `substitute` (and its a/an and 's fitted)."""
        new = match_case(tokens[index], substitute)
        replaced = {index: new}
        fit_neighbours(tokens, index, new, replaced)
        return self._splice(text, tokens, spans, replaced)

    def _rank(self, items: list[tuple[str, list[str], list[tuple[int, int]] | None, list]]) -> list[list]:
        """For each (text, tokens, spans, eligible): its eligible words, each with only its best candidate in
        context (cosine of the sentence with that one substitution, under `rank_encoder`) and that cosine, words
        whose best candidate is below `min_candidate_similarity` left out."""
        groups = []
        for text, tokens, spans, eligible in items:
            group = [text]
            for index, candidates in eligible:
                group += [self._variant(text, tokens, spans, index, c) for c in candidates]
            groups.append(group)
        scores = self._ranker.similarities(groups)
        out = []
        for (text, tokens, spans, eligible), sims in zip(items, scores):
            kept, at = [], 0
            for index, candidates in eligible:
                mine = sims[at:at + len(candidates)]
                at += len(candidates)
                best = max(range(len(candidates)), key=lambda c: mine[c])
                if mine[best] >= self.config.min_candidate_similarity:
                    kept.append((index, (candidates[best],), round(mine[best], 4)))
            out.append(kept)
        return out

    def augment_batch(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        self.ensure_ready()
        both = self.config.views == "both"
        out: list[ViewPair] = []
        prepared = []
        for r in records:
            tokens, spans = self._tokenize(r.text)
            prepared.append((r.text, tokens, spans, self._eligible(tokens)))
        ranked = iter(self._rank([p for p in prepared if p[3]])) if self._ranker is not None else None
        for r, (_, tokens, spans, eligible) in zip(records, prepared):
            if not eligible:
                out.append(ViewPair.rejected("no_eligible_word", r.text, r.text, eligible=0))
                continue
            if ranked is not None:
                found = len(eligible)
                eligible = next(ranked)
                if not eligible:
                    out.append(ViewPair.rejected("no_similar_substitute", r.text, r.text, eligible=found))
                    continue
            view2, changes2 = self._augment_view(r.text, tokens, spans, eligible, RecordRandom(seed, r.source_id))
            info: dict[str, Any] = {"eligible": len(eligible), "replaced": len(changes2), "changes": changes2}
            view1 = r.text
            if both:
                view1, changes1 = self._augment_view(r.text, tokens, spans, eligible,
                                                     RecordRandom(seed, r.source_id, "view1"))
                info["replaced_view1"] = len(changes1)
                info["changes_view1"] = changes1
            if view1 == view2:
                out.append(ViewPair.rejected("identical_views", view1, view2, **info))
                continue
            out.append(ViewPair(view1, view2, info=info))
        return out
