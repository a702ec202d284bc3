"""Plunder Pile's rules engine, as a plugin: the three hooks Pirate Press looks for.

Registered in this package's pyproject.toml (`nim = "plunder_pile:RULES"` in the entry-point group
`pirate_press.engines`). The rules, the textbook bot and the deck checks are the documented example
engine's (`generator.engine.games.example`, the one to copy when writing an engine); this package adds
a bot of its own, to show that a plugin's `BOTS` are its own to choose.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.engine.base import Bot, RandomBot
from generator.engine.games.example.bots import HeuristicBot
from generator.engine.games.example.checks import composition_checks
from generator.engine.games.example.rules import NimRules


class GreedyBot(Bot):
    """Takes as many doubloons as it may: a weak player, for the strong one to beat."""

    name = "greedy"

    def choose(self, observation: Mapping[str, Any], legal: list[int]) -> int:
        return max(legal)


RULES = NimRules
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "greedy": GreedyBot}

__all__ = ["BOTS", "RULES", "composition_checks"]
