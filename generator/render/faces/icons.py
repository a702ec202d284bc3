"""Vector symbols (anchor, cutlass, compass, skull, coin...) drawn as ReportLab paths.

Every icon is drawn in a 100 x 100 unit box centred on the origin, y up, in one
colour; holes (eyes of the skull, the ring of the anchor) are cut with the
even-odd fill rule so icons read on any background. Being vectors, they stay
sharp at any print size and cost a few hundred bytes each in a PDF. Suit
colours are paired with a distinct *shape* per suit, so the cards stay
playable for colour-blind players.

Layouts name icons (`icon: anchor`, inline `:coin:`); `ICONS` is the list of
valid names, checked when a layout is validated.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from functools import cache
from typing import Any

EVEN_ODD = 0  # reportlab.pdfgen.canvas.FILL_EVEN_ODD
NON_ZERO = 1

IconDraw = Callable[[Any], None]


def _fill(c: Any, path: Any, even_odd: bool = True) -> None:
    c.drawPath(path, stroke=0, fill=1, fillMode=EVEN_ODD if even_odd else NON_ZERO)


def _poly(path: Any, points: list[tuple[float, float]]) -> None:
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()


def _ring(path: Any, x: float, y: float, outer: float, inner: float) -> None:
    path.circle(x, y, outer)
    path.circle(x, y, inner)


def _stroke_line(c: Any, points: list[tuple[float, float]], width: float) -> None:
    c.setLineWidth(width)
    c.setLineCap(1)
    c.setLineJoin(1)
    path = c.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    c.drawPath(path, stroke=1, fill=0)


def anchor(c: Any) -> None:
    p = c.beginPath()
    _ring(p, 0, 37, 10, 5.5)
    _fill(c, p)
    p = c.beginPath()
    p.rect(-4.5, -40, 9, 69)
    p.roundRect(-22, 15, 44, 8, 4)
    _fill(c, p, even_odd=False)
    p = c.beginPath()  # the arms: a crescent with a fluke at each end
    p.moveTo(-36, -8)
    p.curveTo(-33, -32, -17, -46, 0, -46)
    p.curveTo(17, -46, 33, -32, 36, -8)
    p.lineTo(28, -12)
    p.curveTo(25, -29, 13, -37, 0, -37)
    p.curveTo(-13, -37, -25, -29, -28, -12)
    p.close()
    _poly(p, [(-45, -14), (-33, 4), (-25, -12)])
    _poly(p, [(45, -14), (33, 4), (25, -12)])
    _fill(c, p, even_odd=False)


def cutlass(c: Any) -> None:
    p = c.beginPath()  # the curved blade, tip at the top right
    p.moveTo(-14, -12)
    p.curveTo(4, 6, 24, 26, 44, 46)
    p.curveTo(36, 20, 20, 0, -4, -22)
    p.close()
    _fill(c, p, even_odd=False)
    _stroke_line(c, [(-24, -6), (-4, -26)], 7)  # cross guard
    _stroke_line(c, [(-12, -18), (-32, -38)], 9)  # grip
    p = c.beginPath()
    p.circle(-36, -42, 7)
    _fill(c, p)
    c.setLineWidth(4)
    p = c.beginPath()  # knuckle bow
    p.moveTo(-24, -6)
    p.curveTo(-44, -14, -46, -32, -36, -42)
    c.drawPath(p, stroke=1, fill=0)


def compass(c: Any) -> None:
    p = c.beginPath()
    _ring(p, 0, 0, 47, 40)
    _fill(c, p)
    p = c.beginPath()
    points = []
    for i in range(16):  # four long points, four short, inner notches between
        angle = math.pi / 2 - i * math.pi / 8
        radius = (36 if i % 4 == 0 else 20) if i % 2 == 0 else 7
        points.append((radius * math.cos(angle), radius * math.sin(angle)))
    _poly(p, points)
    p.circle(0, 0, 3.5)
    _fill(c, p)


def skull(c: Any) -> None:
    p = c.beginPath()
    p.arc(-36, -24, 36, 48, 236, -292)  # cranium, open at the bottom for the jaw
    p.lineTo(20, -28)
    p.curveTo(20, -40, 14, -44, 8, -44)
    p.lineTo(-8, -44)
    p.curveTo(-14, -44, -20, -40, -20, -28)
    p.close()
    p.ellipse(-26, -6, 20, 18)  # eyes
    p.ellipse(6, -6, 20, 18)
    _poly(p, [(0, -10), (-6, -22), (6, -22)])  # nose
    for x in (-9, -1.5, 6):  # gaps between the teeth
        p.rect(x, -44, 3, 10)
    _fill(c, p)


def coin(c: Any) -> None:
    p = c.beginPath()
    _ring(p, 0, 0, 48, 41)
    p.circle(0, 0, 36)
    _poly(p, _star_points(5, 24, 10))
    _fill(c, p)


def _star_points(n: int, outer: float, inner: float, cx: float = 0, cy: float = 0) -> list[tuple[float, float]]:
    points = []
    for i in range(2 * n):
        angle = math.pi / 2 + i * math.pi / n
        radius = outer if i % 2 == 0 else inner
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def star(c: Any) -> None:
    p = c.beginPath()
    _poly(p, _star_points(5, 48, 20, 0, -3))
    _fill(c, p)


def ship(c: Any) -> None:
    p = c.beginPath()
    _poly(p, [(-46, -20), (46, -20), (34, -40), (-36, -40)])
    p.rect(-2.5, -20, 5, 66)
    _poly(p, [(2.5, 46), (20, 41), (2.5, 36)])
    p.moveTo(-30, -14)  # main sail, bellied
    p.lineTo(-6, -14)
    p.lineTo(-6, 38)
    p.lineTo(-30, 38)
    p.curveTo(-22, 24, -22, 0, -30, -14)
    p.close()
    p.moveTo(6, -14)
    p.lineTo(34, -14)
    p.curveTo(26, 4, 26, 18, 32, 30)
    p.lineTo(6, 30)
    p.close()
    _fill(c, p, even_odd=False)


def wheel(c: Any) -> None:
    for i in range(8):
        angle = i * math.pi / 4
        _stroke_line(c, [(0, 0), (44 * math.cos(angle), 44 * math.sin(angle))], 6)
    p = c.beginPath()
    _ring(p, 0, 0, 34, 26)
    _fill(c, p)
    p = c.beginPath()
    _ring(p, 0, 0, 10, 4)
    _fill(c, p)


def chest(c: Any) -> None:
    p = c.beginPath()
    p.roundRect(-42, -38, 84, 46, 4)
    p.rect(-6, -16, 12, 14)  # the lock, cut out
    _fill(c, p)
    p = c.beginPath()
    p.moveTo(-42, 12)
    p.curveTo(-42, 40, 42, 40, 42, 12)
    p.close()
    _fill(c, p)


def flag(c: Any) -> None:
    p = c.beginPath()
    p.rect(-40, -48, 6, 96)
    p.moveTo(-34, 44)
    p.curveTo(-10, 52, 10, 36, 44, 44)
    p.lineTo(44, 2)
    p.curveTo(10, -6, -10, 10, -34, 2)
    p.close()
    _fill(c, p, even_odd=False)
    p = c.beginPath()  # a small skull on the flag, cut out
    p.circle(5, 26, 9)
    p.rect(0, 14, 10, 6)
    _fill(c, p)


def crown(c: Any) -> None:
    p = c.beginPath()
    _poly(p, [(-44, -30), (-44, 30), (-22, 4), (0, 38), (22, 4), (44, 30), (44, -30)])
    p.rect(-44, -42, 88, 8)
    _fill(c, p, even_odd=False)


def bottle(c: Any) -> None:
    p = c.beginPath()
    p.moveTo(-20, -46)
    p.lineTo(20, -46)
    p.lineTo(20, 8)
    p.curveTo(20, 18, 8, 20, 8, 28)
    p.lineTo(8, 40)
    p.lineTo(-8, 40)
    p.lineTo(-8, 28)
    p.curveTo(-8, 20, -20, 18, -20, 8)
    p.close()
    p.rect(-13, -30, 26, 22)  # label, cut out
    p.rect(-9, 42, 18, 6)
    _fill(c, p)


def swords(c: Any) -> None:
    _stroke_line(c, [(-40, -40), (40, 40)], 7)
    _stroke_line(c, [(40, -40), (-40, 40)], 7)
    _stroke_line(c, [(-36, -18), (-18, -36)], 7)
    _stroke_line(c, [(36, -18), (18, -36)], 7)


def cannonball(c: Any) -> None:
    p = c.beginPath()
    p.circle(-4, -6, 38)
    p.circle(-16, 8, 8)  # highlight, cut out
    _fill(c, p)
    _stroke_line(c, [(22, 22), (34, 36)], 6)
    p = c.beginPath()
    _poly(p, _star_points(6, 12, 5, 38, 40))
    _fill(c, p)


def shield(c: Any) -> None:
    p = c.beginPath()
    p.moveTo(-38, 42)
    p.lineTo(38, 42)
    p.lineTo(38, 6)
    p.curveTo(38, -20, 16, -38, 0, -46)
    p.curveTo(-16, -38, -38, -20, -38, 6)
    p.close()
    p.moveTo(-28, 32)
    p.lineTo(28, 32)
    p.lineTo(28, 6)
    p.curveTo(28, -14, 12, -28, 0, -35)
    p.curveTo(-12, -28, -28, -14, -28, 6)
    p.close()
    _fill(c, p)
    p = c.beginPath()
    _poly(p, _star_points(5, 18, 7, 0, 4))
    _fill(c, p)


def heart(c: Any) -> None:
    p = c.beginPath()
    p.moveTo(0, -44)
    p.curveTo(-30, -18, -48, 0, -46, 20)
    p.curveTo(-44, 42, -12, 48, 0, 26)
    p.curveTo(12, 48, 44, 42, 46, 20)
    p.curveTo(48, 0, 30, -18, 0, -44)
    p.close()
    _fill(c, p)


def map_(c: Any) -> None:
    p = c.beginPath()
    p.moveTo(-44, 34)
    p.curveTo(-20, 42, 20, 26, 44, 34)
    p.lineTo(44, -34)
    p.curveTo(20, -42, -20, -26, -44, -34)
    p.close()
    for x, y in ((-22, 14), (-4, 2), (10, -8)):  # a dotted route, cut out
        p.circle(x, y, 3.5)
    _fill(c, p)
    _stroke_line_cut(c)


def _stroke_line_cut(c: Any) -> None:
    """The X that marks the spot, drawn in the paper colour over the map."""
    c.saveState()
    c.setStrokeColorRGB(1, 1, 1)
    _stroke_line(c, [(18, -6), (32, -20)], 4)
    _stroke_line(c, [(32, -6), (18, -20)], 4)
    c.restoreState()


def hourglass(c: Any) -> None:
    p = c.beginPath()
    p.rect(-32, 38, 64, 8)
    p.rect(-32, -46, 64, 8)
    _poly(p, [(-26, 38), (26, 38), (4, 0), (26, -38), (-26, -38), (-4, 0)])
    _fill(c, p, even_odd=False)


def pip(c: Any) -> None:
    p = c.beginPath()
    p.circle(0, 0, 40)
    _fill(c, p)


def triangle(c: Any) -> None:
    p = c.beginPath()
    _poly(p, [(0, 46), (48, -38), (-48, -38)])
    _fill(c, p)


def square(c: Any) -> None:
    p = c.beginPath()
    p.rect(-38, -38, 76, 76)
    _fill(c, p)


def circle(c: Any) -> None:
    p = c.beginPath()
    p.circle(0, 0, 42)
    _fill(c, p)


def diamond(c: Any) -> None:
    p = c.beginPath()
    _poly(p, [(0, 48), (36, 0), (0, -48), (-36, 0)])
    _fill(c, p)


def ladle(c: Any) -> None:
    p = c.beginPath()
    p.moveTo(-46, -8)
    p.curveTo(-46, -46, 8, -46, 8, -8)
    p.close()
    _fill(c, p)
    _stroke_line(c, [(2, -8), (36, 38)], 8)
    p = c.beginPath()
    _ring(p, 38, 42, 8, 3.5)
    _fill(c, p)


def cannon(c: Any) -> None:
    p = c.beginPath()
    _poly(p, [(-44, -2), (34, 26), (40, 10), (-38, -20)])
    p.circle(-42, -11, 9)
    p.rect(34, 8, 8, 22)
    _fill(c, p, even_odd=False)
    p = c.beginPath()
    _ring(p, -6, -24, 20, 6)
    _fill(c, p)


def spyglass(c: Any) -> None:
    c.saveState()
    c.rotate(30)
    p = c.beginPath()
    p.roundRect(-50, -7, 30, 14, 2)
    p.roundRect(-18, -9.5, 30, 19, 2)
    p.roundRect(14, -13, 36, 26, 3)
    _fill(c, p, even_odd=False)
    c.restoreState()


def hammer(c: Any) -> None:
    c.saveState()
    c.rotate(-35)
    p = c.beginPath()
    p.roundRect(-6, -50, 12, 76, 4)
    p.roundRect(-30, 20, 52, 22, 3)
    _poly(p, [(22, 24), (40, 18), (40, 44), (22, 38)])
    _fill(c, p, even_odd=False)
    c.restoreState()


def hook(c: Any) -> None:
    c.setLineWidth(11)
    c.setLineCap(1)
    p = c.beginPath()
    p.moveTo(12, 22)
    p.lineTo(12, -6)
    p.curveTo(12, -46, -36, -46, -36, -12)
    c.drawPath(p, stroke=1, fill=0)
    p = c.beginPath()
    _poly(p, [(-36, -4), (-46, -18), (-26, -18)])
    p.roundRect(-8, 20, 40, 28, 5)
    _fill(c, p, even_odd=False)


def parrot(c: Any) -> None:
    p = c.beginPath()
    p.ellipse(-24, -30, 40, 58)  # body
    _poly(p, [(-16, -24), (-4, -28), (-22, -50), (-32, -44)])  # tail
    _poly(p, [(22, 34), (38, 20), (20, 12)])  # beak
    _fill(c, p, even_odd=False)
    p = c.beginPath()
    p.circle(8, 26, 17)  # head, with the eye as a hole
    p.circle(12, 30, 4.5)
    _fill(c, p)
    _stroke_line(c, [(-40, -34), (36, -34)], 5)  # the perch


def crossed_sabres(c: Any) -> None:
    c.saveState()
    c.scale(0.9, 0.9)
    cutlass(c)
    c.scale(-1, 1)
    cutlass(c)
    c.restoreState()


def flame(c: Any) -> None:
    p = c.beginPath()
    p.moveTo(0, 48)
    p.curveTo(18, 22, 40, 4, 34, -20)
    p.curveTo(28, -46, -28, -46, -34, -20)
    p.curveTo(-40, 4, -18, 22, 0, 48)
    p.close()
    p.moveTo(0, 8)
    p.curveTo(10, -4, 16, -16, 12, -26)
    p.curveTo(6, -38, -6, -38, -12, -26)
    p.curveTo(-16, -16, -10, -4, 0, 8)
    p.close()
    _fill(c, p)


ICONS: dict[str, IconDraw] = {
    "anchor": anchor,
    "bottle": bottle,
    "cannonball": cannonball,
    "chest": chest,
    "coin": coin,
    "compass": compass,
    "crown": crown,
    "cutlass": cutlass,
    "flag": flag,
    "heart": heart,
    "hourglass": hourglass,
    "map": map_,
    "pip": pip,
    "shield": shield,
    "ship": ship,
    "skull": skull,
    "star": star,
    "swords": swords,
    "wheel": wheel,
    "triangle": triangle,
    "square": square,
    "circle": circle,
    "diamond": diamond,
    "ladle": ladle,
    "cannon": cannon,
    "spyglass": spyglass,
    "hammer": hammer,
    "hook": hook,
    "parrot": parrot,
    "crossed-sabres": crossed_sabres,
    "flame": flame,
}


@cache
def icon_operators(name: str) -> str:
    """The icon's PDF path operators in its unit box, generated once per process.

    Icons are drawn thousands of times per build; formatting their paths is
    most of ReportLab's work, so each is drawn once on a scratch canvas and its
    operators are replayed with `addLiteral` inside a saved graphics state.
    """
    from reportlab.pdfgen.canvas import Canvas

    scratch = Canvas(io.BytesIO())
    start = len(scratch._code)  # the scratch canvas's content so far (its preamble)
    ICONS[name](scratch)
    return "\n".join(scratch._code[start:])


def draw_icon(c: Any, name: str, x: float, y: float, size: float, colour: Any, rotate: float = 0.0) -> None:
    """Draw icon `name` centred at (x, y) points, `size` points wide, in one colour."""
    c.saveState()
    c.translate(x, y)
    if rotate:
        c.rotate(rotate)
    c.scale(size / 100.0, size / 100.0)
    c.setFillColor(colour)
    c.setStrokeColor(colour)
    c.addLiteral(icon_operators(name))
    c.restoreState()


ICON_PIXELS = 128  # an inline icon in a document: about 900 dpi at 10 pt, crisp in print


@cache
def icon_png(name: str, colour: str, pixels: int = ICON_PIXELS) -> bytes:
    """Icon `name` in `colour` ('#rrggbb') as a square PNG with a transparent ground.

    Document paragraphs (ReportLab Platypus) place inline pictures only as images, so an
    icon inside rulebook text is the vector drawn once and rasterised finely; same input,
    same bytes (no timestamps), so documents stay reproducible.
    """
    import pypdfium2 as pdfium
    from reportlab.lib.colors import HexColor
    from reportlab.pdfgen.canvas import Canvas

    page = io.BytesIO()
    canvas = Canvas(page, pagesize=(100, 100), invariant=1)
    draw_icon(canvas, name, 50, 50, 100, HexColor(colour))
    canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(page.getvalue())
    try:
        image = document[0].render(scale=pixels / 100, fill_color=(0, 0, 0, 0), draw_annots=False).to_pil()
    finally:
        document.close()
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
