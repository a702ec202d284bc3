"""The front of a game's box for the showcase: its title over an illustration from the game's own art.

The picture is data: `theme.box_art` in game.yaml names an SVG in templates/art/<game>/ (the art the faces
use, with its licence row beside it). The front is drawn with ReportLab in the theme's colours and the
documents' display font, like any face, then rendered by pdfium, so the title is the same type as the
rulebook's and the art the same paths as on the cards. A game without `theme.box_art` has no box front.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from PIL import Image

from generator.checks import Check
from generator.errors import DataError
from generator.model import Game
from generator.project import Project
from generator.render.base.units import pt

if TYPE_CHECKING:
    from generator.render.faces.images import Picture
    from generator.render.faces.renderer import FaceRenderer

SIZE = (150.0, 150.0)  # mm: a square box lid, as most card-game boxes of this size are
TITLE_FONT = "Display"
TEXT_FONT = "Sans-Bold"


def box_art_path(game: Game) -> str | None:
    """The box front's illustration, relative to templates/ (None when the game names none)."""
    art = game.theme.get("box_art")
    if art is None:
        return None
    if not isinstance(art, str) or not art or "/" in art or art.startswith("."):
        raise DataError(f"theme.box_art must name an SVG in templates/art/{game.id}/ without its suffix, "
                        f"got {art!r}", game.theme_location("box_art"))
    return f"art/{game.id}/{art}.svg"


def box_picture(project: Project, game: Game) -> Picture | None:
    """The SVG `theme.box_art` names, read through the project's gate (so a build records it), or None."""
    from generator.render.faces.images import load_picture

    relative = box_art_path(game)
    if relative is None:
        return None
    where = game.theme_location("box_art")
    path = project.templates_dir / relative
    if not path.is_file():
        raise DataError(f"theme.box_art: there is no templates/{relative}; name one of the SVGs in "
                        f"templates/art/{game.id}/", where)
    picture = load_picture(project.gate, path, relative, where)
    if not picture.vector:
        raise DataError(f"theme.box_art: templates/{relative} is not SVG art", where)
    return picture


def box_art_checks(game: Game, project: Project) -> list[Check]:
    """`pnp validate`'s line for the box front's art: the file `theme.box_art` names is SVG art that loads."""
    picture = box_picture(project, game)
    if picture is None:
        return []
    return [Check("theme.box_art", "an SVG in templates/art/<game>/", picture.path, True,
                  game.theme_location("box_art"))]


def box_front(faces: FaceRenderer, game: Game, dpi: int) -> Image.Image | None:
    """The box front as an RGBA image at `dpi`, or None when the game has no `theme.box_art`."""
    import pypdfium2 as pdfium

    pdf = box_front_pdf(faces, game)
    if pdf is None:
        return None
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[0].render(scale=dpi / 72).to_pil()
    finally:
        document.close()
    return image.convert("RGBA")


def box_front_pdf(faces: FaceRenderer, game: Game) -> bytes | None:
    """The box front as a one-page PDF (SIZE mm), or None when the game has no `theme.box_art`."""
    from reportlab.graphics import renderPDF
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen import canvas as rl_canvas

    from generator.render.base.fonts import register_fonts
    from generator.render.documents.styles import palette

    picture = box_picture(faces.project, game)
    if picture is None:
        return None
    register_fonts()
    colours = palette(game)  # the theme's colours, as the rulebook reads them (with the same defaults)
    width, height = pt(SIZE[0]), pt(SIZE[1])
    buffer = io.BytesIO()
    c = rl_canvas.Canvas(buffer, pagesize=(width, height), invariant=1, pageCompression=1)
    c.setTitle(f"{game.title}: box front")
    c.setFillColor(colours.primary)
    c.rect(0, 0, width, height, stroke=0, fill=1)
    inset = pt(5)
    c.setStrokeColor(colours.accent)
    c.setLineWidth(2)
    c.rect(inset, inset, width - 2 * inset, height - 2 * inset, stroke=1, fill=0)
    c.setLineWidth(0.6)
    c.rect(inset + pt(1.6), inset + pt(1.6), width - 2 * inset - pt(3.2), height - 2 * inset - pt(3.2),
           stroke=1, fill=0)
    _title(c, game.title, width, height - pt(30), width - pt(26), colours.paper, stringWidth)
    centre_y, radius = height * 0.45, pt(45)
    c.setFillColor(colours.paper)
    c.setStrokeColor(colours.accent)
    c.setLineWidth(2.5)
    c.circle(width / 2, centre_y, radius, stroke=1, fill=1)
    _art(c, picture.drawing(), width / 2, centre_y, pt(62), renderPDF)
    players = (f"{game.players_min}" if game.players_min == game.players_max
               else f"{game.players_min}\u2013{game.players_max}")
    minutes = game.play_time
    time = f"{minutes[0]}" if minutes[0] == minutes[1] else f"{minutes[0]}\u2013{minutes[1]}"
    line = f"{players} players  \u00b7  {time} minutes"
    c.setFillColor(colours.accent)
    c.setFont(TEXT_FONT, 13)
    c.drawCentredString(width / 2, pt(13), line)
    c.showPage()
    c.save()
    return buffer.getvalue()


def _title(c: Any, title: str, width: float, baseline: float, room: float, colour: Any, measure: Any) -> None:
    """The title centred on `baseline`, as large as fits `room` (at most 40 pt)."""
    size = 40.0
    while size > 14 and measure(title, TITLE_FONT, size) > room:
        size -= 1
    c.setFillColor(colour)
    c.setFont(TITLE_FONT, size)
    c.drawCentredString(width / 2, baseline, title)


def _art(c: Any, drawing: Any, x: float, y: float, box: float, render_pdf: Any) -> None:
    """The SVG drawing scaled to fit a `box`-point square centred on (x, y), aspect kept."""
    scale = box / max(drawing.width, drawing.height)
    c.saveState()
    c.translate(x - drawing.width * scale / 2, y - drawing.height * scale / 2)
    c.scale(scale, scale)
    render_pdf.draw(drawing, c, 0, 0)
    c.restoreState()
