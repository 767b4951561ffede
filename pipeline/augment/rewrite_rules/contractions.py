"""Contractions made and written out: an auxiliary and "not", or a pronoun and its auxiliary, said in one word or in
two, where the other form says the same. The rules are `CONTRACTION_RULES`; each edits every place of the sentence
it applies to, never inside a phrase quoted within the sentence (`Chunks.quoted`).
What each rule does, its guards and its golden and refused cases are in `cases/contractions.json` (the views guide's
table is made from them); the comment at each guard says why it refuses.
"""

from __future__ import annotations

import re

from bsl_pipeline.pipeline.augment.rewrite_rules.chunker import chunk
from bsl_pipeline.pipeline.augment.rewrite_rules.text import (
    Refusal, Rule, RuleSettings, Tok, _case_like, _is_form, _is_word, _lemmas, is_ing_verb, is_noun, is_participle,
    splice,
)
from bsl_pipeline.pipeline.lexicon.word_classes import (
    AUX_BEFORE_PARTICIPLE, AUX_CONTRACTED, HUMAN_SUBJECT_PRONOUNS, NOT_CONTRACTED, NOT_EXPANDED, PRONOUN_AUX,
    QUESTION_S, QUESTION_SUBJECTS, SUBJECT_PRONOUNS, S_EXPANDABLE, WH_WORDS,
)


def _after_whose(toks: list[Tok], i: int) -> bool:
    """Whether "whose" comes before token i in the same clause (no punctuation between)."""
    for t in reversed(toks[:i]):
        if t.low == "whose":
            return True
        if not _is_word(t):
            return False
    return False


def rule_contract(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    if any("'" in t.low and t.low[-3:] in ("n't",) or re.search(r"'(s|m|re|ve|ll|d)$", t.low) for t in toks):
        return Refusal("has_contractions")  # a sentence with contractions is expanded, not contracted further
    edits = []
    used: set[int] = set()
    chunks = chunk(text, toks)
    for i, t in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        after = toks[i + 2] if i + 2 < len(toks) else None
        if chunks.in_quote(t):
            continue  # 'the "you do not bug me" category': a quotation's words are not ours to change
        if t.low == "cannot" and after is not None:
            edits.append((t.start, t.end, _case_like(t.text, "can't")))
            used.add(i)
        elif (t.low in NOT_CONTRACTED and nxt is not None and nxt.low == "not" and after is not None
              and _is_word(after) and i not in used):
            if t.low in ("have", "has", "had") and not (after.low in AUX_BEFORE_PARTICIPLE
                                                         or is_participle(after.low)):
                continue  # "have not a clue": a main verb
            edits.append((t.start, nxt.end, _case_like(t.text, NOT_CONTRACTED[t.low])))
            used.update((i, i + 1))
        elif (t.low in PRONOUN_AUX and nxt is not None and nxt.low in PRONOUN_AUX[t.low] and i + 1 not in used
              and after is not None and _is_word(after) and after.low != "not" and nxt.text.islower()
              and t.end == nxt.start - 1):
            if nxt.low in ("have", "has") and not (after.low in AUX_BEFORE_PARTICIPLE or is_participle(after.low)):
                continue
            if nxt.low in ("is", "has") and t.low in ("what", "who", "where", "here") and i + 2 >= len(toks) - 1:
                continue
            if i > 0 and toks[i - 1].low in ("than", "as", "whether", "if") and nxt.low in ("is", "are", "am"):
                continue
            if t.low == "that" and nxt.low == "is" and (i == 0 or not _is_word(toks[i - 1])):
                continue  # "... that is squat every 10 days": "that is" = "i.e."
            if after.low in HUMAN_SUBJECT_PRONOUNS or t.low in WH_WORDS and nxt.low == "is" and after.low == "it":
                continue  # "whatever that is I smoke it": "is" ends its clause; "What is it that ...": inverted
            if t.low in ("here", "there") and i > 0 and _is_word(toks[i - 1]) and toks[i - 1].low not in (
                    "and", "but", "or", "so", "because", "if", "when", "since", "although", "though", "that"):
                continue  # "... good advice here is contaminated": "here" ends the subject, it is not one
            if t.low == "that" and nxt.low in ("will", "would", "had", "have", "has") and i > 0 \
                    and is_noun(toks[i - 1].low):
                continue  # "laws that will legislate": a relative "that'll" is speech, not prose
            if _after_whose(toks, i):
                continue  # "writers whose business it is to be witty": "it's" would break the relative clause
            if i > 0 and toks[i - 1].low in ("here", "there") and t.low in SUBJECT_PRONOUNS \
                    and (i == 1 or not _is_word(toks[i - 2])):
                continue  # "There you are in that photo" -> "There you're": no contraction after a fronted place
            edits.append((t.start, nxt.end, t.text + AUX_CONTRACTED[nxt.low]))
            used.update((i, i + 1))
    return splice(text, edits) if edits else None


def _question_expandable(toks: list[Tok], i: int, word: str, ending: str) -> bool:
    """Whether the contraction `toks[i]` ("word" + "'" + `ending`) of a sentence with a question may be expanded:
    "'s"/"'re"/"'m" after a pronoun or wh-word ("What's the best way ...?" -> "What is ..."), not "'s" for "does"
    ("Where's he live?", "How's that work?": a subject pronoun that is not followed by an -ing verb, "like" or the
    end), nor "who's" for "whose" ("Who's car is this?": a noun follows)."""
    if ending not in ("s", "re", "m") or word not in WH_WORDS and word not in PRONOUN_AUX:
        return False
    nxt = toks[i + 1]
    if word == "what" and nxt.low == "up":
        return False  # the greeting "What's up?"
    if word in WH_WORDS and ending == "s" and nxt.low in QUESTION_SUBJECTS:
        after = toks[i + 2] if i + 2 < len(toks) else None
        return after is None or not _is_word(after) or after.low == "like" or is_ing_verb(after.low)
    if word == "who" and ending == "s":
        lemmas = _lemmas(nxt.low)
        return not ("NOUN" in lemmas and "ADJ" not in lemmas and not is_ing_verb(nxt.low))
    return True


def _not_expanded(text: str, t: Tok, prev: Tok | None, nxt: Tok | None) -> tuple[int, int, str] | Refusal:
    """The edit that writes out the "n't" of token t ("doesn't" -> "does not")."""
    if nxt is None or not _is_word(nxt) or nxt.low in SUBJECT_PRONOUNS or nxt.text[:1].isupper():
        return Refusal("ellipsis_or_tag")  # "Don't you ...", ", isn't it?", "... they don't." (ellipsis)
    if prev is not None and prev.text == ",":
        return Refusal("tag_after_comma")
    if "?" in text:
        return Refusal("question")
    return t.start, t.end, _case_like(t.text, NOT_EXPANDED[t.low])


def rule_expand(text: str, toks: list[Tok], cfg: RuleSettings) -> str | Refusal | None:
    edits = []
    chunks = chunk(text, toks)
    for i, t in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        prev = toks[i - 1] if i else None
        if chunks.in_quote(t):
            continue  # 'the "you don't bug me" category': a quotation's words are not ours to change
        if t.low in ("don't", "don’t") and (prev is None or prev.text in (".", "!", "?")) and nxt is not None \
                and _is_form(nxt.low, "VB"):
            continue  # "Don't worry", "Don't tell me ...": an imperative formula
        if t.low in NOT_EXPANDED or t.low in ("can't",):
            edit = _not_expanded(text, t, prev, nxt)
            if isinstance(edit, Refusal):
                return edit
            edits.append(edit)
            continue
        m = re.fullmatch(r"([a-z]+)'(s|m|re|ve|ll|d)", t.low)
        if not m:
            continue
        word, ending = m.groups()
        if nxt is None or not _is_word(nxt):
            return Refusal("nothing_after")
        if ending == "d" or word in ("let", "y", "ain"):
            return Refusal("ambiguous_contraction")
        if "?" in text and not _question_expandable(toks, i, word, ending):
            return Refusal("question")
        after = toks[i + 2] if i + 2 < len(toks) else None
        if word == "who" and ending == "s" and "NOUN" in _lemmas(nxt.low) and after is not None and (
                after.low in SUBJECT_PRONOUNS or after.low in ("is", "was", "are", "were", "has")):
            # "Writers who's business it is ...": "whose", misspelt ("who's responsible here" is fine)
            return Refusal("misspelt_whose")
        if ending == "s":
            if word not in S_EXPANDABLE and not ("?" in text and word in QUESTION_S):
                continue  # a possessive, or a noun + "is" we do not expand
            if word == "here" and nxt.low == "to":
                return Refusal("toast")  # the toast "Here's to ..."
            if nxt.low in ("been", "got", "gotten"):
                full = "has"
            elif is_participle(nxt.low):
                return Refusal("has_or_is")  # "he's finished": has or is
            else:
                full = "is"
        else:
            if word not in PRONOUN_AUX:
                return None
            full = {"m": "am", "re": "are", "ve": "have", "ll": "will"}[ending]
        head = t.text[:len(word)]
        edits.append((t.start, t.end, f"{head} {full}"))
    return splice(text, edits) if edits else None


CONTRACTION_RULES: dict[str, Rule] = {"contract": rule_contract, "expand": rule_expand}
