"""The short word lists of the synonym augmenter's defaults (`keep_words`, `avoid_substitutions`), each entry with
the judged error that put it there (issue 17, benchmarks/judged/). General rules come first; an entry is added only
for a misreading no general rule catches, and every list is switchable from the config ([] turns it off).
"""

from __future__ import annotations

# Words kept as they are by default (`keep_words`; matched on every base form, so "said" and "goes" too): light and
# reporting verbs whose synonyms take other arguments ("said" -> "told" needs an object, "goes viral" -> "moves
# viral", "guess what" -> "reckon what", "use" -> "apply"); indefinite pronouns ("someone" -> "individual" needs an
# article); and words whose part of speech the neighbours cannot tell ("live" the adverb -> "populate", "well" the
# interjection -> "good").
KEEP_WORDS = (
    "say", "tell", "go", "get", "make", "take", "have", "use", "do", "guess", "give", "put", "come", "hold",
    "keep", "let", "set", "ask", "see", "find", "look", "think", "know", "want", "need", "seem", "turn", "run",
    "someone", "somebody", "anyone", "anybody", "everyone", "everybody", "nobody", "something", "anything",
    "everything", "nothing", "people", "thing", "way", "live", "well", "like", "kind",
)

# Known misreadings (`avoid_substitutions`): WordNet puts both words in the word's dominant synset and the substitute's
# dominant sense is that synset too, yet readers take the substitute as another thing or another verb frame. Found
# in the judged block after-2 (issue 17, round two): "animal" -> "beast" (a brute), "frog" -> "toad" (another
# animal), "central" -> "fundamental" ("central Russia"), "tried" (in court) -> "attempted", "resign" -> "vacate"
# (needs an object), "infant" -> "babe", "help" -> "aid" ("aid X stabilize": no bare infinitive), "engage" ->
# "pursue" ("pursue in").
AVOID_SUBSTITUTIONS = (
    "animal>beast", "frog>toad", "central>fundamental", "try>attempt", "resign>vacate", "infant>babe",
    "help>aid", "engage>pursue",
)
