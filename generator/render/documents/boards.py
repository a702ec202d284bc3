"""Boards at real size: whole on one sheet, with bleed and crop marks, or tiled over several sheets.

A board is drawn once into a PDF form (by the face renderer) with its bleed, and shown through a
window on every sheet. A board that fits the paper (either way round) is placed like any face on a
card sheet (`sheets.grid.single_grid`): centred, 3 mm of bleed (less where the paper is narrow, never
less than 1.5 mm), crop marks on the cut lines inside the printer-safe 5 mm margin, each on its white
band (`sheets.imposition.draw_crop_marks`). A larger board is tiled: neighbouring sheets share an
overlap strip; the crosshair marks in it sit at the same board position on both sheets: lay one sheet
over the other until the marks coincide, then glue or tape. Every footer line and mark stays at least
5 mm from the paper edge, where a home printer still prints.
"""

from __future__ import annotations

import dataclasses
import io
import math
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.model import Component, Game, Item
from generator.project import Project
from generator.render.base.fonts import register_fonts
from generator.render.base.units import Paper
from generator.render.base.units import paper as registered_paper
from generator.render.documents.pictures import resolve_face
from generator.render.documents.styles import document_fonts, make_styles
from generator.render.faces.renderer import draw_resolved
from generator.render.sheets.grid import MARK_EDGE, Grid, single_grid
from generator.render.sheets.imposition import draw_crop_marks

BLEED = 3.0        # mm around a whole board, as around every face (shared/research/print.md)
MARK_GAP, MARK_LENGTH = 1 * mm, 4 * mm  # a tiled sheet's cut marks, outside its window
MARGIN = MARK_EDGE * mm + MARK_GAP + MARK_LENGTH  # a tiled sheet's window: its cut marks stay 5 mm in
OVERLAP = 12 * mm  # the glue strip shared by neighbouring sheets
MARK = 3 * mm      # crosshair arm
FOOTER_SIZE = 8    # points
FOOTER_BASELINE = 7 * mm  # the footer's descenders stay clear of the printer's 5 mm margin


@dataclass(frozen=True)
class Tiling:
    """How a board of `width` x `height` points falls on sheets of one orientation."""

    page: tuple[float, float]
    cols: int
    rows: int
    window: tuple[float, float]  # printable area used per sheet
    whole: Grid | None = None  # a board on one sheet: placed like a face, with bleed and crop marks

    @property
    def sheets(self) -> int:
        return self.cols * self.rows

    def origin(self, col: int, row: int) -> tuple[float, float]:
        """Board coordinates of the window's lower-left corner for sheet (col, row); row 0 is the top."""
        step_x, step_y = self.window[0] - OVERLAP, self.window[1] - OVERLAP
        return col * step_x, row * step_y


def _count(length: float, window: float) -> int:
    return 1 if length <= window else math.ceil((length - OVERLAP) / (window - OVERLAP))


def plan(width: float, height: float, paper: str) -> Tiling:
    """Whole on one sheet if the board fits either way round (portrait first), else the orientation
    needing fewer tiled sheets (portrait on a tie); sizes in points."""
    sheet = registered_paper(paper)
    for turned in (sheet, _landscape(sheet)):
        grid = single_grid(turned, width / mm, height / mm, BLEED)
        if grid is not None:
            return Tiling(turned.size_pt, 1, 1, (width, height), grid)
    best: Tiling | None = None
    pw, ph = sheet.size_pt
    for page in ((pw, ph), (ph, pw)):
        window = (page[0] - 2 * MARGIN, page[1] - 2 * MARGIN - 6 * mm)
        tiling = Tiling(page, _count(width, window[0]), _count(height, window[1]), window)
        if best is None or tiling.sheets < best.sheets:
            best = tiling
    assert best is not None
    return best


def _landscape(sheet: Paper) -> Paper:
    return dataclasses.replace(sheet, width=sheet.height, height=sheet.width,
                               size_pt=(sheet.size_pt[1], sheet.size_pt[0]))


def board_components(game: Game) -> list[Component]:
    return [c for c in game.components if c.kind == "board"]


def board_pdf(game: Game, project: Project, component: Component, paper: str) -> bytes:
    """Every board of the component (each item, each copy) at real size over as many sheets as needed."""
    register_fonts()
    styles = make_styles(game, fonts=document_fonts(game, project))
    width, height = component.size.width * mm, component.size.height * mm
    tiling = plan(width, height, paper)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=tiling.page, invariant=1, initialFontName="Sans")
    canvas.setTitle(f"{game.title}: {component.plural or component.name}")
    canvas.setAuthor("Pirate Press")
    bleed = BLEED * mm
    for item in component.items:
        form = f"board-{item.id}"
        canvas.beginForm(form, -bleed, -bleed, width + bleed, height + bleed)
        draw_resolved(canvas, resolve_face(game, project, component, item, "front"), 0, 0, BLEED)
        canvas.endForm()
        for copy in range(item.count):
            if tiling.whole is not None:
                _whole(canvas, tiling.whole, form)
                _footer(canvas, game, component, item, copy, "", styles.palette.primary)
                canvas.showPage()
            else:
                _tiles(canvas, game, component, item, copy, form, tiling, width, height, styles.palette.primary)
    canvas.save()
    return buffer.getvalue()


def _tiles(canvas: Canvas, game: Game, component: Component, item: Item, copy: int, form: str,
           tiling: Tiling, width: float, height: float, colour: object) -> None:
    page_w, page_h = tiling.page
    win_w, win_h = tiling.window
    for row in range(tiling.rows):
        for col in range(tiling.cols):
            bx, by_top = tiling.origin(col, row)
            shown_w = min(win_w, width - bx)
            shown_h = min(win_h, height - by_top)
            left = (page_w - shown_w) / 2 if tiling.cols == 1 else MARGIN
            top = page_h - MARGIN - ((win_h - shown_h) / 2 if tiling.rows == 1 else 0)
            # board y grows upwards; window row 0 shows the board's top edge
            board_y0 = height - by_top - shown_h
            canvas.saveState()
            path = canvas.beginPath()
            path.rect(left, top - shown_h, shown_w, shown_h)
            canvas.clipPath(path, stroke=0, fill=0)
            canvas.translate(left - bx, top - shown_h - board_y0)
            canvas.doForm(form)
            canvas.restoreState()
            _marks(canvas, tiling, col, row, left, top, shown_w, shown_h)
            where = (f" \u2014 sheet {row * tiling.cols + col + 1} of {tiling.sheets}: row {row + 1}, column {col + 1}"
                     if tiling.sheets > 1 else "")
            _footer(canvas, game, component, item, copy, where, colour)
            canvas.showPage()


def _whole(canvas: Canvas, grid: Grid, form: str) -> None:
    """The board centred on the sheet, its bleed cut to what the margin leaves, and its crop marks."""
    slot = grid.slots()[0]
    canvas.saveState()
    path = canvas.beginPath()
    path.rect((slot.x - slot.left) * mm, (slot.y - slot.bottom) * mm,
              (slot.w + slot.left + slot.right) * mm, (slot.h + slot.bottom + slot.top) * mm)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(slot.x * mm, slot.y * mm)
    canvas.doForm(form)
    canvas.restoreState()
    draw_crop_marks(canvas, grid.marks())


def _footer(canvas: Canvas, game: Game, component: Component, item: Item, copy: int, where: str,
            colour: object) -> None:
    canvas.setFont("Sans", FOOTER_SIZE)
    canvas.setFillColor(colour)
    label = item.get("name", item.id)
    canvas.drawString(MARK_EDGE * mm + MARK_GAP, FOOTER_BASELINE, (
        f"{game.title} \u2014 {component.name} {label}" + (f" (copy {copy + 1})" if item.count > 1 else "")
        + where + " \u2014 print at 100 %"))


def _marks(canvas: Canvas, tiling: Tiling, col: int, row: int, left: float, top: float,
           shown_w: float, shown_h: float) -> None:
    """Crosshairs in the overlap strips (same board point on both sheets), cut marks at board edges."""
    canvas.saveState()
    canvas.setLineWidth(0.5)
    canvas.setStrokeColorRGB(0, 0, 0)
    centre = OVERLAP / 2
    points: list[tuple[float, float]] = []
    for x in ([shown_w - centre] if col < tiling.cols - 1 else []) + ([centre] if col > 0 else []):
        points += [(x, shown_h * f) for f in (0.2, 0.5, 0.8)]
    for y in ([centre] if row < tiling.rows - 1 else []) + ([shown_h - centre] if row > 0 else []):
        points += [(shown_w * f, y) for f in (0.2, 0.5, 0.8)]
    for x, y in points:
        px, py = left + x, top - shown_h + y
        canvas.setStrokeColorRGB(1, 1, 1)
        canvas.setLineWidth(1.6)
        _cross(canvas, px, py)
        canvas.setStrokeColorRGB(0, 0, 0)
        canvas.setLineWidth(0.5)
        _cross(canvas, px, py)
    # cut marks outside the window where a board edge is on this sheet, 5 mm or more from the paper edge
    gap, length = MARK_GAP, MARK_LENGTH
    edges_x = ([left] if col == 0 else []) + ([left + shown_w] if col == tiling.cols - 1 else [])
    edges_y = ([top] if row == 0 else []) + ([top - shown_h] if row == tiling.rows - 1 else [])
    for x in edges_x:
        canvas.line(x, top + gap, x, top + gap + length)
        canvas.line(x, top - shown_h - gap, x, top - shown_h - gap - length)
    for y in edges_y:
        canvas.line(left - gap, y, left - gap - length, y)
        canvas.line(left + shown_w + gap, y, left + shown_w + gap + length, y)
    canvas.restoreState()


def _cross(canvas: Canvas, x: float, y: float) -> None:
    canvas.line(x - MARK, y, x + MARK, y)
    canvas.line(x, y - MARK, x, y + MARK)
    canvas.circle(x, y, MARK * 0.55, stroke=1, fill=0)
