"""Golden values taken from the helpers these replaced (commit 12232a0): moving every hash of canonical JSON onto
pipeline.base.fingerprint changed no cache key, checksum or signature of ASCII settings and manifests."""

import dataclasses

import pytest

from bsl_pipeline.pipeline.augment.augmenters import build_augmenter
from bsl_pipeline.pipeline.augment.augmenters.base import Augmenter, ViewPair
from bsl_pipeline.pipeline.base.config import fingerprint_dict
from bsl_pipeline.pipeline.base.fingerprint import canonical_json, digest, fingerprint
from bsl_pipeline.pipeline.dataset.manifest import Manifest, manifest_checksum, manifest_signature
from bsl_pipeline.training.data import _manifest_identity


def test_canonical_json_keeps_text_and_stringifies_paths(tmp_path):
    assert canonical_json({"b": "café", "a": tmp_path}) == f'{{"a": "{tmp_path}", "b": "café"}}'.encode()
    assert fingerprint({"x": 1}, 8) == digest({"x": 1})[:8] and len(fingerprint({"x": 1})) == 16


def test_augmenter_fingerprints_are_unchanged():
    assert build_augmenter("noise", None).fingerprint_hash() == "d4884e8545c8224b"
    assert build_augmenter("noise", {"fraction": 0.2}).fingerprint_hash() == "5999e92e9aaed501"


def test_manifest_checksum_and_signature_are_unchanged():
    manifest = {"name": "café", "shards": [], "checksum": "x", "_root": "/r"}
    assert manifest_checksum(manifest) == "5e876d71254d051a731a637c14408468b3a8e6b138390f54905c79059b59d68b"
    assert manifest_signature(manifest, "k") == "a0498cc0bb31e6d11b87c9b69792de6fef7e370e11fb9dab3d3686914d2ec4fb"


def test_identity_of_a_manifest_without_checksum_is_its_checksum():
    def identity(data):
        return _manifest_identity(Manifest.from_json(data, "m.json"))

    assert identity({"name": "x", "shards": []}) == (
        "de9b2aaccb2c34ce50f2d9abafe39357a8ea508df20685aba633fdaf92a5539f")  # ASCII: as before
    # Non-ASCII text is now hashed as written (it was \u-escaped): the identity equals the checksum the manifest
    # would carry. Only manifests without a checksum change (write_manifest always adds one).
    manifest = {"name": "café", "shards": []}
    assert identity(manifest) == manifest_checksum(manifest)
    assert identity({**manifest, "checksum": "abc"}) == "abc"


# -- settings marked {"fingerprint": False} stay out of fingerprints ------------------------------------------------

@dataclasses.dataclass
class _Inner:
    rate: float = 0.5
    where: str = dataclasses.field(default="", metadata={"fingerprint": False})


@dataclasses.dataclass
class _Outer:
    size: int = 3
    cache: str = dataclasses.field(default="", metadata={"fingerprint": False})
    inner: _Inner = dataclasses.field(default_factory=_Inner)


class _Marked(Augmenter):
    name = "marked"
    config_class = _Outer

    def augment_batch(self, records, seed):
        return [ViewPair(r.text, r.text) for r in records]


def test_fields_marked_out_of_the_fingerprint_are_left_out_at_any_depth():
    assert fingerprint_dict(_Outer(cache="/a", inner=_Inner(where="/b"))) == {"size": 3, "inner": {"rate": 0.5}}
    base = _Marked().fingerprint_hash()
    assert _Marked({"cache": "/elsewhere", "inner": {"where": "/x"}}).fingerprint_hash() == base  # marked
    assert _Marked({"size": 4}).fingerprint_hash() != base  # unmarked
    assert _Marked({"inner": {"rate": 0.25}}).fingerprint_hash() != base  # unmarked, nested
    assert _Marked({"cache": "/elsewhere"}).params()["cache"] == "/elsewhere"  # params() keeps every setting


@pytest.mark.parametrize("method, marked, unmarked", [
    ("synonyms", {"wordnet_dir": "/wn", "cache_dir": "/c", "cache_size": 7, "rank_encoder": "/enc"},
     {"fraction": 0.25, "words": {"min_lemma_count": 3}, "sentence": {"keep_compounds": False}}),
    ("mlm", {"batch_size": 3, "device": "cpu", "max_tokens": 99, "sdpa_backend": "math"},
     {"top_k": 3}),
    ("backtranslation", {"cache_dir": "/c", "sdpa_backend": "math"}, {"beam": 2}),
])
def test_augmenters_leave_their_marked_settings_out_of_the_fingerprint(method, marked, unmarked):
    base = build_augmenter(method, None).fingerprint_params()
    assert build_augmenter(method, marked).fingerprint_params() == base
    assert not set(marked) & set(base)
    for key, value in unmarked.items():
        assert build_augmenter(method, {key: value}).fingerprint_params() != base, key


def test_where_and_how_a_run_is_carried_out_stay_out_of_the_run_key():
    from bsl_pipeline.training.config import TrainConfig
    from bsl_pipeline.evaluation.train_and_evaluate import run_key

    base = TrainConfig()
    key = run_key(base)
    elsewhere = TrainConfig()
    elsewhere.train.output_dir, elsewhere.train.resume, elsewhere.data.workers = "/x", "auto", 3
    elsewhere.data.verify = elsewhere.data.pin_memory = False
    assert run_key(elsewhere) == key == "1d30686b0174df25"  # pinned: a change of the key's shape shows here
    other = TrainConfig()
    other.train.seed = 7
    assert run_key(other) != key
