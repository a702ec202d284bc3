"""`pnp validate` as a library: every check on one game, gathered into a report.

Four sources of checks, each owned where its knowledge lives:
  * generic deck checks (`engine.composition`): declared contents, removals, ids, facts stated once;
  * the game's own rules (its engine's `composition_checks`, found through the
    registry): deal arithmetic run through the real setup code, known effects and abilities.
    A game without an engine (a data-only game) skips them; a game whose engine does not
    load fails one check that says why, and the other games validate as before;
  * the layouts (`render.fit.layout_checks`): layouts exist, expressions render, text fits;
  * preflight (`render.preflight.preflight_checks`): text and icons inside the safe zone and frames;
  * accessibility (`render.faces.access`): contrast, text size, colours apart for colour-blind
    players, different backs on piles laid side by side;
  * the documents (`document_checks`): the rulebook template exists, and every
    document template renders and parses, so validation fails wherever a build would.
This module sits beside the CLI: it may import both engine and render.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from generator.checks import Check
from generator.engine.composition import generic_checks
from generator.engine.playable import Playable
from generator.engine.playable import checks as playable_checks
from generator.engine.registry import REGISTRY, EngineError, Registry
from generator.errors import DataError, Location
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

    def warnings(self) -> list[Check]:
        return [c for c in self.checks if c.ok and c.warning]

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
                    "warning": c.warning,
                    "players": c.players,
                    "location": str(c.location) if c.location else None,
                    "source": str(c.source) if c.source else None,
                }
                for c in self.checks
            ],
        }


def _guarded(name: str, provider: Callable[[], list[Check]], broken: bool = True) -> list[Check]:
    """A DataError inside a check provider (a missing rules key...) becomes a failed check, not a crash.

    `broken`: the job that draws it meets the same error (a template or layout that cannot be read or drawn), so
    the build reports it as bad data rather than as a deck to build anyway with --force; the engine's own
    checks are not (a build draws without them)."""
    try:
        return provider()
    except DataError as exc:
        return [Check(name, "readable data", exc.message, False, exc.location, broken=broken)]


def _playable_checks(game: Game, table: Sequence[Playable]) -> list[Check]:
    """The values of `rules:` the engine can play (`engine.playable`), each misfit at its own line."""
    return _guarded("rules values the engine can play", lambda: playable_checks(game, table), broken=False)


def document_checks(game: Game, project: Project, share: bool = False) -> list[Check]:
    """The rulebook template exists, and it and every sheet template render over the data and parse.

    These are the steps of `pnp build` that read templates: what fails here would fail the build.
    With `share` (a build's validation), the parses are kept for the build's document jobs.
    """
    from generator.render.documents.parses import template_parses
    from generator.render.documents.rulebook import parse_template, rulebook_template
    from generator.render.documents.sheets import sheet_templates

    if share:
        with template_parses(project).sharing(game):
            return document_checks(game, project)

    def renders(path: Path) -> list[Check]:
        display, blocks = parse_template(path, game, project)
        return [Check(f"document {display} renders", "renders and parses", f"{len(blocks)} blocks", True)]

    def all_documents() -> list[Check]:
        checks = _guarded("rulebook template", lambda: renders(rulebook_template(game, project)))
        for template in sheet_templates(game, project):
            checks += _guarded(f"document {project.display(template)} renders", partial(renders, template))
        return checks

    return _guarded("document templates", all_documents)


def validate_game(game: Game, project: Project, registry: Registry = REGISTRY,
                  known: SideChecks | None = None, share_parses: bool = False) -> GameReport:
    """Every check on one game: its engine's too when it has one (an engine that does not load is a failed check).

    With `known` (a build's), each component side's layout and preflight checks are reused
    while nothing they depend on changed (see `SideChecks`); with `share_parses` (a build's),
    the document templates it parses are kept for the build's document jobs."""
    from generator.readgate import ReadGate
    from generator.render.base.project_fonts import font_checks
    from generator.render.faces.access import access_checks, game_access
    from generator.render.faces.fit import PrintableSide, layout_checks, printable_sides
    from generator.render.faces.preflight import preflight_checks
    from generator.render.site.box_front import box_art_checks

    if not project.gate.per_build:
        # One validation is one pass over unchanging inputs: a layout read for the first face
        # need not be re-checked on disk for each of the next thousand faces.
        project = project.with_gate(ReadGate(project.root, per_build=True))

    report = GameReport(game.id)
    report.checks += generic_checks(game, project.templates_dir, project.display, project.gate)
    report.checks += _guarded("project fonts", lambda: font_checks(project, game.id))
    engine_part, playable = engine_checks(game, registry)
    report.checks += engine_part
    if not playable:
        # the checks below would meet the value where it is used (a template's loop, a deal) and blame that
        # place, or take as long as the value is large: the value's own line is the one to fix first
        return report
    by_side = _checks_by_side(game, project, known)
    if by_side is not None:
        report.checks += [check for layout_part, _ in by_side for check in layout_part]
        report.checks += [check for _, preflight_part in by_side for check in preflight_part]
        report.checks += _guarded("accessibility checks", lambda: game_access(game, project))
    else:  # something failed outside one side's checks: the whole-game checks meet it and report it
        sides: list[PrintableSide] | None  # every face resolved once, for the layout and the preflight checks
        try:
            sides = printable_sides(game, project)
        except DataError:
            sides = None  # the layout checks meet the same error and report it
        report.checks += _guarded("layout checks", lambda: layout_checks(game, project, sides))
        report.checks += _guarded("preflight checks", lambda: preflight_checks(game, project, sides))
        report.checks += _guarded("accessibility checks", lambda: access_checks(game, project, sides))
    report.checks += document_checks(game, project, share_parses)
    report.checks += _guarded("box art", lambda: box_art_checks(game, project))
    return report


def engine_checks(game: Game, registry: Registry) -> tuple[list[Check], bool]:
    """The game's engine checks, and whether its rules values are ones the engine can play.

    First the values of `rules:` against the engine's declared ranges (`engine.playable`); when they fit,
    the game's own deck checks. None for a game without an engine (its data, layouts and documents are
    checked all the same), and one failed check when its engine does not load."""
    try:
        engine = registry.engine_or_none(game.id)
    except EngineError as exc:
        return [Check("rules engine loads", "an engine that loads and fits the game", exc.message, False,
                      game.location)], True
    if engine is None:
        return [], True
    playable = _playable_checks(game, engine.rules.playable)
    if not all(check.ok for check in playable):
        return playable, False
    return playable + _guarded("rules engine checks", lambda: engine.composition_checks(game), broken=False), True


class SideChecks:
    """The layout and preflight checks of each component side, kept by what they depend on.

    A side's entry is keyed by the code, the component (every item, field and source line)
    and the game values a face can see, and holds the digests of the files it read (layouts,
    images): a later validation reuses it while those still read the same, so a one-card
    edit re-checks only that card's component. `previous` comes from the build cache;
    `current` (what this validation used) goes back into it.
    """

    def __init__(self, previous: Mapping[str, Any] | None = None) -> None:
        self.previous = dict(previous or {})
        self.current: dict[str, Any] = {}


def _checks_by_side(game: Game, project: Project, known: SideChecks | None
                    ) -> list[tuple[list[Check], list[Check]]] | None:
    """(layout checks, preflight checks) of every printable side, reused from `known` where still
    valid; None when anything raises (then the whole-game checks report it as before)."""
    from generator.digests import code_digest, digest
    from generator.render.faces.access import side_access
    from generator.render.faces.fit import printable_side, side_checks, side_names
    from generator.render.faces.preflight import side_preflight

    seen = {"id": game.id, "title": game.title, "subtitle": game.subtitle, "tagline": game.tagline,
            "theme": game.theme, "rules": game.rules}
    parts = []
    try:
        for component, side, layout_name in side_names(game):
            key = digest("side-checks", code_digest(), side, layout_name, repr(component), repr(seen)) \
                if known is not None else ""
            entry = known.previous.get(key) if known is not None else None
            if entry is not None and not project.gate.changed(entry["inputs"]):
                project.gate.inherit(entry["inputs"])
                part = ([_check_from_json(c) for c in entry["layout"]], [_check_from_json(c) for c in entry["preflight"]])
            else:
                with project.gate.recording() as reads:
                    resolved = printable_side(game, project, component, side, layout_name)
                    part = (side_checks(resolved), side_preflight(resolved) + side_access(resolved))
                entry = {"inputs": reads.as_dict(), "layout": [_check_to_json(c) for c in part[0]],
                         "preflight": [_check_to_json(c) for c in part[1]]}
            if known is not None:
                known.current[key] = entry
            parts.append(part)
    except DataError:
        return None
    return parts


def _check_to_json(check: Check) -> dict[str, Any]:
    where = check.location
    return {"name": check.name, "expected": check.expected, "actual": check.actual, "ok": check.ok,
            "players": check.players, "location": [where.file, where.line, where.column] if where else None,
            "broken": check.broken, "warning": check.warning}


def _check_from_json(data: Mapping[str, Any]) -> Check:
    where = data["location"]
    return Check(data["name"], data["expected"], data["actual"], data["ok"],
                 Location(where[0], where[1], where[2]) if where else None, data["players"], data.get("broken", False),
                 data.get("warning", False))


def validate_games(games: list[Game], project: Project, registry: Registry = REGISTRY) -> list[GameReport]:
    return [validate_game(game, project, registry) for game in games]
