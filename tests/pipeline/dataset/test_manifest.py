"""The typed manifest: read in one place (`Manifest.from_json`), written back byte for byte (`to_json`)."""

import json

import pytest

from bsl_pipeline.pipeline.augment.job import AugmentConfig, run_augment
from bsl_pipeline.pipeline.base.errors import InputError, VerificationError
from bsl_pipeline.pipeline.dataset.manifest import (
    Manifest,
    ManifestError,
    MethodStats,
    ShardEntry,
    check_manifest_checksum,
    write_manifest,
)
from bsl_pipeline.pipeline.dataset.store import load_manifest, verify_dataset

SENTENCES = [f"Sentence number {i} talks about the {w} in the café." for i, w in
             enumerate(["dog", "cat", "tree", "child", "ball", "car"] * 2)]


@pytest.fixture
def dataset(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(SENTENCES + ["", SENTENCES[0], "Tiny."]) + "\n", encoding="utf-8")
    config = AugmentConfig(methods=["noise", "identity"], registry_dir="", progress=False)
    config.corpus.chunk_size = 5
    config.filters.min_words = 3
    run_augment(corpus, tmp_path / "ds", config)
    return tmp_path / "ds"


def _as_written(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def test_to_json_is_what_the_writer_wrote_byte_for_byte(dataset, tmp_path):
    text = (dataset / "manifest.json").read_text(encoding="utf-8")
    manifest = load_manifest(dataset)
    assert _as_written(manifest.to_json()) == text
    # Written again from the object, or as a plain dict the way the writer wrote it before the object existed:
    # the same bytes, so the checksum is unchanged and existing datasets still verify.
    write_manifest(manifest, tmp_path / "again.json")
    write_manifest(json.loads(text), tmp_path / "as_dict.json")
    assert (tmp_path / "again.json").read_text(encoding="utf-8") == text
    assert (tmp_path / "as_dict.json").read_text(encoding="utf-8") == text
    verify_dataset(dataset)


def test_signed_manifest_round_trips_and_verifies(dataset, tmp_path, monkeypatch):
    monkeypatch.setenv("BSL_MANIFEST_KEY", "k")
    write_manifest(load_manifest(dataset), dataset / "manifest.json")
    signed = load_manifest(dataset)
    assert signed.signature and list(signed.to_json())[-2:] == ["signature", "checksum"]
    assert _as_written(signed.to_json()) == (dataset / "manifest.json").read_text(encoding="utf-8")
    verify_dataset(dataset)
    monkeypatch.setenv("BSL_MANIFEST_KEY", "another key")
    with pytest.raises(VerificationError, match="signature does not match"):
        check_manifest_checksum(signed)


def test_parts_are_typed(dataset):
    m = load_manifest(dataset)
    assert m.root == dataset and m.path == dataset / "manifest.json"
    assert all(isinstance(s, ShardEntry) for s in m.shards)
    assert [s.kind for s in m.shards] == ["pairs"] * len(m.shards_of("pairs")) + ["rejects"] * len(
        m.shards_of("rejects"))
    assert isinstance(m.stats.per_method["identity"], MethodStats)
    assert m.stats.per_method["identity"].pairs == 12 and m.stats.per_method["identity"].identical_pct == 100.0
    assert m.stats.rejects == {"too_short": 2} and m.stats.corpus_dropped == {"duplicate": 1, "empty": 1}
    assert m.source.records_read == 15 and m.source.records_kept == 13
    assert m.method_names == ["noise", "identity"] and m.methods["noise"].name == "noise"
    assert [c.rows for c in m.chunks] == [5, 5, 3] and m.timings.total_s >= m.timings.finalize_s


def _data(dataset):
    return json.loads((dataset / "manifest.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("edit, message", [
    (lambda m: m.update(format_version="1"), r"format_version must be a count"),
    (lambda m: m.update(created=3), r"created must be a string, got 3"),
    (lambda m: m["source"].update(dropped={"empty": -1}), r"source.dropped.empty must be a count"),
    (lambda m: m["methods"]["noise"].pop("filters"), r"methods.noise.filters is missing"),
    (lambda m: m["methods"].update(noise=[]), r"methods.noise must be an object"),
    (lambda m: m["chunks"][1].update(chunk_id=None), r"chunks\[1\].chunk_id must be a string"),
    (lambda m: m["shards"][0].update(method=7), r"shards\[0\].method must be a string"),
    (lambda m: m["stats"].update(mean_edit_ratio="high"), r"stats.mean_edit_ratio must be a number or null"),
    (lambda m: m["stats"]["per_method"]["identity"].update(tasks=True), r"stats.per_method.identity.tasks must"),
    (lambda m: m["timings"].pop("total_s"), r"timings.total_s is missing"),
])
def test_from_json_names_the_field(dataset, edit, message):
    data = _data(dataset)
    edit(data)
    with pytest.raises(ManifestError, match=message) as raised:
        Manifest.from_json(data, dataset / "manifest.json")
    assert str(raised.value).startswith(f"{dataset / 'manifest.json'}: malformed manifest: ")
    assert isinstance(raised.value, VerificationError) and isinstance(raised.value, InputError)


def test_absent_parts_are_none_and_asked_for_by_name(dataset):
    data = {k: v for k, v in _data(dataset).items() if k not in ("stats", "source", "timings")}
    m = Manifest.from_json(data, "x.json")
    assert m.stats is m.source is m.timings is None
    assert m.to_json() == data  # nothing invented on the way back
    m.require("shards", "methods")
    with pytest.raises(ManifestError, match=r"x.json: manifest has no stats, source"):
        m.require("stats", "source")


def test_unknown_keys_are_kept_and_still_verify(dataset):
    data = _data(dataset)
    data.pop("checksum")
    data["made_by"] = "a later version"
    write_manifest(data, dataset / "manifest.json")
    m = verify_dataset(dataset)
    assert m.extra == {"made_by": "a later version"}
    assert m.to_json() == _data(dataset)
