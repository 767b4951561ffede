"""The prose rules of the `rewrites` method (pipeline/augment/rewrite_rules/prose.py): each rule's golden rewrites and
each guard's refusal, on dev sentences (MNLI dev_matched, STS 2012-2013, STS-B dev, SNLI dev) and plain ones; the
rules are registered and reached by the augmenter."""

from __future__ import annotations

from bsl_pipeline.pipeline.augment.rewrite_rules.prose import PROSE_RULES
from rewrite_cases import family_tests

GOLDEN = [
    ("adverb", "The bill was quickly passed.", "The bill was passed quickly."),
    # inversion: place phrase, verb of being or position, subject
    ("inversion", "At the top of the hill is the imposing medieval fortress of Kadifekale.",
     "The imposing medieval fortress of Kadifekale is at the top of the hill."),
    ("inversion", "At the west end is a detailed model of the whole temple complex.",
     "A detailed model of the whole temple complex is at the west end."),
    ("inversion", "On the platform stood an altar and a large stone pillar.",
     "An altar and a large stone pillar stood on the platform."),
    ("inversion", "On the left are a bar and a restaurant.", "A bar and a restaurant are on the left."),
    ("inversion", "Nearby is a small museum.", "A small museum is nearby."),
    ("inversion", "Of particular interest is the old harbour.", "The old harbour is of particular interest."),
    # ... with a participle or an appositive after the subject's comma
    ("inversion", "On the easternmost tip of Jamaica stands Morant Point Lighthouse, built in 1841.",
     "Morant Point Lighthouse, built in 1841, stands on the easternmost tip of Jamaica."),
    ("inversion", "To the west of the city at Hillend is Midlothian Ski Centre, the longest artificial ski slope in "
                  "Europe.",
     "Midlothian Ski Centre, the longest artificial ski slope in Europe, is to the west of the city at Hillend."),
    # adverb: after the participle -> before it
    ("adverb", "The perception of Spain has changed dramatically with this government",
     "The perception of Spain has dramatically changed with this government"),
    ("adverb", "Czarek was welcomed enthusiastically, even though the poultry brotherhood was paying a lot of sudden "
               "attention to the newcomers.",
     "Czarek was enthusiastically welcomed, even though the poultry brotherhood was paying a lot of sudden "
     "attention to the newcomers."),
    ("adverb", "Two little Asian kids are dressed warmly in colorful jackets while standing on the playground.",
     "Two little Asian kids are warmly dressed in colorful jackets while standing on the playground."),
    ("adverb", "Concentration of greenhouse gases, especially CO2, have increased substantially since the beginning of "
               "the industrial revolution.",
     "Concentration of greenhouse gases, especially CO2, have substantially increased since the beginning of the "
     "industrial revolution."),
    ("adverb", "The bill was approved unanimously.", "The bill was unanimously approved."),
    # ... and before it -> after it
    ("adverb", "Most produce is locally grown, with some from the restaurant's own organic garden.",
     "Most produce is grown locally, with some from the restaurant's own organic garden."),
    ("adverb", "You are safe to use the bottles as long as they have been properly sterilised.",
     "You are safe to use the bottles as long as they have been sterilised properly."),
    # definitions: a gloss's two definitions in the other order
    ("definitions", "make less hostile; win over.", "win over; make less hostile."),
    ("definitions", "Cause to be distrusted or rejected; damage the reputation of.",
     "Damage the reputation of; cause to be distrusted or rejected."),
    ("definitions", "A conceptual formulation; a way of conceiving something.",
     "A way of conceiving something; a conceptual formulation."),
    ("definitions", "lead a certain kind of life; live in a certain style;",
     "live in a certain style; lead a certain kind of life;"),
    ("definitions", "turn on an axis; spin", "spin; turn on an axis"),
]

REFUSED = [
    # inversion: not an inverted sentence
    ("inversion", "In Roman times a temple to Jupiter stood here."),  # a determiner after a noun: the subject
    ("inversion", "In the ancestral environment a man would be likely to have more offspring."),
    ("inversion", "In Hong Kong you can have a plate hand-painted to your own design."),  # a pronoun
    ("inversion", "In the town Parliament is the main body."),  # a capital after a lower-case noun
    ("inversion", "On top is a broad plateau."),  # no determiner: the phrase's end is unclear
    ("inversion", "Among the disadvantages are that the degree of innovation might continue to be limited."),
    ("inversion", "At the end is also a small bar."),  # the subject opens with an adverb
    ("inversion", "On the left is a bar and a restaurant."),  # "and" with a singular verb
    ("inversion", "At the fulcrum is a coffee bar which opened last year."),  # a clause in the subject
    ("inversion", "At the west end is a detailed model of the whole temple complex?"),  # a question
    ("inversion", "Along the eastern coastline are several fine beaches with perfect windsurfing conditions in their "
                  "wide, shallow bays."),  # a comma that is no appositive's or participle's
    ("inversion", "On your right is the entrance to the 16th-century Sandal Bedesten, with lovely brick vaults "
                  "supported on massive stone pillars."),  # a subject over _MAX_SUBJECT words
    ("inversion", "Beside the towers stands a small chapel."),  # "towers" read as the verb: refused, not misread
    # adverb
    ("adverb", "Las Vegas has recently started to show signs of maturity."),  # an infinitive after the participle
    ("adverb", "Auditors are strongly encouraged to comply with the guidance."),
    ("adverb", "The door is located directly above the stairs."),  # a degree adverb: not in the lists
    ("adverb", "The disease is widely known."),  # a collocation
    ("adverb", "Many before you have invested largely at the school."),  # a degree adverb: "have largely invested"
    ("adverb", "Economic development is left largely in the hands of poor nations themselves."),
    ("adverb", "Its waters are badly polluted."),  # "badly" only moves to the front
    ("adverb", "Several of its beaches are officially designated for nudism."),
    ("adverb", "The house was not damaged seriously."),  # a negation
    ("adverb", "It was repaired quickly and cheaply."),  # "and" after the adverb
    ("adverb", "He was elected recently president of the club."),  # a noun after the adverb
    ("adverb", "Auditors Are Encouraged Strongly To Comply"),  # title case
    ("adverb", "Was the bill approved unanimously?"),  # a question
    # definitions
    ("definitions", "be used by; as of a utility;"),  # a qualifier, not a definition
    ("definitions", "supply food ready to eat; for parties and banquets."),
    ("definitions", "a protective covering consisting of netting; can be mounted in a frame."),
    ("definitions", "a company that performs a public service; subject to government regulation."),
    ("definitions", "Rocket fired from Gaza damages home in Sderot; none hurt"),  # a headline
    ("definitions", "make a schedule; plan the time; arrange events."),  # three parts
    ("definitions", "cover with boards (wooden); secure"),  # brackets
    ("definitions", "make less hostile; win over;."),  # a mixed ending
]

test_golden, test_refused, test_family = family_tests(GOLDEN, REFUSED, PROSE_RULES)
