"""The rules values an engine can play, declared once per engine and checked before any game starts.

An engine plays its game for some values of `rules:` only: a hand of 0 cards
deals nothing, a million ports to win is a game no one finishes, and a hand
size that no longer fits the deck breaks the engine's own invariants halfway
through a game. Each engine lists, in its `config.py`, a `PLAYABLE` table:

  * `Span(path, low, high, why)`: the value at `path` (dotted; `*` stands for
    every key of a mapping or entry of a list) is a whole number in low..high;
  * `Needs(path, rule)`: a relation between values, or between a value and
    the deck: `rule(game)` gives (what the engine needs, what the data has),
    and the place to fix when it is not the value's line, when it does not
    hold; None when it does. Asked once every `Span` holds.

`Rules.__init__` runs `check(game, table)` (the first misfit is a DataError at
the value's YAML line, naming the value and the range), so `pnp build`,
`simulate`, `sweep`, `check` and `--set` all refuse a value before any game
starts; `pnp validate` shows every misfit as a check (`checks`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.checks import Check
from generator.errors import DataError, Location
from generator.model import Game

SHOWN = 40  # characters of a value echoed in an error


@dataclass(frozen=True)
class Span:
    """A whole-number rules value the engine plays from `low` to `high` (both included)."""

    path: str
    low: int
    high: int
    why: str = ""

    @property
    def wanted(self) -> str:
        return f"{self.low}..{self.high}" + (f" ({self.why})" if self.why else "")

    def misfit(self, value: Any) -> tuple[str, str] | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return f"a whole number in {self.wanted}", _shown(value)
        if not self.low <= value <= self.high:
            return self.wanted, _shown(value)
        return None


@dataclass(frozen=True)
class Needs:
    """A relation the engine needs between rules values (or a value and the deck); `rule` words a misfit."""

    path: str  # the value an error points at (unless `rule` names another place: a removal, a card file)
    rule: Callable[[Game], tuple[str, str] | tuple[str, str, Location] | None]


Playable = Span | Needs


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


def values_at(node: Any, steps: Sequence[str], walked: str = "") -> Iterator[tuple[str, Any]]:
    """Every (path, value) `steps` names under `node`; a step that names nothing names no value."""
    if not steps:
        yield walked, node
        return
    head, rest = steps[0], steps[1:]
    if isinstance(node, Mapping):
        keys = list(node) if head == "*" else [k for k in node if str(k) == head]
        for key in keys:
            yield from values_at(node[key], rest, f"{walked}.{key}" if walked else str(key))
    elif isinstance(node, (list, tuple)):
        indices = range(len(node)) if head == "*" else [int(head)] if head.isdigit() and int(head) < len(node) else []
        for i in indices:
            yield from values_at(node[i], rest, f"{walked}.{i}" if walked else str(i))


def _missing(node: Any, steps: Sequence[str]) -> bool:
    """A plain path (no `*`) that leads nowhere: the engine's own reading reports it (with its hint)."""
    return "*" not in steps and not any(True for _ in values_at(node, steps, ""))


Misfit = tuple[str, str, str, Location]  # path, what the engine needs, what the data has, where


def misfits(game: Game, table: Sequence[Playable]) -> list[Misfit]:
    """Every value of `game` the engine cannot play; relations only once every span holds."""
    found: list[Misfit] = []
    for entry in table:
        if isinstance(entry, Span):
            steps = entry.path.split(".")
            if _missing(game.rules, steps):
                continue
            for path, value in values_at(game.rules, steps, ""):
                misfit = entry.misfit(value)
                if misfit is not None:
                    found.append((path, *misfit, game.rule_location(path)))
    if found:
        return found
    for entry in table:
        if isinstance(entry, Needs):
            try:
                wrong = entry.rule(game)
            except DataError:
                continue  # a value it reads is missing or mistyped: the engine's reading says so at its line
            if wrong is not None:
                where = wrong[2] if len(wrong) == 3 else game.rule_location(entry.path)
                found.append((entry.path, wrong[0], wrong[1], where))
    return found


def check(game: Game, table: Sequence[Playable]) -> None:
    """Refuse the first value the engine cannot play: one DataError at its YAML line."""
    for path, wanted, got, where in misfits(game, table):
        raise DataError(f"rules: '{path}' must be {wanted}, got {got}", where)


def checks(game: Game, table: Sequence[Playable]) -> list[Check]:
    """`pnp validate`'s lines: one failed check per misfit, or one passed check."""
    found = misfits(game, table)
    if not found:
        return [Check.holds("rules values the engine can play", True, "every value playable", "all playable",
                            game.rule_location(""))]
    return [Check(f"rules: '{path}'", wanted, got, False, where) for path, wanted, got, where in found]
