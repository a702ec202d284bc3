"""`pnp validate` as a library: every check on one game, gathered into a report.

Four sources of checks, each owned where its knowledge lives:
  * generic deck checks (`engine.composition`): declared contents, removals, ids, facts stated once;
  * the game's own rules (its engine's `composition_checks`, found through the
    registry): deal arithmetic run through the real setup code, known effects and abilities;
  * the layouts (`render.fit.layout_checks`): layouts exist, expressions render, text fits;
  * preflight (`render.preflight.preflight_checks`): text and icons inside the safe zone and frames;
  * the documents (`document_checks`): the rulebook template exists, and every
    document template renders and parses, so validation fails wherever a build would.
A game without a working engine is not a failed check but an EngineError: the
project cannot run at all. This module sits beside the CLI: it may import both engine and render.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from generator.checks import Check
from generator.engine.composition import generic_checks
from generator.engine.registry import REGISTRY, Registry
from generator.errors import DataError
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


def _guarded(name: str, provider: Callable[[], list[Check]]) -> list[Check]:
    """A DataError inside a check provider (a missing rules key...) becomes a failed check, not a crash."""
    try:
        return provider()
    except DataError as exc:
        return [Check(name, "readable data", exc.message, False, exc.location)]


def document_checks(game: Game, project: Project) -> list[Check]:
    """The rulebook template exists, and it and every sheet template render over the data and parse.

    These are the steps of `pnp build` that read templates: what fails here would fail the build.
    """
    from generator.render.documents.rulebook import parse_template, rulebook_template
    from generator.render.documents.sheets import sheet_templates

    def renders(path: Path) -> list[Check]:
        display, blocks = parse_template(path, game, project)
        return [Check(f"document {display} renders", "renders and parses", f"{len(blocks)} blocks", True)]

    def all_documents() -> list[Check]:
        checks = _guarded("rulebook template", lambda: renders(rulebook_template(game, project)))
        for template in sheet_templates(game, project):
            checks += _guarded(f"document {project.display(template)} renders", partial(renders, template))
        return checks

    return _guarded("document templates", all_documents)


def validate_game(game: Game, project: Project, registry: Registry = REGISTRY) -> GameReport:
    """Every check on one game; an EngineError when the game has no working engine."""
    from generator.readgate import ReadGate
    from generator.render.fit import PrintableSide, layout_checks, printable_sides
    from generator.render.preflight import preflight_checks

    if not project.gate.per_build:
        # One validation is one pass over unchanging inputs: a layout read for the first face
        # need not be re-checked on disk for each of the next thousand faces.
        project = project.with_gate(ReadGate(project.root, per_build=True))

    engine = registry.engine(game.id)
    report = GameReport(game.id)
    report.checks += generic_checks(game, project.templates_dir, project.display, project.gate)
    report.checks += _guarded("rules engine checks", lambda: engine.composition_checks(game))
    sides: list[PrintableSide] | None  # every face resolved once, for the layout and the preflight checks
    try:
        sides = printable_sides(game, project)
    except DataError:
        sides = None  # the layout checks meet the same error and report it
    report.checks += _guarded("layout checks", lambda: layout_checks(game, project, sides))
    report.checks += _guarded("preflight checks", lambda: preflight_checks(game, project, sides))
    report.checks += document_checks(game, project)
    return report


def validate_games(games: list[Game], project: Project, registry: Registry = REGISTRY) -> list[GameReport]:
    return [validate_game(game, project, registry) for game in games]
