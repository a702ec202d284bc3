"""Card and tile pictures inside documents, drawn by the same face renderer as the print sheets.

A missing or broken layout is a DataError at its file:line, as everywhere else:
a document never shows a stand-in for a face.
"""

from __future__ import annotations

import re
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from generator.errors import DataError, Location
from generator.model import Component, Game, Item
from generator.model.sizes import Size
from generator.project import Project
from generator.render.faces.layout import Face
from generator.render.faces.renderer import draw_resolved, renderer
from generator.render.faces.stamps import FormStore


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
        self.component, self.item, self.side = component, item, side
        self.face = resolve_face(game, project, component, item, side)
        self.store = renderer(project).forms
        self.scale = height / (component.size.height * mm)
        self.width = component.size.width * mm * self.scale
        self.height = height

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        canvas.scale(self.scale, self.scale)
        canvas.doForm(face_form(canvas, self.component, self.item, self.side, self.face, self.store))
        canvas.restoreState()


def form_name(component: Component, item: Item, side: str) -> str:
    """The PDF form that carries one face (also what tests look for)."""
    return "face-" + re.sub(r"[^A-Za-z0-9_-]+", "-", f"{component.id}-{item.id}-{side}")


def face_form(canvas: Any, component: Component, item: Item, side: str, face: Face,
              store: FormStore | None = None) -> str:
    """The name of a PDF form holding the face, cut to its shape; made once per document (per canvas).

    With the session's `store` (`renderer(project).forms`), a drawing made for an earlier document
    is replayed when this one's fonts stand exactly as they did then (the other paper's rulebook,
    the booklet, the next build in `pnp watch`): the same bytes, without drawing (stamps.py)."""
    name = form_name(component, item, side)
    made: set[str] = getattr(canvas, "_face_forms", set())
    canvas._face_forms = made
    if name not in made:
        def draw() -> None:
            _die_cut(canvas, component.size)
            draw_resolved(canvas, face, 0, 0)

        box = (0.0, 0.0, face.width * mm, face.height * mm)
        if store is None:
            canvas.beginForm(name, *box)
            draw()
            canvas.endForm()
        else:
            store.form(canvas, name, box, ("document face", face, component.size), draw)
        made.add(name)
    return name


def _die_cut(canvas: Any, size: Size) -> None:
    """Clip to the shape the piece is cut to: round tokens are round, cards have round corners."""
    path = canvas.beginPath()
    w, h = size.width * mm, size.height * mm
    if size.shape == "circle":
        path.circle(w / 2, h / 2, w / 2)
    else:
        path.roundRect(0, 0, w, h, size.corner * mm)
    canvas.clipPath(path, stroke=0, fill=0)


def resolve_face(game: Game, project: Project, component: Component, item: Item, side: str) -> Face:
    """The face as the print sheets draw it (resolved once, so errors surface before drawing)."""
    return renderer(project).face(game, component, item, side)


def draw_face(canvas: Any, game: Game, component: Component, item: Item, side: str, project: Project) -> None:
    """Draw one face at true size with its lower-left corner at the origin."""
    draw_resolved(canvas, resolve_face(game, project, component, item, side), 0, 0)
