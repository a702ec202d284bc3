"""A5 sheets two to a page: the pages of a laid-out sheet, imposed side by side on landscape paper.

A score sheet whose component says `size: a5` and whose template frames it
(`::: frame <component>`) is laid out by `documents.sheets` as an A5 box
centred on a full page. Here each page of that layout is drawn once as a form,
cut down to that box (a clip), and two copies go side by side on one
landscape sheet of the paper, with a dashed cut line between them. On US
Letter the A5 box is scaled to half a sheet (94%).

When each copy has two pages (front and back of one A5 sheet), the sheets
are arranged for a double-sided print flipped on the short edge, as the
rulebook booklets are: the back of the left copy is on the right of the next
page. Copies pair up in order; an odd last copy prints alone.
"""

from __future__ import annotations

from collections.abc import Callable
from math import log10
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from generator.render.base.units import Paper, pt
from generator.render.base.units import paper as registered_paper
from generator.render.documents.booklet import BookletCanvas
from generator.render.sheets.grid import MARK_EDGE

if TYPE_CHECKING:
    from generator.model import Game
    from generator.project import Project
    from generator.render.documents.sheets import SheetLayout

CUT_GREY = 0.55


def fits_two_up(width: float, height: float, paper: Paper) -> bool:
    """Two `width` x `height` mm pages fit side by side on the landscape paper at no less than 90%."""
    return _scale(width, height, paper) >= 0.9


def _scale(width: float, height: float, paper: Paper) -> float:
    return min(1.0, paper.height / 2 / width, paper.width / height)


class TwoUpCanvas(BookletCanvas):
    """Captures one copy's pages as forms (each an A5 `box` (w, h mm) centred on its page); on save, draws
    `copies` copies two to a landscape sheet of `paper`, each clipped to its box, with the cut line over them."""

    copies: int = 1
    box: tuple[float, float] = (0.0, 0.0)
    paper: Paper

    def save(self) -> None:
        self.endForm()
        self._forms.pop()  # the form opened after the last page is empty
        width, height = self.box
        scale = _scale(width, height, self.paper)
        sheet_w, sheet_h = self.paper.height, self.paper.width  # landscape, mm
        placed_w, placed_h = width * scale, height * scale
        slots = [(sheet_w / 4 - placed_w / 2, (sheet_h - placed_h) / 2),
                 (3 * sheet_w / 4 - placed_w / 2, (sheet_h - placed_h) / 2)]
        page_w, page_h = (float(fp_str(side)) for side in self.page_size)  # the page as its PDF box says
        left, bottom = (page_w - pt(width)) / 2, (page_h - pt(height)) / 2
        self.setPageSize((pt(sheet_w), pt(sheet_h)))
        for pair_start in range(0, self.copies, 2):
            in_pair = min(2, self.copies - pair_start)
            for side, form in enumerate(self._forms):
                for index in range(in_pair):
                    slot = slots[index] if side % 2 == 0 else slots[1 - index]  # short-edge flip: halves swap
                    move = (scale, 0.0, 0.0, scale, pt(slot[0]) - left * scale, pt(slot[1]) - bottom * scale)
                    right, top = left + pt(width), bottom + pt(height)
                    self.saveState()
                    self.addLiteral(" ".join(map(_exact, move)) + " cm")
                    self.addLiteral(" ".join(map(_exact, (left, bottom, right - left, top - bottom))) + " re W n")
                    self.doForm(form)
                    self.restoreState()
                self._cut_line(sheet_w, sheet_h)  # over the pages: the line shows where they meet
                Canvas.showPage(self)
        Canvas.save(self)

    def _cut_line(self, sheet_w: float, sheet_h: float) -> None:
        """The dashed cut line down the middle of the landscape sheet, ending 5 mm from the paper's edges (a line
        to the edge falls in the printer's margin, and makes viewers offer to shrink the page)."""
        self.saveState()
        self.setStrokeColorRGB(CUT_GREY, CUT_GREY, CUT_GREY)
        self.setLineWidth(0.4)
        self.setDash(4, 3)
        self.line(pt(sheet_w / 2), pt(MARK_EDGE), pt(sheet_w / 2), pt(sheet_h - MARK_EDGE))  # inside the printable area
        self.restoreState()


def _exact(number: float) -> str:
    """A number to eight significant digits. ReportLab's own rounding (five decimals) would move a copy by
    up to 1e-5 pt: no printer sees that, but it turns anti-aliased pixels against the pypdf imposition this
    replaced, which wrote numbers this way; kept so the files render pixel for pixel as before."""
    if number == 0:
        return "0.0"
    digits = 8 - int(log10(abs(number)))
    return f"{number:.{max(1, digits)}f}".rstrip("0").rstrip(".")


def two_up_canvas(copies: int, box: tuple[float, float], paper: Paper) -> Callable[..., Any]:
    """A canvas class that imposes `copies` copies of an A5 sheet two to a page, for `draw_sheet`."""
    return type("TwoUpCanvasFor", (TwoUpCanvas,), {"copies": copies, "box": box, "paper": paper})


def two_up_sheet(game: Game, project: Project, template: Path, paper: str,
                 layout: SheetLayout | None = None) -> tuple[str, bytes] | None:
    """A printed sheet two to a page, and the word its file name ends with; None if it is not an A5 sheet.

    An A5 sheet is one whose template frames (`::: frame`) a component that says
    `size: a5`. The name says how to print: `2up` (single-sided) or
    `2up-duplex-short` when each copy has a back. It is drawn from the sheet's
    layout (`lay_out_sheet`; pass it when the caller has it), not from its PDF."""
    from generator.render.documents.sheets import draw_sheet, lay_out_sheet

    layout = layout or lay_out_sheet(game, project, template, paper)
    settings = layout.settings
    if settings.frame is None or not game.has_component(settings.frame):
        return None
    size = game.component(settings.frame).size
    sheet = registered_paper(paper)
    if size.name != "a5" or not fits_two_up(size.width, size.height, sheet):
        return None
    mode = "2up" if layout.pages == 1 else "2up-duplex-short"
    return mode, draw_sheet(layout, fillable=False,
                            canvasmaker=two_up_canvas(settings.copies, (size.width, size.height), sheet))
