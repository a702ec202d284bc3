"""Turn merged counts into the typed `generator.simulation.Summary` every output reads.

The terminal table, `--json`, the PDF report and the gallery all print this one
structure, so they cannot disagree; the renderer receives it without importing
the engine. `record_latest` keeps the latest run where the gallery looks for it.

Figures from `State.stats()` are sorted by the shape of their keys, so no
engine's vocabulary is written here:
  * `card.<card>.<metric>`                  -> the per-card table
  * `<group>.<part>`, or `<group>_<part>` when two or more keys share the
    group (`points_captains`, `points_curses`; `vp_runs`, `vp_sets`)
                                            -> one table per group: points by source
  * any other key (`tricks`, `hands_played`, `rounds`) -> game length, with a histogram
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from generator.engine.simulate.aggregate import Aggregate
from generator.engine.simulate.bots import unique
from generator.engine.simulate.stats import Histogram, Moments, Tally, wilson
from generator.project import Project, write_atomic
from generator.simulation import (
    BotRow,
    Figure,
    PositionRow,
    Rate,
    SeatRow,
    Solo,
    Summary,
)
from generator.simulation import Histogram as HistogramSummary
from generator.simulation import Moments as MomentsSummary

# Words that mark a figure saying how far a game got (hands played, rounds...): the figures
# worth a histogram on the terminal, and the ones that tell when a solo game was lost.
PROGRESS_WORDS = ("hand", "round", "trick", "turn", "pass")

LATEST = "simulation.json"  # output/<game>/simulation.json: the gallery shows its headline


def _is_progress(key: str) -> bool:
    return any(word in key for word in PROGRESS_WORDS)


def _rate(wins: int, trials: int) -> Rate:
    return Rate(wins, trials, wins / trials if trials else 0.0, wilson(wins, trials))


def _moments(m: Moments) -> MomentsSummary:
    return MomentsSummary(m.n, m.mean, m.sd, m.low, m.high)


def _histogram(h: Histogram | None) -> HistogramSummary | None:
    if h is None:
        return None
    return HistogramSummary(h.width, tuple((low, count) for low, _high, count in h.buckets()))


def _figure(tally: Tally) -> Figure:
    return Figure(_moments(tally.moments), _histogram(tally.hist))


def _shared_prefixes(keys: Iterable[str]) -> set[str]:
    """Prefixes before '_' that at least two keys share: `vp_runs` and `vp_sets` make group `vp`."""
    seen: dict[str, int] = {}
    for key in keys:
        head, sep, _rest = key.partition("_")
        if sep:
            seen[head] = seen.get(head, 0) + 1
    return {head for head, count in seen.items() if count >= 2}


def summarize(aggregate: Aggregate, *, game: str, title: str, bots: tuple[str, ...], seed: int,
              check: bool) -> Summary:
    """The whole run as a typed summary."""
    aggregate.flush()
    n = aggregate.games
    seats = tuple(
        SeatRow(seat + 1, bots[seat], _rate(aggregate.wins[seat], n), _moments(aggregate.scores[seat].moments),
                _histogram(aggregate.scores[seat].hist))
        for seat in range(aggregate.players)
    )
    positions = tuple(PositionRow(p + 1, _rate(aggregate.position_wins[p], n)) for p in range(aggregate.players))
    by_bot = []
    for bot in unique(bots):
        taken = [s for s in range(aggregate.players) if bots[s] == bot]
        wins = sum(aggregate.wins[s] for s in taken)
        by_bot.append(BotRow(bot, len(taken), _rate(wins, n * len(taken))))
    length: dict[str, Figure] = {"actions": _figure(aggregate.length)}
    groups: dict[str, dict[str, MomentsSummary]] = {}
    cards: dict[str, dict[str, float]] = {}
    shared = _shared_prefixes(k for k in aggregate.figures if "." not in k)
    for key in sorted(aggregate.figures):
        tally = aggregate.figures[key]
        moments = _moments(tally.moments)
        head, dot, rest = key.partition(".")
        if dot and head == "card" and "." in rest:
            card, _, metric = rest.rpartition(".")
            cards.setdefault(card, {})[metric] = moments.mean
        elif dot:
            groups.setdefault(head, {})[rest] = moments
        elif key.partition("_")[0] in shared:
            head, _, rest = key.partition("_")
            groups.setdefault(head, {})[rest] = moments
        else:
            name = key if key not in length else f"{key} (engine)"  # never hide the runner's own count
            length[name] = _figure(tally)
    solo = None
    if aggregate.players == 1:
        lost_at = {key: _histogram(tally.hist)
                   for key, tally in sorted(aggregate.lost_at.items())
                   if _is_progress(key) or not any(map(_is_progress, aggregate.lost_at))}
        solo = Solo(_rate(aggregate.wins[0], n), n - aggregate.wins[0], lost_at)
    return Summary(
        game=game, title=title, players=aggregate.players, bots=tuple(bots), games=n, seed=seed, check=check,
        seats=seats, by_position=positions, by_bot=tuple(by_bot), shared_wins=aggregate.shared,
        no_winner=aggregate.no_winner, length=length, progress=tuple(key for key in length if _is_progress(key)),
        groups=groups, cards=cards, solo=solo,
    )


def record_latest(project: Project, summary: Summary) -> bool:
    """Keep this run as the game's latest in output/<game>/simulation.json (atomically); the gallery reads it."""
    data = json.dumps(summary.latest_record(), indent=2, sort_keys=True) + "\n"
    return write_atomic(project.output_dir / summary.game / LATEST, data.encode("utf-8"))
