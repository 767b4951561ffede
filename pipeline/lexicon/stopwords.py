"""Our own English stopword list (no nltk data needed): function words that a word-substitution augmenter must leave
alone, because swapping them for a WordNet "synonym" (e.g. "a" -> "angstrom", "it" -> "information technology") breaks
the sentence instead of paraphrasing it.

The list covers articles, pronouns, determiners, prepositions, conjunctions, auxiliary and modal verbs (all
inflections), common adverbs of degree/negation, and the pieces that the Moses tokenizer splits off English
contractions ("n't", "'s", "'ll", ...). Entries are lower case; compare with `is_stopword(token)`.
"""

from __future__ import annotations

ENGLISH_STOPWORDS: frozenset[str] = frozenset("""
a an the
i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his himself she her hers
herself it its itself they them their theirs themselves one ones oneself
this that these those who whom whose which what whatever whoever whichever
am is are was were be been being do does did doing done have has had having
will would shall should can could may might must ought need dare
ca wo sha
not no nor neither either never none nothing
and or but if then else than so because as until while although though unless whereas whether yet also
of at by for with about against between into through during before after above below to from up down in out on
off over under again further once here there when where why how
all any both each few more most other some such only own same too very just even ever
s t d ll m o re ve y don doesn didn isn aren wasn weren hasn haven hadn won wouldn shan shouldn can't cannot
n't 's 'd 'll 'm 're 've 't
etc via per upon onto within without among across along around toward towards beside besides beyond
""".split())


def is_stopword(token: str) -> bool:
    """True for an English function word (case-insensitive)."""
    return token.lower() in ENGLISH_STOPWORDS
