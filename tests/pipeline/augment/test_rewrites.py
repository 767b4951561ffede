"""The `rewrites` augmenter: each rule's golden rewrites and refusals on real sentences (STS-B dev, SNLI dev), the
reasons a sentence gets no view, determinism, fingerprints, and `bsl augment --methods rewrites` end to end."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
from bsl_pipeline.pipeline.augment.augmenters.rewrites import RULE_FUNCTIONS, RULES, RewritesConfig, tokenize
from bsl_pipeline.pipeline.augment.rewrite_rules.clauses import CLAUSE_RULES
from bsl_pipeline.pipeline.augment.rewrite_rules.grammar import GRAMMAR_RULES
from rewrite_cases import family_tests

# The rules the draw tests below were written for (a rule added later would change which rule is drawn).
DRAWN_RULES = [*GRAMMAR_RULES, *CLAUSE_RULES]

GOLDEN = [
    ("contract", "The U.S. House of Representatives, the other chamber of Congress, does not vote on treaties.",
     "The U.S. House of Representatives, the other chamber of Congress, doesn't vote on treaties."),
    ("contract", "If I understand you correctly, you are looking for a hypernym of inclusion and exclusion.",
     "If I understand you correctly, you're looking for a hypernym of inclusion and exclusion."),
    ("expand", "Most of Philip K Dick's works aren't hard Sci-Fi in the least.",
     "Most of Philip K Dick's works are not hard Sci-Fi in the least."),
    ("expand", "There's an invisible man holding a rainbow umbrella.",
     "There is an invisible man holding a rainbow umbrella."),
    # in a question: "'s"/"'re"/"'m" after a pronoun or wh-word, which do not invert
    ("expand", "What's the best way to learn Python?", "What is the best way to learn Python?"),
    ("expand", "Where's the nearest station?", "Where is the nearest station?"),
    ("expand", "What's he doing?", "What is he doing?"),
    ("expand", "Oh yeah? San Barenakedino? How's he? Clarisse and Onardo both asked.",
     "Oh yeah? San Barenakedino? How is he? Clarisse and Onardo both asked."),
    ("expand", "\"You're not going to marry him, do you hear?\" he said dictatorially.",
     "\"You are not going to marry him, do you hear?\" he said dictatorially."),  # direct speech is no phrase quoted
    # outside a quotation only, and not a sentence-initial imperative "don't" + verb
    ("expand", ("I'm no herpetologist, but in my experience, snakes are in the \"you don't bug me, I won't bug you\" "
                "category."),
     ("I am no herpetologist, but in my experience, snakes are in the \"you don't bug me, I won't bug you\" "
      "category.")),
    ("expand", "don't tell me you didn't know that this was coming up.",
     "don't tell me you did not know that this was coming up."),
    ("expand", "A rule of thumb that I've heard is \"for small children, big dogs\".",
     "A rule of thumb that I have heard is \"for small children, big dogs\"."),
    ("expand", "What's been going on?", "What has been going on?"),
    ("number_words", "5 women sitting around a table doing some crafts.",
     "Five women sitting around a table doing some crafts."),
    ("number_words", "A blond woman is holding 2 golf balls while reaching down into a golf hole.",
     "A blond woman is holding two golf balls while reaching down into a golf hole."),
    ("swap_conjuncts", "Two men and one woman are performing music on a stage.",
     "One woman and two men are performing music on a stage."),
    # two names joined by "and"
    ("swap_conjuncts", "Harris and Klebold killed 12 students, a teacher and themselves at the school.",
     "Klebold and Harris killed 12 students, a teacher and themselves at the school."),
    ("swap_conjuncts", "Mr. Grassley and Mr. Baucus rejected any disparity in drug benefits.",
     "Mr. Baucus and Mr. Grassley rejected any disparity in drug benefits."),
    ("swap_conjuncts", ("The bulk of the funds, some $65 billion, will go for military operations in Iraq and "
                        "Afghanistan."),
     "The bulk of the funds, some $65 billion, will go for military operations in Afghanistan and Iraq."),
    ("swap_conjuncts", "The centralization dear to Richelieu and Louis XIV was becoming a reality.",
     "The centralization dear to Louis XIV and Richelieu was becoming a reality."),
    ("front_time", "A group of people sit around a blazing fire at night.",
     "At night, a group of people sit around a blazing fire."),
    ("front_place", "Two dogs are playing in the grass.", "In the grass, two dogs are playing."),
    ("front_clause", "a redheaded lady is reading a book while waiting for the train.",
     "While waiting for the train, a redheaded lady is reading a book."),
    # a possessive in a clause without a subject, a weather "it", a main clause that opens with a pronoun
    ("front_clause", "A girl is laughing while holding some rocks in her right hand.",
     "While holding some rocks in her right hand, a girl is laughing."),
    ("front_clause", "A child in winter gear is hiding inside a cave made of snow while it is snowing.",
     "While it is snowing, a child in winter gear is hiding inside a cave made of snow."),
    ("front_clause", "He is taking the diaper off because he is uncomfortable.",
     "Because he is uncomfortable, he is taking the diaper off."),
    ("there", "A man is playing the electric guitar.", "There is a man playing the electric guitar."),
    ("there", "Two young women are standing in the middle of a flower garden.",
     "There are two young women standing in the middle of a flower garden."),
    ("there", "There is a dog running in the park.", "A dog is running in the park."),
    ("wearing", "The boy in the orange shirt is throwing the ball.",
     "The boy wearing the orange shirt is throwing the ball."),
    ("wearing", "A man wearing a suit with a name tag stands reading in front of a microphone.",
     "A man in a suit with a name tag stands reading in front of a microphone."),
    ("reported", "The woman felt threatened and went to the magistrate's office, police said.",
     "Police said the woman felt threatened and went to the magistrate's office."),
    ("reported", "Connolly said FBI agents in San Diego and abroad spent thousands of hours investigating al-Bayoumi.",
     "FBI agents in San Diego and abroad spent thousands of hours investigating al-Bayoumi, Connolly said."),
    # a speech tag after a quotation or reported clause, inverted
    ("reported", "\"I feel confident saying that HP is no longer an integration story,\" Fiorina said.",
     "\"I feel confident saying that HP is no longer an integration story,\" said Fiorina."),
    ("reported", ("\"They were an inspirational couple, selfless and courageous,\" said the Oscar-winning film "
                  "director."),
     "\"They were an inspirational couple, selfless and courageous,\" the Oscar-winning film director said."),
    ("reported", "\"This is extraordinarily fast,\" said Matt Geller, an analyst at CIBC World Markets.",
     "\"This is extraordinarily fast,\" Matt Geller, an analyst at CIBC World Markets, said."),
    ("reported", ("The decision came after \"listening to our customers and associates,\" Melissa Berryhill, a "
                  "spokeswoman for Wal-Mart, said."),
     ("The decision came after \"listening to our customers and associates,\" said Melissa Berryhill, a spokeswoman "
      "for Wal-Mart.")),
    ("reported", ("Mahmud controlled access to Saddam for everyone but immediate family members, Pentagon officials "
                  "said."),
     "Mahmud controlled access to Saddam for everyone but immediate family members, said Pentagon officials."),
    ("reported", "We can leave them and let them die, said Thorn.", "We can leave them and let them die, Thorn said."),
    ("reported", "I see, said Tuppence thoughtfully.", "I see, Tuppence said thoughtfully."),
    ("reported", "Answer? said Julius.", "Answer? Julius said."),
    ("reported", "\"Where are you?\" said Tom.", "\"Where are you?\" Tom said."),
    ("reported", "‘We will win,’ said he.", "‘We will win,’ he said."),
    ("reported", "“We will win,” Smith said.", "“We will win,” said Smith."),
    ("reported", "Euro crisis is over, says France's Francois Hollande",
     "Euro crisis is over, France's Francois Hollande says"),
    ("reported", "Axelrod died in his sleep of heart failure, said his daughter, Nina Axelrod.",
     "Axelrod died in his sleep of heart failure, his daughter, Nina Axelrod, said."),
    ("reported", "\"I know of no pressure,\" said Mr. Feith, the under secretary of defense for policy.",
     "\"I know of no pressure,\" Mr. Feith, the under secretary of defense for policy, said."),
    ("add_is", "A grey dog standing in a grassy field.", "A grey dog is standing in a grassy field."),
    ("add_is", "Two dogs fighting in the snow.", "Two dogs are fighting in the snow."),
]

# Each guard, on a sentence the rule would otherwise rewrite wrongly.
REFUSED = [
    ("contract", "There you are in that photo."),  # "There you're": no contraction after a fronted place
    ("expand", "Writers who's business it is to be smart always produce."),  # "who's" for "whose"
    ("reported", "She said because of all of you we're going to live!"),  # the "!" would end the tag
    ("front_time", "I was hesitant to move to Victoria in 1984"),  # the time may belong to the infinitive
    ("front_clause", "I did not do it because I know people from Charlotte."),  # "not" may deny the reason
    ("swap_conjuncts", "Robinson and Godbey say our pace is fast compared to the 1950's."),  # cited authors
    ("contract", "I have a car."),  # "I've a car": "have" is the main verb
    ("contract", "Irish politicians will spend a second day debating divisive laws that will legislate for the first "
                 "time for abortion in limited circumstances."),  # a relative "that'll" is speech, not news prose
    ("contract", "I know what it is."),  # no contraction before the end of a clause
    ("contract", "Much that might have been offered with sober good advice here is contaminated by fear."),  # adverb
    ("expand", "He's finished the report."),  # has or is
    ("expand", "Don't you think so?"),  # a question
    ("expand", "Why doesn't it work?"),  # "n't" in a question: "Why does not it work?"
    ("expand", "It's nice, isn't it?"),  # a tag question
    ("expand", "Where's he live?"),  # "'s" for "does"
    ("expand", "Who's car is this?"),  # "whose"
    ("expand", "What's up?"),  # a greeting
    ("expand", "What'll you do?"),  # "'ll" in a question
    ("expand", "Where's he gone?"),  # has or is
    ("number_words", "Apollo 11 landed on the moon."),  # a name
    ("number_words", "It is 5 km away."),  # a unit
    ("number_words", "the positive terminal and terminal 2 are seperated by a gap"),  # a label
    ("contract", "Incorporate a cycle in your lifts... that is squat every 10 days."),  # "that is" = "i.e."
    ("number_words", "The area is 5 km² wide and 3¹ deep."),  # not a plain count (and no crash on "¹")
    ("swap_conjuncts", "A black and a brown dog are running toward the camera."),  # "a black" is no noun phrase
    ("swap_conjuncts", "A mother and her daughter are both wearing heels."),  # "her" before its noun
    ("swap_conjuncts", "A man and a woman in blue jog on the sidewalk."),  # "in blue" may be hers only
    ("swap_conjuncts", "Bosnia and Herzegovina joined the alliance."),  # one name
    ("swap_conjuncts", "Shares of Procter and Gamble rose."),  # a company
    ("swap_conjuncts", "He bought tickets to see Simon and Garfunkel play."),  # a band
    ("swap_conjuncts", "Harris and Klebold's plan was discovered later."),  # a possessive
    ("swap_conjuncts", "He works for Bank of America and Citigroup now."),  # the first conjunct ends a larger name
    ("swap_conjuncts", "The talks between Obama and Romney ended."),  # "between": another rule
    ("swap_conjuncts", "The land was divided into east and west, under the control of Jordan and Israel respectively."),
    ("swap_conjuncts", "Obama and Romney won, in that order."),
    ("swap_conjuncts", "Obama Meets Romney and Ryan In Washington"),  # a title-case headline
    ("swap_conjuncts", "The injured were taken to hospitals in Jefferson City and Columbia, a college town."),
    ("swap_conjuncts", "Statistics from the Kansas Department of Health and Environment show a rise."),  # "of"
    ("front_place", "A Black woman on the street is talking on her cellphone."),  # "talking on": no place
    ("front_place", "a white dog is tugging on a black rope"),  # "tugging on" selects its preposition
    ("front_place", "A hedgehog is biting at a blanket."),  # "at" after a verb that is no posture
    ("front_clause", "I'm not yet able to answer if the phenomenon has an official PoliSci name."),  # whether
    ("front_clause", "So it's important to have a basic understanding before you even get on skis."),
    ("front_clause", "He left because John was tired."),  # "he" could then be John
    ("front_clause", "My sister put her son in a martial arts class and was nervous because he is really shy."),
    ("front_time", "A way to characterise the campaign that the Ministry has the intention of launching on Wednesday."),
    ("front_clause", "where it goes wrong in practice is when they create a central government."),  # after "is"
    ("front_clause", "For performance dogs we like to wait until 18 months on average."),  # no verb of its own
    ("there", "A group of children are standing in a classroom."),  # "There are a group"
    ("wearing", "A woman dressed in a red dress is dancing."),
    ("reported", "The retailer said it came to the decision after hearing the opinions of customers."),
    ("reported", "The said company went bankrupt."),  # "said" as a participle
    ("reported", "I never once said or implied you were a mandrake."),  # a coordinated verb
    ("reported", "\"I can say I am being forced into exile by the world superpower,\" he said."),  # never "said he"
    ("reported", "\"It was a brazen attempt at intimidation,\" said a Republican legislator who attended the meeting."),
    ("reported", ("\"It's a huge black eye,\" said publisher Arthur Ochs Sulzberger Jr., whose family has controlled "
                  "the paper since 1896.")),  # more text after the speaker
    ("reported", "\"It is fine,\" said Smith, laughing."),  # no apposition
    ("reported", "\"I'm absolutely confident we're going to have a bill,\" Frist, R-Tenn., said Thursday."),
    ("reported", "\"It's a huge black eye,\" Arthur Sulzberger, the newspaper's publisher, said of the scandal."),
    ("reported", "He stood up, said nothing."),  # "said" + what was said
    ("reported", "He stood up, said a few words."),
    ("reported", "She bowed her head, said Amen."),
    ("reported", "Now then, Miss Tuppence, said Sir James, \"you know this place better than I do."),  # a tag inside
    ("reported", "\"It is fine,\" said Gilles Burger Jr."),  # "Jr said.": the period is the abbreviation's
    ("reported", "In Paris, after the meeting, the company said."),  # no clause before the tag
    ("reported", "There are no gods here now, said the voice of the monster in front of them."),  # a long speaker
    ("reported", "Prices, said to be high, fell sharply."),  # "said to be"
    ("add_is", "A cyclists rides up a hill amid cheering bystanders."),  # has its verb
    ("add_is", "A young boy wearing a military sunhat catches a Frisbee outdoors."),
    ("add_is", "Two people wearing hoodies huddle on a doorstep in the rain."),  # "huddle" is its verb
    ("contract", "While writers whose business it is to be witty often fail, others succeed."),  # "whose ... it is"
    ("expand", "Here's to two more years of great music."),  # the toast "Here's to"
    ("front_time", "How the Dow Jones Industrial Average Fared on Tuesday"),  # a wh-clause, no main clause
    ("front_clause", ("The increased volatility of producer and consumer prices in a number of sectors since 1995 "
                      "has been attributed in part to weather.")),  # "since 1995" is in the subject: no verb before
    ("front_clause", ("This means that half of your contribution will be returned to you, while the entire "
                      "donation amount will remain deductible.")),  # an embedded "that" clause before "while"
    # a pronoun in the final clause would come before the noun it refers to
    ("front_clause", "The terrorists tied the flight attendants because they were in the way."),
    ("front_clause", "A man grabs the spokes of his bicycle while he jumps."),
    # an attribute's -ing verb followed by another -ing verb: the later one is the action
    ("add_is", "a man wearing a white suit holding a newspaper walking through the streets."),
    ("add_is", "A boy wearing red crocs climbing a tree."),
    # a first name in apposition to a singular noun before it
    ("swap_conjuncts", "Your best bet would be to order them directly from the publisher Pearson Alhambra and DA."),
    ("swap_conjuncts", "The prize went to the singer Adele and Madonna."),
    # an auxiliary followed by a subject pronoun ends its clause or is inverted; "What's it" is inverted
    ("contract", "Why yes, whatever that is I smoke it."),
    ("contract", "Where would he be today without American commercial know-how?"),  # "Where'd he be"
    ("contract", "What is it that I was supposed to do"),
    ("contract", "Where is it that they went?"),
    # nothing inside a quotation
    ("expand", "Snakes are in the \"you don't bug me, I won't bug you\" category."),
    ("expand", "In standard English, I think \"don't got\" has the same register as \"ain't\"."),
    ("contract", "He said \"we are here\" to the crowd."),
    ("contract", "A man with the name tag \"Chris is not here\" presses his hand at his forehead."),
    # a sentence-initial imperative "don't" + verb
    ("expand", "don't tell me you knew that this was coming up."),
    ("expand", "Don't forget to take a change of clothing and a towel."),
]

test_golden, test_refused, test_family = family_tests(GOLDEN, REFUSED, GRAMMAR_RULES)


def test_number_words_respects_max_number():
    text = "Two young men sitting at the end of a long table eating; there are 3 plates full of food."
    assert RULE_FUNCTIONS["number_words"](text, tokenize(text), RewritesConfig(max_number=2)) is None
    assert "three plates" in RULE_FUNCTIONS["number_words"](text, tokenize(text), RewritesConfig())


def _run(aug, texts, seed=0):
    return list(aug.augment([SourceRecord(source_id=f"r{i}", text=t) for i, t in enumerate(texts)], seed))


def test_sentences_that_get_no_view_say_why():
    aug = build_augmenter("rewrites")
    texts = ["Der Mann spielt eine Gitarre auf der Bühne heute.", "A MAN IS PLAYING A GUITAR ON STAGE.",
             "if (x == 1) { return foo(); }", "A man is playing guitar, see http://example.com/video",
             "#love #summer #beach #fun", "Hi there", "Obama signs the bill into law"]
    assert [p.reject for p in _run(aug, texts)] == ["not_english", "all_capitals", "code", "url", "hashtags",
                                                     "too_short", "no_rule_applies"]


def test_views_are_source_and_rewrite_deterministic_per_record():
    aug = build_augmenter("rewrites", {"rules": DRAWN_RULES})
    texts = [s for _, s, _ in GOLDEN]
    records = [SourceRecord(source_id=f"r{i}", text=t) for i, t in enumerate(texts)]
    first = list(aug.augment(records, 0))
    again = list(aug.augment(list(reversed(records)), 0, batch_size=3))
    assert [p.view1 for p in first] == texts
    assert all(p.reject is None and p.view2 != p.view1 for p in first)
    assert [p.view2 for p in reversed(again)] == [p.view2 for p in first]  # order and batching do not matter
    only = {p.view1: p.info["rules"] for p in first}
    assert only["Two dogs are playing in the grass."] in (["front_place"], ["there"])


def test_max_rules_applies_several_rewrites():
    text = "A man is sitting on a bench."
    pair = _run(build_augmenter("rewrites", {"max_rules": 2, "rules": DRAWN_RULES}), [text])[0]
    assert pair.info["rules"] == ["there", "contract"]  # the second rule applies to the first one's result
    assert pair.view2 == "There's a man sitting on a bench."


def test_fingerprint_changes_with_each_setting():
    base = build_augmenter("rewrites").fingerprint_hash()
    changed = [{"rules": ["contract", "expand"]}, {"max_rules": 2}, {"max_number": 9},
               {"min_english_share": 0.5}, {"min_words": 4}]
    hashes = {build_augmenter("rewrites", c).fingerprint_hash() for c in changed}
    assert base not in hashes and len(hashes) == len(changed)


def test_bad_settings_name_the_key():
    from bsl_pipeline.pipeline.base.errors import BSLError

    with pytest.raises(BSLError, match="method_params.rewrites.max_rules"):
        build_augmenter("rewrites", {"max_rules": 0})
    with pytest.raises(BSLError, match="method_params.rewrites.rules"):
        build_augmenter("rewrites", {"rules": ["contract", "contract"]})


def test_bsl_augment_end_to_end_on_real_sentences(tmp_path, shared_data):
    rows = [line.split("\t") for line in (shared_data / "stsbenchmark/sts-dev.csv").read_text().splitlines()[:60]]
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(r[5] for r in rows) + "\n")
    proc = subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "augment", str(corpus), "--out",
                           str(tmp_path / "out"), "--methods", "rewrites", "-o", "registry_dir=", "-o",
                           "progress=false"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    import pyarrow.parquet as pq

    stats = manifest["stats"]["per_method"]["rewrites"]
    assert stats["pairs"] > 10 and set(stats["rejects"]) == {"no_rule_applies"}, stats
    table = pq.read_table(tmp_path / "out" / "data" / "train-00000-of-00001.parquet").to_pylist()
    assert len(table) == stats["pairs"]
    got = {r["source"]: r["view2"] for r in table}
    guitars = build_augmenter("rewrites").applicable("Three men are playing guitars.")
    assert got["Three men are playing guitars."] in guitars.values()
    assert guitars["there"] == "There are three men playing guitars."
    source = "A man is feeding a mouse to a snake."
    options = build_augmenter("rewrites").applicable(source)  # the view is one of them, drawn per record
    assert got[source] in options.values() and options["there"] == "There is a man feeding a mouse to a snake."
    assert all(json.loads(r["params"])["rules"] for r in table)


def test_the_views_guide_lists_every_rule_in_its_family():
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[3] / "docs" / "guide" / "views.md").read_text(encoding="utf-8")
    table = {line.split("|")[1].strip(): {w.strip("` ") for w in line.split("|")[2].split(",")}
             for line in guide.split("## Rewrites", 1)[1].split("\n\n", 3)[2].splitlines()[2:]}
    assert set().union(*table.values()) == set(RULES)
    for family, rules in table.items():
        module = __import__(f"bsl_pipeline.pipeline.augment.rewrite_rules.{family}", fromlist=["_"])
        family_rules = next(v for k, v in vars(module).items() if k.endswith("_RULES") and isinstance(v, dict))
        assert rules == set(family_rules), family
