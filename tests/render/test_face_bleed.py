"""Bleed on every face: whatever colour a face has at its trim edge runs on into the bleed.

Every distinct face of the four games is drawn alone (the single-face PDF of the
PNG export) and read back: just outside the trim must match just inside it,
at three points along every side (round faces: eight points around).
"""

from __future__ import annotations

import math

import pytest

from generator.load import load_game
from generator.project import Project
from generator.render.exports.raster import faces_pdf
from generator.render.faces.layout import Face, back_layout
from generator.render.faces.renderer import renderer

DPI = 100
BLEED = 3.0
GAMES = ("all-hands-on-deck", "counterattack", "pirate-tricks", "pirates-under-fire")


def distinct_faces(project: Project) -> list[tuple[str, Face]]:
    faces = renderer(project)
    found: dict[Face, str] = {}
    for game_id in GAMES:
        game = load_game(project, game_id)
        for component in (c for c in game.components if c.printable):
            for side in ("front", "back") if back_layout(component) else ("front",):
                for item in component.items:
                    found.setdefault(faces.face(game, component, item, side), f"{game_id} {item.key} {side}")
    return [(label, face) for face, label in found.items()]


def pairs(face: Face) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    """(where, a point 1.5 mm out in the bleed, the point 0.5 mm inside the trim), in mm from the trim's top-left."""
    w, h = face.width, face.height
    if face.shape == "circle":
        r = w / 2
        out = []
        for step in range(8):
            a = step * math.pi / 4
            dx, dy = math.cos(a), math.sin(a)
            out.append((f"{step * 45} deg", (r + dx * (r + 1.5), r + dy * (r + 1.5)),
                        (r + dx * (r - 0.5), r + dy * (r - 0.5))))
        return out
    out = []
    for f in (0.25, 0.5, 0.75):
        out += [(f"top {f}", (w * f, -1.5), (w * f, 0.5)), (f"bottom {f}", (w * f, h + 1.5), (w * f, h - 0.5)),
                (f"left {f}", (-1.5, h * f), (0.5, h * f)), (f"right {f}", (w + 1.5, h * f), (w - 0.5, h * f))]
    return out


def close(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return max(abs(x - y) for x, y in zip(a, b)) <= 12


@pytest.fixture(scope="module")
def rendered(project: Project) -> list[tuple[str, Face, object]]:
    import pypdfium2 as pdfium

    faces = distinct_faces(project)
    document = pdfium.PdfDocument(faces_pdf([face for _, face in faces], BLEED, DPI))
    images = [document[i].render(scale=DPI / 72).to_pil().convert("RGB") for i in range(len(faces))]
    return [(label, face, image) for (label, face), image in zip(faces, images)]


@pytest.mark.slow
def test_every_face_bleeds_its_edge_colour(rendered) -> None:
    assert len(rendered) > 100
    wrong = []
    for label, face, image in rendered:
        # the page is the bleed box, centred on the trim
        origin = ((image.width - face.width / 25.4 * DPI) / 2, (image.height - face.height / 25.4 * DPI) / 2)

        def at(point: tuple[float, float], image=image, origin=origin) -> tuple[int, ...]:
            return image.getpixel((int(origin[0] + point[0] / 25.4 * DPI), int(origin[1] + point[1] / 25.4 * DPI)))
        for where, outside, inside in pairs(face):
            if not close(at(outside), at(inside)):
                wrong.append(f"{label} {where}: bleed {at(outside)} but edge {at(inside)}")
    assert wrong == [], "\n".join(wrong)


def test_only_the_sides_that_reach_the_trim_run_on() -> None:
    import pypdfium2 as pdfium

    from generator.render.faces.layout import Element

    band = Element("rect", "band", (("fill", "#ff0000"), ("h", 10.0), ("w", 40.0), ("x", 0.0), ("y", 0.0)))
    border = Element("rect", "border", (("stroke", "#0000ff"), ("stroke_width", 2.0), ("x", 0.0), ("y", 0.0)))
    face = Face(40.0, 40.0, "rect", 0.0, (
        Element("rect", "ground", (("bleed", True), ("fill", "#ffffff"))), border, band))  # the band on top
    image = pdfium.PdfDocument(faces_pdf([face], BLEED, DPI))[0].render(scale=DPI / 72).to_pil().convert("RGB")
    origin = (image.width - 40 / 25.4 * DPI) / 2

    def at(x_mm: float, y_mm: float) -> tuple[int, ...]:
        return image.getpixel((int(origin + x_mm / 25.4 * DPI), int(origin + y_mm / 25.4 * DPI)))

    red, blue = (255, 0, 0), (0, 0, 255)
    assert close(at(20, -1.5), red) and close(at(-1.5, 5), red)  # the band: above it and beside it
    assert close(at(-1.5, 30), blue) and close(at(20, 41.5), blue)  # the border's colour fills the bleed
    assert close(at(20, 20), (255, 255, 255))  # inside stays as drawn
