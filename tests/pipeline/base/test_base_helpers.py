"""The one directory-publish rule and the one fingerprint rule (pipeline.base.publish, pipeline.base.fingerprint)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from bsl_pipeline.pipeline.base.fingerprint import canonical_json, digest, fingerprint
from bsl_pipeline.pipeline.base.publish import publish_directory, remove_stale_staging, staging_dir


def test_publish_replaces_the_directory_as_a_whole(tmp_path):
    target = tmp_path / "data"
    target.mkdir()
    (target / "new.parquet").write_text("old")
    staging = staging_dir(target)
    (staging / "new.parquet").write_text("new")
    assert publish_directory(staging, target) is True  # the old file, rewritten by the new copy, is dropped
    assert sorted(p.name for p in target.iterdir()) == ["new.parquet"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]  # no staging or retired leftovers


def test_staging_names_are_private_to_each_call(tmp_path):
    a, b = staging_dir(tmp_path / "data"), staging_dir(tmp_path / "data")
    assert a != b and a.parent == b.parent == tmp_path
    assert str(os.getpid()) in a.name


def test_keep_existing_keeps_an_equivalent_copy(tmp_path):
    target = tmp_path / "wordnet"
    target.mkdir()
    (target / "stamp").write_text("v1")
    staging = staging_dir(target)
    (staging / "stamp").write_text("v1")
    assert publish_directory(staging, target, keep_existing=lambda t: (t / "stamp").read_text() == "v1") is False
    assert not staging.exists() and (target / "stamp").read_text() == "v1"


def test_leftovers_of_dead_processes_are_removed_live_ones_kept(tmp_path):
    dead = tmp_path / ".data.staging-999999999-abcd1234"
    mine = tmp_path / f".data.staging-{os.getpid()}-abcd1234"
    other = tmp_path / ".data.notes-999999999-x"
    for d in (dead, mine, other):
        d.mkdir()
    remove_stale_staging(tmp_path, "data")
    assert not dead.exists() and mine.exists() and other.exists()


def test_fingerprint_is_sha256_of_canonical_json():
    value = {"b": 1, "a": [Path("x"), "é"]}
    assert canonical_json(value) == '{"a": ["x", "é"], "b": 1}'.encode()
    assert digest(value) == hashlib.sha256(canonical_json(value)).hexdigest()
    assert fingerprint(value) == digest(value)[:16] and fingerprint(value, 8) == digest(value)[:8]
    assert fingerprint({"a": ["x", "é"], "b": 1}) == fingerprint(json.loads('{"b": 1, "a": ["x", "é"]}'))
    with pytest.raises(ValueError):
        fingerprint(value, 0)
