"""The name and quantifier rules of the `rewrites` method (pipeline/augment/rewrite_rules/names.py): each rule's
golden rewrites and each guard's refusal, on dev sentences (STS 2012-2013, STS-B dev, MNLI dev_matched, SNLI dev) and
plain ones; the rules are registered and reached by the augmenter."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
from bsl_pipeline.pipeline.augment.augmenters.rewrites import RewritesConfig, tokenize
from bsl_pipeline.pipeline.augment.rewrite_rules.names import NAME_RULES
from rewrite_cases import family_tests

GOLDEN = [
    # abbreviation: countries and organisations, written in full
    ("abbreviation", "He was the Ace of Diamonds in a pack of cards depicting Iraqi fugitives that has been issued "
                     "to U.S. troops.",
     "He was the Ace of Diamonds in a pack of cards depicting Iraqi fugitives that has been issued to United States "
     "troops."),
    ("abbreviation", "Over most of the 1980s and 1990s, the U.S. was able to invest more than it saved by attracting "
                     "financing from abroad.",
     "Over most of the 1980s and 1990s, the United States was able to invest more than it saved by attracting "
     "financing from abroad."),
    ("abbreviation", "The cane plantations, increasingly in the hands of American tycoons, found a ready market in "
                     "the US.",
     "The cane plantations, increasingly in the hands of American tycoons, found a ready market in the United "
     "States."),
    ("abbreviation", "US decries Pakistan doctor's fate", "United States decries Pakistan doctor's fate"),
    ("abbreviation", "China activist Chen lands in US", "China activist Chen lands in the United States"),
    ("abbreviation", "Kerry Calls On UN Security Council to Act on Syria",
     "Kerry Calls On United Nations Security Council to Act on Syria"),
    ("abbreviation", "UN monitors unable to reach site of Syria killings",
     "United Nations monitors unable to reach site of Syria killings"),
    ("abbreviation", "Gerry Kiely, an EU agriculture representative in Washington, said EU ministers were invited.",
     "Gerry Kiely, a European Union agriculture representative in Washington, said European Union ministers were "
     "invited."),
    ("abbreviation", "UK spends £3m on foreign prisons", "United Kingdom spends £3m on foreign prisons"),
    # ... and back
    ("abbreviation", "In the United States, 20.7 percent of all women smoke.",
     "In the U.S., 20.7 percent of all women smoke."),
    ("abbreviation", "LASNNY is one of the oldest and most cost-effective legal services organizations in the United "
                     "States.",
     "LASNNY is one of the oldest and most cost-effective legal services organizations in the U.S."),
    ("abbreviation", "\"The European Union is basically absent,\" said Tito Barbini.",
     "\"The EU is basically absent,\" said Tito Barbini."),
    ("abbreviation", "He met a European Union envoy.", "He met an EU envoy."),
    # months, titles, versus, ampersand
    ("abbreviation", "A federal appeals court ruled Tuesday that the government was free to withhold the names of "
                     "more than 700 people detained in the aftermath of Sept. 11, 2001.",
     "A federal appeals court ruled Tuesday that the government was free to withhold the names of more than 700 "
     "people detained in the aftermath of September 11, 2001."),
    ("abbreviation", "The report was found Oct. 23, tucked inside an old three-ring binder.",
     "The report was found October 23, tucked inside an old three-ring binder."),
    ("abbreviation", "Gov. Linda Lingle and other dignitaries are scheduled to be at the base to watch the launch.",
     "Governor Linda Lingle and other dignitaries are scheduled to be at the base to watch the launch."),
    ("abbreviation", "No Americans were reported among the casualties, according to Capt. Michael Calvert.",
     "No Americans were reported among the casualties, according to Captain Michael Calvert."),
    ("abbreviation", "In Kentucky, Democratic Attorney General Ben Chandler faces Rep. Ernie Fletcher.",
     "In Kentucky, Democratic Attorney General Ben Chandler faces Representative Ernie Fletcher."),
    ("abbreviation", "I've noticed a remarkable difference when I run on the treadmill vs when I run on the road.",
     "I've noticed a remarkable difference when I run on the treadmill versus when I run on the road."),
    ("abbreviation", "The case of Roe v. Wade was decided in 1973.",
     "The case of Roe versus Wade was decided in 1973."),
    ("abbreviation", "Wigan 3-2 Wolves: Match report, pictures & video highlights",
     "Wigan 3-2 Wolves: Match report, pictures and video highlights"),
    ("abbreviation", "A young lady walking down the street wearing a black jacket, sunglasses, sneakers, jeans, & "
                     "gloves.",
     "A young lady walking down the street wearing a black jacket, sunglasses, sneakers, jeans, and gloves."),
    # apposition
    ("apposition", "Ross Garber, Rowland's legal counsel, said the governor would have no comment on the condo deal.",
     "Rowland's legal counsel, Ross Garber, said the governor would have no comment on the condo deal."),
    ("apposition", "Darren Dopp, a Spitzer spokesman, declined to comment late Thursday.",
     "A Spitzer spokesman, Darren Dopp, declined to comment late Thursday."),
    ("apposition", "Colin Powell, the Secretary of State, said contacts with Iran would not stop.",
     "The Secretary of State, Colin Powell, said contacts with Iran would not stop."),
    ("apposition", "The Irish Architectural Archive, a library of architectural materials, is at number 73 on the "
                   "south side of the square.",
     "A library of architectural materials, the Irish Architectural Archive, is at number 73 on the south side of "
     "the square."),
    # however: after the subject, and back
    ("however", "Moreover, the major oil exporters are not willing to submit their investment policies to market "
                "conditions.",
     "The major oil exporters, moreover, are not willing to submit their investment policies to market "
     "conditions."),
    ("however", "However, the other young lady was most kind.", "The other young lady, however, was most kind."),
    ("however", "Therefore, many leading finance organizations have calculated and compared these percentages.",
     "Many leading finance organizations, therefore, have calculated and compared these percentages."),
    ("however", "Moreover, Las Vegas has recently started to show signs of maturity in its cultural status as well.",
     "Las Vegas, moreover, has recently started to show signs of maturity in its cultural status as well."),
    ("however", "However, the associated cost is high.", "The associated cost, however, is high."),  # not "cost is"
    ("however", "However, they said the plan would fail.", "They, however, said the plan would fail."),
    ("however", "The Ovitz deal, however, contained none of these goodies.",
     "However, the Ovitz deal contained none of these goodies."),
    ("however", "Washington, however, said more was needed to prevent complaints being filed in the first place.",
     "However, Washington said more was needed to prevent complaints being filed in the first place."),
    ("however", "Unfortunately, the magnet schools began the undoing of desegregation in Charlotte.",
     "The magnet schools, unfortunately, began the undoing of desegregation in Charlotte."),
    ("however", "Apparently, Greuze was not worried about needing protection.",
     "Greuze, apparently, was not worried about needing protection."),
    ("however", "Surprisingly, the team won the final.", "The team, surprisingly, won the final."),
    ("however", "The results, sadly, were not published.", "Sadly, the results were not published."),
    # a_lot: many <-> a lot of, all the -> all of the
    ("a_lot", "Many people rely on their local government for protection.",
     "A lot of people rely on their local government for protection."),
    ("a_lot", "I've tried many of the things mentioned above, but they never really worked for me.",
     "I've tried a lot of the things mentioned above, but they never really worked for me."),
    ("a_lot", "Here you'll find many clothing stores for all ages.", "Here you'll find a lot of clothing stores for "
                                                                      "all ages."),
    ("a_lot", "A lot of people are going to look at it.", "Many people are going to look at it."),
    ("a_lot", "This lady had a lot of freckles.", "This lady had many freckles."),
    ("a_lot", "I don't know all the answers, fella.", "I don't know all of the answers, fella."),
    ("a_lot", "You'll find galleries in all the major towns and in some of the smaller villages.",
     "You'll find galleries in all of the major towns and in some of the smaller villages."),
]

# Each guard, on a sentence the rule would otherwise rewrite wrongly.
REFUSED = [
    ("abbreviation", "The oval office represents the President of the United States."),  # a title stays in full
    ("abbreviation", "US man recovers car 42 years after theft"),  # "United States man": a nationality
    ("abbreviation", "Two UK Soldiers Killed In Afghanistan"),  # "United Kingdom Soldiers"
    ("abbreviation", "Kidnapped UK aid worker killed in Pakistan"),  # a British aid worker
    ("abbreviation", "GlaxoSmithKline, the UK drugmaker, has said it would cut off supplies."),
    ("abbreviation", "US Airways Flight 5481 crashed."),  # a company's name
    ("abbreviation", "The system is priced from US$1.1 million to $22.4 million, depending on configuration."),
    ("abbreviation", "Please let US know what you think."),  # the pronoun
    ("abbreviation", "According to canon, Leia was an expert in combat (this is from EU books)."),  # not the union
    ("abbreviation", "The surging dollar failed to stay above the 75 cent (U.S.) mark."),
    ("abbreviation", "Based on field observations and some discussions with U.S."),  # a cut-off "U.S. officials"?
    ("abbreviation", "Regulation M is adopted under the Securities Act, 15 U.S.C."),  # United States Code
    ("abbreviation", "Singapore is already the United States' 12th-largest trading partner."),  # "the U.S.' partner"
    ("abbreviation", "He was born in the United States of America."),
    ("abbreviation", "Police spokesman Brig. Gen. Edward Aritonang confirmed Saturday that two had been arrested."),
    ("abbreviation", "Instead, the task fell to Erving, but knowing Sen."),  # no name after the title
    ("abbreviation", "Cisco has similar relationships with SBC Communications, AT&T and Sprint."),
    ("abbreviation", "The broad Standard & Poor's 500 Index was up 8.79 points."),
    ("abbreviation", "AT&amp;T and MCI have protested the tax."),
    ("abbreviation", "US STOCKS FALL AS GREEK TALKS LUMBER"),  # capitals
    ("abbreviation", "The Jan. issue was late."),  # a month without its day
    ("abbreviation", "US stocks ease in choppy trading"),  # "United States stocks": their origin, not the state's
    ("abbreviation", "U.S., French presidents vow to punish Syrian government"),  # a coordinated modifier
    ("apposition", "Graham, a presidential candidate, was criticized by several Republicans."),  # a lone surname
    ("apposition", "Toll, Australia's second-largest transport company, last week offered NZ75 a share."),
    ("apposition", "Sure, the man yells back, you're in a hot air balloon."),  # not a name
    ("apposition", "Kyi, a U.N. envoy says, as Japan adds to growing pressure."),  # a clause
    ("apposition", "Roy Moore, the suspended chief justice of the Alabama Supreme Court, stood accused."),  # too long
    ("apposition", "In Vienna, the IAEA said ElBaradei would accept the invitation."),
    ("however", "Moreover, it is possible to have questions that require nested case studies."),  # expletive "it"
    ("however", "Meanwhile, a site established for the WorldAid '96 Global Expo gives you a firsthand glimpse."),
    ("however", "However, the extent to which these comments were available varied substantially."),
    ("however", "Meanwhile, critics on the left argue that the intervention is suspect."),  # no short subject
    ("however", "Instead, Weida decided that the case should proceed to a court-martial."),  # not moved
    ("however", "Still, Mr. Weill will remain very much a power at the company."),
    ("however", "In the stock market, however, the damage can get much worse."),  # a prepositional phrase
    ("however", "Critics, however, argue that it is too late."),  # "However, Critics argue"
    ("however", "However, the man arrested said nothing."),  # "The man, however, arrested said"
    ("however", "Indeed, Wolfowitz admitted Saturday that neither would solve the issue."),  # emphasis shifts
    ("however", "Clearly, the press has done a lousy job."),  # "The press, clearly, has" reads as its manner
    ("a_lot", "How many people came?"),
    ("a_lot", "There were so many people that we left."),
    ("a_lot", "Massive tidal waves swept over Crete, drowning many thousands of people."),
    ("a_lot", "Nowadays, a poverty lawyer works for one of New York's many agencies."),
    ("a_lot", "Many years ago, I lived in Paris."),  # "a lot of years ago"
    ("a_lot", "Therein lies the essence of many delights."),  # "of a lot of"
    ("a_lot", "There's a lot of villas all the way along."),  # "There's many villas"
    ("a_lot", "We spent a lot of money on it."),  # not a count noun
    ("a_lot", "He spends a lot of the time at home."),
    ("a_lot", "But in the end, all the worm did was visit a pornography site."),  # "all of the worm did"
    ("a_lot", "It was all the same to him."),
    ("a_lot", "Of all the people in the world, you came."),
    ("a_lot", "He had read All the Pretty Horses."),
    ("a_lot", "Many thanks for your help."),
]

test_golden, test_refused, test_family = family_tests(GOLDEN, REFUSED, NAME_RULES)


def test_a_sentence_with_both_styles_is_left_alone():
    text = "The U.S. and the United States are one country."
    assert NAME_RULES["abbreviation"](text, tokenize(text), RewritesConfig()) is None


def test_the_augmenter_applies_the_name_rules():
    aug = build_augmenter("rewrites", {"rules": list(NAME_RULES)})
    texts = ["Gov. Rick Perry opposes expansion of gambling.", "Many people are on the beach.",
             "However, the company said it would appeal.", "A dog runs on the beach."]
    pairs = list(aug.augment([SourceRecord(source_id=f"r{i}", text=t) for i, t in enumerate(texts)], 0))
    assert [p.info["rules"] if p.reject is None else p.reject for p in pairs] == [
        ["abbreviation"], ["a_lot"], ["however"], "no_rule_applies"]
    assert pairs[2].view2 == "The company, however, said it would appeal."
