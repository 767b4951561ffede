"""Word classes of the rewrite rules: adverbs, adjectives and other words."""

from __future__ import annotations

from bsl_pipeline.pipeline.lexicon.word_classes.function_words import DETERMINERS
from bsl_pipeline.pipeline.lexicon.word_classes.numbers_and_time import ORDINALS

QUESTION_S = frozenset("how when".split())  # "How's it going?", "When's the next train?"
# what "it" is when it refers to nothing ("because it was raining")
WEATHER_WORDS = frozenset(
    "raining snowing pouring hailing drizzling storming dark light cold hot warm cool cooler warmer colder hotter "
    "sunny windy cloudy foggy rainy late early".split())
APPOSITION_STOP = frozenset("who whom whose which that where when while as if because he she it they we i you "
                             "him them us me".split())
IF_IDIOMS = frozenset("anything not so necessary possible any only ever need applicable appropriate "
                       "nothing".split())
DISCOURSE_ALONE = frozenset(("in response", "in exchange", "in return", "in turn"))  # "In response to X," moves
IMPERATIVE_NEXT = frozenset(DETERMINERS | {"me", "us", "him", "them", "it", "to", "out", "up", "down", "in", "on",
                                            "off", "away", "back", "sure", "yourself", "yourselves", "your"})
SPLIT_DEMONSTRATIVES = frozenset("this these those".split())  # "that" may open a clause of purpose ("so that")
REPORTED_OBJECT = frozenset("a an no of about to for in on at with by from".split())  # "reported no cases"
# verbs (lemmas) after which about/around may be their own preposition: "talk about 5 cases", "walked around 3 cones"
SELECTS_ABOUT = frozenset(
    "talk think know worry care hear ask learn say write read complain forget bring come joke speak argue dream "
    "tell laugh wonder feel go set inquire fret lie boast brag cry fight comment report agree disagree concern "
    "teach warn inform remind protest rave rant muse hesitate mess run turn look walk move travel get hang sit "
    "stand gather wrap spin revolve circle center centre build organize organise base float wander roam drive "
    "fly swim jump stroll chase follow push throw kick pass play shop mill poke fool horse lounge crowd cluster "
    "huddle bring sing write make do be".split())
NOT_BEFORE_MORE = frozenset("no not much far little any nothing even way rather some considerably significantly "
                             "substantially slightly none".split())
NEARLY_NEXT = frozenset("all every everyone everybody everything half twice always entirely double".split())
SUCH_AS_NOT_BEFORE = frozenset("this that these it to whether if when how why where what who which".split())
UPON_NOT_AFTER = frozenset("once come came comes coming hit hits hitting set sets setting look looks looked "
                            "looking close row page time times wave layer".split())
REFLEXIVES = frozenset("myself yourself himself herself itself ourselves yourselves themselves oneself".split())
HEDGES_BEFORE_DUE = frozenset("largely mainly partly partially primarily mostly probably possibly perhaps presumably "
                       "allegedly apparently reportedly chiefly solely entirely either".split())
FILLERS = frozenset("uh um er erm".split())
INTERJECTIONS = frozenset("well oh yeah yes no so okay ok right now".split())
# doubles that are grammar: "had had", "that that" ("I know that that is true"), "I do do it", "gave her her book",
# "not not true" (a double negation), "no no" and "there there" (said for effect)
GRAMMATICAL_DOUBLES = frozenset("had that do does did her not no there".split())
# repetitions that carry meaning: intensifiers, interjections and backchannels, reduplicatives, imperatives
MEANINGFUL_DOUBLES = frozenset(
    "very really so too much many far long way real super big little tiny wee ever never more most all "
    "yeah yes yep yup no nope right sure okay ok well oh ah aha ha haha he hee ho hah huh hm hmm mm mhm uh-huh um-hum "
    "huh-uh uh-uh um-um bye night hi hey wow yay boo tut tsk tisk chop choo knock bang boom beep bla blah yada "
    "yadda la cha pom tom yo mama papa dum dee tick tock ding dong ping pong bora pago walla sing baden thank "
    "thanks please come go wait stop hurry help look listen run quick fast slowly again like kind sort".split())
DIRECTIONAL = frozenset("transition transitions transitioning shift shifts progression evolution move moves moving "
                         "switch from journey commute migration".split())
NOT_HOW_TO = frozenset("be feel look seem sound appear smell taste compare fare rank measure stack know like love "
                        "mean stand come rate deserve dare".split())
ABSTRACT_ENDINGS = ("ion", "ions", "ment", "ments", "ence", "ences", "ance", "ances", "ness", "ity", "ism", "sis")
# past participles whose relative stays: "who is supposed to" (a duty, not a passive), "who is gone"
NO_REDUCTION = frozenset("supposed been gone got gotten".split())
# words before a noun after which a relative keeps "that" ("the only film that ...")
THAT_PREFERRED = ORDINALS | frozenset("all only same any every no each best worst least most very".split())
NATIONALITY_ENDINGS = ("an", "ese", "ish", "i", "ch", "ian")
# words before "will" after which it is a wish or a demand more than a forecast ("We hope all parties will ...")
WISH_WORDS = frozenset("hope hopes hoped hopeful hoping trust trusts wish wishes pray prays ensure ensures ensuring "
                       "insist insists insisted sure".split())
EVENT_ADJECTIVES = frozenset("injured wounded hurt stranded displaced charged accused shot".split())
PRESENT_BEFORE = frozenset({("set", "for"), ("poised", "for"), ("braced", "for"), ("bound", "for")})
NOT_CAPTION_WORDS = frozenset(
    "always usually often sometimes never rarely seldom every each daily now today yesterday tomorrow tonight "
    "currently still again already ever generally typically normally frequently regularly occasionally weekly "
    "nightly constantly habitually annually soon then when whenever while as who whom whose which that because "
    "if since until not no can could will would should may might must shall do does did has have had was were "
    "being been".split())
PLAY_NEXT = frozenset("with in on at along by near around together".split())
MODIFIER_DETS = frozenset("a an the his her their its two three four five some".split())
MARKET_MOVES = frozenset("higher lower up down mixed flat firmer weaker stronger".split())
NOT_OBJECT = frozenset("back up down out off away over on in into to for with at by from after as lower higher "
                        "ahead home".split())
POSSESSIVE_DETS = frozenset("the a an this that these those his her their my our your its some".split())
SUPERLATIVE_WORDS = frozenset("most least best worst first last biggest largest smallest highest lowest greatest "
                               "oldest newest top leading".split()) - {"first", "last", "top", "leading"}
OF_GOVERNORS = frozenset("one some all many most each none both several few any half".split())
NO_IDIOMS = frozenset("idea doubt way matter longer more one less sooner wonder end use point choice "
                       "good".split())
INSTITUTIONS = frozenset(
    "Navy Army Marines Marine Senate Congress House Supreme Court Secret Service Geological Survey Military "
    "Embassy Government Treasury Department Air Coast Census Federal Justice State Attorney President Ambassador "
    "Forces Special Postal Mint Capitol Constitution Security General Commission Council Parliament Assembly "
    "Agency Central Trade Secretary Food Energy Defense Defence Foreign Home Health Border Customs Office Bureau "
    "Atomic Human Refugee Children's Development Environment Environmental Olympic Fed Federal".split())
TAKES_US = frozenset("let let's help tell give join show send bring lead make take told gave helped showed "
                      "sent brought led made took".split())
NOT_BEFORE_MANY = frozenset("so too how as very the his her their its my our your these those great good "
                             "many not".split())
ALL_THE_FIXED = frozenset("same way more better worse less while rage time best rest world more".split())
# verbs whose past tense + "by" in a headline may be active, with "by" a preposition ("Obama stopped by a diner")
INTRANSITIVE_BY = frozenset("stand stop come go walk abide live swear fly sit stay rise fall grow "
                             "gain drop climb jump slip edge sail swing drift lie".split())
# "play" only with an instrument as its object ("A guitar is being played"; not "Soccer is being played")
INSTRUMENTS = frozenset(
    "guitar guitars piano pianos flute violin cello drum drums keyboard keyboards harp trumpet saxophone ukulele "
    "banjo harmonica accordion clarinet trombone tuba bass mandolin bagpipes xylophone instrument instruments "
    "organ horn".split())
# subjects whose quantifier or negation would change scope or meaning in the passive ("Every man is lifting a box")
SCOPE_WORDS = frozenset("every each all both no nobody none nothing noone any anybody anyone most many few "
                         "neither either only".split())
INTEREST_ADJECTIVES = frozenset("particular special great greater equal considerable some".split())
NOT_DEFINING = frozenset("can could may might must will would shall should as for of in by with to used usually "
                          "often especially esp also sometimes e.g i.e etc".split())
