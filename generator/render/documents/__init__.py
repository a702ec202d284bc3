"""Documents: rulebooks, score sheets, play aids, screens and boards (component kinds `sheet`, `board`).

Entry points:

- `write_documents(game, project, paper, booklet=False) -> list[Path]` builds
  and writes everything of one game for one registered paper ("a4", "letter").
- `document_specs(game, project, paper, booklet, options)` gives the same work
  as specs, not built yet, which the build layer turns into its jobs
  (`generator.build.plan.document_jobs`).

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

It may import render.sheets, faces and base, model and the ground floor. It hands the build layer specs
and never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from generator.model import Game
from generator.project import Project, write_atomic
from generator.render.base.outputs import FileKind, OutputFile
from generator.render.base.units import paper as registered_paper
from generator.render.sheets.options import PrintChoices, PrintSettings


@dataclass(frozen=True)
class DocumentSpec:
    """One document job before it runs: `produce(game)` makes its files from the game it is given.

    The game is a parameter (not captured) so that the build can hand in a
    watched copy and record which item fields the document read.
    """

    label: str
    subject: str  # what it makes: "rules", a sheet's name, a board's component id
    exporter: str  # "documents", or "booklet" for the booklet that only --booklet asks for
    produce: Callable[[Game], list[OutputFile]]


def document_specs(game: Game, project: Project, paper: str, booklet: bool = False,
                   options: PrintSettings | None = None) -> list[DocumentSpec]:
    """Every document of one game for one paper, not built yet; `options` (the build's) feed the
    rulebooks' "How to print" page (defaults: `PrintChoices`)."""
    from generator.render.documents.boards import board_components, board_pdf
    from generator.render.documents.rulebook import parse_template, rulebook_pdf
    from generator.render.documents.sheets import draw_sheet, has_fields, lay_out_sheet, sheet_name, sheet_templates

    registered_paper(paper)  # a bad paper name fails before any work
    prefix = game.id

    def plan(seen: Game) -> Any:
        from generator.render.documents.print_plan import print_plan

        return print_plan(seen, project, options or PrintChoices(booklet=booklet), paper)

    def rules(seen: Game) -> list[OutputFile]:
        return [OutputFile(f"{prefix}-rules-{paper}.pdf", FileKind.RULES,
                           rulebook_pdf(seen, project, paper, printing=plan(seen)), label="rulebook", paper=paper)]

    def rules_booklet(seen: Game) -> list[OutputFile]:
        return [OutputFile(f"{prefix}-booklet-{paper}.pdf", FileKind.BOOKLET,
                           rulebook_pdf(seen, project, paper, booklet=True, printing=plan(seen)),
                           label="rulebook booklet", paper=paper)]

    def sheet_files(template: Path, seen: Game) -> list[OutputFile]:
        from generator.render.documents.two_up import two_up_sheet
        from generator.render.faces.renderer import renderer

        name = sheet_name(template)
        title = name.replace("-", " ")  # what the look page calls it: "score pad", "loon ledger"
        parsed = parse_template(template, seen, project)
        layout = lay_out_sheet(seen, project, template, paper, parsed)  # once for every PDF drawn from it
        imposed = two_up_sheet(seen, project, template, paper, layout)  # A5 sheets: two to a page
        store = renderer(project).forms  # the session's font subsets, made and compressed once (stamps.py)
        if imposed is None:
            printed = OutputFile(f"{prefix}-{name}-{paper}.pdf", FileKind.SCORE_SHEET,
                                 draw_sheet(layout, fillable=False, store=store), label=title, paper=paper)
        else:
            printed = OutputFile(f"{prefix}-{name}-{paper}-{imposed[0]}.pdf", FileKind.SCORE_SHEET, imposed[1],
                                 label=title, paper=paper)
        files = [printed]
        if not has_fields(parsed[1]):  # nothing to fill in: no fillable PDF to make
            return files
        fillable = draw_sheet(layout, fillable=True, store=store)
        if b"/AcroForm" in fillable:
            files.append(OutputFile(f"{prefix}-{name}-fillable-{paper}.pdf", FileKind.FILLABLE, fillable,
                                    label=f"{title} (fillable)", paper=paper))
        return files

    def board(component_id: str, seen: Game) -> list[OutputFile]:
        component = seen.component(component_id)
        return [OutputFile(f"{prefix}-{component_id}-{paper}.pdf", FileKind.BOARD,
                           board_pdf(seen, project, component, paper), component_id, paper=paper)]

    specs = [DocumentSpec(f"{prefix} rules {paper}", "rules", "documents", rules)]
    if booklet:
        specs.append(DocumentSpec(f"{prefix} booklet {paper}", "rules", "booklet", rules_booklet))
    for template in sheet_templates(game, project):
        name = sheet_name(template)
        specs.append(DocumentSpec(f"{prefix} {name} {paper}", name, "documents", partial(sheet_files, template)))
    for component in board_components(game):
        specs.append(DocumentSpec(f"{prefix} {component.id} {paper}", component.id, "documents",
                                  partial(board, component.id)))
    return specs


def write_documents(game: Game, project: Project, paper: str, booklet: bool = False) -> list[Path]:
    """Build every document of one game for one paper size; returns the paths written (changed or not)."""
    folder = project.output_dir / game.id
    built: dict[Path, bytes] = {}
    for spec in document_specs(game, project, paper, booklet):
        built.update((folder / output.name, output.data) for output in spec.produce(game))
    for path, data in built.items():  # everything is built before anything is written
        write_atomic(path, data)
    return list(built)


__all__ = ["DocumentSpec", "document_specs", "write_documents"]
