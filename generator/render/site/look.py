"""The look page, `output/look.html`: each game's designs side by side at print size, each front beside its back.

A design is a component with a face layout (cards, tiles, tokens, boards): the page shows its first item's
front and that item's back, each at the component's trim size in CSS millimetres, so that at 100 % zoom, on
a screen where the browser's 96 px make an inch, a card on screen is the card in the hand. Score sheets and
screens are documents with pages of their own, not faces: the gallery links their PDFs.

The images come from one job per game in the build plan (`generator.build.plan.look_jobs`), rasterized at
`LOOK_DPI` (two device pixels per CSS pixel, sharp on high-density screens) from the same faces the sheets
print. The page is written with the gallery, from every game's recorded entry (`LookDesign`s), so building
one game keeps the others on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.model import Component, Game
from generator.render.base.outputs import FaceStore, FileKind, OutputFile

if TYPE_CHECKING:
    from generator.render.exports.raster import Workers
    from generator.render.faces.renderer import FaceRenderer

LOOK_DPI = 192  # 2 x the 96 px a CSS inch holds
FRONT, BACK = "front", "back"
# What a back is, said on the page under it (the label of its file record).
SHARED_BACK = "back (every copy)"
OWN_BACK = "back (this design's own)"
OTHER_SIDE = "other side (double-sided)"


@dataclass(frozen=True)
class LookSettings:
    dpi: int = LOOK_DPI


def looked(game: Game) -> list[Component]:
    """The components the look page shows: those drawn from a face layout (not sheets, which are documents),
    with at least one item, in the data's order."""
    return [c for c in game.components if (c.printable or c.kind == "board") and c.items]


def file_name(component: Component, side: str) -> str:
    return f"{component.id}-{side}.png"


def draw_look(faces: FaceRenderer, game: Game, workers: Workers, cache: FaceStore | None,
              settings: LookSettings) -> list[OutputFile]:
    """The look page's images of one game: `<component>-front.png` and `<component>-back.png` (when it has a
    back), of the component's first item, at `settings.dpi`, no bleed; labelled with what the back is."""
    # here, not at the top: the gallery imports this module on a no-op build, which loads no drawing code
    from generator.render.exports.raster import rasterize, with_dpi
    from generator.render.faces.layout import back_layout

    wanted = []
    for component in looked(game):
        item = component.items[0]
        wanted.append((component, FRONT, FRONT, faces.face(game, component, item, FRONT)))
        if back_layout(component):
            wanted.append((component, BACK, _back_label(faces, game, component), faces.face(game, component, item, BACK)))
    images = rasterize([face for *_, face in wanted], 0.0, settings.dpi, workers, cache)
    return [OutputFile(file_name(component, side), FileKind.LOOK, with_dpi(image, settings.dpi), component.id, label)
            for (component, side, label, _), image in zip(wanted, images, strict=True)]


def _back_label(faces: FaceRenderer, game: Game, component: Component) -> str:
    if component.double_sided:
        return OTHER_SIDE
    first = faces.face(game, component, component.items[0], BACK)
    same = all(faces.face(game, component, item, BACK) == first for item in component.items[1:])
    return SHARED_BACK if same else OWN_BACK


@dataclass
class LookDesign:
    """One design on the look page: what it is, how many, its trim geometry (mm) and its two images."""

    component: str
    name: str
    kind: str
    shown: str  # the item whose faces are shown ("Port Royal")
    count: int  # copies in the box, every item together
    designs: int  # items
    size: str  # the size's label ("poker (63x88 mm)", as `Size.label` writes it)
    width_mm: float
    height_mm: float
    shape: str
    corner_mm: float
    front: str  # src relative to output/, with `?v=<content hash>`
    back: str = ""  # "" when the component prints no back
    back_label: str = ""


def designs(game: Game, images: Mapping[tuple[str, str], tuple[str, str]]) -> list[LookDesign]:
    """The game's designs from the model and its look images ((component, side) -> (src, label)), in the
    data's order; a component whose front image was not made is left out."""
    out = []
    for component in looked(game):
        front = images.get((component.id, FRONT))
        if front is None:
            continue
        back = images.get((component.id, BACK), ("", ""))
        item = component.items[0]
        size = component.size
        out.append(LookDesign(component.id, component.name, component.kind, str(item.fields.get("name") or item.id),
                              component.count, len(component.items), size.label(), size.width, size.height,
                              size.shape, size.corner, front[0], back[0], back[1]))
    return out


def side_of(name: str, component: str) -> str | None:
    """Which side a look file shows, from its name (`file_name`); None for a file that is not one."""
    for side in (FRONT, BACK):
        if name == f"{component}-{side}.png":
            return side
    return None


def look_images(records: Iterable[tuple[str, str, str, str]]) -> dict[tuple[str, str], tuple[str, str]]:
    """(component, side) -> (src, label) from the look files' (component, name, src, label)."""
    found = {}
    for component, name, src, label in records:
        side = side_of(name, component)
        if side is not None:
            found[(component, side)] = (src, label)
    return found
