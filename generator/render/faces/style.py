"""Variants of the print files: design guides drawn over every face, and an ink-saving version.

`--guides` draws the trim (solid), the bleed edge (dashed) and the safe zone
(dotted) over every face in a colour no layout uses, so a designer sees what a
print shop will cut; `--ink-saver` turns the backgrounds a layout marks
`ink: background` white and thins the lines it marks `ink: frame`, for home
printers. Both work on resolved faces (`layout.Face`), so the sheets and PNG
drawings need no change, and both put a word in every file name (`-guides`,
`-inksaver`) so such a file is never mistaken for a print file.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from generator.model import Component, Game, Item
from generator.render.faces.layout import Element, Face
from generator.render.faces.renderer import FaceRenderer

GUIDES = "guides"  # the element type `draw` paints the guides with; not offered to layouts
INK_SAVER_PAPER = "#ffffff"
INK_SAVER_FRAME = 0.3  # points: a frame's line on an ink-saving print
LIGHT = 0.75  # lightness from which ink counts as light (it would vanish on white paper)


@dataclass(frozen=True)
class FaceStyle:
    """How print faces are varied for one build: guides over them (at this bleed, mm), ink saving."""

    guides: bool = False
    ink_saver: bool = False
    bleed: float = 3.0

    @property
    def plain(self) -> bool:
        return not (self.guides or self.ink_saver)

    def suffix(self) -> str:
        """The words a styled file's name carries: '-inksaver', '-guides' or both."""
        return ("-inksaver" if self.ink_saver else "") + ("-guides" if self.guides else "")

    def apply(self, face: Face, component: Component) -> Face:
        """The face as this style draws it."""
        elements = face.elements
        if self.ink_saver:
            elements = _ink_saving(elements, face.width, face.height)
        if self.guides:
            elements = (*elements, Element(GUIDES, GUIDES, (("bleed", self.bleed), ("safe", component.safe))))
        return replace(face, elements=elements)


def _ink_saving(elements: tuple[Element, ...], width: float, height: float) -> tuple[Element, ...]:
    """Marked backgrounds white and marked frames thin; light ink that stood on a marked background takes
    that background's colour instead, so a light title on a dark back stays readable on white paper.

    Light ink on a shape the style keeps (a fleet's band) still stands on that shape, so it stays as it is.
    """
    ground = next((e.get("fill") for e in elements if e.get("ink") == "background" and e.get("fill") != "none"),
                  None)
    out = []
    kept_shapes: list[Element] = []  # filled shapes drawn so far that keep their colour
    for element in elements:
        if element.get("ink") is None and element.type in ("rect", "circle") \
                and element.get("fill") not in (None, "none") and not element.get("bleed"):
            kept_shapes.append(element)
        props = dict(element.props)
        role = element.get("ink")
        if role == "background":
            props.update({key: INK_SAVER_PAPER for key in ("fill", "colour") if props.get(key, "none") != "none"})
        elif role == "frame":
            if props.get("fill", "none") != "none":
                props["fill"] = INK_SAVER_PAPER
            props["stroke_width"] = min(float(props.get("stroke_width", INK_SAVER_FRAME)), INK_SAVER_FRAME)
        elif ground is not None and _light(ground) < LIGHT \
                and not any(_covers(shape, element, width, height) for shape in kept_shapes):
            # a dark ground goes white: light ink on it must darken
            for key in ("colour", "stroke", "fill"):
                value = props.get(key)
                if isinstance(value, str) and value != "none" and _light(value) >= LIGHT:
                    props[key] = ground
        out.append(element if props == dict(element.props) else
                   Element(element.type, element.name, tuple(sorted(props.items()))))
    return tuple(out)


def _covers(shape: Element, element: Element, width: float, height: float) -> bool:
    """Whether `shape` (a rect or circle, mm from the top left) lies under the point `element` is placed at."""
    x, y = element.get("x"), element.get("y")
    if shape.type == "circle":
        return bool(math.hypot(x - shape.get("x"), y - shape.get("y")) <= shape.get("r"))
    left, top = shape.get("x"), shape.get("y")
    w = shape.get("w") if shape.get("w") is not None else width - 2 * left
    h = shape.get("h") if shape.get("h") is not None else height - 2 * top
    return bool(left <= x <= left + w and top <= y <= top + h)


def _light(hex_colour: str) -> float:
    """Relative lightness 0 (black) .. 1 (white) of '#rgb' or '#rrggbb'."""
    digits = hex_colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(ch * 2 for ch in digits)
    r, g, b = (int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


class StyledRenderer(FaceRenderer):
    """A face renderer whose faces carry a style; shares the compiled layouts and faces of `base`."""

    def __init__(self, base: FaceRenderer, style: FaceStyle) -> None:  # no super().__init__: it shares base's state
        self.base = base
        self.style = style
        self.project = base.project
        self.library = base.library
        self.forms = base.forms

    def face(self, game: Game, component: Component, item: Item, side: str = "front") -> Face:
        return self.style.apply(self.base.face(game, component, item, side), component)


def styled(faces: FaceRenderer, settings: Any) -> FaceRenderer:
    """`faces` as the settings ask (their `guides`, `ink_saver` and `bleed`), or `faces` itself for a print file."""
    style = style_of(settings)
    return faces if style.plain else StyledRenderer(faces, style)


def style_of(settings: Any) -> FaceStyle:
    """The face style the settings ask for (their `guides`, `ink_saver` and `bleed`)."""
    return FaceStyle(bool(getattr(settings, "guides", False)), bool(getattr(settings, "ink_saver", False)),
                     float(getattr(settings, "bleed", 3.0)))


CMYK_SUFFIX = "-cmyk"


def variant_name(file_name: str, settings: Any) -> str:
    """`file_name` with every word the settings put in a print file's name, so no variant passes for another:
    the style's ('-inksaver', '-guides'), then '-cmyk' for a PDF that `--colour cmyk` turns into CMYK PDF/X
    (PNGs stay RGB, so they never carry it). 'x-a4-duplex-long.pdf' -> 'x-a4-duplex-long-guides-cmyk.pdf'."""
    cmyk = CMYK_SUFFIX if getattr(settings, "colour", "rgb") == "cmyk" and file_name.endswith(".pdf") else ""
    suffix = style_of(settings).suffix() + cmyk
    stem, dot, extension = file_name.rpartition(".")
    return f"{stem}{suffix}{dot}{extension}" if dot else file_name + suffix
