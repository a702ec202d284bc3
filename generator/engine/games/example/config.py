"""Everything the Nim engine reads from the YAML, gathered once per `Rules`."""

from __future__ import annotations

from dataclasses import dataclass

from generator.errors import DataError
from generator.model import Game


@dataclass(frozen=True)
class NimConfig:
    heap_min: int  # the pile holds heap_min..heap_max doubloons at the start (the deal draws it)
    heap_max: int
    take_max: int  # a turn takes 1..take_max


def load_config(game: Game) -> NimConfig:
    config = NimConfig(game.rule("heap_min", int), game.rule("heap_max", int), game.rule("take_max", int))
    if not 1 <= config.heap_min <= config.heap_max:
        raise DataError(f"rules: heap_min and heap_max must satisfy 1 <= heap_min <= heap_max, got "
                        f"{config.heap_min} and {config.heap_max}", game.rule_location("heap_min"))
    if config.take_max < 1:
        raise DataError(f"rules: take_max must be at least 1, got {config.take_max}", game.rule_location("take_max"))
    return config
