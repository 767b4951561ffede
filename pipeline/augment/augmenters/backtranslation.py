"""Back-translation views (the paper's main augmentation): en -> pivot -> en.

Two-view mode (default, as in the paper): view1 = back-translation through `first_pivot` (WMT19 en-de/de-en,
fairseq), view2 = back-translation through `second_pivot` (Marian opus-mt en-fr/fr-en, transformers: fairseq has
no fr->en model). One-view mode: view1 = the source, view2 = back-translation through `first_pivot`.

Each direction ("leg") is a fairseq hub-layout directory (`model*.pt`, `dict.*.txt`, `bpecodes`) or hub name, or a
transformers seq2seq directory or Hugging Face id; the backend is detected per leg unless set. Presets only fill in
default model ids; any leg can point at a local directory instead. Resolving, loading and identifying legs and the
length-sorted batched decoding are `translation_legs.TranslatingAugmenter`'s, shared with the `translation` method.
Outputs that are empty, identical to the source, or out of the length-ratio bounds become rejects with a reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bsl_pipeline.pipeline.augment.augmenters.base import SourceRecord, ViewPair, batch_seed
from bsl_pipeline.pipeline.augment.augmenters.translation_legs import (
    BACKEND_HELP,
    Backend,
    Leg,
    TranslatingAugmenter,
    TranslationSettings,
)
from bsl_pipeline.pipeline.augment.augmenters.translation_legs import derive_seed as _derive_seed
from bsl_pipeline.pipeline.augment.augmenters.translation_legs import same_text as _same
from bsl_pipeline.pipeline.base.config import ConfigError

#: Default model ids per preset; the preset is the configuration, this is what it means.
PRESETS: dict[str, dict[str, str]] = {
    "wmt19-de": {"lang": "de", "forward_model": "transformer.wmt19.en-de",
                 "backward_model": "transformer.wmt19.de-en"},
    "wmt19-ru": {"lang": "ru", "forward_model": "transformer.wmt19.en-ru",
                 "backward_model": "transformer.wmt19.ru-en"},
    "fr": {"lang": "fr", "forward_model": "Helsinki-NLP/opus-mt-en-fr",
           "backward_model": "Helsinki-NLP/opus-mt-fr-en"},
    "none": {},
}

#: The preset a pivot gets when its `preset` is left empty (the paper's two views).
DEFAULT_PRESET = {"first_pivot": "wmt19-de", "second_pivot": "fr"}


@dataclass
class PivotConfig:
    # Empty rather than a preset name: YAML/CLI overrides of a single key rebuild this dataclass from its class
    # defaults, so a per-slot default here would silently turn second_pivot into a German pivot.
    preset: Literal["", "wmt19-de", "wmt19-ru", "fr", "none"] = field(
        default="", metadata={"help": "default models for this pivot: wmt19-de / wmt19-ru (fairseq WMT19), fr "
                                      "(Marian opus-mt), none (set both models); empty = wmt19-de for first_pivot, "
                                      "fr for second_pivot"})
    lang: str = field(default="", metadata={"help": "pivot language label recorded in pair info (preset's if empty)"})
    backend: Backend = field(default="auto", metadata={"help": BACKEND_HELP})
    forward_model: str = field(default="", metadata={
        "help": "en->pivot model: local dir, fairseq hub name or Hugging Face id (preset's if empty)"})
    backward_model: str = field(default="", metadata={
        "help": "pivot->en model: local dir, fairseq hub name or Hugging Face id (preset's if empty)"})
    forward_checkpoints: str = field(default="", metadata={
        "help": "fairseq only: checkpoint file(s), ':'-separated for an ensemble (model1.pt:model2.pt); "
                "empty = every model*.pt in the dir"})
    backward_checkpoints: str = field(default="", metadata={"help": "like forward_checkpoints, for pivot->en"})


@dataclass
class BackTranslationConfig(TranslationSettings):
    """The pivots; decoding, batching and reject settings are TranslationSettings'."""

    mode: Literal["two-view", "one-view"] = field(default="two-view", metadata={
        "help": "two-view: view1 via first_pivot, view2 via second_pivot; one-view: view1 = source, "
                "view2 via first_pivot"})
    first_pivot: PivotConfig = field(default_factory=PivotConfig)
    second_pivot: PivotConfig = field(default_factory=PivotConfig)
    keep_pivot_text: bool = field(default=False, metadata={"help": "store the intermediate translations in "
                                                                   "pair info"})


@dataclass
class _Pivot:
    name: str  # first_pivot / second_pivot
    lang: str
    forward: Leg
    backward: Leg


@dataclass
class _Batch:
    """One batch on its way through the pivots: each record's result once decided (a reject, or at the end its
    view pair), and per pivot the pivot-language and back translations made so far."""

    sources: list[str]
    mode: str
    middle: list[dict[int, str]]
    back: list[dict[int, str]]
    results: list[ViewPair | None]

    def views(self, i: int) -> tuple[str | None, str | None]:
        if self.mode == "one-view":
            return self.sources[i], self.back[0].get(i)
        return self.back[0].get(i), (self.back[1].get(i) if len(self.back) > 1 else None)

    def reject(self, i: int, reason: str, pivot: _Pivot, **info: Any) -> None:
        v1, v2 = self.views(i)
        self.results[i] = ViewPair.rejected(reason, v1, v2, pivot=pivot.lang, **info)


class BackTranslationAugmenter(TranslatingAugmenter):
    name = "backtranslation"
    config_class = BackTranslationConfig
    version = "1"

    def __init__(self, config: Any = None):
        super().__init__(config)
        self._pivots: list[_Pivot] | None = None

    # -- configuration -----------------------------------------------------------------------------------------
    def pivots(self) -> list[_Pivot]:
        """The pivots this mode uses, each leg resolved to a local directory (downloading hub names if online)."""
        if self._pivots is None:
            names = ["first_pivot"] if self.config.mode == "one-view" else ["first_pivot", "second_pivot"]
            self._pivots = [self._resolve_pivot(n, getattr(self.config, n)) for n in names]
        return self._pivots

    def pivot_models(self, name: str) -> tuple[str, str, str]:
        """(pivot language, en->pivot model, pivot->en model) for `first_pivot`/`second_pivot`, preset applied."""
        cfg: PivotConfig = getattr(self.config, name)
        preset = PRESETS[cfg.preset or DEFAULT_PRESET[name]]
        models = []
        for leg in ("forward", "backward"):
            model = getattr(cfg, f"{leg}_model") or preset.get(f"{leg}_model", "")
            if not model:
                raise ConfigError(f"method_params.backtranslation.{name}.{leg}_model: required when preset is 'none'")
            models.append(model)
        return cfg.lang or preset.get("lang", "") or "pivot", models[0], models[1]

    def _resolve_pivot(self, name: str, cfg: PivotConfig) -> _Pivot:
        lang, forward, backward = self.pivot_models(name)
        where = f"method_params.backtranslation.{name}"
        return _Pivot(name=name, lang=lang,
                      forward=self.resolve_leg(f"{where}.forward", forward, cfg.backend, cfg.forward_checkpoints),
                      backward=self.resolve_leg(f"{where}.backward", backward, cfg.backend, cfg.backward_checkpoints))

    def legs(self) -> dict[str, Leg]:
        return {f"{p.name}.{direction}": getattr(p, direction) for p in self.pivots()
                for direction in ("forward", "backward")}

    def augment_batch(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        self.ensure_ready()
        pivots = self.pivots()
        sources = [r.text for r in records]
        batch = _Batch(sources, self.config.mode, [{} for _ in pivots], [{} for _ in pivots],
                       [None if text.strip() else ViewPair.rejected("empty_source", text, None) for text in sources])
        base = batch_seed(seed, records)
        for p, pivot in enumerate(pivots):
            todo = [i for i, r in enumerate(batch.results) if r is None]
            if not todo:
                break
            self._through_pivot(batch, p, pivot, todo, base)
        return self._finish(batch, [p.lang for p in pivots])

    def _through_pivot(self, batch: _Batch, p: int, pivot: _Pivot, todo: list[int], base: int) -> None:
        """Translate the undecided records `todo` to pivot `p` and back, rejecting those that fail a check."""
        cfg = self.config
        sources, middle = batch.sources, batch.middle[p]
        forward = self.translate(pivot.forward, [sources[i] for i in todo], _derive_seed(base, p, "forward"))
        ok: list[int] = []
        for i, mid in zip(todo, forward):
            if mid is None:
                batch.reject(i, "input_too_long", pivot, stage="forward")
            elif not mid.strip():
                batch.reject(i, "empty_translation", pivot, stage="forward")
            else:
                middle[i] = mid
                ok.append(i)
        backward = self.translate(pivot.backward, [middle[i] for i in ok], _derive_seed(base, p, "backward"))
        for i, text in zip(ok, backward):
            extra = {"pivot_text": middle[i]} if cfg.keep_pivot_text else {}
            if text is None:
                batch.reject(i, "input_too_long", pivot, stage="backward", **extra)
                continue
            batch.back[p][i] = text
            length_ok, ratio = self._length_ok(sources[i], text)
            if not text.strip():
                batch.reject(i, "empty_translation", pivot, stage="backward", **extra)
            elif not length_ok:
                batch.reject(i, "length_ratio", pivot, ratio=ratio, **extra)
            elif not cfg.allow_identical and _same(text, sources[i]):
                batch.reject(i, "identical_to_source", pivot, **extra)

    def _finish(self, batch: _Batch, langs: list[str]) -> list[ViewPair]:
        """The view pair of every record that passed all pivots (the others were rejected on the way)."""
        cfg = self.config
        results = batch.results
        for i, result in enumerate(results):
            if result is not None:
                continue
            v1, v2 = batch.views(i)
            info: dict[str, Any] = {"pivots": langs}
            if cfg.keep_pivot_text:
                info["pivot_texts"] = [middle[i] for middle in batch.middle]
            if len(langs) > 1 and not cfg.allow_identical and _same(v1 or "", v2 or ""):
                results[i] = ViewPair.rejected("identical_views", v1, v2, **info)
            else:
                results[i] = ViewPair(v1, v2, info=info)
        return [r for r in results if r is not None]  # every slot is filled above
