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
    """One drawn path: whether it is filled (and with what, "#rrggbb") and stroked, its stroke width (pt) and
    its box in mm on the page."""

    filled: bool
    stroked: bool
    stroke_width: float
    left: float
    bottom: float
    right: float
    top: float
    fill: str = "#000000"


@dataclass(frozen=True)
class Run:
    """One run of text as drawn: its words, size (pt, as printed), colour, the fill of the topmost shape drawn
    before it under its middle ("#ffffff" for the bare page), and its box in mm."""

    text: str
    size: float
    colour: str
    behind: str
    left: float
    bottom: float
    right: float
    top: float


Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _then(inner: Matrix, outer: Matrix) -> Matrix:
    """`inner` then `outer`, as PDF matrices chain (a point's row vector times inner, then outer)."""
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _box(bounds: tuple[float, float, float, float], m: Matrix) -> tuple[float, float, float, float]:
    """A box in a form's space, moved to the page and in mm."""
    left, bottom, right, top = bounds
    xs, ys = [], []
    for x, y in ((left, bottom), (left, top), (right, bottom), (right, top)):
        xs.append(x * m[0] + y * m[2] + m[4])
        ys.append(x * m[1] + y * m[3] + m[5])
    return min(xs) / MM, min(ys) / MM, max(xs) / MM, max(ys) / MM


def _colour(getter: object, obj: object) -> str:
    import ctypes

    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    getter(obj, ctypes.byref(r), ctypes.byref(g), ctypes.byref(b), ctypes.byref(a))  # type: ignore[operator]
    return f"#{r.value:02x}{g.value:02x}{b.value:02x}"


def _drawn(data: bytes, index: int) -> list[Shape | Run]:
    """Every path and text run on the page in drawing order, those inside forms (a sheet's copies imposed two
    up, a card pictured on a screen) moved and scaled to where the form puts them."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    page = pdfium.PdfDocument(data)[index]
    textpage = page.get_textpage()
    found: list[Shape | Run] = []
    shapes: list[Shape] = []
    outer: dict[int, Matrix] = {0: IDENTITY}
    for obj in page.get_objects(max_depth=8):
        around = outer[obj.level]
        if obj.type == raw.FPDF_PAGEOBJ_FORM:
            m = obj.get_matrix()
            outer[obj.level + 1] = _then((m.a, m.b, m.c, m.d, m.e, m.f), around)
        elif obj.type == raw.FPDF_PAGEOBJ_PATH:
            fill, stroke = ctypes.c_int(), ctypes.c_int()
            raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill), ctypes.byref(stroke))
            width = ctypes.c_float()
            raw.FPDFPageObj_GetStrokeWidth(obj.raw, ctypes.byref(width))
            shape = Shape(bool(fill.value), bool(stroke.value), width.value, *_box(obj.get_bounds(), around),
                          fill=_colour(raw.FPDFPageObj_GetFillColor, obj.raw))
            found.append(shape)
            shapes.append(shape)
        elif obj.type == raw.FPDF_PAGEOBJ_TEXT:
            length = raw.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
            buffer = ctypes.create_string_buffer(length)
            raw.FPDFTextObj_GetText(obj.raw, textpage.raw, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)),
                                    length)
            text = buffer.raw[: max(0, length - 2)].decode("utf-16-le", errors="replace")
            if not text.strip():
                continue
            size = ctypes.c_float()
            raw.FPDFTextObj_GetFontSize(obj.raw, ctypes.byref(size))
            m = obj.get_matrix()
            total = _then((m.a, m.b, m.c, m.d, m.e, m.f), around)
            scale = abs(total[0] * total[3] - total[1] * total[2]) ** 0.5
            left, bottom, right, top = _box(obj.get_bounds(), around)
            x, y = (left + right) / 2, (bottom + top) / 2
            behind = next((s.fill for s in reversed(shapes)
                           if s.filled and s.left <= x <= s.right and s.bottom <= y <= s.top), "#ffffff")
            found.append(Run(text, size.value * scale, _colour(raw.FPDFPageObj_GetFillColor, obj.raw), behind,
                             left, bottom, right, top))
    return found


def page_shapes(data: bytes, index: int) -> list[Shape]:
    """Every path drawn on the page (see `_drawn`)."""
    return [s for s in _drawn(data, index) if isinstance(s, Shape)]


def page_runs(data: bytes, index: int) -> list[Run]:
    """Every run of text on the page, with its colour and what is drawn behind it (see `_drawn`)."""
    return [r for r in _drawn(data, index) if isinstance(r, Run)]


def text_lines(data: bytes, index: int, margin: float) -> int:
    """How many lines of text the page holds inside `margin` mm of its top and bottom edges (the running
    header and footer left out): distinct baselines, 1 mm apart or more."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    page = pdfium.PdfDocument(data)[index]
    height = page.get_height()
    textpage = page.get_textpage()
    baselines = set()
    x, y = ctypes.c_double(), ctypes.c_double()
    for i in range(textpage.count_chars()):
        if not textpage.get_text_range(i, 1).strip():
            continue
        raw.FPDFText_GetCharOrigin(textpage.raw, i, ctypes.byref(x), ctypes.byref(y))
        if margin * MM < y.value < height - margin * MM:
            baselines.add(round(y.value / MM))
    return len(baselines)
