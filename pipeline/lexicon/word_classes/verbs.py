"""Word classes of the rewrite rules: verbs and participles."""

from __future__ import annotations

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
