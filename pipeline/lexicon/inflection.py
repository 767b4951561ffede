"""Penn Treebank forms of English words, offline, through lemminflect: which form a word is of a given lemma
("investing" is VBG of "invest"), the same form of another lemma ("divest" + VBG -> "divesting"), and the
indefinite article a word takes.

Only forms lemminflect knows from its dictionary are produced (`inflect_oov=False`): a rule-made form such as
"beautifuler" is never written; the caller then skips that substitute.
"""

from __future__ import annotations

from functools import lru_cache

# Penn tags by WordNet part of speech (VBP is written like VB in English and not distinguished).
TAGS = {"n": ("NN", "NNS"), "v": ("VB", "VBZ", "VBG", "VBD", "VBN"), "a": ("JJ", "JJR", "JJS"),
        "r": ("RB", "RBR", "RBS")}
BASE_TAG = {"n": "NN", "v": "VB", "a": "JJ", "r": "RB"}


@lru_cache(maxsize=200_000)
def forms(lemma: str, tag: str) -> tuple[str, ...]:
    """The spellings of `lemma` in form `tag` that lemminflect's dictionary knows (the lemma itself for a base tag)."""
    if tag in ("NN", "VB", "JJ", "RB"):
        return (lemma,)
    from lemminflect import getInflection

    return tuple(getInflection(lemma, tag, inflect_oov=False))


def tags_of(word: str, lemma: str, pos: str) -> tuple[str, ...]:
    """The Penn tags of `pos` under which `word` (lower case) is a form of `lemma`, e.g. ("VBD", "VBN") for
    "walked" of "walk"; () when it is none (then `word` is not `lemma` used as `pos`)."""
    return tuple(tag for tag in TAGS[pos] if word in forms(lemma, tag))


def inflect(lemma: str, tag: str) -> str | None:
    """`lemma` in form `tag` (the first spelling when there are several, e.g. American "traveled"); None when
    lemminflect does not know that form. A multiword lemma is inflected on its head: the first word of a verb
    ("pick up" -> "picked up"), the last of anything else ("ice skate" -> "ice skates")."""
    if " " not in lemma:
        found = forms(lemma, tag)
        return found[0] if found else None
    words = lemma.split(" ")
    head = 0 if tag.startswith("VB") else len(words) - 1
    found = forms(words[head], tag)
    if not found:
        return None
    words[head] = found[0]
    return " ".join(words)


# Words spelled with a vowel letter but said with a consonant sound, and the reverse (silent h).
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "ure", "euro", "eu", "one", "once", "ewe", "u-")
_SILENT_H_STARTS = ("hour", "honest", "honor", "honour", "heir")


def indefinite_article(word: str) -> str:
    """"a" or "an" for the word that follows it, by its first sound (spelling rules and the usual exceptions)."""
    w = word.lower()
    if w.startswith(_SILENT_H_STARTS):
        return "an"
    if w.startswith(_CONSONANT_SOUND):
        return "a"
    return "an" if w[:1] in ("a", "e", "i", "o", "u") else "a"


def possessive_marker(word: str) -> str:
    """The possessive ending after the noun `word`: "'" after a plural in -s ("kids'", "nations'"), else "'s"
    ("children's", "boss's", "business's"): a substitute may be a regular plural where the word was irregular."""
    w = word.lower()
    if not w.endswith("s"):
        return "'s"
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(w, upos="NOUN").get("NOUN", ())
    return "'" if lemmas and all(lemma != w for lemma in lemmas) else "'s"
