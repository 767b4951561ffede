"""Built-in corpora that need no download: WordNet's example sentences (from the OS WordNet package), and the
unlabeled in-domain sentences of STS-B train + SICK train (from an STS data dir)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bsl_pipeline.pipeline.base.atomic import atomic_path
from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.base.ownership import check_not_input, claim_file, local_only, refuse_special_file
from bsl_pipeline.pipeline.base.text import normalize


#: The parts of speech in the order the corpus lists them (fixed: the corpus is the same on every machine), with
#: the data file holding each one's synsets (adjective satellites live in data.adj, listed by `all_synsets("a")`).
_POS_FILES = (("n", "data.noun"), ("v", "data.verb"), ("a", "data.adj"), ("r", "data.adv"))


def wordnet_examples(wordnet_dir: str | None = None, min_words: int = 4,
                     disable_progress: bool | None = None) -> list[str]:
    """Every WordNet 3.0 usage example with at least `min_words` words (whitespace collapsed), in synset order
    (about 35k sentences of 4+ words), with a progress bar over the synsets on stderr (hidden as
    `pipeline.base.progress.progress_disabled(disable_progress)` says). A `wordnet_dir` that is not a WordNet
    database is an error."""
    if min_words < 1:
        raise InputError(f"min_words must be at least 1 (got {min_words})")
    from tqdm import tqdm

    from bsl_pipeline.pipeline.base.progress import progress_disabled
    from bsl_pipeline.pipeline.lexicon.wordnet import load_wordnet, locate_wordnet

    location = locate_wordnet(wordnet_dir)
    examples = []
    with tqdm(desc="wordnet-examples: loading WordNet", unit="synset",
              disable=progress_disabled(disable_progress)) as bar:
        wn = load_wordnet(location)
        bar.reset(total=None if bar.disable else _synset_count(location))  # counted only where a bar is drawn
        for pos, data_file in _POS_FILES:
            bar.set_description(f"wordnet-examples: {data_file}")
            for synset in wn.all_synsets(pos):
                bar.update()
                for example in synset.examples():
                    example = " ".join(example.split())
                    if len(example.split()) >= min_words:
                        examples.append(example)
    return examples


def _synset_count(location) -> int:
    """How many synsets the WordNet at `location` holds: the lines of its data files less their licence header
    (the lines that start with a space)."""
    count = 0
    for _, data_file in _POS_FILES:
        with location.root.join(data_file).open() as fh:
            count += sum(1 for line in fh if not line.startswith(b" "))
    return count


def write_wordnet_examples(out_path: str | Path, wordnet_dir: str | None = None, min_words: int = 4,
                           overwrite: bool = False, disable_progress: bool | None = None) -> int:
    """Write `wordnet_examples(wordnet_dir, min_words, disable_progress)`, one per line. Returns the number of lines.

    An existing file is refused unless it already holds exactly this text or `overwrite` is set (then it is set
    aside, never deleted: `pipeline.base.ownership.claim_file`); the file is replaced atomically."""
    local_only(out_path, "the corpus file")
    out_path = Path(out_path)
    refuse_special_file(out_path)  # before WordNet is read
    examples = wordnet_examples(wordnet_dir, min_words, disable_progress)
    _write_corpus(out_path, examples, overwrite=overwrite)
    return len(examples)


def _write_corpus(out_path: str | Path, sentences: list[str], *, overwrite: bool,
                  inputs: list[Path] | None = None) -> None:
    """Write `sentences`, one per line, to `out_path`, atomically; an existing file is refused unless it already
    holds exactly this text or `overwrite` is set (`pipeline.base.ownership.claim_file`)."""
    data = "".join(sentence + "\n" for sentence in sentences).encode("utf-8")
    claim_file(out_path, overwrite=overwrite, inputs=inputs or (),
               same_content=lambda p: p.stat().st_size == len(data) and p.read_bytes() == data)
    with atomic_path(Path(out_path)) as tmp:
        tmp.write_bytes(data)


@dataclass(frozen=True)
class SentenceColumns:
    """Where the sentences of one split sit: a TSV file under the data dir and its text columns (names, or 0-based
    numbers when the file has no header). Scores and labels are other columns and never read."""

    path: str
    columns: tuple[str, ...]
    header: bool = True


def sts_sick_splits() -> dict[str, tuple[SentenceColumns, ...]]:
    """The STS-B and SICK files by role: "train" gives the in-domain corpus, "held_out" (dev, trial, test) is what
    that corpus never contains. The layout is the evaluation stage's data dir (stsbenchmark/, sick/)."""
    stsb = ("5", "6")  # genre, file, year, id, score, sentence1, sentence2 (some rows carry extra columns)
    sick = ("sentence_A", "sentence_B")
    return {
        "train": (SentenceColumns("stsbenchmark/sts-train.csv", stsb, header=False),
                  SentenceColumns("sick/SICK_train.txt", sick)),
        "held_out": (SentenceColumns("stsbenchmark/sts-dev.csv", stsb, header=False),
                     SentenceColumns("stsbenchmark/sts-test.csv", stsb, header=False),
                     SentenceColumns("sick/SICK_trial.txt", sick),
                     SentenceColumns("sick/SICK_test_annotated.txt", sick)),
    }


def _sentences(data_dir: Path, splits: tuple[SentenceColumns, ...]) -> Iterator[str]:
    from bsl_pipeline.pipeline.corpus.readers.delimited import read_delimited

    for split in splits:
        path = data_dir / split.path
        if not path.is_file():
            raise InputError(f"{path}: not found (the data dir needs stsbenchmark/ and sick/ as `bsl evaluate` "
                             f"reads them)")
        for record in read_delimited(path, "\t", columns=list(split.columns), header=split.header):
            yield normalize(record.text)


def write_sts_sick_train(data_dir: str | Path, out_path: str | Path, overwrite: bool = False) -> dict[str, int]:
    """Write the distinct sentences of STS-B train and SICK train, one per line, in file order: unlabeled
    in-domain text for view pairs. A sentence that also occurs in a dev/trial/test file (after normalising) is left
    out, so model selection on STS-B dev and the STS-B / SICK-R test numbers see no sentence trained on. (STS-B's
    sentences come from STS12-16, so some of them are STS12-16 test sentences: a transductive setting.)
    Returns counts: sentences written, and rows' sentences dropped as duplicate / held_out / empty.

    `out_path` is never one of the files read; an existing file is refused unless it already holds exactly this
    text or `overwrite` is set (then it is set aside, never deleted: `pipeline.base.ownership.claim_file`)."""
    local_only(out_path, "the corpus file")
    data_dir = Path(data_dir)
    splits = sts_sick_splits()
    inputs = [data_dir / s.path for split in splits.values() for s in split]
    check_not_input(out_path, inputs)  # before anything is read
    held_out = set(_sentences(data_dir, splits["held_out"]))
    seen: set[str] = set()
    counts = {"sentences": 0, "duplicate": 0, "held_out": 0, "empty": 0}
    kept = []
    for sentence in _sentences(data_dir, splits["train"]):
        reason = ("empty" if not sentence else "held_out" if sentence in held_out
                  else "duplicate" if sentence in seen else None)
        if reason:
            counts[reason] += 1
            continue
        seen.add(sentence)
        kept.append(sentence)
    _write_corpus(out_path, kept, overwrite=overwrite, inputs=inputs)  # about 1 MB with the public files
    counts["sentences"] = len(seen)
    return counts
