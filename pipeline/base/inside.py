"""The one check for a path that a file someone else wrote names (a dataset manifest, a checkpoint record, a
sentence-transformers modules.json): relative, no '..', and (symlinks followed) inside the directory holding it."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from bsl_pipeline.pipeline.base.errors import InputError


def path_inside(root: str | Path, relative: str, where: str, what: str = "") -> Path:
    """`root / relative`, once `relative` is known to stay inside `root`; raises InputError naming `where` and the
    offending path otherwise. `what` names the kind of directory `root` is in the message ("the dataset
    directory"); empty, the message names `root` alone. Opens nothing."""
    root = Path(root)
    outside = f"points outside {what + ' ' if what else ''}{root}"
    pure = PurePosixPath(relative)
    if "\x00" in relative or pure.is_absolute() or ".." in pure.parts or Path(relative).is_absolute():
        raise InputError(f"{where}: {relative!r} {outside} (absolute and '..' paths are refused)")
    target = (root / relative).resolve()
    if not target.is_relative_to(root.resolve()):
        raise InputError(f"{where}: {relative!r} {outside} (through a symlink, to {target})")
    return root / relative
