"""Pirate Tricks' `Rules`: the deal (every shuffle of every round, drawn up front) and new states."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from generator.engine.base import Rules, shuffled
from generator.engine.games.pirate_tricks.actions import ActionSpace
from generator.engine.games.pirate_tricks.config import PLAYABLE, load_config
from generator.engine.games.pirate_tricks.state import PirateTricksState
from generator.errors import DataError, UsageError
from generator.model import Game


class PirateTricksRules(Rules[PirateTricksState]):
    """`rounds` picks the game length (3 by the rules; `rules.round_options` lists the longer games)."""

    game_id = "pirate-tricks"
    playable = PLAYABLE

    def __init__(self, game: Game, rounds: int | None = None) -> None:
        super().__init__(game)
        self.config = load_config(game)
        self.rounds = self.config.rounds if rounds is None else rounds
        if self.rounds not in self.config.round_options:
            raise UsageError(f"Pirate Tricks plays {', '.join(map(str, self.config.round_options))} rounds, "
                             f"not {self.rounds}")
        self.space = ActionSpace(self.config, game.players_max)

    def random_deal(self, players: int, rng: random.Random) -> dict[str, Any]:
        """Per round a crew-deck order; the three score decks shuffled once (cards drawn are not returned)."""
        self._check_players(players)
        t = self.config
        crew = t.in_play[players]
        return {
            "rounds": self.rounds,
            "crew": [[crew[i] for i in shuffled(len(crew), rng)] for _ in range(self.rounds)],
            "recruitment": shuffled(len(t.recruitment), rng),
            "capture": shuffled(len(t.capture), rng),
            "treasure": shuffled(len(t.treasure), rng),
        }

    def new_state(self, players: int, deal: Mapping[str, Any], check: bool = False) -> PirateTricksState:
        self._check_players(players)
        t = self.config
        rounds = int(deal.get("rounds", self.rounds))
        crew = set(t.in_play[players])
        orders = [list(o) for o in deal["crew"]]
        if len(orders) < rounds or any(len(o) != len(crew) or set(o) != crew for o in orders):
            raise DataError(f"deal 'crew' must hold {rounds} orders of the {len(crew)} crew cards in play")
        decks = {}
        for name, items in (("recruitment", t.recruitment), ("capture", t.capture), ("treasure", t.treasure)):
            order = list(deal[name])
            if sorted(order) != list(range(len(items))):
                raise DataError(f"deal '{name}' must be an order of 0..{len(items) - 1}")
            if len(order) < rounds * t.per_round[name]:
                raise DataError(f"{rounds} rounds need {rounds * t.per_round[name]} {name} cards, "
                                f"the deck has {len(order)}")
            decks[name] = order
        fixed = {"rounds": rounds, "crew": orders, **decks}
        return PirateTricksState(t, self.space, players, fixed, check)

    def new_game(self, players: int, seed: int, check: bool = False) -> PirateTricksState:
        """A fresh deal from `seed`; skips re-validating the deal it has just drawn itself."""
        deal = self.random_deal(players, random.Random(seed))
        return PirateTricksState(self.config, self.space, players, deal, check)

    def dealt_state(self, players: int, deal: Mapping[str, Any], check: bool = False) -> PirateTricksState:
        """A state from a deal `random_deal` has just drawn: no need to re-validate it."""
        return PirateTricksState(self.config, self.space, players, deal, check)

    def _check_players(self, players: int) -> None:
        if players not in self.player_counts:
            raise DataError(f"Pirate Tricks is for {self.game.players_min}-{self.game.players_max} players, "
                            f"not {players}", self.game.location)
