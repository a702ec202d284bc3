"""A Nim bot: the textbook strategy, so the simulator has a strong player to measure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.engine.base import Bot


class HeuristicBot(Bot):
    """Leaves a multiple of take_max + 1 when it can; otherwise takes a random amount (no winning move)."""

    name = "heuristic"

    def choose(self, observation: Mapping[str, Any], legal: list[int]) -> int:
        best = observation["heap"] % (observation["take_max"] + 1)
        return best if best in legal else legal[self.rng.randrange(len(legal))]
