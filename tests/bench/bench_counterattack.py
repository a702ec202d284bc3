"""Counterattack speed and bot strength: prints figures, asserts nothing (run by hand).

    .venv/bin/python tests/bench/bench_counterattack.py [--planner-games N]

Games per second are CPU seconds of one core (process time, so other load on the machine
does not count), check mode off, deal included, the
bots driven through the public interface (observation, legal actions, apply).
"""

from __future__ import annotations

import argparse
import random
import time

from generator.engine.games.counterattack import BOTS, RULES
from generator.load import load_game
from generator.project import Project


def play(rules, bot_name: str, players: int, seed: int) -> tuple[bool, dict]:
    state = rules.new_game(players, seed)
    rng = random.Random(seed)
    bots = [BOTS[bot_name](rules, seat, rng) for seat in range(players)]
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        state.apply_action(bots[seat].choose(state.observation(seat), legal))
    return bool(state.result().winners), dict(state.stats())


def rate(rules, bot_name: str, players: int, games: int, start: int = 0) -> tuple[float, float, float]:
    """(games per second, win rate, mean hands per game)."""
    began = time.process_time()
    wins = hands = 0
    for seed in range(start, start + games):
        won, stats = play(rules, bot_name, players, seed)
        wins += won
        hands += stats["hands_played"]
    elapsed = time.process_time() - began
    return games / elapsed, wins / games, hands / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--heuristic-games", type=int, default=5000)
    parser.add_argument("--planner-games", type=int, default=300)
    args = parser.parse_args()
    rules = RULES(load_game(Project.at("."), "counterattack"))
    for players in (1, 2):
        speed, wins, hands = rate(rules, "random", players, args.games)
        print(f"random    {players}p: {speed:9.0f} games/s  win {wins:6.2%}  hands/game {hands:.2f}")
    speed, wins, hands = rate(rules, "heuristic", 1, args.heuristic_games)
    print(f"heuristic 1p: {speed:9.0f} games/s  win {wins:6.2%}  hands/game {hands:.2f}")
    if args.planner_games:
        speed, wins, hands = rate(rules, "planner", 1, args.planner_games, start=10_000)
        print(f"planner   1p: {speed:9.1f} games/s  win {wins:6.2%}  hands/game {hands:.2f}  ({args.planner_games} games)")


if __name__ == "__main__":
    main()
