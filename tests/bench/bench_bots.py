"""The search bot against the heuristic, per game, in one run: win rate with its 95% interval and CPU a game.

    .venv/bin/python tests/bench/bench_bots.py [--games N] [--slow-games M] [--today K] [--widening K] [--jobs J]
        [--only GAME ...]

Each row plays seat-swapped matches: game i seats the bot under test in seat i mod players and
the heuristic everywhere else, from the seeded deal of game i (the same deals for every bot of a
row). A shared victory counts as a share of a win. Beside the search bot, the same games with
the heuristic in that seat (its own fair share, the baseline) and, for Counterattack, the planner;
then the lean rollout floor (tests/bench/lean_*.py: random moves with only what the rules need),
the cheapest any game can be played. CPU a game is the whole game's (every seat), in the worker
that played it (process time, so other load on the machine does not count). `--slow-games`
bounds the rows whose bots cost a second or more a game (All Hands' search, the planner);
`--today K` adds K games of the search bot as it was before issue 33 (several seconds a game);
`--widening K` adds K games of IS-MCTS with progressive widening where the search bot judges cut
play-outs (Under Fire, All Hands: the framework's other search, not the one they ship).
Prints figures, asserts nothing (run by hand, `nice -n 10` on a shared machine).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import lean_all_hands
import lean_counterattack
import lean_pirate_tricks
import lean_under_fire

from generator.engine.base import Bot
from generator.engine.registry import REGISTRY
from generator.engine.search import SearchBot
from generator.engine.simulate.runner import EngineSource, engine_for, play_game
from generator.engine.simulate.stats import wilson
from generator.project import Project
from generator.workers import process_pool

SEED = 20261129
CHUNK = 10
LEAN: dict[str, Callable[[Any, int, int], Any]] = {
    "counterattack": lean_counterattack.lean_game,
    "pirate-tricks": lean_pirate_tricks.lean_game,
    "all-hands-on-deck": lean_all_hands.lean_game,
    "pirates-under-fire": lean_under_fire.lean_game,
}
# (game, players, bots to test in the swapped seat, bots whose rows are slow)
ROWS: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    ("pirates-under-fire", 2, ("search", "heuristic")),
    ("pirate-tricks", 3, ("search", "heuristic")),
    ("pirate-tricks", 4, ("search", "heuristic")),
    ("all-hands-on-deck", 2, ("search", "heuristic")),
    ("counterattack", 1, ("search", "planner", "heuristic")),
)
SLOW = {("all-hands-on-deck", "search"), ("counterattack", "planner")}
# the search bot as it was before issue 33 (guided ISMCTS / halving with whole play-outs), for `--today`
TODAY: dict[str, dict[str, int]] = {
    "pirates-under-fire": {"iterations": 48, "candidates": 4},
    "pirate-tricks": {"iterations": 50},
    "all-hands-on-deck": {"iterations": 128, "candidates": 4},
    "counterattack": {"iterations": 50, "candidates": 4},
}


# IS-MCTS with progressive widening (search.widening_tree), for `--widening`: the games whose search bot
# judges cut play-outs with an `evaluate` (Under Fire, All Hands); it is not what they ship (docs/bots.md)


def bot_class(bots: dict[str, type[Bot]], game_id: str, bot: str) -> type[Bot]:
    heuristic = bots["heuristic"]
    if bot == "widening":
        scorer: tuple[Any, ...] = getattr(bots["search"], "scorer", ())
        evaluate = scorer[0]
        return SearchBot.guided(prior=heuristic, playout=heuristic, evaluate=evaluate, iterations=64, horizon=12,
                                widening=1.0, exploration=1.0)
    if bot != "today":
        return bots[bot]
    return SearchBot.guided(prior=heuristic, playout=heuristic, **TODAY[game_id])


def source(game_id: str) -> EngineSource:
    return EngineSource(str(Project.at(".").root), game_id, REGISTRY.module_of(game_id))


def play_chunk(task: tuple[str, int, str, int, int]) -> tuple[float, float]:
    """(wins of the swapped seat, CPU seconds) over games start..stop-1 of a row; `lean` times the floor."""
    game_id, players, bot, start, stop = task
    rules, bots = engine_for(source(game_id))
    began = time.process_time()
    wins = 0.0
    for index in range(start, stop):
        seed = SEED + index
        if bot == "lean":
            LEAN[game_id](rules, players, seed)
            continue
        seat = index % players
        classes = [bots["heuristic"]] * players
        classes[seat] = bot_class(bots, game_id, bot)
        state, _ = play_game(rules, players, classes, seed, False)
        winners = state.result().winners
        if seat in winners:
            wins += 1.0 / len(winners)
    return wins, time.process_time() - began


def measure(game_id: str, players: int, bot: str, games: int, jobs: int) -> tuple[float, float]:
    """(wins, CPU a game) of one row's bot over `games` seat-swapped games on `jobs` processes."""
    work = [(game_id, players, bot, start, min(start + CHUNK, games)) for start in range(0, games, CHUNK)]
    if jobs <= 1:
        done = [play_chunk(task) for task in work]
    else:
        with process_pool(min(jobs, len(work))) as pool:
            done = list(pool.map(play_chunk, work))
    return sum(w for w, _ in done), sum(c for _, c in done) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per row (default 200)")
    parser.add_argument("--slow-games", type=int, default=100, help="games for the slow rows (default 100)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--today", type=int, default=0,
                        help="also play this many games with the search bot as it was before (slow: seconds a game)")
    parser.add_argument("--widening", type=int, default=0,
                        help="also play this many games with IS-MCTS and progressive widening (Under Fire, All Hands)")
    parser.add_argument("--only", nargs="*", default=[], help="game ids to run (default: all)")
    args = parser.parse_args()
    print(f"{'game':<19} {'p':>1} {'bot':<10} {'games':>5} {'wins':>6} {'rate':>6} {'95% interval':>14} "
          f"{'fair':>5} {'x fair':>6} {'CPU a game':>11}")
    for game_id, players, kinds in ROWS:
        if args.only and game_id not in args.only:
            continue
        engine_for(source(game_id))  # build once here; forked workers inherit it
        fair = 1.0 / players
        widening = args.widening and getattr(REGISTRY.engine(game_id).bots["search"], "scorer", ())
        for bot in (*kinds, *(("today",) if args.today else ()), *(("widening",) if widening else ())):
            games = {"today": args.today, "widening": args.widening}.get(
                bot, args.slow_games if (game_id, bot) in SLOW else args.games)
            wins, cpu = measure(game_id, players, bot, games, args.jobs)
            low, high = wilson(round(wins), games)
            print(f"{game_id:<19} {players:>1} {bot:<10} {games:>5} {wins:>6.1f} {wins / games:>6.1%} "
                  f"{low:>6.1%}-{high:>6.1%} {fair:>5.0%} {wins / games / fair:>6.2f} {cpu:>10.3f}s", flush=True)
        _, cpu = measure(game_id, players, "lean", args.games, 1)
        print(f"{game_id:<19} {players:>1} {'lean floor':<10} {args.games:>5} {'':>6} {'':>6} {'':>14} "
              f"{'':>5} {'':>6} {cpu:>10.4f}s", flush=True)


if __name__ == "__main__":
    main()
