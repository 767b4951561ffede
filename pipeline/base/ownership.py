"""Which directories the tool may write into, and who writes them now.

A directory the tool creates for its output (a dataset, a training run, a data dir) carries a marker file
`.bsl-output.json` naming its kind. The tool writes only into a directory that is new, empty, or carries its
marker of the same kind; anything else is refused naming the path. `--overwrite` adopts such a directory, and
whatever the tool then replaces is moved into `.bsl-replaced/<time>/` inside it rather than deleted: the tool
never deletes a file it did not write.

One writer at a time: `WriterLock` is an advisory lock file `.bsl-lock` in the directory (pid, host, start time,
command), taken with O_EXCL and removed on exit. A lock left by a process that is gone (same host, pid not alive)
is stale and taken over; a lock of a live process or of another host is refused with a message that says how to
clear it. Taking over is removing the stale file, then taking the lock with O_EXCL like any writer; processes that
find the same stale lock take turns on it (`flock` on that file, which the kernel lets go of if one dies), and each
removes it only if the path still names that file with the dead holder's content, so a live writer's lock that
replaced it meanwhile is never removed.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import stat
import sys
import time
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.atomic import write_json_atomic
from bsl_pipeline.pipeline.base.errors import BSLError

MARKER_NAME = ".bsl-output.json"
LOCK_NAME = ".bsl-lock"
REPLACED_DIR = ".bsl-replaced"


class OwnershipError(BSLError):
    """The tool was asked to write where it must not (a foreign directory, its own input)."""


class LockedError(BSLError):
    """Another process is writing this directory."""


MAX_MARKER_BYTES = 1 << 20  # a marker is a few hundred bytes


def read_json_file(path: str | Path, limit: int) -> Any:
    """The JSON in the plain file `path` of at most `limit` bytes. Opened without following a link or waiting on a
    FIFO, and read no further than `limit`, so a planted link, FIFO or device (`/dev/zero`) never hangs the
    command or fills its memory. FileNotFoundError when nothing is there; OSError (a link, not a plain file, too
    large) or ValueError (not UTF-8 JSON) otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        if os.path.islink(path):
            raise OSError(f"{path} is a symbolic link, not a plain file") from None
        raise exc
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{path} is not a plain file")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise OSError(f"{path} is over {limit} bytes")
    return json.loads(data.decode("utf-8"))


def require_record_or_nothing(path: Path, kind: str, limit: int, what: str, fix: str) -> None:
    """A command writes its record (a JSON object whose "kind" is `kind`) at the fixed `path` only over nothing or
    an earlier record of that kind: anything else there (a file of the user's that has that name, a link, a FIFO)
    is refused naming it (`what`: the record's name, `fix`: what to do instead), and kept."""
    try:
        existing = read_json_file(path, limit)
    except FileNotFoundError:
        return
    except (OSError, ValueError, RecursionError):
        existing = None
    if not isinstance(existing, dict) or existing.get("kind") != kind:
        raise OwnershipError(f"{path} exists and is not {what}; bsl leaves it alone: {fix}")


def read_marker(directory: Path) -> dict[str, Any] | None:
    path = Path(directory) / MARKER_NAME
    try:
        data = read_json_file(path, MAX_MARKER_BYTES)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RecursionError) as exc:
        raise OwnershipError(f"{path}: unreadable output marker ({exc})") from None
    if not isinstance(data, dict) or data.get("tool") != "bsl" or not isinstance(data.get("kind"), str):
        raise OwnershipError(f"{path}: not a bsl output marker")
    return data


def output_marker(directory: Path, kind: str, **extra: Any) -> dict[str, Any]:
    """A new marker claiming `directory`: the kind, when, a random id of this claim and the directory it is written
    for, so that a marker copied (`cp -a`) or moved with its directory, or planted, proves nothing
    (`marker_problem`); `extra`: what else the kind records. Written into `directory`, or into a staging folder
    published as `directory` (the path is `directory`'s)."""
    return {"tool": "bsl", "kind": kind, "created": datetime.now(timezone.utc).isoformat(), "id": uuid.uuid4().hex,
            "path": str(Path(directory).expanduser().resolve()), **extra}


def _write_marker(directory: Path, kind: str) -> None:
    write_json_atomic(Path(directory) / MARKER_NAME, output_marker(directory, kind))


def marker_problem(directory: Path, marker: dict[str, Any]) -> str | None:
    """Why `marker` does not prove that this tool wrote `directory` here, or None: it names another directory (the
    directory was copied or moved with it), or it has no claim id (a marker from before ids, or planted)."""
    written_for = marker.get("path")
    if not isinstance(marker.get("id"), str) or not isinstance(written_for, str):
        return "its marker holds no claim id (planted, or from an older bsl)"
    here = str(Path(directory).expanduser().resolve())
    if written_for != here:
        return f"its marker was written for {written_for} (copied or moved here)"
    return None


def _is_marker_in_flight(name: str) -> bool:
    """The temp file of another bsl process writing its marker right now (see pipeline.base.atomic)."""
    return name.startswith(f".{MARKER_NAME}.") and name.endswith(".tmp")


def _is_inside(path: Path, other: Path) -> bool:
    return path == other or other in path.parents


def local_only(location: str | Path, what: str) -> None:
    """Refuse a URL (`pipeline.base.urls.is_url`) where only a local file or folder is written, with one line:
    as a path it would be a folder named `s3:` on this disk. `./s3://x` stays a local path."""
    from bsl_pipeline.pipeline.base.urls import is_url, redact

    if is_url(location):
        raise OwnershipError(f"{what} {redact(str(location))}: this is written to this disk, not to a URL (only "
                             f"datasets may be URLs); give a local path, and copy it to the store afterwards")


def check_not_input(out: Path, inputs: Iterable[str | Path], what: str = "output", other: str = "input") -> None:
    """Refuse an output that is, contains or lies inside one of the inputs (e.g. `--out` = the corpus dir); `what`
    names the output's setting, `other` what the paths are when they are not inputs (another output). An input that
    is a URL (on a store) overlaps no local output."""
    from bsl_pipeline.pipeline.base.urls import is_url

    local_only(out, what)
    out_r = Path(out).expanduser().resolve()
    for item in inputs:
        if is_url(item):
            continue
        inp = Path(item).expanduser().resolve()
        if _is_inside(out_r, inp) or _is_inside(inp, out_r):
            why = " (the tool never writes over what it reads)" if other == "input" else ""
            raise OwnershipError(f"{what} {out} and {other} {item} overlap: choose another {what} outside "
                                 f"{'the input' if other == 'input' else other}{why}")


def claim_directory(directory: str | Path, kind: str, *, overwrite: bool = False,
                    own_names: Iterable[str] = (), recognise: Callable[[Path], bool] | None = None) -> Path:
    """Make `directory` this tool's output directory of `kind` (creating it), or raise OwnershipError.

    `own_names` are the entries the tool writes there; with `overwrite=True` a foreign directory is adopted and
    those entries, where present, are moved to `.bsl-replaced/<time>/` (never deleted). `recognise(directory)`
    may vouch for a directory this tool wrote before it had markers (then the marker is added)."""
    local_only(directory, f"the {kind} directory")
    path = Path(directory).expanduser()
    if path.exists() and not path.is_dir():
        raise OwnershipError(f"{path} exists and is not a directory")
    created = _topmost_missing(path)
    path.mkdir(parents=True, exist_ok=True)
    _CREATED.append((path, created))  # the marker written below is removed again if the command fails at once
    marker = read_marker(path)
    entries = {p.name for p in path.iterdir()}
    if marker is None and MARKER_NAME in entries:
        # Another bsl process claimed the directory between our two looks (it then locks and writes).
        marker = read_marker(path)
    if marker is not None:
        _CREATED.pop()  # marked before this run: not ours to remove
    plan = _claim_plan(path, kind, marker, entries, overwrite, recognise)
    if plan == "replace":
        set_aside(path, [n for n in own_names if (path / n).exists() or (path / n).is_symlink()])
    if plan != "ours":
        _write_marker(path, kind)
    return path


def _claim_plan(path: Path, kind: str, marker: dict[str, Any] | None, entries: set[str], overwrite: bool,
                recognise: Callable[[Path], bool] | None) -> str:
    """What claiming the existing directory `path` takes: "ours" (nothing: its marker proves it), "mark" (write the
    marker), "replace" (set the tool's entries aside, then mark); OwnershipError when it is refused."""
    def vouched() -> bool:  # reads the contents, so only when it decides
        return recognise is not None and recognise(path)

    if marker is not None:
        if marker["kind"] != kind:
            raise OwnershipError(f"{path} holds a bsl {marker['kind']}, not a {kind}: choose another directory")
        problem = marker_problem(path, marker)
        if problem is None:
            return "ours"
        # A marker that proves nothing. One without a claim id (an older bsl's) is trusted when `recognise` vouches
        # for the contents; one written for another directory never is (a copy's contents look like ours too).
        # Otherwise the directory is foreign: refused, or with --overwrite what it replaces is set aside.
        ours = vouched()
        if "path" not in marker and ours:
            return "mark"
        if not overwrite:
            raise OwnershipError(f"{path} looks like a bsl {kind}, but {problem}: choose another directory, or pass "
                                 f"--overwrite to adopt it (what it replaces is set aside into {REPLACED_DIR}/)")
        return "mark" if ours else "replace"  # a copy whose contents are this tool's is adopted as it is
    foreign = sorted(name for name in entries if name != LOCK_NAME and not _is_marker_in_flight(name))
    if not foreign or vouched():
        return "mark"
    if not overwrite:
        raise _foreign_error(path, foreign)
    return "replace"


# Directories claim_directory marked in this process: (the output dir, the topmost folder it had to create, or
# None when the directory existed and only the marker is this process's).
_CREATED: list[tuple[Path, Path | None]] = []


def _topmost_missing(path: Path) -> Path | None:
    """The outermost of `path` and its parents that does not exist yet (None when `path` exists)."""
    if path.exists() or path.is_symlink():
        return None
    top = path
    for parent in path.absolute().parents:
        if parent.exists() or parent.is_symlink():
            break
        top = parent
    return top if top != path else path


def remove_unused_claims() -> list[Path]:
    """Remove again the output directories this process created and that hold nothing but the marker (and a
    lock), with the parent folders it created for them: what a command that failed before writing any result
    leaves behind. A directory that existed before loses only the marker this process wrote; one that holds
    anything else is kept as it is. Returns the directories removed."""
    removed = []
    while _CREATED:
        path, top = _CREATED.pop()
        try:
            entries = {p.name for p in path.iterdir()}
        except OSError:
            continue
        if not entries <= {MARKER_NAME, LOCK_NAME}:
            continue
        for name in entries:
            (path / name).unlink(missing_ok=True)
        if top is None:
            continue
        folder = path.absolute()
        top = top.absolute()
        while True:
            try:
                folder.rmdir()  # only an empty folder
            except OSError:
                break
            removed.append(folder)
            if folder == top or top not in folder.parents:
                break
            folder = folder.parent
    return removed


def _foreign_error(path: Path, foreign: list[str]) -> OwnershipError:
    shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
    return OwnershipError(f"{path} is not empty and was not created by bsl ({shown}); choose a new directory, "
                          f"or pass --overwrite to write into it (what bsl replaces is moved to "
                          f"{REPLACED_DIR}/, nothing is deleted)")


def check_claimable(directory: str | Path, kind: str, *, overwrite: bool = False,
                    recognise: Callable[[Path], bool] | None = None) -> None:
    """Raise what `claim_directory` would raise, without creating or marking anything: for checks that run before
    the work (and before the process that does it) starts."""
    path = Path(directory).expanduser()
    if not path.exists():
        return
    if not path.is_dir():
        raise OwnershipError(f"{path} exists and is not a directory")
    _claim_plan(path, kind, read_marker(path), {p.name for p in path.iterdir()}, overwrite, recognise)


def check_output_name(name: str, what: str = "name") -> str:
    """A name the tool turns into a file name (`<registry>/datasets/<name>.json`): one path component, printable.
    Refuses path separators, '..', a leading '.', control characters and the empty name; returns `name`."""
    problem = None
    if not isinstance(name, str) or not name.strip():
        problem = "it is empty"
    elif "/" in name or "\\" in name:
        problem = "it contains a path separator"
    elif ".." in name or name.startswith("."):
        problem = "it contains '..' or starts with '.'"
    elif any(ord(c) < 32 or 127 <= ord(c) < 160 for c in name):
        problem = "it contains a control character (newline, tab, ...)"
    elif len(name.encode("utf-8")) > 200:
        problem = "it is longer than 200 bytes"
    if problem:
        raise OwnershipError(f"{what} {name!r} is not usable as a file name: {problem} (use letters, digits, "
                             f"'-', '_' and '.')")
    return name


def claim_file(path: str | Path, *, overwrite: bool = False, inputs: Iterable[str | Path] = (),
               same_content: Callable[[Path], bool] | None = None,
               ours: Callable[[Path], bool] | None = None, what: str = "output") -> Path:
    """Check that the tool may (re)write the single file `path` (`what`: the flag that names it, for messages):
    never a URL, never one of `inputs` (or inside one), never a link, device, FIFO or socket (even with
    `overwrite`); an existing file only with `overwrite=True`, and then it is first moved to
    `<its dir>/.bsl-replaced/<time>/` (kept), unless `same_content(path)` says it already holds what would be
    written, or `ours(path)` proves it an earlier output of the same command
    (`pipeline.base.written_files.recorded_by`), which is simply rewritten."""
    local_only(path, what)
    written = str(path)
    path = Path(path).expanduser()
    check_not_input(path, inputs, what)
    if path.is_dir() or written.endswith(("/", os.sep)):
        raise OwnershipError(f"{written} is a directory; give a file name")
    blocking = next((p for p in path.parents if p.exists() or p.is_symlink()), None)
    if blocking is not None and not blocking.is_dir():
        raise OwnershipError(f"{path}: {blocking} is not a directory; give a file name in a directory")
    refuse_special_file(path)
    if path.exists():
        if same_content is not None and same_content(path):
            return path
        if ours is not None and ours(path):
            return path
        if not overwrite:
            raise OwnershipError(f"{path} exists and bsl has no record of writing it as it is now; choose a new "
                                 f"file, or pass --overwrite to replace it (the old file is moved to "
                                 f"{path.parent / REPLACED_DIR}/, nothing is deleted)")
        set_aside(path.parent, [path.name])
    return path


def entry_kind(path: str | Path) -> str | None:
    """What is at `path`, by lstat (a link is never followed): "a plain file", "a folder", "a symbolic link",
    "a FIFO", "a socket", "a device"; None when nothing is there."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    return ("a plain file" if stat.S_ISREG(mode) else "a folder" if stat.S_ISDIR(mode)
            else "a symbolic link" if stat.S_ISLNK(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device")


def not_a_plain_file(path: str | Path) -> str | None:
    """What is at `path` when it is there and not a plain file (`entry_kind`); None when nothing or a plain file."""
    kind = entry_kind(path)
    return None if kind in (None, "a plain file") else kind


def refuse_special_file(path: str | Path) -> None:
    """Refuse (OwnershipError naming it) to write a file where a link, folder, device, FIFO or socket is."""
    kind = not_a_plain_file(path)
    if kind:
        raise OwnershipError(f"{path} is {kind}; bsl writes only plain files (give another file name)")


def replaced_folder(directory: Path) -> Path:
    """A new folder `directory/.bsl-replaced/<UTC time>/` (made now) for what a command replaces there."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    base = Path(directory) / REPLACED_DIR
    if entry_kind(base) not in (None, "a folder"):
        raise OwnershipError(f"{base} is {entry_kind(base)}: bsl sets what it replaces aside only in a real "
                             f"{REPLACED_DIR}/ folder (move it away)")
    base.mkdir(parents=True, exist_ok=True)
    for i in range(1000):
        target = base / (stamp if i == 0 else f"{stamp}-{i}")
        try:
            target.mkdir()
        except FileExistsError:
            continue
        return target
    raise OwnershipError(f"{base}: cannot make a new folder for what is replaced")


def set_aside(directory: Path, names: Iterable[str]) -> Path | None:
    """Move entries of `directory` into `.bsl-replaced/<time>/` (keeping them); returns that folder."""
    names = list(names)
    if not names:
        return None
    target = replaced_folder(directory)
    for name in names:
        os.replace(Path(directory) / name, target / name)
    return target


def set_aside_tree(source: Path, directory: Path, name: str, discard: Callable[[str, Path], bool]) -> Path | None:
    """Move every file (or symlink) under the folder `source` that `discard(its path inside source, path)` does not
    vouch for to `directory/.bsl-replaced/<time>/<name>/<same path>`; returns that folder, None if nothing moved.
    What is left in `source` are the files vouched for (the caller drops them) and folders. `source` itself must
    be a real folder, never a link to one (refused: its files are not the tool's to move)."""
    source = Path(source)
    if entry_kind(source) != "a folder":
        raise OwnershipError(f"{source} is {entry_kind(source) or 'missing'}; bsl sets aside only the files of its "
                             f"own folders and leaves it alone (move it away)")
    folder = None
    for root, dirs, files in os.walk(source):
        here = Path(root)
        links = [d for d in dirs if (here / d).is_symlink()]  # a link to a folder is moved, never followed
        dirs[:] = [d for d in dirs if d not in links]
        for entry in sorted(files + links):
            path = here / entry
            relative = path.relative_to(source).as_posix()
            if not path.is_symlink() and discard(relative, path):
                continue
            if folder is None:
                folder = replaced_folder(directory) / name
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, folder / relative)
    return folder


MAX_PID = 1 << 22  # the largest pid_max Linux allows


def process_alive(pid: int) -> bool:
    """Whether a process with this pid exists on this machine (ours included)."""
    if pid == os.getpid():
        return True
    if not 0 < pid <= MAX_PID:  # no such process can exist (and 0 or -n would signal a process group)
        return False
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True
    return True


def _pid_namespace() -> str | None:
    """This process's pid namespace (`pid:[4026531836]` on Linux; None where the system does not say)."""
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return None


def _process_started(pid: int) -> int | None:
    """When the process `pid` started, in clock ticks since boot (Linux); None where the system does not say."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
        return int(fields[19])  # field 22, `starttime`; fields[0] is field 3
    except (OSError, ValueError, IndexError):
        return None


def process_identity() -> dict[str, Any]:
    """This process as a lock (or object-store lease) record names it: host name and pid, and where the system says,
    its pid namespace (`pid_ns`: containers that share a host name, not their processes, have different ones) and
    start time (`pid_started`: a later process given the same pid has another)."""
    return {"host": socket.gethostname(), "pid": os.getpid(), "pid_ns": _pid_namespace(),
            "pid_started": _process_started(os.getpid())}


def holder_on_this_host(holder: dict[str, Any]) -> bool:
    """The holder's process would be seen from here: the same host name, a pid, and the same pid namespace where
    its record names one (a record without one is taken as this host's when the host name is)."""
    namespace = holder.get("pid_ns")
    return (holder.get("host") == socket.gethostname() and isinstance(holder.get("pid"), int)
            and (namespace is None or namespace == _pid_namespace()))


def holder_gone(holder: dict[str, Any]) -> bool:
    """A lock (or object-store lease) of a process on this host (`holder_on_this_host`) that is gone: no process has
    its pid, or the one that has it started at another time than the record says (the pid was given again)."""
    if not holder_on_this_host(holder):
        return False
    pid = holder["pid"]
    if not process_alive(pid):
        return True
    started = holder.get("pid_started")
    return isinstance(started, int) and _process_started(pid) not in (None, started)


def _read_json_fd(fd: int) -> Any:
    """The JSON in the open file `fd` (read from its start), or None when it is not JSON."""
    chunks = []
    offset = 0
    while chunk := os.pread(fd, 65536, offset):
        chunks.append(chunk)
        offset += len(chunk)
    try:
        return json.loads(b"".join(chunks).decode("utf-8"))
    except ValueError:
        return None


class WriterLock:
    """`with WriterLock(dir, what="dataset"):` — one writer per directory (see the module docstring)."""

    def __init__(self, directory: str | Path, what: str = "directory") -> None:
        self.path = Path(directory) / LOCK_NAME
        self.what = what
        self._held = False

    def _describe(self, holder: dict[str, Any]) -> str:
        return (f"{self.path.parent} ({self.what}) is being written by pid {holder.get('pid')} on "
                f"{holder.get('host')} since {holder.get('started')} ({holder.get('command', '?')}); wait for it "
                f"to finish, or if that process is gone, remove {self.path}")

    def acquire(self) -> None:
        body = {"pid": os.getpid(), "host": socket.gethostname(),
                "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "command": " ".join(sys.argv[:3])[:200]}
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                holder = self._holder()
                if holder is None:
                    continue  # removed or half-written between our calls: try again
                if holder_gone(holder):
                    self._remove_stale(holder)
                    continue
                raise LockedError(self._describe(holder)) from None
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(body, fh)
            self._held = True
            return
        raise LockedError(f"could not take the lock {self.path} (it keeps changing): another writer is starting")

    def _read(self) -> Any:
        """The lock file's JSON; FileNotFoundError when gone, ValueError when not JSON (UTF-8)."""
        if not self.path.is_file() or self.path.stat().st_size > 1 << 16:
            if not self.path.exists() and not self.path.is_symlink():
                raise FileNotFoundError(self.path)
            raise LockedError(f"{self.path} is not a bsl lock file (a folder, a link to one, or over 64 KiB): "
                              f"{self.path.parent} ({self.what}) cannot be locked; move it away if no bsl "
                              f"process is writing there")
        return json.loads(self.path.read_bytes().decode("utf-8"))

    def _holder(self) -> dict[str, Any] | None:
        try:
            data = self._read()
        except FileNotFoundError:
            return None
        except ValueError:
            # A writer between O_EXCL and its write, or a crash right there: give a live writer a moment.
            time.sleep(0.2)
            try:
                data = self._read()
            except FileNotFoundError:
                return None
            except ValueError:
                return {"pid": None, "host": "?", "started": "?", "command": "unreadable lock file"}
        return data if isinstance(data, dict) else {"pid": None, "host": "?", "started": "?"}

    def _remove_stale(self, holder: dict[str, Any]) -> None:
        """Remove the lock file if it is still the stale one read as `holder`; else leave whatever is there (the
        caller reads the lock again). Takers of one file take turns (flock on it); the one whose turn it is
        re-reads the file it opened and removes it only while the path names that very file."""
        try:
            fd = os.open(self.path, os.O_RDWR)
        except FileNotFoundError:
            return  # removed meanwhile
        except OSError as exc:  # not ours to open for writing (another user's lock), or not a file
            raise LockedError(f"{self._describe(holder)} ({exc.strerror})") from None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # another process is taking this stale lock over right now
            if _read_json_fd(fd) != holder:
                return  # a writer's lock replaced the stale one since it was read
            try:
                here = os.stat(self.path)
            except FileNotFoundError:
                return
            there = os.fstat(fd)
            if (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino):
                # Only a taker holding this file's flock removes this path, and the path names this file: no
                # one else can have put another file there before the unlink.
                os.unlink(self.path)
        finally:
            os.close(fd)  # lets go of the flock

    def release(self) -> None:
        if self._held:
            self._held = False
            self.path.unlink(missing_ok=True)

    def __enter__(self) -> "WriterLock":
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
