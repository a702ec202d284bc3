"""Nim bound to its YAML: the deal (the pile, and alone the whole tide, drawn up front) and new states."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from generator.engine.base import IllegalAction, Rules
from generator.engine.games.example.actions import ActionSpace
from generator.engine.games.example.config import PLAYABLE, load_config
from generator.engine.games.example.state import NimState
from generator.model import Game


class NimRules(Rules[NimState]):
    game_id = "nim"  # the data folder's name: data/nim/
    playable = PLAYABLE  # the rules values it can play, checked before any game

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.config = load_config(game)
        self.space = ActionSpace(self.config)

    def random_deal(self, players: int, rng: random.Random) -> dict[str, Any]:
        config = self.config
        heap = rng.randint(config.heap_min, config.heap_max)
        deal: dict[str, Any] = {"heap": heap}
        if players == 1:
            deal["tide"] = [rng.randint(1, config.take_max) for _ in range(heap)]
        return deal

    def new_state(self, players: int, deal: Mapping[str, Any], check: bool = False) -> NimState:
        if players not in self.player_counts:
            raise IllegalAction(f"Nim is for {self.game.players_min}-{self.game.players_max} players, not {players}")
        heap = int(deal["heap"])
        tide = [int(t) for t in deal.get("tide", [])]
        if heap < 1:
            raise IllegalAction(f"the deal's heap must hold at least one doubloon, not {heap}")
        if players == 1 and len(tide) < heap:
            raise IllegalAction(f"a solo deal needs a tide for each of up to {heap} turns")
        return NimState(self, players, heap, tide, check)
