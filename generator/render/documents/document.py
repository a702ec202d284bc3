"""Flowables to PDF bytes: page frame, running footer, table of contents, invariant output.

`invariant=1` fixes the creation date and document id, so the same inputs give
byte-identical PDFs. One layout pass serves a table of contents too: its entries
are known from the story, and its page numbers are written into the pages once
they are laid out (`contents.OnePassContents`).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate
from reportlab.platypus.doctemplate import LayoutError

from generator.errors import DataError
from generator.render.documents.contents import Entry, OnePassContents, fill_numbers
from generator.render.documents.flowables import LAYOUT_REFUSAL, HeadingPara
from generator.render.documents.styles import Styles
from generator.speed import speedups

PageHook = Callable[[Canvas, "Document"], None]
MAX_PASSES = 10  # as multiBuild: the headings a layout meets always settle within a pass or two


class Document(BaseDocTemplate):
    """A document whose headings feed the table of contents and whose pages get a footer."""

    def __init__(self, buffer: io.BytesIO, pagesize: tuple[float, float], margin: float, title: str,
                 styles: Styles, footer: str, links: bool = True, **kw: Any):
        super().__init__(buffer, pagesize=pagesize, leftMargin=margin, rightMargin=margin,
                         topMargin=margin, bottomMargin=margin + 4 * mm, title=title,
                         author="Pirate Press", creator="Pirate Press", subject=footer,
                         invariant=1, initialFontName="Sans", **kw)
        self.styles, self.footer, self.links = styles, footer, links
        self.headings: list[tuple[Entry, int]] = []  # each contents heading as laid out, with its page
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=self._decorate)])

    def handle_flowable(self, flowables: list[Flowable]) -> None:
        """Platypus's step, with a block too big for any page reported at its template line (`Builder.located`)."""
        at = getattr(flowables[0], "template_at", None) if flowables else None
        self.at = at or getattr(self, "at", None)
        try:
            super().handle_flowable(flowables)
        except LayoutError:
            if self.at is None:
                raise
            raise DataError(LAYOUT_REFUSAL, self.at) from None

    def afterFlowable(self, flowable: Flowable) -> None:
        if isinstance(flowable, HeadingPara) and flowable.toc_level <= 2:
            key = flowable.toc_key if self.links else None
            self.headings.append(((flowable.toc_level - 1, flowable.toc_text, key), self.page))

    def _decorate(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        pal = self.styles.palette
        canvas.saveState()
        width, _ = self.pagesize
        y = self.bottomMargin - 8 * mm
        canvas.setStrokeColor(pal.accent)
        canvas.setLineWidth(0.6)
        canvas.line(self.leftMargin, y + 4 * mm, width - self.rightMargin, y + 4 * mm)
        canvas.setFillColor(pal.primary)
        size = self.styles.body.fontSize * 0.8
        canvas.setFont("Sans", size)
        canvas.drawString(self.leftMargin, y, self.footer)
        canvas.drawRightString(width - self.rightMargin, y, str(doc.page))
        canvas.restoreState()


def build_pdf(flowables: list[Flowable], pagesize: tuple[float, float], margin: float, title: str,
              styles: Styles, footer: str, canvasmaker: Any = Canvas, links: bool = True,
              saver: Callable[[Canvas], None] | None = None) -> bytes:
    """Lay out and render once; a table of contents gets its page numbers after the layout.

    The contents' entries come from the story's headings. Should the layout meet other
    headings than those (none does today), it is laid out again with the ones it met,
    as `multiBuild` would, until they agree. `saver` saves the canvas in place of its own `save`
    (a session's `FormStore.save`, which makes each font subset once).
    """
    if not speedups().replay:  # the plain path: ReportLab's own two-pass table of contents (generator.speed)
        return two_pass_pdf(flowables, pagesize, margin, title, styles, footer, canvasmaker, links)
    story = list(flowables)
    contents = [f for f in story if isinstance(f, OnePassContents)]
    entries = heading_entries(story, links)
    for _ in range(MAX_PASSES):
        buffer = io.BytesIO()
        doc = Document(buffer, pagesize, margin, title, styles, footer, links=links)
        for table in contents:
            table.expect(entries)
        doc._doSave = 0  # saved below, once the page numbers are in (multiBuild does the same)
        doc.build(list(story), canvasmaker=canvasmaker)
        met = [entry for entry, _ in doc.headings]
        if not contents or met == entries:
            fill_numbers(doc.canv, contents, [page for _, page in doc.headings])
            if saver is not None:
                saver(doc.canv)
            else:
                doc.canv.save()
            return buffer.getvalue()
        entries = met
    raise RuntimeError(f"{title}: the table of contents did not settle in {MAX_PASSES} layouts")


class _TwoPassDocument(Document):
    """The document as ReportLab's `multiBuild` lays it out: every heading notifies its contents entry."""

    def afterFlowable(self, flowable: Flowable) -> None:
        if isinstance(flowable, HeadingPara) and flowable.toc_level <= 2:
            key = flowable.toc_key if self.links else None
            self.notify("TOCEntry", (flowable.toc_level - 1, flowable.toc_text, self.page, key))


def two_pass_pdf(flowables: list[Flowable], pagesize: tuple[float, float], margin: float, title: str,
                 styles: Styles, footer: str, canvasmaker: Any = Canvas, links: bool = True) -> bytes:
    """The story as `multiBuild` makes it, with ReportLab's `TableOfContents` in place of `OnePassContents`
    and ReportLab's own save: the plain path `build_pdf` takes with the replays off, the same bytes."""
    from reportlab.platypus.tableofcontents import TableOfContents

    story: list[Flowable] = []
    for flowable in flowables:
        if isinstance(flowable, OnePassContents):
            stock = TableOfContents()
            stock.levelStyles, stock.dotsMinLevel, stock.tableStyle = (
                flowable.levelStyles, flowable.dotsMinLevel, flowable.tableStyle)
            story.append(stock)
        else:
            story.append(flowable)
    buffer = io.BytesIO()
    doc = _TwoPassDocument(buffer, pagesize, margin, title, styles, footer, links=links)
    doc.multiBuild(story, canvasmaker=canvasmaker)
    return buffer.getvalue()


def heading_entries(story: list[Flowable], links: bool) -> list[Entry]:
    """The table of contents' entries in story order: every heading of level 1 or 2."""
    return [(f.toc_level - 1, f.toc_text, f.toc_key if links else None)
            for f in story if isinstance(f, HeadingPara) and f.toc_level <= 2]
