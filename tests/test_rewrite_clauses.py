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
]

# Each guard, on a sentence the rule would otherwise rewrite wrongly.
REFUSED = [
    ("back_clause", "When John arrived, he ate."),  # "he" could no longer be John
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
]

test_golden, test_refused, test_family = family_tests(GOLDEN, REFUSED, CLAUSE_RULES)


def test_a_sentence_without_an_opening_part_is_left_alone():
    for text in ("He stayed home because it was raining.", "Arafat cracked down on Hamas last year.", "Hi",
                 "In the", ", he said.", "In 2002 , the firm grew ."):
        for rule in CLAUSE_RULES.values():
            assert rule(text, tokenize(text), RewritesConfig()) is None
