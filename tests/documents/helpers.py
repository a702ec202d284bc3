"""Reading back the PDFs we write: structure through pypdf (a test dependency), text through PDFium
(pypdfium2, which the package already needs for previews), some thirty times faster than pypdf's text
extraction, which parses every font's ToUnicode map again on every page."""

from __future__ import annotations

import ctypes
import io
import re
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from pypdf import PdfReader


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def text(data: bytes) -> str:
    """Every page's text in drawing order, a line of the PDF to a line here."""
    document = pdfium.PdfDocument(data)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()


def words(data: bytes) -> str:
    """The document's text with every run of white space as one space (phrases survive line breaks)."""
    return re.sub(r"\s+", " ", text(data))


def page_sizes(data: bytes) -> set[tuple[int, int]]:
    return {(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in reader(data).pages}


def fonts(data: bytes) -> dict[str, bool]:
    """Every font used on any page (forms included) -> whether its file is embedded."""
    found: dict[str, bool] = {}

    def walk(resources: object) -> None:
        if resources is None:
            return
        resources = resources.get_object()  # type: ignore[attr-defined]
        for entry in (resources.get("/Font") or {}).values():
            font = entry.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            embedded = descriptor is not None and any(
                k in descriptor.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[str(font.get("/BaseFont"))] = embedded
        for ref in (resources.get("/XObject") or {}).values():
            xobject = ref.get_object()
            if xobject.get("/Subtype") == "/Form":
                walk(xobject.get("/Resources"))

    for page in reader(data).pages:
        walk(page.get("/Resources"))
    return found


@dataclass(frozen=True)
class Run:
    """One piece of text as drawn: position (points, in its page's own space), font, size."""

    x: float
    y: float
    font: str
    size: float
    text: str


def logical_pages(data: bytes, footer: str) -> list[list[Run]]:
    """The text runs of every page as a reader sees it, booklet halves included.

    A run is one text-showing operation of the content stream, where its first glyph starts. A booklet
    sheet shows two pages, each a form drawn in its own page space; every page starts with its running
    footer, so the runs are cut into pages there.
    """
    pages: list[list[Run]] = []
    document = pdfium.PdfDocument(data)
    fonts: dict[int | None, str] = {}
    try:
        for page in document:
            textpage = page.get_textpage()
            for piece in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_TEXT,)):
                shown = _shown_text(piece, textpage).strip()
                if not shown:
                    continue
                size = ctypes.c_float()
                pdfium_c.FPDFTextObj_GetFontSize(piece.raw, size)
                m = piece.get_matrix()  # text space to its page's (or form's) space: where the run starts
                run = Run(round(m.e, 1), round(m.f, 1), _font_name(piece, fonts), round(size.value * abs(m.d or 1), 2),
                          shown)
                if run.text == footer or not pages:
                    pages.append([])
                pages[-1].append(run)
    finally:
        document.close()
    return pages


def _shown_text(piece: pdfium.PdfObject, textpage: pdfium.PdfTextPage) -> str:
    """The Unicode text one text object shows (PDFium reads it through the font's ToUnicode map)."""
    length = pdfium_c.FPDFTextObj_GetText(piece.raw, textpage.raw, None, 0)  # bytes, UTF-16 with its NUL
    buffer = ctypes.create_string_buffer(length)
    pdfium_c.FPDFTextObj_GetText(piece.raw, textpage.raw, ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)),
                                 length)
    return buffer.raw[: max(length - 2, 0)].decode("utf-16-le")


def _font_name(piece: pdfium.PdfObject, names: dict[int | None, str]) -> str:
    """The base font name of a text object without its subset tag (ABCDEF+Name), read once per font."""
    font = pdfium_c.FPDFTextObj_GetFont(piece.raw)
    key = ctypes.cast(font, ctypes.c_void_p).value
    if key not in names:
        length = pdfium_c.FPDFFont_GetBaseFontName(font, None, 0)
        buffer = ctypes.create_string_buffer(length)
        pdfium_c.FPDFFont_GetBaseFontName(font, buffer, length)
        names[key] = buffer.value.decode().split("+")[-1]
    return names[key]


def form_placements(data: bytes, page_index: int) -> list[tuple[str, tuple[float, ...]]]:
    """(form name, matrix a b c d e f) of every form a page draws, in page space (not inside forms)."""
    from pypdf.generic import ContentStream

    page = reader(data).pages[page_index]
    content = ContentStream(page.get_contents(), page.pdf)
    stack: list[tuple[float, ...]] = []
    ctm: tuple[float, ...] = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    placed: list[tuple[str, tuple[float, ...]]] = []
    for operands, operator in content.operations:
        if operator == b"q":
            stack.append(ctm)
        elif operator == b"Q":
            ctm = stack.pop()
        elif operator == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        elif operator == b"Do":
            placed.append((str(operands[0]).removeprefix("/FormXob."), ctm))
    return placed
