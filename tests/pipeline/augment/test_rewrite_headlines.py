"""The rules for headlines and captions (`pipeline.augment.rewrite_rules.headlines`): golden rewrites on real
sentences (STS 2012-2013, STS-B dev, SNLI dev) and plain ones, and each guard on a sentence the rule would otherwise
rewrite wrongly."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.augmenters.rewrites import RewritesConfig
from bsl_pipeline.pipeline.augment.rewrite_rules import tokenize
from bsl_pipeline.pipeline.augment.rewrite_rules.headlines import HEADLINE_RULES
from rewrite_cases import family_tests

GOLDEN = [
    # headline_perfect: a completed event in the present perfect
    ("headline_perfect", "Head of CIA resigns over affair", "Head of CIA has resigned over affair"),
    ("headline_perfect", "Putin Declares Victory in Russia Presidential Vote",
     "Putin Has Declared Victory in Russia Presidential Vote"),
    ("headline_perfect", "Malawi Officially Confirms President's Death",
     "Malawi Has Officially Confirmed President's Death"),
    ("headline_perfect", "Bank of England deputy denies ordering rate-rigging",
     "Bank of England deputy has denied ordering rate-rigging"),
    ("headline_perfect", "Bahrain court upholds sentences against uprising leaders",
     "Bahrain court has upheld sentences against uprising leaders"),
    ("headline_perfect", "Chinese president arrives in Argentina for state visit",
     "Chinese president has arrived in Argentina for state visit"),
    ("headline_passive", "Dozens killed in Kenyan clashes", "Dozens were killed in Kenyan clashes"),
    ("headline_passive", "Man charged with murder of wife", "Man was charged with murder of wife"),
    ("headline_passive", "Three al Qaeda suspects arrested in Spain",
     "Three al Qaeda suspects were arrested in Spain"),
    ("headline_passive", "Putin sworn in as Russian president", "Putin was sworn in as Russian president"),
    ("headline_passive", "Dozens of Morsi supporters killed in Egypt clashes",
     "Dozens of Morsi supporters were killed in Egypt clashes"),
    ("headline_passive", "U.S. soldier killed in shooting incident in S. Afghanistan",
     "U.S. soldier was killed in shooting incident in S. Afghanistan"),
    ("headline_passive", "US Marines killed in base attack", "US Marines were killed in base attack"),
    ("headline_passive", "At least two Nato killed in Afghanistan helicopter crash: military",
     "At least two Nato were killed in Afghanistan helicopter crash: military"),
    ("headline_passive", "Hospital: 61 killed in Venezuela prison riot",
     "Hospital: 61 were killed in Venezuela prison riot"),
    # title case: the auxiliary is capitalised too
    ("headline_passive", "Mandela Discharged From Hospital", "Mandela Was Discharged From Hospital"),
    ("headline_passive", "Saudi Women Allowed To Compete At Olympics",
     "Saudi Women Were Allowed To Compete At Olympics"),
    # predicative adjective, agent, "of", an adverb before the participle
    ("headline_passive", "Coptic priest shot dead in Egypt attack", "Coptic priest was shot dead in Egypt attack"),
    ("headline_passive", "Romney rocked by secret video", "Romney was rocked by secret video"),
    ("headline_passive", "Jerry Sandusky convicted of child sexual abuse",
     "Jerry Sandusky was convicted of child sexual abuse"),
    ("headline_passive", "New York police officer critically wounded in hatchet attack",
     "New York police officer was critically wounded in hatchet attack"),
    # expectation: present tense
    ("headline_passive", "Israel's Netanyahu set to call early vote", "Israel's Netanyahu is set to call early vote"),
    ("headline_passive", "Hong Kong set for democracy march", "Hong Kong is set for democracy march"),
    ("headline_passive", "Thousands told to evacuate in Colorado flooding",
     "Thousands were told to evacuate in Colorado flooding"),
    ("caption_aspect", "A turtle walks over the ground.", "A turtle is walking over the ground."),
    ("caption_aspect", "Runners compete in a race.", "Runners are competing in a race."),
    ("caption_aspect", "The woman is walking her dog.", "The woman walks her dog."),
    ("caption_aspect", "Two men are packing suitcases into the trunk of a car.",
     "Two men pack suitcases into the trunk of a car."),
    ("caption_aspect", "A dog lies on his back on a wooden floor.", "A dog is lying on his back on a wooden floor."),
    ("caption_aspect", "A man is slicing a potato into pieces.", "A man slices a potato into pieces."),
    ("caption_aspect", "A person is frying meat in a pan.", "A person fries meat in a pan."),
    ("caption_aspect", "A man chops down a tree with an axe.", "A man is chopping down a tree with an axe."),
    ("caption_aspect", "A shopper buys cat food at a Walmart", "A shopper is buying cat food at a Walmart"),
    ("caption_aspect", "A rabbit is playing with a toy rabbit.", "A rabbit plays with a toy rabbit."),
    # a collective noun + "of", a short "in"/"with" phrase after the subject; a collective keeps its verb's number
    ("caption_aspect", "A group of people are walking down a street.", "A group of people walk down a street."),
    ("caption_aspect", "A group of people sit around a blazing fire at night.",
     "A group of people are sitting around a blazing fire at night."),
    ("caption_aspect", "The group of hikers is resting in front of a mountain.",
     "The group of hikers rests in front of a mountain."),
    ("caption_aspect", "A crowd of interested people surrounds a man swinging a sledgehammer.",
     "A crowd of interested people is surrounding a man swinging a sledgehammer."),
    ("caption_aspect", "A herd of elephants are walking along a trail.", "A herd of elephants walk along a trail."),
    ("caption_aspect", "A man in a red shirt is giving toys to a small dog.",
     "A man in a red shirt gives toys to a small dog."),
    ("caption_aspect", "Two men in shorts hang out at the beach.", "Two men in shorts are hanging out at the beach."),
    ("caption_aspect", "A young girl with long brown hair is brushing her teeth.",
     "A young girl with long brown hair brushes her teeth."),
    ("caption_aspect", "A man in a hat stands in front of a brick wall.",
     "A man in a hat is standing in front of a brick wall."),
    ("caption_aspect", "A group of men with cowboy hats are watching a rodeo.",
     "A group of men with cowboy hats watch a rodeo."),
    ("caption_aspect", "A little girl in pink boots runs down the street.",
     "A little girl in pink boots is running down the street."),
    ("caption_aspect", "A woman in red shorts is writing on a tablet.", "A woman in red shorts writes on a tablet."),
    # headline_event: a transitive event verb with its object in the present perfect, singular or plural subject
    ("headline_event", "Obama signs bill", "Obama has signed bill"),
    ("headline_event", "Roadside bomb kills 5 Afghan policemen", "Roadside bomb has killed 5 Afghan policemen"),
    ("headline_event", "Mitt Romney wins Maryland GOP primary", "Mitt Romney has won Maryland GOP primary"),
    ("headline_event", "Syrian forces launch new attacks", "Syrian forces have launched new attacks"),
    ("headline_event", "Israeli air strikes kill 16 in Gaza", "Israeli air strikes have killed 16 in Gaza"),
    ("headline_event", "Strong Italy Quake Kills at Least Six", "Strong Italy Quake Has Killed at Least Six"),
    ("headline_event", "Activists: Syrian troops kill dozens near Damascus",
     "Activists: Syrian troops have killed dozens near Damascus"),
    ("headline_event", "Australia cuts interest rates to record low", "Australia has cut interest rates to record low"),
    ("headline_event", "Afghan legislators approve new election law",
     "Afghan legislators have approved new election law"),
    # headline_and: the comma of two coordinated subjects
    ("headline_and", "Israelis, Palestinians convene over prisoner swap",
     "Israelis and Palestinians convene over prisoner swap"),
    ("headline_and", "Bombings, clashes continue in Syria", "Bombings and clashes continue in Syria"),
    ("headline_and", "Japan, US hold talks", "Japan and US hold talks"),  # "US" is a name, not "us"
    ("headline_and", "Iran, powers set for high-stakes nuclear talks",
     "Iran and powers set for high-stakes nuclear talks"),
    ("headline_and", "Obama, Romney Prepare for First Debate", "Obama and Romney Prepare for First Debate"),
    # died_aged: both ways, in title case too
    ("died_aged", "Manchester United owner Malcolm Glazer dies at 85",
     "Manchester United owner Malcolm Glazer dies aged 85"),
    ("died_aged", "John Demjanjuk, convicted Nazi death camp guard, dies aged 91",
     "John Demjanjuk, convicted Nazi death camp guard, dies at 91"),
    ("died_aged", "Designer, Socialite Lilly Pulitzer Dies at 81", "Designer, Socialite Lilly Pulitzer Dies Aged 81"),
    ("died_aged", "Japan: World's Oldest Man Ever Dies Aged 116", "Japan: World's Oldest Man Ever Dies at 116"),
    ("died_aged", "She died at 90 after a long illness.", "She died aged 90 after a long illness."),
]

REFUSED = [
    ("died_aged", "He died at \u00b2"),  # a superscript digit is no age (and no crash)
    ("died_aged", "Man dies aged \u00b3 in Paris"),
    ("headline_perfect", "Syria attacks kill 10"),  # "attacks" may be the noun
    ("headline_perfect", "Obama resigns on Monday"),  # "has resigned on Monday": a perfect takes no past time
    ("headline_perfect", "Obama resigns in 2012"),
    ("headline_perfect", "Obama wants new deal"),  # a state, not an event
    ("headline_perfect", "The president resigns"),  # an article: a caption's or a sentence's subject
    ("headline_perfect", "Rebels seize town"),  # plural: not the -s form
    ("headline_perfect", "Minister resigns after scandal, party says"),  # a comma: a second clause
    ("headline_perfect", "Minister resigns."),  # a sentence, not a headline
    ("headline_passive", "Obama signed bill"),  # an object: active
    ("headline_passive", "Stocks rallied on Fed news"),  # an intransitive verb
    ("headline_passive", "Thailand: Iranians planned to attack Israelis"),  # "to" + verb after an active verb
    ("headline_passive", "Man killed in crash identified"),  # a second verb: reduced relative
    ("headline_passive", "Girl accused of burning Koran goes into hiding"),
    ("headline_passive", "Jordan biased over Palestinians from Syria"),  # an adjective: the tense is unclear
    ("headline_passive", "Rebels backed by Iran"),  # a state
    ("headline_passive", "Rebels cut supply lines"),  # present tense of "cut"
    ("headline_passive", "Residents near Gaza instructed to stay near shelter"),  # head of the subject unclear
    ("headline_passive", "Texans arrested in Mexico"),  # plural or name?
    ("headline_passive", "A cabin shot of a very crowded airplane"),  # a caption's noun phrase
    ("headline_passive", "South Africa police shot dead 30 miners"),  # an object after "shot dead"
    ("headline_passive", "Hundreds honor student killed in Ohio shooting"),  # a verb in the subject
    ("headline_passive", "Life-threatening Midwest storms feared"),  # a state, present
    ("headline_passive", "Two German tourists, two pilots killed in Kenya air crash"),  # a list, not two clauses
    # two participle clauses joined by a comma: "At least 17 were killed, 400 were injured" is a comma splice
    ("headline_passive", "At least 17 killed, 400 injured in massive Tianjin blasts"),
    ("headline_passive", "One killed, 40 injured in Mexico candy factory blast"),
    ("headline_passive", "Sunday Times journalist, French photographer 'killed in Syria'"),  # quotes
    ("headline_passive", "The man pushed into the room."),  # prose, with a final period
    ("headline_passive", "Osama Bin Laden movie to be filmed in India"),  # has its auxiliary
    ("caption_aspect", "He works at a bank."),  # a pronoun subject
    ("caption_aspect", "The museum houses a collection of paintings."),  # not a caption subject
    ("caption_aspect", "A man always walks his dog."),  # a frequency adverb
    ("caption_aspect", "A woman is wearing a red hat."),  # habit-prone verb
    ("caption_aspect", "A man is going to play a guitar."),  # "is going to"
    ("caption_aspect", "A man is drinking."),  # no complement: "A man drinks." is a habit
    ("caption_aspect", "A bear is fighting wolves."),  # generic once in the simple present
    ("caption_aspect", "A woman is playing violin."),  # a skill
    ("caption_aspect", "Kids are dancing on stage."),  # bare plural in the simple present: generic
    ("caption_aspect", "A man is peeling and cutting a potato."),  # two verbs
    ("caption_aspect", "A young child sits on the floor and leans against a map."),
    ("caption_aspect", "Two boys sit facing one another at a table and one points at the other."),
    ("caption_aspect", "A man is not playing the guitar."),  # negation
    ("caption_aspect", "A man can ride a horse."),  # a modal
    ("caption_aspect", "A couple of kids plays in the park."),  # "a couple of" is plural
    ("caption_aspect", "A boy in overalls blows bubbles."),  # "blows" or "bubbles": two readings
    ("caption_aspect", "Two men in animal print pajama bottoms sleep on a bed."),
    ("caption_aspect", "A man in red pants skiing down a slope."),  # no verb: "pants" is a noun
    ("caption_aspect", "A man with black pants on walks by a wall."),  # "with ... on"
    ("caption_aspect", "A group of people in white uniforms doing a show."),
    ("caption_aspect", "A group walks down a street."),  # a collective without "of"
    ("caption_aspect", "A man in a black shirt is playing golf outside."),  # a skill, as without the phrase
    ("caption_aspect", "A woman in a hat is wearing a red scarf."),  # habit-prone verb
    ("caption_aspect", "A man and a woman are dancing in a hall."),  # coordinated subject
    ("caption_aspect", "Dogs bark."),  # generic
    ("caption_aspect", "The man knows the answer."),  # stative
    ("headline_passive", "Obama signs bill"),  # active (`headline_event` makes "Obama has signed bill")
    ("headline_perfect", "Obama signs bill"),  # not in its list (`headline_event` takes it)
    ("caption_aspect", "Obama signs bill"),  # a headline, no caption
    ("headline_event", "Maldives court issues arrest warrant for former president"),  # "issues" is the verb
    ("headline_event", "Chinese stocks open lower Friday"),  # no object
    ("headline_event", "Stocks close 2.47% higher"),  # a market report
    ("headline_event", "Wall Street Ends Mixed"),  # a predicate adjective
    ("headline_event", "Tokyo stocks open lower"),  # a particle-like adverb
    ("headline_event", "Romney wins Illinois primary on Tuesday"),  # a past time
    ("headline_event", "Hamas hangs three Gaza prisoners"),  # not in the list ("hung"/"hanged")
    ("headline_event", "Syria rebels leave besieged Homs"),  # not in the list
    ("headline_event", "Bomb in Thailand kills 14"),  # a preposition in the subject
    ("headline_event", "Obama attacks Romney over tax plan"),  # no listed verb
    ("headline_event", "Bombs in Thailand kill 14, wound 340"),  # a comma
    ("headline_event", "Suicide bomber kills 23 at Afghan wedding."),  # not a headline
    ("headline_event", "President resigns, Congress names successor"),  # a comma
    ("headline_event", "Bahrain court upholds sentences against uprising leaders"),  # singular: headline_perfect
    ("headline_and", "Obama, Romney compete for undecideds, stoke base"),  # two commas
    ("headline_and", "Columbus, Ohio hit by storm"),  # a place and its state
    ("headline_and", "Obama, Romney camps clash over ads"),  # "camps" may be the verb
    ("headline_and", "Ictu, Ibec in move on airline strike"),  # no verb
    ("headline_and", "Designer, Socialite Lilly Pulitzer Dies at 81"),  # an apposition before a verb in -s
    ("headline_and", "Russia, Ukraine foiled plot to kill Putin, report says"),  # two commas
    ("headline_and", "Syria demands guarantees, rebels say peace plan doomed"),  # two clauses
    ("headline_and", "Japan, US hold talks."),  # not a headline
    ("died_aged", "He died at 10 Downing Street"),  # a place
    ("died_aged", "She died at 10:30 on Monday"),  # a time
    ("died_aged", "Demjanjuk dead at 91"),  # only "die"
    ("died_aged", "The patient died at 5 pm"),  # a time
]

test_golden, test_refused, test_family = family_tests(GOLDEN, REFUSED, HEADLINE_RULES)


def test_a_sentence_without_its_form_is_left_alone():
    for text in ("Hi", "Killed", "A man.", ", killed in", "the act of chipping something."):
        for rule in HEADLINE_RULES.values():
            assert rule(text, tokenize(text), RewritesConfig()) is None
