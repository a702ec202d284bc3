"""What a build asks you to print for one game and paper, worked out from the build options and the data.

The rulebook's last page ("How to print and assemble", the template
`templates/rulebooks/how-to-print.md.j2`) is drawn from this plan, so the
page names exactly the files the same build writes: the same file-name
functions, the same duplex decision (`imposition.sheet_mode`), the same grid
and packing for sheet counts, the same A5 two-up test.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.model import Component, Game
from generator.project import Project
from generator.render.base.units import paper as registered_paper
from generator.render.base.units import pt
from generator.render.sheets.options import PrintSettings

# How to feed each kind of file through the printer, by the word its file name ends with.
SIDES = {
    "duplex-long": "both sides, flip on the long edge",
    "duplex-short": "both sides, flip on the short edge",
    "gutterfold": "one side; fold each sheet on the dashed line, fronts against backs, and glue",
    "single-sided": "one side",
    "2up": "one side; cut each sheet in half on the dashed line",
    "2up-duplex-short": "both sides, flip on the short edge; cut each sheet in half on the dashed line",
}


@dataclass(frozen=True)
class PrintFile:
    """One file to print: its name, what it holds, how many sheets, on what, and how."""

    name: str
    holds: str
    sheets: int | None  # sheets of paper per print, when the plan knows it without drawing
    stock: str  # "card stock" or "plain paper"
    sides: str
    copies: str  # how many prints to make, in words
    prints: int = 1  # ... as a number: a player screen is one to a file, so its file prints once per player


@dataclass(frozen=True)
class PrintPlan:
    """Every printable file of one game on one paper, and the steps after printing."""

    paper: str  # the paper's label ("A4")
    files: tuple[PrintFile, ...]
    cut_marks: bool
    gutter_fold: bool
    mixed: str  # what shares the tokens sheet ("" when nothing does)
    folds: tuple[tuple[str, int], ...]  # (sheet name, panels) of every sheet that folds to stand
    two_up: bool
    booklet: bool
    boards: tuple[str, ...]  # boards tiled over several sheets each (to glue together); one-sheet boards are not
    back_offset: tuple[float, float]

    @property
    def sheets(self) -> int:
        """Sheets of card stock for the whole game: each file's sheets times the prints it asks for."""
        return sum((f.sheets or 0) * f.prints for f in self.files if f.stock == "card stock")

    @property
    def double_sided(self) -> bool:
        """Whether a component sheet prints on both sides: then the rulebook says how to check that its backs
        register (what --back-offset moves); a two-sided rulebook or score sheet has no backs to line up."""
        return any(f.stock == "card stock" and f.sides.startswith("both sides") for f in self.files)


def print_plan(game: Game, project: Project, options: PrintSettings, paper: str) -> PrintPlan:
    """The plan for `game` on `paper` with the build's `options` (a `BuildOptions` or `PrintChoices`)."""
    from generator.render.documents.boards import board_components
    from generator.render.documents.boards import plan as board_tiling
    from generator.render.documents.rulebook import parse_template
    from generator.render.documents.sheets import lay_out_sheet, sheet_name, sheet_templates, split_settings
    from generator.render.documents.two_up import fits_two_up
    from generator.render.faces.renderer import renderer
    from generator.render.faces.style import variant_name
    from generator.render.sheets.imposition import (
        MIXED,
        mixed_components,
        shared_sheets,
        sheet_counts,
        sheet_mode,
        sheets_for,
    )
    from generator.render.sheets.options import MODE_NAMES, SheetOptions, sheet_file_name

    sheet = registered_paper(paper)
    settings = SheetOptions(sheet, options.bleed, options.duplex, options.crop_marks, options.cut_lines,
                            options.back_offset)
    faces = renderer(project)
    files: list[PrintFile] = []
    if options.booklet:
        files.append(PrintFile(f"{game.id}-booklet-{paper}.pdf", "the rules as a folded booklet", None,
                               "plain paper", "both sides, flip on the short edge", "one"))
    files.append(PrintFile(f"{game.id}-rules-{paper}.pdf", "the rules", None, "plain paper",
                           "one side, or both sides flipped on the long edge", "one"))
    modes = []
    for subject, members in shared_sheets(game).items():  # a component's own sheet, or one shared by one size
        counts = sheet_counts(faces, game, members, settings, mixed=False)
        if not any(counts):  # a spilling pile too small to fill a page is all on the mixed sheet
            continue
        mode = sheet_mode(faces, game, members, options.duplex)
        modes.append(mode)
        name = variant_name(sheet_file_name(game.id, subject, paper, mode), options)  # as the build names it
        files.append(PrintFile(name, _holds(members, counts), sheets_for(members, settings, mode, counts, False),
                               "card stock", SIDES[MODE_NAMES[mode]], "one"))
    mixed = mixed_components(game)
    if mixed:
        mode = sheet_mode(faces, game, mixed, options.duplex, mixed=True)
        mixed_counts = sheet_counts(faces, game, mixed, settings, mixed=True)
        modes.append(mode)
        name = variant_name(sheet_file_name(game.id, MIXED, paper, mode), options)
        files.append(PrintFile(name, _holds(mixed, mixed_counts), sheets_for(mixed, settings, mode, mixed_counts, True),
                               "card stock", SIDES[MODE_NAMES[mode]], "one"))
    folds: list[tuple[str, int]] = []
    two_up = False
    for template in sheet_templates(game, project):
        name = sheet_name(template)
        display, blocks = parse_template(template, game, project)
        found, _ = split_settings(blocks, display)
        framed = game.component(found.frame) if found.frame and game.has_component(found.frame) else None
        title = framed.plural if framed else name.replace("-", " ")
        prints = -(-framed.count // found.copies) if framed else 1  # a screen per player, one to a file: print 5
        copies = _copies(prints, found.copies)
        if found.panels > 1:
            folds.append((title, found.panels))
        layout = lay_out_sheet(game, project, template, paper, (display, blocks))  # as the build lays it out
        per_copy, landscape = max(1, layout.pages), layout.landscape
        stock = "card stock" if found.panels > 1 else "plain paper"  # a folded screen must stand up
        if framed and framed.size.name == "a5" and fits_two_up(framed.size.width, framed.size.height, sheet):
            two_up = True
            word = "2up" if per_copy == 1 else "2up-duplex-short"
            files.append(PrintFile(f"{game.id}-{name}-{paper}-{word}.pdf", f"{title}, two to a page",
                                   _paper_sheets(per_copy, -(-found.copies // 2)), stock, SIDES[word], copies,
                                   prints))
        else:
            sides = "one side" if per_copy == 1 else SIDES["duplex-short" if landscape else "duplex-long"]
            files.append(PrintFile(f"{game.id}-{name}-{paper}.pdf", title, _paper_sheets(per_copy, found.copies),
                                   stock, sides, copies, prints))
        if _has_fields(blocks):
            files.append(PrintFile(f"{game.id}-{name}-fillable-{paper}.pdf", f"{title} to fill in on screen",
                                   None, "none: type into it", "no need to print", "none"))
    boards = []
    for component in board_components(game):
        tiled = board_tiling(pt(component.size.width), pt(component.size.height), paper).sheets > 1
        if tiled:
            boards.append(component.name)
        whole = f"the {component.plural}, each whole on one sheet" if component.count > 1 else \
            f"the {component.name}, whole on one sheet"
        title = f"the {component.name}, in pieces" if tiled else whole
        files.append(PrintFile(f"{game.id}-{component.id}-{paper}.pdf", title, None,
                               "plain paper or card stock", "one side", "one"))
    return PrintPlan(
        paper=sheet.label, files=tuple(files), cut_marks=options.crop_marks,
        gutter_fold=any(m == "gutter-fold" for m in modes), mixed=_holds(mixed, mixed_counts) if mixed else "",
        folds=tuple(folds), two_up=two_up, booklet=options.booklet, boards=tuple(boards),
        back_offset=(options.back_offset[0], options.back_offset[1]),
    )


def _paper_sheets(pages: int, copies: int) -> int:
    """Sheets of paper one print of a sheet file takes: `copies` copies of `pages` pages each, both sides of
    the paper used when a copy has more than one page (as the plan's `sides` says)."""
    return copies * (-(-pages // 2) if pages > 1 else 1)


def _copies(prints: int, per_file: int) -> str:
    held = f" (it holds {per_file})" if per_file > 1 else ""
    return ("one" if prints == 1 else str(prints)) + held


def _holds(components: list[Component], counts: list[int]) -> str:
    parts = [f"{n} {c.plural if n != 1 else c.name}" for c, n in zip(components, counts) if n]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _has_fields(blocks: Any) -> bool:
    """A sheet gets a fillable twin when it has fill-in boxes (`[[name]]` table cells), at any depth."""
    from generator.render.documents.markup import Field, Table

    for block in blocks:
        if isinstance(block, Table) and any(isinstance(cell, Field) for row in block.rows for cell in row):
            return True
        if _has_fields(getattr(block, "blocks", ()) or ()):
            return True
    return False
