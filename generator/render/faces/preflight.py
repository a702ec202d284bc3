"""Preflight: does every text and icon of a face stay inside its safe zone and its frame?

A print shop cuts within a millimetre or two of the trim line, so anything that
must stay readable (text, icons, pips, tracks) keeps inside a safe zone: the
trim inset by the component's `safe` (3 mm by default; see `model.Component`).
A layout may also declare a frame (a rect or circle with `frame: true`); then
those elements must stay inside the frame's inner edge, never on its stroke.

Geometry is measured, not guessed: text with the same fitting and widths the
renderer uses (`render.text`, `render.glyphs`, the font's own cap height and
descent), icons by the extent of their actual path art (`faces.icons.Icon.extent`), a
mirrored element with its rotated copy. All lengths are millimetres, y down
from the face's top-left corner, like the layouts.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.checks import Check
from generator.model import Component, Game, Item
from generator.project import Project
from generator.render.base.units import MM
from generator.render.faces.draw import ASCENT, pip_centres
from generator.render.faces.glyphs import text_width
from generator.render.faces.icons import Icon
from generator.render.faces.layout import Element, Face, Layout
from generator.render.faces.text import bold_of, fit_line, inline_names, set_text

if TYPE_CHECKING:
    from generator.render.faces.fit import PrintableSide

CHECKED_TYPES = ("text", "textbox", "icon", "pips", "track")
DESCENDERS = frozenset("gjpqyQ,;()[]{}|/@_")
INLINE_ICON_TOP, INLINE_ICON_BELOW = 0.32 + 0.475, 0.475 - 0.32  # ems: an inline icon is 0.95 em, centred 0.32 em up
Point = tuple[float, float]


@dataclass(frozen=True)
class Shape:
    """What one element draws, for measuring: the points of its drawn box, or a disc (an icon on a round face)."""

    points: tuple[Point, ...]
    disc: tuple[float, float, float] | None = None  # centre x, y and radius of the icon's art


@dataclass(frozen=True)
class Region:
    """An area elements must stay inside: a rounded rectangle (radius 0: sharp) or a circle."""

    label: str
    left: float
    top: float
    right: float
    bottom: float
    radius: float = 0.0
    round: bool = False  # a circle (left..right is its diameter)

    def outside(self, x: float, y: float) -> float:
        """Signed distance of a point outside the region (negative inside), in mm."""
        cx, cy = (self.left + self.right) / 2, (self.top + self.bottom) / 2
        if self.round:
            return math.hypot(x - cx, y - cy) - (self.right - self.left) / 2
        r = max(0.0, min(self.radius, (self.right - self.left) / 2, (self.bottom - self.top) / 2))
        qx = abs(x - cx) - ((self.right - self.left) / 2 - r)
        qy = abs(y - cy) - ((self.bottom - self.top) / 2 - r)
        return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r

    def overshoot(self, shape: Shape) -> float:
        """How far the shape reaches out of the region (<= 0: inside)."""
        if shape.disc is not None and self.round:
            x, y, radius = shape.disc
            return self.outside(x, y) + radius
        return max(self.outside(x, y) for x, y in shape.points)

    def describe(self) -> str:
        if self.round:
            return f"{self.label} (circle of {(self.right - self.left) / 2:g} mm radius)"
        return (f"{self.label} (x {self.left:g}..{self.right:g}, y {self.top:g}..{self.bottom:g} mm"
                + (f", corners {self.radius:g} mm)" if self.radius > 0 else ")"))


@dataclass(frozen=True)
class Problem:
    """One element of one face out of one region."""

    element: str
    kind: str
    region: Region
    by: float  # mm past the region's edge


def safe_region(face: Face, safe: float) -> Region:
    """The face's trim inset by `safe` mm (a round face: a smaller circle)."""
    label = f"safe zone ({safe:g} mm inside the trim)"
    if face.shape == "circle":
        return Region(label, safe, safe, face.width - safe, face.height - safe, round=True)
    return Region(label, safe, safe, face.width - safe, face.height - safe, max(0.0, face.corner - safe))


def frame_regions(face: Face) -> list[Region]:
    """The inner edges of the frames the layout declares (`frame: true` on a rect or circle)."""
    regions = []
    for element in face.elements:
        if not element.get("frame"):
            continue
        half = element.get("stroke_width") / MM / 2 if element.get("stroke") != "none" else 0.0
        x, y = element.get("x"), element.get("y")
        label = f"inner edge of frame '{element.name}'"
        if element.type == "circle":
            r = element.get("r") - half
            regions.append(Region(label, x - r, y - r, x + r, y + r, round=True))
        else:
            w = element.get("w") if element.get("w") is not None else face.width - 2 * x
            h = element.get("h") if element.get("h") is not None else face.height - 2 * y
            regions.append(Region(label, x + half, y + half, x + w - half, y + h - half,
                                  max(0.0, element.get("radius") - half)))
    return regions


class Measurements:
    """What preflight measured during one validation, so each distinct element is measured once.

    An element's problem depends only on the element itself and the face's regions (its size,
    shape, safe zone and frames); on a deck, most elements repeat from face to face.
    """

    def __init__(self) -> None:
        self.geometries: dict[tuple[object, ...], int] = {}  # face geometry -> index into `regions`
        self.regions: list[list[Region]] = []
        self.problems: dict[tuple[Element, int], Problem | None] = {}


def problems(face: Face, safe: float, measured: Measurements | None = None) -> list[Problem]:
    """Every checked element that reaches out of the safe zone or a declared frame, worst region first."""
    measured = measured or Measurements()
    frames = tuple(element for element in face.elements if element.get("frame"))
    geometry = (face.width, face.height, face.shape, face.corner, safe, frames)
    index = measured.geometries.get(geometry)
    if index is None:
        index = measured.geometries[geometry] = len(measured.regions)
        measured.regions.append([safe_region(face, safe), *frame_regions(face)])
    regions = measured.regions[index]
    found = []
    for element in face.elements:
        if element.type not in CHECKED_TYPES:
            continue
        key = (element, index)
        if key in measured.problems:
            problem = measured.problems[key]
        else:
            problem = measured.problems[key] = _problem(element, face, regions)
        if problem is not None:
            found.append(problem)
    return found


def _problem(element: Element, face: Face, regions: list[Region]) -> Problem | None:
    shapes = list(drawn_shapes(element, face))
    if not shapes:
        return None
    worst = max(((max(region.overshoot(s) for s in shapes), region) for region in regions),
                key=lambda pair: pair[0])
    if worst[0] > 1e-6:
        return Problem(element.name, element.type, worst[1], worst[0])
    return None


# -- measuring what an element draws --------------------------------------------------------------------


def drawn_shapes(element: Element, face: Face) -> Iterator[Shape]:
    """The shapes an element draws on the face (and its rotated copy when mirrored)."""
    shapes = list(_shapes(element))
    yield from shapes
    if element.get("mirror"):
        for shape in shapes:
            disc = shape.disc
            yield Shape(tuple((face.width - x, face.height - y) for x, y in shape.points),
                        (face.width - disc[0], face.height - disc[1], disc[2]) if disc else None)


def _shapes(element: Element) -> Iterator[Shape]:
    kind = element.type
    if kind == "text":
        box = _text_box(element)
        if box:
            yield box
    elif kind == "textbox":
        box = _textbox_box(element)
        if box:
            yield box
    elif kind == "icon":
        yield _icon_shape(element.get("icon"), element.get("x"), element.get("y"), element.get("size"),
                          element.get("rotate"))
    elif kind == "pips":
        yield from _pip_shapes(element)
    elif kind == "track":
        x, y, w, h = element.get("x"), element.get("y"), element.get("w"), element.get("h")
        yield Shape(((x, y), (x + w, y), (x + w, y + h), (x, y + h)))


def _corners(left: float, top: float, right: float, bottom: float) -> tuple[Point, ...]:
    return ((left, top), (right, top), (right, bottom), (left, bottom))


def _font_extent(font: str, text: str) -> tuple[float, float]:
    """Ems above and below the baseline that `text` inks: cap height (or ascent with lower case), descent."""
    from reportlab.pdfbase.pdfmetrics import getFont

    face = getFont(font).face
    above = (face.ascent if any(ch.islower() for ch in text) else face.capHeight) / 1000
    below = -face.descent / 1000 if any(ch in DESCENDERS for ch in text) else 0.0
    return above, below


def _text_box(element: Element) -> Shape | None:
    text = element.get("text")
    if not text:
        return None
    font, size = element.get("font"), element.get("size")
    if element.get("max_width") is not None:
        size, _ = fit_line(text, font, size, element.get("min_size") or size, element.get("max_width") * MM)
    width = text_width(text, font, size) / MM
    align = element.get("align")
    left = -width if align == "right" else -width / 2 if align in ("centre", "center") else 0.0
    above, below = _font_extent(font, text)
    corners = _corners(left, -above * size / MM, left + width, below * size / MM)
    return Shape(_placed(corners, element.get("x"), element.get("y"), element.get("rotate")))


def _textbox_box(element: Element) -> Shape | None:
    text = element.get("text")
    if not text:
        return None
    font = element.get("font")
    width, height = element.get("w") * MM, element.get("h") * MM
    setting = set_text(text, font, element.get("bold_font") or bold_of(font), element.get("size"),
                       element.get("min_size") or element.get("size"), element.get("leading"), width, height,
                       inline_names(element))
    lines = [line for line in setting.lines if line.words]
    if not lines:
        return None
    block = setting.size + setting.leading * (len(setting.lines) - 1)
    offset = {"middle": (height - block) / 2, "bottom": height - block}.get(element.get("valign"), 0.0)
    above, below = _font_extent(font, text)
    if any(piece.icon for line in lines for word in line.words for piece in word):
        above, below = max(above, INLINE_ICON_TOP), max(below, INLINE_ICON_BELOW)  # as `draw._textbox` places them
    first_baseline = offset + setting.size * ASCENT
    last_baseline = first_baseline + setting.leading * (len(setting.lines) - 1)
    top, bottom = first_baseline - above * setting.size, last_baseline + below * setting.size
    align = element.get("align")
    widest = max(line.width for line in lines)
    left = {"right": width - widest, "centre": (width - widest) / 2, "center": (width - widest) / 2}.get(align, 0.0)
    x, y = element.get("x"), element.get("y")
    return Shape(_corners(x + left / MM, y + top / MM, x + (left + widest) / MM, y + bottom / MM))


def _icon_shape(icon: Icon, x: float, y: float, size: float, rotate: float) -> Shape:
    left, bottom, right, top, reach = icon.extent()
    scale = size / 100.0
    corners = _corners(left * scale, -top * scale, right * scale, -bottom * scale)
    return Shape(_placed(corners, x, y, rotate), (x, y, reach * scale))


def _pip_shapes(element: Element) -> Iterator[Shape]:
    """Each pip where `draw` puts it (`pip_centres`), so preflight measures what is printed."""
    for cx, cy in pip_centres(element):
        yield _icon_shape(element.get("icon"), cx, cy, element.get("size"), 0.0)


def _placed(points: Iterable[Point], x: float, y: float, rotate: float) -> tuple[Point, ...]:
    """Points relative to an anchor, turned `rotate` degrees clockwise (as layouts rotate) and moved to (x, y)."""
    turn = math.radians(rotate)
    cos, sin = math.cos(turn), math.sin(turn)
    return tuple((x + px * cos - py * sin, y + px * sin + py * cos) for px, py in points)


# -- `pnp validate` ------------------------------------------------------------------------------------


def preflight_checks(game: Game, project: Project, sides: list[PrintableSide] | None = None) -> list[Check]:
    """One check per printable component side: its text and icons keep inside the safe zone and frames.

    A failure names the layout's file:line of the element, the worst face, how far
    it reaches out and how many faces do; a layout that does not resolve is left
    to the layout checks (`render.fit`), which report it.
    """
    from generator.render.faces.fit import printable_sides

    checks: list[Check] = []
    for side in printable_sides(game, project) if sides is None else sides:
        checks.extend(side_preflight(side))
    return checks


def side_preflight(side: PrintableSide) -> list[Check]:
    """The preflight checks of one component side; none for a side whose faces did not resolve."""
    if side.layout is None or side.error is not None:
        return []
    return _side_checks(side.component, side.side, side.layout, list(side.faces))


def _side_checks(component: Component, side: str, layout: Layout, resolved: list[tuple[Item, Face]]) -> list[Check]:
    name = f"preflight {layout.name} ({component.id} {side})"
    worst: dict[str, tuple[Problem, Item]] = {}
    faces_failing: dict[str, int] = {}
    measured = Measurements()
    by_face: dict[int, list[Problem]] = {}  # items that read the same share one face: check it once
    for item, face in resolved:
        if id(face) not in by_face:
            by_face[id(face)] = problems(face, component.safe, measured)
        for problem in by_face[id(face)]:
            base = problem.element.split("[")[0]
            faces_failing[base] = faces_failing.get(base, 0) + 1
            if base not in worst or problem.by > worst[base][0].by:
                worst[base] = (problem, item)
    if not worst:
        return [Check(name, f"text and icons inside the {component.safe:g} mm safe zone and declared frames",
                      f"{len(resolved)} faces checked", True, layout.where)]
    checks = []
    for base, (problem, item) in worst.items():
        where = next((e.where for e in layout.elements if e.name == base), layout.where)
        count = faces_failing[base]
        checks.append(Check(f"{name} element '{base}' inside", f"inside the {problem.region.describe()}",
                            f"{problem.kind} '{problem.element}' reaches {problem.by:.2f} mm past the "
                            f"{problem.region.label} on {item.key}"
                            + (f" (and {count - 1} more faces)" if count > 1 else ""), False, where))
    return checks
