"""The phrase rules of the `rewrites` method (`pipeline.augment.rewrite_rules.phrases`): each rule's golden rewrites
on real sentences (STS 2012-2013, MNLI dev_matched, STS-B dev, SNLI dev) and plain ones, and each guard's refusal."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.augmenters.rewrites import RewritesConfig, tokenize
from bsl_pipeline.pipeline.augment.rewrite_rules.phrases import PHRASE_RULES
from rewrite_cases import family_tests

GOLDEN = [
    ("equivalent", "Someone is slicing an onion.", "Somebody is slicing an onion."),
    ("equivalent", "Without the discount, nobody would buy the stock.",
     "Without the discount, no one would buy the stock."),
    ("equivalent", "No one knows the answer.", "Nobody knows the answer."),
    ("equivalent", "Perhaps we should prepare a militia.", "Maybe we should prepare a militia."),
    ("equivalent", "Syria deploys more troops despite peace deal", "Syria deploys more troops in spite of peace deal"),
    ("equivalent", "heat a metal prior to working it.", "heat a metal before working it."),
    ("equivalent", "the act of applying force in order to move something away.",
     "the act of applying force to move something away."),
    ("equivalent", "I don't know whether or not he will come.", "I don't know whether he will come."),
    ("equivalent", "A lot of people rely on their local government for protection.",
     "Lots of people rely on their local government for protection."),
    ("equivalent", "Turtles love eating goldfish and lots of things that fit into their mouths.",
     "Turtles love eating goldfish and a lot of things that fit into their mouths."),
    ("equivalent", "People are throwing tomatoes at each other.", "People are throwing tomatoes at one another."),
    ("equivalent", "Though he abstains from showbizzy campaigning, he markets his virtue and exploits his legend.",
     "Although he abstains from showbizzy campaigning, he markets his virtue and exploits his legend."),
    ("equivalent", "People walk amongst a traffic jam in a crowded city.",
     "People walk among a traffic jam in a crowded city."),
    ("equivalent", "The majority of voters support the plan.", "Most voters support the plan."),
    ("equivalent", "The majority of the voters support it.", "Most of the voters support it."),
    ("equivalent", "Numerous people sitting in a dim lit room talking, drinking coffee and using computers.",
     "Many people sitting in a dim lit room talking, drinking coffee and using computers."),
    ("equivalent", "More than 10,000 people, most of them civilians, have been killed in three decades of insurgency.",
     "Over 10,000 people, most of them civilians, have been killed in three decades of insurgency."),
    ("equivalent", "Less than 5 percent voted.", "Under 5 percent voted."),
    ("equivalent", "Tax records show Waters earned around $65,000 in 2000.",
     "Tax records show Waters earned about $65,000 in 2000."),
    ("equivalent", "It costs about $5.", "It costs around $5."),
    ("equivalent", "In both Britain and America, the term covers nearly everybody.",
     "In both Britain and America, the term covers almost everybody."),
    ("equivalent", "A blond man stands next to a cement mixer with mountains in the background.",
     "A blond man stands beside a cement mixer with mountains in the background."),
    ("equivalent", "Three adults and one child are waiting outside of a building, perhaps a school.",
     "Three adults and one child are waiting outside a building, perhaps a school."),
    ("equivalent", "Half of the women were given a daily dose of the drug and half took a placebo.",
     "Half the women were given a daily dose of the drug and half took a placebo."),
    ("equivalent", "OK, let's go.", "Okay, let's go."),
    ("equivalent", "okay okay that's it", "OK OK that's it"),
    ("equivalent", "For example, service coordination is a popular remedy for limited funds.",
     "For instance, service coordination is a popular remedy for limited funds."),
    ("equivalent", "Nonetheless, the rationality of service tiers remains.",
     "Nevertheless, the rationality of service tiers remains."),
    ("equivalent", "Moreover, it is possible to have questions that require nested case studies.",
     "Furthermore, it is possible to have questions that require nested case studies."),
    ("equivalent", "In addition, Saracens invaded the Provencal coast from North Africa.",
     "Additionally, Saracens invaded the Provencal coast from North Africa."),
    ("equivalent", "Likewise, the 30-year bond slid 1-11/32.", "Similarly, the 30-year bond slid 1-11/32."),
    ("equivalent", "In the meantime, the philosophy is to seize present-day opportunities.",
     "Meanwhile, the philosophy is to seize present-day opportunities."),
    ("equivalent", "As a result, Murphy sought to substitute Strier's sister as the trustee.",
     "Consequently, Murphy sought to substitute Strier's sister as the trustee."),
    ("equivalent", "Currently, the plant employs 300 people.", "At present, the plant employs 300 people."),
    ("equivalent", "All of a sudden I sat down on the edge of the table.",
     "Suddenly I sat down on the edge of the table."),
    ("equivalent", "Nowadays it is bordered by ancient columns.", "These days it is bordered by ancient columns."),
    ("equivalent", "These days, newspaper writers are no longer allowed the kind of license he took.",
     "Nowadays, newspaper writers are no longer allowed the kind of license he took."),
    ("equivalent", "hi Mary have you gone visiting any new restaurants lately",
     "hi Mary have you gone visiting any new restaurants recently"),
    ("equivalent", "The rock can be bought in a variety of shapes.", "The rock can be bought in various shapes."),
    ("equivalent", "The tops of a large number of balloons are visible.", "The tops of many balloons are visible."),
    ("equivalent", "A small number of cases were reported.", "A few cases were reported."),
    ("equivalent", "It was a little bit embarrassing the way we played.",
     "It was a bit embarrassing the way we played."),
    ("equivalent", "In the event that it rains, we stay home.", "If it rains, we stay home."),
    ("equivalent", "Today there are two plausible ways to proceed with regard to a relieved tyrant.",
     "Today there are two plausible ways to proceed regarding a relieved tyrant."),
    ("equivalent", "With respect to taxes, the plan is silent.", "Regarding taxes, the plan is silent."),
    ("equivalent", "As a result of the comments received, AMS changed the proposed rule.",
     "Because of the comments received, AMS changed the proposed rule."),
    ("equivalent", "The game was cancelled due to the fact that it rained.",
     "The game was cancelled because it rained."),
    ("equivalent", "Schiphol airport evacuated due to bomb threat",
     "Schiphol airport evacuated because of bomb threat"),
    ("equivalent", "Estimates performed subsequent to their initial estimates.",
     "Estimates performed after their initial estimates."),
    ("equivalent", "The repairs cost in excess of $5 million.", "The repairs cost more than $5 million."),
    ("equivalent", "She takes the pills on a daily basis.", "She takes the pills daily."),
    ("equivalent", "We expect a decision in the near future.", "We expect a decision soon."),
    ("equivalent", "The other bank pays interest based upon tiered account levels.",
     "The other bank pays interest based on tiered account levels."),
    ("equivalent", "Upon commencement of operation, the unit shall comply.",
     "On commencement of operation, the unit shall comply."),
    ("equivalent", "We waited till the end of the game.", "We waited until the end of the game."),
    ("equivalent", "Later, Tom testified against John so as to avoid the electric chair.",
     "Later, Tom testified against John to avoid the electric chair."),
    ("equivalent", "You should take this animal to a vet right away.",
     "You should take this animal to a vet immediately."),
    ("equivalent", "Montmartre is lively at night, with famous clubs such as Au Lapin Agile.",
     "Montmartre is lively at night, with famous clubs like Au Lapin Agile."),
    ("equivalent", "Yes, your sentence will be clearer if you write the actual word instead of the slash.",
     "Yes, your sentence will be clearer if you write the actual word rather than the slash."),
    ("equivalent", "A woman is pulling some kind of sticky goo out of a bowl.",
     "A woman is pulling some sort of sticky goo out of a bowl."),
    ("equivalent", "I'd be more inclined to believe that it's some sort of ring world.",
     "I'd be more inclined to believe that it's some kind of ring world."),
    ("equivalent", "The monitors were unable to reach the site.", "The monitors were not able to reach the site."),
    ("equivalent", "He is not able to come.", "He is unable to come."),
    ("percent", "Shares in Microsoft slipped 4.7 percent in after-hours trade to $27.54.",
     "Shares in Microsoft slipped 4.7% in after-hours trade to $27.54."),
    ("percent", "The 30-year bond dipped 14/32 for a yield of 4.26 percent from 4.23 percent.",
     "The 30-year bond dipped 14/32 for a yield of 4.26% from 4.23%."),
    ("percent", "Sovereign's shares lost 74 cents, or 4.5%, to $15.68.",
     "Sovereign's shares lost 74 cents, or 4.5 percent, to $15.68."),
    ("percent", "Spanish jobless rate soars past 25 per cent", "Spanish jobless rate soars past 25%"),
    ("to_ing", "WikiLeaks begins publishing two million Syria emails",
     "WikiLeaks begins to publish two million Syria emails"),
    ("to_ing", "Investigators continue to probe virtually every aspect of Campbell's personal and financial affairs.",
     "Investigators continue probing virtually every aspect of Campbell's personal and financial affairs."),
    ("to_ing", "Two kids begin to make a snowman on a sunny winter day.",
     "Two kids begin making a snowman on a sunny winter day."),
    ("to_ing", "The thing started to grow brighter.", "The thing started growing brighter."),
    ("fillers", "and you back in you know and or just pull into your spot and uh some you can rent by the year",
     "and you back in you know and or just pull into your spot and some you can rent by the year"),
    ("fillers", "uh we've gotten a little Atari computer uh husband describes it as a a computer with training wheels",
     "we've gotten a little Atari computer husband describes it as a a computer with training wheels"),
    ("fillers", "Well, uh, I think so.", "Well, I think so."),
    ("fillers", "Uh, I think so.", "I think so."),
    ("fillers", "Um, is the United States your, uh, birth country?", "Is the United States your birth country?"),
    ("fillers", "We went uh, to the store at noon.", "We went to the store at noon."),
    ("fillers", "I think so, uh.", "I think so."),
    ("between", "The main flaw would be the boundary between stars and planets.",
     "The main flaw would be the boundary between planets and stars."),
    ("between", "Budget negotiations between the mayor and the City Council are entering high gear.",
     "Budget negotiations between the City Council and the mayor are entering high gear."),
    ("between", "The war between France and England lasted long.",
     "The war between England and France lasted long."),
    ("repeats", "but those that are manufactured for sale in in Europe and",
     "but those that are manufactured for sale in Europe and"),
    ("repeats", "yeah and how about how about on the weekends", "yeah and how about on the weekends"),
    ("repeats", "no i i i don't know", "no i don't know"),
    ("repeats", "We we take pride often here of representing the european citizens.",
     "We take pride often here of representing the european citizens."),
    ("repeats", "get out of the the tent they're they're liable to come down",
     "get out of the tent they're liable to come down"),
    ("repeats", "i was in high in high school and college", "i was in high school and college"),
    ("repeats", "Toulouse shooting: France was on the highest level of security of security alert",
     "Toulouse shooting: France was on the highest level of security alert"),
    ("repeats", "the thing is is that you know it's late", "the thing is that you know it's late"),
    ("repeats", "and it it really helped a lot", "and it really helped a lot"),
    ("repeats", "senators that are getting kickbacks kickbacks from these companies",
     "senators that are getting kickbacks from these companies"),
    ("how_can", "How do I remove a stripped screw?", "How can I remove a stripped screw?"),
    ("how_can", "How can I fix my bike?", "How do I fix my bike?"),
]

# Each guard, on a sentence the rule would otherwise rewrite wrongly.
REFUSED = [
    ("equivalent", "The majority of invoices was created by two accomplices."),  # "Most invoices was created"
    ("equivalent", 'i would suggest that a few more than "nobody" cared.'),  # a quoted word is cited
    ("equivalent", "Everybody Loves Raymond is on tonight."),  # a title
    ("equivalent", "We watched Everybody Loves Raymond."),
    ("equivalent", "There is no one answer to this."),  # "no one" + noun: not the pronoun
    ("equivalent", "He is a nobody."),
    ("equivalent", "It is perhaps the best film of the year."),  # "perhaps" -> "maybe" only opening a clause
    ("equivalent", "Put the files in order to find them faster."),  # "in order": sorted
    ("equivalent", "Whether or not you like it, he is coming."),  # the adverbial clause needs "or not"
    ("equivalent", "What a lot of people!"),
    ("equivalent", "Parking lots of the mall were full."),
    ("equivalent", "They meet each other day."),  # "each other day": alternate days
    ("equivalent", "He was tired, though."),  # the adverb
    ("equivalent", "It looked as though it would rain."),
    ("equivalent", "Even though it rained, we went."),
    ("equivalent", "a process of becoming larger or longer or more numerous or more important."),
    ("equivalent", "The birds were numerous."),
    ("equivalent", "The vast majority of voters support it."),
    ("equivalent", "He earns no more than 5 dollars."),
    ("equivalent", "More than one person came."),
    ("equivalent", "He jumped more than 2 metres."),  # "jumped over 2 metres"
    ("equivalent", "The tree-lined avenue extends less than three blocks to the sea."),
    ("equivalent", "They talked about 5 cases."),  # "talk about": a topic
    ("equivalent", "The film is about 3 sisters."),
    ("equivalent", "It is not nearly as good."),
    ("equivalent", "The price was next to nothing."),
    ("equivalent", "That is beside the point."),
    ("equivalent", "Doctors said that one or both of the boys may die."),
    ("equivalent", "The second half of the book dealt with the use of the true name."),
    ("equivalent", "Three young men run, jump, and kick off of a Coke machine."),  # "kick off"
    ("equivalent", "Tulsa, OK is a city."),  # a state code
    ("equivalent", "It's OK, okay?"),  # both spellings
    ("equivalent", "We had a party (lots and lots of cheese) at home."),  # "lots and lots of" is fixed
    ("equivalent", "He was tired, in addition to hungry."),  # "in addition" without its comma
    ("equivalent", "Damage in excess of $5 million was reported."),  # after a noun: "damage more than $5"
    ("equivalent", "In few other modern cities are you likely to see such a variety of costumes."),
    ("equivalent", "Trucks turn over a variety of food on grill racks."),  # "various food": no plural
    ("equivalent", "The index was lately up 18 points."),  # after be: at the latest reading
    ("equivalent", "In some nowadays Indo-European languages you can still see it."),
    ("equivalent", "In these days of googling, it's sloppy."),
    ("equivalent", "The reason may be due to the fact that it rained."),  # "may be because"
    ("equivalent", "assets belonging to or due to or contributed by a person."),
    ("equivalent", "government income due to taxation."),  # after a noun: owed to
    ("equivalent", "The list was due to go into effect October 1."),  # scheduled
    ("equivalent", "A phenomenon is defined with respect to the orientation of the whole."),  # relative to
    ("equivalent", "Once upon a time there was a king."),
    ("equivalent", "discover or come upon accidentally."),  # "come upon" = find
    ("equivalent", "Daniel took it upon himself to explain a few things."),
    ("equivalent", "The holidays are upon us."),
    ("equivalent", "They built row upon row of houses."),
    ("equivalent", "The clock pointed to close upon five o'clock."),  # = nearly
    ("equivalent", "She put the cash in the till and left."),  # the noun
    ("equivalent", "place in a line or arrange so as to be parallel or straight."),  # "arrange to be parallel"
    ("equivalent", "He left early so as not to wake them."),
    ("equivalent", "questions such as, did Tripp ask to be moved?"),
    ("equivalent", "demonstratives such as this and that."),  # "like this": a manner
    ("equivalent", "The damage was such as to require repairs."),
    ("equivalent", "It was just like the wages paid to providers such as baby sitters."),  # "like ... like"
    ("equivalent", "That's very kind of you."),
    ("equivalent", "a kind of tree that grows in swamps."),  # a gloss's genus
    ("equivalent", "the first kind of invasion of privacy."),
    ("equivalent", "so constituted as to be unable to give away money."),  # "be not able to"
    ("percent", "Sixty percent of Americans are angry, and 70 percent favor federal intervention."),  # number word
    ("percent", "It rose 5% to 28 percent."),  # both styles
    ("percent", "Shares Rise 5% On Strong Earnings"),  # title case
    ("to_ing", "She is starting to cry."),  # "starting crying"
    ("to_ing", "They began to sing and dance."),  # "began singing and dance"
    ("to_ing", "I began to see the problem."),  # stative
    ("to_ing", "Amid continued fighting, talks stalled."),  # "continued" is an adjective
    ("to_ing", "Most of it, I couldn't even begin to identify."),
    ("to_ing", "He tried to run."),  # try/stop/remember...: the meaning changes
    ("to_ing", "He stopped smoking."),
    ("to_ing", "I would like to go home."),
    ("fillers", "The cell is 5 um wide."),  # a unit
    ("fillers", "uh um yeah"),  # nothing left
    ("fillers", "Um-hum, that's right."),
    ("fillers", "he could work all day Wednesday and uh, but I believe he will be tired."),  # a false start
    ("fillers", "And he um, they were filled up by noon."),  # "he they were": a false start
    ("fillers", "We moved into the city, um, the west side of Charlotte."),  # the commas may be the sentence's
    ("fillers", "Er diab... \": the word was cut off."),  # a capitalised "Er" without its comma
    ("between", "It costs between 1 and 4 dollars."),  # a range
    ("between", "Open between Monday and Friday."),
    ("between", "Just between you and me, it's fine."),
    ("between", "He was caught between a rock and a hard place."),
    ("between", "The ball fell between the rocks and the dog ran."),  # two clauses
    ("between", "The transition between winter and spring is short."),  # a direction
    ("between", "The part of the body between the neck and upper arm."),  # a shared determiner
    ("between", "Postal Service data define the relationship between costs and cost drivers."),
    ("between", "She said that scandal between husband and wife is a dreadful thing."),  # a fixed pair
    ("repeats", "I wish I had had more time."),  # grammatical doubles
    ("repeats", "I know that that is true."),
    ("repeats", "Well I do do my best."),
    ("repeats", "I gave her her book back."),
    ("repeats", "what it is is that nobody cares"),  # the subject is a clause
    ("repeats", "It was very very good."),  # intensifiers
    ("repeats", "i really really like it"),
    ("repeats", "It was only so so good."),
    ("repeats", "no no not at all it"),
    ("repeats", "all right thanks bye bye"),
    ("repeats", "ha ha that was funny"),
    ("repeats", "yeah yeah you know we're kind of that way too"),
    ("repeats", "oh my uh-huh uh-huh"),
    ("repeats", "It's not not true."),  # a double negation
    ("repeats", "The gardens are set on lands above the Wag Wag River."),  # names
    ("repeats", "We flew to Walla Walla yesterday."),
    ("repeats", "He sang New York New York twice."),
    ("repeats", "a thickness of 1 1/2 inches."),  # numbers
    ("repeats", "i bought a Bristol thirty five five for my wife"),
    ("repeats", "Three young girls are walking hand in hand in a crowd of people."),  # "hand in hand"
    ("repeats", "Air squats and lots and lots of jump rope."),  # "lots and lots"
    ("repeats", "we were told that dozens of dozens of people came"),
    ("repeats", "He gave in in the end."),  # a phrasal verb and a preposition
    ("repeats", "I don't want a job job, just some work."),  # a contrastive reduplication
    ("repeats", "when you scrape it it makes the water muddy"),  # object, then subject
    ("repeats", "that's high isn't it it really is"),
    ("repeats", "uh uh yeah that well um the older you get"),  # "uh-uh": the fillers rule's
    ("how_can", "How do I look?"),
    ("how_can", "How can I ever thank you?"),
    ("how_can", "How can I be so stupid?"),
    ("how_can", "How do you do that?"),
]

test_golden, test_refused, test_family = family_tests(GOLDEN, REFUSED, PHRASE_RULES)


def test_the_rules_are_deterministic_and_do_not_touch_sentences_without_their_phrases():
    plain = "A man is playing a guitar on the stage."
    for rule, function in PHRASE_RULES.items():
        assert function(plain, tokenize(plain), RewritesConfig()) is None, rule
    text = "Someone said more than 5 people began to cry, um, between the house and the barn."
    first = {r: f(text, tokenize(text), RewritesConfig()) for r, f in PHRASE_RULES.items()}
    assert first == {r: f(text, tokenize(text), RewritesConfig()) for r, f in PHRASE_RULES.items()}
    assert first["equivalent"] == "Somebody said more than 5 people began to cry, um, between the house and the barn."
    assert first["to_ing"] == "Someone said more than 5 people began crying, um, between the house and the barn."
    assert first["fillers"] is None  # between two commas after a word that is no interjection
    assert first["between"] == "Someone said more than 5 people began to cry, um, between the barn and the house."
