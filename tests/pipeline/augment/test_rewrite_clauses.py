"""The rules that move a sentence's opening clause or phrase to its end (`pipeline.augment.rewrite_rules.clauses`):
golden rewrites on real sentences (STS 2012-2013, MNLI dev_matched, STS-B dev, SNLI dev) and plain ones, and each
guard on a sentence the rule would otherwise rewrite wrongly."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.augmenters.rewrites import RewritesConfig
from bsl_pipeline.pipeline.augment.rewrite_rules import tokenize
from bsl_pipeline.pipeline.augment.rewrite_rules.clauses import CLAUSE_RULES
from rewrite_cases import family_tests

GOLDEN = [
    ("back_clause", "Because it was raining, he stayed home.", "He stayed home because it was raining."),
    ("back_clause", "If all else failed, I could always make myself an exhibit.",
     "I could always make myself an exhibit if all else failed."),
    ("back_clause", "When I needed a travel tripod, I also opted for a Trekpod.",
     "I also opted for a Trekpod when I needed a travel tripod."),
    ("back_clause", "If you don't mind hosting your files online, SlideShare is a good solution.",
     "SlideShare is a good solution if you don't mind hosting your files online."),
    ("back_clause", ("Because marginal costs are very low, a newspaper price for preprints might be as low as 5 or 6 "
                     "cents per piece."),
     ("A newspaper price for preprints might be as low as 5 or 6 cents per piece because marginal costs are very "
      "low.")),
    ("back_clause", ("After protesters rushed the stage and twice cut power to the microphone, Hedges drew the speech "
                     "to an early close."),
     ("Hedges drew the speech to an early close after protesters rushed the stage and twice cut power to the "
      "microphone.")),
    # a concessive clause keeps a comma at the end
    ("back_clause", ("Although he was disliked by educated young Turks, Sultan Abdul Hamid II was loved by the older "
                     "generations."),
     ("Sultan Abdul Hamid II was loved by the older generations, although he was disliked by educated young "
      "Turks.")),
    # a clause without a subject: -ing verb
    ("back_clause", "Before colonizing the southern regions, the Greeks conquered the northern regions.",
     "The Greeks conquered the northern regions before colonizing the southern regions."),
    ("back_clause", "If it rains, then the game is cancelled.", "The game is cancelled if it rains."),
    ("back_clause", "While he was sleeping, the thief took the car!", "The thief took the car while he was sleeping!"),
    ("back_phrase", "Last year, they were spooked.", "They were spooked last year."),
    ("back_phrase", "In the United States, 20.7 percent of all women smoke.",
     "20.7 percent of all women smoke in the United States."),
    ("back_phrase", "In both Britain and America, the term covers nearly everybody.",
     "The term covers nearly everybody in both Britain and America."),
    ("back_phrase", "On July 10, a team of 32 Singaporean police officers was sent to Baghdad.",
     "A team of 32 Singaporean police officers was sent to Baghdad on July 10."),
    ("back_phrase", "Under Mexican law, bounty hunting is considered a form of kidnapping.",
     "Bounty hunting is considered a form of kidnapping under Mexican law."),
    ("back_phrase", "Earlier Thursday, PeopleSoft formally rejected the unsolicited bid from Oracle.",
     "PeopleSoft formally rejected the unsolicited bid from Oracle earlier Thursday."),
    ("back_phrase", "In afternoon trading, Aspen's shares were off 89 cents or more than 27 percent at $2.33.",
     "Aspen's shares were off 89 cents or more than 27 percent at $2.33 in afternoon trading."),
    ("back_phrase", "Despite protests by preservationists, there was little alternative.",
     "There was little alternative despite protests by preservationists."),
    ("back_phrase", "For centuries, the Loire river was a vital highway between the Atlantic and the heart of France.",
     "The Loire river was a vital highway between the Atlantic and the heart of France for centuries."),
    ("back_phrase", "Two years later, the insurance coverage would begin.",
     "The insurance coverage would begin two years later."),
    ("back_phrase", "In Islamist-led Egypt, Coptic Church names new pope",
     "Coptic Church names new pope in Islamist-led Egypt"),
    ("split_clauses", "He went home early, and his sister stayed at the party.",
     "He went home early. His sister stayed at the party."),
    ("split_clauses", "The tents had been burned, but there was a new building where the main tent had been.",
     "The tents had been burned. But there was a new building where the main tent had been."),
    ("split_clauses", "This was too long for a comment, so I am posting it as a CW-answer.",
     "This was too long for a comment. So I am posting it as a CW-answer."),
    ("split_clauses", "Your worry is a valid one; the reader could be frustrated by this.",
     "Your worry is a valid one. The reader could be frustrated by this."),
    ("split_clauses", "Ahmadinejad is embarking on an adventure; Bernanke is not.",  # a name keeps its case
     "Ahmadinejad is embarking on an adventure. Bernanke is not."),
    ("split_clauses", "Dynes will be paid $395,000 a year; Atkinson's salary is $361,400.",
     "Dynes will be paid $395,000 a year. Atkinson's salary is $361,400."),
    ("split_clauses", ("General Motors, for instance, lost $460 million to strikes in 1997, but investors treated the "
                       "costs as a kind of extraordinary charge."),  # an aside in the first clause
     ("General Motors, for instance, lost $460 million to strikes in 1997. But investors treated the costs as a "
      "kind of extraordinary charge.")),
    ("split_clauses", ("The church of Panagia Theoskepastos houses a fine 14th-century icon, and the Catholic "
                       "Cathedral has a tenth-century Madonna and Child."),  # "houses": a verb before its object
     "The church of Panagia Theoskepastos houses a fine 14th-century icon. The Catholic Cathedral has a tenth-century "
     "Madonna and Child."),
    ("split_clauses", "They encourage us to indulge ourselves, and they exhort us to worry about our competence!",
     "They encourage us to indulge ourselves. They exhort us to worry about our competence!"),
    ("split_clauses", "Your pile will compost without turning it, but it goes faster if you turn it.",
     "Your pile will compost without turning it. But it goes faster if you turn it."),
    ("split_clauses", ("A man is holding a pile of newspapers in a lobby, and a woman next to him has taken one of "
                       "the newspapers and is smiling."),
     ("A man is holding a pile of newspapers in a lobby. A woman next to him has taken one of the newspapers and is "
      "smiling.")),
    ("split_clauses", "Singapore reported no suspected SARS cases Wednesday, but officials quarantined 70 people.",
     "Singapore reported no suspected SARS cases Wednesday. But officials quarantined 70 people."),
]

# Each guard, on a sentence the rule would otherwise rewrite wrongly.
REFUSED = [
    ("back_clause", "When John arrived, he ate."),  # "he" could no longer be John
    ("back_phrase", "On trade terms, the stock exchange of Prague fell"),  # "fell on trade terms" reads as a cause
    ("back_clause", "When his colleagues aren't sadistic, they are mostly defeated."),  # "they" = his colleagues
    ("back_clause", "Though the two cities remained unlinked by rail, this was about to change quickly."),  # "this"
    ("back_clause", "Because it was raining, he didn't go out."),  # the scope of "not"
    ("back_clause", "Before the meeting ended, Putin said Russia regards Saudi Arabia as a key Muslim state."),
    ("back_clause", "If you have any questions, please call me."),  # an imperative
    ("back_clause", "If you want, can you call me?"),  # a question
    ("back_clause", "If anything, ultimate fighting is safer and less cruel than America's blood sport."),  # idiom
    ("back_clause", "As he stepped across the threshold, Tommy brought the picture down."),  # "as": no safe reading
    ("back_clause", "Although a small city-state, Singapore is a large trading partner."),  # no verb
    ("back_clause", "While parents may pick up this gay semaphore, kids aren't likely to."),  # an ellipsis
    ("back_clause", "If you wear a bear bell on your backpack, your fellow hikers will kill you for being annoying."),
    ("back_clause", "If you want to learn photography, almost any camera will do to start with."),  # to-infinitive
    ("back_clause", "When you crossed the line, you violated the constitutional right,\" said Weisselberg."),
    ("back_clause", "If you are a law,medicine or engineering student you meet a lot of requirements."),  # no comma
    ("back_clause", "When the war ended, we remembered the day."),  # "the day when": a relative clause
    ("back_clause", "After their savage battles, the warriors recuperated through meditation."),  # a phrase
    ("back_phrase", "In 2010, he said the firm would grow."),  # "in 2010" would go with "grow"
    ("back_phrase", "In fact, European nations need to do some serious fiscal housecleaning."),  # discourse
    ("back_phrase", "In addition, 6,800 people were in quarantine."),
    ("back_phrase", "With all precincts reporting, Fletcher had 88,747 votes."),  # "with": attaches to a noun
    ("back_phrase", ("In Hong Kong, 24 patients were quarantined Wednesday after seven hospital workers developed "
                     "flu-like symptoms.")),  # the place would go with the "after" clause
    ("back_phrase", ("In Millville yesterday, Mayor James Quinn ordered all city flags flown at half-staff for the "
                     "next 30 days.")),  # a second time in the main clause, and a participle
    ("back_phrase", "In a case in August, a 27-year-old laboratory worker in Singapore developed SARS."),
    ("back_phrase", "Under the rule, HUD may also accept an assignment of"),  # a cut sentence
    ("back_phrase", ("At the far end of David Street, Temple Mount is one of the world's most sacred spots to three "
                     "major religions.")),  # a long main clause: the place would go with "religions"
    ("back_phrase", "In traditional grammar, the word doing is a participle in all your examples."),  # in ... in
    ("back_phrase", "In a magical space looking out over the sea, the columns create a perfect framework."),
    ("back_phrase", "In September, a 27-year-old Singapore researcher contracted SARS while working in a lab."),
    ("back_phrase", "On Tuesday, a Florida appeals court again refused to block removal of the tube."),  # to-inf.
    ("back_phrase", "From here, many researchers are putting their hopes on new strategies."),  # "from": no time
    ("back_phrase", "Under NASD regulations, Mr. Young can file a response and request a hearing."),  # two verbs
    ("back_phrase", "In Kentucky, what did Chandler say?"),  # a question
    ("back_phrase", "At CPAC, Mitt Romney Stresses Conservative Credentials"),  # a headline in title case
    ("back_phrase", "In Texas, the legislature, the governor and the courts agreed."),  # several commas
    ("back_phrase", "Five minutes later, the Command Center forwarded this update to Command O.K."),  # "O.K." ends it
    ("back_clause", "If you can afford the help of a personal trainer, go for one."),  # an imperative ("go")
    ("split_clauses", "I touched my palm to his mutilated cheek, and tried to stem my instinctive revulsion."),  # no
    # subject: a verb phrase
    ("split_clauses", "He went home, and so did his sister."),  # an inversion that needs the first clause
    ("split_clauses", "She didn't like it, and neither did he."),
    ("split_clauses", "He saved his money carefully, so that he could buy a house."),  # "so that": a purpose
    ("split_clauses", "If it rains tomorrow, the game is off, and we will stay home."),  # "if" scopes over both
    ("split_clauses", "When he got home, he was tired, and his sister was asleep."),
    ("split_clauses", "Sadly, vandals removed all the tomb's treasures, but they did leave the inlaid stones."),
    ("split_clauses", "The next morning they ate dry bread, and the men left for the hills."),  # a fronted time
    ("split_clauses", ("Today, the island is little more than a forgotten backwater, but its strong natural "
                       "defenses gave it advantages in ancient times.")),  # a fronted phrase
    ("split_clauses", ("The Balanced Scorecard Institute is a web clearinghouse for managers to exchange information, "
                       "ideas, and lessons learned in building strategic management systems.")),  # a list
    ("split_clauses", "A woman lies on a bed with a red, orange, and blue striped comforter crumpled up next to her."),
    ("split_clauses", ("He unleashed a 16-day reign of terror that left 300 Madeirans dead, stocks of sugar destroyed, "
                       "and the island plundered.")),  # a list whose last item looks like a clause
    ("split_clauses", ("Four children playing at a preschool, one looking out the window, one is running, and the "
                       "other two are playing with wooden blocks.")),  # a list of clauses
    ("split_clauses", "Did he go home, or did his sister stay at the party, and why?"),  # a question
    ("split_clauses", ("Hamon said the proposed bill has attracted a number of co-sponsors, and Legal Aid backers are "
                       "hoping to get it passed.")),  # the second clause may be reported too
    ("split_clauses", ("Bush the elder came of age when New England Republicans led the party, and patrician manners "
                       "were boons to a Republican.")),  # the second clause may be inside "when"
    ("split_clauses", ("Part of the reason may be due to the fact that five percent of deliveries are businesses, and "
                       "it is thought that a lesser percentage of rural deliveries are businesses.")),  # "fact that"
    ("split_clauses", ("Investigators uncovered a 4-inch bone fragment Thursday, but it turned out to be an animal "
                       "bone, authorities said.")),  # the attribution may cover both clauses
    ("split_clauses", ("We were playing all sorts of sports, and you were not, so shut up and stop twitching,' the "
                       "microbe's tone of voice changed.")),  # a quotation across the split
    ("split_clauses", "He said \"I went home, and my sister stayed at the party.\""),
    ("split_clauses", ("This provides insight into the concept of katachi, the rough equivalent of It isn't what you "
                       "do; it's the way that you do it.")),  # a saying without quotes
    ("split_clauses", "It rained, and we stayed home."),  # a first part under four words
    ("split_clauses", "Fine powdery material; the remains of something destroyed or broken up."),  # no clauses
    ("split_clauses", "A father helps his son ride a bike across dry, and dusty dirt accompanied by his sister."),
    ("split_clauses", "Take the first left after the bridge, and you'll see the house."),  # an imperative: a condition
]

test_golden, test_refused, test_family = family_tests(GOLDEN, REFUSED, CLAUSE_RULES)


def test_a_sentence_without_an_opening_part_is_left_alone():
    for text in ("He stayed home because it was raining.", "Arafat cracked down on Hamas last year.", "Hi",
                 "In the", ", he said.", "In 2002 , the firm grew ."):
        for rule in CLAUSE_RULES.values():
            assert rule(text, tokenize(text), RewritesConfig()) is None
