"""Word classes of the rewrite rules: numbers, units and time."""

from __future__ import annotations

from bsl_pipeline.pipeline.lexicon.word_classes.function_words import NUMBER_WORDS

ORDINALS = frozenset("first second third fourth fifth last former latter next previous".split())
UNITS = frozenset("am pm a.m p.m km kg mph mm cm ft lb lbs oz mg ml min mins hr hrs sec secs st nd rd th m g k x "
                  "mb gb kb tb yd yds mi in percent per pc pct points point".split())
WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
MONTHS = frozenset("january february march april may june july august september october november december "
                   "jan feb mar apr jun jul aug sep sept oct nov dec".split())
TIME_UNITS = frozenset("week month year weekend night morning afternoon evening season decade century summer "
                       "winter spring autumn fall quarter".split())
PARTS_OF_DAY = frozenset("morning afternoon evening night".split())
TIME_NOUNS = frozenset("time times day days moment moments year years point period age era night morning week "
                       "month hour minute instance case cases place places way".split())
TIME_PHRASE_WORDS = frozenset(WEEKDAYS | MONTHS | TIME_UNITS | {"yesterday", "today", "tonight", "ago", "weeks",
                                                          "months",
                                                          "years", "days", "decades", "centuries", "hours",
                                                          "minutes", "nights", "mornings", "weekends", "seasons",
                                                          "quarters", "summers", "winters", "trading", "session",
                                                          "period", "era", "times", "time", "day", "hour",
                                                          "minute", "moment", "midday", "noon", "midnight",
                                                          "dawn", "dusk", "1990s", "1980s", "1970s", "1960s",
                                                          "meeting", "war", "election", "game", "match", "visit",
                                                          "trip", "talks"})
COUNT_WORDS = frozenset(NUMBER_WORDS[2:]) | frozenset(
    "thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands million millions billion "
    "billions dozen dozens".split())
A_AMOUNTS = frozenset("dozen hundred thousand million billion third quarter fifth tenth half".split())
MAGNITUDES = frozenset("hundred thousand million billion trillion".split())
MEASURES = UNITS | frozenset(
    "% percent minutes minute hours hour days day weeks week months month years year decades miles mile feet foot "
    "metres meters metre meter kilometres kilometers inches inch pounds pound kilograms kilos tons tonnes dollars "
    "cents euros yen points times degrees acres hectares square cubic million billion thousand hundred o'clock "
    "yards gallons litres liters seconds".split())
TIME_OF_DAY_AND_YEAR_WORDS = frozenset(
    "noon midnight dawn dusk morning evening afternoon night day today tomorrow yesterday spring summer autumn winter "
    "fall".split()) | WEEKDAYS | MONTHS
TIME_WORDS = WEEKDAYS | MONTHS | TIME_UNITS | PARTS_OF_DAY | frozenset(
    "today tonight yesterday tomorrow christmas easter now then once later earlier soon".split())
# words that make a "will" habitual or generic ("on Thursday nights i will watch", "will usually be")
HABITUAL = frozenset("usually always often sometimes generally typically normally whenever every nights "
                     "mornings evenings weekends days tend tends".split())
NEITHER_NUMBER = frozenset("number lot couple pair majority minority host handful rest staff crew bulk series "
                            "total personnel family team government".split())
TIME_AFTER = frozenset("yesterday today tonight tomorrow next last ago this week weekend month year morning evening "
                        "night earlier later".split())
AFTER_AGE = frozenset("after in on of from following at amid amidst while when".split())
TIME_ADVERBS_IN_VERB_GROUP = frozenset(
    "later first often soon still recently eventually originally subsequently".split())
# first words after "by" that start no agent
NO_AGENT = frozenset(
    "then now far hand car bus train air plane boat ship sea land foot ferry taxi bicycle bike subway metro tram "
    "coach rail road mail post email e-mail phone telephone fax way accident mistake chance design default nature "
    "definition force name law birth marriage heart means virtue half all most much some none night day noon "
    "midnight tomorrow today tonight "
    "himself herself itself themselves myself yourself ourselves yourselves oneself about around nearly almost "
    "more less over under up some at least comparison contrast".split()) | WEEKDAYS | MONTHS
NO_AGENT_HEADS = frozenset(
    "way end time means margin vote votes percent percentage factor points point goals goal runs seats strokes lengths "
    "inches feet metres meters miles degrees hand hour minute second day week "
    "month year decade century dozen hundreds thousands millions half third quarter fraction amount number "
    "mid-1800s mid-1900s standards standard".split()) | TIME_UNITS | WEEKDAYS | MONTHS
TIME_TAILS = frozenset("yesterday today tonight".split())
