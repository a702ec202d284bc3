"""The engine of the tiny test game: the example Nim engine under the tiny game's id.

Every game needs an engine (the registry refuses a game folder without one), so
the tiny game the cache tests build borrows Nim's rules; its data carries the
three numbers Nim reads.
"""

from generator.engine.games.example import BOTS, composition_checks
from generator.engine.games.example.rules import NimRules


class TinyRules(NimRules):
    game_id = "tiny"


RULES = TinyRules

__all__ = ["BOTS", "RULES", "composition_checks"]
