"""SentEval/InferSent NLI triples: line i of s1.<split>, s2.<split>, labels.<split> form one pair."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.corpus.readers.decoding import LongLine, decoded_lines, too_long_record
from bsl_pipeline.pipeline.corpus.readers.nli_labels import normalize_label
from bsl_pipeline.pipeline.corpus.readers.records import RawRecord


def senteval_split_files(path: Path) -> tuple[Path, Path, Path]:
    """`.../s1.dev` (any of the three files) -> the (s1, s2, labels) paths of that split."""
    split = path.name.split(".", 1)[1]
    files = tuple(path.with_name(f"{stem}.{split}") for stem in ("s1", "s2", "labels"))
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise InputError(f"{path}: SentEval triple incomplete, missing {', '.join(missing)}")
    return files  # type: ignore[return-value]


def read_senteval(path: Path, encoding_errors: str = "strict") -> Iterator[RawRecord]:
    s1, s2, labels = senteval_split_files(path)
    it1, it2, it3 = (decoded_lines(f, encoding_errors) for f in (s1, s2, labels))
    for a, b, c in zip(it1, it2, it3, strict=False):
        (lineno, premise, r1), (_, hypothesis, r2), (_, label, _) = a, b, c
        long = next((line for line in (premise, hypothesis, label) if isinstance(line, LongLine)), None)
        if long is not None:
            yield too_long_record(s1, lineno, long)
            continue
        yield RawRecord(text=premise, text_b=hypothesis, label=normalize_label(label), file=str(s1), line=lineno,
                        replacements=r1 + r2)
    leftovers = [f for f, it in ((s1, it1), (s2, it2), (labels, it3)) if next(it, None) is not None]
    if leftovers:
        raise InputError(f"{s1}: the SentEval files {s1.name}, {s2.name}, {labels.name} have different line "
                         f"counts ({', '.join(f.name for f in leftovers)} is longer)")
