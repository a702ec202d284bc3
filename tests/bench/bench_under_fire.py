"""Pirates Under Fire speed and bot strength: prints figures, asserts nothing (run by hand).

    .venv/bin/python tests/bench/bench_under_fire.py [--games N] [--strength-games N]

Games per second are per CPU second of this process (`time.process_time`, so
that other work on the machine does not skew them; wall-clock figures are
printed alongside), one core, check mode off, deal included, the
bots driven through the public interface; like the simulator, random bots
are not shown an observation (they ignore it).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from pathlib import Path

from generator.engine.base import RandomBot
from generator.engine.games.under_fire import BOTS, RULES
from generator.load import load_game
from generator.project import Project


def play(rules, names: list[str], seed: int):
    state = rules.new_game(2, seed)
    bots = [BOTS[name](rules, seat, random.Random(seed * 7 + seat)) for seat, name in enumerate(names)]
    blind = [isinstance(bot, RandomBot) for bot in bots]
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        state.apply_action(bots[seat].choose({} if blind[seat] else state.observation(seat), legal))
    return state


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--strength-games", type=int, default=300)
    args = parser.parse_args()
    rules = RULES(load_game(Project.at(Path(__file__).resolve().parents[2]), "pirates-under-fire"))
    began, cpu = time.perf_counter(), time.process_time()
    actions = 0
    for seed in range(args.games):
        actions += len(play(rules, ["random", "random"], seed).history)
    wall, elapsed = time.perf_counter() - began, time.process_time() - cpu
    print(f"random bots, check mode off, one core: {args.games / elapsed:.0f} games/s, "
          f"{actions / elapsed:.0f} actions/s ({actions / args.games:.0f} actions per game; "
          f"wall clock {args.games / wall:.0f} games/s)")
    for pairing in (["heuristic", "random"], ["heuristic", "heuristic"]):
        wins = 0.0
        margin = 0.0
        stats: Counter = Counter()
        for seed in range(args.strength_games):
            seat = seed % 2
            names = [pairing[0] if s == seat else pairing[1] for s in (0, 1)]
            state = play(rules, names, seed)
            result = state.result()
            wins += (seat in result.winners) / len(result.winners)
            margin += result.scores[seat] - result.scores[1 - seat]
            stats.update(state.stats())
        n = args.strength_games
        print(f"{pairing[0]} vs {pairing[1]} (seats alternate): first-named wins {wins / n:.1%}, "
              f"margin {margin / n:+.1f} VP")
        print("  per game: " + ", ".join(f"{k} {v / n:.2f}" for k, v in sorted(stats.items())))


if __name__ == "__main__":
    main()
