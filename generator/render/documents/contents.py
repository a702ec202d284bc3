"""A table of contents laid out in one pass: page numbers drawn as forms defined after the layout.

ReportLab's `TableOfContents` needs `multiBuild`: a first pass to learn the pages
the headings land on, a second to print them. But the table's layout never
depends on its page numbers: its entries (heading texts, levels, link keys) are
known from the story before layout, and each number is drawn, with its dot
leader, in the room the entry's last line leaves (an `onDraw` callback of zero
width). So this table is laid out once with its entries given up front, and
where an entry's number goes it draws a named PDF form XObject (`canvas.doForm`)
that does not exist yet: the "page X of Y" technique. When the story is laid
out, `draw_numbers` defines each form with ReportLab's own `drawPageNumbers`
at the position the callback recorded, and moves each number's link to where
that number ends up. Every page renders as a two-pass build's would; the
bytes differ (forms, and the order fonts meet their glyphs).
"""

from __future__ import annotations

from ast import literal_eval
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus.tableofcontents import TableOfContents, drawPageNumbers

Entry = tuple[int, str, str | None]  # (level from 0, plain heading text, link key or None)


@dataclass(frozen=True)
class NumberSlot:
    """Where one entry's page number goes: all `drawPageNumbers` needs, but the number."""

    form: str  # the form XObject's name, referenced on the page already
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


class _FormCanvas:
    """What `drawPageNumbers` touches of a canvas: text goes to the real canvas (inside the form);
    the link rectangle it asks for is kept, for the annotation made when the entry was drawn."""

    def __init__(self, canvas: Canvas, x: float, y: float) -> None:
        self._canvas = canvas
        self._curr_tx_info = {"cur_x": x, "cur_y": y}
        self.links: list[tuple[float, float, float, float]] = []

    def beginText(self, x: float, y: float) -> Any:
        return self._canvas.beginText(x, y)

    def drawText(self, text: Any) -> None:
        self._canvas.drawText(text)

    def linkRect(self, contents: str, key: str, rect: tuple[float, float, float, float], relative: int = 1) -> None:
        self.links.append(rect)


class OnePassContents(TableOfContents):
    """A table of contents whose entries are set before layout (`expect`) and whose page numbers
    are drawn after it (`draw_numbers`); one build, no `multiBuild`.

    Without expected entries it is ReportLab's table as a single build leaves it (a placeholder).
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.form_prefix = "toc"
        self._expected: list[Entry] = []
        self._slots: list[NumberSlot] = []

    def expect(self, entries: Sequence[Entry], form_prefix: str) -> None:
        """Lay out these entries; their numbers are drawn as forms named `<form_prefix>.<n>`."""
        self._expected = list(entries)
        self._slots = []
        self.form_prefix = form_prefix
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
            name = f"{self.form_prefix}.{len(self._slots)}"
            canvas.doForm(name)
            link = None
            if key:  # the link is made now, on this page, and placed when its number's width is known
                canvas.linkRect("", key, (0, 0, 0, 0), relative=1)
                link = canvas._doc.idToObject[canvas._doc.annotationName(f"NUMBER{canvas._annotationCount}")]
            dot = " . " if self.dotsMinLevel >= 0 and level >= self.dotsMinLevel else ""
            self._slots.append(NumberSlot(name, index, info["cur_x"], info["cur_y"], avail_width,
                                          self.getLevelStyle(level), dot, link,
                                          tuple(canvas._currentMatrix), canvas._getCmShift()))
        return draw_entry_end

    def draw_numbers(self, canvas: Canvas, pages: Sequence[int]) -> None:
        """Define every number's form (`pages[i]`: the page of entry i) and place the numbers' links."""
        width, height = canvas._pagesize
        for slot in self._slots:
            canvas.beginForm(slot.form, -width, -height, 2 * width, 2 * height)
            proxy = _FormCanvas(canvas, slot.x, slot.y)
            key = "link" if slot.link is not None else None
            drawPageNumbers(proxy, slot.style, [(pages[slot.index], key)], slot.width, 0, slot.dot)
            canvas.endForm()
            if slot.link is not None:
                slot.link.Rect = _Transform(slot.matrix, slot.shift)._absRect(proxy.links[0], 1)

