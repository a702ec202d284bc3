"""Scenes: a drawing of the table (a setup, a board in play) made of real faces, labels and zones.

A scene is written in millimetres from its top-left corner (see `markup.Scene`)
and drawn scaled to the frame. Every face is the face the print sheets draw,
made once per document as a PDF form named `face-<component>-<item>-<side>`
and placed wherever it appears, so a test can read back which face lies where.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from generator.errors import DataError, Location
from generator.model import Component, Game, Item
from generator.project import Project
from generator.render.documents import markup
from generator.render.documents.iconpara import IconParagraph as Paragraph  # inline :icon: at text size
from generator.render.documents.pictures import face_form, form_name, resolve, resolve_face
from generator.render.documents.styles import Styles
from generator.render.faces.icons import icon_set
from generator.render.faces.layout import Face
from generator.render.faces.renderer import renderer

STACK_STEP = 0.7  # mm between the edges of a pile's cards
TALL = 1.25       # a scene is never drawn taller than this many times the frame width
LABEL_FONT = "Sans-Bold"


@dataclass(frozen=True)
class Placed:
    """A face resolved for drawing: its form name, true size (mm) and where it goes."""

    form: str
    face: Face
    item: markup.SceneItem
    component: Component
    found: Item

    @property
    def box(self) -> tuple[float, float]:
        """Width and height (mm) of the face as turned."""
        w, h = self.face.width, self.face.height
        return (h, w) if self.item.turn in (90, 270) else (w, h)


class SceneFlowable(Flowable):
    """A scene scaled to the frame width, its caption underneath."""

    def __init__(self, game: Game, project: Project, scene: markup.Scene, styles: Styles, file: str,
                 max_height: float = 0.0):
        super().__init__()
        self.max_height = max_height  # points; 0 for no limit beyond the width
        self.scene, self.styles = scene, styles
        self.store = renderer(project).forms  # face drawings replayed from earlier documents (pictures.face_form)
        self.placed: list[Placed] = []
        for item in scene.items:
            if item.kind != "face":
                continue
            where = Location(file, item.line)
            component, found = resolve(game, item.ref, where)
            if item.side == "back" and component.back is None and not component.double_sided:
                raise DataError(f"{component.id} has no back to draw", where)
            face = resolve_face(game, project, component, found, item.side)
            self.placed.append(Placed(form_name(component, found, item.side), face, item, component, found))
        self.caption = (Paragraph(markup.inline_to_para(scene.caption), styles.caption, icons=icon_set(project, game.id))
                        if scene.caption else None)
        self.scale = 1.0
        self.hAlign = "CENTER"

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        w, h = self.scene.width * mm, self.scene.height * mm
        self.scale = min(1.0, avail_width / w, avail_width * TALL / h)
        if self.max_height:  # room for a heading and a caption on the same page
            self.scale = min(self.scale, self.max_height / h)
        self.width = w * self.scale
        self.drawing_height = h * self.scale
        self.caption_height = self.caption.wrap(self.width, avail_height)[1] + 2 if self.caption else 0
        self.height = self.drawing_height + self.caption_height
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        s = self.scale * mm  # points per scene millimetre
        top = self.height  # scene y runs down from the top of the drawing
        canvas.saveState()
        frame = canvas.beginPath()  # a scene may show part of a board: nothing spills out of its box
        frame.rect(0, self.caption_height, self.width, self.drawing_height)
        canvas.clipPath(frame, stroke=0, fill=0)
        for item in self.scene.items:
            if item.kind == "zone":
                self._zone(item, s, top)
        for placed in self.placed:
            self._face(placed, s, top)
        size = self.styles.caption.fontSize
        for item in self.scene.items:  # words last, so that no face hides them
            if item.kind == "arrow":
                self._arrow(item, s, top)
            elif item.kind == "label":
                self._label(item.text, item.x * s, top - item.y * s)
            elif item.kind == "zone" and item.text:
                self._label(item.text, (item.x + item.w / 2) * s, top - item.y * s - size * 1.1)
        canvas.restoreState()
        if self.caption:
            self.caption.drawOn(canvas, 0, 0)

    def _face(self, placed: Placed, s: float, top: float) -> None:
        canvas = self.canv
        item, face = placed.item, placed.face
        face_form(canvas, placed.component, placed.found, item.side, face, self.store)
        size = placed.component.size
        bw, bh = placed.box
        for depth in reversed(range(item.stack)):
            step = depth * STACK_STEP
            cx = (item.x + bw / 2 + step) * s
            cy = top - (item.y + bh / 2 + step) * s
            canvas.saveState()
            canvas.translate(cx, cy)
            canvas.scale(self.scale, self.scale)
            canvas.rotate(-item.turn)
            canvas.translate(-face.width * mm / 2, -face.height * mm / 2)
            if depth:  # the cards under the top one show only their edges
                canvas.setFillColorRGB(1, 1, 1)
                canvas.setStrokeColor(self.styles.palette.ink)
                canvas.setLineWidth(0.4 / self.scale)
                if size.shape == "circle":
                    canvas.circle(face.width * mm / 2, face.height * mm / 2, face.width * mm / 2, stroke=1, fill=1)
                else:
                    canvas.roundRect(0, 0, face.width * mm, face.height * mm, max(size.corner, 0.5) * mm,
                                     stroke=1, fill=1)
            else:
                canvas.doForm(placed.form)
            canvas.restoreState()
        if item.counted:  # piles of coins or tokens look alike whatever they hold: the scene says how many
            self._label(f"×{item.stack}", (item.x + bw + (item.stack - 1) * STACK_STEP) * s + 6,
                        top - (item.y + bh) * s + 3)

    def _zone(self, item: markup.SceneItem, s: float, top: float) -> None:
        canvas = self.canv
        pal = self.styles.palette
        canvas.saveState()
        canvas.setStrokeColor(pal.primary)
        canvas.setFillColor(pal.paper)
        canvas.setDash(3, 2)
        canvas.setLineWidth(0.7)
        canvas.roundRect(item.x * s, top - (item.y + item.h) * s, item.w * s, item.h * s, 2 * mm * self.scale,
                         stroke=1, fill=1)
        canvas.restoreState()

    def _arrow(self, item: markup.SceneItem, s: float, top: float) -> None:
        canvas = self.canv
        x1, y1, x2, y2 = item.x * s, top - item.y * s, item.w * s, top - item.h * s
        angle = math.atan2(y2 - y1, x2 - x1)
        head = 2.2 * mm
        canvas.saveState()
        canvas.setStrokeColor(self.styles.palette.accent)
        canvas.setFillColor(self.styles.palette.accent)
        canvas.setLineWidth(1.4)
        canvas.line(x1, y1, x2, y2)
        path = canvas.beginPath()
        path.moveTo(x2, y2)
        for side in (-1, 1):
            path.lineTo(x2 - head * math.cos(angle + side * 0.45), y2 - head * math.sin(angle + side * 0.45))
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
        canvas.restoreState()

    def _label(self, text: str, x: float, y: float) -> None:
        """Words centred on (x, y) on a pale patch, at a readable size whatever the scale; ' // ' breaks a line."""
        style = self.styles.caption
        lines = [markup.plain(part).strip() for part in text.split(" // ")]
        size, leading = style.fontSize, style.fontSize * 1.2
        width = max(stringWidth(line, LABEL_FONT, size) for line in lines) + 4
        height = leading * len(lines) + 2
        canvas = self.canv
        canvas.saveState()
        canvas.setFillColor(self.styles.palette.paper)
        canvas.roundRect(x - width / 2, y - height / 2, width, height, 1.5, stroke=0, fill=1)
        canvas.setFillColor(self.styles.palette.primary)
        canvas.setFont(LABEL_FONT, size)
        first = y + (len(lines) - 1) * leading / 2 - size * 0.35
        for i, line in enumerate(lines):
            canvas.drawCentredString(x, first - i * leading, line)
        canvas.restoreState()
