"""Worker processes that die with their parent.

A `kill -9` of `pnp` gives the parent no chance to stop its pool, and a worker
busy with a long chunk would run on as an orphan. Every pool the project
creates therefore comes from `process_pool`: its workers ask Linux to kill them
when the parent dies (PR_SET_PDEATHSIG), and on every system also watch their
parent from a small thread and exit when it is gone. SIGTERM and SIGINT get
their default meaning in workers: the parent, not the worker, unwinds the run.
A pool left by an exception (Ctrl-C, an error) cancels what was queued and
stops its workers instead of waiting for them.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
import time
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
WATCH_INTERVAL = 0.5  # seconds between two looks at the parent, where the kernel cannot tell us


def _watched_pool_type() -> type[ProcessPoolExecutor]:
    """The pool class, made when a pool is: concurrent.futures costs a fresh process some 15 ms to
    import, and a one-card build (its own forked workers) or a forked worker never needs it."""
    from concurrent.futures import ProcessPoolExecutor

    class WatchedPool(ProcessPoolExecutor):
        """A ProcessPoolExecutor that does not wait for its workers when the block fails."""

        def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                     traceback: TracebackType | None) -> bool | None:
            if exc_type is None:
                return super().__exit__(exc_type, exc, traceback)
            self.stop()
            return None

        def stop(self) -> None:
            """Cancel queued work and end the workers now (used on errors and interrupts)."""
            processes = list((getattr(self, "_processes", None) or {}).values())
            self.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                if process.is_alive():
                    process.terminate()

    return WatchedPool


def process_pool(max_workers: int, *, fork: bool = True) -> ProcessPoolExecutor:
    """A process pool whose workers exit when this process dies; `fork` where the system has it
    (workers inherit imports and fonts), else the platform's default start method."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if fork and "fork" in methods else None)
    return _watched_pool_type()(max_workers=max_workers, mp_context=context, initializer=watch_parent,
                                initargs=(os.getpid(),))


def watch_parent(parent: int) -> None:
    """Worker initializer: end this process as soon as `parent` is gone."""
    for name in ("SIGTERM", "SIGINT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL if name == "SIGTERM" else signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        _die_with_parent_linux()
    if os.getppid() != parent:  # the parent died before we could ask
        os._exit(1)
    if os.name == "posix":
        threading.Thread(target=_poll_parent, args=(parent,), name="watch-parent", daemon=True).start()


def _die_with_parent_linux() -> None:
    """Ask the kernel for SIGKILL when the parent dies. `prctl` is looked up among the symbols this process
    has loaded (libc's, on Linux) before asking `find_library`, which runs `ldconfig` in a subprocess: some
    2.5 ms of every forked worker's start, on a `pnp watch` edit's path."""
    for where in (lambda: None, lambda: ctypes.util.find_library("c") or "libc.so.6"):
        try:
            ctypes.CDLL(where(), use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            return
        except (OSError, AttributeError):
            continue  # not found there: the next place; else the polling thread still covers it


def _poll_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_INTERVAL)
    os._exit(1)
