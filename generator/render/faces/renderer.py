"""Faces: one side of one item, drawn from its layout. The public entry points for other renderers.

For the documents helper (rulebooks showing cards), two calls:

- `draw_face(canvas, game, component, item, side, x, y, project, bleed=0)`
  draws the face with its trim box's bottom-left corner at (x, y) points on any
  ReportLab canvas, at true size (scale it with `canvas.scale` first for a
  thumbnail). With `bleed` > 0 (mm) the background reaches that far out.
- `face_flowable(game, component, item, side, project, width=None)` returns a
  Platypus Flowable of the face, scaled to `width` points if given, for
  story-based documents.

`side` is "front" or "back"; a double-sided item's back draws `item.back`
with the component's back layout. Layouts are compiled once per project
handle (`renderer(project)`, kept by the handle's read gate), so drawing many
faces costs template renders and path drawing only.
"""

from __future__ import annotations

from typing import Any

from generator.model import Component, Game, Item
from generator.project import Project
from generator.readgate import ReadSet
from generator.render.base.units import pt
from generator.render.faces.draw import draw_face as _draw_resolved
from generator.render.faces.layout import Face, LayoutLibrary, back_layout
from generator.render.faces.stamps import FormStore
from generator.speed import speedups

SIDES = ("front", "back")


class FaceRenderer:
    """Resolves faces of one project handle, caching compiled layouts and resolved faces.

    A resolved face is kept with the reads it needed (layouts, images) for one build
    (one read-gate generation): whoever asks for it again inherits those reads, so a
    job's recorded inputs are complete even when the face came from this cache. Faces
    are keyed by the game object itself, so a reloaded game (an edit in `pnp watch`),
    or a document's watched view of one, is resolved afresh.
    """

    def __init__(self, project: Project) -> None:
        from generator.render.base.fonts import register_fonts

        register_fonts()
        self.project = project
        self.library = LayoutLibrary(project)
        self._generation = -1
        self._games: dict[int, Game] = {}  # keeps each game alive while its id() keys the faces
        self._faces: dict[tuple[int, str, str, str], tuple[Face, ReadSet]] = {}
        # faces drawn as PDF forms, replayed into the next sheets (stamps.py; plain drawing with the speed switch off)
        self.forms = FormStore(replay=speedups().replay)

    def face(self, game: Game, component: Component, item: Item, side: str = "front") -> Face:
        """The resolved face (hashable; equal faces draw identically)."""
        gate = self.project.gate
        if self._generation != gate.generation:
            self._generation, self._games, self._faces = gate.generation, {}, {}
            self.forms.next_build()
        key = (id(game), component.id, item.id, side)
        found = self._faces.get(key)
        if found is not None and self._games.get(id(game)) is game:
            gate.inherit(found[1])
            return found[0]
        with gate.recording() as reads:
            face = self.library.face(game, component, item, side)
        self._games[id(game)] = game
        self._faces[key] = (face, reads)
        return face

    def has_back(self, component: Component) -> bool:
        return back_layout(component) is not None


def renderer(project: Project) -> FaceRenderer:
    """The renderer of this project handle (layouts compiled once per handle, kept by its read gate)."""
    return project.gate.derived(("face-renderer",), lambda: FaceRenderer(project))


def draw_resolved(c: Any, face: Face, x: float, y: float, bleed: float = 0.0) -> None:
    """Draw an already resolved face with its trim bottom-left at (x, y) points."""
    c.saveState()
    c.translate(x, y)
    _clip(c, -pt(bleed), -pt(bleed), pt(face.width + 2 * bleed), pt(face.height + 2 * bleed))
    _draw_resolved(c, face, bleed)
    c.restoreState()


def draw_face(c: Any, game: Game, component: Component, item: Item, side: str, x: float, y: float,
              project: Project, bleed: float = 0.0) -> None:
    """Draw one face of `item` with its trim box's bottom-left at (x, y) points; see the module doc."""
    draw_resolved(c, renderer(project).face(game, component, item, side), x, y, bleed)


def face_flowable(game: Game, component: Component, item: Item, side: str, project: Project,
                  width: float | None = None) -> Any:
    """A Platypus Flowable drawing the face at true size, or scaled to `width` points."""
    from reportlab.platypus import Flowable

    face = renderer(project).face(game, component, item, side)
    scale = (width / pt(face.width)) if width else 1.0

    class FaceFlowable(Flowable):
        def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
            return pt(face.width) * scale, pt(face.height) * scale

        def draw(self) -> None:
            self.canv.saveState()
            self.canv.scale(scale, scale)
            draw_resolved(self.canv, face, 0, 0, 0.0)
            self.canv.restoreState()

    return FaceFlowable()


def _clip(c: Any, x: float, y: float, w: float, h: float) -> None:
    path = c.beginPath()
    path.rect(x, y, w, h)
    c.clipPath(path, stroke=0, fill=0)
