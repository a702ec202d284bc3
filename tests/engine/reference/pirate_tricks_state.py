"""Pirate Tricks' state as it observed before: the whole observation built on the first read, every
seat's recruitment lay-out recounted on every look.

Only for measuring the speed-up (tests/bench/bench_heuristics.py); the rules are the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.engine.base import LazyObservation
from generator.engine.games.pirate_tricks import scoring
from generator.engine.games.pirate_tricks.state import PirateTricksState


class PlainTricksState(PirateTricksState):
    __slots__ = ()

    def observation(self, player: int) -> Mapping[str, Any]:
        return LazyObservation(self._observe, player)  # all of it, on the first read

    def _shown(self, seat: int) -> list[int]:
        cards: set[int] = set()
        for index in self.recruit_cards:
            for combo in scoring.recruitment_combos(self.t, self.t.recruitment_specs[index], self.shown[seat]):
                cards.update(combo)
        return sorted(cards)
