"""What `bsl` prints when a command fails: one line naming the cause and the fix, for the errors of the libraries
underneath (Prefect's API client, Dask, the Hugging Face hub) as for the tool's own; the traceback only with
`bsl --debug` (or BSL_DEBUG=1). A Ctrl-C prints one line saying what to rerun.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator

from bsl_pipeline.pipeline.base.errors import WRITE_ERROR_FIXES
from bsl_pipeline.pipeline.base.processes import TERMINATED_EXIT_CODE, Terminated, exit_at_once_if_interrupted_again

# What to rerun after Ctrl-C, by command (default: the same command, which resumes). `bsl train` and `bsl flow
# train` say it from what their run directory holds (cli/commands/train.py, `interrupted_run_hint`).
RERUN_HINTS = {
    "schedule": "rerun the same command to serve the deployments again",
    "evaluate": "rerun the same command (embeddings already computed are cached)",
}



def interrupt_line(command: str | None, flow_command: str | None = None, terminated: bool = False,
                   hint: str | None = None) -> str:
    """The one line after Ctrl-C (or SIGTERM, `terminated`): what to rerun (`hint`: the command's own, when what
    a rerun does depends on its config)."""
    key = flow_command if command == "flow" and flow_command else command
    how = " (terminated)" if terminated else ""
    return f"interrupted{how}; {hint or RERUN_HINTS.get(key or '', 'rerun the same command to resume')}"


# The hint after an interrupt that came before the command started.
NOT_STARTED = "the command had not started; rerun it"


def _command(argv: list[str]) -> tuple[str | None, str | None]:
    """The command and, under `flow`, its flow, as the command line names them (no parser needed)."""
    words = [a for a in argv if not a.startswith("-")]
    return (words[0] if words else None), (words[1] if len(words) > 1 else None)


def interrupted_before_start(exc: KeyboardInterrupt, argv: list[str] | None, program: bool) -> int:
    """Print the interrupt's one line for a command that had not started (`argv`: its arguments, None for the
    program's own) and return its exit code; `program`: the process ends here, and a second interrupt while it does
    exits at once."""
    terminated = isinstance(exc, Terminated)
    code = TERMINATED_EXIT_CODE if terminated else 130
    if program:
        exit_at_once_if_interrupted_again(code)
    command, flow_command = _command(sys.argv[1:] if argv is None else list(argv))
    print(interrupt_line(command, flow_command, terminated=terminated, hint=NOT_STARTED), file=sys.stderr)
    return code


def debug_requested() -> bool:
    return os.environ.get("BSL_DEBUG", "").strip().lower() in ("1", "true", "yes")


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """The exception, then its causes and contexts (each once)."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


def _first_line(text: str, limit: int = 300) -> str:
    line = next((part.strip() for part in str(text).splitlines() if part.strip()), "")
    return line if len(line) <= limit else line[:limit - 3] + "..."


def _unreachable_prefect(exc: BaseException) -> str | None:
    try:
        import httpx
    except ImportError:  # pragma: no cover - httpx comes with Prefect
        return None
    for item in _chain(exc):
        if isinstance(item, (httpx.ConnectError, httpx.ConnectTimeout)):
            url = os.environ.get("PREFECT_API_URL", "")
            try:
                url = url or str(item.request.url)
            except RuntimeError:  # no request attached
                pass
            from bsl_pipeline.flows.prefect_env import unreachable_message

            return unreachable_message(url or "PREFECT_API_URL")
    return None


def _unreachable_dask(exc: BaseException) -> str | None:
    for item in _chain(exc):
        text = str(item)
        match = re.search(r"(tcp|tls|inproc|ucx)://[^\s'\"]+", text)
        if match and isinstance(item, (OSError, TimeoutError)) and "connect" in text.lower():
            return (f"Dask scheduler not reachable at {match.group(0)}: start it (`dask scheduler`, then `dask "
                    f"worker {match.group(0)}`), or leave runner.dask_address empty to start a local cluster")
    return None


def _hub_error(exc: BaseException) -> str | None:
    try:
        from huggingface_hub import errors as hub_errors
    except ImportError:  # pragma: no cover - a dependency of transformers
        return None
    for item in _chain(exc):
        if isinstance(item, hub_errors.HFValidationError):
            return (f"not a model directory and not a Hugging Face hub id ({_first_line(item)}): give an existing "
                    f"model directory, or a hub id such as sentence-transformers/all-MiniLM-L6-v2")
        if isinstance(item, (hub_errors.OfflineModeIsEnabled, hub_errors.LocalEntryNotFoundError)):
            return (f"a model is neither a local directory nor in the local hub cache, and the hub is offline "
                    f"({_first_line(item)}): give a model directory, or download it once with HF_HUB_OFFLINE unset")
        if isinstance(item, (hub_errors.RepositoryNotFoundError, hub_errors.GatedRepoError)):
            return f"{_first_line(item)}: check the model name (or give a local model directory)"
    return None


def _write_error(exc: BaseException) -> str | None:
    """A full disk, a read-only file system or a refused permission: the path and the cause (libraries that give
    no errno, such as Arrow's writers, are known by the system's message)."""
    for item in _chain(exc):
        if not isinstance(item, OSError):
            continue
        code = item.errno if item.errno in WRITE_ERROR_FIXES else next(
            (c for c in WRITE_ERROR_FIXES if os.strerror(c).lower() in str(item).lower()), None)
        if code is None:
            continue
        if item.filename is not None:
            cause = item.strerror if item.errno == code and item.strerror else os.strerror(code)
            return f"{item.filename}: {cause} ({WRITE_ERROR_FIXES[code]})"
        return f"{_first_line(item)} ({WRITE_ERROR_FIXES[code]})"
    return None


def _not_a_directory(exc: BaseException) -> str | None:
    """A path that runs through a file (`--out notes.txt/ds`): which part of it is not a directory."""
    from pathlib import Path

    for item in _chain(exc):
        if not isinstance(item, NotADirectoryError) or item.filename is None:
            continue
        path = Path(os.fsdecode(item.filename))
        blocking = next((p for p in (*reversed(path.parents), path)
                         if str(p) != "." and os.path.lexists(p) and not p.is_dir()), None)
        if blocking is None or blocking == path:
            return f"{path} is not a directory; give a directory"
        return f"{blocking} is not a directory, so {path} cannot be written under it; give a path in a directory"
    return None


def describe_failure(exc: BaseException) -> str:
    """One line for an exception that is not the tool's own BSLError (those print as they are)."""
    for explain in (_unreachable_prefect, _unreachable_dask, _hub_error, _write_error, _not_a_directory):
        line = explain(exc)
        if line:
            return line
    return f"{type(exc).__name__}: {_first_line(exc) or '(no message)'} (rerun as `bsl --debug ...` for the traceback)"
