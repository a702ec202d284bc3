"""The fixed action space of Nim: action k is "take k", for every k a pile could ever hold.

The space is wider than what is ever legal (1..take_max): "take 0" or "take 7"
still read back as actions, so a log holding one fails on the rule it breaks
("may take 1 to 3"), not on its spelling.
"""

from __future__ import annotations

from generator.engine.base import NamedActions
from generator.engine.games.example.config import NimConfig


class ActionSpace(NamedActions):
    def __init__(self, config: NimConfig) -> None:
        self.set_names([f"take {k}" for k in range(config.heap_max + 1)], "'take 2'")
