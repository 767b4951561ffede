"""Clause markers that can be said either way: the same clause with or without its complementizer, with the other
relative pronoun, a headline's "to" future as "will", and "will" <-> "going to". The rules (names as in `MARKER_RULES`):

* `that`: the complementizer "that" dropped after a verb of saying or thinking ("He added that prosecutors will
  seek the death penalty." -> "He added prosecutors will seek the death penalty."), or added where it is missing
  ("I think it's fine." -> "I think that it's fine."); and an object relative's "that" dropped after its noun
  ("the role that this access played in ..." -> "the role this access played in ..."). The clause after "that"
  must be plain: a subject (a nominative pronoun, a determiner + up to three lower-case words, a plural noun or
  a name) and then a finite verb. Guards:
  - only after a listed verb ("said", "thinks", "believed", "added", "knew", "found", ...) or adjective ("sure",
    "glad", "afraid"); so "so that", "such that", "now that", "in that", "except that", "given that" stay;
  - never a demonstrative: "I know that man is ..." stays (a singular noun without determiner after "that" may be
    "that man"); a plural noun ("that prosecutors will") or a name cannot be;
  - not before a weekday, month or time word ("He said that Tuesday ..." would read "said Tuesday");
  - after a verb that also takes an object ("found", "knew", "showed", "noted", ...), after "told me/him/..."
    and after "sorry", "certain", "happy", ... only before a nominative pronoun ("found that they were" -> "found
    they were", "He told me that he was tired." <-> "He told me he was tired."), never before a noun phrase
    ("found that the study was flawed": "found the study" is read as its object first);
  - not in the passive ("It is said that ..."), not after a noun ("an expedition's claim that ..."), not when a
    parallel "and that" follows (the two clauses would no longer match), not in a sentence with quotation marks;
  - "that" is added only after verbs of saying and thinking (after the others only before "he", "she", "they",
    "I", "we"; never after the fillers of speech: "you know it's like", "I mean it's"), not after "as"/"than" ("as
    Reich claims it did"), not before "I"/"we"/"you" after someone else's "said" ("a guy said you'd better get
    out": words quoted without quotation marks), and not in a headline whose clause has no finite verb ("Correa
    says no decision made on ...");
  - an object relative's "that" is dropped only after a lower-case noun that takes no "that"-clause of its own
    ("the fact that he knew", "a confession that he had lied about it" stay: listed nouns and nouns in -ion,
    -ment, -ence, ...), when its subject is a pronoun or a determiner phrase ("many that investigators are
    considering" stays: "many investigators") and its verb is followed by punctuation, a preposition or an adverb
    (its object is the noun: "the book that I read yesterday"), not a verb without an object ("fewer powers that
    it seems"); a subject relative ("the man that came") has no subject after "that" and stays.
* `relative`: "which" <-> "that" in a restrictive relative clause ("the report which was released" <-> "the
  report that was released"), and a relative "who/that/which is/are" + an -ing verb reduced to the -ing verb ("A
  man who is wearing a hat" -> "A man wearing a hat"); where neither applies, a passive relative "who/that/which
  is/are/was/were" + a past participle (and an -ly adverb before it) reduced to the participle ("a person who is
  appointed to a job" -> "a person appointed to a job", "those that are manufactured for sale" -> "those
  manufactured for sale", "a sense of flow that is rarely achieved" -> "a sense of flow rarely achieved"), and in
  a past narrative "who/that/which was/were" + an -ing verb ("Poirot nudged me, indicating two men who were
  sitting together" -> "... two men sitting together"). Guards:
  - only after a lower-case noun, never a non-restrictive clause (", which" stays), never after a preposition ("in
    which", "to which"), never "which" + a noun ("which way": a question word), never two relatives joined ("and
    which"); not in a cleft ("Today it is the effects of pollution that are ...");
  - not after a word that may be a verb here ("i think that is the biggest problem"), after "a lot", "many",
    "-thing" words ("anything that": "that" is preferred), or "way", "reason", "time"; not when the verb does not
    agree with the noun ("plants which is Eco-friendly": the relative is about something else);
  - not after a noun that may name a person ("the victim which is affected" is about the victim's body part; "the
    man that came" -> "the man which came" is wrong): person words, nouns in -er/-or/-ist/-ian/-ant/-ent/-an...,
    names; nor after "or"/"and" + such a noun ("the person or entity that pays"), nor within a few words of
    "someone", "those", "people" ("someone else at another time that may ...");
  - "which" -> "that" only when the noun is no preposition's object ("Irish oak from the park which is held
    together": "which" may be about the oak, "that" would bind it to the park), and not near another "that";
  - "that" -> "which" only in a subject relative ("that" + a finite verb: "that" + subject is a complementizer,
    "the fact that he left"), and not after "all", "only", "same", a superlative or an ordinal ("the first film
    that ..." prefers "that");
  - the reduction only when the relative's noun heads a determiner phrase that is no preposition's object ("a man
    with a mustache who is wearing white" stays: "a mustache wearing white"), "who" only after a person or animal
    ("Two guys are wearing uniforms who are running" stays), not "going to" (a future), not in a cleft;
  - the passive and past reductions after a determiner phrase, a plural or modified noun without one ("duties that
    are required by law"), "those", "something", "anyone", ... (a sentence's first word only if a plural or such a
    pronoun: "Workers who were laid off"); not after a bare singular noun ("smoke that was"), a time word or "way",
    "reason", "point" ("At the time that was considered ...": a demonstrative), a verb ("He said that is done"), a
    phrase that opens the sentence ("In my view that is based on ...": the subject; nor does "that" -> "which"
    there), a comma (", which was ..." stays);
  - after a preposition's object "that" (the same ambiguity either way), "who" only after a listed person ("a man
    with a sweater who is seated": "-er" may be no person), "which" only in a verb's phrase ("skateboarding at a
    park which is covered in graffiti"; "oak from the park which is held together" may be about the oak); "which"
    never after a person ("a woman which is seen by another man": the whole event); the verb agrees with the noun
    ("the final rule which were considered": about the alternatives; "those"/"people" are plural);
  - a verb's past participle only: not an adjective ("who are aware", "that is open"), not "being" ("that is being
    built"), "supposed" ("who was supposed to come": a duty), "gone", "got"; the participle (or two joined by
    "and"/"or": "written or printed") must go on with a preposition or particle + a word, "as", "to", or an -ly
    adverb ("something desired intensely"): a bare one refuses ("A rebel who was captured said ...": "A rebel
    captured said"; "something that is offered.", "people who are impoverished, without ..."), and so does one
    with an object ("who was given an award");
  - not when the relative goes on with a verb of its own or a second relative ("matter that is held in a computer
    and is typed", "units that are located in ... and that emit ...");
  - "was/were" + an -ing verb only after a past verb of the sentence ("The man who was standing by the door is my
    father" stays: the reduced "standing" would be now), not "was being", "were going".
* `headline_will`: a news headline's future "to" -> "will" ("Supreme Court to Hear Voting Rights Act Case" ->
  "Supreme Court Will Hear Voting Rights Act Case", "Obama to visit China" -> "Obama will visit China"), "Will"
  in a title-case headline. Only in a headline: it starts with a capital, ends in a word (no final period), and
  has no comma, colon or quote. Guards:
  - the words before "to" are its subject, a noun phrase or name from the headline's start: capitalised words,
    nouns and adjectives, "'s", "of", "and", "the"; a function word ("how to", "all set to", "yet to"), a past
    participle ("Allowed To Compete", "instructed to stay") or a verb that takes "to" ("Plans to", "Struggles
    to", "set to", "Starts to", "Commit to") refuses;
  - the word before "to" is a noun or a name, not an adjective ("likely to", "ready to", "unable to"); a verb after
    a plural ("Syrian forces move to retake", "futures point to lower") is the headline's verb: refused, and so is
    a base-form verb with its object before "to" ("Brazilians throng streets to greet pope"; a capitalised word
    among lower-case ones is a name: "Osama Bin Laden movie to be filmed");
  - digits after the first word or a number word ("Messi scores 4 to send"), or a plural head noun of a list ("10
    Things to Know", "Stocks to Watch") refuses: the "to" is no future;
  - after "to" a base verb ("to Hear", "to be filmed"), not "near", "lower", ... ("falls to near 3-year low"); a
    noun that takes "to" ("Challenges to Restore", "path to power") refuses, and so does a headline ending in "to"
    + a word that is also a noun ("Road to Change") or in a preposition (a cut title).
* `will_going`: the future "will" + a base verb <-> "is/are/am going to" + the verb ("The plant will close next
  year." -> "The plant is going to close next year.", "They are going to build a bridge." -> "They will build a
  bridge.", "that's never going to happen" -> "that will never happen"); "not", "never", "also", "probably", ...
  between them move along ("will not" -> "is not going to"). Only in a plain statement with one future marker: a
  question ("Will it give us ...?"), a headline (a capital and no final punctuation; lower-case transcribed speech
  stays), a second "will"/"'ll"/"won't"/"going to" (the clauses would no longer match; "the will of the people will
  prevail"), a habitual or generic word ("on Thursday nights i will watch", "will usually be", "whenever") or a
  condition ("if", "unless", "whether") refuse. "will" -> "going to" (the form of "be" agrees with the subject):
  - the subject stands directly before "will" and starts a clause (at the start, after a comma, "that", "but", a
    quotation mark or a verb of saying): a personal pronoun but "you" ("I" -> "am"), "this", a name of one to three
    capitalised words not ending in "s" ("Elias", "the Lakers": the number is unknown), or a determiner + one or two
    words whose last is a noun of known number ("the two companies", "the police", not "the data") agreeing with the
    determiner; a longer, coordinated ("The Bombardier and Embraer aircraft") or bare plural subject ("Children will
    enjoy the little steam train": a generic "will") and a relative's "who/which/that will" refuse;
  - no "you"/"your" in the sentence (a guide's "you will see ...", "it will drop you at the terminus": habits, not
    forecasts), no wish before it ("We hope all parties will continue", "ensure that ...");
  - "will" only before a base verb (not "will" as a noun, "if you will", contracted "'ll" or "won't"), not the
    future perfect ("will have finished"), not "boys will be boys".
  "going to" -> "will": only after "is/are/am" or a contracted "'m/'re/'s" of a pronoun ("I'm going to" -> "I will";
  not "was going to", "isn't going to"), and only before a base verb that is no place or fixed phrase ("going to
  the store", "going to bed", "going to waste", "going to work on it": a noun before a preposition or the end).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _final_punct, _is_form, _is_lower_word, _is_word, _lemmas, is_ing_verb, splice,
)
from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword
from bsl_pipeline.pipeline.lexicon.word_classes import (
    ABSTRACT_ENDINGS, ADVERBS_IN_VERB_GROUP, ANIMALS, AUXILIARIES, CLAUSE_DETERMINERS, CLAUSE_NOUNS, CLAUSE_OPENERS,
    DETERMINERS, FINITE_AUX, FUTURE_ADVERBS, GAP_ADVERBS, GOING_PLACES, HABITUAL, HEADLINE_FUNCTION,
    NATIONALITY_ENDINGS, NOMINATIVE_PRONOUNS, NO_REDUCTION, NO_VERB_AFTER_TO, NUMBER_WORDS, OBJECT_PRONOUNS,
    PARTICIPLE_COMPLEMENT, PASSIVE_PRONOUNS, PERSON_NOUNS, PERSON_PRONOUNS, PERSON_SUFFIXES, PLURAL_DETERMINERS,
    PLURAL_ONLY, PREPOSITIONS, PRONOUN_ADJECTIVES, PRONOUN_BE, QUANTIFIERS, ROUNDUP_NOUNS, SAY_ADJECTIVES,
    SINGULAR_DETERMINERS, SUBJECT_DETERMINERS, SUBJECT_PRONOUNS, THAT_PREFERRED, TIME_WORDS, TO_NOUNS, WISH_WORDS,
)


# -- word classes ---------------------------------------------------------------------------------------------------
def _forms(*lemmas: str) -> frozenset[str]:
    from lemminflect import getAllInflections

    out = set(lemmas)
    for lemma in lemmas:
        for forms in getAllInflections(lemma, upos="VERB").values():
            out.update(forms)
    return frozenset(out)


@lru_cache(maxsize=1)
def _verb_lists() -> dict[str, frozenset[str]]:
    return {
        # "that" dropped before any plain clause, and added after them
        "say": _forms("say", "think", "believe", "hope", "guess", "suppose", "reckon", "add", "argue", "insist",
                      "claim", "contend", "assert", "allege", "predict", "realize", "realise"),
        # "that" dropped only before a nominative pronoun: these verbs also take a noun phrase as object
        "object": _forms("know", "feel", "notice", "find", "learn", "hear", "understand", "admit", "agree",
                         "announce", "report", "note", "suggest", "show", "mean", "wish", "bet", "expect", "fear",
                         "warn", "confirm", "indicate", "reveal", "discover", "decide", "ensure", "recall",
                         "remember", "imagine", "pretend", "promise", "swear", "acknowledge", "conclude",
                         "estimate", "figure"),
        # words that are fillers in speech ("you know it's like", "I mean it's", "I bet it's", "see, ...")
        "filler": _forms("know", "mean", "bet", "see", "feel", "figure", "promise", "swear", "understand"),
        "tell": _forms("tell", "inform", "assure", "convince", "remind", "persuade", "promise"),
        "speech": _forms("say", "add", "claim", "insist", "argue", "contend", "assert", "allege"),
        "intransitive": _forms("seem", "appear", "happen", "exist", "occur", "matter", "arise", "emerge", "be",
                               "become", "remain", "lie", "die", "sleep", "arrive", "go", "come", "belong",
                               "consist", "depend", "rely", "stand", "sit", "live", "work", "talk", "lied", "laugh",
                               "smile", "look", "listen", "walk", "run", "fall", "rise", "wait", "agree", "think"),
        # verbs that take "to" + a verb ("plans to"): before a headline's "to", the headline's own verb
        "catenative": _forms("plan", "want", "hope", "seek", "try", "vow", "pledge", "promise", "threaten", "refuse",
                             "agree", "decide", "aim", "move", "struggle", "start", "begin", "fail", "continue",
                             "need", "expect", "intend", "prepare", "offer", "manage", "attempt", "strive", "rush",
                             "scramble", "push", "battle", "fight", "look", "ask", "urge", "tell", "order", "call",
                             "allow", "force", "set", "commit", "vote", "choose", "opt", "elect", "wish", "like",
                             "love", "hate", "prefer", "dare", "tend", "appear", "seem", "claim", "happen", "learn",
                             "bid", "race", "rally", "return", "go", "come", "head", "turn", "work", "step", "sign",
                             "lobby", "campaign", "help", "say", "warn", "advise", "invite", "pressure", "press",
                             "petition", "appeal", "sue", "point", "get", "have", "use", "vow", "pay", "fly",
                             "travel", "hurry", "stand", "wait", "threaten", "forget", "remember", "cease",
                             "resolve", "promise", "pledge", "agree", "consent", "volunteer", "train", "stop",
                             "struggle", "strain", "labour", "labor", "act", "move", "swear", "profess", "pretend",
                             "long", "yearn", "live", "survive", "grow", "rise"),
    }


CONTRACTED_SUBJECT = re.compile(r"(i|you|he|she|it|we|they|there)'(s|m|re|ve|ll|d)")


@lru_cache(maxsize=100_000)
def _is_plural_noun(word: str) -> bool:
    from lemminflect import getInflection

    return any(word in getInflection(lemma, "NNS", inflect_oov=False) and word != lemma
               for lemma in _lemmas(word).get("NOUN", ()))


def _is_finite(tok: Tok) -> bool:
    """A finite verb: an auxiliary (or its "n't" form), or a verb's -s or past form that is not also a noun."""
    low = tok.low
    if not tok.text.islower() or not _is_word(tok):
        return False
    if low in FINITE_AUX:
        return True
    if "NOUN" in _lemmas(low) and not low.endswith("ed"):
        return False
    return _is_form(low, "VBZ") or _is_form(low, "VBD")


def _clause_subject(toks: list[Tok], i: int, names: bool = True, bare: bool = True) -> int | None:
    """Index of the finite verb of a plain clause starting at token `i` (subject + finite verb), or None. A
    contracted "it's" / "they're" is subject and verb at once (its own index)."""
    if i >= len(toks) or not _is_word(toks[i]) and not toks[i].text[:1].isdigit():
        return None
    first = toks[i]
    low = first.low
    if CONTRACTED_SUBJECT.fullmatch(low):
        return i if first.text[:1].islower() or low.startswith("i'") else None
    if low in SUBJECT_PRONOUNS and (first.text.islower() or first.text == "I"):
        return i + 1 if i + 1 < len(toks) and _is_finite(toks[i + 1]) else None
    if low in TIME_WORDS or low.split("'")[0] in TIME_WORDS:
        return None
    if low in CLAUSE_DETERMINERS and first.text.islower() or first.text.replace(",", "").isdigit():
        j = i + 1
        while j < len(toks) and j - i <= 3 and _is_lower_word(toks[j]) and not _is_finite(toks[j]) \
                and not is_stopword(toks[j].text):
            j += 1
        if j == i + 1 or j >= len(toks) or toks[j - 1].low in TIME_WORDS:
            return None
        return j if _is_finite(toks[j]) else None
    if bare and _is_lower_word(first) and _is_plural_noun(low) and "VERB" not in _lemmas(low):
        return i + 1 if i + 1 < len(toks) and _is_finite(toks[i + 1]) else None
    if names and first.text[:1].isupper() and first.text[1:].islower() and not _lemmas(low):
        j = i + 1
        while j < len(toks) and j - i < 3 and toks[j].text[:1].isupper() and toks[j].text[1:].islower() \
                and not _lemmas(toks[j].low):
            j += 1
        return j if j < len(toks) and _is_finite(toks[j]) else None
    return None


def _passive_or_noun(toks: list[Tok], v: int) -> bool:
    """Whether the listed verb at `v` is a passive ("it is said that") or may be a noun ("a thought that")."""
    if v == 0:
        return True
    prev = toks[v - 1].low
    return prev in ("is", "are", "was", "were", "be", "been", "being") or prev in DETERMINERS \
        or not _is_word(toks[v - 1]) and toks[v - 1].text != "," or re.search(r"['’]s?$", prev) is not None \
        or "ADJ" in _lemmas(prev) and not {"ADV", "VERB", "NOUN"} & set(_lemmas(prev))


# -- that -------------------------------------------------------------------------------------------------------------
def _thats(toks: list[Tok], first: int, after: int) -> Iterator[int]:
    """The indices of a lower-case "that" from token `first` on, with at least `after` tokens after it."""
    return (k for k in range(first, len(toks) - after) if toks[k].text == "that")


def _drop_after_verb(text: str, toks: list[Tok]) -> str | None:
    lists = _verb_lists()
    for k in _thats(toks, 1, 2):
        t = toks[k]
        v = k - 1
        verb = toks[v].low
        say = verb in lists["say"] or verb in SAY_ADJECTIVES
        told = verb in OBJECT_PRONOUNS and k >= 3 and toks[k - 2].low in lists["tell"]  # "told me that he ..."
        if not (say or told or verb in lists["object"] or verb in PRONOUN_ADJECTIVES) or not toks[v].text.islower() \
                or _passive_or_noun(toks, k - 2 if told else v):
            continue
        if verb in ("know", "knew") and any(x.low in ("not", "never") or x.low.endswith("n't") for x in toks[:v]):
            continue  # "I do not know that I have a proper answer" (= not sure): without "that", unaware
        nxt = toks[k + 1]
        if not say and not (nxt.low in NOMINATIVE_PRONOUNS or CONTRACTED_SUBJECT.fullmatch(nxt.low)
                            and not nxt.low.startswith(("it'", "you'", "there'"))):
            continue  # "found that the study was ...": "found the study" would be read as its object
        if _clause_subject(toks, k + 1) is None:
            continue
        if any(a.low in ("and", "or", "but") and b.low == "that" for a, b in zip(toks[k + 1:], toks[k + 2:])):
            return None  # "claims that ... and that ...": the clauses would no longer match
        return splice(text, [(toks[v].end, t.end, "")])
    return None


def _verb_group_end(toks: list[Tok], j: int) -> int | None:
    """From a finite verb at `j`: the index after the verb group (auxiliaries, adverbs, main verb)."""
    while j < len(toks) and (toks[j].low in FINITE_AUX | AUXILIARIES | ADVERBS_IN_VERB_GROUP | {"been", "being",
                                                                                                 "be", "to"}):
        j += 1
        if j < len(toks) and toks[j - 1].low not in ADVERBS_IN_VERB_GROUP | {"to"} \
                and (is_ing_verb(toks[j].low) or _is_form(toks[j].low, "VBN") or _is_form(toks[j].low, "VB")):
            break
    if j < len(toks) and _is_lower_word(toks[j]) and toks[j].low not in PREPOSITIONS \
            and any(_is_form(toks[j].low, tag) for tag in ("VB", "VBZ", "VBD", "VBN", "VBG")):
        return j + 1
    return None


def _drop_object_relative(text: str, toks: list[Tok]) -> str | None:
    lists = _verb_lists()
    for k in _thats(toks, 2, 3):
        t = toks[k]
        noun = toks[k - 1]
        if not _is_lower_word(noun) or "NOUN" not in _lemmas(noun.low) or noun.low in CLAUSE_NOUNS \
                or is_stopword(noun.text) or noun.low in lists["say"] | lists["object"] | lists["catenative"] \
                or noun.low in QUANTIFIERS:
            continue
        if "VERB" in _lemmas(noun.low) and not _is_plural_noun(noun.low) and toks[k - 2].low not in DETERMINERS \
                and "ADJ" not in _lemmas(toks[k - 2].low):
            continue  # "... as they say that ...": the word may be a verb
        if any(x.low in ("so", "such") for x in toks[max(0, k - 4):k]):
            continue  # "such a mess that ...": a result clause
        if noun.low.endswith(ABSTRACT_ENDINGS):
            continue  # "a confession that he had lied about ...": such nouns take a "that"-clause of their own
        nxt = toks[k + 1]
        if nxt.low in NOMINATIVE_PRONOUNS | {"it", "you"} and (nxt.text.islower() or nxt.text == "I"):
            verb = k + 2
        else:
            verb = _clause_subject(toks, k + 1, names=False, bare=False)  # "many [that] investigators"
            if verb is None or nxt.low in SUBJECT_PRONOUNS or CONTRACTED_SUBJECT.fullmatch(nxt.low):
                continue
        if verb >= len(toks) or not _is_finite(toks[verb]):
            continue
        end = _verb_group_end(toks, verb)
        if end is None or toks[end - 1].low in lists["say"] | lists["object"] | lists["catenative"] \
                and end < len(toks) and _is_word(toks[end]):
            continue
        after = toks[end] if end < len(toks) else None
        if toks[end - 1].low in lists["intransitive"] and not (
                after is not None and after.low in PREPOSITIONS and (end + 1 == len(toks) or not _is_word(
                    toks[end + 1]) or toks[end + 1].low in PREPOSITIONS | GAP_ADVERBS)):
            continue  # "fewer powers that it seems", "a claim that he lied about it": no object relative
        if after is not None and not (after.text in (".", ",", ";", ":", "!", "?", ")")
                                      or after.low in PREPOSITIONS and after.text.islower()
                                      or after.low in GAP_ADVERBS and after.text.islower()):
            continue  # the relative's verb has an object of its own: "that" is no object relative
        return splice(text, [(noun.end, t.end, "")])
    return None


def _add_after_verb(text: str, toks: list[Tok]) -> str | None:
    lists = _verb_lists()
    if any(t.low == "that" for t in toks):
        return None
    for v in range(1, len(toks) - 2):
        t = toks[v]
        nxt = toks[v + 1]
        if t.low in lists["tell"] and t.text.islower() and nxt.low in OBJECT_PRONOUNS and v + 3 < len(toks) \
                and toks[v + 2].low in ("he", "she", "they") and not _passive_or_noun(toks, v) \
                and _clause_subject(toks, v + 2) is not None:
            return splice(text, [(nxt.end, nxt.end, " that")])  # "He told me he was tired."
        nominative_only = t.low in lists["object"] and t.low not in lists["filler"]
        if not (t.low in lists["say"] or nominative_only) or not t.text.islower() or _passive_or_noun(toks, v):
            continue
        if is_ing_verb(t.low) or t.low in ("thought",) and toks[v - 1].low not in SUBJECT_PRONOUNS:
            continue
        if nxt.start != t.end + 1:
            continue
        if any(x.low in ("as", "than", "so", "how", "what") for x in toks[max(0, v - 3):v]):
            continue  # "as Reich claims it did": a comparison, not a reported clause
        if t.low in lists["speech"] and (nxt.low in ("i", "we", "you", "let's") or nxt.low.startswith(
                ("i'", "we'", "you'"))) and toks[v - 1].low not in ("i", "we", "you"):
            continue  # "a guy said you'd better get out": words quoted without quotation marks
        verb = _clause_subject(toks, v + 1)
        if verb is None or nominative_only and t.low not in lists["say"] and not (
                nxt.low in NOMINATIVE_PRONOUNS and (nxt.text.islower() or nxt.text == "I")
                or CONTRACTED_SUBJECT.fullmatch(nxt.low) and nxt.low.split("'")[0] in NOMINATIVE_PRONOUNS):
            continue  # "I noticed the man was" stays: "noticed the man" is read as its object
        if _final_punct(toks) == len(toks) and toks[0].text[:1].isupper() and toks[verb].low not in FINITE_AUX \
                and _is_form(toks[verb].low, "VBN"):
            continue  # a headline: "Correa says no decision made on ..." has no finite verb
        return splice(text, [(t.end, t.end, " that")])
    return None


def rule_that(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if "?" in text and not text.rstrip().endswith("?") or '"' in text or "“" in text:
        return Refusal("quotation")  # quotations: what is inside may not be the verb's clause
    return _drop_after_verb(text, toks) or _drop_object_relative(text, toks) or _add_after_verb(text, toks)


# -- relative -------------------------------------------------------------------------------------------------------
def _may_be_person(tok: Tok) -> bool:
    low = tok.low
    nouns = _lemmas(low).get("NOUN", ())
    return (not tok.text.islower() or low in PERSON_NOUNS or any(n in PERSON_NOUNS for n in nouns)
            or low.endswith(PERSON_SUFFIXES) or not _lemmas(low))


def _noun_head(toks: list[Tok], k: int) -> int | None:
    """Start of the noun phrase that token k-1 heads: a determiner (or number) + up to three lower-case words, the
    last a noun; None when token k-1 heads no such phrase or the phrase is a preposition's object."""
    j = k - 1
    if not _is_lower_word(toks[j]) or "NOUN" not in _lemmas(toks[j].low) or is_stopword(toks[j].text):
        return None
    while j > 0 and _is_lower_word(toks[j - 1]) and toks[j - 1].low not in DETERMINERS \
            and not is_stopword(toks[j - 1].text) and k - j < 4:
        j -= 1
    if j == 0 or toks[j - 1].low not in DETERMINERS:
        return None
    j -= 1
    return j if j == 0 or toks[j - 1].low not in PREPOSITIONS else None


def _verb_like(toks: list[Tok], i: int) -> bool:
    """Whether the noun at `i` may be a verb here ("i think that is ...", "is given that provides"): it has a verb
    reading and no determiner, adjective or possessive before it, and it is no plural noun."""
    low = toks[i].low
    if "VERB" not in _lemmas(low) or _is_plural_noun(low) or i == 0:
        return "VERB" in _lemmas(low) and i == 0
    prev = toks[i - 1]
    if prev.low in SUBJECT_PRONOUNS:
        return True
    return not (prev.low in DETERMINERS or "ADJ" in _lemmas(prev.low) or prev.low.endswith(("'s", "’s"))
                or prev.low in ("of", "and", "or") or "NOUN" in _lemmas(prev.low) and not _is_finite(prev))


def _in_phrase_of_preposition(toks: list[Tok], i: int) -> bool:
    """Whether the noun at `i` ends a preposition's object ("in the flour", "of a musical theme")."""
    j = i
    while j > 0 and i - j < 5 and (_is_lower_word(toks[j - 1]) or toks[j - 1].text == "-") \
            and toks[j - 1].low not in PREPOSITIONS and not (_is_finite(toks[j - 1]) or is_ing_verb(toks[j - 1].low)):
        j -= 1
    return j > 0 and (toks[j - 1].low in PREPOSITIONS or toks[j - 1].text in (")", "(", "_"))


def _cleft(toks: list[Tok], k: int) -> bool:
    """Whether "it is/was" comes before token k: "Today it is the effects of pollution that are ..."."""
    return any(a.low == "it" and b.low in ("is", "was", "'s") or a.low in ("it's", "it’s")
               for a, b in zip(toks[:k], toks[1:k]))


def _reduce_relative(text: str, toks: list[Tok]) -> str | None:
    for k in range(2, len(toks) - 3):
        t = toks[k]
        if t.low not in ("who", "that", "which") or not t.text.islower():
            continue
        be, verb = toks[k + 1], toks[k + 2]
        if be.low not in ("is", "are") or not is_ing_verb(verb.low):
            continue
        if verb.low == "going" and k + 3 < len(toks) and toks[k + 3].low == "to":
            continue  # "who are going to vote": a future
        if toks[k - 1].text == "," or _noun_head(toks, k) is None or _cleft(toks, k):
            continue  # "a man with a mustache who is wearing white": "a mustache wearing white"
        if t.low == "who" and not (_may_be_person(toks[k - 1]) or toks[k - 1].low in ANIMALS):
            continue  # "Two guys are wearing uniforms who are running": "who" is not the uniforms
        return splice(text, [(t.start, verb.start, "")])
    return None


def _agrees(noun: Tok, verb: Tok) -> bool:
    """Whether a relative's verb agrees with the noun before it ("plants which is Eco-friendly" does not: the
    relative is about something else)."""
    plural = _is_plural_noun(noun.low)
    singular = any(noun.low == n for n in _lemmas(noun.low).get("NOUN", ()))
    if verb.low in ("is", "was", "has", "does", "isn't", "wasn't", "hasn't", "doesn't") or \
            verb.low.endswith("s") and _is_form(verb.low, "VBZ"):
        return singular or not plural
    if verb.low in ("are", "were", "have", "do", "aren't", "weren't", "haven't", "don't"):
        return plural or not singular
    return True


def _fronted(toks: list[Tok], k: int) -> bool:
    """Whether the words before token k are a phrase that opens the sentence or a clause ("In my view that is
    based on ...": "that" is the subject, not a relative)."""
    j = k - 1
    while j > 0 and k - j < 6 and (_is_lower_word(toks[j - 1]) or toks[j - 1].text[:1].isdigit()) \
            and toks[j - 1].low not in PREPOSITIONS:
        j -= 1
    return j > 0 and toks[j - 1].low in PREPOSITIONS and (j == 1 or toks[j - 2].text in (",", ";", ":", "("))


def _swap_relative(text: str, toks: list[Tok]) -> str | None:
    if re.search(r"\b(and|or|but) (which|that)\b", text):
        return None
    for k in range(2, len(toks) - 2):
        t = toks[k]
        if t.text not in ("which", "that"):
            continue
        noun, nxt = toks[k - 1], toks[k + 1]
        if not _is_lower_word(noun) or noun.low in PREPOSITIONS or noun.low == "that" or is_stopword(noun.text):
            continue  # "... called Groups which might be helpful": a name may end before the relative
        if "NOUN" not in _lemmas(noun.low) or noun.low in QUANTIFIERS or noun.low.endswith("thing") \
                or noun.low in ("way", "extent", "degree", "reason", "point", "time", "so", "such"):
            continue  # "a lot that", "anything that": these prefer "that"
        if _verb_like(toks, k - 1) or _cleft(toks, k) or not _agrees(noun, nxt) or _fronted(toks, k):
            continue
        heads = [noun] + ([toks[k - 3]] if k >= 3 and toks[k - 2].low in ("and", "or") else [])
        if any(_may_be_person(x) for x in heads) or any(x.low in PERSON_PRONOUNS for x in toks[max(0, k - 7):k]):
            continue  # "the victim which is affected" is not the victim; "the person or entity that pays"
        if t.text == "which":
            if _in_phrase_of_preposition(toks, k - 1) or any(x.low == "that" for x in toks[max(0, k - 4):k]):
                continue  # "Irish oak from the park which is held together": "which" may be about the oak
            if nxt.low in ("means", "meant", "makes", "made", "explains", "is", "was") and k + 2 < len(toks) \
                    and toks[k + 2].low in ("why", "it", "me", "us", "them", "sense"):
                continue  # "which is why": "which" refers to the whole clause
            if _is_finite(nxt) or _clause_subject(toks, k + 1, names=False) is not None:
                return splice(text, [(t.start, t.end, "that")])
            continue
        # that -> which: a subject relative only ("that" + subject is a complementizer: "the fact that he left")
        if not _is_finite(nxt):
            continue
        if any(x.low in THAT_PREFERRED or x.low.endswith("est") and "ADJ" in _lemmas(x.low)
               for x in toks[max(0, k - 4):k - 1]):
            continue  # "the only film that ...", "the best way that ..."
        return splice(text, [(t.start, t.end, "which")])
    return None


def _agrees_passive(noun: Tok, be: Tok) -> bool:
    """`_agrees`, with the nouns that are plural without an -s ("the people who were")."""
    if noun.low in PLURAL_ONLY or noun.low == "those":
        return be.low in ("are", "were")
    return _agrees(noun, be)


def _person_noun(tok: Tok) -> bool:
    return tok.low in PERSON_NOUNS or any(n in PERSON_NOUNS for n in _lemmas(tok.low).get("NOUN", ()))


def _passive_head(toks: list[Tok], k: int) -> str | None:
    """The noun phrase that a relative at token k is about: "det" (a determiner phrase: "a program that is
    designed"), "bare" (a bare plural or a modified noun: "duties that are required"), "pronoun" ("those who were
    killed"), "of" (a preposition's object: "a band of leather that is placed"); None when the word before is no
    such noun, or "that" may be a demonstrative or a complementizer ("At the time that was", "He said that is")."""
    noun = toks[k - 1]
    low = noun.low
    if k == 1 and noun.text.isalpha() and noun.text.istitle() and (low in PASSIVE_PRONOUNS or _is_plural_noun(low)):
        return "pronoun" if low in PASSIVE_PRONOUNS else "bare"  # "Those who were ...", "Workers who were ..."
    if not _is_lower_word(noun):
        return None
    if low in PASSIVE_PRONOUNS:
        return "pronoun"
    if "NOUN" not in _lemmas(low) or is_stopword(noun.text) or low in QUANTIFIERS or low in TIME_WORDS \
            or low in ("way", "extent", "degree", "reason", "point", "time", "so", "such"):
        return None

    def modifier(i: int) -> bool:  # "a light line", "three-dimensional space", "training programs"
        tok = toks[i]
        return tok.text.replace("-", "").isalpha() and tok.text.islower() and tok.low not in DETERMINERS \
            and tok.low not in PREPOSITIONS and not is_stopword(tok.text) and not _is_finite(tok) \
            and not (is_ing_verb(tok.low) and i > 0 and toks[i - 1].low in AUXILIARIES | {"be", "been"})

    j = k - 1
    while j > 0 and k - j < 4 and modifier(j - 1):
        j -= 1
    if j > 0 and (toks[j - 1].low in DETERMINERS or toks[j - 1].text in ("'s", "’s")
                  or re.search(r"['’]s$", toks[j - 1].low)):
        j, kind = j - 1, "det"  # "the report", "the company's report"
    else:
        kind = "bare"
    governed = j > 1 and toks[j - 1].low in PREPOSITIONS | {"as"} and toks[j - 2].text not in (",", ";", ":", "(")
    if kind == "bare" and not governed and (not (_is_plural_noun(low) or j < k - 1) or low in _verb_lists()["say"]
                                            or j == k - 1 and _verb_like(toks, k - 1)):
        return None  # a bare singular noun or a verb: "He saw smoke that was ...", "He said that is done ..."
    if j > 0 and toks[j - 1].low in PREPOSITIONS | {"as"} and not governed:
        return None  # a fronted phrase: "In my view that is based on a mistake" ("that" is the subject)
    return "of" if governed else kind


def _reducible(toks: list[Tok], k: int) -> bool:
    """Whether the relative at token k ("who/that/which" + a form of "be") may lose both words: a restrictive
    relative about the noun before it (see `_passive_head`), its verb agreeing; "who" after a person or an animal
    (after a preposition's object only a listed person: "a man with a sweater who was ..." may be about the man),
    "which" after no person ("a woman which is seen by another man"), and after a preposition's object only in a
    verb's phrase ("skateboarding at a park which is covered"; "oak from the park which is held together" may be
    about the oak)."""
    t, noun = toks[k], toks[k - 1]
    head = _passive_head(toks, k)
    if head is None or _cleft(toks, k) or not _agrees_passive(noun, toks[k + 1]):
        return False  # "the final rule which were considered": the relative is about the alternatives
    if t.low == "who":
        return _person_noun(noun) or noun.low in ANIMALS or head != "of" and _may_be_person(noun)
    if head == "of" and t.low == "which":  # only in a phrase of a verb ("skateboarding at a park which is ...")
        j = k - 1
        while j > 0 and toks[j - 1].low not in PREPOSITIONS | {"as"}:
            j -= 1
        before = toks[j - 2] if j > 1 else None
        return before is not None and _is_lower_word(before) and (is_ing_verb(before.low) or _is_finite(before)
                                                                   or "NOUN" not in _lemmas(before.low))
    return not (t.low == "which" and _person_noun(noun))


def _goes_on(rest: list[Tok]) -> bool:
    """Whether the relative goes on with a verb of its own after "and"/"or"/"but" ("matter that is held in a
    computer and is typed on paper": the reduced relative could not take the second verb)."""
    return any(a.low in ("and", "or", "but") and (b.low in FINITE_AUX or _is_finite(b)) for a, b in zip(rest, rest[1:]))


def _is_adverb(tok: Tok) -> bool:
    return _is_lower_word(tok) and tok.low.endswith("ly") and "ADV" in _lemmas(tok.low)


def _reduce_passive(text: str, toks: list[Tok]) -> str | None:
    """"a program that is designed to help" -> "a program designed to help"; see the module docstring."""
    if re.search(r"\b(and|or|but) (who|which|that)\b", text, re.IGNORECASE):
        return None  # "units that are located in ... and that emit ...": the relatives would no longer match
    for k in range(1, len(toks) - 3):
        t, be = toks[k], toks[k + 1]
        if t.low not in ("who", "that", "which") or not t.text.islower() or be.low not in ("is", "are", "was", "were"):
            continue
        p = k + 3 if _is_adverb(toks[k + 2]) else k + 2  # "that is widely used"
        part = toks[p] if p < len(toks) else None
        if part is None or not _is_lower_word(part) or not _is_form(part.low, "VBN") or part.low in NO_REDUCTION:
            continue  # "that is being built", "that is open", "who is supposed to ..."
        if not _reducible(toks, k):
            continue
        e = p + 1
        while e + 1 < len(toks) and toks[e].low in ("and", "or") and _is_lower_word(toks[e + 1]) \
                and _is_form(toks[e + 1].low, "VBN"):
            e += 2  # "that is written or printed"
        rest = toks[e:]
        if rest and _is_adverb(rest[0]):  # "something that is desired intensely."
            ok = len(rest) == 1 or not _is_word(rest[1]) or rest[1].low in PREPOSITIONS | PARTICIPLE_COMPLEMENT
        else:  # a complement must follow: "A rebel who was captured said ..." would read "A rebel captured said"
            ok = len(rest) > 1 and rest[0].low in PREPOSITIONS | PARTICIPLE_COMPLEMENT and rest[0].text.islower() \
                and (_is_word(rest[1]) or rest[1].text[:1].isdigit() or rest[1].text in ("$", "'", '"'))
        if ok and not _goes_on(rest):
            return splice(text, [(t.start, toks[k + 2].start, "")])
    return None


def _is_past_verb(toks: list[Tok], i: int) -> bool:
    """Whether token i is a past verb: "was", "had", a past form that is no participle ("began"), or a regular past
    after a pronoun or a name ("Poirot nudged")."""
    x = toks[i]
    if x.low in ("was", "were", "had", "did"):
        return True
    if not _is_lower_word(x) or not _is_form(x.low, "VBD"):
        return False
    return not _is_form(x.low, "VBN") or i > 0 and (toks[i - 1].low in NOMINATIVE_PRONOUNS
                                                    or toks[i - 1].text.istitle() and not _lemmas(toks[i - 1].low))


def _reduce_past_progressive(text: str, toks: list[Tok]) -> str | None:
    """"two men who were sitting together" -> "two men sitting together", in a past narrative only."""
    if re.search(r"\b(and|or|but) (who|which|that)\b", text, re.IGNORECASE):
        return None
    for k in range(1, len(toks) - 3):
        t, be, verb = toks[k], toks[k + 1], toks[k + 2]
        if t.low not in ("who", "that", "which") or not t.text.islower() or be.low not in ("was", "were") \
                or not is_ing_verb(verb.low) or verb.low in ("being", "going"):
            continue
        if not any(_is_past_verb(toks, i) for i in range(k)):
            continue  # "The man who was standing there is my father": the time is the relative's own
        if _reducible(toks, k) and not _goes_on(toks[k + 3:]):
            return splice(text, [(t.start, verb.start, "")])
    return None


def rule_relative(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    return _swap_relative(text, toks) or _reduce_relative(text, toks) or _reduce_passive(text, toks) \
        or _reduce_past_progressive(text, toks)


# -- headline_will ----------------------------------------------------------------------------------------------------
def _headline_subject_ok(toks: list[Tok], k: int) -> bool:
    """Whether tokens 0..k-1 are a noun phrase or name that can be the subject of a headline's "to"."""
    lists = _verb_lists()
    for j, t in enumerate(toks[:k]):
        low = t.low
        if t.text in ("'s", "'", "’s") or low in HEADLINE_FUNCTION and (t.text.islower() or j == 0):
            continue
        if t.text == "." and j > 0 and toks[j - 1].end == t.start and len(toks[j - 1].text) <= 2:
            continue  # "U.S."
        if not (_is_word(t) or t.text[:1].isdigit()):
            return False
        base = re.sub(r"['’]s$", "", low)
        lemmas = _lemmas(base)
        if t.text.islower() and not lemmas or is_stopword(t.text) and not t.text.isupper():
            return False  # "How to Train", "all set to"
        if base in lists["catenative"] and ("VERB" in lemmas or not lemmas):
            return False  # "Plans to", "Struggles To", "set to"
        if "VERB" in lemmas and "NOUN" not in lemmas and "ADJ" not in lemmas:
            return False  # "Commit to", "Allowed To"
        if base.endswith("ed") and (_is_form(base, "VBD") or _is_form(base, "VBN")):
            return False  # "instructed to stay", "hospitalised"
        if t.text[:1].isdigit() and j > 0 or low in NUMBER_WORDS:
            return False  # "Messi scores 4 to send", "10 Things to Know": no subject of a "to" future
        if j > 0 and "VERB" in lemmas and (_is_form(base, "VB") or _is_form(base, "VBZ")):
            before = re.sub(r"['’]s$", "", toks[j - 1].low)
            if _is_plural_noun(before) or _is_form(base, "VBZ") and not _is_adjective(toks[j - 1]) \
                    and toks[j - 1].low not in HEADLINE_FUNCTION and toks[j - 1].text not in ("'s", "’s"):
                return False  # "Syrian forces move to retake", "Messi scores": the verb of the subject before it
            if j < k - 1 and _is_form(base, "VB") and not (t.text[:1].isupper() and any(
                    _is_word(x) and x.text.islower() and x.low not in HEADLINE_FUNCTION for x in toks[:k])):
                return False  # "Brazilians throng streets to greet pope": a verb with its object before "to" (a
                # capitalised word among lower-case ones is a name: "Osama Bin Laden movie to be filmed")
    last = toks[k - 1]
    lemmas = _lemmas(re.sub(r"['’]s$", "", last.low))
    if lemmas and "NOUN" not in lemmas:
        return False  # "likely to", "unable to", "yet to"
    if any(lemma in TO_NOUNS for lemma in lemmas.get("NOUN", ())) or last.text in ("'s", "'", ".", "’s"):
        return False  # "Challenges to Restore", "Road to Ruin": a noun with its own "to"
    if _is_plural_noun(last.low) and any(lemma in ROUNDUP_NOUNS for lemma in lemmas.get("NOUN", ())):
        return False  # "Stocks to Watch", "Places to visit": the things one is to watch
    return True


def _is_adjective(tok: Tok) -> bool:
    """An adjective before a noun, or a nationality ("Syrian", "Somali", "Chinese") that lemminflect does not know."""
    lemmas = _lemmas(tok.low)
    if lemmas:
        return "ADJ" in lemmas
    return tok.text[:1].isupper() and tok.low.endswith(NATIONALITY_ENDINGS)


def rule_headline_will(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if len(toks) < 4 or _final_punct(toks) != len(toks) or not (toks[0].text[:1].isupper()
                                                                or toks[0].text[:1].isdigit()):
        return None
    if any(t.text in (",", ":", ";", '"', "“", "”", "(", ")", "!", "?", "|") and not (
            t.text == "," and 0 < i < len(toks) - 1 and toks[i - 1].text.isdigit() and toks[i + 1].text.isdigit()
            and toks[i - 1].end == t.start == toks[i + 1].start - 1) for i, t in enumerate(toks)):
        # a headline of two parts ("Britain's Prince Philip hospitalised, to miss jubilee"); "1,000"
        return Refusal("two_part_headline")
    for k in range(1, len(toks) - 1):
        t = toks[k]
        if t.low != "to":
            continue
        verb = toks[k + 1]
        if not _is_word(verb) or not _is_form(verb.low, "VB") or verb.text.isupper():
            return None
        if k + 2 == len(toks) and "NOUN" in _lemmas(verb.low) or verb.low in NO_VERB_AFTER_TO:
            return Refusal("no_verb_after_to")  # "Road to Change": "to" + a noun; "falls to near 3-year low": no verb
        if toks[-1].low in PREPOSITIONS | HEADLINE_FUNCTION:
            return Refusal("cut_title")  # a cut title ("... Public Confidence in")
        if not _headline_subject_ok(toks, k):
            return Refusal("subject_unfit")
        title = verb.text[:1].isupper()
        if title and any(_is_lower_word(x) and len(x.text) > 3 for x in toks):
            # a capitalised word in a lower-case headline is a name, not "to Hear"
            return Refusal("name_in_lower_case_headline")
        return splice(text, [(t.start, t.end, "Will" if title else "will")])
    return None


# -- will_going -------------------------------------------------------------------------------------------------------
CONTRACTED_BE = re.compile(r"(i|you|he|she|it|we|they|that|this)['’](m|re|s)")


def _future_count(toks: list[Tok]) -> int:
    """How many future markers the sentence has ("will", "'ll", "won't", "shall", "going to")."""
    lows = [t.low for t in toks]
    return sum(low in ("will", "won't", "shall") or low.endswith("'ll") for low in lows) + sum(
        a == "going" and b == "to" for a, b in zip(lows, lows[1:]))


def _noun_number(tok: Tok) -> str | None:
    """ "s" for a singular noun, "p" for a plural one, None when unknown or both ("sheep", "series")."""
    if not _is_lower_word(tok):
        return None
    if tok.low in PLURAL_ONLY:
        return "p"
    nouns = _lemmas(tok.low).get("NOUN", ())
    if not nouns:
        return None
    plural, singular = _is_plural_noun(tok.low), tok.low in nouns
    if plural == singular:
        return None
    return "p" if plural else "s"


def _subject_number(toks: list[Tok], w: int) -> str | None:
    """The number ("s", "p", or "1" for "I") of the simple subject ending directly before token w ("will"): a
    pronoun, a name of one to three capitalised words, or a determiner + one or two words whose last is its noun,
    that starts a clause; None for any other subject."""
    verbs = _verb_lists()
    for start in range(w - 1, max(w - 4, -1), -1):
        before = toks[start - 1] if start > 0 else None
        if before is not None and not (before.text in CLAUSE_OPENERS or before.text.islower() and (
                before.low in verbs["say"] or before.low in verbs["object"])):
            continue
        span = toks[start:w]
        first, head = span[0], span[-1]
        lead = first.text.islower() or before is None or before.text in ("\"", "“", "(")
        if len(span) == 1 and first.low in PRONOUN_BE and (lead or first.text == "I"):
            return "1" if first.low == "i" else ("s" if PRONOUN_BE[first.low] == "is" else "p")
        if all(t.text[:1].isupper() and not t.text.isupper() and t.text.isalpha() and not is_stopword(t.text)
               for t in span) and not (before is None and _lemmas(first.low)):
            return None if head.low.endswith("s") else "s"  # a name ("Microsoft", "Aung San Suu Kyi"); not
            # "Consumers" (a capitalised common noun) nor a name that may be plural ("the Lakers")
        if first.low in SUBJECT_DETERMINERS and lead and 2 <= len(span) <= 3:
            mods = span[1:-1]
            if any(not (_is_lower_word(t) or re.fullmatch(r"[A-Za-z-]+['’]s", t.text)) or is_stopword(t.text)
                   or _is_finite(t) and not _noun_number(t) for t in mods):
                return None
            if any(t.low in ("and", "or", "of") for t in span):
                return None
            number = _noun_number(head) if _is_lower_word(head) and not is_stopword(head.text) else None
            if number is None or _is_finite(head) and "NOUN" not in _lemmas(head.low):
                return None
            if first.low in SINGULAR_DETERMINERS and number != "s" or first.low in PLURAL_DETERMINERS and \
                    number != "p":
                return None  # "all the ..." or a mass noun after "many": the determiner and the noun disagree
            return number
        return None
    return None


def _sentence_ok(toks: list[Tok]) -> bool:
    """A plain statement: not a question, not a headline (no final punctuation after a capital), not in capitals, one
    future marker, no habitual or conditional word."""
    last = [t for t in toks if t.text not in ("\"", "”", "'", "’", ")")]
    if not last or any(t.text == "?" for t in toks):
        return False
    if last[-1].text not in (".", "!") and (toks[0].text[:1].isupper() or not toks[0].text[:1].isalpha()):
        return False  # a headline; lower-case transcribed speech without punctuation stays
    words = [t for t in toks if t.text.isalpha() and len(t.text) > 1]
    if words and sum(t.text.isupper() for t in words) * 2 >= len(words):
        return False
    return _future_count(toks) == 1 and not any(t.low in HABITUAL or t.low in ("if", "unless", "whether")
                                                for t in toks)


def _will_to_going(text: str, toks: list[Tok]) -> str | None:
    for w, t in enumerate(toks):
        if t.text != "will" or w == 0 or w + 1 >= len(toks):
            continue
        v = w + 1
        while v < len(toks) and toks[v].low in FUTURE_ADVERBS and v - w <= 2:
            v += 1
        if v >= len(toks) or not _is_lower_word(toks[v]) or not _is_form(toks[v].low, "VB"):
            return None
        verb = toks[v]
        after = toks[v + 1] if v + 1 < len(toks) else None
        if verb.low == "have" and after is not None and _is_form(after.low, "VBN") and after.low != "to":
            return None  # "will have finished": the future perfect
        if verb.low in ("go", "be") and after is not None and after.low == "going":
            return None
        number = _subject_number(toks, w)
        if number is None or any(x.low in WISH_WORDS for x in toks[:w]):
            return None
        if any(x.low.split("'")[0] in ("you", "your", "yours", "yourself") for x in toks):
            return None  # a guide's generic "you will see ...", "it will drop you at ...": no forecast
        if verb.low == "be" and after is not None and after.low == toks[w - 1].low:
            return None  # "boys will be boys"
        be = {"1": "am", "s": "is", "p": "are"}[number]
        adverbs = text[toks[w + 1].start:toks[v - 1].end] + " " if v > w + 1 else ""
        return splice(text, [(t.start, verb.start, be + " " + adverbs + "going to ")])
    return None


def _going_to_will(text: str, toks: list[Tok]) -> str | None:
    for g in range(1, len(toks) - 2):
        if toks[g].text != "going" or toks[g + 1].text != "to":
            continue
        verb = toks[g + 2]
        if not _is_lower_word(verb) or not _is_form(verb.low, "VB") or verb.low in GOING_PLACES:
            return None
        after = toks[g + 3] if g + 3 < len(toks) else None
        if "NOUN" in _lemmas(verb.low) and (after is None or not _is_word(after) or after.low in PREPOSITIONS):
            return None  # "going to work on it", "going to town.": a place or a noun
        a = g - 1
        adverbs = []
        while a > 0 and toks[a].low in FUTURE_ADVERBS and toks[a].text.islower():
            adverbs.insert(0, toks[a])
            a -= 1
        aux = toks[a]
        if aux.text in ("is", "are", "am"):
            start = aux.start
        else:
            m = CONTRACTED_BE.fullmatch(aux.low)
            if m is None:
                return None  # "was going to" (no future), "isn't going to"
            start = aux.start + len(m.group(1))
        middle = text[adverbs[0].start:adverbs[-1].end] + " " if adverbs else ""
        new = ("" if aux.text in ("is", "are", "am") else " ") + "will " + middle
        return splice(text, [(start, verb.start, new)])
    return None


def rule_will_going(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if len(toks) < 4 or not _sentence_ok(toks):
        return None
    return _will_to_going(text, toks) or _going_to_will(text, toks)


MARKER_RULES: dict[str, Rule] = {"that": rule_that, "relative": rule_relative, "headline_will": rule_headline_will,
                                 "will_going": rule_will_going}
