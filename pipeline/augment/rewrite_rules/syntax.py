"""Shallow syntactic tests the rule families share, on tokens (`text.Tok`) and lemminflect's word classes: whether a
token is a finite verb, whether words hold one, whether a token is a plural noun, and verb classes by their forms.
Each is one definition used by every family that needs it (tests/pipeline/augment/test_rewrite_syntax.py checks them on their own)."""

from __future__ import annotations

import re
from functools import lru_cache

from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Tok, _is_form, _is_lower_word, _is_word, _lemmas, is_noun, uncontracted,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    AUXILIARIES, DETERMINERS, FINITE_AUX, SUBJECT_PRONOUNS, THIRD_PERSON_ALL_FORMS,
)


def is_finite_verb(tok: Tok) -> bool:
    """A lower-case auxiliary, or a lower-case past or -s form that is no noun unless past ("said", "has";
    not "cost", "plans")."""
    if tok.low in AUXILIARIES:
        return tok.text.islower()
    if not _is_lower_word(tok):
        return False
    return (_is_form(tok.low, "VBD") or _is_form(tok.low, "VBZ")) and not (
        is_noun(tok.low) and not _is_form(tok.low, "VBD"))


def has_finite_verb(part: list[Tok]) -> bool:
    """Whether words have a finite verb or an auxiliary. "increased" after a determiner is none; a verb that may be
    a noun counts after a subject pronoun ("he works"), after a plural noun in its base form ("men pose"), or when
    no "of"/"and"/"or" comes before it ("A child rides"; in "the volatility of producer and consumer prices" the
    word "prices" is a noun)."""
    for m, t in enumerate(part):
        if t.low in AUXILIARIES or re.search(r"n't$|'(s|m|re|ve|ll|d)$", t.low):
            return True
        if m == 0 or not _is_lower_word(t) or not is_finite_form(t.low):
            continue
        prev = part[m - 1]
        if prev.low in DETERMINERS or is_stopword(prev.text) and prev.low not in SUBJECT_PRONOUNS:
            continue  # "The increased volatility", "of sectors"
        if "NOUN" not in _lemmas(t.low) or prev.low in SUBJECT_PRONOUNS \
                or _is_form(t.low, "VBP") and is_plural_noun_token(prev) \
                or not any(x.low in ("of", "and", "or") for x in part[:m]):
            return True
    return False


@lru_cache(maxsize=100_000)
def is_finite_form(word: str) -> bool:
    """A past, -s or present form of a verb lemma ("went", "says", "spread"; also one that is a noun: "plans")."""
    return "VERB" in _lemmas(word) and any(_is_form(word, tag) for tag in ("VBD", "VBZ", "VBP"))


def is_plural_noun_token(t: Tok) -> bool:
    """A plural noun, or a lower-case word in -s that lemminflect does not know ("hoodies")."""
    lemmas = _lemmas(t.low)
    return t.low in ("people", "men", "women", "children") or (
        t.low.endswith("s") and not t.low.endswith("ss") and t.text.isalpha() and t.text.islower()
        and not is_stopword(t.text) and ("NOUN" in lemmas or not lemmas))


def verb_forms(*lemmas: str) -> frozenset[str]:
    """The lemmas and all their verb forms (lemminflect)."""
    from lemminflect import getAllInflections

    out = set(lemmas)
    for lemma in lemmas:
        for forms in getAllInflections(lemma, upos="VERB").values():
            out.update(forms)
    return frozenset(out)


@lru_cache(maxsize=1)
def verb_classes() -> dict[str, frozenset[str]]:
    """Verb classes by their forms: verbs of saying and thinking, ones that also take an object, fillers, ..."""
    return {
        # "that" dropped before any plain clause, and added after them
        "say": verb_forms("say", "think", "believe", "hope", "guess", "suppose", "reckon", "add", "argue", "insist",
                          "claim", "contend", "assert", "allege", "predict", "realize", "realise"),
        # "that" dropped only before a nominative pronoun: these verbs also take a noun phrase as object
        "object": verb_forms("know", "feel", "notice", "find", "learn", "hear", "understand", "admit", "agree",
                             "announce", "report", "note", "suggest", "show", "mean", "wish", "bet", "expect", "fear",
                             "warn", "confirm", "indicate", "reveal", "discover", "decide", "ensure", "recall",
                             "remember", "imagine", "pretend", "promise", "swear", "acknowledge", "conclude",
                             "estimate", "figure"),
        # words that are fillers in speech ("you know it's like", "I mean it's", "I bet it's", "see, ...")
        "filler": verb_forms("know", "mean", "bet", "see", "feel", "figure", "promise", "swear", "understand"),
        "tell": verb_forms("tell", "inform", "assure", "convince", "remind", "persuade", "promise"),
        "speech": verb_forms("say", "add", "claim", "insist", "argue", "contend", "assert", "allege"),
        "intransitive": verb_forms("seem", "appear", "happen", "exist", "occur", "matter", "arise", "emerge", "be",
                                   "become", "remain", "lie", "die", "sleep", "arrive", "go", "come", "belong",
                                   "consist", "depend", "rely", "stand", "sit", "live", "work", "talk", "lied", "laugh",
                                   "smile", "look", "listen", "walk", "run", "fall", "rise", "wait", "agree", "think"),
        # verbs that take "to" + a verb ("plans to"): before a headline's "to", the headline's own verb
        "catenative": verb_forms("plan", "want", "hope", "seek", "try", "vow", "pledge", "promise", "threaten",
                                 "refuse", "agree", "decide", "aim", "move", "struggle", "start", "begin", "fail",
                                 "continue", "need", "expect", "intend", "prepare", "offer", "manage", "attempt",
                                 "strive", "rush", "scramble", "push", "battle", "fight", "look", "ask", "urge", "tell",
                                 "order", "call", "allow", "force", "set", "commit", "vote", "choose", "opt", "elect",
                                 "wish", "like", "love", "hate", "prefer", "dare", "tend", "appear", "seem", "claim",
                                 "happen", "learn", "bid", "race", "rally", "return", "go", "come", "head", "turn",
                                 "work", "step", "sign", "lobby", "campaign", "help", "say", "warn", "advise", "invite",
                                 "pressure", "press", "petition", "appeal", "sue", "point", "get", "have", "use", "vow",
                                 "pay", "fly", "travel", "hurry", "stand", "wait", "threaten", "forget", "remember",
                                 "cease", "resolve", "promise", "pledge", "agree", "consent", "volunteer", "train",
                                 "stop", "struggle", "strain", "labour", "labor", "act", "move", "swear", "profess",
                                 "pretend", "long", "yearn", "live", "survive", "grow", "rise"),
    }


@lru_cache(maxsize=100_000)
def is_plural_noun(word: str) -> bool:
    from lemminflect import getInflection

    return any(word in getInflection(lemma, "NNS", inflect_oov=False) and word != lemma
               for lemma in _lemmas(word).get("NOUN", ()))


def is_finite_clause_verb(tok: Tok) -> bool:
    """A finite verb: an auxiliary (or its "n't" form), or a verb's -s or past form that is not also a noun (a
    noun in -ed counts: "used"); stricter than `is_finite_verb` about auxiliaries' forms."""
    low = tok.low
    if not tok.text.islower() or not _is_word(tok):
        return False
    if low in FINITE_AUX:
        return True
    if "NOUN" in _lemmas(low) and not low.endswith("ed"):
        return False
    return _is_form(low, "VBZ") or _is_form(low, "VBD")


def is_noun_like(t: Tok) -> bool:
    """A name or a word that may be a noun (a possible antecedent of a pronoun; a word lemminflect does not know
    counts as one)."""
    if t.text[:1].isupper() and t.low != "i":
        return True
    word = uncontracted(t)
    lemmas = _lemmas(word)
    return word not in THIRD_PERSON_ALL_FORMS and ("NOUN" in lemmas or not lemmas and word.isalpha() and len(word) > 3)
