"""A lean rollout of Pirates Under Fire: random moves, only what the rules need.

Bitmasks for ships, mercenaries and fires, a number per space, hands, decks,
gold and VP; no history, action ids, legal-action lists, observation, counters
or checks. A random move is an index into the engine's legal list, decoded
arithmetically in the engine's order (places by number then space, then buys
by mercenary then space), so the same seed plays the same game. Every table
(sea effects, abilities, costs, lines) comes from the YAML through the rules.
"""

from __future__ import annotations

import random

from generator.engine.games.under_fire.board import bits
from generator.engine.games.under_fire.config import Effect, order_matters
from generator.engine.games.under_fire.rules import UnderFireRules


class LeanUnderFire:
    """One game; `play()` returns (scores, winners) as the engine's `Result` gives them."""

    __slots__ = ("burning", "decks", "gold", "hands", "merc_vp", "mercs", "num", "r", "rng", "ships", "vp")

    def __init__(self, rules: UnderFireRules, rng: random.Random) -> None:
        self.r = rules
        self.rng = rng
        self.num = [0] * rules.geometry.spaces  # number of the ship on a space, 0 for none or a mercenary
        self.ships = [0, 0]
        self.mercs = [0, 0]
        self.burning = 0
        self.hands: list[list[int]] = [[], []]
        self.decks: list[list[int]] = [[], []]
        self.gold = [0, 0]
        self.vp = [0, 0]
        self.merc_vp = [0, 0]

    def copy(self) -> LeanUnderFire:
        new = LeanUnderFire.__new__(LeanUnderFire)
        new.r, new.rng, new.burning = self.r, self.rng, self.burning
        new.num, new.ships, new.mercs = self.num[:], self.ships[:], self.mercs[:]
        new.hands, new.decks = [h[:] for h in self.hands], [d[:] for d in self.decks]
        new.gold, new.vp, new.merc_vp = self.gold[:], self.vp[:], self.merc_vp[:]
        return new

    def reach(self, seat: int) -> int:
        return self.r.geometry.reach((self.ships[seat] & ~self.burning) | self.mercs[seat])

    def accessible(self, seat: int) -> int:
        ships, mercs, burning = self.ships, self.mercs, self.burning
        reach = self.r.geometry.reach((ships[seat] & ~burning) | mercs[seat])
        return ((self.r.geometry.home[seat] | reach) & ~(ships[0] | ships[1] | mercs[0] | mercs[1])) | (reach & burning)

    def buys(self, seat: int, market: list[bool], access: int) -> list[tuple[int, int]]:
        """(mercenary, spots as a bitmask) for each purchase the seat can make, in the engine's order."""
        cost, rams = self.r.config.merc_cost, self.r.rams
        out: list[tuple[int, int]] = []
        for m, free in enumerate(market):
            if free and cost[m] <= self.gold[seat]:
                spots = access
                if rams[m]:
                    spots |= (self.r.geometry.home[seat] | self.reach(seat)) & self.ships[1 - seat] & ~self.burning
                if spots:
                    out.append((m, spots))
        return out

    def clear(self, s: int) -> bool:
        """Remove a ship from space `s` (burning, or rammed); True when it was burning."""
        bit = 1 << s
        self.num[s] = 0
        was = bool(self.burning & bit)
        self.ships[0] &= ~bit
        self.ships[1] &= ~bit
        self.burning &= ~bit
        return was

    def effects(self, seat: int, anchor: int, queue: list[tuple[str, int]], explore: bool = False) -> bool:
        """Apply effects in order; a real choice of target is a random pick (or, with `explore`, every
        choice is tried on a copy and the answer is whether any leaves the seat a place for a ship)."""
        near = self.r.geometry.neighbours[anchor]
        rival = 1 - seat
        for i, (kind, n) in enumerate(queue):
            if kind == "gold":
                self.gold[seat] += n
            elif kind == "vp":
                self.vp[seat] += n
            elif kind == "steal":
                taken = min(n, self.gold[rival])
                self.gold[rival] -= taken
                self.gold[seat] += taken
            elif kind == "trade":
                active = (self.ships[0] | self.ships[1]) & ~self.burning | self.mercs[0] | self.mercs[1]
                self.gold[seat] += n * bin(near & active).count("1")
            elif kind == "bounty":
                if near & ((self.ships[rival] & ~self.burning) | self.mercs[rival]):
                    self.vp[seat] += n
            elif kind == "broadside":
                self.burning |= near & self.ships[rival]
            elif kind == "salvage":
                self.burning &= ~(near & self.ships[seat])
            elif kind in ("ignite", "repair"):
                if kind == "ignite":
                    choices = near & self.ships[rival] & ~self.burning
                else:
                    choices = self.ships[seat] & self.burning
                if choices & (choices - 1):
                    spots = bits(choices)
                    if explore:
                        return any(self._struck(kind, s).effects(seat, anchor, queue[i + 1:], True) for s in spots)
                    s = spots[self.rng.randrange(len(spots))]
                elif choices:
                    s = choices.bit_length() - 1
                else:
                    continue
                if kind == "ignite":
                    self.burning |= 1 << s
                else:
                    self.burning &= ~(1 << s)
        return not explore or (bool(self.hands[seat]) and bool(self.accessible(seat)))

    def _struck(self, kind: str, s: int) -> LeanUnderFire:
        new = self.copy()
        new.burning = new.burning | (1 << s) if kind == "ignite" else new.burning & ~(1 << s)
        return new

    def buy(self, seat: int, m: int, s: int, market: list[bool], explore: bool = False) -> bool:
        config = self.r.config
        self.gold[seat] -= config.merc_cost[m]
        market[m] = False
        self.merc_vp[seat] += config.merc_vp[m]
        self.clear(s)
        self.mercs[seat] |= 1 << s
        return self.effects(seat, s, list(config.merc_effect[m]), explore)

    def stuck(self, seat: int, market: list[bool]) -> bool:
        """The seat has no space for a ship, and no purchase now would open one: it loses."""
        return not any(self.copy().buy(seat, m, s, market[:], True)
                       for m, spots in self.buys(seat, market, 0) for s in bits(spots))

    def play(self) -> tuple[tuple[float, ...], tuple[int, ...]]:
        rules, rng = self.r, self.rng
        config, geo = rules.config, rules.geometry
        deal = rules.random_deal(2, rng)
        size = config.hand_size
        first = int(deal["first"]) % 2
        for seat in (0, 1):
            deck = deal["decks"][seat]
            self.hands[seat] = deck[len(deck) - size:][::-1]
            self.decks[seat] = deck[:len(deck) - size]
            self.gold[seat] = config.starting_gold + (config.second_player_gold if seat != first else 0)
        number, ability, effect = config.ship_number, config.ship_ability, geo.effect
        market = [True] * len(config.merc_names)
        finished = [False, False]
        seat = int(deal["first"]) % 2
        while True:
            hand = self.hands[seat]
            access = self.accessible(seat) if hand else 0
            if not hand or (not access and self.stuck(seat, market)):
                return (0.0, 0.0), (1 - seat,)
            bought = False
            while True:  # the main action, perhaps after buying first
                spaces = access.bit_count()
                numbers = sorted({number[t] for t in hand})
                places = len(numbers) * spaces
                offers = [] if bought else self.buys(seat, market, access)
                pick = rng.randrange(places + sum(spots.bit_count() for _, spots in offers))
                if pick < places:
                    n, s = numbers[pick // spaces], nth_bit(access, pick % spaces)
                    tile = next(t for t in hand if number[t] == n)
                    hand.remove(tile)
                    was_burning = self.clear(s)
                    self.num[s] = n
                    self.ships[seat] |= 1 << s
                    sea: Effect = () if was_burning else effect[s]
                    ship = ability[tile]
                    if sea and ship and order_matters(sea, ship):
                        queue = list(sea + ship) if rng.randrange(2) == 0 else list(ship + sea)
                    else:
                        queue = list(sea + ship)
                    self.effects(seat, s, queue)
                    break
                self.buy(seat, *chosen(offers, pick - places), market)
                bought = True
                access = self.accessible(seat)
                if not access:
                    return (0.0, 0.0), (1 - seat,)
            gold = self.gold[seat]
            if not bought and any(free and cost <= gold for free, cost in zip(market, config.merc_cost, strict=True)):
                offers = self.buys(seat, market, self.accessible(seat))  # the optional purchase after the main action
                if offers:
                    count = sum(spots.bit_count() for _, spots in offers)
                    pick = rng.randrange(count + 1)  # or end the turn
                    if pick < count:
                        self.buy(seat, *chosen(offers, pick), market)
            if self.decks[seat]:
                self.hands[seat].append(self.decks[seat].pop())
            else:
                finished[seat] = True
            if finished[0] and finished[1]:
                return self.scores()
            if not finished[1 - seat]:
                seat = 1 - seat

    def scores(self) -> tuple[tuple[float, ...], tuple[int, ...]]:
        config, geo = self.r.config, self.r.geometry
        totals = []
        for seat in (0, 1):
            active = self.ships[seat] & ~self.burning
            numbers = [self.num[s] if active >> s & 1 else 0 for s in range(geo.spaces)]
            sets, runs = self.r.lines.score(numbers)
            rival_sea = bin(active & geo.sea_mask[1 - seat]).count("1") * config.rival_sea_vp
            totals.append(sets + runs + rival_sea + self.merc_vp[seat] + self.vp[seat])
        best = max(totals)
        leaders = [p for p in (0, 1) if totals[p] == best]
        rich = max(self.gold[p] for p in leaders)
        return tuple(float(t) for t in totals), tuple(p for p in leaders if self.gold[p] == rich)


def nth_bit(mask: int, index: int) -> int:
    """The space of the `index`-th set bit of `mask`, counting from the lowest."""
    for _ in range(index):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def chosen(offers: list[tuple[int, int]], pick: int) -> tuple[int, int]:
    """(mercenary, space) of the `pick`-th purchase, counting spots mercenary by mercenary."""
    for m, spots in offers:
        count = spots.bit_count()
        if pick < count:
            return m, nth_bit(spots, pick)
        pick -= count
    raise IndexError(pick)


def lean_game(rules: UnderFireRules, players: int, seed: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """(scores, winners) of one random game from `seed`."""
    return LeanUnderFire(rules, random.Random(seed)).play()
