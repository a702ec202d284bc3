"""How close a random-bot game comes to the floor: a lean rollout of the same rules, every game.

    .venv/bin/python tests/bench/bench_rollout_floor.py [--games N] [--repeat R] [--only GAME ...]

Each lean rollout (tests/bench/lean_*.py) plays from the same deal with the same
random draws, in the same order, as a random bot through the engine, but keeps
only what the rules need: no history, action ids, legal-action lists,
observation, statistics or checks. Its tables come from the game's YAML through
the engine's rules. Before timing, every row checks CHECKED seeded games come out
the same both ways (scores and winners, game by game). Then both sides are timed
on one core, interleaved, best of R (the least disturbed by other load); the
ratio is engine time / floor time (the issue's target is at most 2x).
Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import lean_all_hands  # tests/bench: this script's folder is first on sys.path
import lean_counterattack
import lean_pirate_tricks
import lean_under_fire

from generator.engine.registry import REGISTRY
from generator.engine.simulate.runner import EngineSource, engine_for, play_game
from generator.project import Project

CHECKED = 200

Lean = Callable[[Any, int, int], tuple[tuple[float, ...], tuple[int, ...]]]
ROWS: tuple[tuple[str, tuple[int, ...], Lean], ...] = (
    ("counterattack", (1,), lean_counterattack.lean_game),
    ("pirate-tricks", (3, 4, 5), lean_pirate_tricks.lean_game),
    ("all-hands-on-deck", (2, 4, 6), lean_all_hands.lean_game),
    ("pirates-under-fire", (2,), lean_under_fire.lean_game),
)


def engine_game(rules: Any, players: int, bots: Sequence[type], seed: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """(scores, winners) of a random-bot game through the engine, as `pnp simulate` plays it."""
    state, _ = play_game(rules, players, bots, seed, False)
    result = state.result()
    return result.scores, result.winners


def disagreement(rules: Any, players: int, bots: Sequence[type], lean: Lean, games: int) -> str | None:
    for seed in range(games):
        engine, floor = engine_game(rules, players, bots, seed), lean(rules, players, seed)
        if engine != floor:
            return f"seed {seed}: engine {engine}, lean rollout {floor}"
    return None


def rate(play: Callable[[int], object], games: int) -> float:
    began = time.process_time()
    for seed in range(games):
        play(seed)
    return games / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per timing (default 1000)")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved timings per side, best kept")
    parser.add_argument("--only", nargs="*", default=[], help="game ids to run (default: all)")
    args = parser.parse_args()
    root = str(Project.at(".").root)
    print(f"{'game':<20} {'players':>7} {'engine games/s':>15} {'floor games/s':>14} {'ratio':>6}")
    for game_id, counts, lean in ROWS:
        if args.only and game_id not in args.only:
            continue
        rules, bots = engine_for(EngineSource(root, game_id, REGISTRY.module_of(game_id)))
        for players in counts:
            seats = [bots["random"]] * players
            wrong = disagreement(rules, players, seats, lean, CHECKED)
            if wrong:
                print(f"{game_id:<20} {players:>7}  the lean rollout disagrees with the engine ({wrong}); no figures")
                continue
            engine_rate = floor_rate = 0.0
            for _ in range(args.repeat):
                engine_rate = max(engine_rate, rate(partial(engine_game, rules, players, seats), args.games))
                floor_rate = max(floor_rate, rate(partial(lean, rules, players), args.games))
            print(f"{game_id:<20} {players:>7} {engine_rate:>15.0f} {floor_rate:>14.0f} "
                  f"{floor_rate / engine_rate:>5.2f}x")
    print(f"(each row's first {CHECKED} seeded games checked equal both ways before timing)")


if __name__ == "__main__":
    main()
