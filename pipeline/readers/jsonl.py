"""JSON Lines: one object per line; a text field, or SNLI/MNLI's sentence1/sentence2/gold_label."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from pipeline.errors import InputError
from pipeline.readers.decoding import decoded_lines
from pipeline.readers.nli_labels import normalize_label
from pipeline.readers.records import RawRecord


def read_jsonl(path: Path, field: str = "text", encoding_errors: str = "strict", on_bad_line: str = "error",
               nli: bool | None = None) -> Iterator[RawRecord]:
    """`nli=None` detects SNLI/MNLI records (sentence1 + sentence2 + gold_label or label) on the first object."""
    for lineno, line, replaced in decoded_lines(path, encoding_errors):
        if not line.strip():
            yield RawRecord(text="", file=str(path), line=lineno, replacements=replaced)
            continue
        try:
            obj = json.loads(line)
            if not isinstance(obj, dict):
                raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
        except ValueError as exc:
            if on_bad_line == "error":
                raise InputError(f"{path}:{lineno}: invalid JSON ({exc})") from None
            yield RawRecord(text=line, file=str(path), line=lineno, error="invalid_json")
            continue
        if nli is None:
            nli = "sentence1" in obj and "sentence2" in obj and field not in obj
        if nli:
            missing = [k for k in ("sentence1", "sentence2") if k not in obj]
            label = obj.get("gold_label", obj.get("label"))
            if missing:
                if on_bad_line == "error":
                    raise InputError(f"{path}:{lineno}: missing field(s) {missing}; fields present: {sorted(obj)}")
                yield RawRecord(text=line, file=str(path), line=lineno, error="missing_field")
                continue
            yield RawRecord(text=str(obj["sentence1"]), text_b=str(obj["sentence2"]), label=normalize_label(label),
                            file=str(path), line=lineno, replacements=replaced)
            continue
        if field not in obj:
            if on_bad_line == "error":
                raise InputError(f"{path}:{lineno}: missing field {field!r}; fields present: {sorted(obj)} "
                                 f"(choose one with -o corpus.field=NAME)")
            yield RawRecord(text=line, file=str(path), line=lineno, error="missing_field")
            continue
        value = obj[field]
        yield RawRecord(text="" if value is None else str(value), file=str(path), line=lineno, replacements=replaced)
