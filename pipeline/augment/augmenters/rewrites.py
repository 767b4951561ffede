"""Meaning-preserving rewrites: the sentence said again in another grammatical form or with an equivalent function
word, phrase or abbreviation, offline and deterministic. view1 = the source, view2 = the source with `max_rules` of
the rules applied (drawn at random among those that apply, per record).

The rules live in `pipeline.augment.rewrite_rules`, one module per family; what each rule does, its guards and its
cases are `rewrite_rules/cases/<family>.json`. A guard refuses the places where the rewrite could change the meaning or break the grammar; a
sentence no rule rewrites gets no view: `no_rule_applies:<rule>.<guard>` names the guard that refused it (that of the
first rule, in the order of `rules`, whose guard refused), plain `no_rule_applies` when no rule found anything to
rewrite.

Not rewritten, each counted with its reason: a sentence in another language (`not_english`: fewer than
`min_english_share` of its words are English words), in capitals (`all_capitals`), code (`code`), with a URL
(`url`), a hashtag or mention list (`hashtags`), or with fewer than `min_words` words (`too_short`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter, SourceRecord, ViewPair, record_rng
from bsl_pipeline.pipeline.augment.rewrite_rules import RULE_FUNCTIONS, RULES, Refusal, tokenize
from bsl_pipeline.pipeline.base.config import Range
from bsl_pipeline.pipeline.lexicon.text_kind import text_problem

__all__ = ["NO_RULE_APPLIES", "RULES", "RULE_FUNCTIONS", "RewritesAugmenter", "RewritesConfig", "no_rule_reason",
           "not_rewritable", "tokenize"]


@dataclass
class RewritesConfig:
    rules: list[Literal[RULES]] = field(default_factory=lambda: list(RULES), metadata={  # type: ignore[valid-type]
        "check": lambda rules: None if rules and len(set(rules)) == len(rules) else "must name each rule once",
        "help": "the rewrites that may be applied (pipeline.augment.rewrite_rules): " + ", ".join(RULES)})
    max_rules: int = field(default=1, metadata={"range": Range(1, len(RULES)),
        "help": "rewrites applied per view, drawn at random among those that apply (each on the result of the "
                "last); 1: one change per view"})
    max_number: int = field(default=10, metadata={"range": Range(1, 20),
        "help": "number_words: counts up to this are written in words (style guides: up to nine or ten)"})
    min_english_share: float = field(default=0.8, metadata={"range": Range(0, 1),
        "help": "share of a sentence's words that must be English words (wordfreq's English list) for it to be "
                "rewritten; below: reject 'not_english'"})
    min_words: int = field(default=3, metadata={"range": Range(1),
        "help": "sentences with fewer words get no view (reject 'too_short')"})



# -- what gets no view -----------------------------------------------------------------------------------------------
def not_rewritable(text: str, cfg: RewritesConfig) -> str | None:
    """The reason `text` gets no view before any rule is tried (`pipeline.lexicon.text_kind`), or None."""
    return text_problem(text, cfg.min_words, cfg.min_english_share)


NO_RULE_APPLIES = "no_rule_applies"


def no_rule_reason(refusals: dict[str, str]) -> str:
    """The reject of a sentence no rule rewrites, from rule -> the guard that refused it (in the order the rules were
    tried): `no_rule_applies:<rule>.<guard>` of the first, or `no_rule_applies` when no guard refused (no rule found
    anything to rewrite). Everything before the ':' is the reject's kind, which `bsl inspect --reason
    no_rule_applies` matches whatever the guard."""
    for rule, guard in refusals.items():
        return f"{NO_RULE_APPLIES}:{rule}.{guard}"
    return NO_RULE_APPLIES


class RewritesAugmenter(Augmenter):
    name = "rewrites"
    config_class = RewritesConfig
    default_batch_size = 4096
    version = "19"

    def setup(self) -> None:
        from bsl_pipeline.pipeline.lexicon import text_kind

        text_kind.load()

    def model_identities(self) -> dict[str, str]:
        from importlib.metadata import version

        from bsl_pipeline.pipeline.lexicon import word_frequency

        return {**word_frequency.identity(), "lemminflect": version("lemminflect")}

    def applicable(self, text: str, refusals: dict[str, str] | None = None) -> dict[str, str]:
        """rule -> the sentence rewritten by it, for each configured rule that applies to `text`; `refusals` (when
        given) gets rule -> the name of the guard that refused, for each rule whose guard refused."""
        toks = tokenize(text)
        found = {}
        for name in self.config.rules:
            new = RULE_FUNCTIONS[name](text, toks, self.config) if toks else None
            if isinstance(new, Refusal):
                if refusals is not None:
                    refusals[name] = new.guard
            elif new is not None and new != text:
                found[name] = new
        return found

    def rewrite(self, text: str, rng) -> tuple[str, list[str]] | str:
        """(view, rules applied), or the reject reason."""
        reason = not_rewritable(text, self.config)
        if reason is not None:
            return reason
        applied: list[str] = []
        refusals: dict[str, str] = {}
        current = text
        for _ in range(self.config.max_rules):
            options = {k: v for k, v in self.applicable(current, refusals if not applied else None).items()
                       if k not in applied}
            if not options:
                break
            names = sorted(options)
            name = names[rng.randrange(len(names))]
            applied.append(name)
            current = options[name]
        if not applied:
            return no_rule_reason(refusals)
        return current, applied

    def augment_batch(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        self.ensure_ready()
        out = []
        for r in records:
            result = self.rewrite(r.text, record_rng(seed, r.source_id))
            if isinstance(result, str):
                out.append(ViewPair.rejected(result, r.text, r.text))
                continue
            view, applied = result
            info: dict[str, Any] = {"rules": applied}
            out.append(ViewPair(r.text, view, info=info))
        return out
