"""What a batch of simulated games adds up to: counts and moments, never per-game lists.

A worker fills one `Aggregate` per chunk and sends it back; the parent merges
them in chunk order. Its size depends on the seats and on the figures the
engine reports, not on the number of games, so memory stays flat in N.

Figures from `State.stats()` are grouped by their key: a plain key (`tricks`,
`hands`, `rounds`) also gets a histogram; dotted keys (`points.sets`,
`card.gang-of-three.played`) get moments only, since there may be many.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from generator.engine.simulate.balance import BalanceTally
from generator.engine.simulate.stats import Histogram, Tally


@dataclass
class Aggregate:
    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)  # per seat; a shared victory counts for every winner
    position_wins: list[int] = field(default_factory=list)  # per start position (0: the seat that opened)
    shared: int = 0  # games with more than one winner (ties that stood after tie-breaks)
    no_winner: int = 0  # games nobody won (a lost solo game)
    scores: list[Tally] = field(default_factory=list)  # per seat
    length: Tally = field(default_factory=Tally)  # actions per game
    figures: dict[str, Tally] = field(default_factory=dict)
    lost_at: dict[str, Tally] = field(default_factory=dict)  # solo games lost, by each plain figure
    balance: BalanceTally | None = None  # when the engine has a balance hook (engine package `stats`)

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.players
        if not self.position_wins:
            self.position_wins = [0] * self.players
        if not self.scores:
            self.scores = [Tally() for _ in range(self.players)]

    def add_game(self, scores: Sequence[float], winners: Sequence[int], actions: int,
                 figures: Mapping[str, float], opener: int = 0) -> None:
        """Count one finished game; `opener` is the seat that opened it (start position 0)."""
        self.games += 1
        players = self.players
        for seat in winners:
            self.wins[seat] += 1
            self.position_wins[(seat - opener) % players] += 1
        if len(winners) > 1:
            self.shared += 1
        elif not winners:
            self.no_winner += 1
        for seat, score in enumerate(scores):
            self.scores[seat].add(score)
        self.length.add(actions)
        tallies = self.figures
        for key, value in figures.items():
            tally = tallies.get(key)
            if tally is None:
                tally = tallies[key] = Tally(hist=None if "." in key else _hist())
            tally.add(value)
        if self.players == 1 and 0 not in winners:
            for key, value in figures.items():
                if "." not in key:
                    lost = self.lost_at.get(key)
                    if lost is None:
                        lost = self.lost_at[key] = Tally()
                    lost.add(value)

    def flush(self) -> Aggregate:
        """Fold every pending count in (before sending, merging or reading)."""
        for tally in [*self.scores, self.length, *self.figures.values(), *self.lost_at.values()]:
            tally.flush()
        return self

    def merge(self, other: Aggregate) -> None:
        """Add another chunk's counts (same players and bots)."""
        if other.players != self.players:
            raise ValueError("cannot merge aggregates of different player counts")
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.position_wins = [a + b for a, b in zip(self.position_wins, other.position_wins, strict=True)]
        self.shared += other.shared
        self.no_winner += other.no_winner
        for mine, theirs in zip(self.scores, other.scores, strict=True):
            mine.merge(theirs)
        self.length.merge(other.length)
        for table, other_table in ((self.figures, other.figures), (self.lost_at, other.lost_at)):
            for key in sorted(other_table):
                theirs = other_table[key]
                if key not in table:
                    table[key] = Tally(hist=None if theirs.hist is None else _hist())
                table[key].merge(theirs)
        if other.balance is not None:
            if self.balance is None:
                self.balance = BalanceTally(self.players)
            self.balance.merge(other.balance)


def _hist() -> Histogram:
    return Histogram()
