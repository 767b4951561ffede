"""Parquet files and `datasets` directories (save_to_disk layout), read in record batches."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.corpus.readers.nli_labels import normalize_label
from bsl_pipeline.pipeline.corpus.readers.records import DEFAULT_FIELD, RawRecord

_PAIRS = (("premise", "hypothesis"), ("sentence1", "sentence2"))


def _records_from_batches(batches, names: list[str], field: str, source: str,
                          label_names: list[str] | None = None) -> Iterator[RawRecord]:
    pair = next((p for p in _PAIRS if all(c in names for c in p)), None) if field == DEFAULT_FIELD else None
    if field in names:
        pair = None
    elif pair is None:
        raise InputError(f"{source}: no column {field!r}; columns: {names} (choose one with -o corpus.field=NAME)")
    label_col = next((c for c in ("label", "gold_label") if c in names), None)
    row = 0
    for batch in batches:
        data = batch.to_pydict()
        n = batch.num_rows
        for i in range(n):
            row += 1
            if pair is None:
                value = data[field][i]
                yield RawRecord(text="" if value is None else str(value), file=source, line=row)
                continue
            label = data[label_col][i] if label_col else None
            if label_names and isinstance(label, int) and 0 <= label < len(label_names):
                label = label_names[label]
            yield RawRecord(text=str(data[pair[0]][i] or ""), text_b=str(data[pair[1]][i] or ""),
                            label=normalize_label(label), file=source, line=row)


def read_parquet(path: Path, field: str = DEFAULT_FIELD, batch_size: int = 8192) -> Iterator[RawRecord]:
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(path)
        names = pf.schema_arrow.names
    except Exception as exc:  # pyarrow raises several types for truncated/corrupt files
        raise InputError(f"{path}: not a readable Parquet file ({exc})") from None
    try:
        yield from _records_from_batches(pf.iter_batches(batch_size=batch_size), names, field, str(path))
    except OSError as exc:
        raise InputError(f"{path}: corrupt Parquet data ({exc})") from None


def is_datasets_dir(path: Path) -> bool:
    return path.is_dir() and (path / "dataset_info.json").is_file() and (path / "state.json").is_file()


def read_datasets_dir(path: Path, field: str = DEFAULT_FIELD, batch_size: int = 8192) -> Iterator[RawRecord]:
    """A `Dataset.save_to_disk` directory; Arrow files are memory-mapped, so memory stays flat."""
    from datasets import load_from_disk

    try:
        ds = load_from_disk(str(path))
    except Exception as exc:
        raise InputError(f"{path}: cannot open as a `datasets` directory ({exc})") from None
    if hasattr(ds, "keys"):  # DatasetDict: read every split in order
        splits = [ds[k] for k in ds.keys()]
    else:
        splits = [ds]
    for split in splits:
        label_feature = split.features.get("label")
        label_names = getattr(label_feature, "names", None)
        yield from _records_from_batches(split.data.to_batches(max_chunksize=batch_size), split.column_names,
                                         field, str(path), label_names)
