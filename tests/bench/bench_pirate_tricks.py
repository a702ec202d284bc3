"""Pirate Tricks speed and bot strength: prints figures, asserts nothing (run by hand).

    .venv/bin/python tests/bench/bench_pirate_tricks.py [--games N]

Games per second are CPU seconds of one core (process time, so other load on the machine
does not count), check mode off, deal included, the
bots driven through the public interface (observation, legal actions, apply).
"""

from __future__ import annotations

import argparse
import random
import time

from generator.engine.games.pirate_tricks import BOTS, RULES
from generator.load import load_game
from generator.project import Project


def play(rules, bot_names: list[str], seed: int):
    players = len(bot_names)
    state = rules.new_game(players, seed)
    rng = random.Random(seed)
    bots = [BOTS[name](rules, seat, rng) for seat, name in enumerate(bot_names)]
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--heuristic-games", type=int, default=300)
    args = parser.parse_args()
    rules = RULES(load_game(Project.at("."), "pirate-tricks"))
    for players in (3, 4, 5):
        began = time.process_time()
        for seed in range(args.games):
            play(rules, ["random"] * players, seed)
        speed = args.games / (time.process_time() - began)
        print(f"random x{players}: {speed:8.0f} games/s")
    for players in (3, 4, 5) if args.heuristic_games else ():
        began = time.process_time()
        wins = 0.0
        loon = {name: 0.0 for name in ("recruitment", "capture", "treasure", "bids", "row_loon", "top_up")}
        for seed in range(args.heuristic_games):
            state = play(rules, ["heuristic"] + ["random"] * (players - 1), seed)
            winners = state.result().winners
            wins += (0 in winners) / len(winners)
        speed = args.heuristic_games / (time.process_time() - began)
        for seed in range(args.heuristic_games):
            stats = play(rules, ["heuristic"] * players, seed).stats()
            for name in loon:
                loon[name] += stats[f"loon_{name}"] / args.heuristic_games
        shares = ", ".join(f"{k} {v:+.1f}" for k, v in loon.items())
        print(f"heuristic vs {players - 1} random: {speed:6.0f} games/s, wins {wins / args.heuristic_games:6.1%}; "
              f"all-heuristic loon per player: {shares}")


if __name__ == "__main__":
    main()
