"""Parsed markup blocks to ReportLab Platypus flowables.

One function per block kind; `Builder` carries what they share (the game for
pictures, the styles, whether fill-in boxes become AcroForm fields).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from dataclasses import field as dc_field
from functools import cached_property
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    FrameBreak,
    KeepTogether,
    ListFlowable,
    ListItem,
    PageBreak,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.doctemplate import ActionFlowable
from reportlab.platypus.doctemplate import FrameBreak as DOC_FRAME_BREAK

from generator.errors import DataError, Location
from generator.model import Game
from generator.project import Project
from generator.render.documents import markup
from generator.render.documents.contents import OnePassContents
from generator.render.documents.formfields import FormField
from generator.render.documents.iconpara import IconParagraph as Paragraph  # inline :icon: at text size
from generator.render.documents.lines import ParagraphLines, paragraph_lines
from generator.render.documents.pictures import FacePicture, resolve
from generator.render.documents.scenes import SceneFlowable
from generator.render.documents.styles import Styles
from generator.render.faces.icons import IconSet, icon_set

PICTURE_HEIGHT = 48 * mm
SHORT_LIST = 6
LONG_TABLE = 0.55      # a table taller than this share of a page may split (its header row repeats)
SCENE_SHARE = 0.72    # a scene takes at most this share of a page's height
CELL_PAD = 6          # ReportLab's default left and right padding in a table cell
FIELD_MIN = 8 * mm    # the narrowest fill-in box: room for a two-digit score written by hand
SECTION_START = 6      # lines of a section that must fit under its heading, or the heading starts a new page
# Tables set a cell font even when every cell is a Paragraph; name ours so no unembedded base font appears.
FONT = ("FONTNAME", (0, 0), (-1, -1), "Sans")


class FieldBox(Flowable):
    """A fill-in box: a ruled box on paper, an AcroForm text field in the fillable PDF.

    A totals box (`sums` names the fields it adds up) gets a calculate action, so viewers
    that run form scripts fill it in as the player types; it stays editable for those that do not.
    """

    def __init__(self, name: str, fillable: bool, height: float, colour: colors.Color, tooltip: str = "",
                 sums: tuple[str, ...] = ()):
        super().__init__()
        self.name, self.fillable, self.box_height, self.colour = name, fillable, height, colour
        self.tooltip = tooltip or name  # what a form viewer shows on hover: row and column, in words
        self.sums = sums
        self.width = 0.0

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width = avail_width  # its column's width: `_column_widths` gives a box column at least FIELD_MIN
        return self.width, self.box_height

    def draw(self) -> None:
        canvas = self.canv
        if getattr(canvas, "fill_in_fields", self.fillable):  # a sheet drawn from a shared layout says which
            x, y = canvas.absolutePosition(0, 0)
            field = FormField(self.name, self.tooltip, x, y, self.width, self.box_height, self.colour, self.sums)
            field.add_to(canvas)
            record = getattr(canvas, "record_field", None)  # a stamping canvas repeats the page's fields
            if record is not None:
                record(field)
        else:
            canvas.setStrokeColor(self.colour)
            canvas.setLineWidth(0.6)
            canvas.setFillColor(colors.white)
            canvas.rect(0, 0, self.width, self.box_height, stroke=1, fill=1)


class Slot(Flowable):
    """A dashed real-size outline with a caption inside: the place to put a pile of cards."""

    def __init__(self, width: float, height: float, corner: float, caption: str, styles: Styles,
                 icons: IconSet | None = None):
        super().__init__()
        self.width, self.height, self.corner, self.styles = width, height, corner, styles
        self.caption = Paragraph(caption, styles.caption, icons=icons)
        self.hAlign = "CENTER"

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        canvas.setStrokeColor(self.styles.palette.primary)
        canvas.setDash(4, 3)
        canvas.setLineWidth(0.8)
        canvas.roundRect(0, 0, self.width, self.height, max(self.corner, 0.1), stroke=1, fill=0)
        canvas.restoreState()
        inner = self.width - 12 * mm
        _, h = self.caption.wrap(inner, self.height)
        self.caption.drawOn(canvas, 6 * mm, (self.height - h) / 2)


class NewPage(CondPageBreak):
    """`::: pagebreak`: a new page, unless the page is still empty (no blank pages)."""

    def __init__(self) -> None:
        super().__init__(0)

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        frame = self._doctemplateAttr("frame")
        if frame is not None and not getattr(frame, "_atTop", False):
            frame.add_generated_content(PageBreak())
        return 0, 0


class KeepWhole(KeepTogether):
    """ReportLab's KeepTogether, measured once per width.

    Its measure (`_listWrapOn`, which deep-copies the frame each time) is asked for again and
    again at the same width: by the heading's room before it, by the frame that places it, by
    its own split. What it holds (lists, tables, pictures, scenes) is measured at an unlimited
    height, so its size depends on the width alone, and a repeated `wrap` restores it.
    """

    _measured: tuple[float, float, float, float] | None = None  # width asked, width, _H, _H0

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        done = self._measured
        if done is not None and done[0] == avail_width:
            self._H, self._H0, self._wrapInfo = done[2], done[3], (avail_width, avail_height)
            return done[1], 0xFFFFFF  # as KeepTogether: always split, never drawn whole
        width, height = super().wrap(avail_width, avail_height)
        self._measured = (avail_width, width, self._H, self._H0)
        return width, height


class KeepShort(KeepWhole):
    """A table or a long list kept whole on one page, unless it is too long to read as one piece anyway."""

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        if getattr(self, "_wrapInfo", None) != (avail_width, avail_height):
            self.wrap(avail_width, avail_height)
        frame = getattr(self, "_frame", None)
        page = frame._height if frame is not None else avail_height
        if page * LONG_TABLE < self._H:  # too long to keep whole: split here, or start on the next page
            first, *rest = self._content
            parts = first.split(avail_width, avail_height)
            return [*parts, *rest] if parts else [DOC_FRAME_BREAK, *self._content]
        return super().split(avail_width, avail_height)

    def is_short(self, page: float) -> bool:
        """After a wrap: whether the table is kept whole on a page this tall."""
        return bool(page * LONG_TABLE >= self._H)


class HeadingRoom(CondPageBreak):
    """Put before a heading: a new page unless the heading and the start of its section fit here.

    "The start" is `SECTION_START` body lines or the whole section if shorter, stretched to the
    end of any block that begins within it and cannot be split (a picture, a callout, a short table):
    so a heading never stands alone at the foot of a page.
    """

    def __init__(self, section: list[Flowable], line: float) -> None:
        super().__init__(0)
        self.section, self.line = section, line

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        frame = self._doctemplateAttr("frame")
        page = frame._height if frame is not None else avail_height
        need = self.needed(avail_width, page)
        if need > avail_height and need <= page and frame is not None and not getattr(frame, "_atTop", False):
            frame.add_generated_content(PageBreak())
        return 0, 0

    def needed(self, width: float, page: float) -> float:
        headings = [f for f in self.section if isinstance(f, HeadingPara)]
        rest = self.section[len(headings):]
        need = sum(_height(h, width, page, self.canv) for h in headings)
        wanted = self.line * SECTION_START
        body = 0.0
        for flowable in rest:
            height = _height(flowable, width, page, self.canv)
            if _unbreakable(flowable, page):  # a block that starts in the window moves whole...
                if body and need + body + height + self.line > page:
                    wanted = body  # ...unless it could never share a page with the heading anyway
                    break
                wanted = max(wanted, body + height)
            body += height
            if body >= wanted:
                break
        return need + min(body, wanted) + self.line  # a line of slack for the spacing around blocks


def _height(flowable: Flowable, width: float, page: float, canvas: Any) -> float:
    if isinstance(flowable, (CondPageBreak, PageBreak, ActionFlowable)):
        return 0.0
    if isinstance(flowable, KeepTogether):
        flowable.wrapOn(canvas, width, page)
        return float(flowable._H)
    _, height = flowable.wrapOn(canvas, width, page)
    return float(height) + flowable.getSpaceBefore() + flowable.getSpaceAfter()


def _unbreakable(flowable: Flowable, page: float) -> bool:
    """After `_height`: whether the flowable moves to the next page whole rather than split."""
    if isinstance(flowable, KeepShort):
        return flowable.is_short(page)
    return isinstance(flowable, (KeepTogether, SceneFlowable)) or (isinstance(flowable, Table)
                                                                     and len(flowable._cellvalues) == 1)


class HeadingPara(Paragraph):
    """A heading that reports itself to the table of contents and the PDF outline."""

    def __init__(self, text: str, style: Any, level: int, key: str, outline: bool,
                 lines: ParagraphLines | None = None, icons: IconSet | None = None):
        super().__init__(text, style, lines=lines, icons=icons)
        self.toc_level, self.toc_key, self.outline = level, key, outline
        self.toc_text = markup.plain(text)

    def draw(self) -> None:
        if self.outline:
            self.canv.bookmarkPage(self.toc_key)
            self.canv.addOutlineEntry(self.toc_text, self.toc_key, level=self.toc_level - 1, closed=False)
        super().draw()


LAYOUT_REFUSAL = ("this block is taller than a page (or panel) and cannot be split across pages; "
                  "shorten it, or break it into smaller blocks")


@dataclass
class Builder:
    game: Game
    project: Project
    styles: Styles
    file: str
    fillable: bool = False
    outline: bool = True
    field_prefix: str = ""
    width: float = 0.0  # frame width, for tables
    height: float = 0.0  # frame height, to keep scenes to a share of a page (0: no limit)
    guard_headings: bool = True  # rulebooks and sheets; not inside a callout box
    soft_breaks: bool = False  # one frame per page (rulebooks): a page break on an empty page is skipped
    # rulebooks: a long list stays whole while it is short on the page. Not on sheets: a sheet's laid-out
    # flowables are drawn again for its fillable copy, and a list inside KeepShort does not draw the same twice
    keep_long_lists: bool = False
    _fields: int = 0
    _headings: int = 0
    _after_title: bool = False
    seen_fields: set[str] = dc_field(default_factory=set)
    field_names: dict[str, str] = dc_field(default_factory=dict)  # as the template names them -> PDF name

    @cached_property
    def lines(self) -> ParagraphLines:
        """The session's paragraph line breaks of recent builds (`lines.py`), shared by every paragraph made here."""
        return paragraph_lines(self.project)

    @cached_property
    def icons(self) -> IconSet:
        """The game's icons (`faces.icons`), for every `:icon:` in the text made here (their files are this
        document's reads)."""
        return icon_set(self.project, self.game.id)

    def flowables(self, blocks: list[markup.Block]) -> list[Flowable]:
        out: list[Flowable] = []
        for block in blocks:
            out.extend(self.block(block))
        return self.guard(out) if self.guard_headings else out

    def located(self, blocks: list[markup.Block], file: str) -> list[Flowable]:
        """`block` for each block, every flowable noting where its block is written (`template_at`), so that a
        block the layout cannot place is reported at its template line (`LAYOUT_REFUSAL`)."""
        made: list[Flowable] = []
        for block in blocks:
            for flowable in self.block(block):
                flowable.template_at = Location(file, block.line)
                made.append(flowable)
        return made

    def guard(self, flowables: list[Flowable]) -> list[Flowable]:
        """A `HeadingRoom` before every heading, holding what follows it: the headings right under it
        and the first section that has content, up to the heading after that."""
        out: list[Flowable] = []
        for i, flowable in enumerate(flowables):
            if isinstance(flowable, HeadingPara):
                end = i + 1
                while end < len(flowables) and isinstance(flowables[end], HeadingPara):
                    end += 1
                while end < len(flowables) and not isinstance(flowables[end], HeadingPara):
                    end += 1
                out.append(HeadingRoom(flowables[i:end], self.styles.body.leading))
            out.append(flowable)
        return out

    def block(self, block: markup.Block) -> list[Flowable]:
        s = self.styles
        after_title, self._after_title = self._after_title, False
        if isinstance(block, markup.Heading):
            self._headings += 1
            if block.level == 1:
                self._after_title = True
                return [Paragraph(markup.inline_to_para(block.text), s.title, lines=self.lines, icons=self.icons)]
            level = block.level - 1
            para = HeadingPara(markup.inline_to_para(block.text), s.heading(level), level,
                               f"h{self._headings}", self.outline, lines=self.lines, icons=self.icons)
            return [para]
        if isinstance(block, markup.Paragraph):
            style = s.subtitle if after_title else s.body  # the line under a title is its subtitle
            return [Paragraph(markup.inline_to_para(block.text), style, lines=self.lines, icons=self.icons)]
        if isinstance(block, markup.ListBlock):
            flowable = self.list_block(block)
            # a short list reads as one unit: never leave a single item behind on the next page; a longer one
            # is kept whole too while it is short on the page (as a table is), so that no page holds only
            # its last lines (the credits, before a page break)
            if len(block.items) <= SHORT_LIST:
                return [KeepWhole([flowable])]
            return [KeepShort([flowable])] if self.guard_headings and self.keep_long_lists else [flowable]
        if isinstance(block, markup.Table):
            table = self.table(block)  # in a callout (one table cell, which cannot split) it stays as it is
            return [KeepShort([table])] if self.guard_headings else [table]
        if isinstance(block, markup.Callout):
            return [self.callout(block)]
        if isinstance(block, markup.Pictures):
            return [self.pictures(block)]
        if isinstance(block, markup.Scene):
            scene = SceneFlowable(self.game, self.project, block, s, self.file, self.height * SCENE_SHARE)
            return [KeepWhole([scene, Spacer(1, s.body.spaceAfter)])]
        if isinstance(block, markup.Directive):
            if block.name == "pagebreak":
                return [NewPage()] if self.soft_breaks else [PageBreak()]
            if block.name == "slot":
                return [self.slot(block)]
            if block.name == "nextpanel":
                return [FrameBreak()]
            if block.name in markup.SETTINGS:
                raise DataError(f"'::: {block.name}' is a sheet setting; give it at the top of a sheet template",
                                Location(self.file, block.line))
            if block.name == "spacer":
                try:
                    return [Spacer(1, float(block.arg or 4) * mm)]
                except ValueError:
                    raise DataError(f"'::: spacer' takes millimetres, got {block.arg!r}",
                                    Location(self.file, block.line)) from None
            toc = OnePassContents()
            toc.levelStyles = list(s.toc)
            toc.dotsMinLevel = 0
            toc.tableStyle = TableStyle([FONT, ("VALIGN", (0, 0), (-1, -1), "TOP"),
                                         ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                                         ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)])
            return [toc]
        raise TypeError(block)

    def list_block(self, block: markup.ListBlock) -> Flowable:
        s = self.styles
        items = [ListItem(Paragraph(markup.inline_to_para(t), s.item, lines=self.lines, icons=self.icons))
                 for t in block.items]
        if block.ordered:
            return ListFlowable(items, bulletType="1", start=block.start, bulletFormat="%s.",
                                bulletFontName="Sans-Bold",
                                bulletFontSize=s.item.fontSize, bulletColor=s.palette.primary,
                                leftIndent=s.item.fontSize * 1.8, spaceAfter=s.body.spaceAfter)
        return ListFlowable(items, bulletType="bullet", start="\u2022", bulletFontName="Sans",
                            bulletFontSize=s.item.fontSize, bulletColor=s.palette.accent_text,
                            leftIndent=s.item.fontSize * 1.4, spaceAfter=s.body.spaceAfter)

    def field_name(self, name: str) -> str:
        """A unique form field name; PDF field names may not contain '.', so any other mark becomes '-'."""
        self._fields += 1
        base = re.sub(r"[^A-Za-z0-9_-]+", "-", name.strip()) or f"box{self._fields}"
        full = f"{self.field_prefix}{base}"
        if full in self.seen_fields:
            full = f"{full}-{self._fields}"
        self.seen_fields.add(full)
        return full

    def summands(self, cell: markup.Field, line: int) -> tuple[str, ...]:
        """The PDF names of the boxes above that a totals box adds up (none for a plain box)."""
        if not cell.sums:
            return ()
        found = tuple(full for name, full in self.field_names.items() if fnmatch.fnmatchcase(name, cell.sums))
        if not found:
            raise DataError(f"totals box [[{cell.name} = {cell.sums}]] adds up no box above it; the pattern "
                            "must match the names of boxes written before it (* stands for any part)",
                            Location(self.file, line))
        return found

    def table(self, block: markup.Table) -> Flowable:
        s = self.styles
        rows: list[list[Any]] = []
        box_height = s.cell.leading * 1.25
        head = block.rows[0] if block.header else ()
        for r, row in enumerate(block.rows):
            cells: list[Any] = []
            for c, cell in enumerate(row):
                if isinstance(cell, markup.Field):
                    if head:  # named by its row and its column
                        tip = " / ".join(markup.plain(t) for t in (row[0], head[c]) if isinstance(t, str) and t.strip())
                    else:  # named by the words just before it in its row
                        tip = next((markup.plain(t) for t in reversed(row[:c]) if isinstance(t, str) and t.strip()), "")
                    sums = self.summands(cell, block.line)
                    name = self.field_name(cell.name)
                    self.field_names.setdefault(cell.name, name)
                    cells.append(FieldBox(name, self.fillable, box_height, s.palette.primary, tip, sums))
                else:
                    style = s.head_cell if (block.header and r == 0) else s.cell
                    cells.append(Paragraph(markup.inline_to_para(cell), style, lines=self.lines, icons=self.icons))
            rows.append(cells)
        widths = _column_widths(block, self.width, s.cell.fontSize)
        table = Table(rows, colWidths=widths, repeatRows=1 if block.header else 0, hAlign="LEFT")
        commands: list[tuple[Any, ...]] = [
            FONT,
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("GRID", (0, 0), (-1, -1), 0.4, s.palette.primary),
            ("TOPPADDING", (0, 0), (-1, -1), 2.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ]
        if block.header:
            commands.append(("BACKGROUND", (0, 0), (-1, 0), s.palette.primary))
        body_start = 1 if block.header else 0
        for r in range(body_start, len(rows)):
            if (r - body_start) % 2 == 1:
                commands.append(("BACKGROUND", (0, r), (-1, r), _tint(s.palette.primary, 0.06)))
        table.setStyle(TableStyle(commands))
        table.spaceAfter = s.body.spaceAfter
        return table

    def callout(self, block: markup.Callout) -> Flowable:
        s = self.styles
        inner = Builder(self.game, self.project, s, self.file, self.fillable, False, self.field_prefix,
                        self.width - 16, guard_headings=False, seen_fields=self.seen_fields,
                        field_names=self.field_names)
        content = inner.flowables(list(block.blocks))
        box = Table([[content]], colWidths=[self.width - 4], hAlign="LEFT")
        box.setStyle(TableStyle([
            FONT,
            ("BACKGROUND", (0, 0), (-1, -1), _tint(s.palette.accent, 0.16)),
            ("LINEBEFORE", (0, 0), (0, -1), 3, s.palette.accent),
            ("LEFTPADDING", (0, 0), (-1, -1), 9),
            ("RIGHTPADDING", (0, 0), (-1, -1), 7),
            ("TOPPADDING", (0, 0), (-1, -1), 6),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ]))
        box.spaceAfter = s.body.spaceAfter
        box.spaceBefore = 2
        return box

    def slot(self, block: markup.Directive) -> Flowable:
        """`::: slot COMPONENT [sideways] caption`: where a pile of that component goes, at real size."""
        component_id, _, rest = block.arg.partition(" ")
        sideways = rest.startswith("sideways")
        caption = rest[len("sideways"):].strip() if sideways else rest.strip()
        if not self.game.has_component(component_id):
            raise DataError(f"'::: slot' names unknown component {component_id!r}", Location(self.file, block.line))
        size = self.game.component(component_id).size
        width, height = size.width * mm, size.height * mm
        if sideways:
            width, height = height, width
        return Slot(width, height, size.corner * mm, markup.inline_to_para(caption), self.styles, self.icons)

    def pictures(self, block: markup.Pictures) -> Flowable:
        s = self.styles
        where = Location(self.file, block.line)
        resolved = [resolve(self.game, picture.ref, where) for picture in block.pictures]
        slot = self.width / max(len(resolved), 1) - 14  # room for the cell padding between faces
        height = min([PICTURE_HEIGHT] + [slot * c.size.height / c.size.width for c, _ in resolved])
        cells = []
        for picture, (component, item) in zip(block.pictures, resolved, strict=True):
            face = FacePicture(self.game, self.project, component, item, picture.side, height)
            caption = (Paragraph(markup.inline_to_para(picture.caption), s.caption, icons=self.icons)
                       if picture.caption else Spacer(1, 1))
            cells.append([face, caption])
        table = Table([cells], hAlign="CENTER")
        table.setStyle(TableStyle([FONT, ("ALIGN", (0, 0), (-1, -1), "CENTER"), ("VALIGN", (0, 0), (-1, -1), "TOP")]))
        return KeepWhole([table, Spacer(1, s.body.spaceAfter)])


def _tint(colour: colors.Color, amount: float) -> colors.Color:
    """A solid pale shade (no transparency: it must survive booklet forms and every printer)."""
    return colors.Color(*(1 - amount * (1 - c) for c in (colour.red, colour.green, colour.blue)))


def _column_widths(block: markup.Table, width: float, size: float = 0.0) -> list[float]:
    """Share the frame width by each column's longest text (field columns get a fixed share),
    never narrower than the column's longest word, so that no word is broken (narrow booklet pages), nor a
    column of fill-in boxes narrower than `FIELD_MIN` and its padding."""
    columns = len(block.rows[0]) if block.rows else 1
    weights = []
    floors = []
    for c in range(columns):
        plain = [markup.plain(t) if isinstance(t, str) else None for t in (row[c] for row in block.rows)]
        longest = max((len(t) if t is not None else 8 for t in plain), default=4)
        weights.append(min(max(longest, 8), 38))
        words = {w for t in plain if t is not None for w in t.split()}  # each word measured once
        floor = max((stringWidth(w, "Sans-Bold", size) for w in words), default=0.0) + 2 * CELL_PAD + 3
        if any(t is None for t in plain):  # a column of fill-in boxes: each box fits inside its rules
            floor = max(floor, FIELD_MIN + 2 * CELL_PAD)
        floors.append(floor)
    total = sum(weights)
    widths = [width * w / total for w in weights]
    if size and sum(floors) <= width:
        for _ in range(columns):  # lift narrow columns to their floor, taking the room from the wide ones
            short = [c for c in range(columns) if widths[c] < floors[c] - 0.01]
            if not short:
                break
            for c in short:
                widths[c] = floors[c]
            spare = width - sum(widths)
            wide = [c for c in range(columns) if c not in short and widths[c] > floors[c]]
            room = sum(widths[c] - floors[c] for c in wide)
            for c in wide:
                widths[c] += spare * (widths[c] - floors[c]) / room if room else 0
    return widths
