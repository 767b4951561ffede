"""Where the public STS / SICK / NLI files live: one data setting for every command and the tests.

The data directory is, in this order: an explicit `--data-dir` (or a config's `data_dir`), else `$BSL_DATA_DIR`,
else the user's data cache (`$XDG_CACHE_HOME/bsl/data`, by default `~/.cache/bsl/data`; `bsl data fetch` fills
it) when it holds at least one set, else `../shared/data` beside the repository when that exists. An explicit or
environment setting is taken as given (a wrong path is an error, not a reason to look elsewhere).

Layout inside it (what the evaluation stage reads and `bsl data fetch` writes):

    sts/sts12 ... sts/sts16/STS.input.<subset>.txt + STS.gs.<subset>.txt
    stsbenchmark/sts-{train,dev,test}.csv
    sick/SICK_test_annotated.txt (+ SICK_train.txt, SICK_trial.txt)
    nli/snli/*.csv, nli/mnli/*.csv
    data_manifests/<set>.json          (fetched sets only: source id, revision, sha256 and rows of every file)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.user_cache import user_cache_root

#: The subset name of an STS year whose source has no per-subset breakdown (the hub's MTEB copies): all of the
#: year's pairs in one file pair, STS.input.pooled.txt + STS.gs.pooled.txt.
POOLED_STS_SUBSET = "pooled"
_SET_FOLDERS = ("sts", "stsbenchmark", "sick", "nli", "senteval")
FETCH_COMMAND = "bsl data fetch"


class DataDirNotFound(BSLError):
    """No data directory is configured or found; the message says which command fills one."""


@dataclass(frozen=True)
class DataDir:
    path: Path
    origin: str  # "--data-dir", "BSL_DATA_DIR", "data cache" or "../shared/data"

    def describe(self) -> str:
        return f"{self.path} (from {self.origin})"


def default_data_dir(env: Mapping[str, str] = os.environ) -> Path:
    """`$XDG_CACHE_HOME/bsl/data`, or `~/.cache/bsl/data` when XDG_CACHE_HOME is unset or empty."""
    return user_cache_root(env) / "bsl" / "data"


def repo_shared_data_dir() -> Path:
    """`../shared/data` beside this checkout (where a development machine keeps the reference copy)."""
    return Path(__file__).resolve().parents[2] / "shared" / "data"


def holds_public_data(path: str | Path) -> bool:
    """True when `path` has at least one set folder (sts/, stsbenchmark/, sick/, nli/ or senteval/)."""
    root = Path(path)
    return any((root / name).is_dir() for name in _SET_FOLDERS)


def locate_data_dir(explicit: str | Path | None = None, env: Mapping[str, str] = os.environ,
                    shared: Path | None = None, setting: str = "--data-dir") -> DataDir | None:
    """The data dir by the order in the module docstring, or None when nothing is configured or found.

    An explicit or $BSL_DATA_DIR path is returned whether or not it exists (an explicit one's origin is `setting`,
    the flag or config key it was given as); the data cache and `shared` (default: `repo_shared_data_dir()`) only
    when they hold data."""
    if explicit:
        return DataDir(Path(explicit).expanduser(), setting)
    if env.get("BSL_DATA_DIR"):
        return DataDir(Path(env["BSL_DATA_DIR"]).expanduser(), "BSL_DATA_DIR")
    cache = default_data_dir(env)
    if holds_public_data(cache):
        return DataDir(cache, "data cache")
    shared = repo_shared_data_dir() if shared is None else shared
    if holds_public_data(shared):
        return DataDir(shared, "../shared/data")
    return None


def fetch_hint(env: Mapping[str, str] = os.environ) -> str:
    return (f"run `{FETCH_COMMAND}` (fills {default_data_dir(env)}), or pass --data-dir DIR / set BSL_DATA_DIR "
            f"to a folder laid out as docs/guide/data.md describes")


def resolve_data_dir(explicit: str | Path | None = None, env: Mapping[str, str] = os.environ,
                     shared: Path | None = None, setting: str = "--data-dir") -> DataDir:
    """Like `locate_data_dir`, but a missing directory is an error that says which command fills it."""
    found = locate_data_dir(explicit, env, shared, setting)
    if found is None:
        raise DataDirNotFound(f"no evaluation data found (no --data-dir, BSL_DATA_DIR unset, "
                              f"{default_data_dir(env)} empty, no ../shared/data): {fetch_hint(env)}")
    if not found.path.is_dir():
        raise DataDirNotFound(f"data dir {found.describe()} is not a directory: run "
                              f"`{FETCH_COMMAND} --to {found.path}` to fill it, or point it at an existing one")
    return found


def resolve_data_setting(value: str | Path, setting: str) -> Path:
    """The value of config key `setting` (named in errors): 'auto' resolves as `resolve_data_dir(None)`, anything
    else is that directory."""
    return resolve_data_dir(None if str(value) == "auto" else value, setting=setting).path
