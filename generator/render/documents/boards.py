"""Boards at real size, tiled over sheets of paper with overlap and alignment marks.

A board is drawn once into a PDF form (by the face renderer) and shown through
a window on every sheet, so tiles line up to the hundredth of a millimetre.
Neighbouring sheets share an overlap strip; the crosshair marks in it sit at
the same board position on both sheets: lay one sheet over the other until the
marks coincide, then glue or tape.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.model import Component, Game, Item
from generator.project import Project
from generator.render.base.fonts import register_fonts
from generator.render.documents.pictures import draw_face
from generator.render.documents.styles import document_fonts, make_styles, paper_size

MARGIN = 6 * mm    # just outside a home printer's unprintable edge, so a 196 mm board fits A4
OVERLAP = 12 * mm  # the glue strip shared by neighbouring sheets
MARK = 3 * mm      # crosshair arm


@dataclass(frozen=True)
class Tiling:
    """How a board of `width` x `height` points falls on sheets of one orientation."""

    page: tuple[float, float]
    cols: int
    rows: int
    window: tuple[float, float]  # printable area used per sheet

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
    """The orientation needing fewer sheets (portrait on a tie); sizes in points."""
    best: Tiling | None = None
    pw, ph = paper_size(paper)
    for page in ((pw, ph), (ph, pw)):
        window = (page[0] - 2 * MARGIN, page[1] - 2 * MARGIN - 6 * mm)
        tiling = Tiling(page, _count(width, window[0]), _count(height, window[1]), window)
        if best is None or tiling.sheets < best.sheets:
            best = tiling
    assert best is not None
    return best


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
    for item in component.items:
        form = f"board-{item.id}"
        canvas.beginForm(form, 0, 0, width, height)
        draw_face(canvas, game, component, item, "front", project)
        canvas.endForm()
        for copy in range(item.count):
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
            canvas.setFont("Sans", 8)
            canvas.setFillColor(colour)
            label = item.get("name", item.id)
            canvas.drawString(MARGIN, MARGIN - 4, (
                f"{game.title} \u2014 {component.name} {label}" + (f" (copy {copy + 1})" if item.count > 1 else "")
                + (f" \u2014 sheet {row * tiling.cols + col + 1} of {tiling.sheets}: row {row + 1}, column {col + 1}"
                   if tiling.sheets > 1 else "") + " \u2014 print at 100 %"
            ))
            canvas.showPage()


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
    # cut marks outside the window where a board edge is on this sheet
    gap, length = 1 * mm, 4 * mm
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
