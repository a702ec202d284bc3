"""Deck checks every game shares: declared contents, player-count removals, facts stated once.

Game-specific deal arithmetic lives in each engine package's
`composition_checks`, which runs the game's real setup code.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from generator.checks import Check
from generator.model import Game
from generator.readgate import ReadGate


def contents_checks(game: Game) -> list[Check]:
    """Each line of the declared contents ('60 crew cards') against what the YAML generates."""
    checks = []
    for entry in game.contents:
        checks.append(Check.equal(f"contents: {entry.label}", entry.count, entry.actual(game), entry.location))
    declared = {e.select.component for e in game.contents}
    for component in game.components:
        if component.id not in declared:
            checks.append(
                Check.holds(
                    f"contents: {component.plural} declared", False, "listed in contents:", "missing",
                    component.location,
                )
            )
    return checks


def player_count_checks(game: Game) -> list[Check]:
    """Every removal must take something out: a filter matching nothing is a typo."""
    checks = []
    for players, variant in sorted(game.player_counts.items()):
        for removal in variant.remove:
            removed = sum(i.count for i in game.component(removal.component).items if removal.matches(i))
            checks.append(
                Check.holds(
                    f"{players} players: removal from {removal.component} matches cards", removed > 0,
                    "> 0", str(removed), removal.location, players,
                )
            )
    return checks


def id_checks(game: Game) -> list[Check]:
    """Item keys are the names of PNG files and log entries: they must be unique game-wide."""
    keys = [item.key for component in game.components for item in component.items]
    duplicates = sorted(key for key, seen in Counter(keys).items() if seen > 1)
    return [Check.equal("unique item ids", "no duplicates", ", ".join(duplicates) or "no duplicates", game.location)]


_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)


def stated_once_checks(game: Game, templates_dir: Path, display: Callable[[Path], str],
                       gate: ReadGate) -> list[Check]:
    """A count typed into a template ('60 crew cards') is a second source of truth: refuse it."""
    sources = sorted(
        p for folder in ("rulebooks", "sheets") for p in gate.listdir(templates_dir / folder, f"{game.id}*")
        if p.is_file()
    )
    nouns = {e.label for e in game.contents} | {c.plural for c in game.components} | {c.name for c in game.components}
    found: list[tuple[str, str]] = []
    for path in sources:
        text = gate.read_bytes(path).decode("utf-8", errors="replace")
        plain = _JINJA.sub(lambda m: " " * len(m.group(0)), text)
        for noun in sorted(nouns, key=len, reverse=True):
            for match in re.finditer(rf"\b(\d+)\s+{re.escape(noun)}\b", plain, re.I):
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{display(path)}:{line}", match.group(0)))
    actual = "; ".join(f"{where} '{what}'" for where, what in found[:3]) or "none"
    return [Check.holds("facts stated once (templates read counts from data)", not found, "none", actual)]


def generic_checks(game: Game, templates_dir: Path, display: Callable[[Path], str], gate: ReadGate) -> list[Check]:
    return (
        contents_checks(game)
        + player_count_checks(game)
        + id_checks(game)
        + stated_once_checks(game, templates_dir, display, gate)
    )
