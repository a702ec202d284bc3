"""Documents: rulebooks, score sheets, play aids, screens and boards (component kinds `sheet`, `board`).

Entry points:

- `write_documents(game, project, paper, booklet=False) -> list[Path]` builds
  and writes everything of one game for one paper ("a4" or "letter").
- `document_jobs(game, project, options) -> list[Job]` gives the same work as
  `pnp build` jobs (one per file group), for every paper in `options.papers`;
  a `booklet` attribute on the options, when true, adds the booklets.

Files, all in `project.output_dir / game.id`:

- `<game>-rules-<paper>.pdf`, and with booklets also `<game>-booklet-<paper>.pdf`:
  A5 (half-letter) pages imposed two-up on landscape sheets in saddle-stitch
  order (print duplex, flip on the short edge, fold, staple);
- per sheet template `templates/sheets/<game>/<name>.md.j2`:
  `<game>-<name>-<paper>.pdf`, plus `<game>-<name>-fillable-<paper>.pdf`
  (an AcroForm PDF) when the sheet has fill-in boxes;
- per `board` component: `<game>-<board>-<paper>.pdf`, the board at real size,
  tiled over as many sheets as it needs with overlap and alignment marks.

Every file goes through `write_atomic`, and the same inputs give the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from generator.model import Game
from generator.project import Project, write_atomic
from generator.render.documents.styles import paper_size

Producer = Callable[[], dict[str, bytes]]


def document_outputs(game: Game, project: Project, paper: str, booklet: bool = False) -> list[tuple[str, Producer]]:
    """(label, producer) pairs; each producer returns file name -> bytes. Nothing is built yet."""
    from generator.render.documents.boards import board_components, board_pdf
    from generator.render.documents.rulebook import rulebook_pdf
    from generator.render.documents.sheets import sheet_name, sheet_pdf, sheet_templates

    paper_size(paper)  # a bad paper name fails before any work
    prefix = game.id
    outputs: list[tuple[str, Producer]] = [
        (f"{prefix} rules {paper}", lambda: {f"{prefix}-rules-{paper}.pdf": rulebook_pdf(game, project, paper)}),
    ]
    if booklet:
        outputs.append((f"{prefix} booklet {paper}",
                        lambda: {f"{prefix}-booklet-{paper}.pdf": rulebook_pdf(game, project, paper, booklet=True)}))

    def sheet_files(template: Path) -> dict[str, bytes]:
        name = sheet_name(template)
        files = {f"{prefix}-{name}-{paper}.pdf": sheet_pdf(game, project, template, paper, fillable=False)}
        fillable = sheet_pdf(game, project, template, paper, fillable=True)
        if b"/AcroForm" in fillable:
            files[f"{prefix}-{name}-fillable-{paper}.pdf"] = fillable
        return files

    for template in sheet_templates(game, project):
        outputs.append((f"{prefix} {sheet_name(template)} {paper}", lambda t=template: sheet_files(t)))
    for component in board_components(game):
        outputs.append((f"{prefix} {component.id} {paper}",
                        lambda c=component: {f"{prefix}-{c.id}-{paper}.pdf": board_pdf(game, project, c, paper)}))
    return outputs


def write_documents(game: Game, project: Project, paper: str, booklet: bool = False) -> list[Path]:
    """Build every document of one game for one paper size; returns the paths written (changed or not)."""
    folder = project.output_dir / game.id
    built: dict[Path, bytes] = {}
    for _, produce in document_outputs(game, project, paper, booklet):
        built.update((folder / name, data) for name, data in produce().items())
    for path, data in built.items():  # everything is built before anything is written
        write_atomic(path, data)
    return list(built)


def document_jobs(game: Game, project: Project, options: Any) -> list[Any]:
    """`pnp build` jobs for this game's documents, for each paper in `options.papers`."""
    from generator.render.build import Job

    folder = project.output_dir / game.id
    booklet = bool(getattr(options, "booklet", False))
    return [
        Job(game.id, label, folder, produce, pure=True)  # bytes out, nothing else touched
        for paper in options.papers
        for label, produce in document_outputs(game, project, paper, booklet)
    ]


__all__ = ["document_jobs", "document_outputs", "write_documents"]
