"""Which words of a tokenized sentence a synonym may replace, and with what: the word rules of
`pipeline.lexicon.substitutes` in each word's context (its neighbours), plus the sentence rules that keep names,
compounds, modified nouns and fixed phrases whole (module docstring of `pipeline.augment.augmenters.synonyms`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bsl_pipeline.pipeline.lexicon.collocations import Collocations
from bsl_pipeline.pipeline.lexicon.inflection import tags_of
from bsl_pipeline.pipeline.lexicon.pos_context import (
    DETERMINERS_BEFORE_NOUNS,
    PRONOUNS_AFTER_VERBS,
    PRONOUNS_BEFORE_VERBS,
    Context,
    context_of,
)
from bsl_pipeline.pipeline.lexicon.stopwords import ENGLISH_STOPWORDS
from bsl_pipeline.pipeline.lexicon.substitutes import WORD, SubstituteFinder

# After these tokens a capital letter starts a sentence rather than marking a name.
SENTENCE_BREAKS = frozenset(".!?:;")
OPENERS = frozenset("\"'`([{«“‘")

# Prepositions a verb selects (its argument: "happened to you", "engage in", "responding to treatment", "consists
# of", "asked for") and the particles of phrasal verbs ("turn up"): a synonym often takes another one ("occurred to
# you" means came to mind, "pursue in" is no English). Spatial prepositions ("stares at", "jumps into") are free.
# "to" before a verb is an infinitive ("attempting to get"), not the verb's preposition.
SELECTED_PREPOSITIONS = frozenset("to in of for with on about upon from up down out off away back".split())
# Size adjectives that are also quantifiers: "very little left", "so little space", "little more than" mean not much,
# and "small" there is no English; in the same places "small" cannot become "little" either ("relatively little
# crowds"). Only after a determiner, number or adjective and before a noun do they measure size ("a little boy").
QUANTITY_ADJECTIVES = frozenset(("little",))
COUNT_WORDS_BEFORE_NOUNS = frozenset("one two three four five six seven eight nine ten twelve dozen hundred".split())
# Verbs that take a bare infinitive ("helps them find"), which their synonyms do not ("assists them find").
BARE_INFINITIVE_VERBS = frozenset(("help",))
# Words after a verb that start its object ("tumble Lenin statue" needs a verb that takes one).
_NOT_OBJECT_DETERMINERS = frozenset(("that", "what", "which", "whose"))  # clauses: "said that", "knows what"

Eligible = list[tuple[int, tuple[str, ...]]]  # (token index, its substitutes)


@dataclass(frozen=True)
class SentenceRules:
    """The settings about a word's place in the sentence (`method_params.synonyms.sentence`); names are kept by
    `SubstituteRules.skip_proper_nouns`."""

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


def sentence_starts(tokens: list[str]) -> list[bool]:
    """Whether each token starts a sentence (its capital then marks no name)."""
    starts, at_start = [], True
    for tok in tokens:
        starts.append(at_start)
        if tok in SENTENCE_BREAKS:
            at_start = True
        elif tok not in OPENERS:
            at_start = False
    return starts


# The rules in the order a word meets them: the later a word's rule, the closer the word came to a substitute. After
# them: "no_substitute:<rule>" (its senses had lemmas, all refused), then the sentence rules (the word had
# substitutes; the sentence around it kept it: compounds, prepositional verbs, collocations, ...).
REASON_STAGES = ("not_a_word", "stopword", "keep_word", "capitalised", "not_in_wordnet", "rare_in_semcor",
                 "pos_not_allowed", "unclear_pos", "pos_excluded", "no_form", "unclear_sense", "name")


def reason_stage(reason: str) -> int:
    """How far a word with this refusal came towards a substitute (higher = further)."""
    if reason in REASON_STAGES:
        return REASON_STAGES.index(reason)
    return len(REASON_STAGES) + (0 if reason.startswith("no_substitute:") else 1)


def furthest_reason(reasons: dict[int, str]) -> str | None:
    """The refusal of the word that came furthest (the first such word on a tie); None for no words."""
    if not reasons:
        return None
    return max(sorted(reasons.items()), key=lambda item: (reason_stage(item[1]), -item[0]))[1]


class EligibleWords:
    """The eligible words of a sentence and their substitutes; with `reasons`, why each other word is not."""

    def __init__(self, rules: SentenceRules, finder: SubstituteFinder, collocations: Collocations):
        self.rules = rules
        self.finder = finder
        self.collocations = collocations

    def __call__(self, tokens: list[str], reasons: dict[int, str] | None = None) -> Eligible:
        """(token index, substitutes) of every eligible token; `reasons` (when given) gets index -> why not, for
        every other token."""
        finder = self.finder
        lower = [tok.lower() for tok in tokens]
        starts = sentence_starts(tokens)
        out: Eligible = []
        for i, tok in enumerate(tokens):
            key = lower[i]
            if not finder.could_change(key):
                if reasons is not None:
                    reasons[i] = finder.unchangeable_reason(key) or "?"
                continue
            if finder.rules.skip_proper_nouns and self.is_name(tok, starts[i]):
                if reasons is not None:
                    reasons[i] = "capitalised"
                continue
            choice = finder.choice(key, self.context(lower, i))
            refusal = choice.reason if not choice.substitutes else \
                self.kept_in_sentence(tokens, lower, starts, i, choice.pos) or \
                self.verb_kept(tokens, lower, starts, i, choice.pos, choice.transitive) or \
                self.complement_kept(tokens, lower, starts, i, choice.other_sense_complements)
            substitutes = choice.substitutes
            if not refusal and self.rules.keep_quantity_words:
                substitutes, refusal = self.without_quantity_readings(lower, i, substitutes)
            if refusal:
                if reasons is not None:
                    reasons[i] = refusal
                continue
            out.append((i, substitutes))
        if out and self.rules.keep_collocations:  # most sentences have no candidate left: scan for phrases only now
            covered = self.collocations.covered(lower, finder.all_base_forms)
            if reasons is not None:
                reasons.update((i, "collocation") for i, _ in out if i in covered)
            out = [item for item in out if item[0] not in covered]
        return out

    @staticmethod
    def is_name(tok: str, at_start: bool) -> bool:
        """A capitalised word inside a sentence, or an all-caps word anywhere ("NASA")."""
        return tok[0].isupper() and (not at_start or (len(tok) > 1 and tok.isupper()))

    def context(self, lower: list[str], i: int) -> Context:
        """What the neighbours of word `i` allow (`pipeline.lexicon.pos_context`)."""
        previous = lower[i - 1] if i else ""
        following = lower[i + 1] if i + 1 < len(lower) else ""
        context = context_of(previous, following)
        if previous and previous not in ENGLISH_STOPWORDS and self.finder.is_adjective(previous):
            context = Context(context.pos & {"n", "a"}, context.verb_tags)  # "religious retreats": a noun
        return context

    def kept_in_sentence(self, tokens: list[str], lower: list[str], starts: list[bool], i: int, pos: str) -> str:
        """The sentence rule that keeps word `i`, read as `pos`, as it is ("" when none does)."""
        rules, finder = self.rules, self.finder
        previous = lower[i - 1] if i else ""
        following = lower[i + 1] if i + 1 < len(tokens) else ""
        if rules.keep_modified_nouns and pos == "n" and previous and \
                self.modifies(tokens[i - 1], previous, starts[i - 1]):
            return "modified_noun"  # "arms factory", "organizing director", "Friday night", "Syrian war"
        content_follows = bool(following) and bool(WORD.fullmatch(following)) and following not in ENGLISH_STOPWORDS
        if rules.keep_modifiers and pos == "a" and content_follows and finder.is_noun(following):
            return "modifier"  # "golden triangle"
        if rules.keep_compounds and content_follows and "n" in finder.pos_uses(lower[i]) and \
                finder.is_noun(lower[i]) and finder.is_noun(following):
            return "compound"  # "train track": the first noun of a compound
        return ""

    def verb_kept(self, tokens: list[str], lower: list[str], starts: list[bool], i: int, pos: str,
                  transitive: bool) -> str:
        """The rule that keeps word `i`, read as a verb, as it is ("" when none does, or it is no verb)."""
        if pos != "v":
            return ""
        rules, finder = self.rules, self.finder
        previous = lower[i - 1] if i else ""
        following = lower[i + 1] if i + 1 < len(tokens) else ""
        after = lower[i + 2] if i + 2 < len(tokens) else ""
        if rules.keep_prepositional_verbs and following in SELECTED_PREPOSITIONS and \
                not (following == "to" and self.mostly_verb(after)):
            return "prepositional_verb"  # "happened to you" -> "occurred to you", "engage in" -> "pursue in"
        if rules.keep_prepositional_verbs and finder.all_base_forms(lower[i]) & BARE_INFINITIVE_VERBS and \
                self.bare_infinitive_follows(lower, i):
            return "bare_infinitive"  # "helps them find" -> "assists them find"
        content_follows = bool(following) and bool(WORD.fullmatch(following)) and following not in ENGLISH_STOPWORDS
        if rules.keep_ing_modifiers and lower[i].endswith("ing") and content_follows and \
                self.noun_like(following) and self.before_a_modifier(previous):
            return "ing_modifier"  # "a racing bike" is no bike that rushes
        if rules.check_transitivity and not transitive and i + 1 < len(tokens) and (
                (following in DETERMINERS_BEFORE_NOUNS and following not in _NOT_OBJECT_DETERMINERS)
                or following in PRONOUNS_AFTER_VERBS
                or (tokens[i + 1][:1].isupper() and not starts[i + 1] and WORD.fullmatch(following))
                or (content_follows and finder.is_noun(following))):
            return "object_of_intransitive"  # "protesters topple Lenin statue": not the sense "fall down"
        return ""

    def complement_kept(self, tokens: list[str], lower: list[str], starts: list[bool], i: int,
                        other_sense_complements: frozenset[str]) -> str:
        """Keep a verb followed by an infinitive or a that-clause that, by WordNet's sentence frames, only another
        sense of it takes: the word is used in that sense there ("happens to work" is not "occurs to work", "chose
        to use" not "selected to use", "the statute provides that" not "supplies that")."""
        if not other_sense_complements or not self.rules.check_complements:
            return ""
        following = lower[i + 1] if i + 1 < len(lower) else ""
        after = lower[i + 2] if i + 2 < len(lower) else ""
        if following == "to" and "infinitive" in other_sense_complements and self.mostly_verb(after):
            return "infinitive_of_other_sense"
        if following == "that" and "clause" in other_sense_complements and self.clause_starts(tokens, starts, i + 2):
            return "clause_of_other_sense"
        return ""

    @staticmethod
    def clause_starts(tokens: list[str], starts: list[bool], j: int) -> bool:
        """Whether the words from `j` on, after "that", start a clause ("that a committee ...", "that i have",
        "that Linux ...") rather than "that" being a determiner or the object ("noticed that car", "saw that.")."""
        if j >= len(tokens):
            return False
        word = tokens[j].lower()
        return word in PRONOUNS_BEFORE_VERBS or word in DETERMINERS_BEFORE_NOUNS or word == "there" or \
            (tokens[j][:1].isupper() and not starts[j] and bool(WORD.fullmatch(word)))

    def without_quantity_readings(self, lower: list[str], i: int,
                                  substitutes: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
        """(the substitutes of word `i` that keep its reading, the refusal when none is left): where "little" would
        not measure size, it is kept ("very little left" -> "very small left") and is no substitute ("relatively
        small crowds" -> "little"). Only a word that is or may become "little" has its neighbours looked at."""
        word_is_one = lower[i] in QUANTITY_ADJECTIVES
        if not word_is_one and not any(s.lower() in QUANTITY_ADJECTIVES for s in substitutes):
            return substitutes, ""
        if self.measures_size(lower, i):
            return substitutes, ""
        if word_is_one:
            return substitutes, "quantity_word"
        kept = tuple(s for s in substitutes if s.lower() not in QUANTITY_ADJECTIVES)
        return kept, "" if kept else "quantity_word"

    def measures_size(self, lower: list[str], i: int) -> bool:
        """Whether a size adjective at `i` stands where "little" would measure size, not quantity: after a
        determiner, a number, a possessive or another adjective, and before a noun or adjective ("a little boy",
        "three little boys", "his little brown dog")."""
        previous = lower[i - 1] if i else ""
        following = lower[i + 1] if i + 1 < len(lower) else ""
        if not following or not WORD.fullmatch(following) or following in ENGLISH_STOPWORDS:
            return False
        after = self.noun_like(following) or self.finder.is_adjective(following)
        before = previous in DETERMINERS_BEFORE_NOUNS or previous in COUNT_WORDS_BEFORE_NOUNS or \
            previous in ("'s", "'") or previous.isdigit() or (bool(WORD.fullmatch(previous)) and previous not in ENGLISH_STOPWORDS and
                                   self.finder.is_adjective(previous))
        return after and before

    def bare_infinitive_follows(self, lower: list[str], i: int) -> bool:
        """Whether a verb in its base form follows word `i` within three words, inside the clause ("helps fill",
        "helps preschoolers conquer", "helped the man walk")."""
        for word in lower[i + 1:i + 4]:
            if not WORD.fullmatch(word) or word in ("to", "and", "or", "but", "that"):
                return False
            if word not in ENGLISH_STOPWORDS and self.mostly_verb(word) and \
                    "VB" in tags_of(word, word, "v"):
                return True
        return False

    def noun_like(self, word: str) -> bool:
        """Mostly used as a noun, or a WordNet noun SemCor never saw ("bike")."""
        uses = self.finder.pos_uses(word)
        return self.finder.is_noun(word) or ("n" in uses and not sum(n for _, n in uses.values()))

    def mostly_verb(self, word: str) -> bool:
        """Whether a word after "to" is likely a verb, an infinitive ("to run", "to end"): used as a verb at least a
        fifth of its SemCor uses."""
        uses = self.finder.pos_uses(word)
        total = sum(n for _, n in uses.values())
        return bool(total) and uses.get("v", ("", 0))[1] * 5 >= total

    def before_a_modifier(self, previous: str) -> bool:
        """Whether an -ing word after `previous` and before a noun modifies the noun ("a racing bike", "red
        racing bike": after a word used as an adjective a third of the time or more) rather than being a verb with its
        object ("is eating pizza", "man eating pizza")."""
        if not previous or previous in DETERMINERS_BEFORE_NOUNS or previous in ("and", "or", ","):
            return True
        if previous in ENGLISH_STOPWORDS or not WORD.fullmatch(previous):
            return False
        uses = self.finder.pos_uses(previous)
        total = sum(n for _, n in uses.values())
        adjective = bool(total) and uses.get("a", ("", 0))[1] * 3 >= total  # "red", "black": adjectives too
        return adjective or not self.finder.is_noun(previous)

    def modifies(self, token: str, lower: str, at_start: bool) -> bool:
        """Whether the token before a noun modifies it as a name or compound part: a capitalised word (not one
        merely starting the sentence), a noun, or an -ing word."""
        if lower in ENGLISH_STOPWORDS or not any(c.isalpha() for c in token):
            return False
        if token[:1].isupper() and not at_start:
            return True
        if not WORD.fullmatch(token):
            return False
        return (lower.endswith("ing") and len(lower) > 4) or self.finder.is_noun(lower)
