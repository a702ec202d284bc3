"""Issue 32, finding 8: card stock is not wasted on a lone piece. Sheets counted from the sheet PDFs themselves.

Was: US Letter holds 35 of the 36 Under Fire ship tiles, so the 36th took a duplex sheet of its own
(4 sheets of card stock on Letter)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from render_pdf import placements

from generator.load import load_game
from generator.project import Project
from generator.render.base.units import PAPERS
from generator.render.faces.renderer import renderer
from generator.render.sheets.grid import make_grid
from generator.render.sheets.imposition import impose, impose_mixed, mixed_components
from generator.render.sheets.options import SheetOptions


def _sheet_pdfs(project: Project, game_id: str, paper: str) -> dict[str, tuple[bytes, str]]:
    """Every card-stock PDF of the game on `paper` as the build draws it: (bytes, mode) by component or 'tokens'."""
    game = load_game(project, game_id)
    options = SheetOptions(PAPERS[paper])
    faces = renderer(project)
    made = {c.id: impose(faces, game, c, options) for c in game.components if c.printable and c.sheet != "mixed"}
    mixed = mixed_components(game)
    if mixed:
        made["tokens"] = impose_mixed(faces, game, mixed, options)
    return {name: (result.pdf, result.mode) for name, result in made.items()}


def _sheets(pdf: bytes, mode: str) -> int:
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    return pages // 2 if mode.startswith("duplex") else pages


@pytest.mark.slow
@pytest.mark.parametrize("game_id, paper, sheets", [
    ("pirates-under-fire", "letter", 3), ("pirates-under-fire", "a4", 3),
])
def test_card_stock_sheets_used(project, game_id, paper, sheets) -> None:
    pdfs = _sheet_pdfs(project, game_id, paper)
    assert sum(_sheets(pdf, mode) for pdf, mode in pdfs.values()) == sheets


def test_36_ship_tiles_cannot_share_one_letter_page_within_print_conventions() -> None:
    """Why the tiles share the tokens sheet rather than one page: 6 x 34 mm across US Letter leaves 0.95 mm
    of bleed inside the 5 mm margin, below the 1.5 mm a sheet keeps; 8 down leaves 3.7 mm of margin."""
    grid = make_grid(PAPERS["letter"], 34, 34, 3.0)
    assert grid is not None and grid.per_page == 35


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_36th_tile_shares_its_page(project, paper) -> None:
    for game_id, sheet in (("pirates-under-fire", "tokens"),):
        pdfs = _sheet_pdfs(project, game_id, paper)
        assert not {"ship", "mercenary"} & set(pdfs)  # no sheets of their own
        for name, (pdf, mode) in ((sheet, pdfs[sheet]),):
            fronts = PdfReader(io.BytesIO(pdf)).pages
            fronts = fronts[::2] if mode.startswith("duplex") else fronts
            for index, page in enumerate(fronts):
                assert len(placements(page)) > 1, (game_id, name, paper, index)
