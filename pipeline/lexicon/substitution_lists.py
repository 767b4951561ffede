"""The short word lists of the synonym augmenter's defaults (`keep_words`, `avoid_substitutions`), each entry with
the judged error that put it there (experiments/judged/). General rules come first; an entry is added only
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
# dominant sense is that synset too, yet readers take the substitute as another thing, body or title ("committee" ->
# "commission", "stories" -> "tales"), another act ("published" -> "printed", "quits" -> "ceases"), another verb frame
# or collocation ("answer my questions" -> "reply my questions", "help X stabilize" -> "aid X stabilize"), slang or a
# loaded word ("champion" -> "champ", "government" -> "regime"), or the pair is wrong more often than right in the
# judged samples ("provide" -> "supply": "supply access"; "notice" <-> "detect"; "finally" -> "eventually" before the
# last point of a list). Where each pair was found, and its judged counts: CHANGELOG.md, "Synonym word lists".
AVOID_SUBSTITUTIONS = (
    "animal>beast", "frog>toad", "central>fundamental", "try>attempt", "resign>vacate", "infant>babe",
    "help>aid", "engage>pursue",
    "committee>commission", "feature>characteristic", "investigator>researcher", "story>tale", "plan>program",
    "teacher>instructor", "fellow>lad", "majority>bulk", "freeway>pike", "runner>smuggler", "consequence>effect",
    "religious>spiritual", "fundamental>central", "ailing>peaked", "urgent>pressing",
    "publish>print", "encourage>promote", "quit>cease", "cease>quit", "defer>shelve", "approve>sanction",
    "bounce>rebound", "tear>rupture", "furnish>supply",
    "answer>reply", "lean>tilt", "huge>vast", "funny>comic", "earlier>before", "immediately>instantly",
    "desperately>urgently",
    "minister>pastor", "minister>parson", "fundamental>cardinal", "financial>fiscal", "lid>eyelid",
    "microphone>mike", "champion>champ", "tease>bug", "government>regime", "strategy>scheme", "district>territory",
    "factory>mill",
    "seize>clutch", "respond>react", "accomplish>fulfill", "center>middle", "manager>director", "director>manager",
    "task>project", "result>consequence", "consequence>result", "result>effect", "effect>result",
    "purpose>intention",
    "provide>supply", "notice>detect", "detect>notice", "finally>eventually",
    "percentage>percent", "cite>mention", "study>analyze", "manner>style", "manner>mode", "individual>person",
)
