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
among its safe substitutes; with `rank_encoder` (off by default: one encoder pass per candidate sentence, much
slower; docs/results/speed.md) each word keeps only the substitute whose sentence is closest to the original under
that encoder (`pipeline.lexicon.sentence_similarity`), if it reaches `min_candidate_similarity`, and the cosine is
recorded with the change. The word rules are the settings under `words` (`SubstituteRules`), the sentence rules
those under `sentence` (`SentenceRules`); the defaults were chosen on blind-judged samples (docs/results/views.md):
the knobs trade quality for change rate (lower shares and counts give more, riskier substitutions).

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
from bsl_pipeline.pipeline.lexicon.eligible_words import Eligible, EligibleWords, SentenceRules, furthest_reason
from bsl_pipeline.pipeline.lexicon.inflection import indefinite_article, possessive_marker
from bsl_pipeline.pipeline.lexicon.moses_tokens import SpanTokenizer
from bsl_pipeline.pipeline.lexicon.pos_context import ANY, Context
from bsl_pipeline.pipeline.lexicon.substitutes import SubstituteFinder, SubstituteRules
from bsl_pipeline.pipeline.lexicon.text_kind import text_problem


@dataclass
class SynonymConfig:
    fraction: float = field(default=0.5, metadata={
        "range": Range(0, 1), "help": "share of eligible words replaced (the paper: 0.3 of all non-stopwords; "
                                      "eligible words are fewer here, see docs/guide/views.md#synonyms)"})
    min_words: int = field(default=1, metadata={"range": Range(0, not_above="max_words"),
        "help": "replace at least this many words when there are that many eligible words (0: fraction only)"})
    max_words: int | None = field(default=None, metadata={
        "range": Range(1), "help": "at most this many replaced words per view (null: no cap)"})
    views: Literal["second", "both"] = field(default="second", metadata={
        "help": "second: view1 = original, view2 = augmented (the paper); both: each view augmented independently"})
    words: SubstituteRules = field(default_factory=SubstituteRules, metadata={
        "help": "which substitutes a word gets: its part of speech, sense, and each candidate lemma's rules"})
    sentence: SentenceRules = field(default_factory=SentenceRules, metadata={
        "help": "which words are left alone for their place in the sentence: fixed phrases, compounds, verbs "
                "with their prepositions and complements"})
    rank_encoder: str | None = field(default=None, metadata={"fingerprint": False,  # its checksum is in "models"
        "help": "a sentence encoder model directory (transformers, mean pooling; e.g. all-MiniLM-L6-v2): each "
                "candidate substitution is scored by cosine(sentence, sentence with it) and a word keeps only its "
                "best candidate, if it reaches min_candidate_similarity (null: no ranking, candidates drawn "
                "uniformly)"})
    min_candidate_similarity: float = field(default=0.0, metadata={"range": Range(0, 1),
        "help": "with rank_encoder: the best candidate of a word must reach this cosine, else the word is kept"})
    min_english_share: float = field(default=0.8, metadata={"range": Range(0, 1),
        "help": "share of a sentence's words that must be English words (wordfreq's English list) for it to get a "
                "view; below: reject 'not_english'. A sentence with a URL, a hashtag list, code or only capitals "
                "gets no view either (pipeline.lexicon.text_kind), each rejected with its reason"})
    # Where WordNet and its cache live does not change the output (its checksums are in "models"), and paths differ
    # between machines: out of the fingerprint, so caches and manifests match across machines.
    wordnet_dir: str | None = field(default=None, metadata={"fingerprint": False,
        "help": "WordNet database dir (data.noun, index.noun, index.sense, ...), used before anything else; unset: "
                "nltk's data path, then $WNSEARCHDIR, then /usr/share/wordnet"})
    cache_dir: str | None = field(default=None, metadata={"fingerprint": False,
        "help": "where a system WordNet is set up for nltk (unset: $XDG_CACHE_HOME/bsl-pipeline/nltk_data, "
                "else ~/.cache/bsl-pipeline/nltk_data)"})
    cache_size: int = field(default=500_000, metadata={"fingerprint": False,
        "range": Range(1, MAX_BUFFERED_ITEMS), "help": "words (in context) whose substitutes are kept in memory"})


NO_ELIGIBLE_WORD = "no_eligible_word"


def no_eligible_word_reason(reasons: dict[int, str]) -> str:
    """The reject of a sentence without an eligible word: `no_eligible_word:<rule>`, the rule that stopped the word
    that came furthest (`pipeline.lexicon.eligible_words.furthest_reason`), e.g. no_eligible_word:rare_in_semcor.
    Everything before the first ':' is the reject's kind, which `bsl inspect --reason no_eligible_word`
    matches whatever the rule."""
    rule = furthest_reason(reasons)
    return f"{NO_ELIGIBLE_WORD}:{rule}" if rule else NO_ELIGIBLE_WORD


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


class SynonymAugmenter(Augmenter):
    name = "synonyms"
    config_class = SynonymConfig
    default_batch_size = 2048
    version = "13"  # bump when the output for the same input and settings changes (CHANGELOG.md)

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
        from bsl_pipeline.pipeline.lexicon import text_kind, word_frequency
        from bsl_pipeline.pipeline.lexicon.collocations import Collocations
        from bsl_pipeline.pipeline.lexicon.eligible_words import EligibleWords
        from bsl_pipeline.pipeline.lexicon.moses_tokens import SpanTokenizer
        from bsl_pipeline.pipeline.lexicon.sense_counts import load_sense_counts
        from bsl_pipeline.pipeline.lexicon.wordnet import load_synset_lemmas, load_wordnet

        wordnet = load_wordnet(self._locate())
        word_frequency.load()
        text_kind.load()
        collocations = Collocations(k for k in wordnet._lemma_pos_offset_map if "_" in k or "-" in k)
        self._finder = SubstituteFinder(self.config.words, wordnet, load_synset_lemmas(self._locate()),
                                        load_sense_counts(self._locate()), self.config.cache_size,
                                        on_clear=collocations.clear)
        self._eligible_words = EligibleWords(self.config.sentence, self._finder, collocations)
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
        why_not: list[dict[int, str]] = []
        problems = [text_problem(r.text, 0, self.config.min_english_share) for r in records]
        for r, problem in zip(records, problems):
            tokens, spans = self._tokenize(r.text) if problem is None else ([], None)
            why_not.append({})
            prepared.append((r.text, tokens, spans, self._eligible(tokens, why_not[-1]) if tokens else []))
        ranked = iter(self._rank([p for p in prepared if p[3]])) if self._ranker is not None else None
        for r, (_, tokens, spans, eligible), reasons, problem in zip(records, prepared, why_not, problems):
            if problem is not None:
                out.append(ViewPair.rejected(problem, r.text, r.text, eligible=0))
                continue
            if not eligible:
                out.append(ViewPair.rejected(no_eligible_word_reason(reasons), r.text, r.text, eligible=0))
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
