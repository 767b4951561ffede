"""Word classes of the rewrite rules: function words (determiners, pronouns, prepositions, conjunctions, auxiliaries,
negation, punctuation)."""

from __future__ import annotations

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
DEMONSTRATIVES = frozenset("this that these those".split())
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
