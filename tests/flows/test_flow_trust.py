"""Trust boundaries of the augmentation flow (issue 13, items 1 and 11), against a real Prefect API.

- Prefect's persisted task results live inside the dataset directory (`.work/prefect-results/`), so they are
  untrusted input: a record is read only through the serializer the tool pins (plain JSON); any other serializer,
  a record that does not parse or one that names other storage is a cache miss (recomputed, with a warning) and is
  never deserialised.
- `bsl flow augment` writes what `bsl augment` writes, byte for byte, whether the corpus path is relative or
  absolute.
"""

from __future__ import annotations

import base64
import json
import logging
import pickle
from pathlib import Path

import pytest
from tests.pipeline.dataset.test_dataset import executor_independent_parts
from tests.flows.test_flows import (  # noqa: F401  (prefect_server, prefect_api, counter: fixtures used below)
    SENTENCES,
    _calls,
    _rows,
    _spec,
    _write_corpus,
    counter,
    prefect_api,
    prefect_server,
)

pytestmark = pytest.mark.xdist_group("prefect-flows")  # one worker, one server at a time

PLANTED_MODULE = "bsl_planted_on_import"


class _CreatesFileWhenUnpickled:
    """A pickle payload: unpickling it calls open(path, "w"), i.e. runs code the file chose."""

    def __init__(self, path: Path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


class _Warnings(logging.Handler):
    """Warnings of Prefect task runs (Prefect configures logging itself when the first run starts, so pytest's
    caplog handler on the root logger does not see them)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())

    def __enter__(self) -> "_Warnings":
        logging.getLogger("prefect.task_runs").addHandler(self)
        return self

    def __exit__(self, *exc) -> None:
        logging.getLogger("prefect.task_runs").removeHandler(self)

    @property
    def text(self) -> str:
        return "\n".join(self.messages)


def _records(storage: Path) -> dict[str, Path]:
    """Persisted Prefect task results by chunk id (keys are `bsl-<chunk_id>-<method>-...`)."""
    return {path.name.split("-")[1]: path for path in sorted(storage.iterdir()) if path.name.startswith("bsl-")}


def _shard_bytes(out: Path) -> dict[str, str]:
    import hashlib

    from bsl_pipeline.pipeline.dataset.store import load_manifest

    return {s.path: hashlib.sha256((out / s.path).read_bytes()).hexdigest() for s in load_manifest(out).shards}


def _tampered_copy(shard: Path, target: Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(shard)
    views = pa.array(["planted view"] * table.num_rows, type=table.schema.field("view2").type)
    pq.write_table(table.set_column(table.schema.get_field_index("view2"), "view2", views), target)
    return target


def _plant(records: dict[str, Path], tmp_path: Path, outside_rows: Path) -> dict[str, Path]:
    """Rewrite four of the five records as an attacker would; returns the file each payload creates if it runs."""
    pickled, json_hook, garbage, lying = sorted(records)[:4]
    markers = {name: tmp_path / f"ran-{name}" for name in ("pickle", "json-hook")}

    record = json.loads(records[pickled].read_text())
    record["metadata"]["serializer"] = {"type": "pickle", "picklelib": "pickle"}
    record["result"] = base64.encodebytes(pickle.dumps(_CreatesFileWhenUnpickled(markers["pickle"]))).decode()
    records[pickled].write_text(json.dumps(record))

    # Prefect's default JSON decoder imports whatever class a payload names: an import with side effects
    (tmp_path / "planted").mkdir()
    (tmp_path / "planted" / f"{PLANTED_MODULE}.py").write_text(
        f"open({str(markers['json-hook'])!r}, 'w').close()\nclass Payload:\n    pass\n")
    record = json.loads(records[json_hook].read_text())
    record["metadata"]["serializer"] = {"type": "json", "jsonlib": "json", "object_encoder": None,
                                        "object_decoder": "prefect.serializers.prefect_json_object_decoder",
                                        "dumps_kwargs": {}, "loads_kwargs": {}}
    record["result"] = json.dumps({"__class__": f"{PLANTED_MODULE}.Payload", "data": {}})
    records[json_hook].write_text(json.dumps(record))

    records[garbage].write_bytes(b"\x80\x04not a result record {")

    # well-formed and plain JSON, but it names shards outside the dataset: its files must not be published
    record = json.loads(records[lying].read_text())
    payload = json.loads(record["result"])
    payload["pairs_path"] = str(outside_rows)
    record["result"] = json.dumps(payload)
    records[lying].write_text(json.dumps(record))
    return markers


def test_planted_result_records_are_never_deserialised_and_are_recomputed(tmp_path, prefect_api, counter, monkeypatch):
    from bsl_pipeline.flows.augment_run import run_augment_flow

    corpus, out = tmp_path / "corpus", tmp_path / "ds"
    _write_corpus(corpus, "a.txt", SENTENCES[:40])  # 5 chunks x 1 method
    first = run_augment_flow(_spec(corpus, out, methods=("counting",)))
    assert first["task_states"] == {"Completed": 5}
    rows, shards = _rows(out), _shard_bytes(out)
    storage = Path(first["result_storage"])
    records = _records(storage)
    assert len(records) == 5
    outside = _tampered_copy(out / "data" / "train-00000-of-00005.parquet", tmp_path / "outside.parquet")
    markers = _plant(records, tmp_path, outside)
    monkeypatch.syspath_prepend(str(tmp_path / "planted"))  # the planted module is importable, as any installed one
    counter.write_text("")

    with _Warnings() as warnings:
        second = run_augment_flow(_spec(corpus, out, methods=("counting",)))
    assert not markers["pickle"].exists() and not markers["json-hook"].exists()  # no planted code ran
    untrusted = sorted(name for name in records if f"untrusted cached result {records[name]}" in warnings.text)
    assert untrusted == sorted(records)[:3]  # pickle, JSON with a decoder hook, not JSON: each one warned about
    # the three untrusted records ran again as tasks (not Cached); the lying one is a cache hit whose files come from
    # the task's own completion marker, not from the record
    assert second["task_states"] == {"Cached": 2, "Completed": 3}
    assert _calls(counter, "batch") == []  # the tasks found their finished shards: nothing was augmented twice
    assert _rows(out) == rows and _shard_bytes(out) == shards

    # the untrusted records were replaced by trusted ones: the next run is all cache hits, without warnings
    with _Warnings() as warnings:
        third = run_augment_flow(_spec(corpus, out, methods=("counting",)))
    assert third["task_states"] == {"Cached": 5}
    assert warnings.messages == []
    assert _rows(out) == rows and _shard_bytes(out) == shards


def _trusted_record(path: Path) -> dict:
    """A record as Prefect writes it with the pinned serializer (checked against Prefect itself in the test)."""
    from bsl_pipeline.flows.result_cache import pinned_serializer

    return {"metadata": {"storage_key": str(path.resolve()), "expiration": None,
                         "serializer": pinned_serializer().model_dump(mode="json"), "prefect_version": "3.8.8",
                         "storage_block_id": None},
            "result": json.dumps({"task_key": "k", "pairs": 3})}


@pytest.mark.parametrize("case, expected", [
    ("trusted", None),
    ("missing", None),
    ("old-format serializer key", "not a Prefect result record"),
    ("compressed pickle", "is not the pinned plain JSON serializer"),
    ("JSON with a custom jsonlib", "is not the pinned plain JSON serializer"),
    ("other storage key", "names other storage"),
    ("storage block", "names other storage"),
    ("result not an object", "its result is not a JSON object"),
    ("deeply nested", "not JSON (RecursionError)"),
    ("too large", "larger than 4096 bytes"),
    ("symlink", "not a regular file"),
    ("directory", "not a regular file"),
])
def test_untrusted_reason_checks_a_record_with_the_standard_library_only(tmp_path, case, expected):
    from prefect.results import ResultRecord

    from bsl_pipeline.flows.result_cache import untrusted_reason

    path = tmp_path / "bsl-key"
    record = _trusted_record(path)
    serializer = record["metadata"]["serializer"]
    if case == "old-format serializer key":
        record["serializer"] = {"type": "pickle"}  # Prefect would move it into metadata
    elif case == "compressed pickle":
        serializer.clear()
        serializer.update(type="compressed", serializer={"type": "pickle"}, compressionlib="lzma")
    elif case == "JSON with a custom jsonlib":
        serializer["jsonlib"] = "pickle"
    elif case == "other storage key":
        record["metadata"]["storage_key"] = str(tmp_path / "elsewhere")
    elif case == "storage block":
        record["metadata"]["storage_block_id"] = "00000000-0000-0000-0000-000000000001"
    elif case == "result not an object":
        record["result"] = json.dumps([1, 2])
    text = json.dumps(record)
    if case == "deeply nested":
        text = "[" * 2000 + "]" * 2000
    elif case == "too large":
        text = json.dumps({**record, "padding": "x" * 5000})
    if case == "symlink":
        (tmp_path / "target").write_text(text)
        path.symlink_to(tmp_path / "target")
    elif case == "directory":
        path.mkdir()
    elif case != "missing":
        path.write_text(text)
    reason = untrusted_reason(path, max_bytes=4096)
    assert reason == expected if expected is None else expected in reason
    if case == "trusted":  # what passes is what Prefect reads as a plain dict
        assert ResultRecord.deserialize(path.read_bytes()).result == {"task_key": "k", "pairs": 3}


def _augment_args(corpus: str, out: str) -> list[str]:
    return [corpus, "--out", out, "--methods", "counting,noise", "-o", "registry_dir=", "-o", "progress=false",
            "-o", "corpus.chunk_size=8"]


def test_flow_augment_equals_augment_byte_for_byte_for_relative_and_absolute_corpus_paths(tmp_path, prefect_api,
                                                                                         monkeypatch, capsys):
    from bsl_pipeline.cli.cli import main
    from bsl_pipeline.pipeline.dataset.store import load_manifest

    work = tmp_path / "work"
    # duplicates and blank lines become corpus rejects, whose pair ids are derived from their origin (file:line)
    lines = SENTENCES[:20] + ["", SENTENCES[3], "", SENTENCES[7]] + SENTENCES[20:28] + [SENTENCES[0]]
    _write_corpus(work / "corpus", "a.txt", lines)
    monkeypatch.chdir(work)
    datasets = {}
    for kind, command in (("augment", ["augment"]), ("flow", ["flow", "augment"])):
        for paths in ("relative", "absolute"):
            corpus, out = ("corpus", f"{kind}-{paths}") if paths == "relative" else \
                (str(work / "corpus"), str(tmp_path / f"{kind}-{paths}"))
            assert main(command + _augment_args(corpus, out) + (["--json"] if kind == "flow" else [])) == 0
            datasets[kind, paths] = Path(out).resolve()
    capsys.readouterr()

    reference = datasets["augment", "absolute"]
    manifest = load_manifest(reference)
    assert manifest.stats.corpus_dropped == {"duplicate": 3, "empty": 2}
    origins = {json.loads(row)["origin"].rsplit(":", 1)[0] for row in _rows(reference)}
    # one absolute spelling, whatever the command line said
    assert origins == {str((work / "corpus" / "a.txt").resolve())}
    for key, out in datasets.items():
        assert _shard_bytes(out) == _shard_bytes(reference), key
        other = load_manifest(out)
        assert executor_independent_parts(other) == executor_independent_parts(manifest), key
        assert other.source == manifest.source, key
