"""A lean rollout of Pirate Tricks: random moves, only what the rules need.

Hands, rows, loon, bids, the trick on the table, captured cards and the
round's score cards; no history, owner array, action ids, legal-action lists,
observation, loon-by-source bookkeeping, statistics or checks. A random move is
an index into the engine's legal list (bids 0..loon, a card of the sorted hand,
a card that follows the led colour...), drawn in the engine's order, so the same
seed plays the same game. Score cards are worked out by the engine's `scoring`
functions on the YAML's cards.
"""

from __future__ import annotations

import random

from generator.engine.games.pirate_tricks import scoring
from generator.engine.games.pirate_tricks.rules import PirateTricksRules


def lean_game(rules: PirateTricksRules, players: int, seed: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """(scores, winners) of one random game from `seed`, as the engine's `Result` gives them."""
    rng = random.Random(seed)
    randrange = rng.randrange
    deal = rules.random_deal(players, rng)
    t, p = rules.config, players
    max_bid = rules.space.max_bid
    colour, rank, key, trump = t.card_colour, t.card_rank, t.card_key, t.trump
    per = t.per_round
    hs, rs = t.hand_size, t.row_size
    seats = range(p)
    loon = [t.start_loon] * p
    for r in range(deal["rounds"]):
        if r > 0:
            loon = [max(x, t.top_up) for x in loon]
        order = deal["crew"][r]
        hands = [sorted(order[s * hs:(s + 1) * hs]) for s in seats]
        rows = [order[p * hs + i * rs:p * hs + (i + 1) * rs] for i in seats]
        row_owner = [-1] * p
        row_loon = [0] * p
        go_first = -1
        bid_row, bid_pass = -1, 1
        while True:  # bidding, row by row
            open_rows = [i for i in seats if row_owner[i] < 0]
            if len(open_rows) <= 1:
                if open_rows:  # the last row goes free to the one player without a row
                    row, winner, price = open_rows[0], next(s for s in seats if s not in row_owner), 0
                else:
                    break
            else:
                later = [i for i in open_rows if i > bid_row]
                if not later:
                    bid_pass, later = 2, open_rows
                row = bid_row = later[0]
                bidders = [s for s in seats if s not in row_owner]
                bids = {s: randrange(min(loon[s], max_bid) + 1) for s in bidders}
                top = max(bids.values())
                tied = [s for s in bidders if bids[s] == top]
                if len(tied) == 1:
                    winner, price = tied[0], top
                elif top > 0 or bid_pass == 2:
                    cards = {s: hands[s][randrange(len(hands[s]))] for s in tied}
                    winner = max(tied, key=lambda s: key[cards[s]])
                    if top == 0:
                        winner, price = tied[randrange(len(tied))], 0  # the tie winner gives the row away
                    else:
                        price = top if t.tie_winner_pays else 0
                else:
                    row_loon[row] += t.zero_tie_loon
                    continue
            loon[winner] += row_loon[row] - price
            row_loon[row] = 0
            row_owner[row] = winner
            hands[winner] = sorted(hands[winner] + rows[row])
            if row == 0:
                go_first = winner
            if not open_rows[1:]:
                break
        for s in seats:
            for _ in range(t.ditch):
                hands[s].pop(randrange(len(hands[s])))
        treasure = t.treasure[deal["treasure"][r * per["treasure"]]]
        predictions: list[int | None] = [None] * p
        if treasure["effect"] == "prediction":
            for i in seats:
                predictions[(go_first + i) % p] = t.prediction_min + randrange(
                    t.prediction_max - t.prediction_min + 1)
        for s in seats:
            masks = scoring.rank_masks(t, hands[s])
            for index in deal["recruitment"][r * per["recruitment"]:(r + 1) * per["recruitment"]]:
                count = scoring.recruitment_count(t, t.recruitment_specs[index], (), masks)
                loon[s] += max(count * t.recruitment_payouts[index], -loon[s])
        captured: list[list[int]] = [[] for _ in seats]
        winners: list[int] = []
        leader = go_first
        for _ in range(t.tricks):
            trick: list[int] = []
            for i in range(p):
                hand = hands[(leader + i) % p]
                if trick:
                    led = colour[trick[0]]
                    follow = [c for c in hand if colour[c] == led]
                    card = follow[randrange(len(follow))] if follow else hand[randrange(len(hand))]
                else:
                    card = hand[randrange(len(hand))]
                hand.remove(card)
                trick.append(card)
            best = 0
            best_colour, best_rank = colour[trick[0]], rank[trick[0]]
            for i in range(1, p):
                c = trick[i]
                if colour[c] == best_colour:
                    if rank[c] > best_rank:
                        best, best_rank = i, rank[c]
                elif colour[c] == trump:
                    best, best_colour, best_rank = i, trump, rank[c]
            leader = (leader + best) % p
            captured[leader].extend(trick)
            winners.append(leader)
        tricks = [winners.count(s) for s in seats]
        cap = scoring.capture_payouts(t, t.capture[deal["capture"][r * per["capture"]]], captured, winners)
        tre = scoring.treasure_payouts(treasure, tricks, predictions)
        if t.net_settlement:
            loon = scoring.settle(loon, [a + b for a, b in zip(cap, tre, strict=True)])
        else:
            loon = scoring.settle(scoring.settle(loon, cap), tre)
    best_loon = max(loon)
    return tuple(float(x) for x in loon), tuple(s for s in seats if loon[s] == best_loon)
