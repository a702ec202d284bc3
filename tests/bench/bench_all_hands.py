"""All Hands on Deck speed and bot strength: prints figures, asserts nothing (run by hand).

    .venv/bin/python tests/bench/bench_all_hands.py [--games N] [--strength-games N]

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
from pathlib import Path

from generator.engine.base import RandomBot
from generator.engine.games.all_hands import BOTS, RULES
from generator.load import load_game
from generator.project import Project


def play(rules, names: list[str], seed: int):
    players = len(names)
    state = rules.new_game(players, seed)
    bots = [BOTS[name](rules, seat, random.Random(seed * 7 + seat)) for seat, name in enumerate(names)]
    blind = [isinstance(bot, RandomBot) for bot in bots]
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        state.apply_action(bots[seat].choose({} if blind[seat] else state.observation(seat), legal))
    return state


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--strength-games", type=int, default=300)
    args = parser.parse_args()
    rules = RULES(load_game(Project.at(Path(__file__).resolve().parents[2]), "all-hands-on-deck"))
    print("random bots, check mode off, one core:")
    for players in rules.player_counts:
        began, cpu = time.perf_counter(), time.process_time()
        actions = 0
        for seed in range(args.games):
            actions += len(play(rules, ["random"] * players, seed).history)
        wall, elapsed = time.perf_counter() - began, time.process_time() - cpu
        print(f"  {players} players: {args.games / elapsed:8.0f} games/s  {actions / elapsed:9.0f} actions/s "
              f"({actions / args.games:.0f} actions per game; wall clock {args.games / wall:.0f} games/s)")
    print("heuristic bot in seat rotating vs random bots:")
    for players in rules.player_counts:
        wins = 0.0
        margin = 0.0
        for seed in range(args.strength_games):
            seat = seed % players
            names = ["heuristic" if s == seat else "random" for s in range(players)]
            result = play(rules, names, seed).result()
            wins += (seat in result.winners) / len(result.winners)
            others = [s for s in range(players) if s != seat]
            margin += result.scores[seat] - sum(result.scores[s] for s in others) / len(others)
        n = args.strength_games
        print(f"  {players} players: heuristic wins {wins / n:6.1%} (fair share {1 / players:5.1%}), "
              f"scores {margin / n:+.1f} points over the random average")


if __name__ == "__main__":
    main()
