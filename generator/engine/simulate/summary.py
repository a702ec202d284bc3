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
from generator.engine.simulate.balance import BalanceTally
from generator.engine.simulate.bots import unique
from generator.engine.simulate.stats import Z95, Histogram, Moments, Tally, wilson
from generator.project import Project, write_atomic
from generator.simulation import (
    Balance,
    BotRow,
    ChoiceRow,
    Figure,
    PositionRow,
    Rate,
    SeatRow,
    Solo,
    SourceRow,
    Summary,
    format_ci,
    format_interval,
    format_pct,
)
from generator.simulation import Histogram as HistogramSummary
from generator.simulation import Moments as MomentsSummary

# Words that mark a figure saying how far a game got (hands played, rounds...): the figures
# worth a histogram on the terminal, and the ones that tell when a solo game was lost.
PROGRESS_WORDS = ("hand", "round", "trick", "turn", "pass")

MAX_SHARE = 0.4  # default: warn when one source earns more than this share of all points gained
MAX_EDGE = 0.05  # default: warn when a choice's takers win this much more often than a seat does on average

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
              check: bool, max_share: float = MAX_SHARE, max_edge: float = MAX_EDGE,
              overrides: tuple[str, ...] = ()) -> Summary:
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
    # a group's entries largest mean first: for a game's points by source, the balance table's order by share
    groups = {head: dict(sorted(entries.items(), key=lambda item: (-item[1].mean, item[0])))
              for head, entries in groups.items()}
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
        balance=None if aggregate.balance is None else balance_summary(aggregate.balance, max_share, max_edge),
        overrides=overrides,
    )


def share_interval(tally: BalanceTally, x: float, xx: float, xt: float) -> tuple[float, float, float]:
    """A source's share of all points gained, x / t summed over games, with its 95% delta-method interval."""
    n, t, tt = tally.games, tally.gained, tally.gained_sq
    if n == 0 or t == 0:
        return (0.0, 0.0, 0.0)
    ratio = x / t
    if n < 2:
        return (ratio, ratio, ratio)
    spread = max(0.0, (xx - 2 * ratio * xt + ratio * ratio * tt) / (n - 1))
    half = Z95 * (spread / n) ** 0.5 / (t / n)
    low, high = ratio - half, ratio + half
    if ratio >= 0:
        low, high = max(0.0, low), min(1.0, high)
    return (ratio, low, high)


def balance_summary(tally: BalanceTally, max_share: float, max_edge: float) -> Balance:
    """Sources by share, choices by takers' edge, ties, and a warning line for each limit passed."""
    n, seats = tally.games, tally.games * tally.players
    fair = tally.wins / seats if seats else 0.0
    sources = []
    for name, sums in tally.sources.items():
        share, low, high = share_interval(tally, sums.x, sums.xx, sums.xt)
        sources.append(SourceRow(name, sums.x / seats if seats else 0.0, share, (low, high)))
    sources.sort(key=lambda row: (-row.share, row.source))
    choices = []
    for name, counts in tally.choices.items():
        takers = _rate(counts.taker_wins, counts.takers)
        choices.append(ChoiceRow(name, _rate(counts.takers, seats), takers,
                                 _rate(tally.wins - counts.taker_wins, seats - counts.takers), takers.rate - fair))
    choices.sort(key=lambda row: (-row.edge, row.choice))
    tied = sum(tally.ties.values())
    warnings = [f"source {row.source} earns {format_pct(row.share)} of all points "
                f"(95% CI {format_interval(*row.ci95)}), above the limit of {100 * max_share:.0f}%"
                for row in sources if row.share > max_share]
    warnings += [f"choice {row.choice}: takers win {format_pct(row.takers.rate)} "
                 f"(95% CI {format_ci(row.takers)}) against "
                 f"{format_pct(fair)} for a seat, more than {100 * max_edge:.0f} points above"
                 for row in choices if row.edge > max_edge and row.takers.ci95[0] > fair]  # not a fluke of few takers
    return Balance(fair, tuple(sources), tuple(choices), _rate(tied, n), dict(sorted(tally.ties.items())),
                   max_share, max_edge, tuple(warnings))


def record_latest(project: Project, summary: Summary) -> bool:
    """Keep this run as the game's latest in output/<game>/simulation.json (atomically); the gallery reads it."""
    data = json.dumps(summary.latest_record(), indent=2, sort_keys=True) + "\n"
    return write_atomic(project.output_dir / summary.game / LATEST, data.encode("utf-8"))
