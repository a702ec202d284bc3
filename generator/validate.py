"""`pnp validate` as a library: every check on one game, gathered into a report.

Three sources of checks, each owned where its knowledge lives:
  * generic deck checks (`engine.composition`): declared contents, removals, ids, facts stated once;
  * the game's own rules (`engine.<game>.composition_checks`): deal arithmetic run
    through the real setup code, known effects and abilities;
  * the layouts (`render.fit.layout_checks`): layouts exist, expressions render, text fits.
This module sits beside the CLI: it may import both engine and render.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from generator.checks import Check
from generator.engine.composition import generic_checks
from generator.engine.registry import ENGINES
from generator.errors import DataError, PnpError
from generator.model import Game
from generator.project import Project


@dataclass
class GameReport:
    game_id: str
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "ok": self.ok,
            "checks": [
                {
                    "name": c.name,
                    "expected": c.expected,
                    "actual": c.actual,
                    "ok": c.ok,
                    "players": c.players,
                    "location": str(c.location) if c.location else None,
                }
                for c in self.checks
            ],
        }


def _optional(module: str, attribute: str) -> Callable[..., list[Check]] | None:
    """A check provider that may not exist yet in a partial install (engines are plug-ins)."""
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            return None
        raise
    return getattr(loaded, attribute, None)


def _guarded(name: str, provider: Callable[[], list[Check]]) -> list[Check]:
    """A DataError inside a check provider (a missing rules key...) becomes a failed check, not a crash."""
    try:
        return provider()
    except DataError as exc:
        return [Check(name, "readable data", exc.message, False, exc.location)]


def validate_game(game: Game, project: Project) -> GameReport:
    report = GameReport(game.id)
    report.checks += generic_checks(game, project.templates_dir, project.display, project.gate)
    engine_checks = _optional(ENGINES[game.id], "composition_checks") if game.id in ENGINES else None
    if engine_checks is not None:
        report.checks += _guarded("rules engine checks", lambda: engine_checks(game))
    layout_checks = _optional("generator.render.fit", "layout_checks")
    if layout_checks is not None:
        report.checks += _guarded("layout checks", lambda: layout_checks(game, project))
    return report


def validate_games(games: list[Game], project: Project) -> list[GameReport]:
    return [validate_game(game, project) for game in games]


class InvalidDeck(PnpError):
    """Raised by commands that refuse to act on a deck failing validation."""

    exit_code = 1
