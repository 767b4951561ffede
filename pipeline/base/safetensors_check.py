"""Check a safetensors file's header before the safetensors library parses it (untrusted input).

A safetensors file is an 8-byte little-endian header length, a JSON header {name: {"dtype", "shape",
"data_offsets": [begin, end]}, "__metadata__": {str: str}}, then the tensor bytes. A damaged or hostile file (a
header length of terabytes, offsets past the end, a truncated file, a shape that does not match its bytes) must
stop with one line naming the file and the tensor, not a traceback or an allocation of the claimed size.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.inside import path_inside

#: The largest header accepted; real headers are a few hundred bytes per tensor (the library's own limit is 100 MB).
MAX_HEADER_BYTES = 100_000_000
DTYPE_BYTES = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "I16": 2, "U16": 2, "F16": 2, "BF16": 2,
               "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8, "F64": 8}
_WEIGHT_SUFFIXES = (".weight", ".bias")


def safetensors_problem(path: str | Path) -> str | None:
    """What is wrong with the file's layout (None when nothing): header length, JSON, every tensor's dtype, shape
    and offsets against the file's real size, and floating-point dtypes for weights and biases."""
    path = Path(path)
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            head = fh.read(8)
            if len(head) < 8:
                return "truncated: shorter than the 8-byte header length"
            header_len = int.from_bytes(head, "little")
            if header_len > MAX_HEADER_BYTES or header_len > size - 8:
                return f"header length {header_len} exceeds the file ({size} bytes) or the limit {MAX_HEADER_BYTES}"
            raw = fh.read(header_len)
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        return f"header is not valid JSON ({exc})"
    if not isinstance(header, dict):
        return "header is not a JSON object"
    data_size = size - 8 - header_len
    spans = []
    for name, info in header.items():
        if name == "__metadata__":
            if not isinstance(info, dict) or not all(isinstance(v, str) for v in info.values()):
                return "__metadata__ is not a mapping of strings"
            continue
        problem = _tensor_problem(name, info, data_size)
        if problem:
            return problem
        spans.append((*info["data_offsets"], name))
    covered = 0
    for begin, end, name in sorted(spans):  # the tensors tile the data section: no gap, no overlap (as the library)
        if begin != covered:
            return f"tensor {name!r}: data starts at byte {begin}, the tensor before it ends at {covered}"
        covered = end
    if covered != data_size:
        return f"tensor data ends at byte {covered} of a {data_size}-byte data section (truncated or padded)"
    return None


def _tensor_problem(name: str, info: object, data_size: int) -> str | None:
    if not isinstance(info, dict):
        return f"tensor {name!r}: entry is not an object"
    dtype, shape, offsets = info.get("dtype"), info.get("shape"), info.get("data_offsets")
    if dtype not in DTYPE_BYTES:
        return f"tensor {name!r}: unknown dtype {dtype!r}"
    if not isinstance(shape, list) or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0
                                              for d in shape):
        return f"tensor {name!r}: shape {shape!r} is not a list of non-negative integers"
    if (not isinstance(offsets, list) or len(offsets) != 2
            or not all(isinstance(o, int) and not isinstance(o, bool) for o in offsets)
            or not 0 <= offsets[0] <= offsets[1] <= data_size):
        return f"tensor {name!r}: data_offsets {offsets!r} outside the {data_size}-byte data section"
    expected = math.prod(shape) * DTYPE_BYTES[dtype]
    if offsets[1] - offsets[0] != expected:
        return (f"tensor {name!r}: shape {shape} of {dtype} needs {expected} bytes, its offsets give "
                f"{offsets[1] - offsets[0]}")
    if name.endswith(_WEIGHT_SUFFIXES) and not (dtype.startswith(("F", "BF"))):
        return f"tensor {name!r}: dtype {dtype}, weights must be floating point"
    return None


def check_safetensors_dir(directory: str | Path, what: str = "model") -> None:
    """Raise BSLError (one line naming the file and the problem) for the first bad *.safetensors file in a local
    model directory (and its sub-directories: sentence-transformers modules); nothing for a hub id."""
    root = Path(directory).expanduser()
    if not root.is_dir():
        return
    for index in sorted(root.rglob("*.index.json")):
        check_shard_index(index, what)
    for path in sorted(root.rglob("*.safetensors")):
        problem = safetensors_problem(path)
        if problem:
            raise BSLError(f"{what} {path}: not a usable safetensors file: {problem}")


def check_shard_index(index: Path, what: str = "model") -> None:
    """A sharded model's index (`model.safetensors.index.json`, `pytorch_model.bin.index.json`) names its shard
    files, which transformers opens beside it: each must stay inside the index's directory (`path_inside`)."""
    try:
        data = json.loads(index.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise BSLError(f"{what} {index}: unreadable shard index ({exc})") from None
    weight_map = data.get("weight_map") if isinstance(data, dict) else None
    if not isinstance(weight_map, dict) or not all(isinstance(v, str) for v in weight_map.values()):
        raise BSLError(f"{what} {index}: expected a JSON object whose 'weight_map' maps tensor names to file names")
    for shard in sorted(set(weight_map.values())):
        path_inside(index.parent, shard, f"{index}: weight_map")
