"""Registry: method name -> augmenter class. Classes are imported lazily so that using the synonym augmenter does
not import torch, fairseq or transformers."""

from __future__ import annotations

import importlib
from typing import Any

from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter, SourceRecord, ViewPair
from bsl_pipeline.pipeline.base.errors import BSLError

REGISTRY: dict[str, str] = {
    "identity": "bsl_pipeline.pipeline.augment.augmenters.identity:IdentityAugmenter",
    "noise": "bsl_pipeline.pipeline.augment.augmenters.noise:CaseWhitespaceNoiseAugmenter",
    "span-mask": "bsl_pipeline.pipeline.augment.augmenters.span_mask:SpanMaskAugmenter",
    "synonyms": "bsl_pipeline.pipeline.augment.augmenters.synonyms:SynonymAugmenter",
    "mlm": "bsl_pipeline.pipeline.augment.augmenters.mlm:MaskedLMAugmenter",
    "backtranslation": "bsl_pipeline.pipeline.augment.augmenters.backtranslation:BackTranslationAugmenter",
    "rewrites": "bsl_pipeline.pipeline.augment.augmenters.rewrites:RewritesAugmenter",
    "nli-entailment": "bsl_pipeline.pipeline.augment.augmenters.nli_entailment:NLIEntailmentAugmenter",
    "translation": "bsl_pipeline.pipeline.augment.augmenters.translation:TranslationAugmenter",
    "parallel": "bsl_pipeline.pipeline.augment.augmenters.parallel:ParallelAugmenter",
}


def available_methods() -> list[str]:
    return sorted(REGISTRY)


def augmenter_class(name: str) -> type[Augmenter]:
    if name not in REGISTRY:
        raise BSLError(f"unknown method {name!r}; available: {', '.join(available_methods())}")
    module_name, class_name = REGISTRY[name].split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            raise BSLError(f"method {name!r} is registered but not implemented yet ({module_name})") from None
        raise
    return getattr(module, class_name)


def build_augmenter(name: str, params: dict[str, Any] | None = None, *, progress: bool = True) -> Augmenter:
    """The method `name` with its `method_params` section; `progress`: whether it draws its own bars (the job's
    setting, `Augmenter.progress`)."""
    augmenter = augmenter_class(name)(params or {})
    augmenter.progress = progress
    return augmenter


__all__ = ["Augmenter", "SourceRecord", "ViewPair", "REGISTRY", "available_methods", "augmenter_class",
           "build_augmenter"]
