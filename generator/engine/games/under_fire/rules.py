"""Pirates Under Fire bound to its YAML: fleets, seas, mercenaries and the scoring tables."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from generator.engine.base import IllegalAction, Rules
from generator.engine.games.under_fire.actions import ActionSpace
from generator.engine.games.under_fire.board import LineScorer, build_geometry
from generator.engine.games.under_fire.config import PLAYABLE, UnderFireConfig, load_config
from generator.engine.games.under_fire.state import UnderFireState
from generator.model import Game


class UnderFireRules(Rules[UnderFireState]):
    game_id = "pirates-under-fire"
    playable = PLAYABLE

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.config = load_config(game)
        self.geometry = build_geometry(self.config)
        self.space = ActionSpace(self.config, self.geometry)
        self.lines = LineScorer(self.config, self.geometry, {
            name: game.rule_location(f"scoring.{name}") for name in ("sets", "runs")})
        self.rams = tuple(any(k == "ram" for k, _ in effect) for effect in self.config.merc_effect)
        self.vp_per_token = _mean_token(self.config)  # what a face-down VP token is worth, on average
        self.fleet_tiles = tuple(
            [t for t, f in enumerate(self.config.ship_fleet) if f == seat] for seat in (0, 1)
        )

    def random_deal(self, players: int, rng: random.Random) -> dict[str, Any]:
        """Shuffle each fleet into its deck; draw who plays first."""
        self._players_ok(players)
        decks = [list(tiles) for tiles in self.fleet_tiles]
        for deck in decks:
            rng.shuffle(deck)
        return {"decks": decks, "first": rng.randrange(2)}

    def _players_ok(self, players: int) -> None:
        if players != 2:
            raise IllegalAction(f"Pirates Under Fire is for 2 players, not {players}")

    def new_state(self, players: int, deal: Mapping[str, Any], check: bool = False) -> UnderFireState:
        self._players_ok(players)
        for seat in (0, 1):
            if sorted(deal["decks"][seat]) != self.fleet_tiles[seat]:
                raise IllegalAction(f"the deck of seat {seat} must hold exactly the {len(self.fleet_tiles[seat])} tiles of the "
                                    f"{self.config.fleets[seat]} fleet")
        return self.dealt_state(players, deal, check)

    def dealt_state(self, players: int, deal: Mapping[str, Any], check: bool = False) -> UnderFireState:
        """A state from a deal `random_deal` has just drawn (or `new_state` has checked)."""
        state = UnderFireState(self, check)
        first = int(deal["first"]) % 2
        for seat in (0, 1):
            deck = list(deal["decks"][seat])
            hand = self.config.hand_size
            state.hands[seat] = deck[len(deck) - hand:][::-1]
            state.decks[seat] = deck[:len(deck) - hand]
            state.gold[seat] = self.config.starting_gold + (self.config.second_player_gold if seat != first else 0)
        state.turn = state.first = first
        state._enter_main()
        if check:
            state.check_invariants()
        return state


def _mean_token(config: UnderFireConfig) -> float:
    """The mean value of the VP tokens the board, ships and mercenaries hand out (each effect counted once):
    a rival's face-down tokens are estimated at this value when a search bot samples the game."""
    effects = [*(e for sea in config.sea for e in sea), *config.ship_ability, *config.merc_effect]
    amounts = [n for effect in effects for kind, n in effect if kind in ("vp", "bounty")]
    return sum(amounts) / len(amounts) if amounts else 0.0
