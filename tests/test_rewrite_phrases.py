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
    ("how_can", "How do I remove a stripped screw?", "How can I remove a stripped screw?"),
    ("how_can", "How can I fix my bike?", "How do I fix my bike?"),
]

# Each guard, on a sentence the rule would otherwise rewrite wrongly.
REFUSED = [
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
