"""Reading printed geometry back out of a finished PDF with pypdfium2: characters, their sizes and boxes (mm)."""

from __future__ import annotations

from dataclasses import dataclass

MM = 72 / 25.4


@dataclass(frozen=True)
class Char:
    """One printed character: its size in points and its box in mm from the page's bottom-left."""

    text: str
    size: float
    left: float
    bottom: float
    right: float
    top: float


def page_chars(data: bytes, index: int) -> tuple[tuple[float, float], list[Char]]:
    """The page's size (mm) and every visible character on it, as pdfium lays them out."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    page = pdfium.PdfDocument(data)[index]
    width, height = page.get_size()
    textpage = page.get_textpage()
    found = []
    for i in range(textpage.count_chars()):
        char = textpage.get_text_range(i, 1)
        if not char.strip():
            continue
        left, bottom, right, top = textpage.get_charbox(i)
        found.append(Char(char, raw.FPDFText_GetFontSize(textpage.raw, i),
                          left / MM, bottom / MM, right / MM, top / MM))
    return (width / MM, height / MM), found


def page_text(data: bytes, index: int) -> str:
    import pypdfium2 as pdfium

    return pdfium.PdfDocument(data)[index].get_textpage().get_text_range()


def page_count(data: bytes) -> int:
    import pypdfium2 as pdfium

    return len(pdfium.PdfDocument(data))
