"""Issue 32, finding 8: card stock is not wasted on a lone piece. Sheets counted from the sheet PDFs themselves.

Was: US Letter holds 35 of the 36 Under Fire ship tiles, so the 36th took a duplex sheet of its own
(4 sheets of card stock on Letter)."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from render_pdf import placements

from generator.errors import DataError
from generator.load import load_game
from generator.project import Project
from generator.render.base.units import PAPERS
from generator.render.documents.print_plan import print_plan
from generator.render.faces.renderer import renderer
from generator.render.sheets.grid import make_grid
from generator.render.sheets.imposition import impose_mixed, impose_shared, mixed_components, shared_sheets
from generator.render.sheets.options import MODE_NAMES, PrintChoices, SheetOptions


def _sheet_pdfs(project: Project, game_id: str, paper: str, duplex: str = "long") -> dict[str, tuple[bytes, str]]:
    """Every card-stock PDF of the game on `paper` as the build draws it: (bytes, mode) by component, shared
    sheet or 'tokens'."""
    game = load_game(project, game_id)
    options = SheetOptions(PAPERS[paper], duplex=duplex)
    faces = renderer(project)
    made = {name: impose_shared(faces, game, members, options) for name, members in shared_sheets(game).items()}
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


# Pirate Tricks' card stock, sheets by paper and --duplex mode: crew, bid cards, score cards, tokens.
# Was 7 + 2 + (2 + 1 + 1) + 2 = 15 with duplex, 16 without (3 gutter-fold token pages), on both papers.
PIRATE_TRICKS_SHEETS = {
    ("a4", "long"): {"crew": 7, "bid": 1, "score-cards": 3, "tokens": 2},
    ("a4", "short"): {"crew": 7, "bid": 1, "score-cards": 3, "tokens": 2},
    ("a4", "none"): {"crew": 7, "bid": 1, "score-cards": 3, "tokens": 3},
    ("letter", "long"): {"crew": 7, "bid": 1, "score-cards": 3, "tokens": 2},
    ("letter", "short"): {"crew": 7, "bid": 1, "score-cards": 3, "tokens": 2},
    # the two bid cards left over fit the gutter-fold half page only turned, and take a fourth token page
    ("letter", "none"): {"crew": 7, "bid": 1, "score-cards": 3, "tokens": 4},
}
FACE = re.compile(rb" cm\s+/(FormXob\.face\d+) Do")


@pytest.mark.slow
@pytest.mark.parametrize("paper, duplex", list(PIRATE_TRICKS_SHEETS))
def test_pirate_tricks_wastes_no_sheet_on_a_lone_card(project, paper, duplex) -> None:
    """Counted from the built PDFs in every duplex mode: the 10 recruitment, 9 capture and 7 treasure cards
    share one sheet (`sheet: score-cards`: 3 sheets, not 2 + 1 + 1), and the bid cards that would leave their
    own last page part-filled go on the tokens sheet (`sheet: spill`), so neither the 10th recruitment card
    nor the 5th bid card has a page to itself."""
    pdfs = _sheet_pdfs(project, "pirate-tricks", paper, duplex)
    sheets = {name: _sheets(pdf, mode) for name, (pdf, mode) in pdfs.items()}
    assert sheets == PIRATE_TRICKS_SHEETS[(paper, duplex)]
    score_mode = pdfs["score-cards"][1]
    assert score_mode == ("fronts-only" if duplex == "none" else f"duplex-{duplex}")  # a pile's one back left off
    pages = {name: PdfReader(io.BytesIO(pdf)).pages for name, (pdf, _) in pdfs.items()}
    fronts = {name: pages[name][::2] if mode.startswith("duplex") else pages[name] for name, (_, mode) in pdfs.items()}

    def placed(name: str) -> int:
        return sum(len(FACE.findall(page.get_contents().get_data())) for page in fronts[name])

    assert placed("score-cards") == 26 * (2 if pdfs["score-cards"][1] == "gutter-fold" else 1)
    own_bids = placed("bid")
    assert own_bids % len(fronts["bid"]) == 0 and own_bids // len(fronts["bid"]) >= 3  # full pages only
    coins_markers_go_first = 71 + 5 + 1
    on_tokens = placed("tokens")
    if pdfs["tokens"][1] == "gutter-fold":  # the coins' backs on the other half; bid cards and markers have none
        on_tokens -= 71
    assert own_bids + on_tokens - coins_markers_go_first == 5  # every bid card once
    if score_mode.startswith("duplex"):  # every score card's back behind it
        assert sum(len(FACE.findall(page.get_contents().get_data())) for page in pages["score-cards"][1::2]) == 26
    plan = print_plan(load_game(project, "pirate-tricks"), project, PrintChoices(duplex=duplex), paper)
    card_stock = {f.name: f.sheets for f in plan.files if f.stock == "card stock" and f.sheets is not None
                  and "screen" not in f.name}  # the how-to-print page: each file's sheets as the PDFs have them
    mode_names = {name: MODE_NAMES[mode] for name, (_, mode) in pdfs.items()}
    assert card_stock == {f"pirate-tricks-{name}-{paper}-{mode_names[name]}.pdf": count
                          for name, count in sheets.items()}


# Every other game's card stock by paper and --duplex mode (long, short, none): what a test must notice changing.
OTHER_GAMES_SHEETS = {
    ("counterattack", "a4"): (7, 7, 7), ("counterattack", "letter"): (7, 7, 7),
    ("all-hands-on-deck", "a4"): (12, 12, 14), ("all-hands-on-deck", "letter"): (12, 12, 14),
    ("pirates-under-fire", "a4"): (3, 3, 5), ("pirates-under-fire", "letter"): (3, 3, 6),
}


@pytest.mark.slow
@pytest.mark.parametrize("game_id, paper", list(OTHER_GAMES_SHEETS))
def test_every_games_card_stock_in_every_duplex_mode(project, game_id, paper) -> None:
    found = tuple(sum(_sheets(pdf, mode) for pdf, mode in _sheet_pdfs(project, game_id, paper, duplex).values())
                  for duplex in ("long", "short", "none"))
    assert found == OTHER_GAMES_SHEETS[(game_id, paper)]


def test_only_one_size_shares_a_sheet(project_copy) -> None:
    """A shared sheet is one grid: a component of another size naming it is a one-line data error."""
    path = project_copy.data_dir / "pirate-tricks" / "pieces.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("sheet: spill", "sheet: score-cards", 1), encoding="utf-8")
    with pytest.raises(DataError, match=r"shares sheet 'score-cards'.*only faces of one size"):
        load_game(project_copy, "pirate-tricks")


def test_a_shared_sheet_is_not_named_after_a_component(project_copy) -> None:
    path = project_copy.data_dir / "pirate-tricks" / "score.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("sheet: score-cards", "sheet: crew"), encoding="utf-8")
    with pytest.raises(DataError, match="sheet 'crew' is a component's id"):
        load_game(project_copy, "pirate-tricks")


@pytest.mark.slow
def test_only_one_pile_still_builds_its_whole_shared_sheet(project_copy) -> None:
    from generator.build.options import BuildOptions
    from generator.build.session import build

    build(project_copy, ["pirate-tricks"], BuildOptions(papers=("a4",), only=("capture",), exports=("sheets",)))
    written = sorted(p.name for p in (project_copy.output_dir / "pirate-tricks").glob("*.pdf"))
    assert written == ["pirate-tricks-score-cards-a4-duplex-long.pdf"]
    pages = PdfReader(project_copy.output_dir / "pirate-tricks" / written[0]).pages
    assert sum(len(FACE.findall(page.get_contents().get_data())) for page in pages[::2]) == 26
