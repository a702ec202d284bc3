"""Card and tile pictures inside documents, drawn by the renderer's face function.

INTEGRATION POINT: `generator.render.faces.draw_face` is owned by the face
renderer. Until it exists (or if its signature differs), `_draw_face` falls
back to a labelled outline at the true aspect ratio, so documents still build.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from generator.errors import DataError, Location
from generator.model import Component, Game, Item
from generator.project import Project


def resolve(game: Game, ref: str, where: Location) -> tuple[Component, Item]:
    """`component/item` to the model objects, or a DataError naming what exists."""
    component_id, _, item_id = ref.partition("/")
    if not game.has_component(component_id):
        known = ", ".join(c.id for c in game.components)
        raise DataError(f"picture names unknown component {component_id!r} (components: {known})", where)
    component = game.component(component_id)
    try:
        return component, component.item(item_id)
    except KeyError:
        sample = ", ".join(i.id for i in component.items[:6])
        raise DataError(f"picture names unknown item {item_id!r} of {component_id} (e.g. {sample})", where) from None


class FacePicture(Flowable):
    """One face at a fixed height, scaled from its trim size.

    The face is resolved when the flowable is made, so a broken layout is
    reported before any page is drawn.
    """

    def __init__(self, game: Game, project: Project, component: Component, item: Item, side: str, height: float):
        super().__init__()
        self.component, self.item = component, item
        self.face = resolve_face(game, project, component, item, side)
        self.scale = height / (component.size.height * mm)
        self.width = component.size.width * mm * self.scale
        self.height = height

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        canvas.scale(self.scale, self.scale)
        draw_resolved_face(canvas, self.face, self.component, self.item)
        canvas.restoreState()


def resolve_face(game: Game, project: Project, component: Component, item: Item, side: str) -> Any:
    """The face renderer's resolved face, or None while the component has no layout yet.

    INTEGRATION POINT with `generator.render.faces` (owned by the face renderer).
    A missing layout file gives a labelled outline instead, so documents build
    while layouts are being written; `pnp build` reports the missing layout itself.
    """
    layout = component.back if side == "back" and component.back else component.front
    if not (project.templates_dir / "layouts" / f"{layout}.yaml").is_file():
        return None
    try:
        from generator.render.faces import renderer
    except ImportError:
        return None
    return renderer(project).face(game, component, item, side)


def draw_resolved_face(canvas: Any, face: Any, component: Component, item: Item) -> None:
    """Draw a face from `resolve_face` (or its placeholder) with its lower-left corner at the origin."""
    if face is None:
        _placeholder(canvas, component, item)
        return
    from generator.render.faces import draw_resolved

    draw_resolved(canvas, face, 0, 0)


def _draw_face(canvas: Any, game: Game, component: Component, item: Item, side: str, project: Project) -> None:
    """Draw one face at true size with its lower-left corner at the origin."""
    draw_resolved_face(canvas, resolve_face(game, project, component, item, side), component, item)


def _placeholder(canvas: Any, component: Component, item: Item) -> None:
    w, h = component.size.width * mm, component.size.height * mm
    canvas.setStrokeColor(colors.HexColor("#555555"))
    canvas.setFillColor(colors.HexColor("#fbf7ee"))
    canvas.setLineWidth(1.2)
    if component.size.shape == "circle":
        canvas.circle(w / 2, h / 2, w / 2, stroke=1, fill=1)
    else:
        canvas.roundRect(0, 0, w, h, max(component.size.corner * mm, 0.1), stroke=1, fill=1)
    canvas.setFillColor(colors.HexColor("#1b1b1b"))
    label = str(item.get("name", item.id))
    size = min(14.0, w / max(len(label), 6) * 1.6)
    canvas.setFont("Sans-Bold", size)
    canvas.drawCentredString(w / 2, h / 2 + size * 0.4, label)
    canvas.setFont("Sans", size * 0.6)
    canvas.drawCentredString(w / 2, h / 2 - size * 0.8, "(layout to come)")
