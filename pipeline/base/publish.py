"""One rule for replacing a directory as a whole: build it under a private staging name beside the target, then
swap it in with renames, so that a reader sees the old directory or the new one, never a mix.

Staging and retired names carry the process id and a random suffix: two processes publishing beside each other
never share (or delete) each other's staging directory. Renames stay on one file system because staging lives in
the target's parent.

The directory that is replaced is not simply deleted: a file in it is dropped only when the caller's `discard`
vouches for it (a file this tool wrote and recorded, e.g. a shard the dataset's manifest lists with that sha256);
every other file (one a user added or edited) is moved to `<parent>/.bsl-replaced/<UTC time>/<name>/`, keeping its
place in the tree (`pipeline.base.ownership.set_aside_tree`).

No link is followed: a symbolic link (or a file) where a folder to replace, a staging folder or a retired one is
expected is refused with its name and left alone (`require_folder`, by lstat), so a planted link never moves or
deletes the files of the directory it points to.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.ownership import OwnershipError, entry_kind, process_alive, set_aside_tree

# `discard(relative_path, path)`: whether a file of the replaced directory (its POSIX path inside it, and where it
# lies now) is the tool's own and may be dropped.
Discard = Callable[[str, Path], bool]


def _private_name(target: Path, role: str) -> Path:
    return target.with_name(f".{target.name}.{role}-{os.getpid()}-{uuid.uuid4().hex[:8]}")


def require_folder(path: Path, what: str) -> bool:
    """Whether a real folder is at `path` (False: nothing there). A link or anything else that is not a folder is
    refused (OwnershipError naming it) and left alone: lstat, never followed."""
    kind = entry_kind(path)
    if kind in (None, "a folder"):
        return kind is not None
    raise OwnershipError(f"{path} is {kind} where bsl expects {what}; bsl leaves it alone and stops here: move it "
                         f"away, then rerun")


def staging_dir(target: Path) -> Path:
    """A new, empty directory beside `target` that only this call's caller uses."""
    path = _private_name(Path(target), "staging")
    path.mkdir(parents=True)
    return path


def listed_files(listing: Mapping[str, Any], prefix: str | None = "") -> Discard:
    """A `discard` for a directory whose files a record of the tool's lists with their sha256 (`listing`: path ->
    sha256; a path is `<prefix>/<relative>`, or the relative path itself when `prefix` is empty; None: nothing is
    listed): a plain file still holding its listed sha256 is the tool's and may be dropped; anything else (a user's
    file, an edited one, a link) is set aside."""
    from bsl_pipeline.pipeline.base.provenance import sha256_file

    def discard(relative: str, path: Path) -> bool:
        if prefix is None:
            return False
        digest = listing.get(f"{prefix}/{relative}" if prefix else relative)
        return isinstance(digest, str) and entry_kind(path) == "a plain file" and sha256_file(path) == digest

    return discard


def same_path_in(directory: Path) -> Discard:
    """A `discard` for directories whose every file the tool writes each time (a checkpoint, an export): a file of
    the old copy is the tool's when the new copy has a file at that path; what a user added is set aside."""
    return lambda relative, _path: (Path(directory) / relative).is_file()


def publish_directory(staging: Path, target: Path,
                      keep_existing: Callable[[Path], bool] | None = None,
                      discard: Discard | None = None, on_set_aside: Callable[[Path], None] | None = None) -> bool:
    """Move `staging` into place as `target`, replacing what was there. Returns True when `staging` was published.

    `keep_existing(target)` is asked when `target` exists: True keeps it and discards `staging` (another process
    already published an equivalent copy). Of the replaced directory, files `discard` vouches for are dropped
    (default: `same_path_in(target)`, the paths the new copy also has) and all else is set aside (module doc);
    `on_set_aside(folder)` hears where, when anything was."""
    staging, target = Path(staging), Path(target)
    require_folder(target, "the folder it replaces")
    if target.exists() and keep_existing is not None and keep_existing(target):
        shutil.rmtree(staging, ignore_errors=True)
        return False
    retired = None
    if target.exists():
        retired = _private_name(target, "old")
        try:
            os.rename(target, retired)
        except FileNotFoundError:  # another process retired it first
            retired = None
    try:
        os.rename(staging, target)
    except OSError:
        # Another publisher won the race between our retire and our rename: keep theirs if the caller accepts it.
        if keep_existing is not None and target.exists() and keep_existing(target):
            shutil.rmtree(staging, ignore_errors=True)
            published = False
        else:
            raise
    else:
        published = True
    if retired is not None:
        kept = retire(retired, target.parent, target.name, discard or same_path_in(target))
        if kept is not None and on_set_aside is not None:
            on_set_aside(kept)
    return published


def retire(retired: Path, parent: Path, name: str, discard: Discard | None) -> Path | None:
    """Drop the files of the retired directory `retired` that `discard` vouches for and set the rest aside under
    `parent/.bsl-replaced/<time>/<name>/` (None: set all aside). Returns the set-aside folder, if any."""
    require_folder(retired, "its own retired copy of a folder")
    kept = set_aside_tree(retired, parent, name, discard or (lambda _relative, _path: False))
    shutil.rmtree(retired, ignore_errors=True)  # what is left: files vouched for, and empty folders
    return kept


def retire_in_place(directory: Path, discard: Discard | None) -> Path | None:
    """`retire` `directory` where it lies, renamed to a private name first: a kill part-way leaves a
    `.<name>.old-<pid>-...` folder that `remove_stale_staging` sorts on a later run, never a folder under its own
    name that lacks some of its files. Returns the set-aside folder, if any."""
    directory = Path(directory)
    require_folder(directory, "a folder to retire")
    retired = _private_name(directory, "old")
    os.rename(directory, retired)
    return retire(retired, directory.parent, directory.name, discard)


_LEFTOVER = re.compile(r"^\.(?P<name>.+)\.(?P<role>staging|old)-(?P<pid>\d+)-[0-9a-f]{8}$")


def remove_stale_staging(parent: Path, name: str, discard: Discard | None = None) -> None:
    """Clear leftovers of `name` (a folder name, or a glob pattern such as "step-*") in `parent` whose process is
    gone (after a kill): a staging directory is this tool's and is deleted; a retired one (the old copy, killed
    before it was sorted) is sorted like any replaced directory (`discard`; None: all of it is set aside)."""
    for leftover in Path(parent).glob(f".{name}.*-*-*"):
        found = _LEFTOVER.match(leftover.name)
        # The glob also matches `.<name>.x.staging-...`: the leftover of another folder (`<name>.x`) is not sorted.
        if found is None or not fnmatch.fnmatchcase(found["name"], name) or process_alive(int(found["pid"])):
            continue
        require_folder(leftover, f"its own {found['role']} folder (left by a killed run)")
        if found["role"] == "staging":
            shutil.rmtree(leftover, ignore_errors=True)
        else:
            retire(leftover, Path(parent), found["name"], discard)


