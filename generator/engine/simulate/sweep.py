"""Grid sweeps over designed values: `--vary PATH=v1,v2,...` points, and the metrics read at each.

Every point of the grid is played with the same root seed, so points differ
only by the data (common random numbers: differences between points are not
masked by different deals). A metric is read from each point's `Summary`:

  seat:N        win rate of seat N          position:N    win rate of start position N
  share:SOURCE  share of all points gained  taken:CHOICE  how often a seat takes CHOICE
  takers:CHOICE win rate of its takers      ties          games whose top score was tied
  max-share     the largest share, naming its source
  max-takers    the takers' win rate of the choice whose interval's low end is highest (so one lucky
                taker of a rare choice does not win it), naming the choice
  mean:FIGURE   mean of a per-game figure (actions, rounds...), normal-approximation interval
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from generator.engine.simulate.stats import Z95
from generator.errors import UsageError
from generator.load.overrides import Override
from generator.simulation import MetricValue, Rate, Summary

DEFAULT_METRICS = ("max-share", "max-takers", "seat:1")
PLAIN = ("ties", "max-share", "max-takers")
PREFIXES = ("seat", "position", "share", "taken", "takers", "mean")


@dataclass(frozen=True)
class Vary:
    path: str
    values: tuple[str, ...]

    @classmethod
    def parse(cls, spec: str) -> Vary:
        path, sep, text = spec.partition("=")
        values = tuple(v.strip() for v in _split(text))
        if not sep or not path.strip() or not values or not all(values):
            raise UsageError(f"--vary {spec!r}: write PATH=v1,v2,..., e.g. combinations.full-crew.points=4,6,8")
        Override.parse(f"{path}={values[0]}")  # the same path rules as --set
        return cls(path.strip(), values)


def _split(text: str) -> list[str]:
    """Split on commas outside brackets, so a list value `[1, 2]` stays whole."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char in "[{"
        depth -= char in "]}"
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


def grid(varies: Sequence[Vary]) -> list[tuple[str, ...]]:
    """Every combination of values, the first --vary slowest."""
    return list(itertools.product(*(v.values for v in varies)))


def check_metric(name: str) -> str:
    head, sep, arg = name.partition(":")
    if (not sep and name in PLAIN) or (sep and head in PREFIXES and arg):
        if head in ("seat", "position") and not arg.isdigit():
            raise UsageError(f"--metric {name}: {head} takes a number from 1, e.g. {head}:1")
        return name
    raise UsageError(f"--metric {name!r}: unknown metric (metrics: {', '.join(PLAIN)}, "
                     f"{', '.join(p + ':NAME' for p in PREFIXES)})")


def metric(summary: Summary, name: str) -> MetricValue:
    """The named metric of one run (see the module docstring)."""
    head, _sep, arg = name.partition(":")
    balance = summary.balance
    if head in ("seat", "position"):
        rows = summary.seats if head == "seat" else summary.by_position
        index = int(arg) - 1
        if not 0 <= index < len(rows):
            raise UsageError(f"--metric {name}: the game has {len(rows)} seats (1..{len(rows)})")
        return _rate(rows[index].rate)
    if head == "mean":
        figure = summary.length.get(arg)
        if figure is None:
            raise UsageError(f"--metric {name}: no figure {arg!r} (figures: {', '.join(summary.length)})")
        m = figure.moments
        half = Z95 * m.sd / math.sqrt(m.n) if m.n else 0.0
        return MetricValue(m.mean, (m.mean - half, m.mean + half))
    if balance is None:
        raise UsageError(f"--metric {name}: {summary.game} has no balance hook (only seat:, position:, mean:)")
    if head == "ties":
        return _rate(balance.ties)
    if head == "max-share":
        top = max(balance.sources, key=lambda r: r.share, default=None)
        return MetricValue(None) if top is None else MetricValue(top.share, top.ci95, top.source)
    if head == "max-takers":
        taken = [r for r in balance.choices if r.takers.trials]
        best = max(taken, key=lambda r: (r.takers.ci95[0], r.takers.rate, r.choice), default=None)
        return MetricValue(None) if best is None else _rate(best.takers, best.choice)
    if head == "share":
        source = next((r for r in balance.sources if r.source == arg), None)
        return MetricValue(None, unmet=True) if source is None else MetricValue(source.share, source.ci95)
    choice = next((r for r in balance.choices if r.choice == arg), None)
    if choice is None:
        return MetricValue(None, unmet=True)
    if head == "taken":
        return _rate(choice.taken)
    return _rate(choice.takers) if choice.takers.trials else MetricValue(None)


def known_names(summary: Summary, head: str) -> str:
    """The names `share:` (sources) or `taken:`/`takers:` (choices) may take, as one run met them."""
    balance = summary.balance
    if balance is None:
        return "this game has no balance hook"
    if head == "share":
        return "sources met: " + (", ".join(r.source for r in balance.sources) or "none")
    return "choices met: " + (", ".join(r.choice for r in balance.choices) or "none")


def _rate(rate: Rate, about: str = "") -> MetricValue:
    return MetricValue(rate.rate, rate.ci95, about)
