"""Errors meant for people: one line saying where, what is wrong and what would be right.

Every error the user can cause (bad YAML, a bad option, an illegal move in a
recorded game) is a `PnpError`; the CLI prints its one line and exits non-zero
without a traceback. Anything else is a bug and keeps its traceback.

Exit codes, one meaning each (documented in the README):
  0  done: the command did what was asked;
  1  checked and refused: the input was read and judged, and the verdict is
     "no" (a deck failing validation, an illegal move in a recorded game, and
     for `pnp check` anything wrong inside the log, which is what it judges);
  2  could not run: bad data, a bad option, a file that cannot be read or written
     (`WriteError`: disk full, read-only, a file where a folder must be);
  130 interrupted (Ctrl-C or SIGTERM).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Location:
    """A place in a source file, printed the way editors jump to it: `file:line`."""

    file: str
    line: int = 0
    column: str = ""  # a spreadsheet column's name (`crew.csv:14:rank`); empty for YAML

    def __str__(self) -> str:
        place = f"{self.file}:{self.line}" if self.line else self.file
        return f"{place}:{self.column}" if self.column else place


class PnpError(Exception):
    """A problem the user can fix; `str()` is the whole one-line message."""

    exit_code = 2

    def __init__(self, message: str, location: Location | None = None) -> None:
        self.message = message
        self.location = location
        super().__init__(f"{location}: {message}" if location else message)


class Refused(PnpError):
    """The input was read and judged, and the verdict is "no": exit code 1."""

    exit_code = 1


class Interrupted(PnpError):
    """Ctrl-C or SIGTERM stopped a command that still reported what it had done: exit code 130."""

    exit_code = 130


class DataError(PnpError):
    """Something wrong in `data/` or `templates/`."""


class UsageError(PnpError):
    """A bad option or argument on the command line."""


class WriteError(PnpError):
    """A file cannot be written: the disk is full, read-only, or a file stands where a folder must."""


ECHO_CHARS = 80  # of a value quoted back in an error line


def clipped(text: str, limit: int = ECHO_CHARS) -> str:
    """`text` cut to about `limit` characters, saying how long it was: an error line quotes what the user
    wrote, never a 100,000-character name whole."""
    return text if len(text) <= limit else f"{text[:limit - 1]}… ({len(text)} characters)"


def shown(value: object, limit: int = ECHO_CHARS) -> str:
    """`repr(value)` for an error line, clipped (`clipped`)."""
    return clipped(repr(value), limit)


def closest(name: str, choices: Iterable[str]) -> str | None:
    """The choice most like `name` (a likely misspelling of it), or None: what a "did you mean" hint names."""
    import difflib  # only when an error is being worded

    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """"; did you mean 'x'?" for the error line that refuses `name`, or "" when nothing is close."""
    close = closest(name, choices)
    return f"; did you mean {close!r}?" if close else ""
