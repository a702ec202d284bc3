"""Score sheets, logs, pads and screens: `templates/sheets/<game>/<name>.md.j2`, one PDF each.

A sheet template is ordinary document markup plus a few settings at the top:

    ::: landscape          turn the paper
    ::: copies N           N copies (one per player), each with its own form fields
    ::: frame COMPONENT    lay the page out inside the component's trim box, at real
                           size and centred, with cut marks (e.g. a player screen)
    ::: panels N           split that box into N columns with fold lines; ::: nextpanel

Table cells written `[[name]]` are fill-in boxes: ruled boxes in the printed
sheet and AcroForm text fields in the `-fillable` PDF.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageBreak, PageTemplate

from generator.errors import DataError, Location
from generator.model import Game
from generator.project import Project
from generator.render.documents import markup
from generator.render.documents.booklet import repeat_canvas
from generator.render.documents.flowables import Builder, FormField
from generator.render.documents.rulebook import parse_template
from generator.render.documents.styles import MARGIN, Styles, make_styles, paper_size

MAX_COPIES = 12


@dataclass(frozen=True)
class SheetSettings:
    landscape: bool = False
    copies: int = 1
    frame: str | None = None
    panels: int = 1


def sheet_templates(game: Game, project: Project) -> list[Path]:
    """The game's sheet templates in name order (none is fine: not every game has sheets)."""
    folder = project.inside(project.templates_dir, f"sheets/{game.id}", game.location)
    return project.gate.listdir(folder, "*.md.j2", game.location)


def split_settings(blocks: list[markup.Block], file: str) -> tuple[SheetSettings, list[markup.Block]]:
    """Take the leading settings directives off a sheet's blocks."""
    values: dict[str, object] = {}
    rest = list(blocks)
    while rest:
        directive = rest[0]
        if not isinstance(directive, markup.Directive) or directive.name not in markup.SETTINGS:
            break
        rest.pop(0)
        where = Location(file, directive.line)
        if directive.name == "landscape":
            values["landscape"] = True
        elif directive.name == "frame":
            values["frame"] = directive.arg
        else:
            if not directive.arg.isdigit() or not 1 <= int(directive.arg) <= MAX_COPIES:
                raise DataError(f"'::: {directive.name}' needs a whole number 1..{MAX_COPIES}, got {directive.arg!r}",
                                where)
            values[directive.name] = int(directive.arg)
    return SheetSettings(**values), rest  # type: ignore[arg-type]


class SheetDocument(BaseDocTemplate):
    """Pages with one frame, or N panel frames inside a component's trim box."""

    def __init__(self, buffer: io.BytesIO, pagesize: tuple[float, float], box: tuple[float, float, float, float],
                 panels: int, styles: Styles, title: str, cut_marks: bool):
        super().__init__(buffer, pagesize=pagesize, leftMargin=0, rightMargin=0, topMargin=0, bottomMargin=0,
                         title=title, author="Pirate Press", creator="Pirate Press", invariant=1,
                         initialFontName="Sans")
        self.box, self.panels, self.styles, self.cut_marks = box, panels, styles, cut_marks
        x, y, w, h = box
        pad = 5 * mm if cut_marks else 0
        panel_w = w / panels
        frames = [
            Frame(x + i * panel_w + pad, y + pad, panel_w - 2 * pad, h - 2 * pad, id=f"panel{i}",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
            for i in range(panels)
        ]
        self.addPageTemplates([PageTemplate(id="sheet", frames=frames, onPage=self._decorate)])

    @property
    def frame_width(self) -> float:
        return self.box[2] / self.panels - (10 * mm if self.cut_marks else 0)

    def _decorate(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        if not self.cut_marks:
            return
        x, y, w, h = self.box
        canvas.saveState()
        canvas.setLineWidth(0.4)
        canvas.setStrokeColorRGB(0, 0, 0)
        gap, length = 2 * mm, 6 * mm
        for cx in (x, x + w):
            for cy, direction in ((y, -1), (y + h, 1)):
                canvas.line(cx, cy + direction * gap, cx, cy + direction * (gap + length))
        for cy in (y, y + h):
            for cx, direction in ((x, -1), (x + w, 1)):
                canvas.line(cx + direction * gap, cy, cx + direction * (gap + length), cy)
        canvas.setDash(3, 3)
        canvas.setStrokeColor(self.styles.palette.accent)
        for i in range(1, self.panels):
            fx = x + w * i / self.panels
            canvas.line(fx, y, fx, y + h)  # fold line
        canvas.restoreState()


def _page_and_box(settings: SheetSettings, game: Game, paper: str, where: Location) -> tuple[tuple[float, float], tuple[float, float, float, float]]:
    width, height = paper_size(paper)
    if settings.landscape:
        width, height = height, width
    if settings.frame is None:
        return (width, height), (MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN)
    if not game.has_component(settings.frame):
        raise DataError(f"'::: frame' names unknown component {settings.frame!r}", where)
    size = game.component(settings.frame).size
    w, h = size.width * mm, size.height * mm
    if w > width - 2 * MARGIN or h > height - 2 * MARGIN:
        raise DataError(f"{settings.frame} ({size.label()}) does not fit on {paper}; try '::: landscape'", where)
    return (width, height), ((width - w) / 2, (height - h) / 2, w, h)


def sheet_pdf(game: Game, project: Project, template: Path, paper: str, fillable: bool, stamp: bool = True,
              parsed: tuple[str, list[markup.Block]] | None = None) -> bytes:
    """One sheet template as PDF bytes; `fillable` turns its boxes into form fields.

    `parsed` is the template already rendered and parsed (`parse_template`), when the caller has it.
    """
    display, blocks = parsed or parse_template(template, game, project)
    settings, body = split_settings(blocks, display)
    where = Location(display, 1)
    pagesize, box = _page_and_box(settings, game, paper, where)
    styles = make_styles(game, 0.9 if settings.frame is None else 0.85)
    buffer = io.BytesIO()
    doc = SheetDocument(buffer, pagesize, box, settings.panels, styles, f"{game.title}: {template.name[:-6]}",
                        cut_marks=settings.frame is not None)
    flowables: list[Flowable] = []
    seen: set[str] = set()
    # Printed copies are identical: lay out one and repeat its pages as forms. Fillable copies differ
    # only in their fields' names: lay out one and stamp its pages again with renamed fields (the
    # same bytes as laying out every copy, which `stamp=False` still does, for the test that says so).
    canvasmaker: Any = Canvas
    laid_out = settings.copies
    if settings.copies > 1 and not fillable:
        canvasmaker, laid_out = repeat_canvas(settings.copies), 1
    elif settings.copies > 1 and stamp:
        canvasmaker, laid_out = stamp_canvas(settings.copies), 1
    for index in range(laid_out):
        builder = Builder(game, project, styles, display, fillable=fillable, outline=False,
                          field_prefix=f"sheet{index + 1}-" if settings.copies > 1 else "", seen_fields=seen)
        builder.width = doc.frame_width
        if index:
            flowables.append(PageBreak())
        flowables.extend(builder.flowables(body))
    doc.build(flowables, canvasmaker=canvasmaker)
    return buffer.getvalue()


def has_fields(blocks: list[markup.Block]) -> bool:
    """Whether any table (callouts included) has a fill-in box: only then is there a fillable PDF to make
    (without any, it would only repeat the printed one)."""
    for block in blocks:
        if isinstance(block, markup.Table) and any(isinstance(c, markup.Field) for row in block.rows for c in row):
            return True
        if isinstance(block, markup.Callout) and has_fields(list(block.blocks)):
            return True
    return False


class StampCanvas(Canvas):
    """Draws the first copy of a fillable sheet as usual, remembering each page's drawing and fields;
    on save, emits the other copies page by page with the same drawing and the fields renamed
    (`sheet1-` becomes `sheetN-`), in the order laying each copy out would have made them."""

    copies: int = 1

    def __init__(self, *args: Any, **kw: Any) -> None:
        self._pages: list[tuple[dict[str, Any], list[FormField]]] = []
        self._fields: list[FormField] = []
        super().__init__(*args, **kw)

    def record_field(self, field: FormField) -> None:
        self._fields.append(field)

    def showPage(self) -> None:
        state = {name: copy.copy(getattr(self, name)) for name in _PAGE_STATE}
        self._pages.append((state, self._fields))
        self._fields = []
        super().showPage()

    def save(self) -> None:
        for number in range(2, self.copies + 1):
            for state, fields in self._pages:
                for name, value in state.items():
                    setattr(self, name, copy.copy(value))
                for field in fields:
                    field.renamed("sheet1-", f"sheet{number}-").add_to(self)
                Canvas.showPage(self)
        Canvas.save(self)


# What a page accumulates besides its fields (see Canvas._restartAccumulators): restored per stamped page.
_PAGE_STATE = ("_code", "_psCommandsBeforePage", "_psCommandsAfterPage", "_currentPageHasImages", "_formsinuse",
               "_formData", "_colorsUsed", "_shadingUsed")


def stamp_canvas(copies: int) -> Callable[..., StampCanvas]:
    """A canvas class that stamps `copies` copies of a fillable sheet, for Platypus's `canvasmaker`."""
    return type("StampCanvasFor", (StampCanvas,), {"copies": copies})


def sheet_name(template: Path) -> str:
    return template.name[: -len(".md.j2")]
