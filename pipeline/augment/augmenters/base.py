"""The one interface every augmenter implements.

An augmenter takes a batch of source records and returns, per record, two views or a reject reason. It is
configured by a dataclass (`config_class`), is deterministic for a given seed and batch, loads its models in
`setup()` (once per worker, not per batch), and describes itself with `fingerprint()`: the identity that caching
and manifests use (name, params, model checksums, code version).
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bsl_pipeline.pipeline.base.config import check_config, fingerprint_dict, from_dict, to_dict
from bsl_pipeline.pipeline.base.fingerprint import fingerprint
from bsl_pipeline.pipeline.corpus.source_record import SourceRecord


@dataclass
class ViewPair:
    """What an augmenter made of one record: both views, or `reject` with a short machine-readable reason."""

    view1: str | None
    view2: str | None
    reject: str | None = None
    info: dict[str, Any] = field(default_factory=dict)  # per-pair details (pivot used, words replaced, ...)

    @classmethod
    def rejected(cls, reason: str, view1: str | None = None, view2: str | None = None, **info: Any) -> "ViewPair":
        return cls(view1=view1, view2=view2, reject=reason, info=info)


@dataclass
class NoConfig:
    """For augmenters without parameters."""


def record_rng(seed: int, source_id: str) -> random.Random:
    """A random generator that depends only on (seed, record): results do not change with batching or chunking."""
    digest = hashlib.blake2b(f"{seed}:{source_id}".encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "little"))


def batch_seed(seed: int, records: Sequence[SourceRecord]) -> int:
    """A seed for model-side sampling over a whole batch (torch generators cannot be split per row cheaply)."""
    h = hashlib.blake2b(str(seed).encode(), digest_size=8)
    for r in records:
        h.update(r.source_id.encode())
    return int.from_bytes(h.digest(), "little") & 0x7FFF_FFFF_FFFF_FFFF


class Augmenter(ABC):
    """Base class: subclasses set `name`, `config_class`, implement `augment_batch`, and may override hooks."""

    name: ClassVar[str]
    config_class: ClassVar[type] = NoConfig
    #: Whether two identical views are a legitimate output (identity views for dropout objectives) or a reject.
    identical_views_ok: ClassVar[bool] = False
    #: True: every record must carry a second sentence (`text_b`: an NLI hypothesis, a translation); a corpus
    #: whose first records have none is refused before any work (`pipeline.augment.job.check_pair_methods`).
    #: False: the method reads only `text`, and augments each distinct one once (`sources`).
    needs_pairs: ClassVar[bool] = False
    #: Bump when the output for the same input and params changes, so caches and manifests see a new version.
    version: ClassVar[str] = "1"
    #: Records per `augment_batch` call when the caller does not say.
    default_batch_size: ClassVar[int] = 64
    #: Filter settings this method needs by default (FilterConfig keys), in place of the general defaults: a global
    #: `filters.<key>` the user changed and `method_filters.<method>.<key>` win over them (`job.filters_for`);
    #: e.g. NLI hypotheses are legitimately much shorter than their premises.
    filter_defaults: ClassVar[dict[str, Any]] = {}
    #: Whether the method draws its own bars (batches of a long call): the job's `progress` setting, set by
    #: `build_augmenter(..., progress=)`; hidden either way under BSL_NO_PROGRESS (`progress_disabled`).
    progress: bool = True

    def __init__(self, config: Any = None):
        if config is None:
            config = self.config_class()
        elif isinstance(config, dict):
            config = from_dict(self.config_class, config, prefix=f"method_params.{self.name}")
        elif dataclasses.is_dataclass(config):  # built in code: the same rules as from YAML
            check_config(config, prefix=f"method_params.{self.name}")
        self.config = config
        self._ready = False

    # -- hooks -------------------------------------------------------------------------------------------------
    def setup(self) -> None:
        """Load models/resources. Called once before the first batch; idempotent."""

    def model_identities(self) -> dict[str, str]:
        """name -> sha256 of each model/resource file the output depends on (for fingerprints and manifests)."""
        return {}

    @abstractmethod
    def augment_batch(self, records: Sequence[SourceRecord], seed: int) -> list[ViewPair]:
        """Return exactly one ViewPair per record, in order."""

    # -- shared behaviour --------------------------------------------------------------------------------------
    def sources(self, records: Sequence[SourceRecord]) -> list[SourceRecord]:
        """The records of a chunk this method augments: all of them for a method that reads the pair; for one that
        reads only `text`, each text once (a record that repeats an earlier one's, an NLI premise with its next
        hypothesis, is left out: `SourceRecord.repeats_text`, set under `corpus.dedupe`)."""
        return list(records) if self.needs_pairs else [r for r in records if not r.repeats_text]

    def bars_hidden(self) -> bool:
        """Whether the method's own bars stay hidden (`progress` off, or BSL_NO_PROGRESS)."""
        from bsl_pipeline.pipeline.base.progress import progress_disabled

        return progress_disabled(not self.progress)

    def ensure_ready(self) -> None:
        if not self._ready:
            self.setup()
            self._ready = True

    def params(self) -> dict[str, Any]:
        return to_dict(self.config) if dataclasses.is_dataclass(self.config) else dict(self.config)

    def fingerprint_params(self) -> dict[str, Any]:
        """`params()` less the settings marked `"fingerprint": False` (nested configs included): what they set does
        not change the output."""
        return fingerprint_dict(self.config) if dataclasses.is_dataclass(self.config) else dict(self.config)

    def fingerprint(self) -> dict[str, Any]:
        from bsl_pipeline.pipeline.base.provenance import code_version

        return {
            "name": self.name,
            "version": self.version,
            "params": self.fingerprint_params(),
            "models": self.model_identities(),
            "code_version": code_version(),
        }

    def fingerprint_hash(self) -> str:
        """Hash of what determines the output (code version excluded: a commit that does not touch the augmenter
        must not invalidate every cache; bump `version` instead when output changes)."""
        fp = self.fingerprint()
        fp.pop("code_version", None)
        return fingerprint(fp, 16)

    def augment(self, records: Iterable[SourceRecord], seed: int, batch_size: int | None = None) -> Iterator[ViewPair]:
        """Augment a stream of records in batches; yields one ViewPair per record, in order."""
        self.ensure_ready()
        size = batch_size or self.default_batch_size
        batch: list[SourceRecord] = []
        for record in records:
            batch.append(record)
            if len(batch) >= size:
                yield from self._checked(batch, seed)
                batch = []
        if batch:
            yield from self._checked(batch, seed)

    def _checked(self, batch: list[SourceRecord], seed: int) -> list[ViewPair]:
        out = self.augment_batch(batch, seed)
        if len(out) != len(batch):
            raise RuntimeError(f"augmenter {self.name!r} returned {len(out)} results for {len(batch)} records")
        return out
