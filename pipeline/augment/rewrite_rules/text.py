"""What the rewrite rules share: the tokenizer, splicing edits into the text, word classes from lemminflect, the
word lists, and moving a final phrase to the front."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from bsl_pipeline.pipeline.lexicon.stopwords import is_stopword


class RuleSettings(Protocol):
    """The settings a rule may read (the augmenter's config)."""

    max_number: int


# -- tokens ---------------------------------------------------------------------------------------------------------
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+|[-.][A-Za-z0-9]+)*|\S")


@dataclass
class Tok:
    text: str
    start: int
    end: int

    @property
    def low(self) -> str:
        return self.text.lower().replace("’", "'")


def tokenize(text: str) -> list[Tok]:
    return [Tok(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def splice(text: str, edits: list[tuple[int, int, str]]) -> str:
    """`text` with each (start, end) replaced by its string; edits do not overlap."""
    out, at = [], 0
    for start, end, new in sorted(edits):
        out += [text[at:start], new]
        at = end
    out.append(text[at:])
    return "".join(out)


def _case_like(original: str, new: str) -> str:
    return new[:1].upper() + new[1:] if original[:1].isupper() else new


def _is_word(tok: Tok) -> bool:
    return tok.text[:1].isalpha()


def _is_lower_word(tok: Tok) -> bool:
    return tok.text.isalpha() and tok.text.islower()


@lru_cache(maxsize=100_000)
def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    from lemminflect import getAllLemmas

    return getAllLemmas(word)


@lru_cache(maxsize=100_000)
def _is_form(word: str, tag: str) -> bool:
    """Whether lower-case `word` is the Penn form `tag` of one of its verb lemmas."""
    from lemminflect import getInflection

    return any(word in getInflection(lemma, tag, inflect_oov=False) for lemma in _lemmas(word).get("VERB", ()))


def is_noun(word: str) -> bool:
    return "NOUN" in _lemmas(word)


def is_ing_verb(word: str) -> bool:
    return word.endswith("ing") and _is_form(word, "VBG")


def is_participle(word: str) -> bool:
    """A past participle that is no adjective ("seen", "finished"; not "tired")."""
    return _is_form(word, "VBN") and "ADJ" not in _lemmas(word)


def is_verb_form(word: str) -> bool:
    return any(_is_form(word, tag) for tag in ("VBZ", "VBD", "VBG", "VBN"))


def verb_only(word: str) -> bool:
    """A verb form (-s, past, participle, -ing) that is neither a noun nor an adjective."""
    lemmas = _lemmas(word)
    return "NOUN" not in lemmas and "ADJ" not in lemmas and is_verb_form(word)


def inflect(lemma: str, tag: str) -> str | None:
    """The first form lemminflect gives `lemma` for the Penn `tag`, or None."""
    from lemminflect import getInflection

    forms = getInflection(lemma, tag)
    return forms[0] if forms else None


# -- word lists -----------------------------------------------------------------------------------------------------
NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                "sixteen seventeen eighteen nineteen twenty").split()
DETERMINERS = frozenset("a an the this that these those his her their my our your its some several many few "
                        "one two three four five six seven eight nine ten".split())
INDEFINITE = frozenset("a an some several many two three four five six seven eight nine ten".split())
LOWER_FIRST = frozenset(w for w in DETERMINERS | {"he", "she", "it", "we", "they", "you", "there", "people",
                                                   "both", "all", "each", "every", "no", "most", "nobody",
                                                   "someone", "somebody", "everyone", "everybody", "something",
                                                   "everything", "nothing", "this", "that"} | set(NUMBER_WORDS))
ORDINALS = frozenset("first second third fourth fifth last former latter next previous".split())
UNITS = frozenset("am pm a.m p.m km kg mph mm cm ft lb lbs oz mg ml min mins hr hrs sec secs st nd rd th m g k x "
                  "mb gb kb tb yd yds mi in percent per pc pct points point".split())
NAME_SIGNS = frozenset("$ £ € # no no. number nos vol chapter page pages p. pp. part article section version "
                       "level grade round game week day year at terminal gate room platform route line track exit "
                       "pier studio floor".split())
PRONOUN_AUX = {  # pronoun -> auxiliaries it contracts with
    **{p: {"is", "has", "will", "would"} for p in ("he", "she", "it", "that", "there", "what", "who", "where",
                                                    "here")},
    **{p: {"are", "have", "will", "would"} for p in ("you", "we", "they")},
    "i": {"am", "have", "will", "would"},
}
AUX_CONTRACTED = {"is": "'s", "has": "'s", "am": "'m", "are": "'re", "have": "'ve", "will": "'ll", "would": "'d"}
NOT_CONTRACTED = {"is": "isn't", "are": "aren't", "was": "wasn't", "were": "weren't", "has": "hasn't",
                  "have": "haven't", "had": "hadn't", "do": "don't", "does": "doesn't", "did": "didn't",
                  "could": "couldn't", "would": "wouldn't", "should": "shouldn't", "will": "won't", "can": "can't",
                  "must": "mustn't"}
NOT_EXPANDED = {v: (k + " not" if k != "can" else "cannot") for k, v in NOT_CONTRACTED.items()}
SUBJECT_PRONOUNS = frozenset("i you he she it we they there".split())
PERSONAL_SUBJECTS = frozenset("i you he she it we they".split())
NOMINATIVE_PRONOUNS = frozenset("i he she we they".split())  # subject-only forms ("you", "it" are objects too)
WH_WORDS = frozenset("how what why when where who whom whose which".split())
AUX_BEFORE_PARTICIPLE = frozenset("been got gotten yet never already just always ever".split())
S_EXPANDABLE = frozenset("it he she that there here what where who".split())
WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
MONTHS = frozenset("january february march april may june july august september october november december "
                   "jan feb mar apr jun jul aug sep sept oct nov dec".split())
TIME_UNITS = frozenset("week month year weekend night morning afternoon evening season decade century summer "
                       "winter spring autumn fall quarter".split())
PARTS_OF_DAY = frozenset("morning afternoon evening night".split())
# particles of phrasal verbs ("picking up a ball", "picked the ball up")
PARTICLES = frozenset("up down off on out away back over apart around in".split())
PLACE_PREPOSITIONS = frozenset("in on at near under behind beside inside outside beneath".split())
SUBORDINATORS = frozenset("because although while when after before until unless whereas since".split())
TIME_NOUNS = frozenset("time times day days moment moments year years point period age era night morning week "
                       "month hour minute instance case cases place places way".split())
QUESTION_VERBS = frozenset("know knows knew known ask asks asked asking wonder wondered wonders see saw seen tell "
                           "told decide decided remember remembered sure unsure check checked unclear clear "
                           "whether doubt question find found learn learned show shows showed determine "
                           "determined say said".split())
AFTER_VERBS = frozenset("look looks looked looking name named names take takes took taking go goes went going "
                        "chase chased chasing run runs ran running come comes came coming ask asks asked "
                        "asking".split())
CONJUNCTION_MODIFIERS = frozenset("shortly soon right just long immediately only even especially mainly partly "
                                  "simply not ever well both so all precisely exactly mostly largely except "
                                  "and or but as than".split())
AUXILIARIES = frozenset("is are was were am be been has have had do does did will would can could shall should "
                        "may might must".split())
SELECTED_PREPOSITION = {  # -ing verbs whose place-like phrase is their complement ("tugging on a rope")
    "at": frozenset("looking staring glancing gazing pointing smiling laughing yelling shouting barking aiming "
                    "waving throwing peering grinning frowning screaming swinging kicking poking working "
                    "playing".split()),
    "on": frozenset("tugging pulling working relying depending focusing chewing blowing stepping knocking "
                    "pounding banging pressing pushing commenting insisting concentrating operating hanging "
                    "holding waiting playing putting talking speaking chatting texting calling".split()),
    "in": frozenset("participating engaging believing investing interested succeeding resulting dressed "
                    "dressing".split()),
}
GARMENTS = frozenset("shirt t-shirt tshirt jacket hat dress coat uniform costume sweater sweatshirt hoodie jeans "
                     "pants shorts swimsuit suit helmet glasses sunglasses outfit skirt top vest apron robe gown "
                     "bikini clothes clothing overalls boots shoes scarf cap mask tuxedo pajamas trousers jersey "
                     "blouse tank attire gear wetsuit trunks hijab turban sari kimono leotard bathrobe "
                     "raincoat parka cardigan".split())
THIRD_PERSON = frozenset("he she they him her his their them hers theirs".split())



def _lower_first_word(segment: str) -> str | None:
    """`segment` with its first word in lower case when that word is a function or number word (or "I"); None when
    it may be a name."""
    m = re.match(r"[A-Za-z]+", segment)
    if not m:
        return None
    word = m.group()
    if word == "I":
        return segment
    if word.lower() in LOWER_FIRST or is_stopword(word):
        return word.lower() + segment[len(word):]
    if word.islower():
        return segment
    return None


def _final_punct(toks: list[Tok]) -> int:
    """Index of the sentence's final punctuation ('.' or '!'), or len(toks) when it has none; -1 when it ends
    otherwise (question, quotation, ...)."""
    last = toks[-1].text
    if last in (".", "!"):
        return len(toks) - 1
    if _is_word(toks[-1]) or last.isdigit():
        return len(toks)
    return -1


def _front(text: str, toks: list[Tok], k: int, end: int) -> str | None:
    """Move tokens k..end-1 (the sentence's last phrase, before its final punctuation) to the front, with a comma."""
    if k < 3:
        return None
    head = text[:toks[k - 1].end]
    if any(t.text in (",", ";", ":", "\"", "(", ")", "-") for t in toks[:k]):
        return None
    head = _lower_first_word(head)
    if head is None:
        return None
    phrase = text[toks[k].start:toks[end - 1].end]
    tail = text[toks[end - 1].end:]
    return phrase[:1].upper() + phrase[1:] + ", " + head.rstrip(" ,") + tail



# A rule: (text, its tokens, settings) -> the rewritten text, or None where it does not apply or its guard refuses.
# Rules are called with at least one token (the augmenter gives text without tokens no view).
Rule = Callable[[str, list[Tok], RuleSettings], "str | None"]
