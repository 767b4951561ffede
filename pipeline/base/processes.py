"""The one rule for processes the tool starts (servers, workers, pools): they run no code from the working directory,
and they end with the command that started them.

- **No code from the working directory**: `python -m X` and `python -c ...` put the working directory first on
  `sys.path`, so a `uvicorn.py` or `dask.py` there would run instead of the real module. Children are started
  with `python_command()` (`python -P`), and `isolated_child_interpreters()` sets `PYTHONSAFEPATH=1` for every
  interpreter a command starts (Prefect's flow-run subprocesses of `bsl schedule`, Dask's spawned workers), which
  Python reads the same way.
- **They end with the command**: the command ends, raises, gets Ctrl-C (KeyboardInterrupt) or SIGTERM
  (`Terminated`, a KeyboardInterrupt, raised by `sigterm_as_interrupt()`), and the code that started a child
  stops it on the way out. If the command itself is killed (SIGKILL), nothing of it runs any more: the child
  started with `preexec_fn=die_with_parent()` gets SIGTERM from the kernel when its parent dies (Linux
  PR_SET_PDEATHSIG). Dask's worker processes need nothing: distributed starts each with a thread that watches a
  pipe from its parent and exits when it closes.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

# prctl(2) option: the signal a process gets when its parent dies.
PR_SET_PDEATHSIG = 1
# Exit status of a command ended by SIGTERM (128 + 15), as a shell reports it.
TERMINATED_EXIT_CODE = 128 + signal.SIGTERM
# The environment that keeps the working directory off a Python child's sys.path, however it is started.
ISOLATED_ENV = {"PYTHONSAFEPATH": "1"}


class Terminated(KeyboardInterrupt):
    """SIGTERM received: raised in the main thread like Ctrl-C's KeyboardInterrupt (a subclass of it), so whatever
    cleans up after Ctrl-C (servers stopped, queued tasks cancelled, files kept for the rerun) does after SIGTERM."""


def python_command(*args: str) -> list[str]:
    """`[python, -P, *args]`: this interpreter, with the working directory left off `sys.path`."""
    return [sys.executable, "-P", *args]


@contextmanager
def isolated_child_interpreters() -> Iterator[None]:
    """While the block runs, every Python interpreter started from this process leaves the working directory (or
    its script's directory) off `sys.path` (PYTHONSAFEPATH, Python 3.11+), however it is started. The environment
    is restored after it, so a program that calls a command in-process keeps its own."""
    saved = {key: os.environ.get(key) for key in ISOLATED_ENV}
    os.environ.update(ISOLATED_ENV)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _terminate(signum: int, _frame: object) -> None:
    raise Terminated(signum)


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM raises `Terminated` in the main thread while the block runs (the previous handler is restored after
    it). Prefect's flow engine installs its own handler during a flow run and, once it has recorded the crash,
    passes the signal on to this one. Outside the main thread this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# What a second Ctrl-C (or SIGTERM) prints while a command cleans up after the first.
INTERRUPTED_AGAIN = "interrupted again; exiting without cleanup"
_exit_code: list[int] = []  # set once the command has ended (or an interrupt was handled): the program's exit status
_end_registered: list[bool] = []


def end_without_teardown() -> None:
    """Call at the start of a program (registered first, its atexit callback runs after every one registered
    later): once the command has ended (`exit_at_once_if_interrupted` or `exit_at_once_if_interrupted_again` was
    called), the atexit callbacks the command registered run, the output is flushed and the process ends without
    the interpreter's teardown, during which a Ctrl-C is not handled but kills the process (a second or so after a
    run with torch)."""
    import atexit

    if not _end_registered:  # once: a second registration would run before what was registered in between
        _end_registered.append(True)
        atexit.register(_end_now)


def _flush_output() -> None:
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # the descriptor was closed when the process started (`bsl ... >&-`): nothing to flush
            continue
        try:
            stream.flush()
        except (OSError, ValueError, RuntimeError):  # a closed or broken pipe: nothing more can be said there;
            pass  # RuntimeError: a signal handler's flush while the interrupted code writes to the same stream


def _end_now() -> None:
    if not _exit_code:
        return
    import logging

    logging.shutdown()
    _flush_output()
    os._exit(_exit_code[0])


def exit_at_once_if_interrupted_again(code: int) -> None:
    """After an interrupt was handled (in the main thread): a second SIGINT or SIGTERM while the process cleans up
    and exits prints INTERRUPTED_AGAIN and ends it at once with `code`, instead of a KeyboardInterrupt traceback
    from an atexit callback or a silent kill by the signal."""
    _exit_at_once_on_signal(code, f"{INTERRUPTED_AGAIN}\n")


def exit_at_once_if_interrupted(code: int) -> None:
    """After the command has ended (in the main thread): a SIGINT or SIGTERM while the process exits ends it at
    once with the command's exit `code`, its output flushed, instead of a KeyboardInterrupt from an atexit callback
    or a silent kill by the signal: the command's work is done. After an interrupt the command handled
    (`exit_at_once_if_interrupted_again` already armed), that handler and its line stay."""
    if _exit_code:
        return
    _exit_at_once_on_signal(code, "")


def _exit_at_once_on_signal(code: int, line: str) -> None:
    if threading.current_thread() is not threading.main_thread():
        return
    _exit_code[:] = [code]

    def at_once(_signum: int, _frame: object) -> None:
        _flush_output()
        if line:
            os.write(2, line.encode())
        os._exit(code)

    signal.signal(signal.SIGINT, at_once)
    signal.signal(signal.SIGTERM, at_once)


def die_with_parent(signum: int = signal.SIGTERM) -> Callable[[], None] | None:
    """A `preexec_fn` for `subprocess.Popen`: the child gets `signum` when the process that started it dies, even
    by SIGKILL, and exits at once if that already happened. Linux only (None elsewhere: the caller's own cleanup
    is then the only stop). Start the child from a thread that lives as long as it: the kernel sends the signal
    when the starting thread ends."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up here, not in the forked child
    parent = os.getpid()

    def set_parent_death_signal() -> None:
        prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the signal was armed
            os._exit(1)

    return set_parent_death_signal
