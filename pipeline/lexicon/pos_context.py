"""Which parts of speech a word can have where it stands, from the words beside it.

No POS-tagger data can be had offline, so the part of speech of a word is decided by its SemCor counts
(`pipeline.lexicon.sense_counts`) among the parts of speech its neighbours allow: after a determiner a word is a
noun or an adjective ("the black dog", never the verb "table"), after a modal a verb ("will open"), after a form of
"be" an -ing word is a verb or an adjective ("is dancing"), after "have" a past participle, after a preposition not
a finite verb, and a word followed by a determiner or an object pronoun is not a noun ("spray themselves"). The rules
only ever narrow the choice; when they leave none, the word is not substituted.
"""

from __future__ import annotations

from dataclasses import dataclass

from bsl_pipeline.pipeline.lexicon.word_classes import BE_FORMS

DETERMINERS_BEFORE_NOUNS = frozenset(
    "a an the this that these those my your his her its our their some any no every each another either neither "
    "many several few much more most such what which whose".split())
HAVE = frozenset("has have had having 've".split())
MODALS = frozenset("will would can could shall should may might must do does did 'll 'd n't not".split())
PREPOSITIONS_BEFORE_NOUNS = frozenset(
    "in on at with of for from into onto by under over through about near across along behind beside besides "
    "between towards toward around without within inside outside against among during upon via past beneath "
    "below above beyond".split())
PRONOUNS_BEFORE_VERBS = frozenset("i you he she it we they who".split())
PRONOUNS_AFTER_VERBS = frozenset(
    "me him us them themselves himself herself itself myself yourself ourselves yourselves".split())
INTENSIFIERS = frozenset("very too so quite rather really extremely fairly pretty".split())

ANY = frozenset("nvar")


@dataclass(frozen=True, slots=True)
class Context:
    """What the neighbours allow: parts of speech (n, v, a, r) and, for verbs, the forms (Penn tags)."""

    pos: frozenset[str]
    verb_tags: frozenset[str] | None = None  # None: any verb form


VERB_ANY = None


def context_of(previous: str, following: str) -> Context:
    """The context of a word between the lower-cased tokens `previous` and `following` ("" at either end)."""
    allowed = set(ANY)
    verb_tags: set[str] | None = None
    if previous in DETERMINERS_BEFORE_NOUNS:
        allowed &= {"n", "a"}
    elif previous in BE_FORMS:
        allowed &= {"v", "a", "n"}
        verb_tags = {"VBG", "VBN"}
    elif previous in HAVE:
        allowed &= {"v", "n"}
        verb_tags = {"VBN"}
    elif previous in MODALS:
        allowed &= {"v", "r"}
        verb_tags = {"VB"}
    elif previous == "to":
        allowed &= {"v", "n"}
        verb_tags = {"VB"}
    elif previous in PREPOSITIONS_BEFORE_NOUNS:
        allowed &= {"n", "a", "v"}
        verb_tags = {"VBG"}
    elif previous in PRONOUNS_BEFORE_VERBS:
        allowed &= {"v", "r"}
        verb_tags = {"VBZ", "VBD", "VB"}
    elif previous in INTENSIFIERS:
        allowed &= {"a", "r"}
    if following in DETERMINERS_BEFORE_NOUNS or following in PRONOUNS_AFTER_VERBS:
        allowed &= {"v", "r", "a"} if following in ("many", "more", "most", "much", "few") else {"v", "r"}
    return Context(frozenset(allowed), None if verb_tags is None else frozenset(verb_tags))
