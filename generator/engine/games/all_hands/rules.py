"""All Hands on Deck bound to its YAML: the deal, the lay-out options and the final scorer."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from generator.engine.base import IllegalAction, Rules
from generator.engine.games.all_hands.actions import ActionSpace
from generator.engine.games.all_hands.combos import build_options, final_scorer
from generator.engine.games.all_hands.config import PIRATE, PLAYABLE, load_config
from generator.engine.games.all_hands.state import AllHandsState
from generator.model import Game


class AllHandsRules(Rules[AllHandsState]):
    game_id = "all-hands-on-deck"
    playable = PLAYABLE

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.config = load_config(game)
        self.options = build_options(self.config)
        self.space = ActionSpace(self.config, self.options, game.players_max)
        self.best_layout = final_scorer(self.config, self.options)
        self._formable: dict[tuple[int, ...], tuple[int, ...]] = {}
        # per kind, per count held (capped at the most any option needs): the options that count allows,
        # as a bitmask over option indices; a crew can form the options every one of its counts allows
        self._fits = tuple(
            tuple(sum(1 << o.index for o in self.options if o.need[k] <= held)
                  for held in range(max((o.need[k] for o in self.options), default=0) + 1))
            for k in range(len(self.config.kinds)))
        all_items = game.deck(PIRATE)
        self._in_play: dict[int, list[int]] = {}
        for players in game.player_range:
            keep = set(id(i) for i in game.items_for(PIRATE, players))
            self._in_play[players] = [c for c, item in enumerate(all_items) if id(item) in keep]
        self._removed = {n: sorted(set(range(len(all_items))) - set(cards)) for n, cards in self._in_play.items()}

    def formable(self, counts: list[int]) -> tuple[int, ...]:
        """Indices of the lay-out options a crew with these kind counts can form (memoised: hot path)."""
        key = tuple(counts)
        found = self._formable.get(key)
        if found is None:
            if len(self._formable) > 200_000:
                self._formable.clear()
            mask = -1
            for fits, held in zip(self._fits, key, strict=True):
                mask &= fits[held] if held < len(fits) else fits[-1]
            picks: list[int] = []
            while mask:
                low = mask & -mask
                picks.append(low.bit_length() - 1)
                mask ^= low
            self._formable[key] = found = tuple(picks)
        return found

    def in_play(self, players: int) -> list[int]:
        """Card numbers left in the box after the player-count removals, in stable order."""
        self._players_ok(players)
        return list(self._in_play[players])

    def _players_ok(self, players: int) -> None:
        if players not in self._in_play:
            raise IllegalAction(f"All Hands on Deck is for {self.game.players_min}-{self.game.players_max} players, "
                                f"not {players}")

    def rounds_at_most(self, players: int) -> int:
        """Every round moves one card per player from the drawing piles to the crews: this many rounds at most."""
        return self.config.deal[players]

    def random_deal(self, players: int, rng: random.Random) -> dict[str, Any]:
        """Shuffle the cards in play once; deal the drawing piles; draw who wins each start-card race.

        `starts[0]` grabs the start player card at setup; `starts[r]` finishes hiring first in round r
        and opens round r + 1. A race is modelled as uniform over the players (rules.start_player).
        """
        cards = self.in_play(players)
        rng.shuffle(cards)
        return {"cards": cards, "starts": [rng.randrange(players) for _ in range(self.rounds_at_most(players))]}

    def starts_of(self, players: int, deal: Mapping[str, Any]) -> list[int]:
        """Who opens each round. A log from before the race was modelled holds one `start`, and the card
        passed clockwise: that game replays as it was played."""
        rounds = self.rounds_at_most(players)
        if "starts" not in deal:
            first = int(deal["start"])
            return [(first + r) % players for r in range(rounds)]
        starts = [int(s) for s in deal["starts"]]
        if len(starts) < rounds or not all(0 <= s < players for s in starts):
            raise IllegalAction(f"the deal's 'starts' must name the opener of each of {rounds} rounds, "
                                f"seats 0..{players - 1}")
        return starts

    def new_state(self, players: int, deal: Mapping[str, Any], check: bool = False) -> AllHandsState:
        self._players_ok(players)
        cards = list(deal["cards"])
        if sorted(cards) != self._in_play[players]:
            raise IllegalAction(f"the deal must hold exactly the {len(self._in_play[players])} cards in play "
                                f"for {players} players")
        each = self.config.deal[players]
        if each * players > len(cards):
            raise IllegalAction(f"{players} players x {each} cards need {each * players}, the deck has {len(cards)}")
        return self._state(players, cards, self.starts_of(players, deal), check)

    def dealt_state(self, players: int, deal: Mapping[str, Any], check: bool = False) -> AllHandsState:
        """A state from a deal `random_deal` has just drawn: no need to re-validate it."""
        return self._state(players, deal["cards"], deal["starts"], check)

    def _state(self, players: int, cards: list[int], starts: list[int], check: bool) -> AllHandsState:
        each = self.config.deal[players]
        state = AllHandsState(self, players, check)
        for p in range(players):
            state.piles[p] = cards[p * each:(p + 1) * each]  # the end of the list is the top
        removed = self._removed[players]
        state.box = cards[players * each:] + removed  # not dealt, or taken out for this player count
        state.starts = starts
        state.begin_round()
        if check:
            state.check_invariants()
        return state
