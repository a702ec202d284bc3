"""The mixed sheet: a game's small pieces of different sizes packed together, as pure geometry (mm).

Components that say `sheet: mixed` in their YAML (and the last, part-filled page of those that say
`sheet: spill`, such as the fifth bid card) (tokens, markers, coins, a
lone Go First token, or tiles whose last page would hold one tile: Under
Fire's 36 ship tiles are one more than US Letter holds) share one
`<game>-tokens-<paper>-<mode>.pdf` instead of each taking pages of its own. Each component becomes a block: a butted grid
of its faces (shared cut lines, full bleed on every free edge, see
`Grid.slots`), as wide as the page allows, centred. A piece that fits only
turned a quarter (a landscape card in the half page of a gutter-fold sheet)
is turned, and its back turned the other way (`grid.mirror_slot`). Blocks are stacked top to
bottom in the data's order; a block that does not fit in what is left of a
page continues on the next one. Blocks sit `GAP` apart: each block has crop
marks of its own on every cut line, and the gap holds the marks of both
neighbours without either touching a face. Where the wider `WIDE_GAP` takes
no more pages, blocks sit that far apart, so each block's marks have a band
of their own.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from generator.render.base.units import Paper
from generator.render.sheets.grid import MARGIN, MARK_EDGE, MARK_GAP, Axis, Grid, Slot

MARK_LENGTH = 2.0  # each crop mark on the mixed sheet, mm: short, to fit more (a block has marks on every side)
GAP = 2 * MARK_GAP + MARK_LENGTH  # between two blocks' bleed boxes: both blocks' marks fit without touching
# ... and where it costs no extra page, each block's marks in a band of its own, a mark gap apart: in one shared
# band two blocks' marks interleave, and a cut is easily lined up with the other block's mark.
WIDE_GAP = 3 * MARK_GAP + 2 * MARK_LENGTH
PAD = MARGIN  # page edge to the outermost bleed box: marks that lack room there run over the outer bleed


@dataclass(frozen=True)
class Block:
    """Faces of one size, butted in a grid; the first `filled` places are used (reading order)."""

    grid: Grid
    filled: int
    turned: bool = False  # its faces turned a quarter counterclockwise: the grid holds them as placed

    def slots(self) -> list[Slot]:
        slots = self.grid.slots(self.filled)
        return [dataclasses.replace(slot, turn=1) for slot in slots] if self.turned else slots

    def marks(self) -> list[tuple[float, float, float, float]]:
        """Crop marks (x1, y1, x2, y2 in mm): every cut line of the block's placed faces, just outside its bleed."""
        bottom, top = _mark_span(self.grid.rows, -1), _mark_span(self.grid.rows, 1)
        left, right = _mark_span(self.grid.cols, -1), _mark_span(self.grid.cols, 1)
        lines = []
        cut_xs, cut_ys = self.grid.face_cuts(self.filled)
        for x in cut_xs:
            lines += [(x, bottom[0], x, bottom[1]), (x, top[0], x, top[1])]
        for y in cut_ys:
            lines += [(left[0], y, left[1], y), (right[0], y, right[1], y)]
        return lines


    def cut_lines(self) -> list[tuple[float, float, float, float]]:
        """Thin cut lines through the block (`--cut-lines`), across its bleed, as on a one-component sheet."""
        x0, x1 = self.grid.cols.bleed_span
        y0, y1 = self.grid.rows.bleed_span
        return ([(x, y0, x, y1) for x in self.grid.cols.cuts()] + [(x0, y, x1, y) for y in self.grid.rows.cuts()])


def _mark_span(axis: Axis, direction: int) -> tuple[float, float]:
    """Where a block's marks at one end of an axis start and end (mm; `direction` -1: the low end).

    `MARK_GAP` outside the bleed, `MARK_LENGTH` long; a mark that would leave the printable area
    (`MARK_EDGE` from the page edge) slides inwards over the block's outer bleed, never past the trim."""
    low, high = axis.bleed_span
    trim = axis.starts[0] if direction < 0 else axis.starts[-1] + axis.size
    limit = axis.region[0] + MARK_EDGE if direction < 0 else axis.region[1] - MARK_EDGE
    near = (low if direction < 0 else high) + direction * MARK_GAP
    far = near + direction * MARK_LENGTH
    if (far - limit) * direction > 0:
        far, near = limit, limit - direction * MARK_LENGTH
        if (near - trim) * direction < 0:
            near = trim
    return near, far


def _axis(count: int, first: float, size: float, bleed: float, region: tuple[float, float]) -> Axis:
    starts = tuple(first + i * size for i in range(count))
    return Axis(count, starts, size, True, 0.0, bleed, region, bleed)


def pack(groups: list[tuple[float, float, int]], paper: Paper, bleed: float,
         region: tuple[float, float] | None = None) -> list[list[Block]] | None:
    """Blocks for `count` faces of each (width, height, count) group in order, page by page.

    None if a face does not fit on a page at all, not even turned. `region` is the horizontal
    strip to fill (the left half for gutter-fold). Blocks are `WIDE_GAP` apart
    unless that takes more pages than `GAP` does."""
    compact = _pack(groups, paper, bleed, region, GAP)
    wide = _pack(groups, paper, bleed, region, WIDE_GAP)
    return wide if compact is not None and wide is not None and len(wide) == len(compact) else compact


def _pack(groups: list[tuple[float, float, int]], paper: Paper, bleed: float,
          region: tuple[float, float] | None, gap: float) -> list[list[Block]] | None:
    lo, hi = region or (0.0, paper.width)
    left, right, top, bottom = lo + PAD, hi - PAD, paper.height - PAD, PAD
    pages: list[list[Block]] = []
    page: list[Block] = []
    cursor = top  # the top of the next block's bleed box
    def fits(width: float, height: float) -> bool:
        return right - left - 2 * bleed >= width - 1e-9 and top - bottom - 2 * bleed >= height - 1e-9

    for given_width, given_height, count in groups:
        turned = not fits(given_width, given_height)
        width, height = (given_height, given_width) if turned else (given_width, given_height)
        if not fits(width, height):
            return None
        cols = math.floor((right - left - 2 * bleed) / width + 1e-9)
        remaining = count
        while remaining:
            fit = math.floor((cursor - bottom - 2 * bleed) / height + 1e-9)
            if fit < 1:  # this page is full
                pages.append(page)
                page, cursor = [], top
                continue
            rows = min(fit, math.ceil(remaining / cols))
            filled = min(remaining, rows * cols)
            used = min(cols, filled)
            first_x = left + (right - left - used * width) / 2
            top_trim = cursor - bleed
            grid = Grid(paper, _axis(used, first_x, width, bleed, (lo, hi)),
                        _axis(rows, top_trim - rows * height, height, bleed, (0.0, paper.height)))
            page.append(Block(grid, filled, turned))
            cursor = top_trim - rows * height - bleed - gap
            remaining -= filled
    if page:
        pages.append(page)
    return pages
