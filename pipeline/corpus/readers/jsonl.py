"""JSON Lines: one object per line; a text field, or SNLI/MNLI's sentence1/sentence2/gold_label.

A text value must be a JSON string (null counts as empty text); numbers, booleans, arrays and objects make the
line bad (`not_a_string`), as does a line nested deeper than the parser's recursion limit (`invalid_json`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.corpus.readers.decoding import LongLine, decoded_lines, too_long_record
from bsl_pipeline.pipeline.corpus.readers.nli_labels import normalize_label
from bsl_pipeline.pipeline.corpus.readers.records import DEFAULT_FIELD, RawRecord

_JSON_TYPES = {bool: "boolean", int: "number", float: "number", list: "array", dict: "object"}


def _parse(line: str) -> dict:
    try:
        obj = json.loads(line)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
    return obj


def _non_string(obj: dict, fields: tuple[str, ...]) -> str | None:
    """Why one of `fields` cannot be text (None when all are strings or null)."""
    for name in fields:
        value = obj[name]
        if value is not None and not isinstance(value, str):
            return f"field {name!r} is a JSON {_JSON_TYPES.get(type(value), type(value).__name__)}, not a string"
    return None


def read_jsonl(path: Path, field: str = DEFAULT_FIELD, encoding_errors: str = "strict", on_bad_line: str = "error",
               nli: bool | None = None) -> Iterator[RawRecord]:
    """`nli=None` detects SNLI/MNLI records (sentence1 + sentence2 + gold_label or label) on the first object."""
    for lineno, line, replaced in decoded_lines(path, encoding_errors):
        if isinstance(line, LongLine):
            yield too_long_record(path, lineno, line)
            continue
        if not line.strip():
            yield RawRecord(text="", file=str(path), line=lineno, replacements=replaced)
            continue
        try:
            obj = _parse(line)
        except ValueError as exc:
            if on_bad_line == "error":
                raise InputError(f"{path}:{lineno}: invalid JSON ({exc})") from None
            yield RawRecord(text=line, file=str(path), line=lineno, error="invalid_json")
            continue
        if nli is None:
            nli = field == DEFAULT_FIELD and "sentence1" in obj and "sentence2" in obj and field not in obj
        needed = ("sentence1", "sentence2") if nli else (field,)
        missing = [k for k in needed if k not in obj]
        problem = _non_string(obj, needed) if not missing else None
        if missing or problem:
            if on_bad_line == "error":
                if missing:
                    hint = "" if nli else " (choose one with -o corpus.field=NAME)"
                    problem = (f"missing field{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))}; "
                               f"fields present: {sorted(obj)}{hint}")
                raise InputError(f"{path}:{lineno}: {problem}")
            yield RawRecord(text=line, file=str(path), line=lineno,
                            error="missing_field" if missing else "not_a_string")
            continue
        if nli:
            yield RawRecord(text=obj["sentence1"] or "", text_b=obj["sentence2"] or "",
                            label=normalize_label(obj.get("gold_label", obj.get("label"))), file=str(path),
                            line=lineno, replacements=replaced)
            continue
        yield RawRecord(text=obj[field] or "", file=str(path), line=lineno, replacements=replaced)
