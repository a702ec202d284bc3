"""Small streaming statistics that merge: moments, bucketed histograms, Wilson intervals.

Everything here has a fixed size whatever the number of games, so a worker can
play 100,000 games and send back a few hundred numbers. Integer inputs are
summed as Python ints, so merging is exact and the result does not depend on
the order in which chunks come back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

Z95 = 1.959963984540054  # two-sided 95% normal quantile

MAX_BINS = 64  # a histogram coarsens (doubles its bucket width) rather than grow past this


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0 or
    n successes, which matters for rare outcomes such as solo wins.
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes {successes} outside 0..{trials}")
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def _exact(value: float) -> int | float:
    """Integral floats become ints, so sums of game scores stay exact."""
    if isinstance(value, int):
        return value
    return int(value) if float(value).is_integer() else float(value)


@dataclass
class Moments:
    """Count, sum, sum of squares, min and max: enough for mean and sd, mergeable."""

    n: int = 0
    total: int | float = 0
    squares: int | float = 0
    low: int | float | None = None
    high: int | float | None = None

    def add(self, value: float) -> None:
        v = _exact(value) if type(value) is not int else value
        self.n += 1
        self.total += v
        self.squares += v * v
        if self.low is None or v < self.low:
            self.low = v
        if self.high is None or v > self.high:
            self.high = v

    def add_many(self, value: float, times: int) -> None:
        """`add(value)` repeated `times` times, in one step."""
        v = _exact(value) if type(value) is not int else value
        self.n += times
        self.total += v * times
        self.squares += v * v * times
        if self.low is None or v < self.low:
            self.low = v
        if self.high is None or v > self.high:
            self.high = v

    def merge(self, other: Moments) -> None:
        if other.n == 0:
            return
        self.n += other.n
        self.total += other.total
        self.squares += other.squares
        self.low = other.low if self.low is None or (other.low is not None and other.low < self.low) else self.low
        if self.high is None or (other.high is not None and other.high > self.high):
            self.high = other.high

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def sd(self) -> float:
        """Sample standard deviation (n - 1), 0 for fewer than two values. Exact for integer
        values (game scores); float values carry the rounding of their sum of squares."""
        if self.n < 2 or self.low == self.high:
            return 0.0
        var = (self.squares - self.total * self.total / self.n) / (self.n - 1)
        return math.sqrt(max(0.0, var))

    def to_dict(self) -> dict[str, float | int | None]:
        return {"n": self.n, "mean": self.mean, "sd": self.sd, "min": self.low, "max": self.high}


@dataclass
class Histogram:
    """Counts per bucket `[k * width, (k + 1) * width)`; width is a power of two >= 1.

    Game figures are small integers (scores, tricks, hands), so width 1 keeps
    them exact; a wide spread doubles the width until at most MAX_BINS
    buckets remain, so the size is bounded whatever the data.
    """

    width: int = 1
    counts: dict[int, int] = field(default_factory=dict)

    def add(self, value: float, times: int = 1) -> None:
        key = value if self.width == 1 and type(value) is int else math.floor(value / self.width)
        counts = self.counts
        if key in counts:
            counts[key] += times
            return
        counts[key] = times
        if len(counts) > MAX_BINS:
            self._coarsen(self.width * 2)

    def _coarsen(self, width: int) -> None:
        while True:
            factor = width // self.width
            merged: dict[int, int] = {}
            for key, count in self.counts.items():
                k = key // factor  # floor division keeps negative buckets aligned
                merged[k] = merged.get(k, 0) + count
            self.counts, self.width = merged, width
            if len(self.counts) <= MAX_BINS:
                return
            width *= 2

    def merge(self, other: Histogram) -> None:
        if other.width > self.width:
            self._coarsen(other.width)
        factor = self.width // other.width
        for key, count in sorted(other.counts.items()):
            k = key // factor
            self.counts[k] = self.counts.get(k, 0) + count
        if len(self.counts) > MAX_BINS:
            self._coarsen(self.width * 2)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def buckets(self) -> list[tuple[float, float, int]]:
        """(low, high, count) for every bucket from the lowest to the highest, gaps as zeros."""
        if not self.counts:
            return []
        lo, hi = min(self.counts), max(self.counts)
        return [(k * self.width, (k + 1) * self.width, self.counts.get(k, 0)) for k in range(lo, hi + 1)]

    def to_dict(self) -> dict[str, object]:
        return {"width": self.width, "buckets": [[lo, count] for lo, _hi, count in self.buckets()]}


PENDING_MAX = 512  # distinct values a Tally holds before folding them in


@dataclass
class Tally:
    """Moments and (optionally) a histogram of one figure, fed cheaply.

    `add` only counts the value in a small dict (game figures repeat a lot:
    a few trick counts, a few scores); `flush` folds those counts into the
    moments and histogram. It flushes itself past PENDING_MAX distinct values,
    so its size stays bounded whatever the data.
    """

    moments: Moments = field(default_factory=Moments)
    hist: Histogram | None = field(default_factory=Histogram)
    pending: dict[float, int] = field(default_factory=dict)

    def add(self, value: float) -> None:
        pending = self.pending
        if value in pending:
            pending[value] += 1
            return
        pending[value] = 1
        if len(pending) > PENDING_MAX:
            self.flush()

    def flush(self) -> None:
        """Fold the counted values in, in sorted order (so the result never depends on arrival order)."""
        for value in sorted(self.pending):
            times = self.pending[value]
            self.moments.add_many(value, times)
            if self.hist is not None:
                self.hist.add(value, times)
        self.pending = {}

    def merge(self, other: Tally) -> None:
        self.flush()
        other.flush()
        self.moments.merge(other.moments)
        if self.hist is not None and other.hist is not None:
            self.hist.merge(other.hist)
