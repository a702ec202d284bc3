"""A game's rulebook: `templates/rulebooks/<game>.md.j2` rendered over the game data to PDF."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.errors import DataError
from generator.model import Game
from generator.project import Project
from generator.render.documents import markup
from generator.render.documents.booklet import BookletCanvas, booklet_canvas
from generator.render.documents.document import build_pdf
from generator.render.documents.flowables import Builder
from generator.render.documents.styles import MARGIN, booklet_page, document_fonts, make_styles, paper_size
from generator.render.documents.templating import render_template, template_context
from generator.render.faces.icons import icon_set
from generator.render.faces.renderer import renderer


def rulebook_template(game: Game, project: Project) -> Path:
    path = project.inside(project.templates_dir, f"rulebooks/{game.id}.md.j2", game.location)
    if not project.gate.exists(path, game.location):
        raise DataError(f"no rulebook template: {project.display(path)} is missing", game.location)
    return path


def parse_template(path: Path, game: Game, project: Project,
                   extra: Mapping[str, Any] | None = None) -> tuple[str, list[markup.Block]]:
    """Render and parse one document template; (display name, blocks). `extra`: more names in scope.

    Without `extra`, a build's jobs and validation in this process share each parse (`parses.py`)."""
    if extra is None:
        from generator.render.documents.parses import template_parses

        return template_parses(project).parse(path, game, project, _parse)
    return _parse(path, game, project, extra)


def _parse(path: Path, game: Game, project: Project,
           extra: Mapping[str, Any] | None = None) -> tuple[str, list[markup.Block]]:
    display = project.display(path)
    fonts = document_fonts(game, project)
    lines = render_template(path, display, {**template_context(game), **(extra or {})}, gate=project.gate,
                            fonts=(fonts.checked, (fonts.display,)))
    return display, markup.parse(lines, display, icon_set(project, game.id).names)


HOW_TO_PRINT = "rulebooks/how-to-print.md.j2"  # every rulebook's last page, drawn from the build's print plan


def how_to_print(game: Game, project: Project, printing: Any) -> tuple[str, list[markup.Block]]:
    """The "How to print and assemble" page for `printing` (a `PrintPlan`), with its template's display name;
    no blocks if the project has no template."""
    path = project.inside(project.templates_dir, HOW_TO_PRINT, game.location)
    if not project.gate.exists(path, game.location):
        return HOW_TO_PRINT, []
    return parse_template(path, game, project, {"printing": printing})


def rulebook_pdf(game: Game, project: Project, paper: str, booklet: bool = False, printing: Any = None) -> bytes:
    """The rulebook as PDF bytes: full pages of `paper`, or a saddle-stitched booklet on it.

    With a print plan (`generator.render.documents.print_plan`), the last page says how to print and assemble."""
    sheet = paper_size(paper)
    pagesize = booklet_page(paper) if booklet else sheet
    scale = 0.82 if booklet else 1.0
    styles = make_styles(game, scale, document_fonts(game, project))
    display, blocks = parse_template(rulebook_template(game, project), game, project)
    margin = MARGIN * (0.75 if booklet else 1.0)
    builder = Builder(game, project, styles, display, outline=not booklet, soft_breaks=True, keep_long_lists=True)
    builder.width = pagesize[0] - 2 * margin
    builder.height = pagesize[1] - 2 * margin - 4 * mm  # the footer's room, as in Document
    story = builder.located(blocks, display)
    if printing is not None:
        last_page, last_blocks = how_to_print(game, project, printing)
        story += builder.located(last_blocks, last_page)
    flowables = builder.guard(story) if builder.guard_headings else story
    canvasmaker = booklet_canvas(sheet) if booklet else Canvas
    footer = f"{game.title} \u2014 rules"
    store = renderer(project).forms  # the session's font subsets, made and compressed once (stamps.py)

    def save(canvas: Canvas) -> None:
        if isinstance(canvas, BookletCanvas):
            canvas.impose()  # its sheets first, as its own save would: the same object order
        store.save(canvas)

    return build_pdf(flowables, pagesize, margin, f"{game.title}: rules", styles, footer,
                     canvasmaker=canvasmaker, links=not booklet, saver=save)

