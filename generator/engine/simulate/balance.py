"""Balance counts: points by source, who takes each optional thing and how often takers win, ties.

A game opts in with a small hook beside its rules, `<engine package>.stats`,
defining `balance(state) -> GameBalance` for a finished game. The hook names
sources and choices by the ids in the game's data (a combination's id, a
mercenary's id), so the simulator itself knows no game's vocabulary.

`BalanceTally` adds games up in fixed-size, exactly mergeable counts: per
source the sums needed for a ratio estimate (share of all points gained) and
its delta-method interval; per choice the takers, their wins and the
non-takers' wins; per tie-break how often it decided a tied game.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.engine.base import State

SHARED = "shared"  # a tie that no tie-break settled: the victory is shared


@dataclass(frozen=True)
class GameBalance:
    """What one finished game says about balance, per seat.

    `points[seat]` maps source -> points that seat got from it (penalties negative);
    `taken[seat]` is the set of choices the seat took at least once;
    `tie` is None when the top score was not tied, else the name of the
    tie-break that settled it, or SHARED when the victory stayed shared.
    """

    points: Sequence[Mapping[str, int | float]]
    taken: Sequence[Collection[str]]
    tie: str | None = None


BalanceHook = Callable[[State], GameBalance]


def load_hook(engine_module: str) -> BalanceHook | None:
    """The engine's `stats.balance` hook, or None when the game has none."""
    try:
        module = importlib.import_module(f"{engine_module}.stats")
    except ModuleNotFoundError as exc:
        if exc.name == f"{engine_module}.stats":
            return None
        raise
    hook = getattr(module, "balance", None)
    return hook if callable(hook) else None


@dataclass
class SourceSums:
    """Per game g, with x_g this source's points (all seats) and t_g all points gained:
    the sums of x, x*x and x*t. Totals of t are kept once, in BalanceTally."""

    x: int | float = 0
    xx: int | float = 0
    xt: int | float = 0


@dataclass
class ChoiceCounts:
    takers: int = 0  # seat-games in which the seat took it
    taker_wins: int = 0  # non-takers' wins are all wins minus these (BalanceTally.wins)


@dataclass
class BalanceTally:
    """Mergeable balance counts for one run (see the module docstring)."""

    players: int
    games: int = 0
    wins: int = 0  # seat-wins in all (a shared victory counts for every winner)
    gained: int | float = 0  # sum over games of t (points gained: positive sources only)
    gained_sq: int | float = 0
    sources: dict[str, SourceSums] = field(default_factory=dict)
    choices: dict[str, ChoiceCounts] = field(default_factory=dict)
    ties: dict[str, int] = field(default_factory=dict)

    def add_game(self, balance: GameBalance, winners: Collection[int]) -> None:
        self.games += 1
        self.wins += len(winners)
        totals: dict[str, int | float] = {}
        for seat_points in balance.points:
            for source, value in seat_points.items():
                totals[source] = totals.get(source, 0) + value
        t = sum(v for v in totals.values() if v > 0)
        self.gained += t
        self.gained_sq += t * t
        for source, value in totals.items():
            sums = self.sources.get(source)
            if sums is None:  # a source first seen now had 0 in earlier games: its sums start at 0
                sums = self.sources[source] = SourceSums()
            sums.x += value
            sums.xx += value * value
            sums.xt += value * t
        for seat, taken in enumerate(balance.taken):
            won = seat in winners
            for choice in taken:
                counts = self.choices.get(choice)
                if counts is None:
                    counts = self.choices[choice] = ChoiceCounts()
                counts.takers += 1
                counts.taker_wins += won
        if balance.tie is not None:
            self.ties[balance.tie] = self.ties.get(balance.tie, 0) + 1

    def merge(self, other: BalanceTally) -> None:
        """Add another chunk's counts (exact: every count is a sum)."""
        self.games += other.games
        self.wins += other.wins
        self.gained += other.gained
        self.gained_sq += other.gained_sq
        for source in sorted(other.sources):
            theirs = other.sources[source]
            mine = self.sources.setdefault(source, SourceSums())
            mine.x += theirs.x
            mine.xx += theirs.xx
            mine.xt += theirs.xt
        for choice in sorted(other.choices):
            theirs_c = other.choices[choice]
            mine_c = self.choices.setdefault(choice, ChoiceCounts())
            mine_c.takers += theirs_c.takers
            mine_c.taker_wins += theirs_c.taker_wins
        for tie in sorted(other.ties):
            self.ties[tie] = self.ties.get(tie, 0) + other.ties[tie]

    def to_state(self) -> dict[str, Any]:
        """Plain numbers (for tests and debugging)."""
        return {"games": self.games, "wins": self.wins, "sources": {k: vars(v) for k, v in sorted(self.sources.items())},
                "choices": {k: vars(v) for k, v in sorted(self.choices.items())}, "ties": dict(self.ties)}
