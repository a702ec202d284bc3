"""Which engine package plays which game.

Each package `generator.engine.<name>` exposes:
  RULES: type[Rules]                      the rules bound to the YAML game
  BOTS: dict[str, type[Bot]]              at least "random" and "heuristic"
  composition_checks(game) -> list[generator.checks.Check]  deck checks for `pnp validate`
"""

from __future__ import annotations

import importlib
from types import ModuleType

from generator.errors import UsageError

ENGINES: dict[str, str] = {
    "counterattack": "generator.engine.counterattack",
    "pirate-tricks": "generator.engine.pirate_tricks",
    "all-hands-on-deck": "generator.engine.all_hands",
    "pirates-under-fire": "generator.engine.under_fire",
}


def engine_module(game_id: str) -> ModuleType:
    if game_id not in ENGINES:
        raise UsageError(f"no rules engine for {game_id!r} (engines: {', '.join(ENGINES)})")
    return importlib.import_module(ENGINES[game_id])
