"""Prefect's persisted task results are untrusted input: they live inside the dataset directory.

Prefect deserialises a result record with the serializer the record itself names: a record that says `pickle` is
unpickled, and a JSON record's default decoder imports whatever class its payload names. So a copied or hand-edited
dataset directory could run code when a flow looks up its cache. The augmentation tasks therefore persist results
with one pinned serializer (`pinned_serializer`: plain `json`, no hooks), and before Prefect looks a key up the
record file under it is checked with the standard library alone (`untrusted_reason`). A record that fails the check
is removed with a warning, never deserialised: Prefect then finds no record, runs the task (which finds its
finished shards through the library's completion marker) and writes a trusted record in its place.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.errors import BSLError

RECORD_KEYS = {"metadata", "result"}
METADATA_KEYS = {"storage_key", "expiration", "serializer", "prefect_version", "storage_block_id"}


def pinned_serializer():
    """The only serializer a persisted result may name: the standard `json` module, no object encoder or decoder,
    so reading a result imports and calls nothing (results are plain dicts of str, numbers and bools)."""
    from prefect.serializers import JSONSerializer

    return JSONSerializer(object_encoder=None, object_decoder=None)


def _read_json(data: bytes | str) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:  # ValueError: not JSON or not UTF-8; RecursionError: too deep
        raise ValueError(f"not JSON ({type(exc).__name__})") from None


def _metadata_problem(metadata: dict[str, Any], path: Path) -> str | None:
    if metadata.get("serializer") != pinned_serializer().model_dump(mode="json"):
        return f"serializer {json.dumps(metadata.get('serializer'))[:200]} is not the pinned plain JSON serializer"
    if set(metadata) - METADATA_KEYS:
        return f"unexpected metadata keys {sorted(set(metadata) - METADATA_KEYS)}"
    if metadata.get("storage_block_id") is not None or metadata.get("storage_key") not in (None, str(path.resolve())):
        return "it names other storage than its own file"
    if not isinstance(metadata.get("expiration"), (str, type(None))):
        return "malformed expiration"
    return None


def untrusted_reason(path: Path, max_bytes: int) -> str | None:
    """Why the result record at `path` must not be handed to Prefect; None when it may, or when there is none."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be checked ({exc})"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if info.st_size > max_bytes:
        return f"larger than {max_bytes} bytes"
    try:
        record = _read_json(path.read_bytes())
        if not isinstance(record, dict) or set(record) != RECORD_KEYS or not isinstance(record["metadata"], dict):
            return "not a Prefect result record"
        problem = _metadata_problem(record["metadata"], path)
        if problem is None and not (isinstance(record["result"], str)
                                    and isinstance(_read_json(record["result"]), dict)):
            problem = "its result is not a JSON object"
        return problem
    except (ValueError, OSError) as exc:
        return str(exc)


def discard_untrusted_record(path: Path, max_bytes: int, logger: Any) -> bool:
    """Remove the record at `path` (warning through `logger`) unless it passes `untrusted_reason`. True if removed.
    A record that cannot be removed is an error: the task then runs without the cache (Prefect logs it)."""
    reason = untrusted_reason(path, max_bytes)
    if reason is None:
        return False
    try:
        path.unlink()
    except OSError as exc:
        raise BSLError(f"untrusted cached result {path}: {reason}; cannot remove it ({exc})") from None
    logger.warning("untrusted cached result %s: %s; discarded unread, the task runs again", path, reason)
    return True
