"""Statistics math of the simulator against known values and invariants."""

from __future__ import annotations

import math
import pickle
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.simulate.aggregate import Aggregate
from generator.engine.simulate.stats import MAX_BINS, Histogram, Moments, wilson


@pytest.mark.parametrize(
    ("wins", "trials", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17, table I: Wilson score intervals
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
    ],
)
def test_wilson_matches_published_values(wins: int, trials: int, low: float, high: float) -> None:
    lo, hi = wilson(wins, trials)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


def test_wilson_edges() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 50)[0] == 0.0
    assert wilson(50, 50)[1] == 1.0
    with pytest.raises(ValueError):
        wilson(11, 10)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_the_estimate_and_stays_in_range(case: tuple[int, int]) -> None:
    wins, trials = case
    lo, hi = wilson(wins, trials)
    assert 0.0 <= lo <= wins / trials <= hi <= 1.0


def test_moments_known_case() -> None:
    m = Moments()
    for v in [2, 4, 4, 4, 5, 5, 7, 9]:
        m.add(v)
    assert m.n == 8
    assert m.mean == 5
    assert m.sd == pytest.approx(statistics.stdev([2, 4, 4, 4, 5, 5, 7, 9]))
    assert (m.low, m.high) == (2, 9)
    assert isinstance(m.total, int)  # integral scores are summed exactly


values = st.lists(st.integers(-50, 200) | st.floats(-50, 200, allow_nan=False).map(lambda x: round(x, 2)),
                  min_size=0, max_size=60)


@settings(max_examples=60, deadline=None)
@given(values, values)
def test_moments_merge_equals_one_pass(a: list[float], b: list[float]) -> None:
    one, left, right = Moments(), Moments(), Moments()
    for v in a + b:
        one.add(v)
    for v in a:
        left.add(v)
    for v in b:
        right.add(v)
    left.merge(right)
    assert left.n == one.n and left.low == one.low and left.high == one.high
    assert left.mean == pytest.approx(one.mean)
    assert left.sd == pytest.approx(one.sd, abs=1e-6)
    if len(a + b) >= 2:  # a sum of squares of floats rounds: allow for it at the values' scale
        scale = max(1.0, *(abs(v) for v in a + b))
        assert left.sd == pytest.approx(statistics.stdev(a + b), abs=1e-6 * scale)


def test_histogram_counts_and_buckets() -> None:
    h = Histogram()
    for v in [0, 1, 1, 3, 3, 3]:
        h.add(v)
    assert h.buckets() == [(0, 1, 1), (1, 2, 2), (2, 3, 0), (3, 4, 3)]
    assert h.total == 6
    assert h.to_dict() == {"width": 1, "buckets": [[0, 1], [1, 2], [2, 0], [3, 3]]}


def test_histogram_coarsens_instead_of_growing() -> None:
    h = Histogram()
    for v in range(1000):
        h.add(v)
    assert len(h.counts) <= MAX_BINS
    assert h.width == 16  # 1000 values need 63 buckets of 16
    assert h.total == 1000
    assert h.counts[0] == 16


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-300, 3000), max_size=200), st.lists(st.integers(-300, 3000), max_size=200))
def test_histogram_merge_keeps_every_count(a: list[int], b: list[int]) -> None:
    one, left, right = Histogram(), Histogram(), Histogram()
    for v in a + b:
        one.add(v)
    for v in a:
        left.add(v)
    for v in b:
        right.add(v)
    left.merge(right)
    assert left.total == len(a) + len(b)
    assert len(left.counts) <= MAX_BINS
    # every value lands in the bucket that covers it, at the merged width
    width = left.width
    expected: dict[int, int] = {}
    for v in a + b:
        expected[math.floor(v / width)] = expected.get(math.floor(v / width), 0) + 1
    assert {k: c for k, c in left.counts.items() if c} == expected


def _fill(aggregate: Aggregate, games: int) -> None:
    for i in range(games):
        winner = i % 3
        aggregate.add_game([float(i % 7), float((i * 5) % 11), float(i % 2)], [winner] if i % 10 else [0, 1],
                           20 + i % 13, {"tricks": i % 10, "points.sets": i % 4, "card.gang.played": i % 2})


def test_aggregate_size_does_not_grow_with_games() -> None:
    small, large = Aggregate(3), Aggregate(3)
    _fill(small, 300)
    _fill(large, 30_000)
    assert large.games == 30_000
    # only the counters' digits grow; no per-game list is kept
    assert len(pickle.dumps(large.flush())) <= len(pickle.dumps(small.flush())) + 600


def test_aggregate_counts_shared_wins_for_every_winner() -> None:
    agg = Aggregate(2)
    agg.add_game([3, 3], [0, 1], 10, {})
    agg.add_game([1, 2], [1], 12, {})
    assert agg.wins == [1, 2]
    assert agg.shared == 1 and agg.no_winner == 0
    agg.flush()
    assert agg.length.moments.mean == 11


def test_aggregate_merge_equals_one_pass() -> None:
    one, a, b = Aggregate(3), Aggregate(3), Aggregate(3)
    _fill(one, 500)
    _fill(a, 200)
    for i in range(200, 500):
        winner = i % 3
        b.add_game([float(i % 7), float((i * 5) % 11), float(i % 2)], [winner] if i % 10 else [0, 1],
                   20 + i % 13, {"tricks": i % 10, "points.sets": i % 4, "card.gang.played": i % 2})
    a.merge(b)
    assert pickle.dumps(a.flush()) == pickle.dumps(one.flush())
