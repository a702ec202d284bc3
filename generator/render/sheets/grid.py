"""Where faces go on a sheet: the grid, bleeds, crop marks and duplex mirroring, as pure geometry (mm).

Decisions (documented for users in `pnp build --help` and here):

- Each axis is laid out on its own, in one of two modes. *Separated*: every
  face keeps its full bleed on all sides (faces 2 x bleed apart, each cut
  separately). *Butted*: faces touch at the trim line (one shared cut), bleed
  only on the outer edges. The mode that fits more faces wins; on a tie, the
  one with the larger outer bleed, then separated. So 3 x 3 poker cards fit on
  both A4 and US Letter: A4 is butted across and separated down, Letter is
  butted both ways.
- Cards and their bleed stay at least `MARGIN` (5 mm) inside the page (inside
  the half-page for gutter-fold). Crop marks are hairlines on the cut lines,
  all of their ink inside the printable area (`MARK_EDGE`, 5 mm from the page
  edge: a printer that cannot print its outer 5 mm still prints every mark),
  never on a card. They start `MARK_GAP` outside the bleed and are at least
  `MARK_MIN` (3 mm) long; where the margin is too narrow for that, they run on
  over the outer bleed (which is cut off), at most up to the trim. Faces without
  bleed keep `MARK_ROOM` (1.5 mm) between the printable area and the trim, so
  every cut line has its marks at both ends. US Letter
  poker keeps 2.7 mm of bleed top and bottom and 2.7 mm column marks there, from
  5 mm off the edge to the trim: the most a 5 mm margin leaves (7.7 mm to the trim).
- Duplex backs mirror the front grid about the page centre: long-edge flip
  mirrors columns (x), short-edge flip mirrors rows (y), then the back offset
  nudge is added.
- A page that is not full still gives every face full bleed on every edge: where
  a butted face has no neighbour (the ragged last row, a lone token), its bleed
  on that side runs into the empty slot beside it (`Grid.slots(filled)`). Faces
  fill slots in reading order, so such a bleed never reaches a placed face.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.render.base.units import Paper

MARGIN = 5.0
MARK_GAP = 0.75
MARK_MIN = 3.0
MARK_MAX = 6.0
MARK_EDGE = 5.0  # the printable area: research (shared/research/print.md) says keep 5 mm
MARK_ROOM = 1.5  # the shortest crop mark: between the printable area and the trim, for faces without bleed
FOLD_CLEARANCE = 5.0


@dataclass(frozen=True)
class Axis:
    """One axis of a grid: face starts (mm from the region start), outer bleed and mode."""

    count: int
    starts: tuple[float, ...]
    size: float
    butted: bool
    inner_bleed: float
    outer_bleed: float
    region: tuple[float, float]
    bleed: float = 0.0  # the bleed asked for: what a face gets towards an empty neighbour slot

    def bleeds(self, index: int, before_empty: bool = False, after_empty: bool = False) -> tuple[float, float]:
        """Bleed before and after face `index` on this axis; a side whose neighbour slot is empty gets full bleed."""
        open_bleed = max(self.inner_bleed, min(self.bleed, self.size))
        before = self.outer_bleed if index == 0 else open_bleed if before_empty else self.inner_bleed
        after = self.outer_bleed if index == self.count - 1 else open_bleed if after_empty else self.inner_bleed
        return before, after

    def cuts(self) -> list[float]:
        """Every cut position along this axis, in order, shared cuts once."""
        found: list[float] = []
        for start in self.starts:
            for edge in (start, start + self.size):
                if not found or abs(found[-1] - edge) > 1e-9:
                    found.append(edge)
        return found

    @property
    def bleed_span(self) -> tuple[float, float]:
        return self.starts[0] - self.outer_bleed, self.starts[-1] + self.size + self.outer_bleed


def _axis_option(size: float, bleed: float, lo: float, hi: float, butted: bool, count: int) -> Axis | None:
    gap = 0.0 if butted else 2 * bleed
    span = count * size + (count - 1) * gap
    room = (hi - lo - span) / 2  # from the outermost trim to the region edge
    outer = min(bleed, room - MARGIN)  # marks that lack room outside the bleed run over it (see `Grid.marks`)
    if outer < min(bleed, 1.5) - 1e-9 or room - MARGIN < MARK_ROOM - 1e-9:
        return None  # too little bleed, or (faces without bleed) no room left for the crop marks
    start = lo + room
    starts = tuple(start + i * (size + gap) for i in range(count))
    return Axis(count, starts, size, butted, 0.0 if butted else bleed, max(outer, 0.0), (lo, hi), bleed)


def layout_axis(size: float, bleed: float, lo: float, hi: float) -> Axis | None:
    """The best axis layout of faces `size` long between `lo` and `hi` (mm), or None if none fits."""
    best: Axis | None = None
    upper = int((hi - lo) // max(size, 1e-6)) + 1
    for count in range(upper, 0, -1):
        options = [o for o in (_axis_option(size, bleed, lo, hi, False, count),
                               _axis_option(size, bleed, lo, hi, True, count)) if o]
        if options:
            best = max(options, key=lambda o: (o.outer_bleed, not o.butted))
            break
    return best


@dataclass(frozen=True)
class Slot:
    """One face on a page: trim box (x, y from the page's bottom-left, mm) and its bleed per side."""

    x: float
    y: float
    w: float
    h: float
    left: float
    bottom: float
    right: float
    top: float
    turn: int = 0  # the face turned a quarter counterclockwise (1) or clockwise (-1) to fit; w and h are as placed

    @property
    def clip(self) -> tuple[float, float, float, float]:
        """The visible rectangle (bleed box) as x, y, width, height."""
        return (self.x - self.left, self.y - self.bottom,
                self.w + self.left + self.right, self.h + self.bottom + self.top)


@dataclass(frozen=True)
class Grid:
    """Faces on one page (or one half-page, for gutter-fold)."""

    page: Paper
    cols: Axis
    rows: Axis

    @property
    def per_page(self) -> int:
        return self.cols.count * self.rows.count

    def slots(self, filled: int | None = None) -> list[Slot]:
        """The first `filled` slots (all by default) in reading order: left to right, top to bottom.

        Each face's bleed is full on every side that has no placed neighbour,
        so the last faces of a partly filled page keep their bleed.
        """
        count = self.per_page if filled is None else max(0, min(filled, self.per_page))

        def placed(r: int, col: int) -> bool:
            return 0 <= r < self.rows.count and 0 <= col < self.cols.count and r * self.cols.count + col < count

        found = []
        for index in range(count):
            r, col = divmod(index, self.cols.count)
            row = self.rows.count - 1 - r  # rows axis runs bottom-up; read top row first
            bottom, top = self.rows.bleeds(row, before_empty=not placed(r + 1, col), after_empty=not placed(r - 1, col))
            left, right = self.cols.bleeds(col, before_empty=not placed(r, col - 1),
                                           after_empty=not placed(r, col + 1))
            found.append(Slot(self.cols.starts[col], self.rows.starts[row], self.cols.size,
                              self.rows.size, left, bottom, right, top))
        return found

    def face_cuts(self, filled: int | None = None) -> tuple[list[float], list[float]]:
        """The cut positions (x, then y, mm) that are an edge of one of the first `filled` faces.

        A partly filled page has cut lines no face needs (beside its empty slots): a mark there
        would tell the cutter to cut where nothing is, so marks keep to these lines. A line that is
        some face's edge keeps both its end marks, so a ruler still has two marks to lie on.
        """
        count = self.per_page if filled is None else max(0, min(filled, self.per_page))
        xs: set[int] = set()
        ys: set[int] = set()
        for index in range(count):
            r, col = divmod(index, self.cols.count)
            row = self.rows.count - 1 - r
            xs.update(_key(e) for e in (self.cols.starts[col], self.cols.starts[col] + self.cols.size))
            ys.update(_key(e) for e in (self.rows.starts[row], self.rows.starts[row] + self.rows.size))
        return ([x for x in self.cols.cuts() if _key(x) in xs], [y for y in self.rows.cuts() if _key(y) in ys])

    def marks(self, filled: int | None = None) -> list[tuple[float, float, float, float]]:
        """Crop mark hairlines (x1, y1, x2, y2 in mm): every cut line of a placed face extended beyond the bleed."""
        lines = []
        cut_xs, cut_ys = self.face_cuts(filled)
        bottom, top = _mark_span(self.rows, -1), _mark_span(self.rows, 1)
        left, right = _mark_span(self.cols, -1), _mark_span(self.cols, 1)
        for x in cut_xs:
            lines.append((x, bottom[0], x, bottom[1]))
            lines.append((x, top[0], x, top[1]))
        for y in cut_ys:
            lines.append((left[0], y, left[1], y))
            lines.append((right[0], y, right[1], y))
        return lines


def _mark_span(axis: Axis, direction: int) -> tuple[float, float]:
    """Where the marks at one end of an axis start (near the faces) and end (towards the page edge), in mm.

    `direction` -1 is the low end, 1 the high end. They end `MARK_EDGE` inside the page and start
    `MARK_GAP` outside the bleed; when that leaves less than `MARK_MIN`, they start nearer the faces,
    over the outer bleed, but never past the trim."""
    trim = axis.starts[0] if direction < 0 else axis.starts[-1] + axis.size
    bleed_edge = trim + direction * axis.outer_bleed
    limit = axis.region[0] + MARK_EDGE if direction < 0 else axis.region[1] - MARK_EDGE
    start = bleed_edge + direction * MARK_GAP
    if (limit - start) * direction < MARK_MIN:
        start = limit - direction * MARK_MIN
        if (start - trim) * direction < 0:
            start = trim
    end = start + direction * MARK_MAX
    end = max(end, limit) if direction < 0 else min(end, limit)
    return start, end


def _key(position: float) -> int:
    """A cut position in micrometres: equal edges of neighbouring faces meet although float sums differ."""
    return round(position * 1000)


def make_grid(paper: Paper, width: float, height: float, bleed: float,
              x_region: tuple[float, float] | None = None) -> Grid | None:
    """Fit as many `width` x `height` faces as possible on `paper` (or a vertical strip of it)."""
    lo, hi = x_region or (0.0, paper.width)
    cols = layout_axis(width, bleed, lo, hi)
    rows = layout_axis(height, bleed, 0.0, paper.height)
    if cols is None or rows is None:
        return None
    return Grid(paper, cols, rows)


def single_grid(paper: Paper, width: float, height: float, bleed: float) -> Grid | None:
    """One `width` x `height` face centred on `paper` (a board), with the bleed and crop marks every sheet
    keeps (`MARGIN`, `MARK_EDGE`); None if it does not fit."""
    cols = _axis_option(width, bleed, 0.0, paper.width, False, 1)
    rows = _axis_option(height, bleed, 0.0, paper.height, False, 1)
    return None if cols is None or rows is None else Grid(paper, cols, rows)


def mirror_slot(slot: Slot, paper: Paper, duplex: str, offset: tuple[float, float] = (0.0, 0.0)) -> Slot:
    """Where the back of the face in `slot` goes so it registers after the page is flipped.

    A turned face's back is turned the other way: after a flip about either edge (or the fold) the back's
    top then lies behind the same edge of the card as it does for a face that is not turned."""
    dx, dy = offset
    if duplex == "long":  # flipped around the long (vertical) edge: columns mirror
        return Slot(paper.width - slot.x - slot.w + dx, slot.y + dy, slot.w, slot.h,
                    slot.right, slot.bottom, slot.left, slot.top, -slot.turn)
    if duplex == "short":  # flipped around the short (horizontal) edge: rows mirror
        return Slot(slot.x + dx, paper.height - slot.y - slot.h + dy, slot.w, slot.h,
                    slot.left, slot.top, slot.right, slot.bottom, -slot.turn)
    if duplex == "fold":  # gutter-fold: mirrored about the vertical fold line at the page centre
        return Slot(paper.width - slot.x - slot.w, slot.y, slot.w, slot.h,
                    slot.right, slot.bottom, slot.left, slot.top, -slot.turn)
    raise ValueError(duplex)


def sheets_needed(faces: int, per_page: int) -> int:
    return math.ceil(faces / per_page) if faces else 0
