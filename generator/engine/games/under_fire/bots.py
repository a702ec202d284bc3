"""A heuristic Pirates Under Fire captain: lines first, the rival's sea when it pays, mercenaries with sense.

It reads only its observation. A placement is valued by the line points it
adds (sets and runs, scored with the real scorer), a point for landing in
the rival's sea, and the worth of the sea effect and the ship's ability on
that spot; gold is worth less as the game nears its end. Fire is aimed at the
rival ship whose loss breaks the most line points. Equal values are broken at
random with the bot's seeded rng, so no seat or side of the board is favoured.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from generator.engine.base import Bot
from generator.engine.games.under_fire.config import Effect
from generator.engine.games.under_fire.rules import UnderFireRules
from generator.engine.search import SearchBot, ranked_by

NEAR = 0.35  # bonus per own neighbour whose number is within one (a line in the making)
BUY_MARGIN = 0.3


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, rules: UnderFireRules, seat: int, rng: random.Random) -> None:
        super().__init__(rules, seat, rng)
        self.puf: UnderFireRules = rules
        config = rules.config
        self.ability = {}
        for tile, number in enumerate(config.ship_number):
            if config.ship_fleet[tile] == seat:
                self.ability[number] = config.ship_ability[tile]
        geo = rules.geometry
        # per space: its neighbours as a list (the masks are for the engine; the bot walks them)
        self.near = tuple(tuple(t for t in range(geo.spaces) if geo.neighbours[s] >> t & 1) for s in range(geo.spaces))

    # --- reading the observation -----------------------------------------------------------------------

    def _numbers(self, board: Sequence[Any], seat: int) -> list[int]:
        return [t["number"] if t and t["seat"] == seat and not t["burning"] else 0 for t in board]

    def _gain(self, numbers: list[int], s: int, number: int, known: dict[int, int] | None = None) -> int:
        """Line points gained when space `s` holds `number` (0: loses its ship), scored on its lines only."""
        return self.puf.lines.change(numbers, s, number, known)

    def _gold_worth(self, observation: Mapping[str, Any]) -> float:
        left = self.puf.config.turns - observation["turns"][self.seat]
        return 0.05 + 0.3 * left / self.puf.config.turns

    def _effect_value(self, effect: Effect, s: int, board: Sequence[Any], observation: Mapping[str, Any]) -> float:
        """Rough VP worth of an effect applied at space `s` for this seat."""
        me, rival = self.seat, 1 - self.seat
        gold = self._gold_worth(observation)
        value = 0.0
        for kind, n in effect:
            if kind == "gold":
                value += n * gold
            elif kind == "vp":
                value += n
            elif kind == "steal":
                value += 2 * gold * min(n, observation["gold"][rival])
            elif kind in ("trade", "bounty", "ignite", "broadside", "salvage"):
                around = [board[t] for t in self.near[s] if board[t]]
                rivals = [t for t in around if t["seat"] == rival and not t["burning"]]
                if kind == "trade":
                    value += n * gold * sum(1 for t in around if not t["burning"])
                elif kind == "bounty":
                    value += n if rivals else 0
                elif kind == "ignite":
                    value += 1.5 if any(t.get("mercenary") is None for t in rivals) else 0
                elif kind == "broadside":
                    value += 1.5 * sum(1 for t in rivals if t.get("mercenary") is None)
                else:
                    value += 1.2 * sum(1 for t in around if t["seat"] == me and t["burning"])
            elif kind == "repair":
                value += 1.2 if any(t and t["seat"] == me and t["burning"] for t in board) else 0
        return value

    # --- choosing -------------------------------------------------------------------------------------

    def choose(self, observation: Mapping[str, Any], legal: list[int]) -> int:
        space = self.puf.space
        phase = observation["phase"]
        if phase == "target":
            return self._target(observation, legal)
        if phase == "order":
            return self._order(observation)
        board = observation["board"]
        buys = [a for a in legal if space.buy <= a < space.target]
        if phase == "main":
            places = [a for a in legal if a < space.buy]
            if places:
                mine = self._numbers(board, self.seat)  # read once: each candidate is scored as a change to it
                known: dict[int, int] = {}  # points of mine's lines, shared by the candidates
                seas: dict[int, float] = {}  # worth of each space's sea effect, shared likewise
                return self.pick_best(places, lambda a: self._place_value(a, board, observation, mine, known, seas))
            # no space for a ship: only a purchase (the Ram) can open one
            return self.pick_best(buys, lambda a: self.buy_value(a, board, observation))
        if not buys:
            return space.end
        best = self.pick_best(buys, lambda a: self.buy_value(a, board, observation))
        return best if self.buy_value(best, board, observation) > BUY_MARGIN else space.end

    def ranked(self, observation: Mapping[str, Any], legal: list[int]) -> list[int]:
        """Every legal move, best first by the values `choose` weighs (for the search bot's candidates):
        ships by their placement worth, then purchases; after the main action, ending the turn is worth
        the buying margin."""
        space = self.puf.space
        phase = observation["phase"]
        if phase in ("target", "order"):
            first = self.choose(observation, legal)
            return [first, *(a for a in legal if a != first)]
        board = observation["board"]
        places = [a for a in legal if a < space.buy]
        buys = [a for a in legal if space.buy <= a < space.target]
        ranked_buys = ranked_by(buys, lambda a: self.buy_value(a, board, observation), self.rng)
        if phase == "main" and places:
            mine = self._numbers(board, self.seat)
            known: dict[int, int] = {}
            seas: dict[int, float] = {}
            return ranked_by(places, lambda a: self._place_value(a, board, observation, mine, known, seas),
                             self.rng) + ranked_buys
        if phase == "main":
            return ranked_buys
        return ranked_by(legal, lambda a: BUY_MARGIN if a == space.end else self.buy_value(a, board, observation),
                         self.rng)

    def _place_value(self, action: int, board: Sequence[Any], observation: Mapping[str, Any],
                     mine: list[int], known: dict[int, int], seas: dict[int, float]) -> float:
        """Worth of placing a ship: line points gained, the rival's sea, effects, and near numbers."""
        geo = self.puf.geometry
        number_index, s = divmod(action, self.puf.space.spaces)
        number = number_index + 1
        value = float(self._gain(mine, s, number, known))
        if geo.sea_owner[s] != self.seat:
            value += self.puf.config.rival_sea_vp
        if board[s] is None:
            if s not in seas:
                seas[s] = self._effect_value(geo.effect[s], s, board, observation)
            value += seas[s]
        value += self._effect_value(self.ability.get(number, ()), s, board, observation)
        for t in self.near[s]:
            if mine[t] and abs(mine[t] - number) <= 1:
                value += NEAR
        return value

    def buy_value(self, action: int, board: Sequence[Any], observation: Mapping[str, Any]) -> float:
        """Rough VP worth of a purchase, less its cost in gold (worth less as the game nears its end)."""
        config = self.puf.config
        m, s = divmod(action - self.puf.space.buy, self.puf.space.spaces)
        value = config.merc_vp[m] + self._effect_value(config.merc_effect[m], s, board, observation)
        target = board[s]
        if target is not None and target["seat"] != self.seat and not target["burning"]:  # a Ram sinking a ship
            theirs = self._numbers(board, 1 - self.seat)
            value += 1 - self._gain(theirs, s, 0)
        return value - config.merc_cost[m] * self._gold_worth(observation)

    def _target(self, observation: Mapping[str, Any], legal: list[int]) -> int:
        """Fire where the rival loses most line points; repair where we regain most."""
        board = observation["board"]
        space = self.puf.space

        def gain(action: int) -> float:
            s = action - space.target
            tile = board[s]
            if tile["seat"] == self.seat:  # a repair
                return self._gain(self._numbers(board, self.seat), s, tile["number"]) + 0.5
            return -self._gain(self._numbers(board, 1 - self.seat), s, 0)

        return self.pick_best(legal, gain)

    def _order(self, observation: Mapping[str, Any]) -> int:
        """Read the board before setting rival ships on fire; put own fires out before reading it."""
        space = self.puf.space
        s = observation["anchor"]
        ship = self.ability.get(observation["board"][s]["number"], ())
        kinds = {k for k, _ in ship}
        if kinds & {"repair", "salvage"}:
            return space.ship_first
        if kinds & {"ignite", "broadside"}:
            return space.sea_first
        return space.ship_first


GOLD_VP = 0.2  # a gold coin's worth in victory points, in a play-out cut before the end


def evaluate(state: Any) -> list[float]:
    """Each captain's victory points so far, scored from the board as at the end, plus a little for gold:
    where the search bot's play-outs stop (a few moves on), the position is judged by this."""
    return [sum(state.score_seat(seat).values()) + GOLD_VP * state.gold[seat] for seat in (0, 1)]


# search guided by the heuristic: sequential halving over its 4 best moves, play-outs cut after a few moves
SEARCH = SearchBot.guided(prior=HeuristicBot, playout=HeuristicBot, iterations=12, candidates=4, horizon=4,
                          evaluate=evaluate)
