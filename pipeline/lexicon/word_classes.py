"""The word classes of the `rewrites` method's rules (pipeline.augment.rewrite_rules): every word list a rule reads
is declared here once, named by what its words are or what they are for ("PLACE_PREPOSITIONS" are prepositions of
place, "PREPOSITIONS" all of them), so two rules that need the same class share it and two different classes never
share a name (tests/test_word_classes.py checks both). Lists are lower-case unless they hold names; a list that
only one guard uses says so in its comment or name."""

from __future__ import annotations


# -- function words: determiners, pronouns, prepositions, conjunctions, auxiliaries, negation, punctuation -------------
NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                "sixteen seventeen eighteen nineteen twenty").split()
DETERMINERS = frozenset("a an the this that these those his her their my our your its some several many few "
                        "one two three four five six seven eight nine ten".split())
INDEFINITE = frozenset("a an some several many two three four five six seven eight nine ten".split())
LOWER_FIRST = frozenset(w for w in DETERMINERS | {"he", "she", "it", "we", "they", "you", "there", "people",
                                                   "both", "all", "each", "every", "no", "most", "nobody",
                                                   "someone", "somebody", "everyone", "everybody", "something",
                                                   "everything", "nothing", "this", "that"} | set(NUMBER_WORDS))
PRONOUN_AUX = {  # pronoun -> auxiliaries it contracts with
    **{p: {"is", "has", "will", "would"} for p in ("he", "she", "it", "that", "there", "what", "who", "where",
                                                    "here")},
    **{p: {"are", "have", "will", "would"} for p in ("you", "we", "they")},
    "i": {"am", "have", "will", "would"},
}
AUX_CONTRACTED = {"is": "'s", "has": "'s", "am": "'m", "are": "'re", "have": "'ve", "will": "'ll", "would": "'d"}
NOT_CONTRACTED = {"is": "isn't", "are": "aren't", "was": "wasn't", "were": "weren't", "has": "hasn't",
                  "have": "haven't", "had": "hadn't", "do": "don't", "does": "doesn't", "did": "didn't",
                  "could": "couldn't", "would": "wouldn't", "should": "shouldn't", "will": "won't", "can": "can't",
                  "must": "mustn't"}
NOT_EXPANDED = {v: (k + " not" if k != "can" else "cannot") for k, v in NOT_CONTRACTED.items()}
SUBJECT_PRONOUNS = frozenset("i you he she it we they there".split())
PERSONAL_SUBJECTS = frozenset("i you he she it we they".split())
NOMINATIVE_PRONOUNS = frozenset("i he she we they".split())  # subject-only forms ("you", "it" are objects too)
WH_WORDS = frozenset("how what why when where who whom whose which".split())
AUX_BEFORE_PARTICIPLE = frozenset("been got gotten yet never already just always ever".split())
S_EXPANDABLE = frozenset("it he she that there here what where who".split())
# particles of phrasal verbs ("picking up a ball", "picked the ball up")
PARTICLES = frozenset("up down off on out away back over apart around in".split())
PLACE_PREPOSITIONS = frozenset("in on at near under behind beside inside outside beneath".split())
SUBORDINATORS = frozenset("because although while when after before until unless whereas since".split())
CONJUNCTION_MODIFIERS = frozenset("shortly soon right just long immediately only even especially mainly partly "
                                  "simply not ever well both so all precisely exactly mostly largely except "
                                  "and or but as than".split())
AUXILIARIES = frozenset("is are was were am be been has have had do does did will would can could shall should "
                        "may might must".split())
SELECTED_PREPOSITION = {  # -ing verbs whose place-like phrase is their complement ("tugging on a rope")
    "at": frozenset("looking staring glancing gazing pointing smiling laughing yelling shouting barking aiming "
                    "waving throwing peering grinning frowning screaming swinging kicking poking working "
                    "playing".split()),
    "on": frozenset("tugging pulling working relying depending focusing chewing blowing stepping knocking "
                    "pounding banging pressing pushing commenting insisting concentrating operating hanging "
                    "holding waiting playing putting talking speaking chatting texting calling".split()),
    "in": frozenset("participating engaging believing investing interested succeeding resulting dressed "
                    "dressing".split()),
}
THIRD_PERSON = frozenset("he she they him her his their them hers theirs".split())
# subject pronouns after an auxiliary: the auxiliary ends its clause ("whatever that is I smoke it") or is inverted
# ("Where would he be"), and takes no contraction
HUMAN_SUBJECT_PRONOUNS = PERSONAL_SUBJECTS - {"it"}  # not "it": "It, moreover, is possible to ..."
QUESTION_SUBJECTS = frozenset("i you he she it we they that this there".split())
CLAUSE_PRONOUNS = THIRD_PERSON | {"it", "its"}
CLOSING_QUOTES = frozenset("\" ” ' ’".split())
SPEAKER_DETERMINERS = frozenset("the a an his her their its our my".split())
MOVABLE_CLAUSE_CONJUNCTIONS = {  # first word(s) -> comma before the clause at the end
    ("because",): False, ("after",): False, ("before",): False, ("until",): False, ("when",): False,
    ("whenever",): False, ("once",): False, ("if",): False, ("unless",): False, ("since",): False,
    ("while",): False, ("as", "soon", "as"): False, ("as", "long", "as"): False, ("now", "that"): False,
    ("even", "if"): False, ("although",): True, ("though",): True, ("even", "though"): True, ("whereas",): True,
}
NEGATION_SCOPE = frozenset("because since when whenever after before once while".split())
ADVERBIAL_PREPOSITIONS = frozenset(
    "in on at under during after before since until throughout across outside inside near within despite by from for "
    "over".split())
SETTING_PREPOSITIONS = frozenset("in on at under throughout across outside inside near within".split())
TIME_ONLY_PREPOSITIONS = frozenset("by from for over".split())  # their phrase must be a time
DISCOURSE_OPENERS = (  # opening phrases (and their beginnings) that link to the text before or give a stance: not moved
    "in fact", "in addition", "in general", "in particular", "in short", "in contrast", "in comparison",
    "in other words", "in the meantime", "in any case", "in that case", "in this case", "in each case",
    "in this respect", "in that respect", "in this regard", "in that regard", "in the end", "in sum", "in conclusion",
    "in effect", "in essence", "in reality", "in truth", "in theory", "in practice", "in principle", "in retrospect",
    "in total", "in all", "in part", "in brief", "in summary",
    "in this sense", "in a sense", "in some ways", "in many ways", "in other respects", "in the first place",
    "in any event", "in order", "in the case", "in my", "in our", "in his view", "in her view", "in their view",
    "in his opinion", "in her opinion", "in their opinion", "in the opinion", "in the view", "in both cases",
    "in either case", "in the long run", "in the short run", "in the past", "in the future", "in time",
    "on the other hand", "on the one hand", "on the contrary", "on the upside", "on the downside", "on top",
    "on the whole", "on balance", "on the surface", "on the face", "on reflection", "on second thought",
    "at first", "at least", "at last", "at the same time", "at times", "at once", "at any rate", "at the moment",
    "at this point", "at that point", "at best", "at worst", "at most", "at the least", "at the outset",
    "after all", "before long", "for example", "for instance", "for one", "for now", "for this reason",
    "for that reason", "by contrast", "by the way", "by comparison", "by then", "by far", "by now", "by and large",
    "despite this", "despite that", "despite all", "under the circumstances", "under these circumstances",
    "within reason", "over time", "since then", "until then", "until now", "in the process", "in a case",
    "in one case", "in another case",
)
TIME_START = frozenset("last next this each every earlier later yesterday today tonight".split())
EMBEDDING_WORDS = frozenset("that which who whom whose where when whenever while because if unless until whether how "
                       "after before "
                       "why what whatever whoever although though whereas since once as lest so than "
                       "but yet nor".split())
THIRD_PERSON_ALL_FORMS = frozenset(THIRD_PERSON | {"it", "its", "himself", "herself", "itself", "themselves", "they",
                                                   "them"})
DISCOURSE_START = frozenset("so then however still thus hence therefore nor neither not only instead also "
                             "yet and but or meanwhile besides moreover indeed nevertheless nonetheless "
                             "otherwise rather too well others another".split())
BE_FORMS_NOT_M = frozenset("is are was were be been being am 's 're".split())
NEGATIONS = frozenset("not n't never no nobody nothing none neither nor cannot".split())
DANGLING_WORDS = frozenset("of to the a an and or in on at for with by from as than into onto about".split())
SPLIT_CONJUNCTIONS = frozenset(("and", "but", "so"))
SPLIT_DETERMINERS = frozenset(DETERMINERS - {"that"} | {"all", "both", "each", "every", "no", "most", "another",
                                                         "other", "such", "any"})
PRONOUN_DETERMINERS = frozenset("one some many most all both each several few another".split())  # "one is ..."
SPLIT_OPENERS = frozenset(set(ADVERBIAL_PREPOSITIONS) | {"if", "when", "whenever", "because", "although", "though",
                                                 "while",
                                                 "since", "as", "unless", "after", "before", "once", "until",
                                                 "whereas", "whether", "even", "not", "only", "either",
                                                 "neither", "with", "without", "like", "unlike", "upon", "to",
                                                 "then", "now", "here", "yesterday", "today", "tonight", "later",
                                                 "last", "next", "every", "each", "let", "please", "what", "how",
                                                 "why", "where", "who", "which", "whatever", "whoever", "just",
                                                 "yes", "no", "well", "oh", "also", "again", "sometimes", "often",
                                                 "usually", "once", "first", "finally", "suddenly", "instead",
                                                 "meanwhile", "however", "therefore", "thus", "hence", "of",
                                                 "about", "into", "through", "between", "among", "against",
                                                 "along", "around", "beyond", "toward", "towards", "except",
                                                 "regardless", "given", "considering", "according"})
SCOPING_CONJUNCTIONS = frozenset(SUBORDINATORS | {"as", "if", "once", "where", "whenever", "though", "wherever"})
OPEN_BRACKETS = {"(": ")", "[": "]"}
DOUBLE_QUOTES = ("\"", "“", "”")
CLAUSE_BREAK = frozenset(", ; : ( \" “ ‘ -".split())
SENTENCE_OPENERS = frozenset(". ! ? \" “ ‘ ( : ; -".split())
BE_FORMS = frozenset("is are was were be been being am 's 're 'm".split())
NUMBER_PREPOSITIONS = frozenset("of for at by to from in with within after before until since into on per than".split())
NOUN_PHRASE_STARTS = DETERMINERS | frozenset("him them me us you it each one another both all".split())
# guards of the discourse markers and the bureaucratic phrases
FINITE_BE = frozenset("is are was were am 's 're 'm".split())
LINKING_CONJUNCTIONS = frozenset("and but or so yet".split())
BE_CONTRACTED = frozenset("i'm you're we're they're he's she's it's that's there's who's".split())
OPENING_QUOTES = frozenset("\" ' “ ‘ «".split())
START_VERB_FORMS = frozenset("start starts started begin begins began begun continue continues continued".split())
PREPOSITION_WORDS = frozenset("amid amidst despite following after before during with without against among "
                                "amongst toward towards via upon like unlike given including excluding".split())
# words that start a clause or phrase again after a false start ("and uh, but", "he um, they")
RESTART_WORDS = frozenset("and but or so because if when then he she they we i it you that this there the a an "
                      "my your his her our their".split())
# words after which a phrase goes on ("your, uh, birth country"): the filler's two commas go with it
PHRASE_OPENERS = frozenset("the a an my your his her our their its this that these those of in on at to for with "
                            "from by".split())
# words after which "it"/"you" can only be a subject, so that "it it" is a stutter ("and it it really helped")
CLAUSE_STARTERS = frozenset("and but or so because if when that where like then since while as though although "
                             "before after until unless well oh yeah yes no um uh man cause".split())
ADVERB_PARTICLES = frozenset("in on up out off over down by through about around along back away".split())
LINKER_WORDS = frozenset("and or nor but by to after upon for in on of from into against".split())
LINK_OTHER_WAY = frozenset("and or nor by to after upon for".split())  # "and lots and lots", "by day by day"
BOUNDARY_WORDS = frozenset("in on at over for with from to by since after during that which who whose where "
                            "when as than because while amid against about".split())
DEFINITE_AND_POSSESSIVE_DETERMINERS = frozenset("the a an his her their its our my your".split())
PRONOUN_ADJECTIVES = frozenset("sorry certain confident convinced happy".split())  # "that" dropped before "he"...
OBJECT_PRONOUNS = frozenset("me him her us them you".split())
FINITE_AUX = frozenset("is are was were am has have had do does did will would can could shall should may might "
                       "must".split()) | frozenset(NOT_CONTRACTED.values())
CLAUSE_DETERMINERS = (DETERMINERS - {"that"}) | frozenset("no every each any all both most".split())
# nouns that take a "that"-clause of their own ("the fact that he left"): their "that" is no relative pronoun
CLAUSE_NOUNS = frozenset(
    "fact idea notion claim belief news evidence possibility hope fear view sense report argument assumption "
    "chance likelihood suggestion conclusion feeling impression thought proof sign indication rumor rumour "
    "statement promise threat warning doubt certainty assurance guarantee requirement condition recommendation "
    "proposal finding principle theory hypothesis allegation accusation concern danger risk worry knowledge "
    "awareness understanding realization realisation expectation confidence insistence demand decision ruling "
    "message observation point reminder acknowledgment acknowledgement admission announcement assertion "
    "confirmation contention conviction hint implication insight lesson perception premise presumption "
    "prediction probability reassurance recognition revelation speculation supposition suspicion belief "
    "complaint charge explanation excuse evidence reason so such way extent degree".split())
QUANTIFIERS = frozenset("many much few some one all several others lots lot most more less plenty none".split())
# pronouns that take a relative clause placed after a later noun ("someone else at another time that may ...")
PERSON_PRONOUNS = frozenset("someone anyone everyone somebody anybody everybody nobody those people".split())
# pronouns a passive relative reduces after ("those who were killed" -> "those killed")
PASSIVE_PRONOUNS = frozenset("something anything everything someone anyone everyone somebody anybody everybody "
                             "those".split())
PREPOSITIONS = frozenset("in on at for with from about into by during to of over under through after before "
                         "against among between without within around across along behind near upon onto "
                         "toward towards since until like".split())
SINGULAR_DETERMINERS = frozenset("a an this that each every another".split())
PLURAL_DETERMINERS = frozenset("these those many several both few two three four five six seven eight nine ten "
                               "all most".split())
SUBJECT_DETERMINERS = frozenset("the his her their my our your its no some any".split()) | SINGULAR_DETERMINERS \
    | PLURAL_DETERMINERS
PRONOUN_BE = {"i": "am", "he": "is", "she": "is", "it": "is", "this": "is", "we": "are", "they": "are"}
# words after which a clause (and its subject) starts: "He said the plan will ...", "... that the city will ..."
CLAUSE_OPENERS = frozenset(", ; : \" “ ( but that".split())
PRONOUNS_AND_DEMONSTRATIVES = frozenset(
    "i you he she it we they me him her us them this that these those who what which my our your his its their "
    "there".split())
CAPTION_DETERMINERS = frozenset("a an the one two three four five six seven eight nine ten some several".split())
CAPTION_PLURAL_DETERMINERS = frozenset("two three four five six seven eight nine ten some several".split())
CAPTION_VERB_PARTICLES = frozenset("up down out off on in over around away back along across through into onto".split())
OBJECT_START = frozenset("at dozens hundreds thousands scores".split())
BOUNDARY_PUNCT = frozenset(". , ; : ! ? )".split())
COORDINATORS = frozenset("and but or so then".split())
OBJECT_BOUNDARY_PREPOSITIONS = frozenset(
    "in on at to from with for by into onto after before during since until through across around near under over "
    "behind beside inside outside toward towards without".split())
OBJECT_ONLY_PRONOUNS = frozenset("me him her us them".split())
PRONOUNS_AND_INDEFINITES = frozenset(
    "i you he she it we they me him her us them one someone somebody something anyone anybody anything everyone "
    "everybody everything nobody nothing this that these those".split())
DIRECTION_PREPOSITIONS = frozenset("to into onto toward towards through across over from".split())
BE_NOT_POSITIVE = {"isn't": "is", "aren't": "are", "wasn't": "was", "weren't": "were"}
BE_NEGATIVE = {v: k for k, v in BE_NOT_POSITIVE.items()}
DO_FORM_TAGS = {"does": "VBZ", "do": "VBP", "did": "VBD"}
BARE_NOUN_PREPOSITIONS = frozenset("in on at to from for of with by into against over across throughout within "
                                    "between toward towards".split())
NAME_BOUNDARY_PREPOSITIONS = frozenset(
    "in on at to from for of with by into against between across over toward towards throughout within outside "
    "inside and or".split())
CLAUSE_SIGNAL_WORDS = frozenset(
    "who whom whose which that where when while because if although as says said and or but is are was were be been "
    "has have had".split())
BE_TENSES = {"is": "present", "are": "present", "was": "past", "were": "past"}
BE_NEGATED_TENSES = {"isn't": "present", "aren't": "present", "wasn't": "past", "weren't": "past"}
PERFECT_TENSES = {"has": "perfect", "have": "perfect", "had": "pluperfect"}
PERFECT_NEGATED_TENSES = {"hasn't": "perfect", "haven't": "perfect", "hadn't": "pluperfect"}
NOT_OR_NEVER = frozenset({"not", "never"})
LEADING_CONJUNCTIONS = frozenset("but and so yet".split())
SUBJECT_TO_OBJECT_PRONOUN = {"i": "me", "he": "him", "she": "her", "we": "us", "they": "them", "it": "it", "you": "you",
                     "this": "this", "that": "that"}
OBJECT_TO_SUBJECT_PRONOUN = {"me": "I", "him": "he", "her": "she", "us": "we", "them": "they", "it": "it", "you": "you"}
PLURAL_PRONOUNS = frozenset({"we", "they", "you", "i"})  # take "have" / the plain present
AGENT_DETERMINERS = DETERMINERS | frozenset("no every each any all both another other such".split())
SUBJECT_BOUNDARY_PREPOSITIONS = frozenset("in on at from with for near under behind beside inside outside without into "
                          "across over".split())
REFUSED_PUNCT = frozenset("? \" “ ” ( ) ; : [ ] - -- – — /".split())
# the auxiliaries that may stand before a passive's participle ("being" too; "am" takes no caption)
AUXILIARY_WORDS = (AUXILIARIES - {"am"}) | {"being"}
CAPTION_OBJECT_DETERMINERS = frozenset(
    "a an the some one two three four five six seven eight nine ten another this that these those several".split())
OBJECT_PLURAL_DETERMINERS = frozenset("two three four five six seven eight nine ten these those several".split())
OBJECT_SINGULAR_DETERMINERS = frozenset("a an one another this that".split())
TAIL_PREPOSITIONS = frozenset("in on at into onto with to from across through over under near inside along "
                               "around behind beside off against onto toward towards down up".split())
LOCATIVE_PREPOSITIONS = frozenset("at on in near beside behind above below beneath under inside outside along across "
                                "beyond opposite atop around among within between".split())
INNER_PREPOSITIONS = LOCATIVE_PREPOSITIONS | frozenset("of from to off over past by".split())
TWO_WORD_PREPOSITIONS = frozenset({("next", "to"), ("close", "to")})  # "Next to the church is ..."
PHRASE_DETERMINERS = frozenset("the a an this that these those its his her their our your my one each either "
                                "every".split()) | frozenset(NUMBER_WORDS)
INVERSION_SUBJECT_DETERMINERS = frozenset(
    "the a an this these those one two three four five six seven eight nine ten some several many another numerous "
    "dozens hundreds".split())
PERSONAL_PRONOUNS_AND_THERE = frozenset("i you he she it we they me him us them there here".split())
CLAUSE_OPENING_WORDS = frozenset("which that who whom whose where when while because if although though whether "
                          "than".split())
PUNCTUATION = frozenset(",;:()[]\"'“”‘’-–—/")
NEGATING_ADVERBS = frozenset("not n't never no hardly barely".split())
PREPOSITIONS_AFTER_PARTICIPLE = frozenset(
    "by in at on with for from to during after before over since until into across through under within without "
    "throughout against among following near as".split())
NOUN_OPENERS = frozenset("a an the".split())


# -- numbers, units and time -------------------------------------------------------------------------------------------
ORDINALS = frozenset("first second third fourth fifth last former latter next previous".split())
UNITS = frozenset("am pm a.m p.m km kg mph mm cm ft lb lbs oz mg ml min mins hr hrs sec secs st nd rd th m g k x "
                  "mb gb kb tb yd yds mi in percent per pc pct points point".split())
WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
MONTHS = frozenset("january february march april may june july august september october november december "
                   "jan feb mar apr jun jul aug sep sept oct nov dec".split())
TIME_UNITS = frozenset("week month year weekend night morning afternoon evening season decade century summer "
                       "winter spring autumn fall quarter".split())
PARTS_OF_DAY = frozenset("morning afternoon evening night".split())
TIME_NOUNS = frozenset("time times day days moment moments year years point period age era night morning week "
                       "month hour minute instance case cases place places way".split())
TIME_PHRASE_WORDS = frozenset(WEEKDAYS | MONTHS | TIME_UNITS | {"yesterday", "today", "tonight", "ago", "weeks",
                                                          "months",
                                                          "years", "days", "decades", "centuries", "hours",
                                                          "minutes", "nights", "mornings", "weekends", "seasons",
                                                          "quarters", "summers", "winters", "trading", "session",
                                                          "period", "era", "times", "time", "day", "hour",
                                                          "minute", "moment", "midday", "noon", "midnight",
                                                          "dawn", "dusk", "1990s", "1980s", "1970s", "1960s",
                                                          "meeting", "war", "election", "game", "match", "visit",
                                                          "trip", "talks"})
COUNT_WORDS = frozenset(NUMBER_WORDS[2:]) | frozenset(
    "thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands million millions billion "
    "billions dozen dozens".split())
A_AMOUNTS = frozenset("dozen hundred thousand million billion third quarter fifth tenth half".split())
MAGNITUDES = frozenset("hundred thousand million billion trillion".split())
MEASURES = UNITS | frozenset(
    "% percent minutes minute hours hour days day weeks week months month years year decades miles mile feet foot "
    "metres meters metre meter kilometres kilometers inches inch pounds pound kilograms kilos tons tonnes dollars "
    "cents euros yen points times degrees acres hectares square cubic million billion thousand hundred o'clock "
    "yards gallons litres liters seconds".split())
TIME_OF_DAY_AND_YEAR_WORDS = frozenset(
    "noon midnight dawn dusk morning evening afternoon night day today tomorrow yesterday spring summer autumn winter "
    "fall".split()) | WEEKDAYS | MONTHS
TIME_WORDS = WEEKDAYS | MONTHS | TIME_UNITS | PARTS_OF_DAY | frozenset(
    "today tonight yesterday tomorrow christmas easter now then once later earlier soon".split())
# words that make a "will" habitual or generic ("on Thursday nights i will watch", "will usually be")
HABITUAL = frozenset("usually always often sometimes generally typically normally whenever every nights "
                     "mornings evenings weekends days tend tends".split())
NEITHER_NUMBER = frozenset("number lot couple pair majority minority host handful rest staff crew bulk series "
                            "total personnel family team government".split())
TIME_AFTER = frozenset("yesterday today tonight tomorrow next last ago this week weekend month year morning evening "
                        "night earlier later".split())
AFTER_AGE = frozenset("after in on of from following at amid amidst while when".split())
TIME_ADVERBS_IN_VERB_GROUP = frozenset(
    "later first often soon still recently eventually originally subsequently".split())
# first words after "by" that start no agent
NO_AGENT = frozenset(
    "then now far hand car bus train air plane boat ship sea land foot ferry taxi bicycle bike subway metro tram "
    "coach rail road mail post email e-mail phone telephone fax way accident mistake chance design default nature "
    "definition force name law birth marriage heart means virtue half all most much some none night day noon "
    "midnight tomorrow today tonight "
    "himself herself itself themselves myself yourself ourselves yourselves oneself about around nearly almost "
    "more less over under up some at least comparison contrast".split()) | WEEKDAYS | MONTHS
NO_AGENT_HEADS = frozenset(
    "way end time means margin vote votes percent percentage factor points point goals goal runs seats strokes lengths "
    "inches feet metres meters miles degrees hand hour minute second day week "
    "month year decade century dozen hundreds thousands millions half third quarter fraction amount number "
    "mid-1800s mid-1900s standards standard".split()) | TIME_UNITS | WEEKDAYS | MONTHS
TIME_TAILS = frozenset("yesterday today tonight".split())


# -- verbs and participles ---------------------------------------------------------------------------------------------
# verb lemma -> the particles with which it is a transitive phrasal verb in its usual sense, the particle free to
# stand before or after a short object
PHRASAL_VERBS: dict[str, frozenset[str]] = {verb: frozenset(particles.split()) for verb, particles in {
    "pick": "up out", "put": "on down away out back off", "take": "off out away down back apart", "turn": "on off",
    "switch": "on off", "shut": "down off up", "hold": "up", "set": "up", "blow": "out up", "fill": "out up",
    "write": "down", "cut": "down off up", "call": "off", "give": "away back out", "hand": "out over",
    "point": "out", "carry": "out", "figure": "out", "find": "out", "work": "out", "rule": "out", "pay": "off back",
    "tear": "down up", "knock": "down over", "break": "down", "bring": "back up down", "throw": "away out",
    "wipe": "off out", "clean": "up", "tidy": "up", "lock": "up", "close": "down",
    "try": "on out", "zip": "up", "button": "up", "tie": "up", "roll": "up", "fold": "up", "lift": "up",
    "pull": "out off", "push": "over", "sort": "out", "hang": "up", "wrap": "up", "lay": "off down",
    "fix": "up", "dig": "up", "sweep": "up", "mop": "up", "wash": "off", "rinse": "off", "scrape": "off",
    "brush": "off", "cross": "out", "print": "out", "read": "out", "copy": "down", "note": "down", "back": "up",
    "sell": "off", "buy": "out", "wear": "out", "use": "up", "eat": "up", "drink": "up", "gobble": "up",
    "burn": "down", "chop": "down up", "pass": "out around", "send": "back out",
    "keep": "up", "let": "out", "leave": "out", "shoot": "down", "gun": "down", "water": "down", "play": "down",
    "make": "out", "tone": "down", "slow": "down", "calm": "down", "cheer": "up", "wake": "up", "sum": "up",
    "stir": "up", "beat": "up", "mix": "up", "open": "up", "plug": "in",
}.items()}
QUESTION_VERBS = frozenset("know knows knew known ask asks asked asking wonder wondered wonders see saw seen tell "
                           "told decide decided remember remembered sure unsure check checked unclear clear "
                           "whether doubt question find found learn learned show shows showed determine "
                           "determined say said".split())
AFTER_VERBS = frozenset("look looks looked looking name named names take takes took taking go goes went going "
                        "chase chased chasing run runs ran running come comes came coming ask asks asked "
                        "asking".split())
#: Verbs after which two surnames are cited authors, whose order is part of the reference.
CITING_VERBS = frozenset(
    "say says said argue argues argued write writes wrote find finds found report reports reported suggest suggests "
    "suggested note notes noted show shows showed conclude concludes concluded estimate estimates estimated".split())
# verbs of saying and thinking: what follows them is an embedded clause
SAYING_VERBS = frozenset("say says said tell tells told think thinks thought believe believes believed know knows knew "
                    "claim claims claimed mean means meant argue argues argued report reports reported feel feels "
                    "felt hope hopes hoped suggest suggests suggested show shows showed find finds found announce "
                    "announces announced insist insists insisted add adds added expect expects expected realize "
                    "realizes realized suppose supposes supposed guess guesses guessed admit admits admitted warn "
                    "warns warned note notes noted".split())
# verbs of posture and waiting, after which "at" names a place ("sitting at a table"); after others it is the verb's
AT_PLACE_VERBS = frozenset("sitting standing lying waiting kneeling sleeping resting posing gathering "
                           "gathered".split())
SAY_TELL_FORMS = frozenset("said says say told tells".split())
# -ing verbs that in a caption often describe their noun (a reduced relative) before the verb of the action
ATTRIBUTE_ING = frozenset("wearing holding carrying sporting donning having bearing clutching grasping gripping "
                           "toting using dressed".split())
REPORTING_VERBS = frozenset(QUESTION_VERBS | set(
    "say says tell tells think thinks thought believe believes believed claim claims claimed report reports "
    "reported announce announces announced add adds added note notes noted argue argues argued state states "
    "stated warn warns warned insist insists insisted suggest suggests suggested expect expects expected hope "
    "hopes hoped fear fears feared feel feels felt guess suppose supposed assume assumed realize realized realise "
    "realised agree agreed agrees decides write writes wrote written estimate estimates estimated predict "
    "predicts predicted acknowledge acknowledged admit admits admitted deny denies denied confirm confirms "
    "confirmed explain explains explained indicate indicates indicated conclude concluded promise promised "
    "promises recommend recommended mean means meant seem seems seemed appear appears appeared hear heard "
    "understand understood imagine imagined notice noticed according reckon figured like want wanted wants "
    "prefer wish wished".split()))
#: Verbs of rising and falling: "on" + a noun after them reads as the cause ("shares fell on the news").
CHANGE_VERBS = frozenset("fall rise drop climb gain slip jump surge soar tumble plunge slide dip ease advance "
                          "decline rally edge sink lose".split())
SUBJECT_ADVERBS = frozenset("also still just then never always often only even already really soon later "
                             "now usually sometimes quickly immediately finally actually probably".split())
QUANTITY_VERBS = frozenset(
    "cost take last weigh earn employ kill injure wound rise fall drop gain lose raise pay spend sell buy total "
    "reach number hold house estimate count measure grow climb increase decrease decline fell jump slip slide "
    "surge soar plunge tumble shed add cut owe save contain include attract draw carry serve feed produce "
    "record score need require receive".split())
MOTION_VERBS = frozenset(  # lemmas after which "over"/"under" + a number would read as a place or a span
    "jump climb leap step hop vault fly roll spread span stretch extend reach swim dive crawl drive pass go".split())
ORDERING_VERBS = frozenset("put set get keep arrange place line sort list rank number restore bring file "
                            "order".split())
OFF_VERBS = frozenset("kick face take set show pay log sign tip cut lay turn put call write shut drop finish brush "
                       "shake fend ward head sound doze nod dash rip tick tee lift blast take cool level round "
                       "start kick back fight".split())
# verbs (lemmas) that take a to-infinitive of their own: "arrange to be parallel" is no purpose
TO_VERBS = frozenset("arrange plan want try ask agree decide promise choose manage fail intend hope expect need "
                      "seek offer refuse prepare learn tend appear seem wish mean pretend claim remember forget "
                      "begin start continue like love hate prefer help dare vow threaten attempt aim".split())
STATIVE_VERBS = frozenset(
    "be know understand realize realise seem appear believe like love hate want need own belong exist recognize "
    "recognise notice mean matter resemble consist contain deserve suspect doubt suppose see hear sense remember "
    "forget wish prefer owe cost equal include lack possess look wonder regret try stop have get".split())
DOING_VERBS = frozenset("get make find fix remove install change convert set use create add stop prevent improve clean "
                   "calculate learn become start open turn connect delete download access check determine "
                   "increase reduce write build keep avoid apply unlock reset update upgrade transfer cook grow "
                   "train teach repair replace enable disable configure run print save edit copy move register "
                   "cancel contact apply obtain prepare test identify choose select solve type".split())
SAY_ADJECTIVES = frozenset("sure glad afraid".split())
# words a reduced passive relative's participle may go on with ("used as", "placed above", "made up of")
PARTICIPLE_COMPLEMENT = frozenset("as above below beneath beside inside outside throughout via per off out up down "
                                  "beyond amid underneath".split())
GAP_ADVERBS = frozenset("yesterday today tonight now then before again too also ever recently later there here "
                        "every last this that once twice already well so".split())
ADVERBS_IN_VERB_GROUP = frozenset("not never always just already ever really also still actually often usually "
                                  "even only probably".split())
NO_VERB_AFTER_TO = frozenset("near lower higher further like down up back out off better worse close even right "
                             "low high record top double".split())
FUTURE_ADVERBS = frozenset("not never also still probably certainly definitely surely only just".split())
AFTER_PARTICIPLE = frozenset("in at on by of with for from over after during into near amid amidst outside inside "
                              "under as to across against following before since without behind through until among "
                              "about toward towards onto upon despite within".split())
PREDICATIVE = frozenset("dead guilty alive safe missing unconscious innocent liable responsible unfit fit "
                         "ineligible".split())
PREDICATIVE_VERBS = frozenset("find declare pronounce presume fear leave report rule confirm shoot stab beat".split())
# Verbs whose past tense in a headline is active (intransitive, or with a preposition of their own).
ACTIVE_PAST = frozenset(
    "die happen occur arrive return rally climb jump surge soar slip slide plunge tumble drop gain edge ease dip "
    "decline advance retreat recover rebound close open end finish start begin resign retire collapse crash "
    "explode erupt increase decrease improve worsen stall fail succeed struggle protest march agree disagree "
    "appear disappear emerge land depart move shift turn stay remain live work play compete win lose score trail "
    "lead wait talk speak testify respond react campaign celebrate mourn plead apologize apologise complain vow "
    "pledge promise threaten refuse decide plan hope try want seek say tell stand sit fight meet leave flee stick "
    "sleep rise fall grow go come run fly walk travel head vote surrender escape survive suffer sink fluctuate "
    "hover slump sag stumble spike skyrocket dive bounce expand shrink contract accelerate slow continue persist "
    "last stop halt warn call push ask opt apply search care account pay prepare bid lobby argue pray settle aim "
    "look point rely focus insist comment reflect deal side clash break listen refer object belong contribute "
    "resort switch add amount admit confess consent succumb bow yield benefit result stem withdraw graduate differ "
    "cash hit strike lash step back pull sign team join partner merge crack weigh thank urge tweet post write "
    "visit act serve rule govern preside testify reply answer claim insist demand note express announce report "
    "reveal share order allow let keep hold agree prevail triumph cheer boo laugh cry weep smile shout scream "
    "burn melt freeze boil spill leak flow flood pour shine glow snow rain storm blow shake tremble quake "
    "swing roll slide glide drift float sail cruise ride drive race rush hurry dash sprint storm invade "
    "enter exit cross pass approach near reach hit slam blast slam vote veto double triple halve soften harden "
    "steady stabilize stabilise recoup reopen resume restart reunite divorce marry wed date engage elope "
    "pause quit split part separate unite".split())
# Participles whose headline use is a state (present tense) or unclear: refused.
STATIVE_PARTICIPLES = frozenset(
    "linked tied based divided split involved gripped locked stuck caught known seen considered regarded thought "
    "believed rumoured rumored owned backed supported opposed favored favoured loved hated wanted needed required "
    "run led aimed designed intended meant made named located situated surrounded dominated controlled governed "
    "ruled set poised slated scheduled tipped due bound supposed determined committed concerned worried interested "
    "engaged faced confronted challenged threatened plagued hampered hindered haunted dogged troubled shaken "
    "bogged mired embroiled enmeshed entangled trapped closed opened banned allowed permitted said deemed "
    "expected predicted projected forecast feared".split())
# Participles that take "to" + a verb in the passive, and whether the tense is then the present.
TO_VERB_PASSIVE = {**{w: "past" for w in "forced asked told urged ordered allowed permitted advised instructed "
                                           "invited encouraged required pressed pressured compelled obliged "
                                           "persuaded authorized authorised cleared chosen picked selected elected "
                                           "appointed hired tasked".split()},
                    **{w: "present" for w in "expected set poised slated scheduled tipped said believed thought "
                                             "rumoured rumored feared likely due bound supposed".split()}}
OF_PARTICIPLES = frozenset("convicted accused cleared acquitted stripped robbed deprived suspected informed warned "
                             "notified relieved absolved".split())
HEADLINE_VERBS = frozenset("goes says comes gets makes takes faces seeks wins loses dies remains returns leaves "
                             "calls hits backs joins plans vows warns urges looks wants gives sets".split())
# Verbs whose simple present reads as a state or a habit ("He works at a bank").
NOT_CAPTION_VERBS = frozenset(
    "be have do contain seem appear know own belong mean resemble consist cost weigh need want like love hate "
    "prefer wish believe think understand remember forget include involve lack deserve matter depend exist live "
    "work wear sell teach study possess equal fit suit require owe sound smell taste feel see hear notice "
    "recognize recognise go die leave drive smoke drink get become remain stay keep seem tend plan hope expect "
    "intend try begin start continue use".split())
AFTER_VERB = frozenset("his her its their another beneath below above beside between next".split())
#: Verbs of a single event whose headline present reports a completed one; their -s form is no noun (a plural noun
#: would make "Syria attacks kill 10" read "Syria has attacked ...").
EVENT_VERBS = frozenset(
    "quit resign die approve retake announce unveil appoint elect acquire agree confirm deny admit seize free lose "
    "cancel suspend adopt execute expel complete clinch secure dismiss reveal discover abandon abolish accept "
    "approve arrive collapse concede condemn crash declare defend defy delay deliver demolish deport destroy detain "
    "disband dissolve donate endorse escape evacuate expire extradite finalize finalise ignite impose inaugurate "
    "injure kidnap legalize legalise marry murder nominate overturn pardon postpone purchase ratify rebuff receive "
    "recover rescue retire retrieve revoke sue surrender survive unveil uphold vanish withdraw".split())
#: Transitive verbs of a single event whose headline present with an object reports a completed one; their -s form is
#: often a noun too ("kills", "wins"), so the object that must follow tells the verb. `EVENT_VERBS` count too after
#: a plural subject (`headline_perfect` takes a singular one).
OBJECT_VERBS = frozenset(
    "kill hit strike win launch name bar jail sell buy wound reach notch claim drop raise cut beat arrest free "
    "sign release ban reject lift slash hike file post break score sack capture shoot storm rock end halt block "
    "charge convict sentence award open close lower widen unveil seal clinch bomb raid fine sue hold "
    "overtake pass".split())
#: Headline verbs in -s that may precede a noun which is also a verb of `OBJECT_VERBS` ("court issues arrest warrant").
AMBIGUOUS_SUBJECT_VERBS = HEADLINE_VERBS | frozenset(
    "issues orders demands seeks urges eyes sees sets lifts announces approves rejects faces backs plans offers "
    "considers proposes mulls weighs hails slams blames vows pledges promises readies prepares pushes".split())
DIE_FORMS = frozenset("die dies died".split())
DATIVE_VERBS = frozenset("give send hand lend sell show offer pass throw bring teach tell".split())
NO_ANY_VERBS = frozenset("have make find see show".split())
SENTENCE_ADVERBS = ("however", "therefore", "nevertheless", "nonetheless", "moreover", "furthermore", "meanwhile",
           # comments on the whole statement, said as well after its subject
           "unfortunately", "fortunately", "sadly", "luckily", "surprisingly", "interestingly", "apparently",
           "obviously")
# focus and degree adverbs between the auxiliary and the participle: their scope changes in the active ("is only
# faced by today's buyers" -> "Today's buyers only face")
FOCUS_ADVERBS = frozenset("only even just also mainly largely mostly partly merely simply solely primarily chiefly "
                           "especially particularly exclusively purely partially entirely wholly".split())
# sentence adverbs that may open a sentence before its subject ("Unfortunately operators haven't been aided by ...")
OPENING_ADVERBS = frozenset("however meanwhile perhaps maybe now then thus also still today yesterday here there "
                             "instead indeed nevertheless nonetheless moreover furthermore besides otherwise hence "
                             "therefore again finally ultimately alas".split())
# verbs of a relation between two terms: the active lacks the second term ("X is separated by a gap" -> "A gap
# separates X")
RELATION_PARTICIPLES = frozenset("separated connected joined linked divided united split".split())
# participles that are adjectives or states with "by", or position verbs whose "by" may be "beside"
REFUSED_PARTICIPLES = frozenset(
    "amused interested pleased surprised shocked concerned involved worried tired bored excited disappointed "
    "satisfied delighted thrilled frightened scared terrified puzzled confused annoyed embarrassed fascinated "
    "overwhelmed stunned alarmed upset amazed astonished intrigued horrified disgusted irritated bothered troubled "
    "saddened dismayed encouraged discouraged relieved touched moved taken "
    "known based located situated married made composed dressed "
    "parked gathered seated placed positioned stationed stood set laid left lined stacked hung hidden kept "
    "lost reached increased reduced decreased raised lowered cut dropped rose fell multiplied divided exceeded "
    "outnumbered".split())
# verbs with an "of" complement ("accused of"): an "of" after their agent may belong to the verb
OF_VERBS = frozenset("accuse convict clear suspect strip rob inform warn deprive acquit notify remind rid relieve "
                      "cure assure persuade convince".split())
# verbs of captions whose object takes a natural progressive passive ("A potato is being sliced by a man"); left out
# are states and perception (have, wear, watch, look at, face, contain), light verbs and idioms (take a picture or a
# break, make a face, do or perform a trick, give an interview, run a race), verbs whose object is a place, a path
# or a goal (cross the street, enter, exit, visit, climb, approach, reach: "The runway is approached by a white
# airplane"), and verbs that are mostly intransitive in captions (walk on, swim)
CAPTION_VERBS = frozenset(
    "slice cut chop peel dice mince grate carve shred slash stab saw chip "
    "cook fry boil grill roast bake season stir mix whisk beat knead crack pour spread sprinkle coat butter grease "
    "drain squeeze mash rinse wash clean scrub wipe sweep vacuum mop dry fold unfold wrap unwrap "
    "eat devour chew drink lick bite sniff smell gnaw "
    "carry push pull drag lift lower throw toss catch kick hit punch hurl fetch retrieve grab chase attack smash "
    "break open close fill empty load unload drop bounce swing twirl juggle spin roll "
    "drive ride row paddle sail fly park steer "
    "play read write draw paint sing strum sign photograph "
    "feed pet stroke hug kiss brush comb scratch pat groom walk herd milk shear bathe hold "
    "tie untie fix repair drill hammer screw build dismantle disassemble assemble sew knit weave plant dig water "
    "mow rake shovel erase spray pack unpack operate fire reload aim dunk launch whack tease scold restrain "
    "bandage massage examine inspect measure sharpen shave dump discard remove add place put "
    "fill smoke light burn chase follow tackle help sell steal hand grab shake".split())
# participles that lemminflect gives in a rarer form
CAPTION_PARTICIPLES = {"saw": "sawed", "mow": "mowed", "shear": "sheared", "light": "lit", "smell": "smelled",
                        "knit": "knitted", "spill": "spilled"}
WITH_VERBS = frozenset("fill load spray coat cover cut slice chop dice carve stab hit stir mix whisk beat feed "
                        "water wash clean wipe scrub rinse sprinkle season butter grease paint draw write".split())
PLACE_ADVERBS = frozenset("nearby opposite inside outside below above beyond beneath behind upstairs downstairs "
                           "overhead".split())
LOCATIVE_VERBS = frozenset("is are was were stands stand stood lies lie lay sits sit sat rises rise rose hangs hang "
                            "hung towers tower towered looms loom loomed stretches stretch stretched".split())
SINGULAR_VERBS = frozenset("is was stands lies sits rises hangs towers looms stretches".split())
# adverbs that may move from after the participle to before it ("was approved unanimously" -> "was unanimously
# approved"); not the degree adverbs of extent or focus (largely, mainly, mostly, partly, partially, fully, entirely,
# completely, greatly, highly, heavily, widely), which may modify the phrase after them ("have invested largely at
# the school", "is left largely in the hands of ...") and change sense when moved
ADVERBS_BEFORE_PARTICIPLE = frozenset(
    "quickly slowly rapidly gradually steadily dramatically sharply severely badly seriously slightly "
    "carefully closely recently previously immediately suddenly successfully unanimously narrowly properly correctly "
    "incorrectly poorly thoroughly extensively substantially significantly considerably briefly "
    "temporarily permanently officially formally publicly privately secretly independently jointly strongly "
    "firmly tightly repeatedly regularly frequently routinely automatically manually randomly deliberately "
    "intentionally accidentally mistakenly wrongly unfairly fairly brutally violently fatally critically gravely "
    "mortally lightly moderately easily readily safely securely neatly beautifully "
    "elegantly lavishly richly warmly enthusiastically eagerly reluctantly hastily abruptly unexpectedly "
    "illegally legally effectively efficiently adequately".split())
# adverbs that may move from before the participle to after it ("is locally grown" -> "is grown locally"): manner
# and time adverbs that read as well at the end; not degree adverbs ("is widely known", "is closely related",
# "are badly polluted", "have substantially increased" read worse after), nor "officially", "strongly", "publicly"
# ("are designated officially for nudism", "are encouraged strongly to comply")
ADVERBS_AFTER_PARTICIPLE = frozenset(
    "quickly slowly rapidly carefully recently previously successfully unanimously properly correctly incorrectly "
    "thoroughly temporarily permanently secretly independently jointly repeatedly regularly routinely automatically "
    "manually randomly deliberately intentionally accidentally wrongly brutally violently locally".split())
BEFORE_PARTICIPLE = frozenset("is are was were be been being am has have had 's 're".split())


# -- nouns, names and places -------------------------------------------------------------------------------------------
# (abbreviation as tokenized, without its final period; whether it is written with a period; full form; kind)
ABBREVIATIONS: tuple[tuple[str, bool, str, str], ...] = (
    ("U.S", True, "United States", "country"), ("US", False, "United States", "country"),
    ("U.K", True, "United Kingdom", "country"), ("UK", False, "United Kingdom", "country"),
    ("U.N", True, "United Nations", "organisation"), ("UN", False, "United Nations", "organisation"),
    ("EU", False, "European Union", "organisation"),
    ("Jan", True, "January", "month"), ("Feb", True, "February", "month"), ("Aug", True, "August", "month"),
    ("Sept", True, "September", "month"), ("Sep", True, "September", "month"), ("Oct", True, "October", "month"),
    ("Nov", True, "November", "month"), ("Dec", True, "December", "month"),
    ("Gov", True, "Governor", "title"), ("Sen", True, "Senator", "title"), ("Rep", True, "Representative", "title"),
    ("Gen", True, "General", "title"), ("Lt", True, "Lieutenant", "title"), ("Col", True, "Colonel", "title"),
    ("Sgt", True, "Sergeant", "title"), ("Capt", True, "Captain", "title"), ("Adm", True, "Admiral", "title"),
    ("Prof", True, "Professor", "title"), ("Mt", True, "Mount", "title"),
    ("vs", True, "versus", "versus"), ("vs", False, "versus", "versus"), ("v", True, "versus", "case"),
    ("&", False, "and", "ampersand"),
)
NAME_SIGNS = frozenset("$ £ € # no no. number nos vol chapter page pages p. pp. part article section version "
                       "level grade round game week day year at terminal gate room platform route line track exit "
                       "pier studio floor".split())
GARMENTS = frozenset("shirt t-shirt tshirt jacket hat dress coat uniform costume sweater sweatshirt hoodie jeans "
                     "pants shorts swimsuit suit helmet glasses sunglasses outfit skirt top vest apron robe gown "
                     "bikini clothes clothing overalls boots shoes scarf cap mask tuxedo pajamas trousers jersey "
                     "blouse tank attire gear wetsuit trunks hijab turban sari kimono leotard bathrobe "
                     "raincoat parka cardigan".split())
# pairs of names that are one name, a title or a fixed order (lower case, "and" left out)
FIXED_NAME_PAIRS = frozenset(
    "bosnia herzegovina|trinidad tobago|antigua barbuda|turks caicos|sao tome principe|kitts nevis|procter gamble|"
    "johnson johnson|simon garfunkel|marks spencer|tom jerry|romeo juliet|sodom gomorrah|adam eve|jack jill|"
    "hansel gretel|jekyll hyde|bonnie clyde|lewis clark|laurel hardy|abbott costello|batman robin|sonny cher|"
    "hall oates|barnes noble|ben jerry|black decker|smith wesson|ernst young|bausch lomb|arm hammer|simon schuster|"
    "harper row|sears roebuck|fortnum mason|dolce gabbana|rodgers hammerstein|gilbert sullivan|lerner loewe|"
    "starsky hutch|mork mindy|will grace|pride prejudice|war peace|crime punishment|sense sensibility|law order|"
    "antony cleopatra|troilus cressida|tristan isolde|samson delilah|cain abel|castor pollux|romulus remus|"
    "mason dixon|lord taylor|standard poor|bang olufsen|tate lyle|rolls royce|harley davidson|pratt whitney|"
    "stars stripes|father son|gas electric|research development|trade industry|arts sciences|food drug|"
    "ferdinand isabella|william mary|lewis clark|tweedledum tweedledee|punch judy|beauty beast".split("|"))
NAME_COMPANIONS = frozenset("sons son co company associates partners brothers daughters sisters friends "
                             "family partner others".split())
BEFORE_NAMES = frozenset("the of between from and or & , among both either neither".split())
# lower-case nouns that name a speaker after a determiner ("said the company"); another noun may be what was said
# ("He stood up, said the words.") unless a quotation shows the tag
SPEAKER_HEADS = frozenset(
    "man woman men women boy girl child voice stranger officer official spokesman spokeswoman spokesperson "
    "company firm agency ministry department government report statement study survey document source "
    "president chairman director minister secretary manager analyst lawyer attorney judge doctor prosecutor "
    "police sheriff detective inspector officer coroner witness expert leader chief captain general colonel "
    "sergeant soldier guard driver owner father mother daughter son wife husband brother sister friend "
    "professor teacher student author writer critic editor publisher reporter newspaper paper magazine website "
    "site group organization association union council committee board commission court senator governor mayor "
    "king queen prince princess lady gentleman fellow old young other first second last latter former "
    "administration institute center centre bank".split())
# a bare plural speaker ("..., officials said", "..., said Pentagon officials")
BARE_SPEAKERS = frozenset("officials police sources analysts experts witnesses authorities prosecutors "
                           "investigators residents doctors scientists researchers officers lawyers activists "
                           "economists diplomats".split())
# a capitalised word after "said" that is what was said ("She bowed her head, said Amen.")
NOT_SPEAKERS = frozenset("amen hello hi yes no ok okay goodbye goodnight thanks please sorry".split())
TITLE_ABBREVIATIONS = frozenset(
    "mr mrs ms dr gov sen rep gen capt col lt sgt prof st rev adm maj cpl pvt atty supt".split())
NAME_SUFFIX_ABBREVIATIONS = frozenset("jr sr inc co corp ltd bros plc llc".split())
PERIOD_ABBREVIATIONS = frozenset(
    "mr mrs ms dr st jr sr gov rep sen gen inc co corp ltd lt col sgt prof no vs etc jan feb mar apr jun jul aug sep "
    "sept oct nov dec mt ft".split())
CONTENT_NOUNS = frozenset("fact idea belief notion claim hope news sense evidence possibility chance view assumption "
                           "suggestion argument proof sign signs report reports rumor rumour feeling impression "
                           "conclusion doubt fear worry concern".split())  # "the fact that X, and Y": Y may be in it
BINOMIAL_PAIRS = frozenset(tuple(p.split("+")) for p in (
    "right+wrong life+death good+evil rich+poor black+white young+old war+peace heaven+earth heaven+hell day+night "
    "night+day now+then here+there past+present east+west north+south old+new man+wife husband+wife fact+fiction "
    "truth+lies bride+groom ladies+gentlemen "
    "love+hate friend+foe friends+foes").split())
# nouns that name people: "that" after them is no "which"
PERSON_NOUNS = frozenset(
    "man men woman women person people child children kid kids boy boys girl girls baby babies guy guys lady "
    "ladies gentleman gentlemen friend friends family families parent parents mother mothers father fathers son "
    "sons daughter daughters brother brothers sister sisters husband husbands wife wives individual individuals "
    "citizen citizens resident residents student students patient patients client clients customer customers "
    "victim victims official officials staff crew team teams group groups couple couples folks someone anyone "
    "everyone somebody anybody everybody one ones those nobody cop cops doctor doctors nurse nurses member "
    "members youth youths adult adults teen teens teenager teenagers relative relatives colleague colleagues "
    "employee employees spouse spouses partner partners agent agents chief chiefs judge judges candidate "
    "candidates expert experts immigrant immigrants refugee refugees soldier soldiers troops hero heroes "
    "guest guests host hosts audience crowd public human humans foe foes enemy enemies rebel rebels militant "
    "militants ally allies hostage hostages suspect suspects pilgrim pilgrims fan fans gay gays delegate delegates "
    "deputy deputies bishop bishops priest priests pope monk monks nun nuns king kings queen queens prince "
    "princes princess lord lords boss bosses chef chefs cook cooks guard guards pilot pilots clerk clerks coach "
    "coaches captain captains mayor mayors athlete athletes celebrity celebrities thief thieves gang gangs mob "
    "infant infants spouse widow widows orphan orphans mom moms dad dads grandma grandpa aunt aunts uncle uncles "
    "niece nieces nephew nephews cousin cousins twin twins bride brides groom grooms personnel faculty squad "
    "police marine marines scout scouts jury witness witnesses inmate inmates convict convicts surgeon surgeons "
    "vet vets attorney attorneys analyst analysts critic critics fool fools idiot idiots genius geniuses dude "
    "dudes folk senior seniors pupil pupils graduate graduates alumni native natives local locals democrat "
    "democrats republican republicans liberal liberals rival rivals champion champions poet poets plaintiff "
    "plaintiffs casualty casualties ceo ceos executive executives representative representatives".split())
PERSON_SUFFIXES = ("an", "ans", "er", "ers", "or", "ors", "ist", "ists", "ian", "ians", "ant", "ants", "ent", "ents",
                   "ee", "ees", "ess", "man", "men", "son", "sons", "ite", "ites", "eur", "eurs", "ic", "ics", "ive",
                   "ives", "ary", "aries", "ar", "ars")
ANIMALS = frozenset("dog dogs cat cats horse horses puppy puppies kitten kittens bird birds animal animals cow cows "
                    "sheep goat goats pony ponies".split())
# nouns that take "to" + a noun phrase ("road to recovery"): the word after their "to" is no verb
TO_NOUNS = frozenset("effort attempt bid plan push drive campaign struggle race fight battle challenge "
                     "decision ability failure need chance opportunity time permission license licence proposal "
                     "motion pressure deal agreement pledge vow offer request demand step lesson rule path road "
                     "route key guide trip visit journey return gateway door answer solution threat "
                     "challenge access approach response reply right way commitment attention contribution damage "
                     "harm tribute letter message call appeal move shift switch transition link ties tie boost blow "
                     "setback ode prelude sequel alternative heir successor rival bridge ticket tickets passage "
                     "entry exit runway ramp march walk ride flight voyage trek pilgrimage invitation "
                     "introduction resistance opposition objection exposure reference attachment devotion "
                     "loyalty obstacle barrier end".split())
ROUNDUP_NOUNS = frozenset("thing place reason tip question fact book stock film movie song way idea word sign "
                          "game show trend name destination spot".split())
HEADLINE_FUNCTION = frozenset("of and the a an".split())
# words after "going to" that make it a motion or a fixed phrase ("going to bed", "going to waste"), not a future
GOING_PLACES = frozenset("work bed church court jail prison town sea war market press sleep college school class "
                         "lunch dinner breakfast supper camp hospital mass trial waste pieces seed shore ground pot "
                         "hell heaven rest print extremes law sea vote ruin fat stage".split())
PLURAL_ONLY = frozenset("people police cattle clergy personnel folk folks livestock poultry vermin".split())
PLURAL_WORDS = frozenset("police people men women children dozens hundreds thousands millions scores several many "
                          "both few cattle troops".split())
SINGULAR_WORDS = frozenset("one news".split())
NOT_IN_HEADLINE = frozenset(('"', "“", "”", "'", "‘", "’", "?", ";", "(", ")"))
CAPTION_SUBJECTS = frozenset(
    "man men woman women boy boys girl girls person people child children kid kids baby babies toddler toddlers "
    "guy guys lady ladies gentleman gentlemen player players skier skiers surfer surfers skateboarder "
    "skateboarders snowboarder snowboarders cyclist cyclists biker bikers rider riders climber climbers runner "
    "runners swimmer swimmers dancer dancers singer singers musician musicians worker workers soldier soldiers "
    "couple student students teenager teenagers teen teens adult adults chef cook doctor nurse policeman "
    "policemen fireman firemen firefighter firefighters athlete athletes hiker hikers tourist tourists performer "
    "performers drummer guitarist pianist violinist boxer boxers wrestler wrestlers goalie pitcher batter "
    "skater skaters jogger joggers vendor shopper shoppers pedestrian pedestrians driver farmer fisherman "
    "fishermen hunter artist painter clown magician juggler gymnast gymnasts diver divers sailor sailors cowboy "
    "cowboys motorcyclist motorcyclists bicyclist bicyclists competitor competitors officer officers "
    "dog dogs puppy puppies cat cats kitten kittens horse horses bird birds cow cows goat goats monkey monkeys "
    "elephant elephants lion lions tiger tigers bear bears panda pandas rabbit rabbits bunny squirrel squirrels "
    "turtle turtles tortoise duck ducks camel camels hamster mouse mice rat rats snake snakes lizard lizards frog "
    "frogs octopus shark sharks dolphin dolphins penguin penguins parrot parrots chicken chickens rooster pig pigs "
    "kangaroo koala giraffe giraffes zebra zebras cheetah leopard fox wolf otter otters seal seals slug snail "
    "deer sheep ferret hedgehog lemur gorilla chimpanzee raccoon owl eagle hawk swan goose geese calf bull "
    "car cars truck trucks bus train plane airplane jet helicopter boat boats motorcycle motorcycles".split())
IRREGULAR_PLURAL_SUBJECTS = frozenset(
    "men women people children mice geese gentlemen policemen firemen fishermen".split())
# Collective nouns before "of" + a plural ("A group of people"); a singular one takes either number from its verb.
COLLECTIVES = frozenset("group crowd team herd flock pack family pair couple bunch line".split())
PLURAL_COLLECTIVES = frozenset("couple bunch".split())  # "A couple of kids walk", never "walks"
SUBJECT_MODIFIERS = frozenset("in with".split())
US_STATES = frozenset(
    "alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho illinois "
    "indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota mississippi missouri "
    "montana nebraska nevada ohio oklahoma oregon pennsylvania tennessee texas utah vermont virginia washington "
    "wisconsin wyoming calif fla ill mass mich minn okla ore tenn tex va wash wis kan ky la md mo nc sc nj ny pa "
    "ga ala ariz ark colo conn del ind neb nev".split())
PLACES = frozenset(
    # countries
    "Afghanistan|Albania|Algeria|Angola|Argentina|Armenia|Australia|Austria|Azerbaijan|Bahrain|Bangladesh|Belarus|"
    "Belgium|Bolivia|Bosnia|Brazil|Britain|Bulgaria|Burma|Cambodia|Cameroon|Canada|Chad|Chile|China|Colombia|Congo|"
    "Croatia|Cuba|Cyprus|Denmark|Ecuador|Egypt|England|Eritrea|Estonia|Ethiopia|Finland|France|Georgia|Germany|"
    "Ghana|Greece|Guatemala|Haiti|Honduras|Hungary|Iceland|India|Indonesia|Iran|Iraq|Ireland|Israel|Italy|Jamaica|"
    "Japan|Jordan|Kazakhstan|Kenya|Korea|Kosovo|Kuwait|Laos|Latvia|Lebanon|Liberia|Libya|Lithuania|Luxembourg|"
    "Malaysia|Mali|Malta|Mexico|Moldova|Mongolia|Montenegro|Morocco|Mozambique|Myanmar|Nepal|Nicaragua|Niger|Nigeria|"
    "Norway|Oman|Pakistan|Palestine|Panama|Paraguay|Peru|Poland|Portugal|Qatar|Romania|Russia|Rwanda|Scotland|"
    "Senegal|Serbia|Singapore|Slovakia|Slovenia|Somalia|Spain|Sudan|Sweden|Switzerland|Syria|Taiwan|Tanzania|"
    "Thailand|Tibet|Tunisia|Turkey|Uganda|Ukraine|Uruguay|Uzbekistan|Venezuela|Vietnam|Wales|Yemen|Zambia|Zimbabwe|"
    "North Korea|South Korea|South Africa|Saudi Arabia|New Zealand|Sri Lanka|Costa Rica|Puerto Rico|Hong Kong|"
    "Northern Ireland|East Timor|Ivory Coast|Sierra Leone|El Salvador|Czech Republic|Dominican Republic|"
    # continents and regions
    "Africa|Asia|Europe|America|Antarctica|Australasia|Scandinavia|Siberia|Normandy|Brittany|Provence|Tuscany|"
    "Sicily|Sardinia|Corsica|Crete|Bavaria|Catalonia|Andalusia|Galicia|Flanders|Kashmir|Punjab|Bengal|Kurdistan|"
    "Chechnya|Darfur|Gaza|Galilee|Judea|Patagonia|Yorkshire|Cornwall|Kent|Ulster|Madeira|Santorini|Macau|Bali|Java|"
    "Sumatra|Borneo|Tasmania|Quebec|Ontario|Alberta|Manitoba|Patagonia|Latin America|North America|South America|"
    "Central America|East Africa|West Africa|Southeast Asia|Central Asia|Eastern Europe|Western Europe|"
    "Middle East|West Bank|Gaza Strip|"
    # US states
    "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Hawaii|Idaho|Illinois|"
    "Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|"
    "Montana|Nebraska|Nevada|Ohio|Oklahoma|Oregon|Pennsylvania|Tennessee|Texas|Utah|Vermont|Virginia|Washington|"
    "Wisconsin|Wyoming|New Hampshire|New Jersey|New Mexico|New York|North Carolina|South Carolina|North Dakota|"
    "South Dakota|Rhode Island|West Virginia|"
    # cities
    "London|Paris|Berlin|Madrid|Rome|Moscow|Tokyo|Beijing|Shanghai|Delhi|Mumbai|Bombay|Calcutta|Kolkata|Karachi|"
    "Lahore|Islamabad|Kabul|Baghdad|Tehran|Cairo|Istanbul|Ankara|Athens|Vienna|Prague|Warsaw|Budapest|Brussels|"
    "Amsterdam|Dublin|Edinburgh|Glasgow|Manchester|Liverpool|Birmingham|Lisbon|Barcelona|Seville|Milan|Naples|"
    "Venice|Florence|Munich|Hamburg|Frankfurt|Geneva|Zurich|Stockholm|Oslo|Copenhagen|Helsinki|Kiev|Kyiv|Minsk|"
    "Belgrade|Bucharest|Sofia|Jerusalem|Damascus|Beirut|Amman|Riyadh|Dubai|Doha|Nairobi|Lagos|Johannesburg|"
    "Singapore|Bangkok|Jakarta|Manila|Seoul|Pyongyang|Taipei|Hanoi|Sydney|Melbourne|Toronto|Montreal|Vancouver|"
    "Chicago|Boston|Philadelphia|Detroit|Atlanta|Miami|Houston|Dallas|Denver|Seattle|Baltimore|Pittsburgh|"
    "Cleveland|Phoenix|Tucson|Portland|Minneapolis|Anaheim|Honolulu|Havana|Caracas|Lima|Bogota|Santiago|Rio|"
    "Mexico City|Los Angeles|San Francisco|San Diego|San Antonio|New Orleans|Las Vegas|Buenos Aires|"
    "Sao Paulo|Rio de Janeiro|Cape Town|Hong Kong|Tel Aviv|Abu Dhabi|Kuala Lumpur|New Delhi|Washington DC|"
    "Rouen|Lyon|Marseille|Nice|Kyoto|Osaka|Mecca|Medina|Basra|Mosul|Kandahar|Gaza City|Tripoli|Benghazi|"
    "Aleppo|Homs|Odessa|Crimea|Sevastopol|Oxford|Cambridge|Madrid|Granada|Valencia|Toledo|Cordoba|Malaga|"
    # organisations
    "NATO|NASA|OPEC|UNESCO|UNICEF|Interpol|Europol|Microsoft|Google|Apple|Amazon|IBM|Intel|Facebook|Twitter|"
    "Yahoo|Toyota|Boeing|Airbus|Enron|Sony|Samsung|Nokia|Oracle|Cisco|Dell|Hewlett-Packard|Motorola|Siemens|"
    "Volkswagen|Nissan|Honda|Ford|Chrysler|Walmart|Wal-Mart|Exxon|ExxonMobil|Chevron|Shell|Gazprom|Citigroup|"
    "Barclays|HSBC|Goldman Sachs|Morgan Stanley|JPMorgan|Merrill Lynch|AOL|Netflix|Starbucks|"
    "Disney|Pfizer|Novartis|Nestle|Unilever|Vodafone|Verizon|Qualcomm|PeopleSoft|Compaq|"
    "Hamas|Hezbollah|Fatah|Taliban|Al-Qaeda|al-Qaeda|Congress|Parliament|Harvard|Yale|Princeton|Stanford".split("|"))
# names that take "the" (in the `of` form and the possessive alike)
THE_PLACES = frozenset("United States|United Kingdom|Netherlands|Philippines|European Union|United Nations|"
                        "Vatican|Kremlin|Pentagon|White House|Soviet Union|Middle East|West Bank|Gaza Strip|"
                        "Caribbean|Balkans|Alps|Sahara|Amazon|Thames|Nile|Kremlin|Senate|House".split("|"))
# heads that tell that an unknown capitalised possessor is a company or a country ("Enron's shares")
FINANCE_HEADS = frozenset("shares stock stocks shareholders stockholders earnings revenue revenues profit profits "
                           "sales economy population share price".split()) - {"share", "price"}
# heads that tell that an unknown capitalised possessor is a place ("Funchal's central area", "Agra's monuments")
PLACE_HEADS = frozenset("area areas streets beaches harbour harbor port monuments churches museums cathedral "
                         "coastline waterfront suburbs neighborhoods neighbourhoods districts skyline "
                         "population".split())
PERSON_TITLES = frozenset("Mr Mrs Ms Dr President King Queen Prince Princess Senator Governor Pope St Saint Lord Lady "
                    "Sir".split())
THING_POSSESSORS = frozenset(
    "company companies firm corporation bank group party government administration agency committee council "
    "board department ministry court army navy military police team club league union association institute "
    "foundation organization organisation network channel station newspaper paper magazine museum university "
    "college school hospital church restaurant hotel store shop airline airport industry market economy "
    "country nation state city town village region province county district island continent world planet earth "
    "moon sun river lake sea ocean mountain valley coast building house tower bridge castle palace temple tomb "
    "cathedral monastery ship boat plane aircraft car vehicle engine machine computer system program programme "
    "project plan law bill treaty agreement campaign regime movement project film movie book novel show series "
    "song album game story report study survey website site body brain heart skin cell "
    "dog dogs cat horse bird animal tree plant commission regime".split())
PAST_NOUNS = frozenset("fell rose found saw felt left".split())  # past tenses that are nouns only rarely
BAD_HEADS = frozenset("own sake worth share way turn fault behalf part kind sort lot".split())
NOT_OF_HEADS = frozenset(  # "the N of X" that is no possession of X
    "rest whole most all some one part parts half majority number end beginning middle center centre heart top "
    "bottom side edge north south east west city town state province island kingdom republic county region people "
    "name names citizens capital-city outskirts area areas suburbs rest kind sort type form version case example "
    "issue question problem idea".split())
# heads that read as something done to the possessor once said with "of" ("the government's investigation" ->
# "the investigation of the government"), or as an event in a place ("Russia's election" -> "the election of Russia")
AMBIGUOUS_HEADS = frozenset(
    "attack attacks arrest murder killing killings defeat capture support criticism control rule loss rescue "
    "release removal trial surrender purchase sale takeover review analysis study survey portrait picture image "
    "photo photograph painting map view treatment approval defense defence protection bombing shelling siege "
    "war wars election elections crisis revolution earthquake vote referendum riots protests uprising coup "
    "ear eye eyes hands hand heart violence yuan dollar euro yen rupee peso ruble rouble plant".split())
TION_HEADS_OK = frozenset("population constitution position tradition reputation foundation organization "
                           "organisation institution collection nation region".split())
# heads whose "of" phrase is the possessor's in the other direction too ("the capital of France" -> "France's
# capital")
OF_HEADS = frozenset(
    "capital economy government president presidents leader leaders king kings queen queens emperor prime "
    "minister ministers parliament army navy currency constitution history culture cuisine population people "
    "beaches coast coastline borders mines wines churches museums streets monuments cities towns villages "
    "industry industries exports imports farmers workers citizens residents inhabitants rulers ruler "
    "ambassador embassy police".split()) - {"prime", "people"}
# objects after which the particle would read as a preposition of place or direction ("turned off the road")
PLACE_OBJECTS = frozenset(
    "road roads street streets hill hills stairs staircase steps ladder mountain slope path trail track highway "
    "river stream bridge lane alley corridor hall hallway aisle ramp bank field fields sidewalk pavement block "
    "beach shore coast bus train plane boat ship car truck stage court pitch bed couch sofa wall fence tree "
    "building tower floor ground table shelf desk counter line rail rails runway page list screen way".split())
# "turn on"/"switch off" are transitive phrasal verbs only with a device ("turned on his friend", "turn on an axis")
DEVICES = frozenset("light lights lamp tv television radio computer laptop microwave engine motor oven stove fan "
                     "music water heat heater tap faucet power phone alarm machine camera switch".split())
LIGHT_THEMES = frozenset(
    "hand call chance try break hug kiss look go ride lift push smile ring shot glance nod wave piece time "
    "bath haircut shower massage wash hint clue boost favor favour lesson door finger benefit headache "
    "run creeps thought credit way rise birth pause reason idea sense impression feeling opportunity advantage "
    "edge start choice option warning heads-up cold shoulder ear slip shout thumbs-up answer hard".split())
RECIPIENTS = frozenset(  # nouns that may stand as a recipient after a determiner ("handing a woman a flyer")
    "man woman boy girl child kid baby person lady guy gentleman men women boys girls children kids people "
    "customer customers crowd audience player players friend friends mother father daughter son teacher student "
    "students driver officer passenger passengers visitor visitors tourist tourists fan fans dog cat horse "
    "bride groom couple family".split())
TELL_THEMES = frozenset("story stories joke jokes secret secrets lie lies truth news tale tales".split())
MASS_NOUNS = frozenset(
    "water money time food evidence information news advice help sense difference interest damage traffic "
    "furniture equipment work progress research knowledge experience luck power electricity light space room "
    "support trouble fun milk coffee tea bread rain snow air oil gas fuel sign signs mention record data "
    "proof reason need".split())
# full form -> its abbreviation, for the way back (countries and organisations only)
SHORT_FORMS = {"United States": "U.S.", "United Kingdom": "UK", "United Nations": "UN", "European Union": "EU"}
VOWEL_SOUND = frozenset({"EU"})  # abbreviations read with a vowel sound: "an EU envoy"
# nouns after "US"/"UK" with which "United States"/"United Kingdom" reads as the state's own
STATE_NOUNS = frozenset(
    "troops forces military army navy soldiers marines officials official government administration embassy "
    "consulate diplomats diplomat envoy ambassador authorities intelligence economy citizens citizen dollar dollars "
    "interests territory border borders coast soil policy policies sanctions aid president "
    "lawmakers senators congressmen prosecutors attorney regulators law laws courts court election elections "
    "presidency embassies mission delegation forces warships warship jets drones drone strike strikes "
    "spokesman spokeswoman commander commanders envoys negotiators".split())
# nouns after "UN"/"EU" that are the organisation's own (not "EU books": the Expanded Universe)
ORGANISATION_NOUNS = STATE_NOUNS | frozenset(
    "resolution resolutions monitors monitor observers observer chief draft authorization authorisation summit "
    "ministers minister meetings meeting members member states countries nations leaders leader agriculture "
    "representative representatives report inspectors inspector peacekeepers peacekeeping mandate vote talks "
    "agency agencies body bodies budget rules regulations directive funds funding plan plans proposal bid "
    "membership partners commission commissioner presidency treaty chief's secretary-general staff "
    "headquarters agreement deal sanctions negotiator mission missions investigators experts".split())
NAME_TAILS = frozenset("Airways Air Open Steel Bancorp Cellular Weekly Magazine Bank Oil Sugar Robotics Foods "
                        "Airlines Open's Inc Corp Ltd Company Co".split())
SUBJECT_DETS = (DETERMINERS | frozenset("each every no most both all any another such".split())) - {"that"}
IRREGULAR_PLURALS = frozenset("people children men women feet teeth mice geese police cattle".split())
MASS_LIKE = frozenset("data media news stuff thanks returns series species means hundreds thousands millions "
                       "billions dozens tens scores".split())
QUANTITY_HEADS = frozenset("number lot lots plenty couple majority minority group bunch variety total percent half "
                            "rest most some all none one series set pair team crowd family dozens hundreds thousands "
                            "millions kind kinds type types sort sorts piece pieces part parts".split())
CLEAR_PLURALS = frozenset("people police cattle".split())
INVARIANT_PLURALS = frozenset("sheep fish deer aircraft offspring data media staff public personnel".split())  # either
# bare singular nouns that head a headline's subject without being a name ("Woman killed by ...")
CAPTION_PERSON_NOUNS = frozenset("man woman boy girl teen teenager child baby toddler mother father son daughter wife "
                          "husband student teacher doctor nurse officer soldier driver cyclist pedestrian "
                          "passenger tourist hiker swimmer worker priest farmer policeman dog cat horse shark "
                          "whale".split())
# capitalised words that are common nouns and also names of companies or places, kept out of lower-casing
NAME_WORDS = frozenset("apple amazon shell target ford mars jaguar virgin orange time sun mirror".split())
BODY_PARTS = frozenset(
    "head heads hand hands arm arms leg legs foot feet finger fingers fingernails nails toe toes hair face faces "
    "teeth tooth eye eyes eyelid eyelids eyebrows nose mouth tongue lips lip ear ears wing wings tail neck back "
    "belly stomach chest shoulder shoulders knee knees body beard mustache abs biceps muscles skin cheek cheeks "
    "fist fists palm palms wrist wrists".split())
# bare singular objects that stand alone (mass nouns): "Meat is being cut by a man"; a bare count noun is refused
CAPTION_MASS_NOUNS = frozenset(
    "meat beef pork chicken fish shrimp water milk juice wine beer coffee tea oil butter cheese bread dough flour "
    "sugar salt pepper rice pasta spaghetti noodles soup sauce garlic ginger lettuce cabbage celery broccoli corn "
    "spinach paper wood cardboard grass hay sand snow dirt soil food paint ice cream batter".split())
# verbs whose "with" + a bare noun is their material or instrument ("filling a pitcher with water")
BARE_PLACES = frozenset("stage home school work church bed court town camera screen".split())  # "on stage"
COLOURS = frozenset("red blue green yellow black white brown pink purple orange gray grey striped dark "
                     "colored coloured".split())
APPEARANCE_NOUNS = frozenset("hair beard tattoos tattoo glasses sunglasses mustache makeup eyes background foreground "
                   "distance".split())
SIDES_AND_COMPASS_POINTS = frozenset("left right north south east west northeast northwest southeast southwest".split())
INTEREST_NOUNS = frozenset("interest note importance significance concern value".split())


# -- adverbs, adjectives and other words -------------------------------------------------------------------------------
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
