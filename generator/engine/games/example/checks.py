"""Deck checks for `pnp validate`: a pile of the largest size must be on the table."""

from __future__ import annotations

from generator.checks import Check
from generator.engine.games.example.config import load_config
from generator.errors import DataError
from generator.model import Game

PILE = "doubloon"  # the component whose copies make the pile


def composition_checks(game: Game) -> list[Check]:
    try:
        config = load_config(game)
    except DataError as exc:
        return [Check("rules readable by the engine", "valid rules", exc.message, False, exc.location)]
    if not game.has_component(PILE):
        return [Check(f"component '{PILE}' exists", "present", "missing", False, game.location)]
    doubloons = game.component(PILE)
    return [Check.holds("enough doubloons for the largest pile", doubloons.count >= config.heap_max,
                        f">= {config.heap_max}", str(doubloons.count), doubloons.location)]
