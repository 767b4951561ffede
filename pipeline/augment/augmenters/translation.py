"""Translation views (the BSL paper's multilingual setting, §4.3): view1 = the source sentence, view2 = its machine
translation into a target language.

The paper translates every English NLI sentence into AR, ES, TR, DE and FR and trains on all five (English,
translation) pairs of each sentence. One record gives exactly one pair here (the augmenter contract: pair ids,
caches and rejects are per record), so with several `languages` each record's language is drawn from
`record_rng(seed, source_id)`: deterministic, independent of batching, about evenly spread. The paper's
"one pair per language" is one augment run per language (`languages=[ar]`, `[es]`, ...) into separate datasets,
which the trainer concatenates (`data.sources`, weight null): configs/train_bsl_multilingual.yaml.

Each target's model is a leg as in back-translation (translation_legs): a fairseq hub-layout directory or hub name,
or any transformers seq2seq directory or Hugging Face id (Marian opus-mt, FSMT, ...), the backend detected per leg.
Loading, batching, decoding settings and reject bounds are those of back-translation. Rejects: `empty_source`,
`input_too_long`, `empty_translation`, `length_ratio` (words of the translation / words of the source out of
bounds), `identical_to_source` (an untranslated copy is no cross-lingual view). Every pair records `source_lang`
and `target_lang` in its info (the `params` column).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bsl_pipeline.pipeline.augment.augmenters.base import (
    SourceRecord,
    ViewPair,
    batch_seed,
    record_rng,
)
from bsl_pipeline.pipeline.augment.augmenters.translation_legs import (
    BACKEND_HELP,
    Backend,
    Leg,
    TranslatingAugmenter,
    TranslationSettings,
    derive_seed,
    same_text,
)
from bsl_pipeline.pipeline.base.config import ConfigError

#: The model a target language gets when `targets.<lang>.model` is empty: Marian opus-mt, English to that language
#: (the paper's five; ids checked on the Hugging Face hub: there is no opus-mt-en-tr, Turkish is the tc-big model).
#: Only for a user who is online: no translation weights exist in this environment.
DEFAULT_MODELS: dict[str, str] = {
    "ar": "Helsinki-NLP/opus-mt-en-ar",
    "es": "Helsinki-NLP/opus-mt-en-es",
    "tr": "Helsinki-NLP/opus-mt-tc-big-en-tr",
    "de": "Helsinki-NLP/opus-mt-en-de",
    "fr": "Helsinki-NLP/opus-mt-en-fr",
}


@dataclass
class TargetConfig:
    model: str = field(default="", metadata={
        "help": "source->target model: local dir, fairseq hub name or Hugging Face id (empty = the default "
                "opus-mt model of the language)"})
    backend: Backend = field(default="auto", metadata={"help": BACKEND_HELP})
    checkpoints: str = field(default="", metadata={
        "help": "fairseq only: checkpoint file(s), ':'-separated for an ensemble; empty = every model*.pt"})
    prefix: str = field(default="", metadata={
        "help": "text put before every source sentence, for multi-target models whose card asks for a target "
                "token (e.g. '>>ara<< ' for opus-mt-tc-big-en-ar); '' = none"})


@dataclass
class TranslationConfig(TranslationSettings):
    """Which languages and models; decoding, batching and reject settings are TranslationSettings'."""

    languages: list[str] = field(default_factory=lambda: ["ar", "es", "tr", "de", "fr"], metadata={
        "help": "target languages; with several, each record gets one, drawn per record (seeded); one language "
                "per run gives the paper's one pair per language"})
    targets: dict[str, TargetConfig] = field(default_factory=dict, metadata={
        "help": "per language: model, backend, checkpoints, prefix (targets.de.model=DIR); a language not "
                "listed uses its default model"})
    source_lang: str = field(default="en", metadata={"help": "language of the source sentences (recorded)"})

    def config_problems(self) -> list[tuple[str, str]]:
        problems = super().config_problems()
        if not self.languages:
            problems.append(("languages", "name at least one target language"))
        elif len(set(self.languages)) != len(self.languages):
            problems.append(("languages", f"{self.languages} lists a language twice"))
        problems += [(f"targets.{lang}", f"not one of languages {self.languages}")
                     for lang in sorted(set(self.targets) - set(self.languages))]
        return problems


class TranslationAugmenter(TranslatingAugmenter):
    name = "translation"
    config_class = TranslationConfig
    version = "1"

    def __init__(self, config: Any = None):
        super().__init__(config)
        self._legs: dict[str, Leg] | None = None

    # -- configuration -----------------------------------------------------------------------------------------
    def target(self, lang: str) -> TargetConfig:
        return self.config.targets.get(lang) or TargetConfig()

    def target_model(self, lang: str) -> str:
        model = self.target(lang).model or DEFAULT_MODELS.get(lang, "")
        if not model:
            raise ConfigError(f"method_params.{self.name}.targets.{lang}.model: required (no default model for "
                              f"{lang!r}; defaults exist for {', '.join(DEFAULT_MODELS)})")
        return model

    def legs(self) -> dict[str, Leg]:
        """Target language -> its leg, resolved to a local directory (downloading hub names if online)."""
        if self._legs is None:
            legs = {}
            for lang in self.config.languages:
                target, where = self.target(lang), f"method_params.{self.name}.targets.{lang}"
                legs[lang] = self.resolve_leg(where, self.target_model(lang), target.backend, target.checkpoints,
                                              checkpoints_key=f"{where}.checkpoints")
            self._legs = legs
        return self._legs

    def language_of(self, record: SourceRecord, seed: int) -> str:
        """The target language of a record: the only one, or a seeded draw per record."""
        languages = self.config.languages
        return languages[0] if len(languages) == 1 else record_rng(seed, record.source_id).choice(languages)

    # -- views -------------------------------------------------------------------------------------------------
    def augment_batch(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        self.ensure_ready()
        cfg = self.config
        results: list[ViewPair | None] = [None] * len(records)
        groups: dict[str, list[int]] = {}
        for i, record in enumerate(records):
            lang = self.language_of(record, seed)
            if not record.text.strip():
                results[i] = ViewPair.rejected("empty_source", record.text, None, source_lang=cfg.source_lang,
                                               target_lang=lang)
            else:
                groups.setdefault(lang, []).append(i)
        base = batch_seed(seed, records)
        for lang in cfg.languages:  # config order, so that the seeds do not depend on which language came first
            todo = groups.get(lang, [])
            if not todo:
                continue
            prefix = self.target(lang).prefix
            outputs = self.translate(self.legs()[lang], [prefix + records[i].text for i in todo],
                                     derive_seed(base, lang))
            for i, output in zip(todo, outputs):
                results[i] = self._pair(records[i].text, output, lang)
        return [r for r in results if r is not None]  # every slot is filled above

    def _pair(self, source: str, output: str | None, lang: str) -> ViewPair:
        info: dict[str, Any] = {"source_lang": self.config.source_lang, "target_lang": lang}
        if output is None:
            return ViewPair.rejected("input_too_long", source, None, **info)
        if not output.strip():
            return ViewPair.rejected("empty_translation", source, output, **info)
        length_ok, ratio = self._length_ok(source, output)
        if not length_ok:
            return ViewPair.rejected("length_ratio", source, output, ratio=ratio, **info)
        if not self.config.allow_identical and same_text(output, source):
            return ViewPair.rejected("identical_to_source", source, output, **info)
        return ViewPair(source, output, info=info)
