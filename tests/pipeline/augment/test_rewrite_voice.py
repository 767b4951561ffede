"""The voice rules of the `rewrites` method (pipeline/augment/rewrite_rules/voice.py): each rule's golden rewrites and
each guard's refusal, on dev sentences (STS 2012-2013, STS-B dev, MNLI dev_matched, SNLI dev), SICK and SNLI test
captions, SICK and STS-B train captions, and plain ones; the rules are registered and reached by the augmenter."""

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
    # caption_passive: SICK, STS-B and SNLI captions, and plain ones
    ("caption_passive", "A man is slicing a potato.", "A potato is being sliced by a man."),
    ("caption_passive", "Two dogs are chasing a ball in the park.", "A ball is being chased in the park by two dogs."),
    ("caption_passive", "The woman is slicing herbs", "Herbs are being sliced by the woman"),
    ("caption_passive", "A woman is slicing an onion with a knife.",
     "An onion is being sliced with a knife by a woman."),
    ("caption_passive", "A woman is cracking eggs into a bowl", "Eggs are being cracked into a bowl by a woman"),
    ("caption_passive", "One man is feeding a mouse to the snake", "A mouse is being fed to the snake by one man"),
    ("caption_passive", "A man is buttering a piece of bread", "A piece of bread is being buttered by a man"),
    ("caption_passive", "A man in a blue cowboy hat is riding a white horse",
     "A white horse is being ridden by a man in a blue cowboy hat"),
    ("caption_passive", "A man and woman are riding a motorcycle.", "A motorcycle is being ridden by a man and woman."),
    ("caption_passive", "Someone is scratching the belly of an animal",
     "The belly of an animal is being scratched by someone"),
    ("caption_passive", "A man is playing a guitar.", "A guitar is being played by a man."),
    ("caption_passive", "A woman is kneading dough.", "Dough is being kneaded by a woman."),
    ("caption_passive", "A man is mowing grass", "Grass is being mowed by a man"),
    ("caption_passive", "A man is smelling two pizzas.", "Two pizzas are being smelled by a man."),
    ("caption_passive", "A dog is catching a frisbee.", "A frisbee is being caught by a dog."),
    ("caption_passive", "Someone is greasing a cutting board.", "A cutting board is being greased by someone."),
    ("caption_passive", "The man is riding a bike down a dirt hill.",
     "A bike is being ridden down a dirt hill by the man."),
    ("caption_passive", "John is riding a horse.", "A horse is being ridden by John."),
    ("caption_passive", "A man slices a potato.", "A potato is sliced by a man."),
    # a phrase without a determiner: a result after "into", a place without its article, a verb's material
    ("caption_passive", "A man is slicing a potato into pieces.", "A potato is being sliced into pieces by a man."),
    ("caption_passive", "A woman is playing a flute on stage.", "A flute is being played on stage by a woman."),
    ("caption_passive", "A boy is filling a pitcher with water.", "A pitcher is being filled with water by a boy."),
    ("caption_passive", "A man breaks a bottle with a sword.", "A bottle is broken with a sword by a man."),
    # caption_active: SICK captions and plain ones
    ("caption_active", "A potato is being sliced by a man.", "A man is slicing a potato."),
    ("caption_active", "Eggs are being cracked into a bowl by a woman", "A woman is cracking eggs into a bowl"),
    ("caption_active", "A white horse is being ridden by a man in a blue cowboy hat",
     "A man in a blue cowboy hat is riding a white horse"),
    ("caption_active", "A yellow kayak is being ridden by a man and a young boy",
     "A man and a young boy are riding a yellow kayak"),
    ("caption_active", "A song is being sung by a clown", "A clown is singing a song"),
    ("caption_active", "Some water is being drunk by a cat", "A cat is drinking some water"),
]

# Each guard, on a sentence the rule would otherwise rewrite wrongly.
REFUSED = [
    ("passive_by", "The ball was kicked by Smith of"),  # a sentence cut after "of" (and no crash)
    ("headline_active", "Man shot by Army of"),  # a sentence cut after "of" (and no crash)
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
    # a relation verb whose active lacks its second term
    ("passive_by", "positive battery terminal is separated by a gap"),  # "A gap separates positive battery terminal"
    ("passive_by", "The towns were connected by a railway."),
    # a sentence adverb before the subject
    ("passive_by", "Unfortunately operators haven't been aided by technical innovation."),  # "aided unfortunately"
    ("passive_by", "Surprisingly farmers were helped by the new law."),
    # a focus or degree adverb between the auxiliary and the participle
    ("passive_by", "The problem is only faced by today's retail buyers."),  # "buyers only face": another focus
    ("passive_by", "The project was primarily funded by the state."),
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
    # caption_passive: verbs left out, "play" without an instrument
    ("caption_passive", "Boys are playing soccer."),
    ("caption_passive", "A man is playing guitar."),  # a bare singular count noun
    ("caption_passive", "A man is wearing a hat."),
    ("caption_passive", "A man is taking a picture."),
    ("caption_passive", "A boy is doing a trick."),
    ("caption_passive", "A man is crossing the street."),
    ("caption_passive", "A man is climbing a tree."),
    ("caption_passive", "A woman is watching a movie."),
    ("caption_passive", "A white Swiss airplane approaches the runway."),  # a goal: "The runway is approached by"
    ("caption_passive", "A small plane is approaching the airport."),
    # the object: body parts, possessives, pronouns, particles, an unsure number or quantity
    ("caption_passive", "A man is shaking his head."),
    ("caption_passive", "A girl is raising a hand."),
    ("caption_passive", "A man is washing his car."),
    ("caption_passive", "A cat is licking himself."),
    ("caption_passive", "A man is hugging someone."),
    ("caption_passive", "A man is picking up a ball."),
    ("caption_passive", "A man is picking a ball up."),
    ("caption_passive", "A man is walking on the beach."),
    ("caption_passive", "A man is singing to a woman."),
    ("caption_passive", "The man is cleaning the fish."),
    ("caption_passive", "A man removes a couple of toaster scrambles from a plastic packet."),
    # what follows the object
    ("caption_passive", "A man is kissing a woman with long hair."),
    ("caption_passive", "A dog is biting a man in a red shirt."),
    ("caption_passive", "Two boys are holding red kites with water in the background."),
    ("caption_passive", "A man is holding a bus pole in front of a building."),
    ("caption_passive", "Two dogs are chasing a ball and a stick."),
    ("caption_passive", "A man is slicing a potato and singing."),
    ("caption_passive", "A man is slicing a potato quickly."),
    ("caption_passive", "A super car is spinning tires on a raceway track creating smoke near a crowd."),
    ("caption_passive", "A man is slicing a potato by the sink."),
    ("caption_passive", "A little girl is riding a toy tricycle on springs."),  # "on springs" may be the tricycle's
    ("caption_passive", "A boy is pushing a cart with wheels."),
    # a correlative object ("another", "the other") that points back to the subject
    ("caption_passive", "One boy is pushing another boy on a swing."),
    ("caption_passive", "One dog is chasing the other dog."),
    # the subject, scope, negation, questions, headlines
    ("caption_passive", "Every man is lifting a box."),
    ("caption_passive", "Nobody is riding the bicycle on one wheel"),
    ("caption_passive", "He is slicing a potato."),
    ("caption_passive", "There is a man slicing a potato."),
    ("caption_passive", "Person in yellow shirt is cleaning the way."),
    ("caption_passive", "The woman holding a black purse is smoking a cigarette."),
    ("caption_passive", "A person who plays soccer is kicking a ball into the goal"),
    ("caption_passive", "A man, who is tall, is slicing a potato."),
    ("caption_passive", "A man is not slicing a potato."),
    ("caption_passive", "Is a man slicing a potato?"),
    ("caption_passive", "Fire breaks out near secretariat in Srinagar"),
    # caption_active
    ("caption_active", "A soccer player is being tackled by his opponent"),
    ("caption_active", "Soccer is being played by boys."),
    ("caption_active", "His head is being shaken by a man."),
    ("caption_active", "A potato is being sliced by a man wearing a hat."),
    ("caption_active", "A potato is being sliced by him."),
    ("caption_active", "A box is being lifted by every man."),
    ("caption_active", "The house is being investigated by the police."),
    ("caption_active", "A potato is being sliced and peeled by a man."),
    ("caption_active", "A potato is not being sliced by a man."),
]

test_golden, test_refused, test_family = family_tests(GOLDEN, REFUSED, VOICE_RULES)


def test_the_augmenter_applies_the_voice_rules():
    aug = build_augmenter("rewrites", {"rules": list(VOICE_RULES)})
    texts = ["The proposed rule was changed by AMS.", "China rocked by twin earthquakes", "A dog runs on the beach.",
             "A man is slicing a potato.", "A potato is being sliced by a man."]
    pairs = list(aug.augment([SourceRecord(source_id=f"r{i}", text=t) for i, t in enumerate(texts)], 0))
    assert [p.info["rules"] if p.reject is None else p.reject for p in pairs] == [
        ["passive_by"], ["headline_active"], "no_rule_applies", ["caption_passive"], ["caption_active"]]
    assert [p.view2 for p in pairs if p.reject is None] == [
        "AMS changed the proposed rule.", "Twin earthquakes rock China", "A potato is being sliced by a man.",
        "A man is slicing a potato."]
