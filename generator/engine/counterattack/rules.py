"""Counterattack's `Rules`: the deal (every shuffle a game can need, drawn up front) and new states."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from generator.engine.base import Rules
from generator.engine.counterattack.state import CounterattackState, win_tables
from generator.engine.counterattack.tables import build_tables
from generator.errors import DataError
from generator.model import Game


def shuffled(n: int, rng: random.Random) -> list[int]:
    """A uniformly random order of 0..n-1: sort by random keys (several times faster than
    `rng.shuffle`, whose per-swap integer draws dominate a whole random game)."""
    keys = [rng.random() for _ in range(n)]
    return sorted(range(n), key=keys.__getitem__)


class CounterattackRules(Rules):
    game_id = "counterattack"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.tables = build_tables(game)
        self.win = win_tables(self.tables)
        self._all_cards = frozenset(range(len(self.tables.card_suit)))
        self._all_exposed = frozenset(range(len(self.tables.exposed_suit)))

    def random_deal(self, players: int, rng: random.Random) -> dict[str, Any]:
        """The exposed port order and one main-deck shuffle per pass a won game can reach."""
        self._check_players(players)
        return {"exposed": shuffled(len(self.tables.exposed_suit), rng),
                "passes": [shuffled(len(self.tables.card_suit), rng) for _ in range(self.tables.passes)]}

    def new_state(self, players: int, deal: Mapping[str, Any], check: bool = False) -> CounterattackState:
        self._check_players(players)
        exposed = list(deal["exposed"])
        passes = [list(p) for p in deal["passes"]]
        n = len(self.tables.card_suit)
        if len(exposed) != len(self._all_exposed) or set(exposed) != self._all_exposed:
            raise DataError(f"deal 'exposed' must be an order of 0..{len(self._all_exposed) - 1}")
        if len(passes) < self.tables.passes or any(len(p) != n or set(p) != self._all_cards for p in passes):
            raise DataError(f"deal 'passes' must hold {self.tables.passes} orders of the {n} main cards")
        return CounterattackState(self.tables, self.win, players, exposed, passes, check)

    def new_game(self, players: int, seed: int, check: bool = False) -> CounterattackState:
        """A fresh deal from `seed`; skips re-validating the deal it has just drawn itself."""
        deal = self.random_deal(players, random.Random(seed))
        return CounterattackState(self.tables, self.win, players, deal["exposed"], deal["passes"], check)

    def _check_players(self, players: int) -> None:
        if players not in self.player_counts:
            raise DataError(f"Counterattack is for {self.game.players_min}-{self.game.players_max} players, not {players}",
                            self.game.location)
