"""The typed summary of a simulation run: what the terminal table, `--json`, the PDF report and the gallery read.

It lives on the ground floor so that both the simulator (`generator.engine.simulate`,
which fills it) and the renderer (`generator.render.reports.simulation`, which draws it) can
import it without importing each other. Plain frozen dataclasses of numbers and
strings; `to_json` and `from_json` round-trip it, so a report can be drawn from
a saved `pnp simulate --json` file.

Seats and start positions are numbered from 1 here, as people count them:
seat 1 is the first seat of the table, start position 1 the player who opened
the game. Where the rules fix who opens, the two tables agree; where the
opener is a chance outcome of the deal (a race, a draw), they differ.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

SCHEMA = 3  # 3: `balance` (points by source, choices, ties, warnings); 2: start positions (`by_position`)


# -- how its numbers read: one wording for the terminal table, the warnings and the PDF report --------------


def format_pct(value: float) -> str:
    """0.1234 -> '12.3%'."""
    return f"{100 * value:.1f}%"


def format_interval(low: float, high: float) -> str:
    """(-0.469, -0.444) -> '-46.9% to -44.4%': a dash between two signed bounds would read '-46.9%--44.4%'."""
    return f"{format_pct(low)} to {format_pct(high)}"


def format_num(value: Any) -> str:
    """Integers as they are, other numbers to two places, None as a dash."""
    if value is None:
        return "-"
    if isinstance(value, int):
        return str(value)
    return f"{value:.2f}"


@dataclass(frozen=True)
class Moments:
    """Count, mean, sample sd, min and max of one figure (min and max are None when n is 0)."""

    n: int
    mean: float
    sd: float
    min: float | None
    max: float | None

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "mean": self.mean, "sd": self.sd, "min": self.min, "max": self.max}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Moments:
        return cls(int(data["n"]), float(data["mean"]), float(data["sd"]), data["min"], data["max"])


@dataclass(frozen=True)
class Histogram:
    """Counts per bucket [low, low + width); buckets run from the lowest to the highest, gaps as zeros."""

    width: int
    buckets: tuple[tuple[float, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {"width": self.width, "buckets": [[low, count] for low, count in self.buckets]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Histogram | None:
        if data is None:
            return None
        return cls(int(data["width"]), tuple((low, int(count)) for low, count in data["buckets"]))

    @property
    def informative(self) -> bool:
        """Worth drawing: at least two buckets hold games."""
        return sum(1 for _low, count in self.buckets if count) > 1


@dataclass(frozen=True)
class Rate:
    """Wins out of trials, with the 95% Wilson interval."""

    wins: int
    trials: int
    rate: float
    ci95: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        return {"wins": self.wins, "trials": self.trials, "rate": self.rate, "ci95": list(self.ci95)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rate:
        low, high = data["ci95"]
        return cls(int(data["wins"]), int(data["trials"]), float(data["rate"]), (float(low), float(high)))


def format_ci(rate: Rate) -> str:
    """A rate's 95% interval."""
    return format_interval(*rate.ci95)


@dataclass(frozen=True)
class SeatRow:
    seat: int  # 1-based
    bot: str
    rate: Rate
    score: Moments
    score_hist: Histogram | None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "bot": self.bot, **self.rate.to_json(), "score": self.score.to_json(),
                "score_hist": self.score_hist.to_json() if self.score_hist else None}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatRow:
        return cls(int(data["seat"]), str(data["bot"]), Rate.from_json(data), Moments.from_json(data["score"]),
                   Histogram.from_json(data["score_hist"]))


@dataclass(frozen=True)
class PositionRow:
    position: int  # 1-based: 1 opened the game
    rate: Rate

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position, **self.rate.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PositionRow:
        return cls(int(data["position"]), Rate.from_json(data))


@dataclass(frozen=True)
class BotRow:
    bot: str
    seats: int
    rate: Rate  # seats of one game are not independent trials: the interval is indicative only

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "seats": self.seats, **self.rate.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BotRow:
        return cls(str(data["bot"]), int(data["seats"]), Rate.from_json(data))


@dataclass(frozen=True)
class Figure:
    """One per-game figure (actions, rounds, tricks...): moments and, for plain figures, a histogram."""

    moments: Moments
    hist: Histogram | None = None

    def to_json(self) -> dict[str, Any]:
        return {**self.moments.to_json(), "hist": self.hist.to_json() if self.hist else None}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Figure:
        return cls(Moments.from_json(data), Histogram.from_json(data.get("hist")))


@dataclass(frozen=True)
class Solo:
    """A one-player game: the win rate, and how far lost games got (one histogram per progress figure)."""

    rate: Rate
    lost: int
    lost_at: Mapping[str, Histogram | None] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {**self.rate.to_json(), "lost": self.lost,
                "lost_at": {key: hist.to_json() if hist else None for key, hist in self.lost_at.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Solo:
        return cls(Rate.from_json(data), int(data["lost"]),
                   {key: Histogram.from_json(hist) for key, hist in data["lost_at"].items()})


@dataclass(frozen=True)
class SourceRow:
    """One source of points: mean points per seat per game and its share of all points gained.

    `ci95` is a delta-method interval of the ratio (source points / points gained over games);
    a penalty's share is negative (the points it takes away, against the points gained)."""

    source: str
    mean: float
    share: float
    ci95: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "mean": self.mean, "share": self.share, "ci95": list(self.ci95)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SourceRow:
        low, high = data["ci95"]
        return cls(str(data["source"]), float(data["mean"]), float(data["share"]), (float(low), float(high)))


@dataclass(frozen=True)
class ChoiceRow:
    """An optional thing (a mercenary, a combination): how often a seat takes it, and how takers fare.

    Trials are seat-games; seats of one game are not independent, so intervals are indicative."""

    choice: str
    taken: Rate  # seat-games in which the seat took it
    takers: Rate  # win rate of seats that took it
    others: Rate  # win rate of seats that did not
    edge: float  # takers' win rate minus the mean win rate of a seat

    def to_json(self) -> dict[str, Any]:
        return {"choice": self.choice, "taken": self.taken.to_json(), "takers": self.takers.to_json(),
                "others": self.others.to_json(), "edge": self.edge}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ChoiceRow:
        return cls(str(data["choice"]), Rate.from_json(data["taken"]), Rate.from_json(data["takers"]),
                   Rate.from_json(data["others"]), float(data["edge"]))


@dataclass(frozen=True)
class Balance:
    """What a designer acts on: sources, choices, ties, and warning lines past the set limits."""

    fair: float  # mean win rate of a seat (1/players, a little more with shared victories)
    sources: tuple[SourceRow, ...]
    choices: tuple[ChoiceRow, ...]
    ties: Rate  # games whose top score was tied
    tie_breaks: Mapping[str, int]  # how tied games ended: the tie-break that settled them, or "shared"
    max_share: float
    max_edge: float
    warnings: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"fair": self.fair, "sources": [r.to_json() for r in self.sources],
                "choices": [r.to_json() for r in self.choices], "ties": self.ties.to_json(),
                "tie_breaks": dict(self.tie_breaks), "max_share": self.max_share, "max_edge": self.max_edge,
                "warnings": list(self.warnings)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Balance:
        return cls(float(data["fair"]), tuple(SourceRow.from_json(r) for r in data["sources"]),
                   tuple(ChoiceRow.from_json(r) for r in data["choices"]), Rate.from_json(data["ties"]),
                   {str(k): int(v) for k, v in data["tie_breaks"].items()}, float(data["max_share"]),
                   float(data["max_edge"]), tuple(str(w) for w in data["warnings"]))


@dataclass(frozen=True)
class Summary:
    """A whole run. `length` and `cards` keep the order the simulator gave them; a group's entries come
    largest mean first (for points by source, the balance table's order by share)."""

    game: str
    title: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int
    check: bool
    seats: tuple[SeatRow, ...]
    by_position: tuple[PositionRow, ...]
    by_bot: tuple[BotRow, ...]
    shared_wins: int
    no_winner: int
    length: Mapping[str, Figure]
    progress: tuple[str, ...]  # the keys of `length` that say how far a game got
    groups: Mapping[str, Mapping[str, Moments]]  # e.g. points by source
    cards: Mapping[str, Mapping[str, float]]  # card -> metric -> mean per game
    solo: Solo | None = None
    balance: Balance | None = None
    overrides: tuple[str, ...] = ()  # `--set PATH=VALUE` the run's data was changed by

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "schema": SCHEMA,
            "game": self.game,
            "title": self.title,
            "players": self.players,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "check": self.check,
            "seats": [row.to_json() for row in self.seats],
            "by_position": [row.to_json() for row in self.by_position],
            "by_bot": [row.to_json() for row in self.by_bot],
            "shared_wins": self.shared_wins,
            "no_winner": self.no_winner,
            "length": {key: figure.to_json() for key, figure in self.length.items()},
            "progress": list(self.progress),
            "groups": {group: {key: m.to_json() for key, m in entries.items()}
                       for group, entries in self.groups.items()},
            "cards": {card: dict(values) for card, values in self.cards.items()},
        }
        if self.solo is not None:
            data["solo"] = self.solo.to_json()
        if self.balance is not None:
            data["balance"] = self.balance.to_json()
        if self.overrides:
            data["overrides"] = list(self.overrides)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Summary:
        """Read `to_json()` back (a saved `pnp simulate --json`); KeyError/ValueError on another shape."""
        if data.get("schema") != SCHEMA:
            raise ValueError(f"simulation summary schema {data.get('schema')!r}, expected {SCHEMA}")
        return cls(
            game=str(data["game"]), title=str(data["title"]), players=int(data["players"]),
            bots=tuple(str(b) for b in data["bots"]), games=int(data["games"]), seed=int(data["seed"]),
            check=bool(data["check"]),
            seats=tuple(SeatRow.from_json(row) for row in data["seats"]),
            by_position=tuple(PositionRow.from_json(row) for row in data["by_position"]),
            by_bot=tuple(BotRow.from_json(row) for row in data["by_bot"]),
            shared_wins=int(data["shared_wins"]), no_winner=int(data["no_winner"]),
            length={key: Figure.from_json(f) for key, f in data["length"].items()},
            progress=tuple(data["progress"]),
            groups={g: {k: Moments.from_json(m) for k, m in e.items()} for g, e in data["groups"].items()},
            cards={card: {m: float(v) for m, v in values.items()} for card, values in data["cards"].items()},
            solo=Solo.from_json(data["solo"]) if "solo" in data else None,
            balance=Balance.from_json(data["balance"]) if "balance" in data else None,
            overrides=tuple(str(o) for o in data.get("overrides", ())),
        )

    @property
    def opener_varies(self) -> bool:
        """True when start positions are worth a table of their own (they differ from the seats)."""
        return self.players > 1 and [r.rate for r in self.by_position] != [r.rate for r in self.seats]

    def headline(self) -> dict[str, str]:
        """The few lines the gallery shows for the latest run (`output/<game>/simulation.json`)."""
        lines = {
            "games": f"{self.games} with {self.players} player(s), seed {self.seed}",
            "bots": ", ".join(self.bots),
        }
        for row in self.seats:
            lines[f"seat {row.seat} ({row.bot}) wins"] = _rate_text(row.rate)
        if self.opener_varies:
            for pos in self.by_position:
                lines[f"start position {pos.position} wins"] = _rate_text(pos.rate)
        if self.balance is not None:
            for number, warning in enumerate(self.balance.warnings, 1):
                lines[f"balance warning {number}"] = warning
        return lines

    def latest_record(self) -> dict[str, Any]:
        """The gallery's `simulation.json`: the headline and the whole summary."""
        return {"headline": self.headline(), "summary": self.to_json()}


def _rate_text(rate: Rate) -> str:
    low, high = rate.ci95
    return f"{100 * rate.rate:.1f}% (95% CI {100 * low:.1f}%–{100 * high:.1f}%)"


@dataclass(frozen=True)
class MetricValue:
    """One metric at one grid point: its value, 95% interval, and what it refers to when it picks one
    (`max-share` names the source with the largest share). `value` is None when nothing was measured."""

    value: float | None
    ci95: tuple[float, float] | None = None
    about: str = ""
    unmet: bool = False  # the named source or choice did not occur in this run (perhaps misspelt)

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "ci95": list(self.ci95) if self.ci95 else None, "about": self.about}


@dataclass(frozen=True)
class SweepPoint:
    values: tuple[str, ...]  # one per varied path, as typed
    metrics: Mapping[str, MetricValue]

    def to_json(self, paths: tuple[str, ...]) -> dict[str, Any]:
        return {"set": dict(zip(paths, self.values, strict=True)),
                "metrics": {name: m.to_json() for name, m in self.metrics.items()}}


@dataclass(frozen=True)
class Sweep:
    """A grid of runs over designed values (`pnp sweep`): every point played with the same seed."""

    game: str
    title: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int
    paths: tuple[str, ...]
    metrics: tuple[str, ...]
    points: tuple[SweepPoint, ...]
    fixed: tuple[str, ...] = ()  # `--set` overrides that hold at every point

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "players": self.players, "bots": list(self.bots),
                "games": self.games, "seed": self.seed, "vary": list(self.paths), "set": list(self.fixed),
                "metrics": list(self.metrics), "points": [p.to_json(self.paths) for p in self.points]}
