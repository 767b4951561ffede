"""The clause-marker rules of the `rewrites` method (pipeline/augment/rewrite_rules/markers.py): each rule's golden
rewrites and each guard's refusal, on dev sentences (STS 2012-2013, STS-B dev, MNLI dev_matched, SNLI dev) and plain
ones; the rules are registered and reached by the augmenter."""

from __future__ import annotations

import pytest

from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
from bsl_pipeline.pipeline.augment.rewrite_rules.markers import MARKER_RULES, _reduce_passive
from bsl_pipeline.pipeline.augment.rewrite_rules.text import tokenize
from rewrite_cases import family_tests

GOLDEN = [
    # that: dropped after a verb of saying
    ("that", "He added that prosecutors will seek the death penalty.",
     "He added prosecutors will seek the death penalty."),
    ("that", "Tocqueville believed that there are no effective long-term constraints on this tendency.",
     "Tocqueville believed there are no effective long-term constraints on this tendency."),
    # ... after a verb with an object only before a nominative pronoun
    ("that", "The much-previewed profile of Michael Huffington reveals that he is--surprise, surprise--gay.",
     "The much-previewed profile of Michael Huffington reveals he is--surprise, surprise--gay."),
    ("that", "He told me that he was tired.", "He told me he was tired."),
    # ... an object relative's "that"
    ("that", "However, the extent to which these comments were electronically available and the role that this "
             "access played in the rulemaking process varied substantially.",
     "However, the extent to which these comments were electronically available and the role this access played "
     "in the rulemaking process varied substantially."),
    ("that", "A man is sitting in a chair and looking at something that he is holding.",
     "A man is sitting in a chair and looking at something he is holding."),
    # ... added
    ("that", "I think it's fine.", "I think that it's fine."),
    ("that", "Police said her two small children were alone in the apartment for up to two days.",
     "Police said that her two small children were alone in the apartment for up to two days."),
    ("that", "He says men are here.", "He says that men are here."),
    ("that", "I believe Alexander lost heart after his horse died.",
     "I believe that Alexander lost heart after his horse died."),
    ("that", "He told me he was tired.", "He told me that he was tired."),
    # relative: which <-> that, and the reduced relative
    ("relative", "the report which was released", "the report that was released"),
    ("relative", "The 6-3 ruling reinstates a law that told libraries to install filters or surrender federal money.",
     "The 6-3 ruling reinstates a law which told libraries to install filters or surrender federal money."),
    ("relative", "We had a cat which required daily medication.", "We had a cat that required daily medication."),
    ("relative", "Are there any other resources which you can recommend?",
     "Are there any other resources that you can recommend?"),
    ("relative", "The people who are sending these messages are infringing on my rights.",
     "The people sending these messages are infringing on my rights."),
    ("relative", "A young man is holding a small boy who is wearing a backpack in front of a derelict building.",
     "A young man is holding a small boy wearing a backpack in front of a derelict building."),
    ("relative", "Six women that are showing their nationality by holding a flag.",
     "Six women showing their nationality by holding a flag."),
    # ... a passive relative reduced to its participle (where "which" <-> "that" does not apply)
    ("relative", "a person who is appointed to a job or position.", "a person appointed to a job or position."),
    ("relative", "The people who were involved in the crash were taken to hospital.",
     "The people involved in the crash were taken to hospital."),
    ("relative", "The mayor thanked the volunteers who are widely credited with the rescue.",
     "The mayor thanked the volunteers widely credited with the rescue."),
    ("relative", "A feeling for something that is desired intensely.", "A feeling for something desired intensely."),
    ("relative", "Those who were killed in the attack were buried on Sunday.",
     "Those killed in the attack were buried on Sunday."),
    ("relative", "But those that are manufactured for sale in in Europe and so forth are quite the other way around",
     "But those manufactured for sale in in Europe and so forth are quite the other way around"),
    ("relative", "Workers who were laid off in March got no pay.", "Workers laid off in March got no pay."),
    ("relative", "A group of men walks next to train tracks that are covered in snow.",
     "A group of men walks next to train tracks covered in snow."),
    ("relative", "this frame concerns people being in an altered mental state that is induced by an intoxicant.",
     "this frame concerns people being in an altered mental state induced by an intoxicant."),
    ("relative", "A girl in a striped black and white sweater holds on to her friend who is bent over wearing a hooded "
                 "black sweater and torn blue jeans.",
     "A girl in a striped black and white sweater holds on to her friend bent over wearing a hooded black sweater "
     "and torn blue jeans."),
    ("relative", "A man skateboarding at a skateboarding park which is covered in graffiti.",
     "A man skateboarding at a skateboarding park covered in graffiti."),
    # ... a past progressive relative in a past narrative
    ("relative", "83 At that point, Poirot nudged me gently, indicating two men who were sitting together near the "
                 "door.",
     "83 At that point, Poirot nudged me gently, indicating two men sitting together near the door."),
    # headline_will
    ("headline_will", "Supreme Court to Hear Voting Rights Act Case", "Supreme Court Will Hear Voting Rights Act Case"),
    ("headline_will", "Obama to visit China", "Obama will visit China"),
    ("headline_will", "Osama Bin Laden movie to be filmed in India", "Osama Bin Laden movie will be filmed in India"),
    ("headline_will", "Madoff's brother to plead guilty to fraud", "Madoff's brother will plead guilty to fraud"),
    ("headline_will", "Royal Mail to create 1,000 jobs", "Royal Mail will create 1,000 jobs"),
    ("headline_will", "Thousands of troops to march for Jubilee", "Thousands of troops will march for Jubilee"),
    ("headline_will", "Michelle Obama To Star In Parks And Recreation",
     "Michelle Obama Will Star In Parks And Recreation"),
    # will_going: "will" -> "going to", the form of "be" agreeing with the subject
    ("will_going", "The plant will close next year.", "The plant is going to close next year."),
    ("will_going", "The artists say the plan will harm French culture.",
     "The artists say the plan is going to harm French culture."),
    ("will_going", "District Superintendent J. Chester Floyd told reporters Monday that McCrackin will be reassigned "
                   "within the district.",
     "District Superintendent J. Chester Floyd told reporters Monday that McCrackin is going to be reassigned within "
     "the district."),
    ("will_going", "My unborn children will never appear on the Today show.",
     "My unborn children are never going to appear on the Today show."),
    ("will_going", "Also, I will be assuming that the cost is constant.",
     "Also, I am going to be assuming that the cost is constant."),
    ("will_going", "We know they will have to come from the south.",
     "We know they are going to have to come from the south."),
    ("will_going", "The police will arrive soon.", "The police are going to arrive soon."),
    ("will_going", "The plant will not close next year.", "The plant is not going to close next year."),
    # ... and back
    ("will_going", "They are going to build a bridge.", "They will build a bridge."),
    ("will_going", "A student visa overstayer is not going to be a high priority for pro bono assistance.",
     "A student visa overstayer will not be a high priority for pro bono assistance."),
    ("will_going", "i don't know what kind of a summer we're expecting this year i imagine it's going to be hot again",
     "i don't know what kind of a summer we're expecting this year i imagine it will be hot again"),
    ("will_going", "\"We're going to do everything in our power to get money back to ratepayers as quickly as "
                   "possible,\" Kennedy said.",
     "\"We will do everything in our power to get money back to ratepayers as quickly as possible,\" Kennedy said."),
    ("will_going", "Number 916 is hoping that he is going to win the race.",
     "Number 916 is hoping that he will win the race."),
]

# Each guard, on a sentence the rule would otherwise rewrite wrongly.
REFUSED = [
    ("that", "I do not know that I have a proper answer, but I would like to summarize my findings."),  # = not sure
    ("that", "I know that man is tall."),  # a demonstrative
    ("that", "The man that came yesterday left early."),  # a subject relative
    ("that", "Dirt mounds surrounded the pit so that the spectators stood five or six people deep."),
    ("that", "He said that Tuesday was the deadline."),  # "said Tuesday" would be a garden path
    ("that", "The study found that the drug was safe."),  # "found the drug" read as its object
    ("that", "It is said that the house is haunted."),  # passive
    ("that", "This man claims that he has been robbed and that he is stranded."),  # parallel "and that"
    ("that", "Despite the hoopla over a confession that he had lied about the circumstances, five switched."),
    ("that", "The President has fewer powers that it seems."),  # no object relative
    ("that", "It was one among many that the investigators are considering."),  # "many the investigators"
    ("that", "The chart did not look as Reich claims it did."),  # a comparison
    ("that", "and uh said you'd better get out of the tent"),  # words quoted without quotation marks
    ("that", "you know it's like you might be standing somewhere"),  # a filler
    ("that", "Ecuador President Correa says no decision made on Assange asylum"),  # a headline without a verb
    ("that", "I noticed the man was gone."),  # "noticed the man" read as its object
    ("that", "He added that in 2010 the law changed."),  # no plain clause after "that"
    ("relative", "The rule, which was adopted in May, applies to all."),  # non-restrictive
    ("relative", "It is one of those rare cases in which I can please everyone."),  # after a preposition
    ("relative", "I don't know which way to go."),  # a question word
    ("relative", "The man that came yesterday left early."),  # a person: "the man which came"
    ("relative", "The person or entity that pays these fees does not receive anything of value."),
    ("relative", "Today it is the effects of pollution that are taking their toll on the monuments."),  # a cleft
    ("relative", "The only film that was made there won an award."),  # "the only film which"
    ("relative", "It was the first car that was sold in the town."),
    ("relative", "Happily, there's still a lot that hasn't yet been adulterated."),
    ("relative", "I have never read anything that said teethers were bad."),
    ("relative", "He lost his temper which is why he left."),  # "which" refers to the whole clause
    ("relative", "They use coconut husks for garden vegetables and plants which is Eco-friendly."),  # agreement
    ("relative", "The flour has an amount of protein contained in the flour which can range from 5% to 15%."),
    ("relative", "Travel WODs has whole lots of results which you can use."),  # "which" may be about the lots
    ("relative", "it it i think that is the biggest problem"),  # "think" is no noun
    ("relative", "A man with a mustache who is wearing white sculpts a sand castle."),  # "a mustache wearing"
    ("relative", "Two guys are wearing uniforms who are running in the grass."),  # "who" is not the uniforms
    ("relative", "Those are the people who are going to vote."),  # a future
    # ... the passive reduction
    ("relative", "Parents who are aware of the risks met the mayor."),  # an adjective
    ("relative", "The woman who was supposed to come never arrived."),  # a duty, not a passive
    ("relative", "He saw the families who were being moved out."),  # "being"
    ("relative", "A rebel who was captured said more than 2,000 insurgents were involved in the attack."),  # bare
    ("relative", "A man standing at the front of the room is pointing up while several people who are seated look "
                 "towards him."),  # "several people seated look"
    ("relative", "a message refusing to accept something that is offered."),
    ("relative", "people who are impoverished, without basic possessions"),
    ("relative", "The man who was given an award thanked his wife."),  # the participle has an object
    ("relative", "(computer science) matter that is held in a computer and is typed or printed on paper."),
    ("relative", "People who are hired in May and who are paid late often quit."),  # two relatives
    ("relative", "The analysis also addresses the various alternatives to the final rule which were considered, "
                 "including differing compliance or reporting requirements."),  # agreement: the alternatives
    ("relative", "At the time that was considered by many a mistake."),  # a demonstrative
    ("relative", "He said that is done by hand."),  # a complementizer
    ("relative", "In my view that is based on a mistake."),  # a fronted phrase: "that" is the subject
    ("relative", "A dark colored man receives felicitations from a white colored woman which is seen by another white "
                 "colored man."),  # "which" after a person: the whole event
    ("relative", "There is a blue bowl and a fruit platter on the table which is covered with a white tablecloth."),
    ("relative", "A man with a sweater who is seated on a bench waves."),  # "who" may be the man
    ("relative", "Lee Janzen, who was tied atop the leaderboard with five holes left, finished with a 68 and tied for "
                 "sixth."),  # non-restrictive
    # ... the past progressive reduction
    ("relative", "The man who was standing by the door is my father."),  # "standing" would be now
    ("relative", "At dawn we saw the guests who were waiting outside and were getting cold."),  # a second verb
    ("headline_will", "Julian Assange Plans to Run for Australian Senate"),
    ("headline_will", "Israel's Netanyahu set to call early vote"),
    ("headline_will", "Ecuador yet to decide on Assange's asylum"),
    ("headline_will", "Clinton ready to fight for Obama"),
    ("headline_will", "UN monitors unable to reach site of Syria killings"),
    ("headline_will", "Saudi Women Allowed To Compete At Olympics"),
    ("headline_will", "Syrian forces move to retake Aleppo"),
    ("headline_will", "Messi scores 4 to send Guardiola off with victory"),
    ("headline_will", "S. Korean economic growth falls to near 3-year low"),
    ("headline_will", "Stock index futures point to lower start"),
    ("headline_will", "10 Things to Know for Thursday"),
    ("headline_will", "Stocks to Watch This Week"),
    ("headline_will", "Challenges to Restore Public Confidence in"),
    ("headline_will", "Britain's Prince Philip hospitalised, to miss jubilee"),
    ("headline_will", "Obama to visit China."),  # a sentence, not a headline
    ("headline_will", "cause to be interested"),  # a gloss
    ("headline_will", "The Road to Change"),
    ("headline_will", "How to Train Your Dragon"),
    ("headline_will", "Brazilians throng streets to greet pope"),  # a verb with its object before "to"
    ("will_going", "Will it give us the right to divorce the husbands who abandon us?"),  # a question
    ("will_going", "Iran says UN nuclear talks will continue"),  # a headline
    ("will_going", "The will of the people will prevail."),  # "will" as a noun, and two future markers
    ("will_going", "He has free will."),
    ("will_going", "I'll close the plant."),  # a contraction
    ("will_going", "Boys will be boys."),  # a habit
    ("will_going", "on Thursday nights when i get home i will watch Knots Landing"),  # a habit
    ("will_going", "Consumers will lose out, employees will lose out, Europe will lose competitive strength."),
    ("will_going", "Children will enjoy the little steam train that loops around the bay."),  # a bare plural: generic
    ("will_going", "The Bombardier and Embraer aircraft will be delivered to U.S. Airways by September 2006."),
    ("will_going", "The head of the company will resign."),  # "the company is going to" would agree with "company"
    ("will_going", "In his new position, Dynes will earn $395,000."),  # a name in -s: its number is unknown
    ("will_going", "The data will show a rise."),  # a noun of either number
    ("will_going", "Prince is replacing Sanford Weill, who will remain Citigroup's chairman."),  # a relative
    ("will_going", "You will find a number of Mary's personal effects on display."),  # a guide's "you will"
    ("will_going", "The tomb guardian will unlock the gate and give you a candle."),
    ("will_going", "I hope that all key parties will take the necessary steps."),  # a wish
    ("will_going", "The AFL-CIO is waiting until October to decide if it will endorse a candidate."),
    ("will_going", "The committee will have finished by then."),  # the future perfect
    ("will_going", "They are going to the store."),  # a place
    ("will_going", "He is going to bed."),
    ("will_going", "We are going to work on it."),
    ("will_going", "They were going to build a bridge."),  # no future
    ("will_going", "It isn't going to work."),
]

test_golden, test_refused, test_family = family_tests(GOLDEN, REFUSED, MARKER_RULES)


def test_the_augmenter_applies_the_marker_rules():
    aug = build_augmenter("rewrites", {"rules": list(MARKER_RULES)})
    texts = ["Supreme Court to Hear Voting Rights Act Case", "He added that prosecutors will seek the death penalty.",
             "The report which was released yesterday is long.", "Obama signs the bill into law"]
    pairs = list(aug.augment([SourceRecord(source_id=f"r{i}", text=t) for i, t in enumerate(texts)], 0))
    assert [p.info["rules"] if p.reject is None else p.reject for p in pairs] == [
        ["headline_will"], ["that"], ["relative"], "no_rule_applies"]
    assert pairs[2].view2 == "The report that was released yesterday is long."


@pytest.mark.parametrize("source,expected", [
    ("The council approved a program that is designed to help workers.",
     "The council approved a program designed to help workers."),
    ("We read the report that was released on Monday.", "We read the report released on Monday."),
    ("The method that is widely used in schools works.", "The method widely used in schools works."),
    ("She has a dog which is trained to find drugs.", "She has a dog trained to find drugs."),
    ("I bought the book that was recommended by my friend yesterday.",
     "I bought the book recommended by my friend yesterday."),
    ("a theme that is repeated or elaborated in a piece of music.",
     "a theme repeated or elaborated in a piece of music."),
])
def test_the_passive_reduction_where_the_pronoun_swap_comes_first(source, expected):
    # the rule swaps "which" <-> "that" in these; the reduction itself gives the other view
    assert _reduce_passive(source, tokenize(source)) == expected
