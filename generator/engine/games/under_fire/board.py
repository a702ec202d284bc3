"""The geometry of the two seas as one grid, with bitmasks for fast adjacency, and line scoring.

Spaces are numbered row by row over the whole grid (`g * columns + x`); a set
of spaces is a Python int used as a bitmask, so "adjacent to any of my active
ships" is a handful of ORs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from string import ascii_uppercase

from generator.engine.games.under_fire.config import Effect, UnderFireConfig
from generator.errors import DataError, Location


@dataclass(frozen=True)
class Geometry:
    spaces: int
    names: tuple[str, ...]  # "red B2"
    sea_owner: tuple[int, ...]  # per space: whose sea it is
    effect: tuple[Effect, ...]  # per space: its sea effect
    effect_key: tuple[str, ...]
    neighbours: tuple[int, ...]  # per space: bitmask of orthogonal neighbours
    home: tuple[int, ...]  # per seat: bitmask of its first row
    sea_mask: tuple[int, ...]  # per seat: bitmask of its whole sea
    lines: tuple[tuple[int, ...], ...]  # every row and column of the grid, as space lists
    spread: tuple[tuple[int, ...], ...]  # per byte of a mask: the neighbours of all its spaces

    def reach(self, mask: int) -> int:
        """All spaces orthogonally next to any space of `mask` (byte-wise table look-ups: hot path)."""
        out = 0
        for table in self.spread:
            out |= table[mask & 255]
            mask >>= 8
        return out


def space_of(config: UnderFireConfig, seat: int, row: int, column: int) -> int:
    """Grid space of (row, column) counted from `seat`'s own edge and left hand, 0-based."""
    if seat == 0:
        g, x = row, column
    else:
        g, x = 2 * config.rows - 1 - row, config.columns - 1 - column
    return g * config.columns + x


def build_geometry(config: UnderFireConfig) -> Geometry:
    rows, cols = 2 * config.rows, config.columns
    total = rows * cols
    names = [""] * total
    owner = [0] * total
    effect: list[Effect] = [()] * total
    keys = [""] * total
    home = [0, 0]
    seas = [0, 0]
    for seat in (0, 1):
        for r in range(config.rows):
            for c in range(cols):
                s = space_of(config, seat, r, c)
                names[s] = f"{config.fleets[seat]} {ascii_uppercase[c]}{r + 1}"
                owner[s] = seat
                effect[s] = config.sea[seat][r * cols + c]
                keys[s] = config.sea_keys[seat][r * cols + c]
                seas[seat] |= 1 << s
                if r == 0:
                    home[seat] |= 1 << s
    neighbours = []
    for s in range(total):
        g, x = divmod(s, cols)
        mask = 0
        for dg, dx in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= g + dg < rows and 0 <= x + dx < cols:
                mask |= 1 << ((g + dg) * cols + x + dx)
        neighbours.append(mask)
    lines = [tuple(g * cols + x for x in range(cols)) for g in range(rows)]
    lines += [tuple(g * cols + x for g in range(rows)) for x in range(cols)]
    spread = []
    for chunk in range((total + 7) // 8):
        table = []
        for byte in range(256):
            mask = 0
            for b in range(8):
                s = chunk * 8 + b
                if byte >> b & 1 and s < total:
                    mask |= neighbours[s]
            table.append(mask)
        spread.append(tuple(table))
    return Geometry(total, tuple(names), tuple(owner), tuple(effect), tuple(keys), tuple(neighbours),
                    tuple(home), tuple(seas), tuple(lines), tuple(spread))


def bits(mask: int) -> list[int]:
    """The spaces in a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def longest_lines(config: UnderFireConfig, geometry: Geometry) -> tuple[int, int]:
    """(longest set, longest run) a board allows: a straight line holds at most one fleet's copies of a
    number side by side, and at most the whole span of its numbers in a row."""
    longest = max(len(line) for line in geometry.lines)
    copies = max(Counter(n for n, fleet in zip(config.ship_number, config.ship_fleet, strict=True)
                         if fleet == 0).values())
    return min(longest, copies), min(longest, config.max_number - config.min_number + 1)


def table_problem(table: Mapping[int, int], longest: int) -> str | None:
    """Why a line table fails, or None: it must cover every length from its shortest up to `longest`,
    and a longer line must pay strictly more."""
    if not table:
        return "the table is empty"
    wanted = range(min(table), longest + 1)
    missing = [n for n in wanted if n not in table]
    if missing:
        return f"no VP for lines of {', '.join(map(str, missing))} (the board allows {wanted[0]}..{longest})"
    flat = [n for n in wanted[1:] if table[n] <= table[n - 1]]
    if flat:
        return f"a line of {flat[0]} pays {table[flat[0]]}, not more than a line of {flat[0] - 1}"
    return None


def _lookup(table: Mapping[int, int], longest: int) -> list[int]:
    """VP per length 0..longest (0 below the table's shortest line)."""
    return [table.get(length, 0) for length in range(longest + 1)]


class LineScorer:
    """Sets (equal numbers side by side) and runs (consecutive numbers, either way) in straight lines.

    The tables must cover every length the board allows, longer lines paying more: a DataError at the
    table otherwise, so a run the scorer meets always has its own value.
    """

    def __init__(self, config: UnderFireConfig, geometry: Geometry, locations: Mapping[str, Location]) -> None:
        longest_set, longest_run = longest_lines(config, geometry)
        for name, table, longest in (("sets", config.sets, longest_set), ("runs", config.runs, longest_run)):
            problem = table_problem(table, longest)
            if problem:
                raise DataError(f"rules: scoring.{name}: {problem}", locations.get(name))
        longest = max(len(line) for line in geometry.lines)
        self.sets = _lookup(config.sets, longest)
        self.runs = _lookup(config.runs, longest)
        self.lines = geometry.lines
        # per space: the lines through it (a row and a column), so a change is scored on those alone
        self.through = tuple(tuple(i for i, line in enumerate(geometry.lines) if space in line)
                             for space in range(geometry.spaces))

    def change(self, numbers: list[int], space: int, number: int, known: dict[int, int] | None = None) -> int:
        """Line VP (sets + runs) gained when `numbers[space]` becomes `number` (0: the ship is gone).

        Only the lines through `space` can change, so this equals the difference of two full
        `score`s at a fraction of the cost (the bots value every candidate placement this way).
        `numbers` is left as it was. `known` may keep the points of `numbers`' lines (by line index)
        across calls on the same numbers.
        """
        was = numbers[space]
        before = 0
        for index in self.through[space]:
            if known is None or index not in known:
                points = self._line(numbers, self.lines[index])
                if known is None:
                    before += points
                    continue
                known[index] = points
            before += known[index]
        numbers[space] = number
        after = sum(self._line(numbers, self.lines[index]) for index in self.through[space])
        numbers[space] = was
        return after - before

    def _line(self, numbers: Sequence[int], line: Sequence[int]) -> int:
        """Sets + runs VP of one line."""
        sets, runs = self._line_parts(numbers, line)
        return sets + runs

    def _line_parts(self, numbers: Sequence[int], line: Sequence[int]) -> tuple[int, int]:
        """(VP from sets, VP from runs) of one line: its stretches of three or more active ships."""
        sets = runs = 0
        segment: list[int] = []
        for s in (*line, -1):
            n = numbers[s] if s >= 0 else 0
            if n:
                segment.append(n)
                continue
            if len(segment) >= 3:
                sets += self._blocks(segment, 0, self.sets)
                runs += self._blocks(segment, 1, self.runs) + self._blocks(segment, -1, self.runs)
            segment = []
        return sets, runs

    def score(self, numbers: Sequence[int]) -> tuple[int, int]:
        """(VP from sets, VP from runs) for one player; `numbers[s]` is 0 where the player has no active ship."""
        sets = runs = 0
        for line in self.lines:
            line_sets, line_runs = self._line_parts(numbers, line)
            sets += line_sets
            runs += line_runs
        return sets, runs

    @staticmethod
    def _blocks(segment: list[int], step: int, table: list[int]) -> int:
        """VP of every maximal stretch where each number is the previous plus `step`."""
        total, length = 0, 1
        for a, b in pairwise(segment):
            if b - a == step:
                length += 1
            else:
                total += table[length]
                length = 1
        return total + table[length]
