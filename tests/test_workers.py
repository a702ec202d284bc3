"""`forked_map`: the simulator's worker processes: results in order, errors raised here, a dead worker named."""

from __future__ import annotations

import os

import pytest

from generator.workers import can_fork, forked_map

pytestmark = pytest.mark.skipif(not can_fork(), reason="the shared value reaches workers by fork")


class Unpicklable:
    """Stands in for a run's rules, which do not pickle: they must reach the workers by fork."""

    def __init__(self, factor: int) -> None:
        self.factor = factor

    def __reduce__(self) -> object:
        raise TypeError("not picklable")


def _times(shared: Unpicklable, item: int) -> tuple[int, int]:
    return item * shared.factor, os.getpid()


def _refuse_five(_shared: object, item: int) -> int:
    if item == 5:
        raise ValueError(f"item {item} refused")
    return item


def _die_at_three(_shared: object, item: int) -> int:
    if item == 3:
        os._exit(7)
    return item


def test_results_come_in_the_order_of_the_items_from_other_processes() -> None:
    results = list(forked_map(_times, Unpicklable(3), list(range(40)), 2))
    assert [value for value, _pid in results] == [3 * n for n in range(40)]
    assert os.getpid() not in {pid for _value, pid in results}
    assert list(forked_map(_times, Unpicklable(3), [], 2)) == []


def test_a_workers_error_is_raised_here_and_a_dead_worker_is_named() -> None:
    with pytest.raises(ValueError, match="item 5 refused"):
        list(forked_map(_refuse_five, None, list(range(10)), 2))
    with pytest.raises(RuntimeError, match="exit code 7"):
        list(forked_map(_die_at_three, None, list(range(6)), 2))
