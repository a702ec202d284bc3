"""Layout checks for `pnp validate`: layouts exist and parse, templates render, text fits.

Text that does not fit is a failed check, never a silent overflow: each text
element is measured with the same typesetter that draws it (`render.text`),
at its size, shrinking down to its `min_size` if it has one. A failed check
carries the layout file:line to fix.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.checks import Check
from generator.errors import DataError, shown
from generator.model import Component, Game, Item
from generator.project import Project
from generator.render.base.project_fonts import ProjectFont
from generator.render.base.sandbox import where_data_lacks
from generator.render.base.units import DEFAULT_BLEED, pt
from generator.render.faces.draw import image_placement
from generator.render.faces.glyphs import describe, missing
from generator.render.faces.layout import Element, Face, Layout, back_layout
from generator.render.faces.renderer import renderer
from generator.render.faces.text import (
    bold_of,
    fit_line,
    icon_names,
    icon_problem,
    inline_names,
    set_text,
    shrink_floor,
    unknown_icons,
)


@dataclass(frozen=True)
class PrintableSide:
    """One printable side of a component with its layout and every item's resolved face, or the
    error that stopped them resolving: resolved once per validation, read by the layout and
    preflight checks alike."""

    component: Component
    side: str
    layout_name: str
    layout: Layout | None = None
    faces: tuple[tuple[Item, Face], ...] = ()
    error: DataError | None = None
    icons: frozenset[str] = frozenset()  # the icon names the layout's game has (`faces.icons.IconSet`)


def printable_sides(game: Game, project: Project) -> list[PrintableSide]:
    """Every printable component side of the game, each with its faces resolved for every item."""
    return [printable_side(game, project, component, side, layout_name)
            for component, side, layout_name in side_names(game)]


def side_names(game: Game) -> list[tuple[Component, str, str]]:
    """Every printable component side of the game: (component, "front" or "back", its layout's name)."""
    return [(component, side, layout_name) for component in game.components if component.printable
            for side, layout_name in (("front", component.front), ("back", back_layout(component)))
            if layout_name is not None]


def printable_side(game: Game, project: Project, component: Component, side: str, layout_name: str) -> PrintableSide:
    """One component side with every item's face resolved, or the error that stopped them resolving."""
    faces = renderer(project)
    try:
        layout = faces.library.get(layout_name, component.location)
        resolved = tuple((item, faces.face(game, component, item, side)) for item in component.items)
        icons = faces.library.icons(layout_name.split("/")[0]).names
    except DataError as exc:
        lacking = where_data_lacks(game, exc)  # a game.yaml cut short: its line, not the layout's
        if lacking is not None:
            exc = DataError(f"{exc.message}, which {exc.location} reads (is the file cut short?)", lacking)
        return PrintableSide(component, side, layout_name, error=exc)
    return PrintableSide(component, side, layout_name, layout, resolved, icons=icons)


def layout_checks(game: Game, project: Project, sides: list[PrintableSide] | None = None) -> list[Check]:
    """One check per component side (layout loads and renders for every item) and per text that fails to fit."""
    checks: list[Check] = []
    for side in printable_sides(game, project) if sides is None else sides:
        checks.extend(side_checks(side))
    return checks


def side_checks(side: PrintableSide) -> list[Check]:
    """The layout checks of one component side (see `layout_checks`)."""
    name = f"layout {side.layout_name} ({side.component.id} {side.side})"
    if side.error is not None or side.layout is None:
        error = side.error or DataError("no layout", side.component.location)
        return [Check(name, "loads and renders for every item", error.message, False, error.location, broken=True)]
    layout, resolved = side.layout, list(side.faces)
    checks = [Check(name, "loads and renders for every item", f"{len(resolved)} items", True,
                    layout.where)]
    misfits: dict[str, list[tuple[Item, str]]] = {}
    listed: dict[str, set[int]] = {}  # ids of the items already listed per element
    measured: dict[int, list[tuple[str, str]]] = {}  # items that read the same share one face: measure it once
    for item, face in resolved:
        if id(face) not in measured:
            measured[id(face)] = [(e.name, problem) for e in face.elements if (problem := _misfit(e, face))]
        for element_name, problem in measured[id(face)]:
            if id(item) not in listed.setdefault(element_name, set()):
                listed[element_name].add(id(item))
                misfits.setdefault(element_name, []).append((item, problem))
    failures: list[Check] = []
    for element_name, found in misfits.items():
        box = next((e.values.get("text", e.values["type"]).where
                    for e in layout.elements if e.name == element_name), layout.where)
        check_name = f"{name} element '{element_name}' fits"
        if len(found) == len(resolved):  # every card overflows: the box is what to fix
            item, problem = found[0]
            failures.append(Check(check_name, "fits its face", f"{problem} on {item.key} ({item.location}) "
                                  "and every other", False, box))
        else:  # some cards overflow: their texts are what to fix
            failures.extend(Check(check_name, "fits its face", f"{problem} on {item.key} (box at {box})", False,
                                  item.location) for item, problem in found)
    checks.extend(failures)
    checks.extend(_glyph_checks(name, resolved))
    checks.extend(resolution_checks(name, layout, resolved))
    checks.extend(_icon_checks(name, layout, resolved, side.icons))
    return checks


MM_PER_INCH = 25.4
SHARP_DPI = 300  # print shops ask for 300 dpi at printed size
LEAST_DPI = 150  # below this, art prints visibly blocky


def resolution_checks(name: str, layout: Layout, resolved: list[tuple[Item, Face]]) -> list[Check]:
    """Raster art's effective resolution at its printed size (full-bleed art measured over the bleed it
    covers): a warning below 300 dpi, a failure below 150; one line per element, for its lowest."""
    lowest: dict[str, tuple[float, Item, Element, float, float]] = {}
    seen: set[int] = set()
    for item, face in resolved:
        if id(face) in seen:
            continue
        seen.add(id(face))
        for element in face.elements:
            picture = element.get("path") if element.type == "image" else None
            if picture is None or picture.vector:
                continue
            (_, _, drawn_w, drawn_h), _ = image_placement(element, face, DEFAULT_BLEED)
            if drawn_w <= 0 or drawn_h <= 0:
                continue
            dpi = min(picture.width / (drawn_w / MM_PER_INCH), picture.height / (drawn_h / MM_PER_INCH))
            base = element.name.split("[")[0]
            if base not in lowest or dpi < lowest[base][0]:
                lowest[base] = (dpi, item, element, drawn_w, drawn_h)
    checks = []
    for base, (dpi, item, element, drawn_w, drawn_h) in lowest.items():
        picture = element.get("path")
        source = next((e.values.get("path") for e in layout.elements if e.name == base), None)
        where = source.where if source is not None else layout.where
        need = f"{math.ceil(drawn_w / MM_PER_INCH * SHARP_DPI)} x {math.ceil(drawn_h / MM_PER_INCH * SHARP_DPI)} px"
        actual = (f"{picture.path} is {picture.width} x {picture.height} px printed at {drawn_w:.1f} x "
                  f"{drawn_h:.1f} mm: {dpi:.0f} dpi on {item.key}")
        check_name = f"{name} element '{base}' resolution"
        if dpi >= SHARP_DPI:
            checks.append(Check(check_name, f"at least {SHARP_DPI} dpi", actual, True, where))
        elif dpi >= LEAST_DPI:
            checks.append(Check(check_name, f"at least {SHARP_DPI} dpi (export it at {need} or more)", actual, True,
                                where, warning=True))
        else:
            checks.append(Check(check_name, f"at least {LEAST_DPI} dpi, {SHARP_DPI} to print sharp (export it at "
                                f"{need} or more)", actual, False, where))
    return checks


def _icon_checks(name: str, layout: object, resolved: list[tuple[Item, Face]], icons: frozenset[str]) -> list[Check]:
    """An inline `:icon:` that names no icon fails at the line that wrote it: the layout's text when the
    layout holds the token, else the item whose field brought it in; with the nearest names."""
    failures: list[Check] = []
    seen: set[tuple[str, str]] = set()
    sources = {e.name: e.values.get("text") for e in layout.elements}  # type: ignore[attr-defined]
    for item, face in resolved:
        for element in face.elements:
            if element.type not in ("text", "textbox"):
                continue
            source = sources.get(element.name)
            if element.type == "text":  # one line of plain letters: an icon there would print as ':coin:'
                known = [icon for icon in icon_names(element.get("text")) if icon in icons]
                if known and (element.name, "text") not in seen:
                    seen.add((element.name, "text"))
                    failures.append(Check(f"{name} element '{element.name}' icons", "inline icons only in textboxes",
                                          f"{item.key}: ':{known[0]}:' would print as letters in a one-line text "
                                          "element; make it a textbox", False,
                                          source.where if source is not None else item.location))
                continue
            for icon in unknown_icons(element.get("text"), inline_names(element)):
                in_layout = source is not None and f":{icon}" in str(source.raw)
                where = source.where if in_layout and source is not None else item.location
                if (str(where), icon) in seen:
                    continue
                seen.add((str(where), icon))
                failures.append(Check(f"{name} element '{element.name}' icons", "every inline icon is known",
                                      f"{item.key}: {icon_problem(icon, icons)}", False, where))
    return failures


def _glyph_checks(name: str, resolved: list[tuple[Item, Face]]) -> list[Check]:
    """Text its font cannot draw fails at the card's file:line, naming the card, the element and the
    character: no shipped font has it, or the project font the layout chose lacks it (the shipped
    fallback would draw it in another typeface)."""
    failures: list[Check] = []
    looked_up: dict[int, list[tuple[Element, list[str], str]]] = {}  # per shared face: texts with lost characters
    for item, face in resolved:
        if id(face) not in looked_up:
            looked_up[id(face)] = [(element, lost, lacking) for element in face.elements
                                   if element.type in ("text", "textbox") for lost, lacking in _lost(element)]
        for element, lost, lacking in looked_up[id(face)]:
            text = element.get("text")
            more = f" and {len(lost) - 3} more" if len(lost) > 3 else ""
            chars = ", ".join(describe(c) for c in lost[:3]) + more
            failures.append(Check(f"{name} element '{element.name}' can be drawn", "a glyph for every character",
                                  f"{item.key}: {shown(text)} has {chars}, which {lacking}",
                                  False, item.location))
    return failures


def _lost(element: Element) -> list[tuple[list[str], str]]:
    """Characters of a text element its fonts cannot draw, with who lacks them: no shipped font, or
    the chosen project font."""
    text, font = element.get("text"), element.get("font")
    fonts = [font]
    if element.type == "textbox" and "**" in text:
        fonts.append(element.get("bold_font") or bold_of(font))
    found = []
    shipped = [f for f in fonts if not isinstance(f, ProjectFont)]
    lost = missing(text, *shipped, fallback=True) if shipped else []
    if lost:
        found.append((lost, "no shipped font can draw"))
    for own in dict.fromkeys(f for f in fonts if isinstance(f, ProjectFont)):
        lacking = missing(text, own)
        if lacking:
            found.append((lacking, f"the font {own.stem!r} ({own.source}) lacks; choose a font that has it "
                                   "or change the text"))
    return found


def _misfit(element: Element, face: Face) -> str | None:
    """Why this text element does not fit, or None."""
    if element.type == "text" and element.get("max_width") is not None:
        text = element.get("text")
        size, fits = fit_line(text, element.get("font"), element.get("size"), shrink_floor(element),
                              pt(element.get("max_width")))
        if not fits:
            return f"{shown(text)} is wider than {element.get('max_width'):g} mm at {size:g} pt"
    elif element.type == "textbox":
        text = element.get("text")
        font = element.get("font")
        setting = set_text(text, font, element.get("bold_font") or bold_of(font), element.get("size"),
                           shrink_floor(element), element.get("leading"),
                           pt(element.get("w")), pt(element.get("h")), inline_names(element))
        if not setting.fits:
            return (f"text needs more than {element.get('w'):g} x {element.get('h'):g} mm even at "
                    f"{setting.size:g} pt ({len(setting.lines)} lines)")
    elif element.type in ("text", "icon"):
        return _outside(element, face)
    return None


def _outside(element: Element, face: Face) -> str | None:
    """Elements placed off the face are almost always typos in x/y."""
    x, y = element.get("x"), element.get("y")
    if not (-1 <= x <= face.width + 1 and -1 <= y <= face.height + 1):
        return f"placed at ({x:g}, {y:g}) mm, outside the {face.width:g} x {face.height:g} mm face"
    return None
