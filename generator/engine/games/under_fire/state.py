"""A game of Pirates Under Fire in progress: an explicit phase machine over bitmasks.

A turn is: MAIN (place a ship from hand on an accessible space, or first buy
a mercenary), then the effects (ORDER asks which goes first when the sea
effect and the ship's ability can interfere; TARGET asks where a fire or a
repair strikes when there is more than one choice), then AFTER (buy a
mercenary if none was bought before, or end the turn), then the draw. A player
whose deck is empty at the draw has played their last turn; the game ends
when both have. A player who cannot place any ship at the start of the main
action loses at once, without scoring, unless the optional purchase would
open a space first (a mercenary reaches new spaces; the Ram sinks a rival
ship): then the player must buy, and loses only if no purchase opens one.

Accessible spaces for seat p: empty spaces in p's first row or orthogonally
next to one of p's active tiles (ships on their active face and mercenaries,
on either sea); and burning ships of either player next to p's active tiles
(the burning ship sinks and the space gives no effect). A Ram mercenary may
also land on a rival's active ship in such a position, sinking it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from generator.engine.base import IllegalAction, InvariantBroken, Observation, Result, State, shuffled
from generator.engine.games.under_fire.board import bits
from generator.engine.games.under_fire.config import Effect, order_matters

if TYPE_CHECKING:
    from generator.engine.games.under_fire.rules import UnderFireRules

MAIN, ORDER, TARGET, AFTER, OVER = range(5)
PHASE_NAMES = ("main", "order", "target", "after", "over")
EMPTY = -1


class UnderFireState(State):
    def __init__(self, rules: UnderFireRules, check: bool = False) -> None:
        self.rules = rules
        self.players = 2
        self.check = check
        self.history: list[int] = []
        geo = rules.geometry
        self.occ = [EMPTY] * geo.spaces  # ship tile t, or tiles + mercenary m
        self.ships = [0, 0]  # bitmask: spaces holding the seat's numbered ships (any face)
        self.mercs = [0, 0]  # bitmask: spaces holding the seat's mercenaries
        self.burning = 0  # bitmask: spaces whose ship shows its burning face
        self.decks: list[list[int]] = [[], []]  # the end of the list is the top
        self.hands: list[list[int]] = [[], []]
        self.gold = [0, 0]
        self.vp = [0, 0]  # victory point tokens taken
        self.tokens = [0, 0]
        self.turns = [0, 0]
        self.finished = [False, False]
        self.market = [True] * len(rules.config.merc_names)
        self.merc_owner = [EMPTY] * len(rules.config.merc_names)
        self.sunk: list[int] = []  # ship tiles destroyed
        self.turn = 0
        self.first = 0  # the seat that played the first turn (the deal draws it)
        self.phase = MAIN
        self.bought = False
        self.main_done = False
        self.anchor = 0  # the space whose effects are resolving
        self.queue: list[tuple[str, int]] = []
        self.order: tuple[Effect, Effect] = ((), ())  # (sea, ship) awaiting an ORDER choice
        self.pending = ("", 0)  # the effect awaiting a TARGET choice
        self.targets = 0  # bitmask of its choices
        self.loser = EMPTY
        self.final: list[dict[str, int]] = []
        self.counters = {"fires": 0, "sunk_burning": 0, "rammed": 0, "mercenaries": 0, "repairs": 0}
        # the last `accessible` answer and what it was worked out from (seat, ships, mercenaries, fires):
        # a turn asks it several times of an unchanged board
        self._access: tuple[int, int, int, int, int, int, int] = (-1, 0, 0, 0, 0, 0, 0)

    # --- masks -----------------------------------------------------------------------------------

    def active(self, seat: int) -> int:
        return (self.ships[seat] & ~self.burning) | self.mercs[seat]

    def reach(self, seat: int) -> int:
        """Spaces orthogonally next to the seat's active tiles."""
        return self.rules.geometry.reach((self.ships[seat] & ~self.burning) | self.mercs[seat])

    def accessible(self, seat: int) -> int:
        """Where the seat may place a tile now (burning ships included)."""
        ships, mercs, burning = self.ships, self.mercs, self.burning
        known = self._access
        if (known[0] == seat and known[1] == ships[0] and known[2] == ships[1] and known[3] == mercs[0]
                and known[4] == mercs[1] and known[5] == burning):
            return known[6]
        reach = self.rules.geometry.reach((ships[seat] & ~burning) | mercs[seat])
        occupied = ships[0] | ships[1] | mercs[0] | mercs[1]
        where = ((self.rules.geometry.home[seat] | reach) & ~occupied) | (reach & burning)
        self._access = (seat, ships[0], ships[1], mercs[0], mercs[1], burning, where)
        return where

    def ram_targets(self, seat: int) -> int:
        """Rival active ships a Ram may land on: in the seat's first row or next to its active tiles."""
        rival = 1 - seat
        return (self.rules.geometry.home[seat] | self.reach(seat)) & self.ships[rival] & ~self.burning

    # --- the interface ---------------------------------------------------------------------------

    def current_player(self) -> int:
        return self.turn

    def opener(self) -> int:
        return self.first

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[int]:
        phase = self.phase
        space = self.rules.space
        if phase == MAIN:
            seat = self.turn
            access = self.accessible(seat)
            where = bits(access)
            out = []
            numbers = self.rules.config.ship_number
            spaces = space.spaces
            for n in sorted({numbers[t] for t in self.hands[seat]}):
                base = (n - 1) * spaces
                out += [base + s for s in where]
            if not self.bought:
                out += self._buys(seat, access, where)
            return out
        if phase == AFTER:
            access = self.accessible(self.turn)
            return [*self._buys(self.turn, access, bits(access)), space.end]
        if phase == TARGET:
            return [space.target + s for s in bits(self.targets)]
        if phase == ORDER:
            return [space.sea_first, space.ship_first]
        return []

    def _buys(self, seat: int, access: int, where: list[int]) -> list[int]:
        """Purchase actions, by mercenary then space; `where` is `bits(access)`, the accessible spaces."""
        config = self.rules.config
        space = self.rules.space
        out: list[int] = []
        gold = self.gold[seat]
        for m, free in enumerate(self.market):
            if free and config.merc_cost[m] <= gold:
                spots = where
                if self.rules.rams[m]:
                    spots = bits(access | self.ram_targets(seat))  # ascending, as `where` is
                base = space.buy + m * space.spaces
                out += [base + s for s in spots]
        return out

    def apply_action(self, action: int) -> None:
        space = self.rules.space
        phase = self.phase
        if phase == MAIN and 0 <= action < space.buy:
            self._place(*divmod(action, space.spaces))
        elif phase in (MAIN, AFTER) and space.buy <= action < space.target:
            self._buy(*divmod(action - space.buy, space.spaces))
        elif phase == AFTER and action == space.end:
            self._end_turn()
        elif phase == TARGET and space.target <= action < space.sea_first:
            self._aim(action - space.target)
        elif phase == ORDER and action in (space.sea_first, space.ship_first):
            sea, ship = self.order
            self.queue = list(sea + ship) if action == space.sea_first else list(ship + sea)
            self._resolve()
        else:
            self._refuse(action)
        self.history.append(action)
        if self.check:
            self.check_invariants()

    def _refuse(self, action: int) -> None:
        space = self.rules.space
        name = space.to_string(action)  # raises for an action outside the space
        expected = {
            MAIN: "place a ship from hand ('place N at SPACE') or buy a mercenary first",
            AFTER: "buy a mercenary ('buy NAME at SPACE') or 'end turn'",
            TARGET: "choose where the effect strikes ('target SPACE')",
            ORDER: "choose 'sea effect first' or 'ship effect first'",
            OVER: "nothing: the game is over",
        }[self.phase]
        raise IllegalAction(f"'{name}' is not allowed now: {self.rules.config.fleets[self.turn]} must {expected}")

    # --- the turn -------------------------------------------------------------------------------

    def _enter_main(self) -> None:
        """Start (or return to) the main action; a seat with no ship it can place, even after a purchase, loses."""
        self.phase = MAIN
        seat = self.turn
        if not self.hands[seat] or (not self.accessible(seat) and (self.bought or not self.purchase_opens_a_space())):
            self._lose(seat)

    def _lose(self, seat: int) -> None:
        self.loser = seat
        self.phase = OVER

    def purchase_opens_a_space(self) -> bool:
        """Would some purchase now (and any target its effect asks for) leave a space to place a ship on?"""
        return any(self._then_can_place(self._tried(action)) for action in self.legal_actions())

    def _tried(self, action: int) -> UnderFireState:
        probe = self.copy()
        probe.check = False
        probe.apply_action(action)
        return probe

    def _then_can_place(self, probe: UnderFireState) -> bool:
        if probe.phase == TARGET:
            return any(self._then_can_place(probe._tried(action)) for action in probe.legal_actions())
        return probe.phase == MAIN

    def _take_space(self, s: int) -> bool:
        """Clear a burning ship off space `s` if there is one; True when the space was burning."""
        tile = self.occ[s]
        if tile == EMPTY:
            return False
        bit = 1 << s
        if self.burning & bit:
            self.counters["sunk_burning"] += 1
        else:
            self.counters["rammed"] += 1
        burning = bool(self.burning & bit)
        owner = self.rules.config.ship_fleet[tile]
        self.ships[owner] &= ~bit
        self.burning &= ~bit
        self.sunk.append(tile)
        self.occ[s] = EMPTY
        return burning

    def _place(self, number_index: int, s: int) -> None:
        seat = self.turn
        config = self.rules.config
        number = number_index + 1
        hand = self.hands[seat]
        for i, tile in enumerate(hand):  # noqa: B007 - `i` is used after the loop
            if config.ship_number[tile] == number:
                break
        else:
            raise IllegalAction(f"no ship {number} in your hand: place a ship you hold")
        if not (self.accessible(seat) >> s) & 1:
            raise IllegalAction(f"{self.rules.geometry.names[s]} is not accessible: use your first row, a space next "
                                "to one of your active ships, or a burning ship next to one")
        del hand[i]
        was_burning = self._take_space(s)
        self.occ[s] = tile
        self.ships[seat] |= 1 << s
        self.anchor = s
        self.main_done = True
        sea = () if was_burning else self.rules.geometry.effect[s]
        ship = config.ship_ability[tile]
        if sea and ship and order_matters(sea, ship):
            self.order = (sea, ship)
            self.phase = ORDER
            return
        self.queue = list(sea + ship)
        self._resolve()

    def _buy(self, m: int, s: int) -> None:
        seat = self.turn
        config = self.rules.config
        if self.bought:
            raise IllegalAction("only one mercenary may be bought per turn")
        if not self.market[m]:
            raise IllegalAction(f"the {config.merc_names[m]} has already been hired")
        if config.merc_cost[m] > self.gold[seat]:
            raise IllegalAction(f"the {config.merc_names[m]} costs {config.merc_cost[m]} gold, "
                                f"you have {self.gold[seat]}")
        allowed = self.accessible(seat) | (self.ram_targets(seat) if self.rules.rams[m] else 0)
        if not (allowed >> s) & 1:
            raise IllegalAction(f"{self.rules.geometry.names[s]} is not accessible for the {config.merc_names[m]}")
        self.gold[seat] -= config.merc_cost[m]
        self.market[m] = False
        self.merc_owner[m] = seat
        self._take_space(s)
        self.occ[s] = len(config.ship_number) + m
        self.mercs[seat] |= 1 << s
        self.bought = True
        self.counters["mercenaries"] += 1
        self.anchor = s
        self.queue = list(config.merc_effect[m])  # no sea effect for a mercenary
        self._resolve()

    def _resolve(self) -> None:
        """Apply queued effects in order; stop to ask for a target when there is a real choice."""
        while self.queue:
            kind, n = self.queue.pop(0)
            if not self._apply(kind, n):
                return
        if not self.main_done:
            self._enter_main()
        elif self.phase != OVER:
            self._enter_after()

    def _can_buy(self, seat: int) -> bool:
        """Whether `_buys` offers anything, without listing the offers."""
        config = self.rules.config
        gold = self.gold[seat]
        access = -1  # not worked out yet
        for m, free in enumerate(self.market):
            if free and config.merc_cost[m] <= gold:
                if access < 0:
                    access = self.accessible(seat)
                if access or (self.rules.rams[m] and self.ram_targets(seat)):
                    return True
        return False

    def _enter_after(self) -> None:
        self.phase = AFTER
        if self.bought or not self._can_buy(self.turn):
            self._end_turn()

    def _apply(self, kind: str, n: int) -> bool:
        """One effect for the current seat at the anchor space; False when it waits for a target."""
        seat, rival = self.turn, 1 - self.turn
        near = self.rules.geometry.neighbours[self.anchor]
        if kind == "gold":
            self.gold[seat] += n
        elif kind == "vp":
            self.vp[seat] += n
            self.tokens[seat] += 1
        elif kind == "steal":
            taken = min(n, self.gold[rival])
            self.gold[rival] -= taken
            self.gold[seat] += taken
        elif kind == "trade":
            self.gold[seat] += n * bin(near & (self.active(0) | self.active(1))).count("1")
        elif kind == "bounty":
            if near & self.active(rival):
                self.vp[seat] += n
                self.tokens[seat] += 1
        elif kind == "broadside":
            hit = near & self.ships[rival] & ~self.burning
            self.burning |= hit
            self.counters["fires"] += bin(hit).count("1")
        elif kind == "salvage":
            fixed = near & self.ships[seat] & self.burning
            self.burning &= ~fixed
            self.counters["repairs"] += bin(fixed).count("1")
        elif kind in ("ignite", "repair"):
            if kind == "ignite":
                choices = near & self.ships[rival] & ~self.burning
            else:
                choices = self.ships[seat] & self.burning
            if choices & (choices - 1):  # two or more: the player chooses
                self.pending = (kind, n)
                self.targets = choices
                self.phase = TARGET
                return False
            if choices:
                self._strike(kind, choices.bit_length() - 1)
        return True

    def _strike(self, kind: str, s: int) -> None:
        if kind == "ignite":
            self.burning |= 1 << s
            self.counters["fires"] += 1
        else:
            self.burning &= ~(1 << s)
            self.counters["repairs"] += 1

    def _aim(self, s: int) -> None:
        if not (self.targets >> s) & 1:
            raise IllegalAction(f"{self.rules.geometry.names[s]} is not a target of {self.pending[0]}: choose one of "
                                + ", ".join(self.rules.geometry.names[t] for t in bits(self.targets)))
        self._strike(self.pending[0], s)
        self.targets = 0
        self.pending = ("", 0)
        self.phase = MAIN if not self.main_done else AFTER
        self._resolve()

    def _end_turn(self) -> None:
        seat = self.turn
        self.turns[seat] += 1
        if self.decks[seat]:
            self.hands[seat].append(self.decks[seat].pop())
        else:
            self.finished[seat] = True  # drew nothing: that was this seat's last turn
        self.bought = False
        self.main_done = False
        if all(self.finished):
            self._finish()
            return
        if not self.finished[1 - seat]:
            self.turn = 1 - seat
        self._enter_main()

    # --- scoring -----------------------------------------------------------------------------------

    def _finish(self) -> None:
        self.phase = OVER
        self.final = [self.score_seat(p) for p in (0, 1)]

    def score_seat(self, seat: int) -> dict[str, int]:
        """VP by source, recomputed from the board: lines, ships in the rival's sea, mercenaries, tokens."""
        config = self.rules.config
        geo = self.rules.geometry
        active = self.ships[seat] & ~self.burning
        numbers = [0] * geo.spaces
        for s in bits(active):
            numbers[s] = config.ship_number[self.occ[s]]
        sets, runs = self.rules.lines.score(numbers)
        rival_sea = bin(active & geo.sea_mask[1 - seat]).count("1") * config.rival_sea_vp
        mercs = sum(config.merc_vp[m] for m, owner in enumerate(self.merc_owner) if owner == seat)
        return {"sets": sets, "runs": runs, "rival_sea": rival_sea, "mercenaries": mercs, "tokens": self.vp[seat]}

    def result(self) -> Result:
        if self.phase != OVER:
            raise IllegalAction("the game is not over yet")
        if self.loser != EMPTY:
            scores = (0.0, 0.0)
            return Result(scores, (1 - self.loser,), {"lost_no_move": self.loser})
        totals = [sum(f.values()) for f in self.final]
        best = max(totals)
        leaders = [p for p in (0, 1) if totals[p] == best]
        rich = max(self.gold[p] for p in leaders)
        winners = tuple(p for p in leaders if self.gold[p] == rich)
        return Result(tuple(float(t) for t in totals), winners, {"by_source": self.final, "gold": list(self.gold)})

    def stats(self) -> Mapping[str, float]:
        out: dict[str, float] = {"turns": sum(self.turns), "lost_no_move": float(self.loser != EMPTY)}
        for key in ("sets", "runs", "rival_sea", "mercenaries", "tokens"):
            out[f"vp_{key}"] = sum(f[key] for f in self.final) / 2 if self.final else 0.0
        out.update({k: float(v) for k, v in self.counters.items()})
        out["gold_end"] = sum(self.gold) / 2
        return out

    # --- what a seat sees ---------------------------------------------------------------------------

    def observation(self, player: int) -> Mapping[str, Any]:
        config = self.rules.config
        tiles = len(config.ship_number)
        board: list[Any] = []
        for s, tile in enumerate(self.occ):
            if tile == EMPTY:
                board.append(None)
            elif tile < tiles:
                board.append({"seat": config.ship_fleet[tile], "number": config.ship_number[tile],
                              "burning": bool((self.burning >> s) & 1)})
            else:
                m = tile - tiles
                board.append({"seat": self.merc_owner[m], "mercenary": config.merc_names[m], "number": 0,
                              "burning": False})
        return Observation({
            "seat": player,
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn,
            "board": board,
            "hand": sorted(config.ship_number[t] for t in self.hands[player]),
            "hand_sizes": [len(h) for h in self.hands],
            "deck_sizes": [len(d) for d in self.decks],
            "gold": list(self.gold),
            "vp": self.vp[player],  # VP tokens lie face down: a rival's are only counted
            "tokens": list(self.tokens),
            "market": [config.merc_names[m] for m, free in enumerate(self.market) if free],
            "turns": list(self.turns),
            "bought": self.bought,
            "main_done": self.main_done,
            "anchor": self.anchor,
        }, self.information_set(player))

    def action_to_string(self, action: int) -> str:
        return self.rules.space.to_string(action)

    def string_to_action(self, text: str) -> int:
        return self.rules.space.parse(text)

    # --- cloning and checking -----------------------------------------------------------------------

    def copy(self) -> UnderFireState:
        new = UnderFireState.__new__(UnderFireState)
        new.__dict__.update(self.__dict__)
        new.history = self.history[:]
        new.occ = self.occ[:]
        new.ships = self.ships[:]
        new.mercs = self.mercs[:]
        new.decks = [d[:] for d in self.decks]
        new.hands = [h[:] for h in self.hands]
        new.gold = self.gold[:]
        new.vp = self.vp[:]
        new.tokens = self.tokens[:]
        new.turns = self.turns[:]
        new.finished = self.finished[:]
        new.market = self.market[:]
        new.merc_owner = self.merc_owner[:]
        new.sunk = self.sunk[:]
        new.queue = self.queue[:]
        new.final = [dict(f) for f in self.final]
        new.counters = dict(self.counters)
        return new

    def determinize(self, seat: int, rng: random.Random) -> UnderFireState:
        """Redraw what `seat` cannot see: the order of its own deck, the rival's hand and deck, and the
        worth of the rival's face-down VP tokens (their count times the mean token value).

        Unseen tiles are gathered in tile order and shuffled, so the sample depends only on what the
        seat sees.
        """
        new = self.copy()
        if self.phase == OVER:
            return new
        rival = 1 - seat
        own = sorted(self.decks[seat])
        new.decks[seat] = [own[i] for i in shuffled(len(own), rng)]
        pool = sorted(self.hands[rival] + self.decks[rival])
        drawn = [pool[i] for i in shuffled(len(pool), rng)]
        size = len(self.hands[rival])
        new.hands[rival] = drawn[:size]
        new.decks[rival] = drawn[size:]
        new.vp[rival] = round(self.tokens[rival] * self.rules.vp_per_token)
        return new

    def check_invariants(self) -> None:
        """Every tile in exactly one place; masks agree with the board; counts within the rules."""
        config = self.rules.config
        tiles = len(config.ship_number)
        owner = [EMPTY] * (tiles + len(config.merc_names))
        places: list[tuple[str, list[int]]] = [("sunk", self.sunk)]
        for p in (0, 1):
            places += [(f"deck {p}", self.decks[p]), (f"hand {p}", self.hands[p])]
        places.append(("board", [t for t in self.occ if t != EMPTY]))
        places.append(("market", [tiles + m for m, free in enumerate(self.market) if free]))
        for index, (name, items) in enumerate(places):
            for t in items:
                if owner[t] != EMPTY:
                    raise InvariantBroken(f"tile {t} is both in {places[owner[t]][0]} and {name}")
                owner[t] = index
        if EMPTY in owner:
            raise InvariantBroken(f"tile {owner.index(EMPTY)} was lost")
        ships, mercs = [0, 0], [0, 0]
        for s, t in enumerate(self.occ):
            if t == EMPTY:
                continue
            if t < tiles:
                ships[config.ship_fleet[t]] |= 1 << s
            else:
                mercs[self.merc_owner[t - tiles]] |= 1 << s
        if ships != self.ships or mercs != self.mercs:
            raise InvariantBroken("the occupancy masks disagree with the board")
        if self.burning & ~(ships[0] | ships[1]):
            raise InvariantBroken("a space burns with no ship on it")
        for p in (0, 1):
            for t in self.decks[p] + self.hands[p]:
                if config.ship_fleet[t] != p:
                    raise InvariantBroken(f"seat {p} holds a tile of the other fleet")
            if len(self.hands[p]) > config.hand_size:
                raise InvariantBroken(f"seat {p} holds {len(self.hands[p])} tiles")
            if self.gold[p] < 0 or self.vp[p] < 0:
                raise InvariantBroken(f"seat {p} has negative gold or VP")
            if self.turns[p] > config.turns:
                raise InvariantBroken(f"seat {p} played {self.turns[p]} turns, the rules allow {config.turns}")
        if self.phase == OVER and self.loser == EMPTY and [self.score_seat(p) for p in (0, 1)] != self.final:
            raise InvariantBroken("final scores differ from a recount of the board")
