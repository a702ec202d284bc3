"""Everything the Nim engine reads from the YAML, gathered once per `Rules`, and the values it can play."""

from __future__ import annotations

from dataclasses import dataclass

from generator.engine.playable import Needs, Playable, Span
from generator.model import Game


def _heap_order(game: Game) -> tuple[str, str] | None:
    low, high = game.rule("heap_min", int), game.rule("heap_max", int)
    return None if low <= high else (f"at most heap_max ({high})", str(low))


# Checked by `Rules` before any game starts, at the value's YAML line (`generator.engine.playable`).
PLAYABLE: tuple[Playable, ...] = (
    Span("heap_min", 1, 1000, "doubloons in the pile at the start"),
    Span("heap_max", 1, 1000, "doubloons in the pile at the start"),
    Span("take_max", 1, 100, "doubloons a turn may take"),
    Needs("heap_min", _heap_order),
)


@dataclass(frozen=True)
class NimConfig:
    heap_min: int  # the pile holds heap_min..heap_max doubloons at the start (the deal draws it)
    heap_max: int
    take_max: int  # a turn takes 1..take_max


def load_config(game: Game) -> NimConfig:
    return NimConfig(game.rule("heap_min", int), game.rule("heap_max", int), game.rule("take_max", int))
