"""Flowables to PDF bytes: page frame, running footer, table of contents, invariant output.

`invariant=1` fixes the creation date and document id, so the same inputs give
byte-identical PDFs. Building twice (multiBuild) lets the table of contents
learn its page numbers; seeding it with its entries first keeps that to two passes.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate
from reportlab.platypus.tableofcontents import TableOfContents

from generator.render.documents.flowables import HeadingPara
from generator.render.documents.styles import Styles

PageHook = Callable[[Canvas, "Document"], None]


class Document(BaseDocTemplate):
    """A document whose headings feed the table of contents and whose pages get a footer."""

    def __init__(self, buffer: io.BytesIO, pagesize: tuple[float, float], margin: float, title: str,
                 styles: Styles, footer: str, links: bool = True, **kw: Any):
        super().__init__(buffer, pagesize=pagesize, leftMargin=margin, rightMargin=margin,
                         topMargin=margin, bottomMargin=margin + 4 * mm, title=title,
                         author="Pirate Press", creator="Pirate Press", subject=footer,
                         invariant=1, initialFontName="Sans", **kw)
        self.styles, self.footer, self.links = styles, footer, links
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=self._decorate)])

    def afterFlowable(self, flowable: Flowable) -> None:
        if isinstance(flowable, HeadingPara) and flowable.toc_level <= 2:
            key = flowable.toc_key if self.links else None
            self.notify("TOCEntry", (flowable.toc_level - 1, flowable.toc_text, self.page, key))

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
              styles: Styles, footer: str, canvasmaker: Any = Canvas, links: bool = True) -> bytes:
    """Lay out and render; runs twice when there is a table of contents to fill."""
    buffer = io.BytesIO()
    doc = Document(buffer, pagesize, margin, title, styles, footer, links=links)
    story = list(flowables)
    seed_contents(story, links)
    doc.multiBuild(story, canvasmaker=canvasmaker)
    return buffer.getvalue()


def seed_contents(story: list[Flowable], links: bool) -> None:
    """Give each table of contents its entries before the first pass, page numbers unknown (0).

    Unseeded, the first pass lays out a one-line placeholder, so every page after it
    can move and multiBuild needs a third pass. Seeded, the first pass already has the
    final layout (an entry's height does not depend on its page number, which is drawn
    in the space the entry's last line leaves): the second pass draws the numbers and
    is the last. The seed is only a hint: multiBuild still runs until the entries it
    collects equal the ones it drew, so the bytes are those of an unseeded build.
    """
    entries = [(f.toc_level - 1, f.toc_text, 0, f.toc_key if links else None)
               for f in story if isinstance(f, HeadingPara) and f.toc_level <= 2]
    for flowable in story:
        if isinstance(flowable, TableOfContents):
            flowable._entries = list(entries)
