"""Turn merged counts into the plain, JSON-able summary every output reads.

The terminal table, `--json` and the PDF report all print this one dict, so
they cannot disagree; the renderer receives it without importing the engine.

Figures from `State.stats()` are sorted by the shape of their keys, so no
engine's vocabulary is written here:
  * `card.<card>.<metric>`                  -> the per-card table
  * `<group>.<part>`, or `<group>_<part>` when two or more keys share the
    group (`points_captains`, `points_curses`; `vp_runs`, `vp_sets`)
                                            -> one table per group: points by source
  * any other key (`tricks`, `hands_played`, `rounds`) -> game length, with a histogram
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from generator.engine.simulate.aggregate import Aggregate
from generator.engine.simulate.bots import unique
from generator.engine.simulate.stats import Tally, wilson

SCHEMA = 1

# Words that mark a figure saying how far a game got (hands played, rounds...): the figures
# worth a histogram on the terminal, and the ones that tell when a solo game was lost.
PROGRESS_WORDS = ("hand", "round", "trick", "turn", "pass")


def _is_progress(key: str) -> bool:
    return any(word in key for word in PROGRESS_WORDS)


def _rate(wins: int, trials: int) -> dict[str, Any]:
    lo, hi = wilson(wins, trials)
    return {"wins": wins, "trials": trials, "rate": wins / trials if trials else 0.0, "ci95": [lo, hi]}


def _hist(tally: Tally) -> dict[str, Any] | None:
    return tally.hist.to_dict() if tally.hist is not None else None


def _shared_prefixes(keys: Iterable[str]) -> set[str]:
    """Prefixes before '_' that at least two keys share: `vp_runs` and `vp_sets` make group `vp`."""
    seen: dict[str, int] = {}
    for key in keys:
        head, sep, _rest = key.partition("_")
        if sep:
            seen[head] = seen.get(head, 0) + 1
    return {head for head, count in seen.items() if count >= 2}


def summarize(aggregate: Aggregate, *, game: str, title: str, bots: tuple[str, ...], seed: int,
              check: bool) -> dict[str, Any]:
    """The whole run as plain data (numbers, strings, lists and dicts only)."""
    aggregate.flush()
    n = aggregate.games
    seats = []
    for seat in range(aggregate.players):
        seats.append({
            "seat": seat + 1,
            "bot": bots[seat],
            **_rate(aggregate.wins[seat], n),
            "score": aggregate.scores[seat].moments.to_dict(),
            "score_hist": _hist(aggregate.scores[seat]),
        })
    by_bot = []
    for bot in unique(bots):
        taken = [s for s in range(aggregate.players) if bots[s] == bot]
        wins = sum(aggregate.wins[s] for s in taken)
        # seats of one game are not independent trials: the interval is indicative only
        by_bot.append({"bot": bot, "seats": len(taken), **_rate(wins, n * len(taken))})
    length: dict[str, Any] = {
        "actions": {**aggregate.length.moments.to_dict(), "hist": _hist(aggregate.length)},
    }
    groups: dict[str, dict[str, Any]] = {}
    cards: dict[str, dict[str, Any]] = {}
    shared = _shared_prefixes(k for k in aggregate.figures if "." not in k)
    for key in sorted(aggregate.figures):
        tally = aggregate.figures[key]
        moments = tally.moments.to_dict()
        head, dot, rest = key.partition(".")
        if dot and head == "card" and "." in rest:
            card, _, metric = rest.rpartition(".")
            cards.setdefault(card, {})[metric] = moments["mean"]
        elif dot:
            groups.setdefault(head, {})[rest] = moments
        elif key.partition("_")[0] in shared:
            head, _, rest = key.partition("_")
            groups.setdefault(head, {})[rest] = moments
        else:
            name = key if key not in length else f"{key} (engine)"  # never hide the runner's own count
            length[name] = {**moments, "hist": _hist(tally)}
    summary: dict[str, Any] = {
        "schema": SCHEMA,
        "game": game,
        "title": title,
        "players": aggregate.players,
        "bots": list(bots),
        "games": n,
        "seed": seed,
        "check": check,
        "seats": seats,
        "by_bot": by_bot,
        "shared_wins": aggregate.shared,
        "no_winner": aggregate.no_winner,
        "length": length,
        "progress": [key for key in length if _is_progress(key)],
        "groups": groups,
        "cards": cards,
    }
    if aggregate.players == 1:
        summary["solo"] = {
            **_rate(aggregate.wins[0], n),
            "lost": n - aggregate.wins[0],
            "lost_at": {key: _hist(tally) for key, tally in sorted(aggregate.lost_at.items())
                        if _is_progress(key) or not any(map(_is_progress, aggregate.lost_at))},
        }
    return summary
