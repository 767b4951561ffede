from dataclasses import dataclass, field

import pytest

from bsl_pipeline.pipeline.augment.job import AugmentConfig
from bsl_pipeline.pipeline.base.config import ConfigError, from_dict, load_config, to_dict


@dataclass
class Inner:
    rate: float = 0.5
    names: list[str] = field(default_factory=list)


@dataclass
class Outer:
    seed: int = 1
    flag: bool = False
    mode: str | None = None
    inner: Inner = field(default_factory=Inner)
    extra: dict[str, dict] = field(default_factory=dict)


def test_yaml_then_overrides_take_precedence(tmp_path):
    cfg_file = tmp_path / "c.yaml"
    cfg_file.write_text("seed: 5\ninner:\n  rate: 0.25\n  names: [a, b]\n")
    cfg = load_config(Outer, cfg_file, ["inner.rate=0.75", "flag=true", "extra.synonyms.fraction=0.2"])
    assert cfg.seed == 5
    assert cfg.inner.rate == 0.75 and cfg.inner.names == ["a", "b"]
    assert cfg.flag is True
    assert cfg.extra == {"synonyms": {"fraction": 0.2}}


def test_comma_list_and_none():
    cfg = load_config(Outer, None, ["inner.names=x,y", "mode=null"])
    assert cfg.inner.names == ["x", "y"] and cfg.mode is None


def test_unknown_key_is_an_error_listing_valid_keys():
    with pytest.raises(ConfigError, match=r"unknown config key\(s\) inner.rat; valid keys for Inner: names, rate"):
        load_config(Outer, None, ["inner.rat=1"])


def test_type_errors_name_the_key():
    with pytest.raises(ConfigError, match="seed: expected an integer"):
        load_config(Outer, None, ["seed=abc"])
    with pytest.raises(ConfigError, match="flag: expected true/false"):
        from_dict(Outer, {"flag": "maybe"})


def test_bad_yaml_file_names_the_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("seed: [1, 2\n")
    with pytest.raises(ConfigError, match="bad.yaml line 2: invalid YAML"):
        load_config(Outer, bad)
    with pytest.raises(ConfigError, match="config file not found"):
        load_config(Outer, tmp_path / "missing.yaml")


def test_round_trip_of_the_augment_config():
    cfg = load_config(AugmentConfig, None, ["methods=[noise,identity]", "corpus.chunk_size=7"])
    again = from_dict(AugmentConfig, to_dict(cfg))
    assert again == cfg and again.corpus.chunk_size == 7


def test_one_rule_per_setting_and_errors_name_the_real_key():
    from bsl_pipeline.pipeline.augment.augmenters import build_augmenter
    from bsl_pipeline.pipeline.augment.augmenters.backtranslation import BackTranslationConfig
    from bsl_pipeline.pipeline.augment.augmenters.span_mask import SpanMaskAugmenter, SpanMaskConfig
    from bsl_pipeline.pipeline.augment.augmenters.synonyms import SynonymConfig
    from bsl_pipeline.pipeline.base.config import ConfigError, check_config, from_dict

    # cache_size=0 passed the Range(0) and then failed in __post_init__ naming methods.synonyms.cache_size.
    with pytest.raises(ConfigError, match=r"^method_params\.synonyms\.cache_size: 0 is out of range \(\[1, 100000000\]\)$"):
        build_augmenter("synonyms", {"cache_size": 0})
    with pytest.raises(ConfigError, match=r"^method_params\.span-mask\.mask_token: must not be empty$"):
        build_augmenter("span-mask", {"mask_token": "  "})
    with pytest.raises(ConfigError, match=r"^method_params\.mlm\.sdpa_backend: 'nope' is not auto, torch"):
        build_augmenter("mlm", {"sdpa_backend": "nope"})
    # A rule no Range can say (0 = off on either bound) lives once, on the class, and names its key.
    with pytest.raises(ConfigError, match=r"^method_params\.backtranslation\.min_length_ratio: 3\.0 must not "
                                          r"exceed max_length_ratio \(2\.0\)$"):
        from_dict(BackTranslationConfig, {"min_length_ratio": 3.0}, prefix="method_params.backtranslation")
    from_dict(BackTranslationConfig, {"min_length_ratio": 3.0, "max_length_ratio": 0})  # max off: fine
    # A config built in code is checked by the same rules when an augmenter gets it.
    with pytest.raises(ConfigError, match=r"^method_params\.span-mask\.span_length: 0 is out of range"):
        SpanMaskAugmenter(SpanMaskConfig(span_length=0))
    check_config(SynonymConfig(cache_size=1), "x")


def test_augmenter_errors_outside_post_init_name_the_key_as_typed(tmp_path):
    """Errors raised when models are resolved (not by the config checks) name `method_params.<m>.<key>`, the key a
    user writes in YAML or `-o`, not the manifest's `methods.<m>`."""
    from bsl_pipeline.pipeline.augment.augmenters import build_augmenter
    from bsl_pipeline.pipeline.base.errors import BSLError

    bt = build_augmenter("backtranslation", {"first_pivot": {"preset": "none"}})
    with pytest.raises(ConfigError, match=r"^method_params\.backtranslation\.first_pivot\.forward_model: required"):
        bt.pivot_models("first_pivot")
    mlm = build_augmenter("mlm", {"model": str(tmp_path / "missing")})
    with pytest.raises(BSLError, match=r"^method_params\.mlm\.model: .*missing is not a model directory"):
        mlm.model_dir()


@dataclass
class _Inner:
    a: int = 1
    b: int = 2


def _tuned_inner() -> _Inner:
    return _Inner(a=10, b=20)


@dataclass
class _Outer:
    plain: _Inner = field(default_factory=_Inner)
    tuned: _Inner = field(default_factory=_tuned_inner)


def test_keys_for_a_nested_section_go_onto_its_own_default():
    cfg = load_config(_Outer, overrides=["tuned.b=99", "plain.b=5"])
    assert (cfg.tuned.a, cfg.tuned.b) == (10, 99)  # the field's default_factory, not _Inner's defaults
    assert (cfg.plain.a, cfg.plain.b) == (1, 5)


def test_demo_override_keeps_the_recipe():
    """`bsl demo -o training.train.seed=43` changes the seed and nothing else of the demo's recipe."""
    from bsl_pipeline.flows.main_job import MainJobConfig

    recipe = MainJobConfig().training
    cfg = load_config(MainJobConfig, overrides=["training.train.seed=43", "training.optim.lr=1e-5"])
    assert (cfg.training.train.seed, cfg.training.optim.lr) == (43, 1e-5)
    cfg.training.train.seed, cfg.training.optim.lr = recipe.train.seed, recipe.optim.lr
    assert cfg.training == recipe and recipe.train.max_steps == 140 and recipe.train.batch_size == 64


def test_corpus_bounds_match_what_later_stages_accept():
    from bsl_pipeline.pipeline.augment.job import AugmentConfig
    from bsl_pipeline.pipeline.base.config import MAX_VIEW_CHARS, ConfigError, load_config

    assert load_config(AugmentConfig, None, [f"corpus.max_chars={MAX_VIEW_CHARS}"]).corpus.max_chars == MAX_VIEW_CHARS
    with pytest.raises(ConfigError, match=r"corpus\.max_chars: 20001 is out of range \(\[1, 20000\]\)"):
        load_config(AugmentConfig, None, [f"corpus.max_chars={MAX_VIEW_CHARS + 1}"])
    with pytest.raises(ConfigError, match=r"corpus\.chunk_size: 100000000 is out of range \(\[1, 1000000\]\)"):
        load_config(AugmentConfig, None, ["corpus.chunk_size=100000000"])


# -- the job on a real NLI file, run as a user runs it ---------------------------------------------------------------
@pytest.fixture
def snli50(shared_data, tmp_path):
    """The first 50 rows of SNLI's dev set (premises repeat, once per hypothesis), as `head -51` writes them."""
    lines = (shared_data / "nli/snli/dev.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    path = tmp_path / "snli50.csv"
    path.write_text("".join(lines[:51]), encoding="utf-8")
    return path


def _augment(corpus, out, *args: str):
    """`bsl augment CORPUS --out OUT ARGS` (not registered); returns the manifest it wrote."""
    from small_corpus import run_bsl

    from bsl_pipeline.pipeline.dataset.store import load_manifest

    proc = run_bsl("augment", str(corpus), "--out", str(out), "-o", "registry_dir=", *args)
    assert proc.returncode == 0, proc.stderr
    return load_manifest(out), proc.stderr


def test_a_global_filter_the_user_sets_applies_over_a_methods_own_default(snli50, tmp_path):
    """nli-entailment's own default turns the length-ratio bound off; `-o filters.min_length_ratio` given by the
    user binds it as it binds every method, and its other bound keeps the method's default."""
    import pyarrow.parquet as pq

    m, _ = _augment(snli50, tmp_path / "own", "--methods", "nli-entailment")
    assert (m.methods["nli-entailment"].filters["min_length_ratio"], m.stats.pairs) == (0.0, 14)
    m, _ = _augment(snli50, tmp_path / "set", "--methods", "nli-entailment,span-mask",
                    "-o", "filters.min_length_ratio=0.45")
    nli = m.methods["nli-entailment"].filters
    assert (nli["min_length_ratio"], nli["max_length_ratio"]) == (0.45, 1e9)
    assert m.methods["span-mask"].filters["min_length_ratio"] == 0.45
    assert m.stats.per_method["nli-entailment"].rejects == {"length_ratio_out_of_bounds": 8, "not_entailment": 36}
    ratios = [r for s in m.shards_of("pairs", ["nli-entailment"])
              for r in pq.read_table(tmp_path / "set" / s.path, columns=["length_ratio"]).column(0).to_pylist()]
    assert len(ratios) == 6 and min(ratios) >= 0.45
    m, _ = _augment(snli50, tmp_path / "per", "--methods", "nli-entailment", "-o", "filters.min_length_ratio=0.45",
                    "-o", "method_filters.nli-entailment.min_length_ratio=0.3")  # the per-method value wins
    assert m.methods["nli-entailment"].filters["min_length_ratio"] == 0.3


def test_a_method_that_reads_one_sentence_augments_each_premise_of_an_nli_file_once(snli50, tmp_path):
    """SNLI gives each premise once per hypothesis. Pair methods read every (premise, hypothesis) record; a method
    that reads one sentence reads each distinct premise once, across chunks too, and its coverage counts those."""
    import csv

    import pyarrow.parquet as pq

    with open(snli50, encoding="utf-8", newline="") as fh:
        premises = [row["premise"] for row in csv.DictReader(fh)]
    assert (len(premises), len(set(premises))) == (50, 17)
    out = tmp_path / "ds"
    m, _ = _augment(snli50, out, "--methods", "nli-entailment,synonyms,span-mask", "-o", "corpus.chunk_size=7")
    per = m.stats.per_method
    assert per["nli-entailment"].pairs + per["nli-entailment"].rejected == 50
    assert (per["span-mask"].pairs, per["span-mask"].rejected, per["span-mask"].coverage_pct) == (17, 0, 100.0)
    assert per["synonyms"].pairs + per["synonyms"].rejected == 17

    def sources(method: str, kind: str) -> list[str]:
        return [t for s in m.shards_of(kind, [method])
                for t in pq.read_table(out / s.path, columns=["source"]).column(0).to_pylist()]

    for method in ("synonyms", "span-mask"):
        read = sources(method, "pairs") + sources(method, "rejects")
        assert len(read) == len(set(read)) == 17, method
    m, _ = _augment(snli50, tmp_path / "all", "--methods", "span-mask", "-o", "corpus.dedupe=false")
    assert m.stats.per_method["span-mask"].pairs == 50  # no de-duplication: every record is read


def test_another_or_a_changed_corpus_into_a_dataset_sets_the_old_one_aside_with_one_warning(snli50, tmp_path):
    """A dataset made from another corpus, or from its corpus edited since, is another dataset (as one made with
    other methods): one warning line says what changed, and every old shard is set aside, not deleted. Other
    settings on the same corpus drop the old shards, which stay in `.work/` (the old settings give them back)."""
    from bsl_pipeline.pipeline.base.ownership import REPLACED_DIR
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    small = tmp_path / "small.txt"
    small.write_text("The cat sat on the mat.\nA man is playing a guitar.\nShe went to the market.\n", "utf-8")
    out = tmp_path / "d3"

    def shards() -> dict[str, bytes]:
        return {p.relative_to(out).as_posix(): p.read_bytes() for d in ("data", "rejects")
                for p in sorted((out / d).glob("*"))}

    def aside() -> list[tuple[str, bytes]]:
        """(path in the dataset, bytes) of each file set aside, whichever `.bsl-replaced/<time>/` holds it."""
        return sorted((p.relative_to(out / REPLACED_DIR).as_posix().split("/", 1)[1], p.read_bytes())
                      for p in (out / REPLACED_DIR).rglob("*") if p.is_file())

    def warnings(stderr: str) -> list[str]:
        return [line for line in stderr.splitlines() if line.startswith("warning:")]

    _augment(small, out, "--methods", "span-mask")
    first = shards()
    m, stderr = _augment(snli50, out, "--methods", "span-mask")
    (line,) = warnings(stderr)
    assert f"held methods span-mask (3 pairs: span-mask 3) of {small}" in line
    assert f"now holds span-mask (17 pairs: span-mask 17) of {snli50} (another corpus)" in line
    assert f"set aside in {out / REPLACED_DIR}/" in line
    assert aside() == sorted(first.items()) and m.source.corpus == str(snli50)
    verify_dataset(out, progress=False)

    second = shards()
    snli50.write_text("".join(snli50.read_text("utf-8").splitlines(keepends=True)[:-1]), "utf-8")  # a row less
    _, stderr = _augment(snli50, out, "--methods", "span-mask")
    (line,) = warnings(stderr)
    assert f"(the corpus changed: {snli50} gone or edited)" in line
    assert aside() == sorted([*first.items(), *second.items()])

    kept = shards()
    _, stderr = _augment(snli50, out, "--methods", "span-mask", "-o", "seed=1")  # other settings: the same dataset
    assert not warnings(stderr) and len(aside()) == len(first) + len(second)
    m, _ = _augment(snli50, out, "--methods", "span-mask")  # the old settings: the old shards, from .work/
    assert shards() == kept and m.stats.per_method["span-mask"].tasks_cached == m.stats.per_method["span-mask"].tasks

    grown = tmp_path / "grown"
    grown.mkdir()
    (grown / "a.txt").write_text(small.read_text("utf-8"), "utf-8")
    _augment(grown, tmp_path / "d4", "--methods", "span-mask")
    (grown / "b.txt").write_text("A dog runs in the park.\n", "utf-8")  # a corpus that gains a file: the same
    m, stderr = _augment(grown, tmp_path / "d4", "--methods", "span-mask")
    assert not warnings(stderr) and m.stats.pairs == 4 and not (tmp_path / "d4" / REPLACED_DIR).exists()


def test_a_lower_corpus_limit_on_a_directory_is_the_same_dataset_not_a_changed_corpus(tmp_path):
    """`corpus.limit` that stops before a directory's last file leaves that file unread, not gone: the rerun makes
    the same dataset (no warning, nothing set aside); the unread file is recorded as such. A file that is really
    gone is still a changed corpus."""
    from bsl_pipeline.pipeline.base.ownership import REPLACED_DIR

    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.txt").write_text("The cat sat on the mat today.\nA man is playing a guitar now.\n", "utf-8")
    (corpus / "b.txt").write_text("She went to the market early.\nA dog runs in the park fast.\n", "utf-8")
    out = tmp_path / "ds"
    m, _ = _augment(corpus, out, "--methods", "noise", "--no-progress")
    assert m.source.records_kept == 4 and not m.source.not_read
    m, stderr = _augment(corpus, out, "--methods", "noise", "-o", "corpus.limit=2", "--no-progress")
    assert "warning:" not in stderr and not (out / REPLACED_DIR).exists()
    assert m.source.records_kept == 2 and m.source.not_read == [str(corpus / "b.txt")]
    assert [f["path"] for f in m.source.files] == [str(corpus / "a.txt")]
    m, stderr = _augment(corpus, out, "--methods", "noise", "--no-progress")  # all of it again: the same, grown
    assert "warning:" not in stderr and m.source.records_kept == 4
    (corpus / "b.txt").unlink()
    _, stderr = _augment(corpus, out, "--methods", "noise", "--no-progress")
    assert f"(the corpus changed: {corpus / 'b.txt'} gone or edited)" in stderr



def test_a_rerun_that_rebuilds_the_pairs_sets_their_judgments_aside_and_an_unchanged_one_keeps_them(tmp_path):
    """Marks judge the pairs they were made on: a rerun into the same --out that rebuilds the pairs (here another
    seed) sets the judgments file aside into .bsl-replaced/ with one warning line, so the tool's own output
    verifies and can be judged anew; an unchanged rerun publishes the same pairs and keeps the marks."""
    from small_corpus import run_bsl, write_corpus

    from bsl_pipeline.pipeline.base.ownership import REPLACED_DIR
    from bsl_pipeline.pipeline.dataset.judgments import append_judgment, make_judgment, pairs_checksum
    from bsl_pipeline.pipeline.dataset.review_sample import review_sample

    corpus, out = write_corpus(tmp_path), tmp_path / "ds"
    manifest, _ = _augment(corpus, out, "--methods", "noise", "-q")
    for item in review_sample(manifest, 3, 0, set()):
        append_judgment(out / "judgments.jsonl", make_judgment(manifest, item.pair_id, item.method, "usable"))
    marks = (out / "judgments.jsonl").read_bytes()

    again, stderr = _augment(corpus, out, "--methods", "noise", "-q")  # the same pairs: the marks stay
    assert pairs_checksum(again) == pairs_checksum(manifest) and "warning" not in stderr
    assert (out / "judgments.jsonl").read_bytes() == marks and not (out / REPLACED_DIR).exists()
    verified = run_bsl("verify", str(out))
    assert verified.returncode == 0 and "3 judgment line(s)" in verified.stdout, verified.stderr

    rebuilt, stderr = _augment(corpus, out, "--methods", "noise", "-q", "-o", "seed=1")  # other views
    assert pairs_checksum(rebuilt) != pairs_checksum(manifest)
    (kept,) = (out / REPLACED_DIR).glob("*/judgments.jsonl")
    assert kept.read_bytes() == marks and not (out / "judgments.jsonl").exists()
    (line,) = [line for line in stderr.splitlines() if line.startswith("warning:")]
    assert f"{out / 'judgments.jsonl'}: 3 mark(s) judge the pairs this run replaced" in line
    assert f"set aside as {kept}" in line
    verified = run_bsl("verify", str(out))
    assert verified.returncode == 0 and "judgment line" not in verified.stdout, verified.stderr
    summary = run_bsl("review", str(out), "--summary")
    assert summary.returncode == 0 and "no judged pairs" in summary.stdout, summary.stderr

def test_a_registry_name_held_by_a_dataset_on_a_store_is_refused_as_on_disk(s3_env, tmp_path, monkeypatch):
    """Two --out URLs with the same last name register under one name: the second is refused while the first
    still holds a manifest on the store (looked up there, not on this disk), and replaces the entry once gone."""
    import json

    from bsl_pipeline.pipeline.augment.job import run_augment
    from bsl_pipeline.pipeline.base.ownership import OwnershipError
    from small_corpus import augment_config, write_corpus

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    corpus = write_corpus(tmp_path)
    bucket = s3_env.bucket()
    first, second = f"s3://{bucket}/views", f"s3://{bucket}/other/views"
    entry = tmp_path / "registry" / "datasets" / "views.json"
    run_augment(corpus, first, augment_config(tmp_path))
    assert json.loads(entry.read_text())["dataset_dir"] == first
    with pytest.raises(OwnershipError, match=rf"registers {first} under the name 'views'.*--name"):
        run_augment(corpus, second, augment_config(tmp_path))
    with pytest.raises(OwnershipError, match=rf"registers {first} under the name 'views'"):
        run_augment(corpus, tmp_path / "views", augment_config(tmp_path))  # a folder of that name too
    assert json.loads(entry.read_text())["dataset_dir"] == first
    assert not any(o["Key"].startswith("other/") for o in
                   s3_env.client().list_objects_v2(Bucket=bucket).get("Contents", []))
    run_augment(corpus, second, augment_config(tmp_path, name="other-views"))  # under another name it goes on
    s3_env.client().delete_object(Bucket=bucket, Key="views/manifest.json")  # the first dataset is gone
    run_augment(corpus, second, augment_config(tmp_path))
    assert json.loads(entry.read_text())["dataset_dir"] == second


def test_the_progress_bar_says_it_prepares_then_counts_records_out_of_the_corpus_lines(tmp_path, monkeypatch,
                                                                                        capsys):
    import gzip

    from bsl_pipeline.pipeline.augment.job import run_augment
    from bsl_pipeline.pipeline.corpus.chunks import CorpusConfig, expected_records
    from small_corpus import augment_config

    monkeypatch.delenv("BSL_NO_PROGRESS", raising=False)
    corpus = tmp_path / "corpus.txt"
    # 30 lines, 3 of them repeats (dropped as duplicates: records read all the same), the last without a newline.
    lines = [f"Sentence number {i} talks about the weather near the river." for i in range(27)] + ["A dog."] * 3
    corpus.write_text("\n".join(lines), encoding="utf-8")
    assert expected_records(corpus, CorpusConfig()) == 30
    packed = tmp_path / "packed" / "corpus.txt.gz"
    packed.parent.mkdir()
    packed.write_bytes(gzip.compress(corpus.read_bytes()))
    assert expected_records(packed.parent, CorpusConfig()) is None  # not counted: that would mean decompressing
    assert expected_records(corpus, CorpusConfig(limit=10)) == 10

    config = augment_config(tmp_path, methods=["noise"])
    config.progress = True
    run_augment(corpus, tmp_path / "ds", config)
    states = [s.strip() for s in capsys.readouterr().err.replace("\r", "\n").splitlines() if s.strip()]
    # First a line that says what the wait is, no bar frozen at 0; then the records out of the 30 lines, with an ETA.
    assert states[0] == "augment: preparing (the methods load their models) ...", states
    bars = [s for s in states if not s.startswith("augment: preparing")]
    assert bars and all(s.startswith("augment: ") and "/30 [" in s for s in bars), states
    assert bars[-1].startswith("augment: 100%") and "30/30" in bars[-1], states
    # A corpus whose lines are not counted: the total is known once it is read, and the bar ends at it.
    run_augment(packed.parent, tmp_path / "ds-packed", config)
    states = [s.strip() for s in capsys.readouterr().err.replace("\r", "\n").splitlines() if s.strip()]
    assert states[-1].startswith("augment: 100%") and "30/30" in states[-1], states
