"""Showcase images of a game (`pnp build --showcase`): ready for a crowdfunding page or a BoardGameGeek upload.

Three PNGs per game in output/<game>/showcase/, drawn from the same faces as
the print files, on a transparent background with soft drop shadows:

- `<game>-hand.png`: a fanned hand of sample designs of the game's main
  component (the card component with the most designs; tiles if it has no cards);
- `<game>-spread.png`: one of each design of every printable component, a row per component;
- `<game>-box.png`: the box's front (its title over the illustration
  `theme.box_art` names, `box_front`) and what is in it: every component as a
  pile of its copies (backs below, one front on top) with its count.

Deterministic: faces come from the rasterizer (and its cache), composition is
plain Pillow arithmetic, and the PNGs are written without metadata.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from generator.model import Component, Game
from generator.render.base.fonts import FONT_DIR
from generator.render.base.outputs import FaceStore, FileKind, OutputFile
from generator.render.faces.layout import back_layout
from generator.render.site.box_front import box_front

if TYPE_CHECKING:
    from generator.render.exports.raster import Workers
    from generator.render.faces.renderer import FaceRenderer

HAND_SIZE = 7  # designs in the fanned hand, at most
PILE_LAYERS = 8  # copies drawn under a pile's top face, at most (more would only thicken it)
LABEL_FONT = "SourceSansPro-Semibold.ttf"


@dataclass(frozen=True)
class ShowcaseSettings:
    dpi: int = 110  # enough for a web page; faces come from the rasterizer at this resolution


@dataclass(frozen=True)
class Piece:
    """One component's faces as images, with its die-cut shape (so corners and circles are cut out)."""

    component: Component
    fronts: list[Image.Image]
    back: Image.Image | None


def showcased(game: Game) -> list[Component]:
    """The components a showcase shows: printable ones (cards, tiles, tokens) with items."""
    return [c for c in game.components if c.printable and c.items]


def draw_showcase(faces: FaceRenderer, game: Game, workers: Workers, cache: FaceStore | None,
                  settings: ShowcaseSettings) -> list[OutputFile]:
    """The game's three showcase images (none for a game without printable components)."""
    from generator.render.exports.raster import rasterize

    components = showcased(game)
    if not components:
        return []
    wanted = []
    for component in components:
        wanted += [faces.face(game, component, item, "front") for item in component.items]
        if back_layout(component):
            wanted.append(faces.face(game, component, component.items[0], "back"))
    images = iter(rasterize(wanted, 0.0, settings.dpi, workers, cache))
    pieces = []
    for component in components:
        fronts = [_cut(_open(next(images)), component, settings.dpi) for _ in component.items]
        back = _cut(_open(next(images)), component, settings.dpi) if back_layout(component) else None
        pieces.append(Piece(component, fronts, back))
    main = max(pieces, key=lambda p: (p.component.kind == "card", len(p.fronts)))
    shots = [("hand", "a hand of " + main.component.plural, hand(main)),
             ("spread", "one of each design", spread(pieces)),
             ("box", "the box and what is in it", box(pieces, settings.dpi, box_front(faces, game, settings.dpi)))]
    return [OutputFile(f"{game.id}-{name}.png", FileKind.SHOWCASE, _png(image), label=label)
            for name, label, image in shots]


def hand(piece: Piece) -> Image.Image:
    """Up to HAND_SIZE designs, evenly picked, fanned around a point below the hand."""
    picks = _evenly(piece.fronts, HAND_SIZE)
    height = picks[0].height
    radius = 2.4 * height
    spread_deg = min(64.0, 11.0 * (len(picks) - 1))
    angles = [spread_deg * (i / (len(picks) - 1) - 0.5) if len(picks) > 1 else 0.0 for i in range(len(picks))]
    placed = []
    for card, angle in zip(picks, angles, strict=True):
        turned = card.rotate(-angle, resample=Image.Resampling.BICUBIC, expand=True)
        cx = radius * math.sin(math.radians(angle))
        cy = radius * (1 - math.cos(math.radians(angle)))  # the card's centre, relative to the middle card's
        placed.append((turned, cx, cy))
    return _compose(placed)


def spread(pieces: Sequence[Piece], columns: int = 11, scale: float = 0.6) -> Image.Image:
    """Every design once, a row (or a few) per component, at `scale` of the face resolution."""
    gap = 14
    rows: list[list[Image.Image]] = []
    for piece in pieces:
        fronts = [_scaled(f, scale) for f in piece.fronts]
        rows += [fronts[i:i + columns] for i in range(0, len(fronts), columns)]
    placed = []
    y = 0.0
    for row in rows:
        height = max(image.height for image in row)
        x = 0.0
        for image in row:
            placed.append((image, x + image.width / 2, y + height / 2))
            x += image.width + gap
        y += height + gap * 1.6
    return _compose(placed)


def box(pieces: Sequence[Piece], dpi: int, front: Image.Image | None = None, columns: int = 5) -> Image.Image:
    """Each component as a pile of its copies, its count and name under it, piles in rows; the box's `front`
    (if the game has one) stands at their left, as tall as the piles or more."""
    font = ImageFont.truetype(str(FONT_DIR / LABEL_FONT), size=max(12, round(dpi / 5)))
    step = max(2, round(dpi / 55))  # how far each copy in a pile sits from the one below it
    piles = [_pile(piece, step, font) for piece in pieces]
    gap = round(dpi / 3)
    placed = []
    y = 0.0
    for start in range(0, len(piles), columns):
        row = piles[start:start + columns]
        height = max(image.height for image in row)
        x = 0.0
        for image in row:
            placed.append((image, x + image.width / 2, y + height - image.height / 2))  # piles stand on one line
            x += image.width + gap
        y += height + gap
    piles_image = _compose(placed, shadow=False)  # each pile already carries its shadows
    if front is None:
        return piles_image
    lid = _compose([(front, 0.0, 0.0)])  # the lid with its own shadow; the piles carry theirs
    return _compose([(lid, -lid.width / 2 - gap, lid.height / 2),
                     (piles_image, piles_image.width / 2, piles_image.height / 2)], shadow=False)


def _pile(piece: Piece, step: int, font: Any) -> Image.Image:
    """A pile of the component's copies, the top one face up, with "N x name" under it."""
    count = piece.component.count
    layers = min(count, PILE_LAYERS)
    under = piece.back or piece.fronts[-1]
    top = piece.fronts[0]
    placed = [(under, i * step, -i * step) for i in range(layers - 1)]
    placed.append((top, (layers - 1) * step, -(layers - 1) * step))
    stack = _compose(placed, margin=step * 4)
    label = f"{count} × {piece.component.plural if count != 1 else piece.component.name}"
    left, top_y, right, bottom = font.getbbox(label)
    width = max(stack.width, right - left + 8)
    canvas = Image.new("RGBA", (width, stack.height + bottom - top_y + 10), (0, 0, 0, 0))
    canvas.alpha_composite(stack, ((width - stack.width) // 2, 0))
    ImageDraw.Draw(canvas).text(((width - (right - left)) // 2 - left, stack.height + 4 - top_y), label,
                                font=font, fill=(35, 35, 40, 255))
    return canvas


def _compose(placed: Sequence[tuple[Image.Image, float, float]], shadow: bool = True,
             margin: int = 24) -> Image.Image:
    """Images centred at (x, y), later ones on top, each with a soft shadow; cropped to what was drawn."""
    left = min(x - image.width / 2 for image, x, _ in placed)
    top = min(y - image.height / 2 for image, _, y in placed)
    right = max(x + image.width / 2 for image, x, _ in placed)
    bottom = max(y + image.height / 2 for image, _, y in placed)
    offset = (margin - left, margin - top)
    size = (math.ceil(right - left) + 2 * margin, math.ceil(bottom - top) + 2 * margin)
    canvas = Image.new("RGBA", size, (0, 0, 0, 0))
    for image, x, y in placed:
        corner = (round(x - image.width / 2 + offset[0]), round(y - image.height / 2 + offset[1]))
        if shadow:
            patch, (x0, y0) = _shadow(image, corner)  # may start left of or above the canvas: clip it
            canvas.alpha_composite(patch, (max(x0, 0), max(y0, 0)), (max(-x0, 0), max(-y0, 0)))
        canvas.alpha_composite(image, corner)
    return canvas


def _shadow(image: Image.Image, corner: tuple[int, int]) -> tuple[Image.Image, tuple[int, int]]:
    """A blurred dark copy of the image's outline, a little below and to the right, and where it goes.

    Blurred in a patch just larger than the image (not the whole canvas): the blur is most of the cost.
    """
    blur = max(2, image.height // 60)
    pad = 3 * blur
    alpha = image.getchannel("A").point(lambda a: a * 90 // 255)
    dark = Image.new("RGBA", image.size, (20, 16, 10, 255))
    dark.putalpha(alpha)
    patch = Image.new("RGBA", (image.width + 2 * pad, image.height + 2 * pad), (0, 0, 0, 0))
    patch.alpha_composite(dark, (pad, pad))
    at = (corner[0] + blur // 2 - pad, corner[1] + blur - pad)
    return patch.filter(ImageFilter.GaussianBlur(blur)), at


def _cut(image: Image.Image, component: Component, dpi: int) -> Image.Image:
    """The face with its die-cut shape: rounded corners, or a circle."""
    size = component.size
    mask = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(mask)
    box_ = (0, 0, image.width - 1, image.height - 1)
    if size.shape == "circle":
        draw.ellipse(box_, fill=255)
    else:
        draw.rounded_rectangle(box_, radius=round(size.corner / 25.4 * dpi), fill=255)
    cut = image.convert("RGBA")
    cut.putalpha(mask)
    return cut


def _evenly(images: Sequence[Image.Image], at_most: int) -> list[Image.Image]:
    if len(images) <= at_most:
        return list(images)
    return [images[round(i * (len(images) - 1) / (at_most - 1))] for i in range(at_most)]


def _scaled(image: Image.Image, scale: float) -> Image.Image:
    return image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))),
                        Image.Resampling.LANCZOS)


def _open(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as image:
        return image.convert("RGBA")


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
