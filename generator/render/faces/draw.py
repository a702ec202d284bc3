"""Drawing a resolved `Face` on a ReportLab canvas: the one drawing path for PDF, PNG and TTS.

Coordinates: the caller puts the face's trim box bottom-left at the canvas
origin; layouts measure from the top-left in millimetres, so y is flipped
here. Text sizes and stroke widths are points. Raster exports rasterize what
this code draws; there is no second renderer to drift out of step.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

from generator.render.base.units import pt
from generator.render.faces.glyphs import draw_runs, text_width
from generator.render.faces.icons import draw_icon
from generator.render.faces.layout import Element, Face
from generator.render.faces.text import bold_of, fit_line, icon_box, inline_icons, set_text, shrink_floor

ASCENT = 0.78  # first baseline below the top of a text box, in ems


@lru_cache(maxsize=256)
def colour(value: str) -> Any:
    from reportlab.lib.colors import HexColor

    if len(value) == 4:  # '#abc'
        value = "#" + "".join(ch * 2 for ch in value[1:])
    return HexColor(value)


def draw_face(c: Any, face: Face, bleed: float) -> None:
    """Draw every element of `face`; `bleed` (mm) is how far `bleed: true` rectangles reach out.

    A rectangle that reaches the trim (a band, a border) runs on `bleed` mm past
    it on those sides in its own colour, so a cut a little off never shows the
    background: print shops ask for this, and it needs no flag in the layout.
    """
    for element in face.elements:
        painter = PAINTERS[element.type]
        painter(c, element, face, bleed)
        if element.get("mirror"):  # the rotated copy, like the bottom index of a playing card
            c.saveState()
            c.translate(pt(face.width), pt(face.height))
            c.rotate(180)
            painter(c, element, face, bleed)
            c.restoreState()


def _y(face: Face, y_mm: float) -> float:
    return pt(face.height - y_mm)


def _paint(c: Any, e: Element) -> tuple[bool, bool]:
    fill, stroke = e.get("fill"), e.get("stroke")
    if fill != "none":
        c.setFillColor(colour(fill))
    if stroke != "none":
        c.setStrokeColor(colour(stroke))
        c.setLineWidth(e.get("stroke_width"))
    return fill != "none", stroke != "none"


def _rect(c: Any, e: Element, face: Face, bleed: float) -> None:
    fill, stroke = _paint(c, e)
    if not (fill or stroke):
        return
    if e.get("bleed"):
        x, y, w, h, radius = -bleed, -bleed, face.width + 2 * bleed, face.height + 2 * bleed, 0.0
        c.rect(pt(x), pt(y), pt(w), pt(h), stroke=int(stroke), fill=int(fill))
        return
    x, y = e.get("x"), e.get("y")
    w = e.get("w") if e.get("w") is not None else face.width - 2 * x
    h = e.get("h") if e.get("h") is not None else face.height - 2 * y
    radius = e.get("radius")
    grown = _into_bleed(face, (x, y, w, h), bleed)
    if grown != (x, y, w, h):  # it reaches the trim: its colour runs on into the bleed
        if fill:
            _box(c, face, grown, radius, fill=True, stroke=False)
            fill = False
        if stroke:  # a stroke on the trim: fill the band outside it with the stroke's colour
            c.saveState()
            c.setFillColor(colour(e.get("stroke")))
            path = c.beginPath()
            for gx, gy, gw, gh in (grown, (x, y, w, h)):
                path.rect(pt(gx), _y(face, gy + gh), pt(gw), pt(gh))
            c.drawPath(path, stroke=0, fill=1, fillMode=0)  # even-odd: the ring between the two
            c.restoreState()
    if fill or stroke:
        _box(c, face, (x, y, w, h), radius, fill, stroke)


def _into_bleed(face: Face, box: tuple[float, float, float, float], bleed: float) -> tuple[float, float, float, float]:
    """A rectangle grown `bleed` mm past every side where it reaches the trim (unchanged when none does)."""
    x, y, w, h = box
    if bleed <= 0:
        return box
    edge = 1e-6
    left = x - bleed if x <= edge else x
    top = y - bleed if y <= edge else y
    right = x + w + bleed if x + w >= face.width - edge else x + w
    bottom = y + h + bleed if y + h >= face.height - edge else y + h
    return (left, top, right - left, bottom - top)


def _box(c: Any, face: Face, box: tuple[float, float, float, float], radius: float, fill: bool, stroke: bool) -> None:
    x, y, w, h = box
    if radius > 0:
        c.roundRect(pt(x), _y(face, y + h), pt(w), pt(h), pt(radius), stroke=int(stroke), fill=int(fill))
    else:
        c.rect(pt(x), _y(face, y + h), pt(w), pt(h), stroke=int(stroke), fill=int(fill))


def _circle(c: Any, e: Element, face: Face, bleed: float) -> None:
    fill, stroke = _paint(c, e)
    if fill or stroke:
        c.circle(pt(e.get("x")), _y(face, e.get("y")), pt(e.get("r")), stroke=int(stroke), fill=int(fill))


def _line(c: Any, e: Element, face: Face, bleed: float) -> None:
    _, stroke = _paint(c, e)
    if stroke:
        c.line(pt(e.get("x")), _y(face, e.get("y")), pt(e.get("x2")), _y(face, e.get("y2")))


def _text(c: Any, e: Element, face: Face, bleed: float) -> None:
    text = e.get("text")
    if not text:
        return
    font, size = e.get("font"), e.get("size")
    if e.get("max_width") is not None:
        size, _ = fit_line(text, font, size, shrink_floor(e), pt(e.get("max_width")))
    c.setFillColor(colour(e.get("colour")))
    c.setFont(font, size)
    x, y = pt(e.get("x")), _y(face, e.get("y"))
    rotate = e.get("rotate")
    if rotate:
        c.saveState()
        c.translate(x, y)
        c.rotate(-rotate)  # layouts rotate clockwise, like most drawing tools
        x, y = 0.0, 0.0
    align = e.get("align")
    if align in ("right", "centre", "center"):
        x -= text_width(text, font, size) / (1 if align == "right" else 2)
    draw_runs(c, x, y, text, font, size)  # the fallback font where the chosen one has no glyph
    if rotate:
        c.restoreState()


def _textbox(c: Any, e: Element, face: Face, bleed: float) -> None:
    text = e.get("text")
    if not text:
        return
    font = e.get("font")
    bold_font = e.get("bold_font") or bold_of(font)
    size = e.get("size")
    width, height = pt(e.get("w")), pt(e.get("h"))
    icons = inline_icons(e)
    setting = set_text(text, font, bold_font, size, shrink_floor(e), e.get("leading"), width, height, frozenset(icons))
    ink = colour(e.get("colour"))
    c.setFillColor(ink)
    block = setting.size + setting.leading * (len(setting.lines) - 1)
    top = _y(face, e.get("y"))
    if e.get("valign") == "middle":
        top -= (height - block) / 2
    elif e.get("valign") == "bottom":
        top -= height - block
    left = pt(e.get("x"))
    align = e.get("align")
    from reportlab.pdfbase.pdfmetrics import stringWidth

    space = stringWidth(" ", font, setting.size)
    for index, line in enumerate(setting.lines):
        baseline = top - setting.size * ASCENT - index * setting.leading
        x = left
        if align == "right":
            x += width - line.width
        elif align in ("centre", "center"):
            x += (width - line.width) / 2
        for word in line.words:
            for piece in word:
                if piece.icon:
                    centre_x, centre_y, side = icon_box(x, baseline, setting.size)
                    draw_icon(c, icons[piece.icon], centre_x, centre_y, side, colour(piece.colour) if piece.colour else ink)
                    x += side
                else:
                    face_font = bold_font if piece.bold else font
                    x += draw_runs(c, x, baseline, piece.text, face_font, setting.size)
            x += space


def _icon(c: Any, e: Element, face: Face, bleed: float) -> None:
    draw_icon(c, e.get("icon"), pt(e.get("x")), _y(face, e.get("y")), pt(e.get("size")),
              colour(e.get("colour")), -e.get("rotate"))


def pip_centres(e: Element) -> Iterator[tuple[float, float]]:
    """The centre (mm from the face's top left) of every pip, row by row: one grid for drawing and preflight."""
    count = int(e.get("count"))
    if count <= 0:
        return
    columns = int(e.get("columns")) or max(1, round(count ** 0.5 + 0.01))
    rows = -(-count // columns)
    x0, y0, w, h = e.get("x"), e.get("y"), e.get("w"), e.get("h")
    for index in range(count):
        row, col = divmod(index, columns)
        in_row = min(columns, count - row * columns)  # centre a short last row
        yield x0 + w * (col + 0.5 + (columns - in_row) / 2) / columns, y0 + h * (row + 0.5) / rows


def _pips(c: Any, e: Element, face: Face, bleed: float) -> None:
    for cx, cy in pip_centres(e):
        draw_icon(c, e.get("icon"), pt(cx), _y(face, cy), pt(e.get("size")), colour(e.get("colour")))


def image_placement(e: Element, face: Face, bleed: float) -> tuple[tuple[float, float, float, float],
                                                                    tuple[float, float, float, float] | None]:
    """Where an image element's art lands, in mm from the trim's top left: (x, y, w, h), and the box it is
    clipped to (None: not clipped).

    Aspect kept and centred: fitted inside the box, or, where the box reaches the trim (full-bleed art),
    covering the box grown `bleed` mm into the bleed and clipped to it, so a cut a little off shows art
    and not paper. `pnp validate` measures a raster's resolution on this same placement.
    """
    picture = e.get("path")
    box = (e.get("x"), e.get("y"), e.get("w"), e.get("h"))
    grown = _into_bleed(face, box, bleed)
    cover = grown != box
    x, y, w, h = grown
    own_w, own_h = picture.size()
    if w <= 0 or h <= 0 or own_w <= 0 or own_h <= 0:
        return (x, y, 0.0, 0.0), None
    scale = max(w / own_w, h / own_h) if cover else min(w / own_w, h / own_h)
    drawn_w, drawn_h = own_w * scale, own_h * scale
    return (x + (w - drawn_w) / 2, y + (h - drawn_h) / 2, drawn_w, drawn_h), (grown if cover else None)


ART_FONT = "Sans"  # the font an SVG drawing's graphics state starts in (see `_image`)


def _register_art_font() -> None:
    """Register the shipped fonts unless `ART_FONT` already is (a face with no text may come first)."""
    from reportlab.pdfbase import pdfmetrics

    if ART_FONT not in pdfmetrics.getRegisteredFontNames():
        from generator.render.base.fonts import register_fonts

        register_fonts()


def _image(c: Any, e: Element, face: Face, bleed: float) -> None:
    """Art placed by `image_placement`; an SVG is drawn as vector paths, never as an image."""
    picture = e.get("path")  # a Picture: the bytes the layout library read and checked
    (left, top, drawn_w, drawn_h), clip = image_placement(e, face, bleed)
    if drawn_w <= 0 or drawn_h <= 0:
        return
    c.saveState()
    if clip is not None:
        x, y, w, h = clip
        path = c.beginPath()
        path.rect(pt(x), _y(face, y + h), pt(w), pt(h))
        c.clipPath(path, stroke=0, fill=0)
    if picture.vector:
        from reportlab.graphics import renderPDF
        from reportlab.graphics.shapes import Drawing

        art = picture.drawing()
        _register_art_font()
        c.translate(pt(left), _y(face, top + drawn_h))
        c.scale(pt(drawn_w) / art.width, pt(drawn_h) / art.height)
        # renderPDF starts a drawing in ReportLab's default font (Helvetica, which no PDF of ours embeds) even
        # when it draws no text: the art is wrapped in a drawing that starts in a shipped font instead (the
        # picture's own drawing, shared by every face that shows it, is left as svglib made it)
        held = Drawing(art.width, art.height, art)
        held.initialFontName = ART_FONT
        renderPDF.draw(held, c, 0, 0)
    else:
        from reportlab.lib.utils import ImageReader

        image = ImageReader(io.BytesIO(picture.data))
        c.drawImage(image, pt(left), _y(face, top + drawn_h), pt(drawn_w), pt(drawn_h), mask="auto")
    c.restoreState()


def track_cells(e: Element) -> list[tuple[int, tuple[float, float, float, float]]]:
    """The numbered boxes of a track element: (number, (x, y, w, h) in mm), as `_track` draws them."""
    first, last = int(e.get("first")), int(e.get("last"))
    count = last - first + 1
    if count <= 0:
        return []
    gap = e.get("gap")
    cell = (e.get("w") - gap * (count - 1)) / count
    return [(first + index, (e.get("x") + index * (cell + gap), e.get("y"), cell, e.get("h")))
            for index in range(count)]


def _track(c: Any, e: Element, face: Face, bleed: float) -> None:
    """Numbered boxes `first`..`last` in one row filling `w` (a bid track, a score track)."""
    font, size = e.get("font"), e.get("size")
    for number, (x, y0, cell, h) in track_cells(e):
        fill, stroke = _paint(c, e)
        if fill or stroke:
            c.roundRect(pt(x), _y(face, y0 + h), pt(cell), pt(h), pt(e.get("radius")), stroke=int(stroke),
                        fill=int(fill))
        c.setFillColor(colour(e.get("colour")))
        c.setFont(font, size)
        c.drawCentredString(pt(x + cell / 2), _y(face, y0 + h / 2) - size * 0.35, str(number))


GUIDE_COLOUR = "#ff00c8"  # magenta: no layout of ours uses it, and it reads on light and dark faces
GUIDE_WIDTH = 0.35  # points


def _guides(c: Any, e: Element, face: Face, bleed: float) -> None:
    """Trim (solid), bleed edge (dashed) and safe zone (dotted) over the face (`--guides`)."""
    c.saveState()
    c.setStrokeColor(colour(GUIDE_COLOUR))
    c.setLineWidth(GUIDE_WIDTH)
    c.setLineCap(1)
    inset = GUIDE_WIDTH / 2 / pt(1)  # mm: the bleed line stays whole inside the clipped bleed box
    lines: list[tuple[float, list[float]]] = [(0.0, [])]
    if (e.get("bleed") or 0.0) > inset:
        lines.append((inset - e.get("bleed"), [3, 2]))
    lines.append((e.get("safe"), [0.1, 1.6]))  # round caps make the short dashes dots
    for offset, dash in lines:
        w, h = face.width - 2 * offset, face.height - 2 * offset
        if w <= 0 or h <= 0:
            continue
        c.setDash(dash, 0)
        if face.shape == "circle":
            c.circle(pt(face.width / 2), pt(face.height / 2), pt(w / 2), stroke=1, fill=0)
        elif offset >= 0 and face.corner - offset > 0:
            c.roundRect(pt(offset), pt(offset), pt(w), pt(h), pt(face.corner - offset), stroke=1, fill=0)
        else:
            c.rect(pt(offset), pt(offset), pt(w), pt(h), stroke=1, fill=0)
    c.restoreState()


PAINTERS: dict[str, Callable[[Any, Element, Face, float], None]] = {
    "rect": _rect,
    "circle": _circle,
    "line": _line,
    "text": _text,
    "textbox": _textbox,
    "icon": _icon,
    "pips": _pips,
    "image": _image,
    "track": _track,
    "guides": _guides,
}
