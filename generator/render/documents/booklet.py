"""Saddle-stitch imposition without reading PDFs back: a canvas that records pages as forms.

Platypus draws each logical (half-size) page as usual; this canvas captures
every page into a PDF form XObject instead of emitting it, and on save lays
the forms two-up on landscape sheets in booklet order: print double-sided
(flip on the short edge), stack, fold, staple.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reportlab.pdfgen.canvas import Canvas


def saddle_order(pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) logical page indices for each sheet side; None is a blank page.

    Pages are padded to a multiple of four; sheet side 2k is a front, 2k+1 its back.
    """
    total = max(4, -(-pages // 4) * 4)

    def real(index: int) -> int | None:
        return index if index < pages else None

    sides: list[tuple[int | None, int | None]] = []
    for sheet in range(total // 4):
        sides.append((real(total - 1 - 2 * sheet), real(2 * sheet)))
        sides.append((real(2 * sheet + 1), real(total - 2 - 2 * sheet)))
    return sides


class BookletCanvas(Canvas):
    """Captures each page as a form; `sheet` is the landscape paper the pages are imposed on."""

    sheet: tuple[float, float] = (0.0, 0.0)

    def __init__(self, filename: Any, pagesize: tuple[float, float] = (0, 0), **kw: Any) -> None:
        self.page_size = pagesize
        self._forms: list[str] = []
        super().__init__(filename, pagesize=pagesize, **kw)
        self._begin()

    def _begin(self) -> None:
        name = f"page{len(self._forms) + 1}"
        self.beginForm(name, 0, 0, self.page_size[0], self.page_size[1])
        self._forms.append(name)
        self._open = True

    def showPage(self) -> None:
        self.endForm()
        self._open = False
        self._begin()

    def save(self) -> None:
        self.impose()
        Canvas.save(self)

    def impose(self) -> None:
        """Lay the captured pages on the sheets, once (`save` does it first; a caller that saves
        the canvas its own way, as `FormStore.save`, imposes first)."""
        if getattr(self, "_imposed", False):
            return
        self._imposed = True
        self.endForm()
        self._forms.pop()  # the form opened after the last page is empty
        sheet_w, sheet_h = max(self.sheet), min(self.sheet)
        page_w, page_h = self.page_size
        scale = min(sheet_w / 2 / page_w, sheet_h / page_h)
        x0 = (sheet_w - 2 * page_w * scale) / 2
        y0 = (sheet_h - page_h * scale) / 2
        self.setPageSize((sheet_w, sheet_h))
        for left, right in saddle_order(len(self._forms)):
            for slot, index in enumerate((left, right)):
                if index is None:
                    continue
                self.saveState()
                self.translate(x0 + slot * page_w * scale, y0)
                self.scale(scale, scale)
                self.doForm(self._forms[index])
                self.restoreState()
            self.setStrokeColorRGB(0.75, 0.75, 0.75)
            self.setDash(2, 3)
            self.setLineWidth(0.3)
            self.line(sheet_w / 2, 4, sheet_w / 2, 14)
            self.line(sheet_w / 2, sheet_h - 14, sheet_w / 2, sheet_h - 4)
            Canvas.showPage(self)


class RepeatCanvas(BookletCanvas):
    """Captures the pages once and emits the whole run `copies` times, each page a shared form:
    six identical score sheets cost one layout pass and one page of drawing, not six."""

    copies: int = 1

    def save(self) -> None:
        self.impose()
        Canvas.save(self)

    def impose(self) -> None:
        """Emit the copies, once (`save` does it first; `FormStore.save` callers impose first)."""
        if getattr(self, "_imposed", False):
            return
        self._imposed = True
        self.endForm()
        self._forms.pop()
        for _ in range(self.copies):
            for form in self._forms:
                self.doForm(form)
                Canvas.showPage(self)


def repeat_canvas(copies: int) -> Callable[..., RepeatCanvas]:
    """A canvas class that prints every page `copies` times, for Platypus's `canvasmaker`."""
    return type("RepeatCanvasFor", (RepeatCanvas,), {"copies": copies})


def booklet_canvas(sheet: tuple[float, float]) -> Callable[..., BookletCanvas]:
    """A canvas class bound to one sheet size, for Platypus's `canvasmaker`."""
    return type("BookletCanvasFor", (BookletCanvas,), {"sheet": sheet})
