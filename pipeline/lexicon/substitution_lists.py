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
# dominant sense is that synset too, yet readers take the substitute as another thing or another verb frame. Found
# in the judged block after-2: "animal" -> "beast" (a brute), "frog" -> "toad" (another
# animal), "central" -> "fundamental" ("central Russia"), "tried" (in court) -> "attempted", "resign" -> "vacate"
# (needs an object), "infant" -> "babe", "help" -> "aid" ("aid X stabilize": no bare infinitive), "engage" ->
# "pursue" ("pursue in").
#
# From the judged blocks after-2 and after-3 and the lead's review of demo views, for the errors no
# general rule of v5 catches. Another thing, body or title: "committee" -> "commission", "feature" (of software) ->
# "characteristic", "investigators" -> "researchers", "stories" -> "tales" (made up), "plans" -> "programs",
# "teacher" -> "instructor", "senior fellow" -> "senior lad", "majority" -> "bulk", "freeway" -> "pike", "runners" ->
# "smugglers" (SemCor's first sense of runner), "consequences" -> "effects" (bad ones), "religious" -> "spiritual",
# "fundamental" -> "central", "ailing" -> "peaked", "urgent" -> "pressing". Another act: "published" -> "printed",
# "encouraged by" -> "promoted by", "quits" -> "ceases", "cease" -> "quit", "defers comment" -> "shelves comment",
# "approves" -> "sanctions" (penalises), "bouncing" -> "rebounding", "tore apart" -> "ruptured apart", "furnished" ->
# "supplied". Another frame or collocation: "answer my questions" -> "reply my questions", "leaning into" ->
# "tilting into", "huge sunflowers" -> "vast sunflowers", "funny" (of a person) -> "comic", "earlier this month" ->
# "before this month", "not immediately available" -> "not instantly available", "desperately" -> "urgently".
# Seen on the development block (v5 drafts): SemCor's first sense of "minister" is a clergyman ("pastor",
# "parson"), "fundamental" -> "cardinal", "financial" -> "fiscal" (of a state), "lid" -> "eyelid", slang
# ("microphone" -> "mike", "champion" -> "champ", "teasing" -> "bugging") and loaded words ("government" ->
# "regime", "strategy" -> "scheme", "district" -> "territory", "factory" -> "mill").
# The pairs that recur wrong in the judged samples of v7 (STS/SICK block after-5, MNLI
# dev-matched and dev-mismatched premises; each wrong at least twice and never right as often): another act or thing
# ("seize opium" -> "clutch", "respond to calls" -> "react", "accomplish a transition" -> "fulfill", "scientific
# center" -> "middle", "manager" <-> "director", "task" -> "project", "earnings results" -> "consequences" or
# "effects" and back, "peaceful purposes" -> "intentions"). Not listed, right as often as wrong in those samples:
# "provide" -> "supply" (goods yes, "provide the basis" no), "help" -> "assist", "notice" -> "detect", "Finally," ->
# "Eventually,".
# Counted over every judged pair that v8 still makes (all earlier judged samples): pairs
# wrong at least three times and right less than 60% of the time, which lower the share of usable views more than
# the views they add are worth: "provide" -> "supply" (13 right, 10 wrong: "supply access", "supply me with cover",
# "guidance supplied by"), "notice" <-> "detect" (1 right, 7 wrong: "i've noticed that" -> "detected", "detect fraud"
# -> "notice"), "finally" -> "eventually" (3 and 3: "Finally, the report ..." lists a last point).
# The same count over the two blind rounds beside the rewrites rules (experiments/views_round/): "percentage" ->
# "percent" (a number, not a share: "exact percent"), "cite" -> "mention" ("cites sources", "citing ... as proof":
# attribution, not mention), "study" -> "analyze" ("studied dramatic art", "studying English": learning), "manner" ->
# "style" or "mode" ("the brutal manner of the mining"), "individual" -> "person" ("persons" beside companies).
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
