"""The object rules of the `rewrites` method (pipeline/augment/rewrite_rules/objects.py): each rule's golden rewrites
and its guards' refusals, on real dev sentences (STS 2012-2013, STS-B dev, MNLI matched, SNLI dev) and plain ones."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.rewrite_rules.objects import OBJECT_RULES
from rewrite_cases import family_tests

GOLDEN = [
    ("possessive", "Normandy's thriving textile industry is centred on Rouen.",
     "The thriving textile industry of Normandy is centred on Rouen."),
    ("possessive", "Iraq's economy was shattered under former president Saddam Hussein.",
     "The economy of Iraq was shattered under former president Saddam Hussein."),
    ("possessive", "Sovereign's shares lost 74 cents, or 4.5%, to $15.68.",
     "The shares of Sovereign lost 74 cents, or 4.5%, to $15.68."),
    ("possessive", "The protesters denounced the country's supreme leader, hard-liner Ayatollah Ali Khamenei.",
     "The protesters denounced the supreme leader of the country, hard-liner Ayatollah Ali Khamenei."),
    ("possessive", "The company's shares fell.", "The shares of the company fell."),
    ("possessive", "Felipe II proclaimed it the capital of Spain.", "Felipe II proclaimed it Spain's capital."),
    ("particle", "A woman sits on a bed and puts on her red socks.",
     "A woman sits on a bed and puts her red socks on."),
    ("particle", "A man is cutting up a potato.", "A man is cutting a potato up."),
    ("particle", "She had thrown her cloak away and tied her hair back into a topknot.",
     "She had thrown away her cloak and tied her hair back into a topknot."),
    ("particle", "A man turns on the microwave.", "A man turns the microwave on."),
    ("dative", "It was a struggle to give the cat a pill.", "It was a struggle to give a pill to the cat."),
    ("dative", "I've given him my pitch and he was quite supportive.",
     "I've given my pitch to him and he was quite supportive."),
    ("dative", "She sent a letter to them.", "She sent them a letter."),
    ("no_any", "Both of our children slept in a portable pen, and there were no problems.",
     "Both of our children slept in a portable pen, and there weren't any problems."),
    ("no_any", "There aren't any cookies left.", "There are no cookies left."),
    ("no_any", "It doesn't make any difference how windy it is.", "It makes no difference how windy it is."),
    ("no_any", "He doesn't have any money.", "He has no money."),
    ("no_any", "You see, he said sadly, \"you have no instincts.\"",
     "You see, he said sadly, \"you don't have any instincts.\""),
]

# Each guard, on a sentence the rule would otherwise rewrite wrongly.
REFUSED = [
    ("possessive", "Obama's decision surprised everyone."),  # a person: "the decision of Obama"
    ("possessive", "The man's hat blew away."),  # a person: "the hat of the man"
    ("possessive", "A woman's risk of breast cancer doubles."),  # indefinite possessor
    ("possessive", "She works at a children's hospital."),  # classifying genitive
    ("possessive", "Today's announcement came as a surprise."),  # time
    ("possessive", "For God's sake, stop it."),  # idiom
    ("possessive", "The restaurant's own garden supplies the kitchen."),  # "own"
    ("possessive", "China's biggest bank reported a loss."),  # superlative: "in China"
    ("possessive", "Putin claims victory in Russia's presidential election."),  # an event in a place
    ("possessive", "He agreed to cooperate with the government's investigation."),  # "the investigation of ..."
    ("possessive", "China's war on drugs goes on."),  # a preposition follows the head
    ("possessive", "said the CIA's director George Tenet."),  # a name follows the head
    ("possessive", "Malaya was producing 53 percent of the world's rubber."),  # "of" on "of"
    ("possessive", "The troupe of Kyoto performs in December and Osaka's in May."),  # elliptic possessive
    ("possessive", "China's leaders work in the compound."),  # "work" is the verb
    ("possessive", "Paris's beautiful in spring."),  # "'s" = is
    ("possessive", "The perception of Spain has changed dramatically."),  # objective "of"
    ("possessive", "He lives in the rest of Europe."),  # a part
    ("possessive", "The lucrative tin mines of Kuala Lumpur in the State of Selangor were run by managers."),
    ("particle", "He ran up the hill."),  # "run" is no listed phrasal verb
    ("particle", "She turned off the road."),  # "turn off" only with a device
    ("particle", "cause to turn on an axis."),  # a preposition
    ("particle", "He picked it up."),  # a pronoun object stays before the particle
    ("particle", "He took the book off the shelf."),  # "off" heads a place
    ("particle", "Someone is taking a brown canoe down to the lake."),  # a direction
    ("particle", "He picked up the pieces of glass."),  # the object goes on with "of"
    ("particle", "The surgery took away his ability to become aroused."),  # "to" belongs to the object
    ("particle", "She holds her foot with both hands over her head."),  # "hands" is a noun
    ("particle", "A woman holding a purse reaches up to grab the hands of a performer."),  # "a purse reaches"
    ("particle", "The wind was so strong it threw her right out in the yard."),  # "right" is an adverb
    ("dative", "Can you give me a hand with this?"),  # light-verb idiom
    ("dative", "Give it a try."),  # "it" recipient
    ("dative", "He gave it to him."),  # pronoun theme
    ("dative", "They sent the troops to Iraq."),  # a place after "to"
    ("dative", "She gave him a book of poems."),  # the theme goes on with "of"
    ("dative", "She is giving him a toy or bottle of some sort."),  # coordinated theme
    ("dative", "He told them the plan."),  # "tell" only with a story, joke, truth...
    ("no_any", "There is no dog in the yard."),  # singular count noun: "There isn't any dog"
    ("no_any", "I have no idea what you mean."),  # idiom
    ("no_any", "Why don't you have any friends?"),  # a question
    ("no_any", "They will have no money left."),  # "have" after a modal
    ("no_any", "There is no way to know."),  # idiom
]

test_golden, test_refused, test_family = family_tests(GOLDEN, REFUSED, OBJECT_RULES)

