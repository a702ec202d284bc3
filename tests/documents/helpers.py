"""Reading back the PDFs we write (pypdf is a test dependency)."""

from __future__ import annotations

import io

from pypdf import PdfReader


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def text(data: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in reader(data).pages)


def page_sizes(data: bytes) -> set[tuple[int, int]]:
    return {(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in reader(data).pages}


def fonts(data: bytes) -> dict[str, bool]:
    """Every font used on any page (forms included) -> whether its file is embedded."""
    found: dict[str, bool] = {}

    def walk(resources: object) -> None:
        if resources is None:
            return
        resources = resources.get_object()  # type: ignore[attr-defined]
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            embedded = descriptor is not None and any(
                k in descriptor.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[str(font.get("/BaseFont"))] = embedded
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                walk(xobject.get("/Resources"))

    for page in reader(data).pages:
        walk(page.get("/Resources"))
    return found
