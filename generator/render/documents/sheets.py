"""Score sheets, logs, pads and screens: `templates/sheets/<game>/<name>.md.j2`, one PDF each.

A sheet template is ordinary document markup plus a few settings at the top:

    ::: landscape          turn the paper
    ::: copies N           N copies (one per player), each with its own form fields
    ::: frame COMPONENT    lay the page out inside the component's trim box, at real
                           size and centred, with cut marks (e.g. a player screen)
    ::: panels N           split that box into N columns with fold lines; ::: nextpanel

Table cells written `[[name]]` are fill-in boxes: ruled boxes in the printed
sheet and AcroForm text fields in the `-fillable` PDF.

A sheet is laid out once (`lay_out_sheet`: Platypus places one copy's flowables
without drawing them) and drawn from that layout as often as needed
(`draw_sheet`): printed and fillable PDFs, and the print plan's page count,
all come from the same layout, so they cannot disagree and nothing is laid out twice.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageBreak, PageTemplate
from reportlab.platypus.doctemplate import LayoutError

from generator.errors import DataError, Location
from generator.model import Game
from generator.project import Project
from generator.render.base.units import paper as registered_paper
from generator.render.documents import markup
from generator.render.documents.booklet import RepeatCanvas, repeat_canvas
from generator.render.documents.flowables import LAYOUT_REFUSAL, Builder
from generator.render.documents.formfields import FormField
from generator.render.documents.rulebook import parse_template
from generator.render.documents.styles import MARGIN, Styles, document_fonts, make_styles, paper_size
from generator.render.documents.two_up import fits_two_up
from generator.render.faces.stamps import FormStore

MAX_COPIES = 12


FRAME_PAD = 5 * mm   # trim to text inside a framed sheet
TWO_UP_PAD = 10 * mm  # ... printed two to a page, edges on the paper's: the printer's 5 mm margin and 5 mm more


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


@dataclass(frozen=True)
class Placement:
    """Where the layout put one flowable: its page (from 1), its place in the frame, its spare width."""

    page: int
    flowable: Flowable
    x: float
    y: float
    spare: float
    frame: Frame  # drawn with it set as `_frame`, as `Frame.add` sets it (containers read it while drawing)


class Placements(list[Placement]):
    """The layout's notes, shared (never copied) by the copies of a frame Platypus makes to measure."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Placements:
        return self


class PlacingFrame(Frame):
    """A frame that places flowables exactly as Platypus does, but notes where each goes instead of drawing it."""

    def __init__(self, *args: Any, placed: Placements, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.placed = placed

    def add(self, flowable: Flowable, canv: Canvas, trySplit: int = 0) -> int:
        def note(canvas: Canvas, x: float, y: float, _sW: float = 0) -> None:
            self.placed.append(Placement(canvas.getPageNumber(), flowable, x, y, _sW, self))

        flowable.drawOn = note
        try:
            return int(Frame._add(self, flowable, canv, trySplit))
        finally:
            del flowable.drawOn


class _UnsavedCanvas(Canvas):
    """The layout pass's canvas: it counts pages; nothing is drawn on it that anyone keeps."""

    def save(self) -> None:
        pass


class SheetDocument(BaseDocTemplate):
    """Pages with one frame, or N panel frames inside a component's trim box.

    With `placed`, its frames only note where each flowable goes (`PlacingFrame`), for `lay_out_sheet`.
    """

    def __init__(self, buffer: io.BytesIO, pagesize: tuple[float, float], box: tuple[float, float, float, float],
                 panels: int, styles: Styles, title: str, cut_marks: bool, placed: Placements | None = None,
                 file: str = "", pad: float = FRAME_PAD):
        self.at = Location(file, 0)  # where the block being laid out is written
        super().__init__(buffer, pagesize=pagesize, leftMargin=0, rightMargin=0, topMargin=0, bottomMargin=0,
                         title=title, author="Pirate Press", creator="Pirate Press", invariant=1,
                         initialFontName="Sans")
        self.box, self.panels, self.styles, self.cut_marks = box, panels, styles, cut_marks
        x, y, w, h = box
        self.pad = pad = pad if cut_marks else 0
        panel_w = w / panels
        frame = partial(PlacingFrame, placed=placed) if placed is not None else Frame
        frames = [
            frame(x + i * panel_w + pad, y + pad, panel_w - 2 * pad, h - 2 * pad, id=f"panel{i}",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
            for i in range(panels)
        ]
        self.addPageTemplates([PageTemplate(id="sheet", frames=frames, onPage=self._decorate)])

    def handle_flowable(self, flowables: list[Flowable]) -> None:
        """Platypus's step, with a too-big block reported at its template line (`_story` notes the lines)."""
        self.at = getattr(flowables[0], "template_at", self.at) if flowables else self.at
        try:
            super().handle_flowable(flowables)
        except LayoutError:
            raise DataError(LAYOUT_REFUSAL, self.at) from None

    @property
    def frame_width(self) -> float:
        return self.box[2] / self.panels - 2 * self.pad

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


@dataclass
class SheetLayout:
    """One copy of a sheet laid out page by page, not drawn: `draw_sheet` draws it printed or fillable."""

    settings: SheetSettings
    document: SheetDocument
    pages: int  # pages of one copy
    placements: list[Placement]

    @property
    def landscape(self) -> bool:
        width, height = self.document.pagesize
        return bool(width > height)


def _document(game: Game, project: Project, template: Path, paper: str, display: str, settings: SheetSettings,
              buffer: io.BytesIO, placed: Placements | None = None) -> SheetDocument:
    pagesize, box = _page_and_box(settings, game, paper, Location(display, 1))
    styles = make_styles(game, _type_scale(settings), document_fonts(game, project))
    return SheetDocument(buffer, pagesize, box, settings.panels, styles, f"{game.title}: {template.name[:-6]}",
                         cut_marks=settings.frame is not None, placed=placed, file=display,
                         pad=_frame_pad(game, settings, paper))


def _frame_pad(game: Game, settings: SheetSettings, paper: str) -> float:
    """Trim to text inside a framed sheet: `FRAME_PAD`; an A5 sheet printed two to a page has its outer
    edges on the paper's, so its text keeps `TWO_UP_PAD` from them, clear of a printer's 5 mm margin."""
    if settings.frame is None or not game.has_component(settings.frame):
        return FRAME_PAD
    size = game.component(settings.frame).size
    two_up = size.name == "a5" and fits_two_up(size.width, size.height, registered_paper(paper))
    return TWO_UP_PAD if two_up else FRAME_PAD


def _type_scale(settings: SheetSettings) -> float:
    """A full page reads at 0.9 of the rulebook's type, a framed one (an A5 pad) at 0.85; a sheet folded in
    panels to stand (a screen) is read from across the table, so it keeps the rulebook's full size."""
    if settings.panels > 1:
        return 1.0
    return 0.9 if settings.frame is None else 0.85


def _story(builder: Builder, body: list[markup.Block], display: str) -> list[Flowable]:
    """`builder.flowables(body)`, each flowable noting its block's template line, for `SheetDocument` to say
    where a block that cannot fit is."""
    made = builder.located(body, display)
    return builder.guard(made) if builder.guard_headings else made


def _builder(game: Game, project: Project, doc: SheetDocument, display: str, fillable: bool, index: int,
             copies: int, seen: set[str]) -> Builder:
    builder = Builder(game, project, doc.styles, display, fillable=fillable, outline=False,
                      field_prefix=f"sheet{index + 1}-" if copies > 1 else "", seen_fields=seen)
    builder.width = doc.frame_width
    return builder


def lay_out_sheet(game: Game, project: Project, template: Path, paper: str,
                  parsed: tuple[str, list[markup.Block]] | None = None) -> SheetLayout:
    """Lay out the first copy of a sheet without drawing it (fill-in boxes lay out the same either way).

    Copies differ only in their fields' names, which drawing gives them (`draw_sheet`), so one
    copy's layout serves all. `parsed` is the template already rendered and parsed, when the caller has it.
    """
    display, blocks = parsed or parse_template(template, game, project)
    from generator.render.documents.parses import template_parses

    return template_parses(project).layout(template, paper, game, project, blocks,
                                           partial(_lay_out, game, project, template, paper, display, blocks))


def _lay_out(game: Game, project: Project, template: Path, paper: str, display: str,
             blocks: list[markup.Block]) -> SheetLayout:
    settings, body = split_settings(blocks, display)
    placed = Placements()
    doc = _document(game, project, template, paper, display, settings, io.BytesIO(), placed)
    builder = _builder(game, project, doc, display, False, 0, settings.copies, set())
    doc.build(_story(builder, body, display), canvasmaker=_UnsavedCanvas)
    return SheetLayout(settings, doc, doc.canv.getPageNumber() - 1, placed)


def draw_sheet(layout: SheetLayout, fillable: bool, canvasmaker: Any = None,
               store: FormStore | None = None) -> bytes:
    """Draw a laid-out sheet as PDF bytes, page by page as Platypus would have: the same bytes as `sheet_pdf`
    with `stamp=False` (a test says so). `fillable` turns its boxes into form fields.

    Printed copies are identical: their pages repeat as forms. Fillable copies differ only in their
    fields' names: the first copy's pages are stamped again with renamed fields. A `canvasmaker`
    given does its own thing with the copies (A5 sheets two to a page: `two_up.two_up_canvas`).
    A `store` (the session's `FormStore`) saves the PDF: each font subset is cut and compressed once for
    the printed and the fillable file, both papers and the next build (the same bytes)."""
    doc, copies = layout.document, layout.settings.copies
    if canvasmaker is not None:
        store = None  # a caller's canvas saves its own way
    else:
        canvasmaker = Canvas
        if copies > 1:
            canvasmaker = stamp_canvas(copies) if fillable else repeat_canvas(copies)
    buffer = io.BytesIO()
    canvas = doc._makeCanvas(filename=buffer, canvasmaker=canvasmaker)  # set up as `doc.build` sets it up
    canvas.fill_in_fields = fillable  # read by FieldBox: one layout, drawn either way
    canvas._doctemplate = doc
    template = doc.pageTemplates[0]
    on_page: dict[int, list[Placement]] = {}
    for placement in layout.placements:
        on_page.setdefault(placement.page, []).append(placement)
    for page in range(1, layout.pages + 1):
        template.beforeDrawPage(canvas, doc)
        template.onPage(canvas, doc)
        for placement in on_page.get(page, ()):
            flowable = placement.flowable
            flowable._frame = placement.frame
            try:
                flowable.drawOn(canvas, placement.x, placement.y, _sW=placement.spare)
            finally:
                del flowable._frame
        template.afterDrawPage(canvas, doc)
        template.onPageEnd(canvas, doc)
        canvas.setPageRotation(doc.rotation)
        canvas.showPage()
    del canvas._doctemplate
    if store is None:
        canvas.save()
    else:
        if isinstance(canvas, (StampCanvas, RepeatCanvas)):
            canvas.impose()  # the copies' pages first, as their own save would: the same object order
        store.save(canvas)
    return buffer.getvalue()


def sheet_pdf(game: Game, project: Project, template: Path, paper: str, fillable: bool, stamp: bool = True,
              parsed: tuple[str, list[markup.Block]] | None = None) -> bytes:
    """One sheet template as PDF bytes; `fillable` turns its boxes into form fields.

    `parsed` is the template already rendered and parsed (`parse_template`), when the caller has it.
    `stamp=False` takes the long way, for the tests that compare bytes: Platypus lays out and draws
    directly, and lays out every fillable copy again.
    """
    if stamp:
        return draw_sheet(lay_out_sheet(game, project, template, paper, parsed), fillable)
    display, blocks = parsed or parse_template(template, game, project)
    settings, body = split_settings(blocks, display)
    buffer = io.BytesIO()
    doc = _document(game, project, template, paper, display, settings, buffer)
    flowables: list[Flowable] = []
    seen: set[str] = set()
    canvasmaker: Any = Canvas
    laid_out = settings.copies
    if settings.copies > 1 and not fillable:
        canvasmaker, laid_out = repeat_canvas(settings.copies), 1
    for index in range(laid_out):
        if index:
            flowables.append(PageBreak())
        flowables.extend(_builder(game, project, doc, display, fillable, index, settings.copies, seen).flowables(body))
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
        self.impose()
        Canvas.save(self)

    def impose(self) -> None:
        """Emit the other copies, once (`save` does it first; a caller that saves the canvas its own way,
        as `FormStore.save`, imposes first)."""
        if getattr(self, "_imposed", False):
            return
        self._imposed = True
        for number in range(2, self.copies + 1):
            for state, fields in self._pages:
                for name, value in state.items():
                    setattr(self, name, copy.copy(value))
                for field in fields:
                    field.renamed("sheet1-", f"sheet{number}-").add_to(self)
                Canvas.showPage(self)


# What a page accumulates besides its fields (see Canvas._restartAccumulators): restored per stamped page.
_PAGE_STATE = ("_code", "_psCommandsBeforePage", "_psCommandsAfterPage", "_currentPageHasImages", "_formsinuse",
               "_formData", "_colorsUsed", "_shadingUsed")


def stamp_canvas(copies: int) -> Callable[..., StampCanvas]:
    """A canvas class that stamps `copies` copies of a fillable sheet, for Platypus's `canvasmaker`."""
    return type("StampCanvasFor", (StampCanvas,), {"copies": copies})


def sheet_name(template: Path) -> str:
    return template.name[: -len(".md.j2")]
