"""Reading back the PDFs we write (pypdf is a test dependency)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from pypdf import PdfReader


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def text(data: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in reader(data).pages)


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

    A booklet sheet shows two pages, each a form drawn in its own page space; every
    page starts with its running footer, so the runs are cut into pages there.
    """
    pages: list[list[Run]] = []
    for page in reader(data).pages:
        runs: list[Run] = []

        def visit(text: str, cm: list[float], tm: list[float], font: dict | None, size: float,
                  runs: list[Run] = runs) -> None:
            if not text.strip():
                return
            x = cm[4] + tm[4] * cm[0] + tm[5] * cm[2]
            y = cm[5] + tm[4] * cm[1] + tm[5] * cm[3]
            name = str(font.get("/BaseFont", "")) if font else ""
            runs.append(Run(round(x, 1), round(y, 1), name.split("+")[-1], round(size * abs(tm[3] or 1), 2),
                            text.strip()))

        page.extract_text(visitor_text=visit)
        for run in runs:
            if run.text == footer or not pages:
                pages.append([])
            pages[-1].append(run)
    return [p for p in pages if p]


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
