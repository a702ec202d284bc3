"""A table of contents laid out in one pass: page numbers written into the pages after the layout.

ReportLab's `TableOfContents` needs `multiBuild`: a first pass to learn the pages
the headings land on, a second to print them. But the table's layout never
depends on its page numbers: its entries (heading texts, levels, link keys) are
known from the story before layout, and each number is drawn, with its dot
leader, in the room the entry's last line leaves (an `onDraw` callback of zero
width). So this table is laid out once with its entries given up front; where
an entry's number goes, its callback leaves a placeholder line in the page's
content stream and records where it stood. When the story is laid out,
`fill_numbers` draws each number with ReportLab's own `drawPageNumbers` (into a
text object, on the same canvas, so its fonts and glyphs are the document's)
and puts that text object where its placeholder is, then moves each number's
link to where the number ends up. The pages hold what a two-pass build writes,
operator for operator.
"""

from __future__ import annotations

import re
from ast import literal_eval
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.pdfbase.pdfdoc import PDFFormXObject, PDFPage, pdfdocEnc
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus.tableofcontents import TableOfContents, drawPageNumbers

Entry = tuple[int, str, str | None]  # (level from 0, plain heading text, link key or None)
PLACEHOLDER = "%PiratePressContentsNumber:{}%"  # a PDF comment, on a line of its own (one `_code` entry)
PLACEHOLDERS = re.compile(PLACEHOLDER.format("([0-9]+[.][0-9]+)"))


@dataclass(frozen=True)
class NumberSlot:
    """Where one entry's page number goes: all `drawPageNumbers` needs, but the number."""

    index: int  # which entry
    x: float  # where the entry's text ends, in the paragraph's space
    y: float
    width: float  # the table's width: the number ends here
    style: Any
    dot: str
    link: Any  # the number's LinkAnnotation (its Rect set when the number is known), or None
    matrix: tuple[float, ...]  # the canvas transform at the callback, to place the link on the page
    shift: float


class _Transform:
    """The transform a canvas had at one moment, to turn a relative rectangle into page space later
    exactly as `Canvas.linkRect(relative=1)` would have then."""

    absolutePosition = Canvas.absolutePosition
    _absRect = Canvas._absRect

    def __init__(self, matrix: tuple[float, ...], shift: float) -> None:
        self._currentMatrix, self._shift = matrix, shift

    def _getCmShift(self) -> float:
        return self._shift


class _TextCatcher:
    """What `drawPageNumbers` touches of a canvas: its text object is made on the real canvas (the
    document's fonts) but kept, not drawn; the link rectangle it asks for is kept too."""

    def __init__(self, canvas: Canvas, x: float, y: float) -> None:
        self._canvas = canvas
        self._curr_tx_info = {"cur_x": x, "cur_y": y}
        self.code = ""
        self.links: list[tuple[float, float, float, float]] = []

    def beginText(self, x: float, y: float) -> Any:
        return self._canvas.beginText(x, y)

    def drawText(self, text: Any) -> None:
        self.code = str(text.getCode())  # what Canvas.drawText would have put in the page

    def linkRect(self, contents: str, key: str, rect: tuple[float, float, float, float], relative: int = 1) -> None:
        self.links.append(rect)


class OnePassContents(TableOfContents):
    """A table of contents whose entries are set before layout (`expect`) and whose page numbers
    are written after it (`fill_numbers`); one build, no `multiBuild`.

    Without expected entries it is ReportLab's table as a single build leaves it (a placeholder).
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._expected: list[Entry] = []
        self._slots: list[NumberSlot] = []

    def expect(self, entries: Sequence[Entry]) -> None:
        """Lay out these entries (a new layout: what an earlier one recorded is dropped)."""
        self._expected = list(entries)
        self._slots = []
        # ReportLab lays out `_lastEntries`; an entry's "page" only goes into its callback's label
        # (zero width), so the entry's index stands in for it
        self._lastEntries = [(level, text, index, key) for index, (level, text, key) in enumerate(entries)]

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        size = super().wrap(availWidth, availHeight)
        if self._expected:
            self.canv.setNamedCB("drawTOCEntryEnd", self._entry_end(availWidth))
        return size

    def _entry_end(self, avail_width: float) -> Any:
        def draw_entry_end(canvas: Canvas, kind: str, label: str) -> None:
            index_text, level_text, key_text = label.split(",")
            index, level, key = int(index_text), int(level_text), literal_eval(key_text)
            info = canvas._curr_tx_info
            canvas._code.append(PLACEHOLDER.format(f"{id(self)}.{len(self._slots)}"))
            link = None
            if key:  # the link is made now, on this page, and placed when its number's width is known
                canvas.linkRect("", key, (0, 0, 0, 0), relative=1)
                link = canvas._doc.idToObject[canvas._doc.annotationName(f"NUMBER{canvas._annotationCount}")]
            dot = " . " if self.dotsMinLevel >= 0 and level >= self.dotsMinLevel else ""
            self._slots.append(NumberSlot(index, info["cur_x"], info["cur_y"], avail_width,
                                          self.getLevelStyle(level), dot, link,
                                          tuple(canvas._currentMatrix), canvas._getCmShift()))
        return draw_entry_end

    def numbers(self, canvas: Canvas, pages: Sequence[int]) -> dict[str, str]:
        """Each placeholder's text object (`pages[i]`: the page of entry i), its number's link placed."""
        out = {}
        for serial, slot in enumerate(self._slots):
            catcher = _TextCatcher(canvas, slot.x, slot.y)
            key = "link" if slot.link is not None else None
            drawPageNumbers(catcher, slot.style, [(pages[slot.index], key)], slot.width, 0, slot.dot)
            out[f"{id(self)}.{serial}"] = catcher.code
            if slot.link is not None:
                slot.link.Rect = _Transform(slot.matrix, slot.shift)._absRect(catcher.links[0], 1)
        return out


def fill_numbers(canvas: Canvas, tables: Sequence[OnePassContents], pages: Sequence[int]) -> None:
    """After the layout, before saving: put every table's page numbers where their placeholders are,
    in the pages' content streams (pages, or the forms a booklet canvas makes of them)."""
    code: dict[str, str] = {}
    for table in tables:
        code.update(table.numbers(canvas, pages))
    if not code:
        return
    left = set(code)
    marker = PLACEHOLDER.split(":")[0]
    encoded = re.compile(PLACEHOLDERS.pattern.encode())
    for thing in canvas._doc.idToObject.values():
        if isinstance(thing, PDFPage) and isinstance(thing.stream, str) and marker in thing.stream:
            thing.stream = PLACEHOLDERS.sub(lambda m: _take(code, left, m.group(1)), thing.stream)
        elif isinstance(thing, PDFFormXObject) and marker.encode() in thing.stream:
            thing.stream = encoded.sub(lambda m: pdfdocEnc(_take(code, left, m.group(1).decode())), thing.stream)
    if left:
        raise RuntimeError(f"table of contents: {len(left)} page numbers found no place in the pages")


def _take(code: dict[str, str], left: set[str], key: str) -> str:
    left.discard(key)
    return code[key]
