"""Forked workers for pure jobs: they take jobs longest first from one shared counter and send results back.

This is speed machinery (`generator.speed`): with it off, or with `--jobs 1`, the building process runs
every job itself, with the same bytes. multiprocessing is imported only when workers are forked.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from generator.build.jobs import HandBack, Job, JobResult, execute, written_here
from generator.build.options import BOOKLET, DOCUMENTS
from generator.errors import PnpError
from generator.readgate import ReadGate


def longest_first(jobs: list[Job]) -> list[int]:
    """The order workers take jobs in: highest estimated cost first (ties in job order), so no long job
    starts last and leaves one core idle at the end."""
    return sorted(range(len(jobs)), key=lambda index: (-jobs[index].cost, index))


FRONT, END, WRITING = 0, 1, 2  # the slots of `ForkedJobs`'s `Shared`


class Shared:
    """A few integers shared by this process and the workers it forks: an anonymous shared mapping, with a
    lock made of a pipe that holds one token. multiprocessing's Array and Value (ctypes, a shared heap)
    cost a build's serial start some 7 ms before the first fork."""

    def __init__(self, *values: int) -> None:
        import mmap
        import os

        self._map = mmap.mmap(-1, 8 * len(values))  # MAP_SHARED: a forked worker sees the same memory
        self._slots = memoryview(self._map).cast("q")
        for index, value in enumerate(values):
            self._slots[index] = value
        self._take, self._give = os.pipe()
        os.write(self._give, b".")

    def __getitem__(self, index: int) -> int:
        return int(self._slots[index])

    def __setitem__(self, index: int, value: int) -> None:
        self._slots[index] = value

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the token: no other process holding this object reads or changes the slots meanwhile."""
        import os

        os.read(self._take, 1)
        try:
            yield
        finally:
            os.write(self._give, b".")

    def close(self) -> None:
        import os

        self._slots.release()
        self._map.close()
        os.close(self._take)
        os.close(self._give)


def _serve(jobs: list[Job], order: list[int], shared: Shared, gate: ReadGate, send: Any, parent: int,
           out_root: Path, hand_back: HandBack | None = None) -> None:
    """In a forked worker: take the next job from the front of `order` (longest first; `shared` holds the
    front and the end of what is left, and whether writing is allowed) until none is left, sending
    (index, ok, result or error) back. The worker ends with its parent, even one killed with `kill -9`.
    Once writing is allowed (every game of the build has validated), the worker writes a job's files itself.

    Results go out through a sender thread: a result bigger than the pipe's buffer would otherwise hold
    the worker until the parent reads it, and the parent may be busy (validating, drawing previews).
    """
    import queue
    import threading

    from generator.workers import watch_parent

    watch_parent(parent)
    outbox: queue.SimpleQueue[tuple[int, bool, Any] | None] = queue.SimpleQueue()
    sender = threading.Thread(target=_send_all, args=(outbox, send), name="send-results", daemon=True)
    sender.start()
    try:
        while True:
            with shared.locked():
                position, end = shared[FRONT], shared[END]
                shared[FRONT] = position + 1
            if position >= end:
                break
            index = order[position]
            job = jobs[index]
            try:
                result = execute(job, gate)
                if shared[WRITING]:
                    result = written_here(job, result, out_root)
                if hand_back is not None:
                    result = dataclasses.replace(result, kept=hand_back.give())
                outbox.put((index, True, result))
            except BaseException as exc:  # sent back and raised in the parent when it reaches the job
                error = exc if isinstance(exc, PnpError) else RuntimeError(f"{job.label}: {exc!r}")
                outbox.put((index, False, error))
                with shared.locked():
                    shared[FRONT] = shared[END]  # the build fails: the other workers stop after their current job
                break
    finally:
        outbox.put(None)
        sender.join()
        send.close()


def _send_all(outbox: Any, send: Any) -> None:
    while (message := outbox.get()) is not None:
        try:
            send.send(message)
        except OSError:  # the parent stopped listening (it failed or was interrupted)
            return
        except Exception as exc:  # a result or error that does not pickle: say so, as that job's failure
            index, ok, value = message
            if not ok and isinstance(value, PnpError):  # its words and file:line travel; what it carried stays
                send.send((index, False, type(value)(value.message, value.location)))
            else:
                send.send((index, False, RuntimeError(f"a job's result could not be sent back: {exc!r}")))


class ForkedJobs:
    """Pure jobs run in forked worker processes, longest first; results are collected as they come.

    Forking lets workers inherit the jobs (closures over loaded games), so only
    results travel back. The jobs are sorted by estimated cost (`Job.cost`); the
    `parallel - 1` forked workers take the longest from the front of that list,
    and this process, once its own jobs are done, takes the shortest from the
    back (`rest`), so both cores stay busy to the end whatever the mix, and in
    `pnp watch` the edited card's sheets are written first while a worker draws
    the rulebooks. Only where fork exists and it pays: two or more jobs and
    `parallel` > 1. Pool creation is this one constructor, easy to swap.
    A big job comes as its parts (`Job.parts`), each one of these jobs; once
    `allow_writing` (every game validated), a worker writes what it made itself
    and sends back only names and stamps, so no one process writes every file.
    """

    def __init__(self, jobs: list[Job], parallel: int, gate: ReadGate,
                 before_fork: Callable[[], None] | None = None, out_root: Path | None = None,
                 hand_back: HandBack | None = None) -> None:
        import gc
        import os

        self._jobs = jobs
        self._index = {id(job): index for index, job in enumerate(jobs)}
        self._pending: dict[int, tuple[bool, Any]] = {}
        self._delivered: set[int] = set()
        self._receivers: list[Any] = []
        self._processes: list[Any] = []
        self._order: list[int] = []  # longest first: workers take from the front, this process from the back
        self._shared: Shared | None = None  # the front and end of `_order` left, and whether workers may write
        self._gate = gate
        self._hand_back = hand_back
        if parallel < 2 or len(jobs) < 2 or not hasattr(os, "fork"):
            self._index = {}
            return  # and multiprocessing stays unimported
        import multiprocessing

        if before_fork is not None:
            before_fork()
        context = multiprocessing.get_context("fork")
        self._order = order = longest_first(jobs)
        self._shared = shared = Shared(0, len(order), 0)
        gc.freeze()  # a worker's collector then never walks (and so copies) the heap it inherited
        try:
            for _ in range(min(parallel - 1, len(jobs) - 1)):  # this process is the last worker (`rest`)
                receive, send = context.Pipe(duplex=False)
                process = context.Process(target=_serve, daemon=True,
                                          args=(jobs, order, shared, gate, send, os.getpid(), out_root, hand_back))
                process.start()
                send.close()
                self._processes.append(process)
                self._receivers.append(receive)
        finally:
            gc.unfreeze()

    def has(self, job: Job) -> bool:
        return id(job) in self._index

    def allow_writing(self) -> None:
        """Every game of the build has validated: workers may write the files of the jobs they run."""
        if self._shared is not None:
            self._shared[WRITING] = 1

    def ready(self) -> list[tuple[Job, JobResult]]:
        """Results that arrived so far, without waiting (a failure waits for `rest`)."""
        self._collect(block=False)
        return [self._take(index) for index in sorted(self._pending) if self._pending[index][0]]

    def rest(self) -> Iterator[tuple[Job, JobResult]]:
        """Every result not handed out yet, as it comes: between two jobs of its own (the shortest nobody has
        started), this process hands out what the workers finished, so their files are written meanwhile and
        not after the last one. A failure stops the workers; once they have ended, the first failure in job
        order is raised."""
        while len(self._delivered) < len(self._index):
            self._collect(block=False)
            if not any(not ok for ok, _ in self._pending.values()):
                if self._pending:
                    for index in sorted(self._pending):
                        yield self._take(index)
                    continue
                if self._run_next_here():
                    continue
                if self._collect(block=True):
                    continue
            while self._collect(block=True):  # a failure: let the workers finish their current job and end
                pass
            failed = sorted(i for i, (ok, _) in self._pending.items() if not ok)
            if failed:
                self._take(failed[0])
            missing = next(job for job in self._jobs if self._index[id(job)] not in self._delivered | set(self._pending))
            raise RuntimeError(f"the worker process running {missing.label!r} ended without a result")

    def _run_next_here(self) -> bool:
        """Take the shortest job nobody has started yet and run it in this process, instead of waiting
        idle for the workers (what it warms up, compiled templates and layouts, stays in this process
        for the next build's forks); once only documents are left, the longest of them instead; False
        when every job is taken."""
        if self._shared is None:
            return False
        with self._shared.locked():
            front, end = self._shared[FRONT], self._shared[END]
            if front >= end:
                return False
            if self._jobs[self._order[end - 1]].exporter in (DOCUMENTS, BOOKLET):
                # only documents (or longer) left: the longest, as the workers take them, so a watch edit's
                # rulebooks for two papers are drawn side by side, not one after the other in one worker
                position, self._shared[FRONT] = front, front + 1
            else:
                position = self._shared[END] = end - 1
        index = self._order[position]
        job = self._jobs[index]
        try:
            self._pending[index] = (True, execute(job, self._gate))
        except Exception as exc:  # raised when `rest` reaches the job, as a worker's failure would be
            self._pending[index] = (False, exc if isinstance(exc, PnpError) else RuntimeError(f"{job.label}: {exc!r}"))
            with self._shared.locked():
                self._shared[END] = self._shared[FRONT]  # the build fails: the workers stop after their current job
        return True

    def _take(self, index: int) -> tuple[Job, JobResult]:
        ok, value = self._pending.pop(index)
        self._delivered.add(index)
        if not ok:
            raise value
        if value.kept is not None and self._hand_back is not None:
            self._hand_back.keep(value.kept)
        return self._jobs[index], value

    def _collect(self, block: bool) -> bool:
        """Receive what the workers sent; False when every worker has ended and nothing came."""
        if not self._receivers:
            return False  # no worker (one job, --jobs 1): multiprocessing stays unimported
        from multiprocessing.connection import wait

        got = False
        while self._receivers:
            readable: list[Any] = wait(self._receivers, timeout=None if block and not got else 0)
            if not readable:
                break
            for receive in readable:
                try:
                    index, ok, value = receive.recv()
                except EOFError:
                    self._receivers.remove(receive)
                    receive.close()
                    continue
                self._pending[index] = (ok, value)
                got = True
            if got and block:
                break
        return got

    def close(self) -> None:
        """Stop the workers. Once every result is in, they have nothing left to take and end by themselves:
        they are not waited for (a worker that finished last spends a few ms unmapping its copy of this
        process, on the build's path), and multiprocessing reaps them at the next fork or at exit."""
        for receive in self._receivers:
            receive.close()
        finished = len(self._delivered) == len(self._index)
        for process in self._processes:
            if finished:
                continue
            process.join(timeout=0.1)
            if process.is_alive():
                process.terminate()
                process.join()
        self._receivers = []
        self._processes = []
        if self._shared is not None:
            self._shared.close()
            self._shared = None
