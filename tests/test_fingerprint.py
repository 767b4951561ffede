"""Golden values taken from the helpers these replaced (commit 12232a0): moving every hash of canonical JSON onto
pipeline.base.fingerprint changed no cache key, checksum or signature of ASCII settings and manifests."""

from bsl_pipeline.pipeline.augment.augmenters import build_augmenter
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
