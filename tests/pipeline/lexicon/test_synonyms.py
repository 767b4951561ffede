"""WordNet synonym augmenter and WordNet set-up: checked against nltk's WordNet and sacremoses directly."""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import shutil
from pathlib import Path

import pytest

from bsl_pipeline.pipeline.augment.augmenters import SourceRecord, build_augmenter
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.lexicon.stopwords import ENGLISH_STOPWORDS
from synonym_params import nested

WORD = re.compile(r"[^\W\d_]+(?:['\-][^\W\d_]+)*")

# The v3 quality rules off (keep_words, word frequency, modified nouns, derivations): many more eligible words, for
# the tests that count fractions and views rather than judge quality.
# SemCor counts of v5 (before round five raised them to 20 and 10): the rule tests below need words with thin counts.
COUNTS_V5 = {"min_word_count": 2, "min_lemma_count": 1}
LOOSE = {**COUNTS_V5, "keep_words": [], "min_zipf": 0.0, "max_zipf_drop": 8.0, "keep_modified_nouns": False,
         "skip_derived": False, "min_substitute_pos_share": 0.0,
         "min_substitute_sense_share": 0.0, "avoid_substitutions": [], "keep_prepositional_verbs": False,
         "keep_ing_modifiers": False, "check_transitivity": False, "skip_plural_lemmas": False}

MIXED_SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "Children were playing happily in the small park, and their parents watched.",
    "Two women are embracing while holding to go packages .",
    "A man in a blue shirt is repairing an old bicycle outside his house!",
    "Scientists discovered a new species of frog in the dense tropical forest.",
    "She quickly finished the difficult exam and left the crowded room.",
    "Heavy rain caused serious flooding across the northern region (again).",
    "Our teacher explained the lesson clearly; everyone understood it.",
]


@pytest.fixture(scope="module")
def wn_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("wordnet_cache")


@pytest.fixture(scope="module")
def make(wn_cache):
    def _make(**params):
        aug = build_augmenter("synonyms", nested({"cache_dir": str(wn_cache), **params}))
        aug.ensure_ready()
        return aug

    return _make


@pytest.fixture(scope="module")
def wn(make):
    """nltk's own WordNet reader (nltk.corpus.wordnet), usable once the augmenter has put WordNet on nltk's path."""
    make()
    from nltk.corpus import wordnet

    wordnet.ensure_loaded()
    return wordnet


@pytest.fixture(scope="module")
def example_sentences(wn) -> list[str]:
    """200 WordNet example sentences of at least 5 words, in WordNet's own order."""
    out = []
    for synset in wn.all_synsets("v"):
        for ex in synset.examples():
            if len(ex.split()) >= 5 and ex not in out:
                out.append(ex)
        if len(out) >= 200:
            return out[:200]
    raise AssertionError("WordNet has fewer than 200 verb example sentences")


def moses_tokens(text: str) -> list[str]:
    from sacremoses import MosesTokenizer

    return MosesTokenizer(lang="en").tokenize(text, escape=False)


def wordnet_synonyms(wn, word: str) -> set[str]:
    """Lemma names (lower case, underscores) of every synset of `word` that are made of words, minus the word and
    its base forms."""
    key = word.lower()
    same = {key}
    for pos in "nvar":
        same.update(b.lower() for b in wn._morphy(key, pos))
    names = {name.lower() for s in wn.synsets(key) for name in s.lemma_names()}
    return {n for n in names if all(WORD.fullmatch(part) for part in n.split("_"))} - same


def records(texts: list[str], prefix: str = "r") -> list[SourceRecord]:
    return [SourceRecord(f"{prefix}{i}", t) for i, t in enumerate(texts)]


def base_forms(wn, word: str) -> set[str]:
    key = word.lower()
    return {key} | {b.lower() for pos in "nvar" for b in wn._morphy(key, pos)}


def check_pair(wn, original: str, view: str, changes: list) -> None:
    """`view` is `original` with exactly the listed tokens replaced by (inflected) WordNet synonyms and, before a
    replaced word, "a"/"an" fixed; nothing else changed."""
    from bsl_pipeline.pipeline.lexicon.inflection import indefinite_article

    tokens = moses_tokens(original)
    expected: list[str] = []
    replaced = {index: new for index, _, new in changes}
    for i, tok in enumerate(tokens):
        if i in replaced:
            expected.extend(moses_tokens(replaced[i]))
        elif i + 1 in replaced and tok.lower() in ("a", "an"):
            article = indefinite_article(replaced[i + 1])
            expected.append(article.capitalize() if tok[0].isupper() else article)
        else:
            expected.append(tok)
    assert moses_tokens(view) == expected
    for index, old, new in changes:
        assert tokens[index] == old
        assert WORD.fullmatch(old) and old.lower() not in ENGLISH_STOPWORDS
        assert new.lower() != old.lower() and "_" not in new
        forms = {f.replace(" ", "_") for f in base_forms(wn, new)}
        assert forms & wordnet_synonyms(wn, old), (old, new)


def test_fraction_of_eligible_words_and_every_replacement_is_a_wordnet_synonym(make, wn, example_sentences):
    aug = make(min_words=0, skip_proper_nouns=False, **LOOSE)
    pairs = list(aug.augment(records(example_sentences), seed=7))
    assert len(pairs) == 200
    total_eligible = total_replaced = 0
    for text, pair in zip(example_sentences, pairs):
        eligible = sum(1 for tok in moses_tokens(text)
                       if WORD.fullmatch(tok) and tok.lower() not in ENGLISH_STOPWORDS and wordnet_synonyms(wn, tok))
        assert pair.info["eligible"] <= eligible  # only words with a safe substitute where they stand
        total_eligible += pair.info["eligible"]
        assert pair.view1 == text
        if pair.reject is not None:
            assert pair.reject.split(":")[0] in ("identical_views", "no_eligible_word") and pair.view2 == text
            assert pair.info.get("replaced", 0) == 0
            continue
        assert 1 <= pair.info["replaced"] == len(pair.info["changes"]) <= eligible
        total_replaced += pair.info["replaced"]
        check_pair(wn, text, pair.view2, pair.info["changes"])
    assert total_eligible > 50
    assert abs(total_replaced / total_eligible - 0.5) < 0.1, total_replaced / total_eligible


def test_other_fractions_are_honoured(make, example_sentences):
    for fraction in (0.1, 0.5, 1.0):
        pairs = list(make(fraction=fraction, min_words=0, **LOOSE).augment(records(example_sentences), seed=3))
        eligible = sum(p.info["eligible"] for p in pairs)
        replaced = sum(p.info.get("replaced", 0) for p in pairs)
        assert abs(replaced / eligible - fraction) < 0.03, (fraction, replaced / eligible)


def test_default_replaces_at_least_one_word_and_leaves_stopwords_and_punctuation(make, wn):
    texts = MIXED_SENTENCES + ["It is what it is, and that's that.", "... !!! ???", "of the and to"]
    pairs = list(make(**COUNTS_V5).augment(records(texts), seed=1))
    for text, pair in zip(texts, pairs):
        if pair.reject:
            assert pair.reject.startswith("no_eligible_word:") and pair.info["eligible"] == 0 and pair.view2 == text
            continue
        assert pair.info["replaced"] >= 1
        check_pair(wn, text, pair.view2, pair.info["changes"])
    # the reason of the word that came furthest: none of these words is more than a stopword or punctuation
    assert [p.reject for p in pairs[-3:]] == ["no_eligible_word:stopword", "no_eligible_word:not_a_word",
                                              "no_eligible_word:stopword"]
    assert sum(p.reject is None for p in pairs[:len(MIXED_SENTENCES)]) >= len(MIXED_SENTENCES) // 2


def test_multiword_lemmas_are_off_by_default_and_use_spaces_when_on(make, wn):
    texts = [f"The dog barked at the {w} near the station." for w in ("car", "cat", "house", "computer")] * 5
    default = list(make(fraction=1.0).augment(records(texts), seed=11))
    assert all(" " not in new for p in default for _, _, new in p.info.get("changes", []))
    with_multi = list(make(fraction=1.0, multiword=True, min_lemma_count=0, mutual_sense=False).augment(
        records(texts), seed=11))
    for text, pair in zip(texts, with_multi):
        if pair.reject is None:
            check_pair(wn, text, pair.view2, pair.info["changes"])
            assert not any("_" in new for _, _, new in pair.info["changes"])


def test_capitalisation_of_the_original_word_is_kept(make, wn):
    texts = ["Doctors work hard.", "Large buildings matter.", "The BIG BUILDING stands.", "DOCTORS are busy today."]
    seen_upper = seen_title = False
    for seed in range(5):
        for text, pair in zip(texts, make(fraction=1.0, skip_proper_nouns=False).augment(records(texts), seed=seed)):
            check_pair(wn, text, pair.view2, pair.info.get("changes", []))
            for _, old, new in pair.info.get("changes", []):
                if len(old) > 1 and old.isupper():
                    assert new == new.upper()
                    seen_upper = True
                elif old[0].isupper():
                    assert new[0].isupper()
                    seen_title = True
    assert seen_upper and seen_title


def test_capitalised_words_inside_a_sentence_are_left_alone_by_default(make):
    text = "Yesterday John met Mary near the old church in Paris with NASA engineers."
    protected = {"John", "Mary", "Paris", "NASA"}
    for seed in range(20):
        (pair,) = make(fraction=1.0).augment([SourceRecord("x", text)], seed=seed)
        olds = {old for _, old, _ in pair.info.get("changes", [])}
        assert not olds & protected
        assert all(word in pair.view2 for word in protected)


def test_deterministic_per_seed_and_independent_of_batching(make, example_sentences):
    aug = make(**COUNTS_V5)
    recs = records(example_sentences[:60])
    a = [(p.view1, p.view2, p.reject) for p in aug.augment(recs, seed=5)]
    b = [(p.view1, p.view2, p.reject) for p in aug.augment(recs, seed=5, batch_size=7)]
    c = [(p.view1, p.view2, p.reject) for p in make(**COUNTS_V5).augment(recs, seed=6)]
    assert a == b
    assert a != c
    # one record's view depends on its own id, not on its neighbours
    single = [(p.view1, p.view2, p.reject) for p in aug.augment(recs[10:11], seed=5)]
    assert single == a[10:11]


def test_both_views_are_augmented_independently(make, wn):
    pairs = list(make(views="both", **LOOSE).augment(records(MIXED_SENTENCES), seed=2))
    assert sum(p.reject is None for p in pairs) >= 3
    for text, pair in zip(MIXED_SENTENCES, pairs):
        if pair.reject:
            continue
        assert pair.view1 != text and pair.view2 != text and pair.view1 != pair.view2
        check_pair(wn, text, pair.view1, pair.info["changes_view1"])
        check_pair(wn, text, pair.view2, pair.info["changes"])


def test_bad_config_values_are_clear_errors(wn_cache):
    with pytest.raises(BSLError, match="fraction"):
        build_augmenter("synonyms", nested({"fraction": 1.5}))
    for key, value in (("min_pos_share", 2.0), ("min_sense_share", -0.1), ("senses", 0), ("min_lemma_count", -1)):
        with pytest.raises(BSLError, match=rf"method_params\.synonyms\.words\.{key}\b"):
            build_augmenter("synonyms", nested({key: value}))
    with pytest.raises(BSLError, match="views"):
        build_augmenter("synonyms", nested({"views": "third"}))
    with pytest.raises(BSLError, match="unknown config key"):
        build_augmenter("synonyms", nested({"fractoin": 0.2}))


def test_model_identities_are_sha256_of_the_wordnet_files_and_paths_stay_out_of_the_fingerprint(make, wn_cache):
    aug = make()
    ids = aug.model_identities()
    root = Path(str(aug._location.root))
    for name in ("data.noun", "data.verb", "data.adj", "data.adv", "index.noun", "noun.exc"):
        assert ids[f"wordnet/{name}"] == hashlib.sha256((root / name).read_bytes()).hexdigest()
    fp = aug.fingerprint()
    assert "wordnet_dir" not in fp["params"] and "cache_dir" not in fp["params"]
    other = make()
    other.config.cache_dir = "/elsewhere"
    assert other.fingerprint_hash() == aug.fingerprint_hash()
    assert ids["wordnet/index.sense"] == hashlib.sha256((root / "index.sense").read_bytes()).hexdigest()
    from importlib.metadata import version

    assert ids["wordfreq"] == f"{version('wordfreq')}/large"  # the frequency table ships with the package
    changed = {"fraction": 0.2, "min_pos_share": 0.6, "min_sense_share": 0.3, "senses": 2, "min_lemma_count": 0,
               "min_word_count": 5, "mutual_sense": False, "keep_collocations": False, "keep_compounds": False,
               "multiword": True, "skip_proper_nouns": False, "keep_modified_nouns": False, "keep_modifiers": True,
               "keep_words": ["say"], "min_zipf": 2.0, "max_zipf_drop": 2.0, "skip_derived": False,
               "min_substitute_pos_share": 0.2, "min_substitute_sense_share": 0.0, "avoid_substitutions": [],
               "min_candidate_similarity": 0.5, "keep_prepositional_verbs": False, "keep_ing_modifiers": False,
               "check_transitivity": False, "skip_plural_lemmas": False}
    hashes = {key: make(**{key: value}).fingerprint_hash() for key, value in changed.items()}
    assert aug.fingerprint_hash() not in hashes.values() and len(set(hashes.values())) == len(changed)


# -- WordNet discovery and set-up ---------------------------------------------------------------------------------

def system_wordnet_dir() -> Path:
    from bsl_pipeline.pipeline.lexicon import wordnet

    for candidate in (os.environ.get("WNSEARCHDIR"), wordnet.DEFAULT_SYSTEM_DIR):
        if candidate and not wordnet.missing_files(Path(candidate)):
            return Path(candidate)
    pytest.skip("no system WordNet database (apt-get install wordnet-base wordnet-sense-index)")


def test_missing_wordnet_dir_in_config_is_a_clear_error(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    aug = build_augmenter("synonyms", nested({"wordnet_dir": str(empty), "cache_dir": str(tmp_path / "cache")}))
    with pytest.raises(BSLError) as err:
        aug.ensure_ready()
    msg = str(err.value)
    assert str(empty) in msg and "lacks data.noun" in msg
    assert "apt-get install wordnet-base wordnet-sense-index" in msg
    assert "method_params.synonyms.wordnet_dir" in msg and "WNSEARCHDIR" in msg
    missing = build_augmenter("synonyms", nested({"wordnet_dir": str(tmp_path / "nope")}))
    with pytest.raises(BSLError, match="does not exist"):
        missing.model_identities()


def test_wnsearchdir_and_the_final_error_when_nothing_is_found(tmp_path, monkeypatch):
    import nltk

    from bsl_pipeline.pipeline.lexicon import wordnet

    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path / "no_nltk_data")])
    monkeypatch.setenv("WNSEARCHDIR", str(empty))
    with pytest.raises(BSLError, match=r"from \$WNSEARCHDIR.*apt-get install wordnet-base wordnet-sense-index"):
        wordnet.locate_wordnet(None, tmp_path / "cache", config_key="method_params.synonyms.wordnet_dir")
    monkeypatch.delenv("WNSEARCHDIR")
    monkeypatch.setattr(wordnet, "DEFAULT_SYSTEM_DIR", str(empty))
    with pytest.raises(BSLError) as err:
        wordnet.locate_wordnet(None, tmp_path / "cache", config_key="method_params.synonyms.wordnet_dir")
    msg = str(err.value)
    assert "WordNet not found" in msg and "apt-get install wordnet-base wordnet-sense-index" in msg
    assert "method_params.synonyms.wordnet_dir" in msg and "WNSEARCHDIR" in msg and "Nothing is downloaded" in msg


def test_wnsearchdir_is_set_up_when_nltk_has_no_wordnet(tmp_path, monkeypatch):
    import nltk

    from bsl_pipeline.pipeline.lexicon import wordnet

    source = system_wordnet_dir()
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path / "no_nltk_data")])
    monkeypatch.setenv("WNSEARCHDIR", str(source))
    loc = wordnet.locate_wordnet(None, tmp_path / "cache")
    assert Path(str(loc.root)) == tmp_path / "cache" / "corpora" / "wordnet"
    assert "WNSEARCHDIR" in loc.origin
    assert str(tmp_path / "cache") in nltk.data.path
    # now nltk's data path has it: the next lookup uses it without another set-up
    again = wordnet.locate_wordnet(None, tmp_path / "other_cache")
    assert again.origin.startswith("nltk data path") and not (tmp_path / "other_cache").exists()


def test_system_wordnet_is_copied_once_with_generated_lexnames(tmp_path):
    from bsl_pipeline.pipeline.lexicon import wordnet

    source = tmp_path / "system"
    shutil.copytree(system_wordnet_dir(), source)
    (source / "lexnames").unlink(missing_ok=True)
    target = wordnet.set_up_system_wordnet(source, tmp_path / "cache")
    assert target == tmp_path / "cache" / "corpora" / "wordnet"
    lines = (target / "lexnames").read_text().splitlines()
    assert len(lines) == 45
    assert lines[0] == "00\tadj.all\t3" and lines[3] == "03\tnoun.Tops\t1" and lines[44] == "44\tadj.ppl\t3"
    for name in wordnet.REQUIRED_FILES:
        assert (target / name).read_bytes() == (source / name).read_bytes()
    assert not [p for p in target.parent.iterdir() if p.name.startswith(".wordnet")]  # no temp dirs left
    stamp = (target / "data.noun").stat().st_mtime_ns
    assert wordnet.set_up_system_wordnet(source, tmp_path / "cache") == target
    assert (target / "data.noun").stat().st_mtime_ns == stamp  # reused, not copied again
    # a changed source (package upgrade) is copied again
    with open(source / "verb.exc", "a") as fh:
        fh.write("zzzs zzz\n")
    wordnet.set_up_system_wordnet(source, tmp_path / "cache")
    assert (target / "verb.exc").read_text().endswith("zzzs zzz\n")


def test_lexnames_from_the_man_page_match_the_builtin_table():
    from bsl_pipeline.pipeline.lexicon import wordnet

    page = next((Path(p) for p in wordnet.LEXNAMES_MAN_PAGES if Path(p).is_file()), None)
    if page is None:
        pytest.skip("the wordnet package's man pages are not installed")
    text, origin = wordnet.lexnames_text()
    assert origin == str(page)
    builtin, builtin_origin = wordnet.lexnames_text(man_pages=())
    assert builtin_origin == "built-in WordNet 3.0 table"
    assert text == builtin
    raw = gzip.open(page, "rt").read() if page.suffix == ".gz" else page.read_text()
    assert wordnet.lexnames_from_man_page(raw)[18] == "noun.person"
    assert wordnet.lexnames_from_man_page("no table here") == []


# -- the fast paths agree with the libraries they stand in for ----------------------------------------------------

TRICKY = [
    "Mr. Smith went to Washington.", "He arrived at 5 p.m. on Friday.", "A man.", "It costs 5,300 dollars.",
    "I saw Mr.", "Go to No. 5 now", "Art.", "rock'n'roll forever", "The dogs' toys", "In the 90's", "'Tis so",
    "Wait -- what?!", "Really?", "Hello , world .", "a-b-c - d", "x.", "Well-known t-shirts, jeans; hats: yes!",
    "He said: no", "Don't stop believing.", "O'Neil's dog.", "Look...", "A.B.C.", "end with space. ", "  spaced  out ",
    "", ".", "?", "one,two", "one ,two", "Email me at a@b.c", "Cost: $5.", "3.5 kg", "U.S.", "e.g. this", "A.",
]


def test_fast_tokenizer_matches_sacremoses_on_real_and_tricky_sentences(wn, example_sentences, shared_data):
    import csv

    from sacremoses import MosesTokenizer

    from bsl_pipeline.pipeline.lexicon.moses_tokens import moses_fast_tokens

    moses = MosesTokenizer(lang="en")
    keep = frozenset(moses.NONBREAKING_PREFIXES) - frozenset(moses.NUMERIC_ONLY_PREFIXES)
    sentences = set(TRICKY) | set(example_sentences)
    with open(shared_data / "nli" / "snli" / "dev.csv", newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            sentences.update((row["premise"], row["hypothesis"]))
    fast = 0
    for text in sorted(sentences):
        result = moses_fast_tokens(text, keep)
        if result is None:
            continue
        fast += 1
        tokens, spans = result
        assert tokens == moses.tokenize(text, escape=False), text
        assert [text[a:b] for a, b in spans] == tokens
    assert len(sentences) > 13000
    assert fast / len(sentences) > 0.75  # most real sentences take the fast path


def test_synset_lemma_names_read_from_the_data_files_match_nltk(make, wn):
    from bsl_pipeline.pipeline.lexicon.wordnet import load_synset_lemmas

    aug = make()
    table = load_synset_lemmas(aug._location)
    # every 40th lemma's synsets, plus adjectives whose lemmas carry syntactic markers such as "(a)" or "(ip)"
    synsets = {(pos, offset) for lemma, by_pos in list(wn._lemma_pos_offset_map.items())[::40]
               for pos, offsets in by_pos.items() for offset in offsets}
    data_adj = Path(str(aug._location.root)) / "data.adj"
    with open(data_adj, "rb") as fh:
        offset = 0
        for line in fh:
            if not line.startswith(b" ") and re.search(rb"^\S+ \d\d [as] [0-9a-f]{2} [^|]*\w\(\w+\) ", line):
                synsets.add(("a", offset))
            offset += len(line)
    marked = sum(1 for pos, _ in synsets if pos == "a")
    assert len(synsets) > 3000 and marked > 100
    for pos, offset in synsets:
        assert table(pos, offset) == wn.synset_from_pos_and_offset(pos, offset).lemma_names(), (pos, offset)
    with pytest.raises(BSLError, match="no synset at offset 3"):
        table("n", 3)


def test_ranking_encoder_keeps_the_best_candidate_and_its_checksum_is_in_the_fingerprint(make, tiny_bert_dir, tmp_path):
    """The real ranking path on a tiny BERT built offline: each changed word gets one candidate, the one with the
    highest cosine in context, recorded with the change; the encoder's path stays out of the fingerprint, its
    checksum goes in; a threshold no candidate reaches leaves the sentence unchanged with a reason."""
    from bsl_pipeline.pipeline.lexicon.sentence_similarity import SentenceSimilarity

    text = "A large dog is running quickly through the field."
    plain = make(fraction=1.0)
    ranked = make(fraction=1.0, rank_encoder=str(tiny_bert_dir))
    assert "rank_encoder" not in ranked.fingerprint()["params"]
    assert ranked.model_identities()["rank_encoder"] != "" and ranked.fingerprint_hash() != plain.fingerprint_hash()
    (pair,) = ranked.augment([SourceRecord("r", text)], seed=0)
    assert not pair.reject and pair.info["changes"]
    tokens, spans = ranked._tokenize(text)
    candidates = dict(plain._eligible(tokens))  # index -> every safe substitute, unranked
    similarity = SentenceSimilarity(tiny_bert_dir, "test")
    for index, old, new, cosine in pair.info["changes"]:
        scores = similarity.similarities([[text] + [ranked._variant(text, tokens, spans, index, c)
                                                    for c in candidates[index]]])[0]
        assert new in candidates[index] and abs(max(scores) - cosine) < 1e-3
        assert abs(scores[candidates[index].index(new)] - cosine) < 1e-3
    (none,) = make(fraction=1.0, rank_encoder=str(tiny_bert_dir), min_candidate_similarity=1.0).augment(
        [SourceRecord("r", text)], seed=0)
    assert none.reject == "no_similar_substitute" and none.info["eligible"] >= 1
    with pytest.raises(BSLError, match="method_params.synonyms.rank_encoder"):
        make(rank_encoder=str(tmp_path)).ensure_ready()
