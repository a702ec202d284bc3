"""A lean rollout of All Hands on Deck: random moves, only what the rules need.

Drawing piles, stock and crew piles (in order: a Boarding Party snatches the top
card), kind counts, points, curses and captains; no history, laid-card lists,
marks of who put a card back, action ids, legal-action lists, observation,
statistics or checks. A random move is an index into the engine's legal list
(non-empty piles, the distinct kinds in stock, the formable lay-outs then
"done"...), drawn in the engine's order, so the same seed plays the same game.
Lay-out options, what a crew can form and the final best lay-out come from the
YAML through the rules.
"""

from __future__ import annotations

import random

from generator.engine.games.all_hands.rules import AllHandsRules


def lean_game(rules: AllHandsRules, players: int, seed: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """(scores, winners) of one random game from `seed`, as the engine's `Result` gives them."""
    rng = random.Random(seed)
    randrange = rng.randrange
    deal = rules.random_deal(players, rng)
    config, options, formable = rules.config, rules.options, rules.formable
    kind, captain_from = config.card_kind, config.crew
    stock_cards, extra_cards = config.stock_cards, config.extra_stock_cards
    p = players
    seats = range(p)
    cards, starts = deal["cards"], deal["starts"]
    each = config.deal[p]
    piles = [cards[s * each:(s + 1) * each] for s in seats]
    crew: list[list[int]] = [[] for _ in seats]
    counts = [[0] * len(config.kinds) for _ in seats]
    points, curses, captains = [0] * p, [0] * p, [0] * p
    extra_next = [0] * p  # Crow's Nests laid out: extra draws next round
    open_next: int | None = None  # Set the Course: opens the next round instead of the race's winner
    for raced in starts:
        if sum(len(pile) for pile in piles) < p:
            break
        start = raced if open_next is None else open_next
        open_next = None
        extra_now, extra_next = extra_next, [0] * p
        stock: list[list[int]] = [[] for _ in seats]
        turn = start
        while True:  # stock: one card at a time, clockwise
            nonempty = [s for s in seats if piles[s]]
            pile = piles[nonempty[randrange(len(nonempty))]]
            stock[turn].append(pile.pop())
            turn = turn + 1 if turn + 1 < p else 0
            if len(stock[turn]) >= stock_cards or not any(piles):
                break
        for step in seats:  # Crow's Nest holders draw extra, once per Crow's Nest
            seat = (start + step) % p
            while extra_now[seat] and any(piles):
                extra_now[seat] -= 1
                nonempty = [s for s in seats if piles[s]]
                pick = randrange(len(nonempty) + 1)
                if pick < len(nonempty):
                    pile = piles[nonempty[pick]]
                    for _ in range(min(extra_cards, len(pile))):
                        stock[seat].append(pile.pop())
        for step in seats:  # hire one; the rest go back on the seat's own pile
            seat = (start + step) % p
            mine = stock[seat]
            kinds = sorted({kind[c] for c in mine})
            k = kinds[randrange(len(kinds))]
            card = next(c for c in mine if kind[c] == k)
            mine.remove(card)
            crew[seat].append(card)
            counts[seat][k] += 1
            captains[seat] += k >= captain_from
            piles[seat].extend(mine)
        for step in seats:  # all hands on deck: lay out in call order
            seat = (start + step) % p
            while True:
                can = formable(counts[seat])
                if not can:
                    break
                pick = randrange(len(can) + 1)
                if pick == len(can):
                    break
                option = options[can[pick]]
                mine, have = crew[seat], counts[seat]
                for k, n in option.parts:
                    have[k] -= n
                    i, left = len(mine) - 1, n
                    while left:  # the topmost matching cards leave the pile
                        if kind[mine[i]] == k:
                            del mine[i]
                            left -= 1
                        i -= 1
                points[seat] += option.combination.points
                action = option.combination.action
                if action == "snatch":
                    victims = [v for v in seats if v != seat and crew[v]]
                    if victims:
                        pick = randrange(len(victims) + 1)
                        if pick < len(victims):
                            victim = victims[pick]
                            card = crew[victim].pop()
                            counts[victim][kind[card]] -= 1
                            captains[victim] -= kind[card] >= captain_from
                            crew[seat].append(card)
                            counts[seat][kind[card]] += 1
                            captains[seat] += kind[card] >= captain_from
                elif action == "curse":
                    pick = randrange(p)  # p - 1 rivals, or skip
                    if pick < p - 1:
                        curses[pick + (pick >= seat)] += 1
                elif action == "extra-stock":
                    extra_next[seat] += 1
                elif action == "mend":
                    curses[seat] -= curses[seat] > 0
                elif action == "open":
                    open_next = seat
    best = rules.best_layout
    scores = [points[s] + best(tuple(counts[s]))[0] - config.curse_points * curses[s] for s in seats]
    top = max(scores)
    leaders = [s for s in seats if scores[s] == top]
    most = max(captains[s] for s in leaders)
    return tuple(float(x) for x in scores), tuple(s for s in leaders if captains[s] == most)
