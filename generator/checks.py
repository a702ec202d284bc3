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
    # Where the expected value is set, when that is another line than `location` (a rules value the
    # counted cards must match): a failure names both, since either may be the one to fix.
    source: Location | None = None

    @classmethod
    def equal(cls, name: str, expected: object, actual: object, location: Location | None = None,
              players: int | None = None, *, source: Location | None = None) -> Check:
        return cls(name, str(expected), str(actual), expected == actual, location, players, source=source)

    @classmethod
    def holds(cls, name: str, condition: bool, expected: str, actual: str, location: Location | None = None,
              players: int | None = None, *, source: Location | None = None) -> Check:
        return cls(name, expected, actual, bool(condition), location, players, source=source)

    def failure_line(self) -> str:
        """The failure as one line: where, what, expected (and where that is set), got."""
        expected = f"{self.expected} (set at {self.source})" if self.source and self.source != self.location else \
            self.expected
        line = f"{self.name}: expected {expected}, got {self.actual}"
        return f"{self.location}: {line}" if self.location else line
