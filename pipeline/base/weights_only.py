"""The one way a refused pickle is reported. Weights are read as safetensors, or with `torch.load(...,
weights_only=True)`, which refuses (pickle.UnpicklingError) a file holding anything but tensors and plain containers
before running any of it; the refusal becomes one line naming the file, without torch's advice to load it fully."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.hub import PICKLED_WEIGHTS

#: What a file that `weights_only=True` refuses is called, wherever one is met.
NOT_WEIGHTS_ONLY = "not a weights-only file (refused: loading it would run code it carries)"
#: The start of torch's message for such a file (any other UnpicklingError is a damaged file).
_TORCH_REFUSAL = "Weights only load failed"


def pickled_weights_file(directory: Path) -> Path:
    """The pickled weights file of a model directory that loading it read (the first by name), else the directory."""
    found = sorted(p for p in directory.glob(PICKLED_WEIGHTS[0]) if p.is_file())
    return found[0] if found else directory


@contextmanager
def refusing_pickles(path: str | Path) -> Iterator[None]:
    """Around a weights-only load of `path` (a file, or a model directory: its pickled weights file is named):
    torch's refusal of a pickle that carries code, or a file torch cannot unpickle at all, becomes one BSLError
    naming the file. Nothing is unpickled either way."""
    try:
        yield
    except pickle.UnpicklingError as exc:
        where = Path(path)
        if where.is_dir():
            where = pickled_weights_file(where)
        text = str(exc)
        if text.startswith(_TORCH_REFUSAL) or "weights_only" in text:
            raise BSLError(f"{where}: {NOT_WEIGHTS_ONLY}") from None
        first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
        raise BSLError(f"{where}: not a readable PyTorch file ({first})") from None
