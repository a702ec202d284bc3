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


@dataclass(frozen=True)
class Shape:
    """One drawn path: whether it is filled and stroked, its stroke width (pt) and its box in mm on the page."""

    filled: bool
    stroked: bool
    stroke_width: float
    left: float
    bottom: float
    right: float
    top: float


def page_shapes(data: bytes, index: int) -> list[Shape]:
    """Every path drawn on the page, those inside forms (a sheet's copies, imposed two up) moved to where the
    form puts them (forms here only translate)."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    page = pdfium.PdfDocument(data)[index]
    found = []
    offsets: dict[int, tuple[float, float]] = {0: (0.0, 0.0)}
    for obj in page.get_objects(max_depth=8):
        dx, dy = offsets[obj.level]
        if obj.type == raw.FPDF_PAGEOBJ_FORM:
            matrix = obj.get_matrix()
            offsets[obj.level + 1] = (dx + matrix.e, dy + matrix.f)
        if obj.type != raw.FPDF_PAGEOBJ_PATH:
            continue
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill), ctypes.byref(stroke))
        width = ctypes.c_float()
        raw.FPDFPageObj_GetStrokeWidth(obj.raw, ctypes.byref(width))
        left, bottom, right, top = obj.get_bounds()
        found.append(Shape(bool(fill.value), bool(stroke.value), width.value,
                           (left + dx) / MM, (bottom + dy) / MM, (right + dx) / MM, (top + dy) / MM))
    return found
