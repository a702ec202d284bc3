"""Simulation tasks on a Dask distributed cluster (`--scheduler ADDRESS`), for runs past one machine.

Each task holds at least DASK_TASK_GAMES games and returns its chunks' aggregated
counts, never game objects. The chunk layout and every game's seed are those
of a local run, and results come back in submission order, so the figures are
identical to a local run's. Workers need this package installed and the
project's data at the same path as the client (they load the rules from it).
Dask is an optional extra: `pip install '.[dask]'`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from generator.errors import UsageError

if TYPE_CHECKING:
    from generator.engine.simulate.runner import ChunkResult, Task

DASK_TASK_GAMES = 1000  # games per task at least: scheduling overhead stays far below the play time
CONNECT_TIMEOUT = "10s"  # how long to try reaching the scheduler before giving up


def dask_results(scheduler: Any, work: Sequence[Task],
                 run_task: Callable[[Task], list[ChunkResult]]) -> Iterator[list[ChunkResult]]:
    """Each task's chunk results (`run_task` of each, on the cluster), in the order of `work`; `scheduler` is an
    address, a cluster or a client. The runner hands its task function in, so this module never imports it."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs Dask: install the extra with pip install '.[dask]'") from None

    if isinstance(scheduler, Client):
        yield from _gather(scheduler, work, run_task)
        return
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except OSError as exc:
        raise UsageError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc})") from None
    except ValueError as exc:  # an address Dask cannot parse
        raise UsageError(f"--scheduler {scheduler!r}: {exc}; give the address as tcp://HOST:PORT") from None
    with client:
        yield from _gather(client, work, run_task)


def _gather(client: Any, work: Sequence[Task], run: Any) -> Iterator[list[ChunkResult]]:
    futures = client.map(run, list(work), pure=False)
    try:
        for future in futures:
            yield future.result()
    finally:
        client.cancel(futures)
