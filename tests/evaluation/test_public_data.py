"""`bsl data fetch` (evaluation/public_data.py) from a local hub-layout mirror, and the data-dir resolver
(evaluation/data_dir.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.provenance import sha256_file
from bsl_pipeline.evaluation.data_dir import (
    DataDirNotFound,
    default_data_dir,
    locate_data_dir,
    repo_shared_data_dir,
    resolve_data_dir,
)
from bsl_pipeline.evaluation.public_data import (
    PUBLIC_SETS,
    DataFetchConfig,
    FetchError,
    fetch_public_sets,
    manifest_path,
    parse_sets,
)

REPO = Path(__file__).resolve().parents[2]


def _fetch(mirror: Path, to: Path, sets: list[str] | None = None, **kw) -> dict[str, str]:
    cfg = DataFetchConfig(to=str(to), mirror=str(mirror), progress=False, **kw)
    if sets is not None:
        cfg.sets = sets
    return {r.name: r.status for r in fetch_public_sets(cfg, log=lambda _: None)}


# ---------------------------------------------------------------------------------------------------------------
# The fetched layout is what the evaluation stage reads, with the same numbers


@pytest.fixture(scope="module")
def both_tables(tiny_bert_dir, shared_data, fetched_data):
    from bsl_pipeline.evaluation import load_encoder
    from bsl_pipeline.evaluation.runner import evaluate_encoder

    encoder = load_encoder(tiny_bert_dir, device="cpu")
    return (evaluate_encoder(encoder, shared_data, disable_progress=True),
            evaluate_encoder(encoder, fetched_data, disable_progress=True))


def test_fetched_layout_evaluates_to_exactly_the_reference_numbers(both_tables):
    reference, fetched = both_tables
    assert list(fetched.scores()) == ["sts12", "sts13", "sts14", "sts15", "sts16", "stsb", "sickr", "avg"]
    assert fetched.scores() == reference.scores()  # all seven columns and the average, bit for bit
    assert fetched.splits["stsb"]["dev"] == reference.splits["stsb"]["dev"]


def test_fetched_sts_years_are_pooled_and_say_so(both_tables):
    reference, fetched = both_tables
    details = fetched.to_json()["details"]
    for year, n in (("sts12", 3108), ("sts13", 1500), ("sts14", 3750), ("sts15", 3000), ("sts16", 1186)):
        assert list(details[year]["subsets"]) == ["pooled"] and details[year]["all"]["n"] == n
        assert details[year]["mean"]["spearman"] is None and details[year]["wmean"]["spearman"] is None
        assert len(reference.to_json()["details"][year]["subsets"]) > 1


def test_mean_aggregate_on_pooled_years_is_refused(tiny_bert_dir, fetched_data):
    from bsl_pipeline.evaluation.runner import evaluate_encoder

    with pytest.raises(BSLError, match=r"sts13: .*pooled.*sts_aggregate=mean cannot be computed"):
        evaluate_encoder(lambda s: [[1.0, float(len(x))] for x in s], fetched_data, "sts13", sts_aggregate="mean")


def test_fetched_nli_files_hold_the_reference_records(shared_data, fetched_data):
    from bsl_pipeline.pipeline.corpus.readers import read_records

    def pairs(path):
        return [(r.text, r.text_b, r.label) for r in read_records(path)]

    assert pairs(fetched_data / "nli/snli/dev.csv") == pairs(shared_data / "nli/snli/dev.csv")
    assert pairs(fetched_data / "nli/mnli/dev_mismatched.csv") == pairs(shared_data / "nli/mnli/dev_mismatched.csv")
    assert len(pairs(fetched_data / "nli/snli/test.csv")) == 9824


def test_manifest_names_source_files_rows_and_dropped_rows(fetched_data, hub_mirror):
    snli = json.loads(manifest_path(fetched_data, "snli").read_text())
    assert snli["source"] == {"id": "stanfordnlp/snli", "revision": None,
                              "local_dir": str(hub_mirror.resolve() / "stanfordnlp" / "snli")}
    train = snli["splits"]["train"]
    assert (train["rows_read"], train["rows_written"], train["dropped"]) == (301, 300, {"no gold label": 1})
    assert train["dropped_rows"] == {"no gold label": [300]} and train["reference_rows"] == 549367
    for name in PUBLIC_SETS:
        manifest = json.loads(manifest_path(fetched_data, name).read_text())
        assert manifest["folder"] == PUBLIC_SETS[name].folder
        for entry in manifest["files"]:
            assert sha256_file(fetched_data / entry["path"]) == entry["sha256"]
    sts12 = json.loads(manifest_path(fetched_data, "sts12").read_text())
    assert [f["path"] for f in sts12["files"]] == ["sts/sts12/STS.input.pooled.txt", "sts/sts12/STS.gs.pooled.txt"]
    assert sts12["splits"]["pooled"]["rows_written"] == 3108 and "per-subset" in sts12["notes"][0]


def test_transfer_and_sts17_manifests_name_their_hub_copies(fetched_data):
    expected = {"mr": ("cornell-movie-review-data/rotten_tomatoes", {"all": ("train+validation+test", 10662, 24)}),
                "cr": ("SetFit/SentEval-CR", {"all": ("train+test", 3775, 22)}),
                "subj": ("SetFit/subj", {"all": ("train+test", 10000, 22)}),
                "mpqa": ("jxm/mpqa", {"all": ("train+test", 10606, 20)}),
                "sst2": ("SetFit/sst2", {"train": ("train", 6920, 20), "dev": ("validation", 872, 8),
                                         "test": ("test", 1821, 10)}),
                "trec": ("CogComp/trec", {"train": ("train", 5452, 60), "test": ("test", 500, 12)}),
                "mrpc": ("nyu-mll/glue", {"train": ("train+validation", 4076, 20), "test": ("test", 1725, 6)}),
                "sts17": ("mteb/sts17-crosslingual-sts", {"test": ("test", 5346, 132)})}
    for name, (hub_id, splits) in expected.items():
        manifest = json.loads(manifest_path(fetched_data, name).read_text())
        assert manifest["source"]["id"] == hub_id, name
        got = {split: (info["hub_split"], info["reference_rows"], info["rows_written"])
               for split, info in manifest["splits"].items()}
        assert got == splits, name
    assert PUBLIC_SETS["sts17"].revision == "faeb762787bd10488a50c8b5be4a3b82e411949c"  # MTEB's pin
    assert PUBLIC_SETS["mrpc"].config == "mrpc"


def test_unlabelled_transfer_rows_are_dropped_by_reason(tmp_path):
    from datasets import Dataset, Features, Value

    path = tmp_path / "mirror" / "SetFit" / "sst2"
    features = Features({"text": Value("string"), "label": Value("int64"), "label_text": Value("string")})
    for split in ("train", "validation", "test"):
        rows = {"text": ["good", "bad", "", "tab\there", "odd"], "label": [1, 0, 1, 1, -1],
                "label_text": ["positive", "negative", "positive", "positive", ""]}
        path.mkdir(parents=True, exist_ok=True)
        Dataset.from_dict(rows, features=features).to_parquet(str(path / f"{split}.parquet"))
    cfg = DataFetchConfig(to=str(tmp_path / "d"), mirror=str(tmp_path / "mirror"), progress=False, sets=["sst2"])
    fetch_public_sets(cfg, log=lambda _: None)
    manifest = json.loads(manifest_path(tmp_path / "d", "sst2").read_text())
    assert manifest["splits"]["test"]["dropped"] == {"empty sentence": 1, "no gold label": 1,
                                                     "tab or line break inside a sentence (the files are tab- and "
                                                     "line-separated)": 1}
    assert (tmp_path / "d" / "senteval" / "sst2" / "test.tsv").read_text() == \
        "label\tsentence\npositive\tgood\nnegative\tbad\n"


def test_sts17_without_lang_column_is_named(tmp_path):
    mirror = _mirror_with(tmp_path, "mteb/sts17-crosslingual-sts",
                          {"sentence1": ["a"], "sentence2": ["b"], "score": [1.0]})
    with pytest.raises(FetchError, match=r"sts17-crosslingual-sts split test: no column lang"):
        _fetch(mirror, tmp_path / "d", ["sts17"])


# ---------------------------------------------------------------------------------------------------------------
# Idempotent, resumable, never clobbers files supplied by hand


def test_rerun_skips_complete_sets_and_redoes_a_damaged_one(hub_mirror, tmp_path):
    data = tmp_path / "data"
    assert set(_fetch(hub_mirror, data, ["sts13", "stsb"]).values()) == {"fetched"}
    gold = data / "sts/sts13/STS.gs.pooled.txt"
    before = {p: p.stat().st_mtime_ns for p in data.rglob("*") if p.is_file()}
    assert _fetch(hub_mirror, data, ["sts13", "stsb"]) == {"sts13": "complete", "stsb": "complete"}
    assert {p: p.stat().st_mtime_ns for p in data.rglob("*") if p.is_file()} == before
    original = gold.read_bytes()
    gold.write_bytes(original.replace(b"4.8", b"0.1", 1))
    assert _fetch(hub_mirror, data, ["sts13", "stsb"]) == {"sts13": "fetched", "stsb": "complete"}
    assert gold.read_bytes() == original


def test_interrupted_fetch_leaves_no_half_set_and_resumes(hub_mirror, tmp_path, monkeypatch):
    import bsl_pipeline.evaluation.public_data as public_data

    data = tmp_path / "data"

    def crash(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(public_data, "publish_directory", crash)
    with pytest.raises(KeyboardInterrupt):
        _fetch(hub_mirror, data, ["sickr"])
    assert not (data / "sick").exists() and list((data).iterdir()) == [data / "data_manifests"]
    monkeypatch.undo()
    assert _fetch(hub_mirror, data, ["sickr"]) == {"sickr": "fetched"}
    assert [p.name for p in (data / "sick").iterdir()] == ["SICK_test_annotated.txt"]


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_folder_supplied_by_hand_is_kept_unless_forced(hub_mirror, shared_data, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(shared_data / "sick", data / "sick")
    results = fetch_public_sets(DataFetchConfig(to=str(data), mirror=str(hub_mirror), sets=["sickr"],
                                                progress=False), log=lambda _: None)
    assert results[0].status == "kept" and "holds every file the set needs" in results[0].warnings[0]
    assert "--force" in results[0].warnings[0]
    assert (data / "sick/SICK_train.txt").is_file() and not manifest_path(data, "sickr").exists()


def test_an_incomplete_folder_supplied_by_hand_is_not_the_set_and_is_kept(hub_mirror, shared_data, tmp_path):
    from bsl_pipeline.cli.cli import main

    data = tmp_path / "data"
    (data / "stsbenchmark").mkdir(parents=True)
    shutil.copy(shared_data / "stsbenchmark/sts-train.csv", data / "stsbenchmark")
    shutil.copytree(shared_data / "sts/sts13", data / "sts/sts13")
    (data / "sts/sts13/STS.gs.OnWN.txt").unlink()
    shutil.copytree(shared_data / "sts/sts14", data / "sts/sts14")  # every subset: the set
    before = _tree(data)
    results = {r.name: r for r in fetch_public_sets(DataFetchConfig(
        to=str(data), mirror=str(hub_mirror), sets=["sts13", "sts14", "stsb"], progress=False), log=lambda _: None)}
    assert {n: r.status for n, r in results.items()} == {"sts13": "incomplete", "sts14": "kept", "stsb": "incomplete"}
    assert results["stsb"].missing == ("sts-dev.csv", "sts-test.csv")
    assert results["sts13"].missing == ("STS.gs.OnWN.txt",)
    assert "lacks sts-dev.csv, sts-test.csv, so the set is not there" in results["stsb"].warnings[0]
    assert "--force" in results["stsb"].warnings[0]
    assert _tree(data) == before and not (data / "data_manifests").exists()

    argv = ["data", "fetch", "--to", str(data), "--mirror", str(hub_mirror), "--sets", "sts14,stsb", "--no-progress"]
    assert main(argv) == 1
    assert _tree(data) == before
    assert main(argv + ["--force"]) == 0
    assert sorted(p.name for p in (data / "stsbenchmark").iterdir()) == ["sts-dev.csv", "sts-test.csv",
                                                                        "sts-train.csv"]
    kept = next((data / ".bsl-replaced").glob("*/stsbenchmark/sts-train.csv"))
    assert kept.read_bytes() == (shared_data / "stsbenchmark/sts-train.csv").read_bytes()


def test_bsl_data_fetch_names_the_missing_files_and_exits_1(hub_mirror, shared_data, tmp_path, capsys):
    from bsl_pipeline.cli.cli import main

    data = tmp_path / "data"
    (data / "sick").mkdir(parents=True)
    shutil.copy(shared_data / "sick/SICK_train.txt", data / "sick")
    assert main(["data", "fetch", "--to", str(data), "--mirror", str(hub_mirror), "--sets", "sickr",
                 "--no-progress"]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == f"sickr: incomplete, kept {data / 'sick'}"
    assert captured.out.splitlines()[-1] == f"{data}: 0 set(s) fetched, 0 already there, 1 incomplete"
    assert captured.err == (f"bsl data: error: not there: sickr ({data / 'sick'} lacks SICK_test_annotated.txt): "
                            f"folders supplied by hand are kept; add the files, or rerun with --force\n")
    assert [p.name for p in (data / "sick").iterdir()] == ["SICK_train.txt"]


def test_force_in_sick_replaces_only_sickr_s_file_and_leaves_the_sick_e_files(hub_mirror, shared_data, tmp_path):
    from bsl_pipeline.evaluation.data import load_sick
    from bsl_pipeline.pipeline.corpus.builtin import write_sts_sick_train

    data = tmp_path / "data"
    shutil.copytree(shared_data / "sick", data / "sick")
    mine = {name: (data / "sick" / name).read_bytes() for name in ("SICK_train.txt", "SICK_trial.txt")}
    hand_test = (data / "sick/SICK_test_annotated.txt").read_bytes()
    assert _fetch(hub_mirror, data, ["sickr", "stsb"], force=True) == {"sickr": "fetched", "stsb": "fetched"}
    assert {name: (data / "sick" / name).read_bytes() for name in mine} == mine
    kept = next((data / ".bsl-replaced").glob("*/sick"))
    assert _tree(kept) == {"SICK_test_annotated.txt": hand_test}
    manifest = json.loads(manifest_path(data, "sickr").read_text())
    assert [f["path"] for f in manifest["files"]] == ["sick/SICK_test_annotated.txt"]
    # What SICK-E and `bsl corpus sts-sick-train` read is still there, and a refetch replaces only its own file.
    assert len(load_sick(data, "train").scores) == 4500
    assert write_sts_sick_train(data, tmp_path / "a.txt") == write_sts_sick_train(shared_data, tmp_path / "b.txt")
    assert _fetch(hub_mirror, data, ["sickr"], force=True) == {"sickr": "fetched"}
    assert {name: (data / "sick" / name).read_bytes() for name in mine} == mine
    assert len(list((data / ".bsl-replaced").iterdir())) == 1


def test_a_data_dir_that_is_a_file_or_cannot_be_made_is_named(hub_mirror, tmp_path, capsys):
    from bsl_pipeline.cli.cli import main

    notes = tmp_path / "notes"
    notes.write_text("mine\n")
    for to, says in ((notes, f"{notes} is a plain file, not a folder: give a data dir to fill"),
                     (Path("/proc/bsl-no-such-dir"), "/proc/bsl-no-such-dir: cannot make the data dir (")):
        assert main(["data", "fetch", "--to", str(to), "--mirror", str(hub_mirror), "--sets", "stsb",
                     "--no-progress"]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"bsl data: error: {says}") and len(err.splitlines()) == 1, err
    assert notes.read_text() == "mine\n"


def test_a_revision_for_an_unknown_set_is_refused(tmp_path, capsys):
    from bsl_pipeline.cli.cli import main

    for argv in (["--print-config"], ["--to", str(tmp_path / "d"), "--sets", "stsb"]):
        assert main(["data", "fetch", *argv, "-o", "revisions.stbs=main"]) == 1
        err = capsys.readouterr().err
        assert err == ("bsl data: error: revisions: unknown set(s) stbs; valid keys: " + ", ".join(PUBLIC_SETS)
                       + "\n")
    assert not (tmp_path / "d").exists()
    config = tmp_path / "fetch.yaml"
    config.write_text("revisions:\n  snli: main\n  nope: main\n")
    assert main(["data", "fetch", "--config", str(config), "--print-config"]) == 1
    assert "revisions: unknown set(s) nope;" in capsys.readouterr().err
    assert main(["data", "fetch", "--print-config", "-o", "revisions.snli=main"]) == 0
    assert "  snli: main" in capsys.readouterr().out


def test_manifest_path_outside_the_data_dir_is_not_trusted(hub_mirror, tmp_path):
    data = tmp_path / "data"
    _fetch(hub_mirror, data, ["sts16"])
    path = manifest_path(data, "sts16")
    manifest = json.loads(path.read_text())
    outside = tmp_path / "outside.txt"
    outside.write_text("x")
    manifest["files"] = [{"path": "../outside.txt", "sha256": sha256_file(outside)}]
    path.write_text(json.dumps(manifest))
    assert _fetch(hub_mirror, data, ["sts16"]) == {"sts16": "fetched"}
    assert [f["path"] for f in json.loads(path.read_text())["files"]][0] == "sts/sts16/STS.input.pooled.txt"


# ---------------------------------------------------------------------------------------------------------------
# Bad sources fail with one line naming the set and how to supply it by hand


def _mirror_with(tmp_path: Path, hub_id: str, table: dict, name: str = "test.parquet") -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "mirror" / hub_id
    folder.mkdir(parents=True)
    pq.write_table(pa.table(table), folder / name)
    return tmp_path / "mirror"


def test_score_outside_the_scale_names_the_row(tmp_path):
    mirror = _mirror_with(tmp_path, "mteb/sts13-sts",
                          {"sentence1": ["a b", "c d"], "sentence2": ["e f", "g h"], "score": [4.0, 7.5]})
    with pytest.raises(FetchError, match=r"split test row 1: score 7.5 is outside \[0, 5\]"):
        _fetch(mirror, tmp_path / "data", ["sts13"])
    assert not (tmp_path / "data/sts/sts13").exists()


def test_missing_column_and_missing_split_are_named(tmp_path):
    mirror = _mirror_with(tmp_path, "mteb/sts14-sts", {"text": ["a"], "score": [1.0]})
    with pytest.raises(FetchError, match=r"no column sentence1 / sentence_A \(it has text, score\)"):
        _fetch(mirror, tmp_path / "data", ["sts14"])
    mirror = _mirror_with(tmp_path / "b", "mteb/stsbenchmark-sts",
                          {"sentence1": ["a"], "sentence2": ["b"], "score": [1.0]})
    with pytest.raises(FetchError, match=r"^stsb: .* has no split train, validation \(it has test\); to supply it "
                                         r"by hand, put sts-train.csv"):
        _fetch(mirror, tmp_path / "data", ["stsb"])


def test_float32_scores_keep_their_decimal_value_and_unusable_rows_are_dropped(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "mirror" / "mteb" / "sts15-sts"
    folder.mkdir(parents=True)
    pq.write_table(pa.table({"sentence1": ["A cat.", "Tab\there", "", "A dog."],
                             "sentence2": ["A kitten.", "x", "y", "A puppy."],
                             "score": pa.array([4.4, 1.0, 2.0, None], pa.float32())}), folder / "test.parquet")
    _fetch(tmp_path / "mirror", tmp_path / "data", ["sts15"])
    assert (tmp_path / "data/sts/sts15/STS.gs.pooled.txt").read_text() == "4.4\n"
    assert (tmp_path / "data/sts/sts15/STS.input.pooled.txt").read_text() == "A cat.\tA kitten.\n"
    split = json.loads(manifest_path(tmp_path / "data", "sts15").read_text())["splits"]["pooled"]
    assert split["dropped_rows"] == {"tab or line break inside a sentence (the files are tab- and line-separated)":
                                     [1], "empty sentence": [2], "no score": [3]}


def test_unknown_set_is_named():
    assert [s.name for s in parse_sets("stsb, sts12")] == ["sts12", "stsb"]
    assert len(parse_sets("all")) == len(parse_sets(None)) == 17
    assert [s.name for s in parse_sets("transfer,sts17")] == ["sts17", "mr", "cr", "subj", "mpqa", "sst2", "trec",
                                                             "mrpc"]
    with pytest.raises(BSLError, match="unknown set.*sts18.*sts12,sts13"):
        parse_sets("sts18")


def test_offline_hub_fetch_fails_in_one_line_naming_the_set(tmp_path):
    code = ("from bsl_pipeline.evaluation.public_data import DataFetchConfig, fetch_public_sets\n"
            "from bsl_pipeline.pipeline.base.errors import BSLError\n"
            f"try:\n    fetch_public_sets(DataFetchConfig(to={str(tmp_path / 'data')!r}, sets=['sickr'], "
            "progress=False))\nexcept BSLError as exc:\n    print(exc)")
    env = {**os.environ, "HF_HOME": str(tmp_path / "hf"), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
           "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout + proc.stderr
    assert lines[0].startswith("sickr: cannot load mteb/sickr-sts@20a6d6f312dd54037fe07a32d58e5e168867909d (")
    assert "HF_HUB_OFFLINE/HF_DATASETS_OFFLINE is set" in lines[0]
    assert lines[0].endswith(f"to supply it by hand, put SICK_test_annotated.txt (the SemEval-2014 release) in "
                             f"{tmp_path / 'data' / 'sick'} (docs/guide/data.md)")
    assert not (tmp_path / "data" / "sick").exists()


# ---------------------------------------------------------------------------------------------------------------
# The data-dir resolver


def test_resolution_order(tmp_path):
    cache_home, shared = tmp_path / "xdg", tmp_path / "shared"
    env = {"XDG_CACHE_HOME": str(cache_home)}
    assert default_data_dir(env) == cache_home / "bsl" / "data"
    assert default_data_dir({"HOME": "/h"}) == Path.home() / ".cache" / "bsl" / "data"
    assert locate_data_dir(None, env, shared) is None
    (shared / "sts").mkdir(parents=True)
    assert locate_data_dir(None, env, shared).origin == "../shared/data"
    (cache_home / "bsl" / "data" / "stsbenchmark").mkdir(parents=True)
    assert locate_data_dir(None, env, shared).path == cache_home / "bsl" / "data"
    env["BSL_DATA_DIR"] = str(tmp_path / "env")
    assert (locate_data_dir(None, env, shared).path, locate_data_dir(None, env, shared).origin) == \
        (tmp_path / "env", "BSL_DATA_DIR")
    assert locate_data_dir(tmp_path / "flag", env, shared).origin == "--data-dir"


def test_the_shared_data_default_is_beside_this_checkout(shared_data, tmp_path):
    """`../shared/data` is the folder beside the repository root, and `bsl evaluate` finds it with no --data-dir,
    BSL_DATA_DIR or data cache (a clean machine's environment)."""
    from conftest import REPO_ROOT

    assert repo_shared_data_dir() == REPO_ROOT.resolve().parent / "shared" / "data"
    if repo_shared_data_dir().resolve() != shared_data:
        pytest.skip(f"the shared data is read from $BSL_SHARED_DATA ({shared_data}), not beside the checkout")
    env = {k: v for k, v in os.environ.items() if k != "BSL_DATA_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "empty-cache")
    proc = subprocess.run([sys.executable, "-c", "from bsl_pipeline.evaluation.data_dir import resolve_data_dir; "
                           "d = resolve_data_dir(); print(d.origin, d.path)"], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["../shared/data", str(repo_shared_data_dir())]


def test_resolve_errors_say_which_command_to_run(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    with pytest.raises(DataDirNotFound, match=r"no evaluation data found .*run `bsl data fetch` \(fills "
                                              + str(tmp_path / "xdg" / "bsl" / "data")):
        resolve_data_dir(None, env, tmp_path / "no-shared")
    with pytest.raises(DataDirNotFound, match=r"from BSL_DATA_DIR\) is not a directory: run `bsl data fetch --to"):
        resolve_data_dir(None, {**env, "BSL_DATA_DIR": str(tmp_path / "nope")}, tmp_path / "no-shared")
    assert resolve_data_dir(tmp_path, env).path == tmp_path


def test_missing_tasks(fetched_data, tmp_path):
    from bsl_pipeline.evaluation.tasks import missing_tasks

    assert missing_tasks(fetched_data, ["sts12", "stsb", "sickr"]) == []
    (tmp_path / "stsbenchmark").mkdir()
    assert missing_tasks(tmp_path, ["sts12", "stsb", "sickr"]) == ["sts12", "sickr"]


def test_auto_data_setting_follows_bsl_data_dir(tmp_path, monkeypatch):
    from bsl_pipeline.evaluation.data_dir import resolve_data_setting

    monkeypatch.setenv("BSL_DATA_DIR", str(tmp_path))
    assert resolve_data_setting("auto", "eval.stsb_dir") == tmp_path
    assert resolve_data_setting(tmp_path / ".", "eval.stsb_dir") == tmp_path / "."
    with pytest.raises(DataDirNotFound, match="missing"):
        resolve_data_setting(tmp_path / "missing", "eval.stsb_dir")


def test_a_missing_data_dir_names_the_setting_it_came_from(tmp_path):
    """The trainer's STS-B dev directory is the config key eval.stsb_dir, not bsl evaluate's --data-dir."""
    from bsl_pipeline.evaluation.runner import dev_evaluators
    from bsl_pipeline.training.config import EvalConfig

    with pytest.raises(DataDirNotFound) as exc:
        dev_evaluators(EvalConfig(stsb_dir=str(tmp_path / "missing")))
    assert f"data dir {tmp_path / 'missing'} (from eval.stsb_dir) is not a directory" in str(exc.value)
    with pytest.raises(DataDirNotFound, match=r"missing \(from --data-dir\)"):
        resolve_data_dir(tmp_path / "missing")


# ---------------------------------------------------------------------------------------------------------------
# The command


def test_bsl_data_fetch_command(hub_mirror, tmp_path, capsys):
    from bsl_pipeline.cli.cli import main

    argv = ["data", "fetch", "--to", str(tmp_path / "d"), "--mirror", str(hub_mirror), "--sets", "sts13,stsb",
            "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"sts13: fetched into {tmp_path / 'd' / 'sts' / 'sts13'} (pooled 1500)"
    assert out[-1] == f"{tmp_path / 'd'}: 2 set(s) fetched, 0 already there"
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("stsb: already complete in ")
    assert main(["data", "fetch", "--sets", "sts18"]) == 1
    assert "bsl data: error: unknown set(s) sts18" in capsys.readouterr().err


def test_a_file_of_the_users_where_a_fetch_manifest_goes_is_refused_and_kept(hub_mirror, tmp_path):
    from bsl_pipeline.pipeline.base.ownership import OwnershipError

    data = tmp_path / "data"
    (data / "data_manifests").mkdir(parents=True)
    mine = manifest_path(data, "sts16")
    mine.write_text('{"my": "own notes"}\n')
    with pytest.raises(OwnershipError, match=r"sts16\.json exists and is not a fetch manifest"):
        _fetch(hub_mirror, data, ["sts16"])
    assert mine.read_text() == '{"my": "own notes"}\n'
    mine.unlink()
    assert _fetch(hub_mirror, data, ["sts16"]) == {"sts16": "fetched"}
    assert _fetch(hub_mirror, data, ["sts16"], force=True) == {"sts16": "fetched"}  # its own: rewritten


def test_label_names_with_tabs_do_not_inject_tsv_rows(tmp_path):
    from datasets import ClassLabel, Dataset, Features, Value

    from bsl_pipeline.evaluation.public_data import DataFetchConfig, fetch_public_sets, manifest_path

    path = tmp_path / "mirror" / "SetFit" / "sst2"
    path.mkdir(parents=True)
    features = Features({"text": Value("string"), "label": ClassLabel(names=["negative", "positive\tinjected\nfake"])})
    for split in ("train", "validation", "test"):
        Dataset.from_dict({"text": ["good", "bad"], "label": [1, 0]}, features=features).to_parquet(
            str(path / f"{split}.parquet"))
    cfg = DataFetchConfig(to=str(tmp_path / "d"), mirror=str(tmp_path / "mirror"), progress=False, sets=["sst2"])
    fetch_public_sets(cfg, log=lambda _: None)
    assert (tmp_path / "d" / "senteval" / "sst2" / "test.tsv").read_text() == "label\tsentence\nnegative\tbad\n"
    manifest = json.loads(manifest_path(tmp_path / "d", "sst2").read_text())
    assert manifest["splits"]["test"]["dropped"] == {
        "tab or line break inside the label (the files are tab- and line-separated)": 1}
