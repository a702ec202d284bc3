"""Counterattack's `Rules`: the deal (every shuffle a game can need, drawn up front) and new states."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from generator.engine.base import Rules, shuffled
from generator.engine.games.counterattack.actions import ActionSpace
from generator.engine.games.counterattack.config import PLAYABLE, load_config
from generator.engine.games.counterattack.state import CounterattackState, win_tables
from generator.errors import DataError
from generator.model import Game


class CounterattackRules(Rules[CounterattackState]):
    game_id = "counterattack"
    playable = PLAYABLE

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.config = load_config(game)
        self.space = ActionSpace(self.config)
        self.win = win_tables(self.config)
        self._all_cards = frozenset(range(len(self.config.card_suit)))
        self._all_exposed = frozenset(range(len(self.config.exposed_suit)))

    def random_deal(self, players: int, rng: random.Random) -> dict[str, Any]:
        """The exposed port order and one main-deck shuffle per pass a won game can reach."""
        self._check_players(players)
        return {"exposed": shuffled(len(self.config.exposed_suit), rng),
                "passes": [shuffled(len(self.config.card_suit), rng) for _ in range(self.config.passes)]}

    def new_state(self, players: int, deal: Mapping[str, Any], check: bool = False) -> CounterattackState:
        self._check_players(players)
        exposed = list(deal["exposed"])
        passes = [list(p) for p in deal["passes"]]
        n = len(self.config.card_suit)
        if len(exposed) != len(self._all_exposed) or set(exposed) != self._all_exposed:
            raise DataError(f"deal 'exposed' must be an order of 0..{len(self._all_exposed) - 1}")
        if len(passes) < self.config.passes or any(len(p) != n or set(p) != self._all_cards for p in passes):
            raise DataError(f"deal 'passes' must hold {self.config.passes} orders of the {n} main cards")
        return self._state(players, exposed, passes, check)

    def new_game(self, players: int, seed: int, check: bool = False) -> CounterattackState:
        """A fresh deal from `seed`; skips re-validating the deal it has just drawn itself."""
        deal = self.random_deal(players, random.Random(seed))
        return self._state(players, deal["exposed"], deal["passes"], check)

    def dealt_state(self, players: int, deal: Mapping[str, Any], check: bool = False) -> CounterattackState:
        """A state from a deal `random_deal` has just drawn: no need to re-validate it."""
        return self._state(players, deal["exposed"], deal["passes"], check)

    def _state(self, players: int, exposed: list[int], passes: list[list[int]], check: bool) -> CounterattackState:
        return CounterattackState(self.config, self.space, self.win, players, exposed, passes, check)

    def _check_players(self, players: int) -> None:
        if players not in self.player_counts:
            raise DataError(f"Counterattack is for {self.game.players_min}-{self.game.players_max} players, "
                            f"not {players}", self.game.location)
