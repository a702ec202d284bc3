"""How close a random-bot game comes to the floor: a lean rollout of the same rules (Counterattack, solo).

    .venv/bin/python tests/bench/bench_rollout_floor.py [--games N]

The lean rollout plays Counterattack alone from the same deal with the same
random draws as a random bot through the engine, but keeps only what the rules
need (hand, pirate pile, trump, tricks, open ports): no history, owner array,
observation or statistics. It checks itself against the engine (same seed, same
ports and victory, game by game) before timing both on one core; the ratio is
engine / floor (the issue's target is at most 2x). Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time

from generator.engine.counterattack.config import CounterattackConfig
from generator.engine.counterattack.rules import CounterattackRules
from generator.engine.registry import REGISTRY
from generator.engine.simulate.runner import play_game
from generator.load import load_game
from generator.project import Project


def lean_game(t: CounterattackConfig, win: tuple[tuple[bool, ...], ...], rules: CounterattackRules,
              seed: int) -> tuple[int, bool]:
    """(ports exploited, victory) of one solo game, random moves, the engine's random draws in the engine's order."""
    rng = random.Random(seed)
    deal = rules.random_deal(1, rng)
    exposed, passes = deal["exposed"], deal["passes"]
    n = len(t.card_suit)
    last = len(exposed) - 1
    pos = 0
    trump = t.exposed_suit[exposed[0]] if last > 0 else -1
    open_ports = list(t.port_tricks)  # a port's trick count, or -1 once exploited
    ports = 0
    size, tph = t.hand_size, t.tricks_per_hand
    for pass_no in range(len(passes)):
        deck = passes[pass_no]
        for hand_no in range(t.hands_per_pass):
            start = hand_no * 2 * size
            hand = sorted(deck[start:start + size])
            pirate = deck[start + size:start + 2 * size]
            won = 0
            for trick in range(tph):
                while True:
                    k = len(hand) + (pos < last)
                    pick = rng.randrange(k)
                    if pick < len(hand):
                        break
                    pos += 1  # flip: the next exposed port card turns up
                    trump = t.exposed_suit[exposed[pos]] if pos < last else -1
                card = hand.pop(pick)
                won += win[trump + 1][card * n + pirate[trick]]
            if won not in open_ports:
                return ports, False
            open_ports[open_ports.index(won)] = -1
            ports += 1
            if ports == t.ports_to_win or all(p < 0 for p in open_ports):
                return ports, True
    return ports, False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args()
    engine = REGISTRY.engine("counterattack")
    rules = engine.rules(load_game(Project.at("."), "counterattack"))
    t, win = rules.config, rules.win
    random_bot = [engine.bots["random"]]
    for seed in range(200):
        state, _ = play_game(rules, 1, random_bot, seed, False)
        ports, victory = lean_game(t, win, rules, seed)
        if (ports, victory) != (float(state.result().scores[0]), bool(state.result().winners)):
            print(f"seed {seed}: the lean rollout disagrees with the engine; no figures")
            return
    began = time.process_time()
    for seed in range(args.games):
        play_game(rules, 1, random_bot, seed, False)
    engine_rate = args.games / (time.process_time() - began)
    began = time.process_time()
    for seed in range(args.games):
        lean_game(t, win, rules, seed)
    floor_rate = args.games / (time.process_time() - began)
    print(f"counterattack solo, random: engine {engine_rate:8.0f} games/s, lean floor {floor_rate:8.0f} games/s, "
          f"engine takes {floor_rate / engine_rate:.2f}x the floor (same 200 games checked equal first)")


if __name__ == "__main__":
    main()
