"""Worker processes that die with their parent.

A `kill -9` of `pnp` gives the parent no chance to stop its pool, and a worker
busy with a long chunk would run on as an orphan. Every pool the project
creates therefore comes from `process_pool`: its workers ask Linux to kill them
when the parent dies (PR_SET_PDEATHSIG), and on every system also watch their
parent from a small thread and exit when it is gone. SIGTERM and SIGINT get
their default meaning in workers: the parent, not the worker, unwinds the run.
A pool left by an exception (Ctrl-C, an error) cancels what was queued and
stops its workers instead of waiting for them.

`forked_map` is the simulator's pool: what every task shares (a run's rules,
which do not pickle) reaches the workers by fork, never by pickling, and is
handed down as an argument, so no module holds it between runs.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")

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


def can_fork() -> bool:
    """Whether workers can be forked (and so inherit what this process holds without pickling)."""
    return "fork" in multiprocessing.get_all_start_methods()


def forked_map(work: Callable[[S, T], R], shared: S, items: Sequence[T], jobs: int) -> Iterator[R]:
    """`work(shared, item)` for every item on up to `jobs` worker processes; results in the order of `items`.

    `shared` reaches the workers when they are forked, never pickled (where fork is missing it must
    pickle). Each worker takes the next item as soon as it is free. A worker's exception is raised
    here; a worker that dies is a RuntimeError; leaving early (an interrupt, an error) ends them all.
    """
    from multiprocessing.connection import Connection, wait

    context = multiprocessing.get_context("fork" if can_fork() else None)
    processes: list[Any] = []
    busy: dict[Connection, int] = {}
    idle: list[Connection] = []
    try:
        for _ in range(max(1, min(jobs, len(items)))):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(work, shared, theirs, os.getpid()), daemon=True)
            process.start()
            theirs.close()
            processes.append((process, mine))
            idle.append(mine)
        todo = iter(enumerate(items))
        finished: dict[int, R] = {}
        next_out = 0
        while next_out < len(items):
            while idle and (job := next(todo, None)) is not None:
                link = idle.pop()
                link.send(job)
                busy[link] = job[0]
            while next_out in finished:
                yield finished.pop(next_out)
                next_out += 1
            if next_out >= len(items):
                break
            ready = wait([*busy, *(process.sentinel for process, _link in processes)])
            for process, link in processes:
                if link in ready:
                    try:
                        index, ok, value = link.recv()
                    except EOFError:  # the worker is gone, its task unfinished
                        raise _stopped(process) from None
                    del busy[link]
                    if not ok:
                        raise value
                    finished[index] = value
                    idle.append(link)
                elif process.sentinel in ready and link in busy and not link.poll():
                    raise _stopped(process)
    finally:
        for process, link in processes:
            if link not in busy:
                with contextlib.suppress(OSError):
                    link.send(None)
            else:
                process.terminate()
            link.close()
        for process, _link in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()


def _stopped(process: Any) -> RuntimeError:
    """The error for a worker that died during its task, with its exit code (reaped first: the pipes of a
    dying process close a moment before the system can report how it ended)."""
    process.join(timeout=5)
    return RuntimeError(f"a worker process stopped (exit code {process.exitcode}) during its task")


def _serve(work: Callable[[Any, Any], Any], shared: Any, link: Any, parent: int) -> None:
    """A forked worker: take (index, item) from `link`, answer (index, ok, result or exception), until None."""
    watch_parent(parent)
    while True:
        try:
            job = link.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        index, item = job
        try:
            answer = (index, True, work(shared, item))
        except Exception as exc:
            answer = (index, False, exc)
        try:
            link.send(answer)
        except Exception as exc:  # an exception or result that does not pickle: its text still goes back
            link.send((index, False, RuntimeError(f"{type(exc).__name__}: {exc}")))
