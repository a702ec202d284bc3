"""One line of `pnp validate`, produced by the engines (deck checks) and the renderer (layout checks)."""

from __future__ import annotations

from dataclasses import dataclass

from generator.errors import Location


@dataclass(frozen=True)
class Check:
    """One line of `pnp validate`: what was checked, what the rules expect, what the data gives."""

    name: str
    expected: str
    actual: str
    ok: bool
    location: Location | None = None  # the YAML line to fix when it fails
    players: int | None = None
    broken: bool = False  # a layout or template could not be read or drawn: bad data, not a bad deck
    warning: bool = False  # passes, but says something worth fixing (art below 300 dpi): shown, never fails

    @classmethod
    def equal(cls, name: str, expected: object, actual: object, location: Location | None = None,
              players: int | None = None) -> Check:
        return cls(name, str(expected), str(actual), expected == actual, location, players)

    @classmethod
    def holds(cls, name: str, condition: bool, expected: str, actual: str, location: Location | None = None,
              players: int | None = None) -> Check:
        return cls(name, expected, actual, bool(condition), location, players)
