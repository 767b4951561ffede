"""What every corpus reader yields."""

from __future__ import annotations

from dataclasses import dataclass

#: The field (JSONL, Parquet, `datasets`) or column (CSV/TSV) read when `corpus.field` is left as it is. Only this
#: default gives way to a sentence-pair layout (premise/hypothesis, sentence1/sentence2) of a file without such a
#: field; a field the user names must be there, whatever the layout.
DEFAULT_FIELD = "text"


@dataclass(slots=True)
class RawRecord:
    """One corpus record as read, before normalisation.

    `error` is set (and `text` may be partial) when the reader could not use the line but kept going because the
    caller asked to keep bad lines (`on_bad_line="keep"`): such records become rejects with that reason.
    """

    text: str
    file: str
    line: int
    text_b: str | None = None
    label: str | None = None
    replacements: int = 0  # characters replaced while decoding (encoding_errors="replace")
    error: str | None = None

    @property
    def origin(self) -> str:
        return f"{self.file}:{self.line}"
