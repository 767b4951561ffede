"""The voice rules of the `rewrites` method (pipeline/augment/rewrite_rules/voice.py): each rule's golden rewrites and
each guard's refusal, on dev sentences (STS 2012-2013, STS-B dev, MNLI dev_matched, SNLI dev), SICK and SNLI test
captions, and plain ones; the rules are registered and reached by the augmenter."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
from bsl_pipeline.pipeline.augment.rewrite_rules.voice import VOICE_RULES
from rewrite_cases import family_tests

GOLDEN = [
    # passive_by: dev and test sentences
    ("passive_by", "Its keywords are supported by Chinese language Web portals.",
     "Chinese language Web portals support its keywords."),
    ("passive_by", "He later learned that the incident was caused by the Concorde's sonic boom.",
     "He later learned that the Concorde's sonic boom caused the incident."),
    ("passive_by", "This report was cleared by the Joint Intelligence Committee.",
     "The Joint Intelligence Committee cleared this report."),
    ("passive_by", "Seemingly endemic corruption was compounded by a remarkable dearth of political leadership and "
                   "decisive action.",
     "A remarkable dearth of political leadership and decisive action compounded seemingly endemic corruption."),
    ("passive_by", "The carriage is drawn by a horse.", "A horse draws the carriage."),
    ("passive_by", "A child in red is guided by an adult.", "An adult guides a child in red."),
    ("passive_by", "A bucket of flowers is carried by a woman .", "A woman carries a bucket of flowers ."),
    ("passive_by", "The car was nearly hit by a train .", "A train nearly hit the car ."),
    ("passive_by", "The team of men were attacked by a shark .", "A shark attacked the team of men ."),
    ("passive_by", "Two boys are surrounded by toys .", "Toys surround two boys ."),
    ("passive_by", "workers are blinded by the sun", "The sun blinds workers"),
    ("passive_by", "The customers are impressed by the hard work of the waitress .",
     "The hard work of the waitress impresses the customers ."),
    # plain ones: tenses, agreement, negation, pronouns, a time or place at the end
    ("passive_by", "The proposed rule was changed by AMS.", "AMS changed the proposed rule."),
    ("passive_by", "The song is sung by children.", "Children sing the song."),
    ("passive_by", "The house has been bought by a local family.", "A local family has bought the house."),
    ("passive_by", "The claims have been rejected by the courts.", "The courts have rejected the claims."),
    ("passive_by", "The claims had not been rejected by the courts.", "The courts had not rejected the claims."),
    ("passive_by", "The report wasn't approved by the board.", "The board didn't approve the report."),
    ("passive_by", "The report was not approved by the board.", "The board did not approve the report."),
    ("passive_by", "The rule is not enforced by the police.", "The police do not enforce the rule."),
    ("passive_by", "The reforms were never accepted by the unions.", "The unions never accepted the reforms."),
    ("passive_by", "He was adopted by the Brodkeys.", "The Brodkeys adopted him."),
    ("passive_by", "They were defeated by him.", "He defeated them."),
    ("passive_by", "I was told by my doctor.", "My doctor told me."),
    ("passive_by", "Earnings were affected by a weak dollar.", "A weak dollar affected earnings."),
    ("passive_by", "The song was written by Lennon and McCartney.", "Lennon and McCartney wrote the song."),
    ("passive_by", "The villages were built by the Genoese in the 14th century.",
     "The Genoese built the villages in the 14th century."),
    ("passive_by", "The man was arrested by police in Ohio.", "Police arrested the man in Ohio."),
    ("passive_by", "But the vase was broken by the cat yesterday.", "But the cat broke the vase yesterday."),
    ("passive_by", "The bill was widely praised by critics.", "Critics widely praised the bill."),
    ("passive_by", "Apple was sued by Samsung.", "Samsung sued Apple."),  # a known name keeps its capital
    # headline_active: dev headlines
    ("headline_active", "Mauritanian president shot by army unit", "Army unit shoots Mauritanian president"),
    ("headline_active", "Two British soldiers killed by Afghan policeman",
     "Afghan policeman kills two British soldiers"),
    ("headline_active", "Police officer shot by gunman", "Gunman shoots police officer"),
    ("headline_active", "Taiwan rattled by strong earthquake", "Strong earthquake rattles Taiwan"),
    ("headline_active", "China rocked by twin earthquakes", "Twin earthquakes rock China"),
    ("headline_active", "Drug lord captured by marines in Mexico", "Marines capture drug lord in Mexico"),
    ("headline_active", "Nigeria university mass attacked by gunmen", "Gunmen attack Nigeria university mass"),
    ("headline_active", "Romney rocked by secret video", "Secret video rocks Romney"),
    ("headline_active", "US embassy attacked by protesters", "Protesters attack US embassy"),
    ("headline_active", "Girl bitten by dog", "Dog bites girl"),
]

# Each guard, on a sentence the rule would otherwise rewrite wrongly.
REFUSED = [
    # the subject or the agent is no plain noun phrase
    ("passive_by", "A county firefighter, was struck by lightning and was in stable condition at Frankfort Regional "
                   "Medical Center."),
    ("passive_by", "These despicable acts were committed by killers whose only faith is hate."),
    ("passive_by", "Restored in 1967, the beautiful exterior is complemented by the fine period furniture housed "
                   "inside."),
    ("passive_by", "A dog with a purple leash is held by a woman wearing white shoes ."),  # "... hold a dog"
    ("passive_by", "A raven haired woman is seen by the crowd holding a white opened umbrella ."),
    ("passive_by", "The car was driven by a man in a suit."),  # the phrase would have to move with the agent
    ("passive_by", "The commentary is chanted by a chorus of six to eight narrators (reminiscent of the chorus in "
                   "Greek tragedy)."),
    ("passive_by", "You are loved by many."),  # "Many loves you."
    # something after the agent, another prefix, a question
    ("passive_by", "A 1994 Roper Poll concluded that the NewsHour is perceived by the public as the most credible "
                   "newscast in the country."),
    ("passive_by", "The suspect has been identified by police as John Smith."),
    ("passive_by", "Franklin County Judge-Executive Teresa Barton said a firefighter was struck by lightning."),
    ("passive_by", "Is the house owned by him?"),
    # modal and progressive passives, a participle not followed by "by"
    ("passive_by", "The door must be opened by a key."),
    ("passive_by", "Lucent Technologies is being investigated by two federal agencies."),
    ("passive_by", "The bill was signed into law by the president."),
    # "by" that starts no agent
    ("passive_by", "Only 29 families of frogs are known, most of which were named by the mid-1800s."),
    ("passive_by", "The taxes are submitted by Aug. 22."),
    ("passive_by", "The work was done by hand."),
    ("passive_by", "The letter was sent by mail."),
    ("passive_by", "The results were known by then."),
    ("passive_by", "He was paid by the hour."),
    ("passive_by", "The plan was approved by a vote of 5 to 4."),
    ("passive_by", "He was elected by a wide margin."),
    ("passive_by", "The match was lost by two goals."),
    ("passive_by", "The city was surrounded by the end of the day."),
    ("passive_by", "In other areas, sharia law is being introduced by force."),
    # adjectival or stative participles, position verbs, amounts
    ("passive_by", "A woman and a man are amused by headphones."),
    ("passive_by", "Schools Chancellor Joel Klein said he was pleased by the results."),
    ("passive_by", "A motorcycle is parked by a mural of a city in the evening."),
    ("passive_by", "People are gathered by a tree."),
    ("passive_by", "The price was increased by ten percent."),
    ("passive_by", "He was taken by surprise."),
    # the agent's number or the subject's case unsure
    ("passive_by", "The area is governed by the United States."),
    ("passive_by", "The museum is visited by thousands of tourists."),
    ("passive_by", "The results are determined by the data."),
    ("passive_by", "Bush was criticized by Democrats."),  # "criticized bush"
    # headline_active
    ("headline_active", "U.S. says saddened by shooting on Afghan civilians"),
    ("headline_active", "Syrian forces accused by UN of war crimes"),  # "UN of war crimes accuses"
    ("headline_active", "May Day marked by protests against austerity cuts"),
    ("headline_active", "Two U.S. soldiers shot, killed by Afghan soldier"),
    ("headline_active", "Bank of England's Paul Tucker tainted by Libor mess"),  # "bank of England's"
    ("headline_active", "Man Arrested By Police"),  # title case
    ("headline_active", "Obama stopped by a diner"),  # active
    ("headline_active", "Bush criticized by Democrats"),
    ("headline_active", "a body of rules followed by an assembly"),  # a gloss
    ("headline_active", "Protesters gathered by the river"),
]

test_golden, test_refused, test_family = family_tests(GOLDEN, REFUSED, VOICE_RULES)


def test_the_augmenter_applies_the_voice_rules():
    aug = build_augmenter("rewrites", {"rules": list(VOICE_RULES)})
    texts = ["The proposed rule was changed by AMS.", "China rocked by twin earthquakes", "A dog runs on the beach."]
    pairs = list(aug.augment([SourceRecord(source_id=f"r{i}", text=t) for i, t in enumerate(texts)], 0))
    assert [p.info["rules"] if p.reject is None else p.reject for p in pairs] == [
        ["passive_by"], ["headline_active"], "no_rule_applies"]
    assert [p.view2 for p in pairs[:2]] == ["AMS changed the proposed rule.", "Twin earthquakes rock China"]
