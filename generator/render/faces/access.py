"""Accessibility preflight: can everyone at the table read and tell apart what a face draws?

Four rules, each measured from the resolved faces and the game's theme, never guessed:
  * contrast: every text, track number and icon against the colour drawn behind it, WCAG 2.x:
    text at least 4.5:1 below 14 pt and 3:1 at or above; icons (graphics) 3:1 (WCAG 1.4.11);
  * size: text read across the table at least 7 pt; an element marked `fine: true` (fine print) 6 pt;
  * colour: the sets the theme declares players tell apart by colour (`theme.access.told_apart`:
    suits, fleets, roles) stay CIEDE2000 >= 10 apart under protanopia, deuteranopia and tritanopia
    (Machado 2009, `render.faces.vision`), or each entry carries the non-colour cue the data names;
  * backs: piles the rules lay face down side by side (`theme.access.face_down_side_by_side`)
    have different backs, and backs whose colours a colour-blind player cannot tell apart
    differ by a word or a symbol too.
A layout may waive contrast or size only with a written reason (`waive: {contrast: "..."}`),
which `pnp show GAME` lists. Lengths are millimetres, y down, as in the layouts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from generator.checks import Check
from generator.errors import DataError, Location
from generator.model import Component, Game, Item
from generator.project import Project
from generator.render.base.units import MM
from generator.render.faces.layout import Element, Face, Layout, back_layout
from generator.render.faces.preflight import Region, drawn_shapes
from generator.render.faces.text import bold_of, fit_line, inline_names, set_text, shrink_floor
from generator.render.faces.vision import DEFICIENCIES, closest_apart, contrast

if TYPE_CHECKING:
    from generator.render.faces.fit import PrintableSide

TEXT_MIN_PT, FINE_MIN_PT = 7.0, 6.0
LARGE_PT = 14.0  # at or above: large text, 3:1 is enough
TEXT_CONTRAST, LARGE_CONTRAST, GRAPHIC_CONTRAST = 4.5, 3.0, 3.0
COLOUR_APART = 10.0  # CIEDE2000
STOCK = "#ffffff"  # what shows where nothing is drawn: the card stock
Point = tuple[float, float]


@dataclass(frozen=True)
class Finding:
    """One element of one face breaking one rule: what was measured and the limit it misses."""

    rule: str  # "contrast" or "size"
    element: str
    value: float  # the measured number (lower is worse)
    measured: str
    limit: str


# -- what a face draws, and what lies behind a point ---------------------------------------------------


@dataclass(frozen=True)
class _Painter:
    """What one element paints, measured once per face: `behind` asks it at many points.

    kind: "all" (a bleed rect: everywhere), "region" (a rect, maybe rounded), "disc" (a circle),
    "boxes" (an icon's drawn shapes, by their bounding boxes), "image" (unknown colour inside its
    box) or "none" (paints no fill)."""

    kind: str
    colour: str = ""
    mirror: bool = False
    region: Region | None = None
    disc: tuple[float, float, float] = (0.0, 0.0, 0.0)
    boxes: tuple[tuple[float, float, float, float], ...] = ()  # left, top, right, bottom

    def paints(self, x: float, y: float, width: float, height: float) -> bool:
        """Whether the element paints the point (its rotated copy too when mirrored)."""
        kind = self.kind
        if kind == "all":
            return True
        points = ((x, y), (width - x, height - y)) if self.mirror else ((x, y),)
        if kind == "region":
            assert self.region is not None
            return any(self.region.outside(px, py) <= 0 for px, py in points)
        if kind == "disc":
            cx, cy, r = self.disc
            return any((px - cx) ** 2 + (py - cy) ** 2 <= r * r for px, py in points)
        if kind in ("boxes", "image"):  # an icon's shapes already hold their mirrored copies
            return any(left <= x <= right and top <= y <= bottom for left, top, right, bottom in self.boxes)
        return False


def _painter(element: Element, face: Face) -> _Painter:
    kind = element.type
    mirror = bool(element.get("mirror"))
    if kind == "image":
        left, top = element.get("x"), element.get("y")
        return _Painter("image", boxes=((left, top, left + element.get("w"), top + element.get("h")),))
    if kind == "rect" and element.get("fill") != "none":
        if element.get("bleed"):
            return _Painter("all", str(element.get("fill")))
        left, top = element.get("x"), element.get("y")
        w = element.get("w") if element.get("w") is not None else face.width - 2 * left
        h = element.get("h") if element.get("h") is not None else face.height - 2 * top
        return _Painter("region", str(element.get("fill")), mirror,
                        region=Region("", left, top, left + w, top + h, element.get("radius")))
    if kind == "circle" and element.get("fill") != "none":
        return _Painter("disc", str(element.get("fill")), mirror, disc=(element.get("x"), element.get("y"), element.get("r")))
    if kind == "icon":
        boxes = []
        for shape in drawn_shapes(element, face):
            xs, ys = [p[0] for p in shape.points], [p[1] for p in shape.points]
            boxes.append((min(xs), min(ys), max(xs), max(ys)))
        return _Painter("boxes", str(element.get("colour")), boxes=tuple(boxes))
    return _Painter("none")


def _painters(face: Face) -> list[_Painter]:
    return [_painter(element, face) for element in face.elements]


def behind(face: Face, index: int, x: float, y: float, painters: list[_Painter] | None = None) -> str | None:
    """The colour drawn under the point by the elements before `index`; None under an image (unknown).
    `painters`: the face's `_painters`, when the caller asks about many points."""
    painters = _painters(face) if painters is None else painters
    for painter in reversed(painters[:index]):
        if painter.paints(x, y, face.width, face.height):
            return None if painter.kind == "image" else painter.colour
    return STOCK


def _samples(points: Iterable[Point]) -> list[Point]:
    """Where to look under a drawn box: its centre and four points halfway to its corners."""
    corners = list(points)
    cx = sum(p[0] for p in corners) / len(corners)
    cy = sum(p[1] for p in corners) / len(corners)
    return [(cx, cy), *(((px + cx) / 2, (py + cy) / 2) for px, py in corners)]


def text_size(element: Element) -> float | None:
    """The size in points the renderer sets this text at (after shrinking to fit); None: no text."""
    if element.type == "track":
        return float(element.get("size"))
    text = element.get("text")
    if not text:
        return None
    font = element.get("font")
    if element.type == "text":
        size = element.get("size")
        if element.get("max_width") is not None:
            size, _ = fit_line(text, font, size, shrink_floor(element), element.get("max_width") * MM)
        return float(size)
    setting = set_text(text, font, element.get("bold_font") or bold_of(font), element.get("size"),
                       shrink_floor(element), element.get("leading"), element.get("w") * MM, element.get("h") * MM,
                       inline_names(element))
    return float(setting.size)


def face_findings(face: Face) -> list[Finding]:
    """Every contrast and size finding on one face, the worst sample of each element."""
    found = []
    painters = _painters(face)
    for index, element in enumerate(face.elements):
        if element.type not in ("text", "textbox", "track", "icon", "pips"):
            continue
        size = None if element.type in ("icon", "pips") else text_size(element)
        if element.type in ("text", "textbox") and size is None:
            continue
        if size is not None:
            least = FINE_MIN_PT if element.get("fine") else TEXT_MIN_PT
            if size < least - 1e-9:
                found.append(Finding("size", element.name, size, f"{size:g} pt",
                                     f">= {least:g} pt" + (" (fine print)" if element.get("fine") else
                                                           " (or mark it `fine: true`: >= 6 pt)")))
        worst = _worst_contrast(face, index, element, painters)
        if worst is None:
            continue
        ratio, ink, ground = worst
        need = GRAPHIC_CONTRAST if size is None else LARGE_CONTRAST if size >= LARGE_PT else TEXT_CONTRAST
        if ratio < need - 1e-9:
            what = "icon" if size is None else f"{size:g} pt text"
            found.append(Finding("contrast", element.name, ratio, f"{ratio:.2f}:1 ({ink} on {ground})",
                                 f">= {need:g}:1 for {what} (WCAG 2.x)"))
    return found


def _worst_contrast(face: Face, index: int, element: Element, painters: list[_Painter]
                    ) -> tuple[float, str, str] | None:
    ink = str(element.get("colour"))
    if element.type == "track":
        fill = element.get("fill")
        x, y, w, h = element.get("x"), element.get("y"), element.get("w"), element.get("h")
        ground = fill if fill != "none" else behind(face, index, x + w / 2, y + h / 2, painters)
        return None if ground is None else (contrast(ink, ground), ink, ground)
    worst: tuple[float, str, str] | None = None
    for shape in drawn_shapes(element, face):
        for x, y in _samples(shape.points):
            ground = behind(face, index, x, y, painters)
            if ground is None:
                continue
            ratio = contrast(ink, ground)
            if worst is None or ratio < worst[0]:
                worst = (ratio, ink, ground)
    return worst


# -- `pnp validate` ------------------------------------------------------------------------------------


def access_checks(game: Game, project: Project, sides: list[PrintableSide] | None = None) -> list[Check]:
    """Every accessibility check of a game: each printable side's faces, then the theme's sets and backs."""
    from generator.render.faces.fit import printable_sides

    checks: list[Check] = []
    for side in printable_sides(game, project) if sides is None else sides:
        checks.extend(side_access(side))
    return checks + game_access(game, project)


def side_access(side: PrintableSide) -> list[Check]:
    """The contrast and size checks of one component side: one line per element and rule that fails
    (its layout line, the worst card, the measured value and the limit), or one passing line."""
    if side.layout is None or side.error is not None:
        return []
    layout, component = side.layout, side.component
    name = f"access {layout.name} ({component.id} {side.side})"
    worst: dict[tuple[str, str], tuple[Finding, Item]] = {}
    failing: dict[tuple[str, str], int] = {}
    by_face: dict[int, list[Finding]] = {}
    for item, face in side.faces:
        if id(face) not in by_face:
            by_face[id(face)] = face_findings(face)
        for finding in by_face[id(face)]:
            key = (finding.element.split("[")[0], finding.rule)
            failing[key] = failing.get(key, 0) + 1
            if key not in worst or finding.value < worst[key][0].value:
                worst[key] = (finding, item)
    checks = [Check(f"{name} {rule} waived", "a written reason", reason, True, where)
              for rule, (reason, where) in sorted(layout.waivers.items())]
    failures = []
    for (base, rule), (finding, item) in worst.items():
        if rule in layout.waivers:
            continue
        count = failing[(base, rule)]
        failures.append(Check(f"{name} element '{base}' {rule} on {item.key}", finding.limit,
                              finding.measured + (f" (and {count - 1} more faces)" if count > 1 else ""),
                              False, _element_line(layout, base)))
    if not failures:
        rules = [rule for rule in ("contrast", "size") if rule not in layout.waivers]
        if rules:
            checks.append(Check(f"{name} {' and '.join(rules)}", "text >= 7 pt (fine print 6), contrast WCAG 2.x",
                                f"{len(side.faces)} faces checked", True, layout.where))
    return checks + failures


def waivers(game: Game, project: Project) -> list[tuple[str, str, str, Location]]:
    """Every rule a layout of the game waives: (layout, rule, the written reason, its line), for `pnp show`."""
    from generator.render.faces.fit import side_names
    from generator.render.faces.renderer import renderer

    library = renderer(project).library
    found = {}
    for component, _, layout_name in side_names(game):
        for rule, (reason, where) in library.get(layout_name, component.location).waivers.items():
            found[(layout_name, rule)] = (layout_name, rule, reason, where)
    return [found[key] for key in sorted(found)]


def _element_line(layout: Layout, base: str) -> Location:
    return next((e.where for e in layout.elements if e.name == base), layout.where)


# -- the theme: sets told apart by colour, and backs of piles side by side ------------------------------


def game_access(game: Game, project: Project) -> list[Check]:
    """The colour sets and the side-by-side backs the theme declares (`theme.access`)."""
    declared = game.theme.get("access")
    if declared is None:
        return []
    if not isinstance(declared, Mapping):
        raise DataError("theme.access must be a mapping (told_apart:, face_down_side_by_side:)",
                        game.theme_location("access"))
    checks = []
    for key in declared:
        if key not in ("told_apart", "face_down_side_by_side"):
            raise DataError(f"theme.access: unknown key {key!r} (known keys: told_apart, face_down_side_by_side)",
                            game.theme_location(f"access.{key}"))
    told = declared.get("told_apart", {})
    if not isinstance(told, Mapping):
        raise DataError("theme.access.told_apart must map a theme set (suits) to the field that is its non-colour "
                        "cue (symbol), or to none", game.theme_location("access.told_apart"))
    for set_name, cue in told.items():
        checks.extend(colour_set_checks(game, str(set_name), None if cue in (None, "none") else str(cue)))
    groups = declared.get("face_down_side_by_side", ())
    if not isinstance(groups, (list, tuple)):
        raise DataError("theme.access.face_down_side_by_side must be a list of pile lists ([port, exposed-port])",
                        game.theme_location("access.face_down_side_by_side"))
    for index, group in enumerate(groups):
        checks.extend(back_checks(game, project, group, f"access.face_down_side_by_side.{index}"))
    return checks


def colour_set_checks(game: Game, set_name: str, cue: str | None) -> list[Check]:
    """Each pair of a theme set's colours stays CIEDE2000 >= 10 apart under each dichromacy, or differs by `cue`."""
    entries = game.theme.get(set_name)
    path = f"access.told_apart.{set_name}"
    if not isinstance(entries, Mapping) or not all(isinstance(e, Mapping) and "colour" in e for e in entries.values()):
        raise DataError(f"theme.{path}: theme.{set_name} must be a mapping of entries with a 'colour'",
                        game.theme_location(path))
    name = f"access colour {set_name}"
    expected = (f"CIEDE2000 >= {COLOUR_APART:g} under {', '.join(DEFICIENCIES)} (Machado 2009)"
                + (f", or a different '{cue}'" if cue else ""))
    checks = []
    carried = []
    pairs = list(combinations(entries.items(), 2))
    measured = closest_apart((str(a["colour"]), str(b["colour"])) for (_, a), (_, b) in pairs)
    for (first, a), (second, b) in pairs:
        apart, kind = measured[(str(a["colour"]), str(b["colour"]))]
        if apart >= COLOUR_APART:
            continue
        if cue is not None and a.get(cue) is not None and a.get(cue) != b.get(cue):
            carried.append(f"{first}/{second} {apart:.1f} under {kind}, told by {cue}")
            continue
        checks.append(Check(f"{name} {first} and {second} apart", expected,
                            f"{apart:.1f} under {kind} ({a['colour']} and {b['colour']})", False,
                            game.theme_location(f"{set_name}.{second}.colour")))
    if not checks:
        checks.append(Check(name, expected, f"{len(entries)} colours apart"
                            + (f" ({'; '.join(carried)})" if carried else ""), True, game.theme_location(path)))
    return checks


def _pile(game: Game, entry: Any, where: Location) -> tuple[str, Component, list[Item]]:
    """A declared pile: a component id, or {component: id, where: {field: value}}."""
    if isinstance(entry, str):
        component_id, conditions = entry, {}
    elif isinstance(entry, Mapping) and isinstance(entry.get("component"), str):
        component_id, conditions = entry["component"], dict(entry.get("where") or {})
    else:
        raise DataError(f"a pile must be a component id or {{component: id, where: {{field: value}}}}, got {entry!r}",
                        where)
    if not game.has_component(component_id):
        raise DataError(f"pile names no component {component_id!r} (components: "
                        f"{', '.join(c.id for c in game.components)})", where)
    component = game.component(component_id)
    items = [item for item in component.items if all(item.fields.get(k) == v for k, v in conditions.items())]
    label = component_id + "".join(f" {k}={v}" for k, v in conditions.items())
    if not items:
        raise DataError(f"pile {label} holds no item", where)
    return label, component, items


def back_checks(game: Game, project: Project, group: Any, path: str) -> list[Check]:
    """Piles laid face down side by side: no back alike, and colours that blur carry a word or symbol too."""
    from generator.render.faces.renderer import renderer

    where = game.theme_location(path)
    if not isinstance(group, (list, tuple)) or len(group) < 2:
        raise DataError(f"theme.{path} must list two or more piles", where)
    faces = renderer(project)
    piles = []
    for entry in group:
        label, component, items = _pile(game, entry, where)
        if back_layout(component) is None:
            raise DataError(f"pile {label} has no back to lie face down on", where)
        backs = {faces.face(game, component, item, "back") for item in items}
        piles.append((label, backs))
    name = f"access backs {' / '.join(label for label, _ in piles)}"
    checks = []
    for (first, first_backs), (second, second_backs) in combinations(piles, 2):
        problem = _backs_problem(first_backs, second_backs)
        if problem:
            checks.append(Check(f"{name}: {first} and {second} tell apart face down",
                                "different backs, by more than colour where colours blur", problem, False, where))
    if not checks:
        checks.append(Check(name, "different backs, by more than colour where colours blur",
                            f"{len(piles)} piles told apart", True, where))
    return checks


def _backs_problem(first: set[Face], second: set[Face]) -> str | None:
    if first & second:
        return "the same back on both piles"
    measured = closest_apart((_ground(a), _ground(b)) for a in first for b in second)
    for a in first:
        for b in second:
            ground_a, ground_b = _ground(a), _ground(b)
            apart, kind = measured[(ground_a, ground_b)]
            if apart < COLOUR_APART and _marks(a) == _marks(b):
                return (f"backs {ground_a} and {ground_b} only {apart:.1f} apart (CIEDE2000) under {kind}, "
                        f"limit {COLOUR_APART:g}, and no word or symbol differs")
    return None


def _ground(face: Face) -> str:
    """A back's main colour: what fills it first (its background)."""
    for element in face.elements:
        if element.type in ("rect", "circle") and element.get("fill") != "none":
            return str(element.get("fill"))
    return STOCK


def _marks(face: Face) -> frozenset[tuple[str, str]]:
    """What a back says apart from colour: its words and its symbols."""
    return frozenset(_mark_values(face.elements))


def _mark_values(elements: Iterable[Element]) -> Iterator[tuple[str, str]]:
    for element in elements:
        if element.type in ("text", "textbox") and element.get("text"):
            yield ("text", str(element.get("text")))
        elif element.type in ("icon", "pips"):
            yield ("icon", element.get("icon").name)
