"""A lean rollout of Counterattack (solo): random moves, only what the rules need.

It plays from the same deal with the same random draws as a random bot through
the engine, but keeps only the hand, pirate pile, trump, tricks and open ports:
no history, owner array, observation or statistics.
"""

from __future__ import annotations

import random

from generator.engine.games.counterattack.config import CounterattackConfig
from generator.engine.games.counterattack.rules import CounterattackRules


def lean_ports(t: CounterattackConfig, win: tuple[tuple[bool, ...], ...], rules: CounterattackRules,
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


def lean_game(rules: CounterattackRules, players: int, seed: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """(scores, winners) as the engine's `Result` gives them: ports exploited, and seat 0 if it won."""
    ports, victory = lean_ports(rules.config, rules.win, rules, seed)
    return (float(ports),), ((0,) if victory else ())
