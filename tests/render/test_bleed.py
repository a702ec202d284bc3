"""Every face on every sheet of the four games carries its bleed on every free edge, read back from the PDFs.

Faces are found from the PDF itself (each placement of a face form and the
form's bounding box), not from the grid code, and each page is rendered with
pypdfium2. For every side of a face that has no butted neighbour, the band
just outside the trim must be painted (not paper white) wherever the band just
inside is; where the face's edge is one uniform colour, the bleed must carry
that colour too, or (a face that paints its own bleed another colour: a frame
that stops at the trim) the same colour on every side of that face, which
the imposition cannot have made.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader
from render_pdf import placements

DPI = 100
PX = DPI / 25.4  # pixels per mm
WHITE = 245  # a channel at or above this is paper
UNIFORM = 10  # channel spread within which an edge counts as one colour
SAME = 14  # channel difference within which two colours are equal


@dataclass(frozen=True)
class Placed:
    """A face on a page: trim box in mm from the page's bottom-left, its form's bleed (mm)."""

    x: float
    y: float
    w: float
    h: float
    bleed: float
    name: str


def sheet_pdfs(project) -> list[Path]:
    found = []
    for path in sorted(project.output_dir.rglob("*.pdf")):
        reader = PdfReader(path)
        if any(name.startswith("FormXob.face") for _, _, name in placements(reader.pages[0])):
            found.append(path)
    return found


def faces_on(page) -> list[Placed]:
    forms = page["/Resources"].get("/XObject", {})  # the back of a page of pieces without backs is blank
    found = []
    for x, y, name in placements(page):
        if not name.startswith("FormXob.face"):
            continue
        x0, y0, x1, y1 = (float(v) / (72 / 25.4) for v in forms["/" + name]["/BBox"])
        bleed = -x0
        found.append(Placed(x, y, x1 - x0 - 2 * bleed, y1 - y0 - 2 * bleed, bleed, name))
    return found


def butted(face: Placed, others: list[Placed], side: str) -> bool:
    """Another face shares this side's trim line (a shared cut: no bleed between them)."""
    for o in others:
        if o is face:
            continue
        rows_meet = o.y < face.y + face.h - 0.1 and face.y < o.y + o.h - 0.1
        cols_meet = o.x < face.x + face.w - 0.1 and face.x < o.x + o.w - 0.1
        if side == "left" and rows_meet and abs(o.x + o.w - face.x) < 0.1:
            return True
        if side == "right" and rows_meet and abs(face.x + face.w - o.x) < 0.1:
            return True
        if side == "bottom" and cols_meet and abs(o.y + o.h - face.y) < 0.1:
            return True
        if side == "top" and cols_meet and abs(face.y + face.h - o.y) < 0.1:
            return True
    return False


def bands(image: Image.Image, page_h: float, face: Placed, side: str, outer: float) -> tuple[Image.Image, Image.Image]:
    """The strip just inside the trim and the bleed band just outside it, on one side.

    Only the middle of the edge is read (corners are rounded or belong to two sides)."""
    def box(x0: float, y0: float, x1: float, y1: float) -> Image.Image:  # mm from the page's bottom-left
        return image.crop((round(x0 * PX), round((page_h - y1) * PX), round(x1 * PX), round((page_h - y0) * PX)))

    mx0, mx1 = face.x + 0.3 * face.w, face.x + 0.7 * face.w
    my0, my1 = face.y + 0.3 * face.h, face.y + 0.7 * face.h
    near, far = 0.5, outer - 0.4  # the bleed band, clear of anti-aliasing at both ends
    right, top = face.x + face.w, face.y + face.h
    if side == "left":
        return box(face.x + 0.4, my0, face.x + 0.9, my1), box(face.x - far, my0, face.x - near, my1)
    if side == "right":
        return box(right - 0.9, my0, right - 0.4, my1), box(right + near, my0, right + far, my1)
    if side == "bottom":
        return box(mx0, face.y + 0.4, mx1, face.y + 0.9), box(mx0, face.y - far, mx1, face.y - near)
    return box(mx0, top - 0.9, mx1, top - 0.4), box(mx0, top + near, mx1, top + far)


def uniform(pixels: Image.Image) -> bool:
    return max(high - low for low, high in pixels.getextrema()) <= UNIFORM


def mean(pixels: Image.Image) -> tuple[float, ...]:
    return tuple(ImageStat.Stat(pixels).mean)


def paper_share(pixels: Image.Image) -> float:
    """The share of pixels that are paper white."""
    white = [band.point(lambda v: 255 if v >= WHITE else 0) for band in pixels.split()]
    both = ImageChops.darker(ImageChops.darker(white[0], white[1]), white[2])
    return both.histogram()[255] / max(pixels.width * pixels.height, 1)


def differ(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return max(abs(x - y) for x, y in zip(a, b)) > SAME


def check_face(image: Image.Image, page_h: float, face: Placed, others: list[Placed]) -> list[str]:
    problems = []
    bleed_colours = []
    off_edge = False
    for side in ("left", "right", "bottom", "top"):
        if butted(face, others, side):
            continue
        inside, outside = bands(image, page_h, face, side, outer=min(face.bleed, 2.0))
        if paper_share(inside) < 0.5 and paper_share(outside) > 0.05:
            problems.append(f"{side} bleed is paper white ({paper_share(outside):.0%} of the band)")
            continue
        if uniform(inside) and uniform(outside):
            bleed_colours.append(mean(outside))
            off_edge = off_edge or differ(mean(inside), mean(outside))
    if off_edge and any(differ(c, bleed_colours[0]) for c in bleed_colours):
        problems.append("bleed differs from the edge and is not one colour all round")
    return problems


@pytest.fixture(scope="module")
def sheets(all_games_built) -> list[Path]:
    return sheet_pdfs(all_games_built)


@pytest.mark.slow
def test_every_sheet_pdf_of_every_game_is_checked(sheets) -> None:
    games = {path.parent.name for path in sheets}
    assert games == {"all-hands-on-deck", "counterattack", "pirate-tricks", "pirates-under-fire"}
    assert len(sheets) >= 22  # Under Fire's tiles share its tokens sheet, Pirate Tricks' score cards one sheet


@pytest.mark.slow
def test_every_face_has_bleed_on_every_free_edge(sheets) -> None:
    problems = []
    checked = 0
    for path in sheets:
        reader = PdfReader(path)
        document = pdfium.PdfDocument(path)
        for number, page in enumerate(reader.pages):
            faces = faces_on(page)
            if not faces:
                continue
            page_h = float(page.mediabox.height) / (72 / 25.4)
            image = document[number].render(scale=DPI / 72).to_pil().convert("RGB")
            for face in faces:
                checked += 1
                for problem in check_face(image, page_h, face, faces):
                    problems.append(f"{path.name} page {number + 1} {face.name} at ({face.x:.0f}, {face.y:.0f}) mm: "
                                    f"{problem}")
        document.close()
    assert checked > 500
    assert not problems, "\n".join(problems[:20]) + f"\n({len(problems)} problems)"


@pytest.mark.slow
def test_a_lone_face_has_bleed_on_all_four_sides(sheets) -> None:
    tokens = next(p for p in sheets if p.name.startswith("pirate-tricks-tokens-a4-"))
    reader = PdfReader(tokens)
    go_first = [f for f in faces_on(reader.pages[0]) if round(f.w) == 30]  # the one Go First token, 30 mm
    assert len(go_first) == 1
    image = pdfium.PdfDocument(tokens)[0].render(scale=DPI / 72).to_pil().convert("RGB")
    page_h = float(reader.pages[0].mediabox.height) / (72 / 25.4)
    face = go_first[0]
    for side in ("left", "right", "bottom", "top"):
        _, outside = bands(image, page_h, face, side, outer=face.bleed)
        assert paper_share(outside) == 0, side
